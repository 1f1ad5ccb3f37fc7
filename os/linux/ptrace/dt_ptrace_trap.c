/* SPDX-License-Identifier: MIT */
/*
 * dt_ptrace_trap.c: a handler of the breakpoint's signal (SIGILL on
 * x86-64, SIGTRAP on arm64: dt_isa_ptrace.ip_brksig) in each traced
 * process, so that a breakpoint left behind by a tracer that died
 * (SIGKILL, the OOM killer) puts the original instruction back and runs
 * it instead of killing the process.
 *
 * Why in the process: when the tracer dies, the kernel lets its tracees
 * go as they are, and the next breakpoint any thread reaches is a signal
 * whose default action ends the process; no other process can take the
 * breakpoints out before some thread reaches one.  A handler runs in the
 * thread itself, at that very moment.  The breakpoint faults with the pc
 * at the site: a thread stopped on it when the tracer dies has the stop's
 * signal dropped (Linux 6.18) and faults there again, into the handler;
 * with x86-64's int3 it would go on one byte past the site, inside the
 * instruction the int3 replaced.
 *
 * At the first placement of breakpoints in a process (and again after
 * exec, which resets handlers and replaces the text), an area is mapped
 * in it by an injected mmap(2): the handler's code (the ISA's,
 * dt_isa_trap_code), the process's previous action, and a table of every
 * breakpoint placed (address, original bytes), appended to before each
 * breakpoint is written; a full table links a further area.  The handler
 * is installed by an injected rt_sigaction(2) whose old action is kept in
 * the area.
 *
 * While the tracer lives, a breakpoint's signal is a ptrace stop and never
 * reaches the handler: the tracer drops it.  With the tracer gone, the
 * handler, for a signal whose pc is a breakpoint of the table, writes
 * the original bytes back through /proc/self/mem (which writes past the
 * text's protection, as the tracer does) and returns, so the original
 * instruction runs; each site is mended the first time it is reached.
 * Where an out-of-line copy ends in a trap rather than a jump back
 * (arm64), the handler sends a thread that reaches it on to the address
 * the copy holds.  Should a kernel deliver the stop's signal to a thread
 * the tracer had moved on already (emulated, or sent to an out-of-line
 * copy) but not resumed, the tracer marks each such stop first
 * (PTRACE_SETSIGINFO: si_errno a magic number, si_addr the pc it sets),
 * and the handler returns at once for a signal so marked whose pc is
 * that one.  Any other such signal is the program's: it goes to the
 * action the program had (its handler called with the same arguments,
 * ignored, or the default action restored and the signal raised again,
 * which ends the process as it would have).
 *
 * When tracing ends normally the breakpoints are gone and the previous
 * action is put back (if the program has not changed it since); the area
 * stays mapped, as the scratch area does.
 *
 * A system call being injected when the tracer dies is the guard's to
 * undo (dt_ptrace_rescue.c).
 *
 * Limits: the handler needs /proc mounted in the process's namespace; a
 * program that installs a handler of its own for that signal while
 * traced replaces this one (tracing goes on; only the protection is lost).
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>

#include "os/linux/ptrace/dt_ptrace_impl.h"

#define DT_SA_SIGINFO  0x00000004ULL
#define DT_SA_ONSTACK  0x08000000ULL
#define DT_SA_RESTART  0x10000000ULL
#define DT_SA_RESTORER 0x04000000ULL

/* Map an area for pp: its address, or 0. */
static uint64_t
dt_pt_trap_map(dt_pt_proc_t *pp, dt_pt_thread_t *t)
{
	uint64_t a[6] = { 0, DT_TRAP_AREASZ, 7 /* PROT_RWX */,
		0x22 /* MAP_PRIVATE | MAP_ANONYMOUS */, (uint64_t) -1, 0 };
	int64_t ret = dt_pt_inject_syscall(pp, t, SYS_mmap, a);

	return ret > 0 ? (uint64_t) ret : 0;
}

/*
 * A thread of pp that blocks the breakpoint's signal, or 0.  The kernel
 * delivers a fault's signal even when it is blocked, but with the action
 * reset to the default first (force_sig_fault()): the handler never runs
 * in such a thread, and a breakpoint it reaches with no tracer ends the
 * process.
 */
static int
dt_pt_trap_blocked(const dt_pt_proc_t *pp)
{
	char path[64], line[256];
	struct dirent *de;
	DIR *d;
	int tid = 0;

	(void) snprintf(path, sizeof (path), "/proc/%d/task", pp->pp_pid);
	if ((d = opendir(path)) == NULL)
		return 0;
	while (tid == 0 && (de = readdir(d)) != NULL) {
		unsigned long long blk = 0;
		int id = atoi(de->d_name);
		FILE *fp;

		if (id <= 0)
			continue;
		(void) snprintf(path, sizeof (path), "/proc/%d/task/%d/status",
		    pp->pp_pid, id);
		if ((fp = fopen(path, "re")) == NULL)
			continue;
		while (fgets(line, sizeof (line), fp) != NULL) {
			if (strncmp(line, "SigBlk:", 7) == 0) {
				blk = strtoull(line + 7, NULL, 16);
				break;
			}
		}
		(void) fclose(fp);
		if (blk & (1ULL << (DT_PT_BRKSIG - 1)))
			tid = id;
	}
	(void) closedir(d);
	return tid;
}

int
dt_pt_trap_install(dt_pt_proc_t *pp, dt_pt_thread_t *t, char *why,
    size_t whylen)
{
	size_t len = (size_t) (dt_isa_trap_code_end - dt_isa_trap_code);
	uint64_t area, args[6];
	dt_ksigaction_t act, old;
	static const char path[16] = "/proc/self/mem";
	int tid;

	if (pp->pp_trap != 0)
		return 0;
	(void) snprintf(why, whylen, "failed to install the handler that "
	    "mends its probes should dtrace be killed");
	if (dt_pt_sandboxed(pp)) {
		(void) snprintf(why, whylen, "it runs under a seccomp filter "
		    "of its own, which could kill it for a system call the "
		    "ptrace engine would run in it");
		return -1;
	}
	if ((tid = dt_pt_trap_blocked(pp)) != 0) {
		(void) snprintf(why, whylen, "its thread %d blocks %s, so "
		    "that a probe it reached after dtrace were killed "
		    "(SIGKILL) would kill it", tid, DT_PT_BRKSIG == SIGILL ?
		    "SIGILL" : "SIGTRAP");
		return -1;
	}
	if (len > DT_TRAP_OLDACT || (area = dt_pt_trap_map(pp, t)) == 0)
		return -1;
	if (dt_pt_text_write(pp, area, dt_isa_trap_code, len) != 0 ||
	    dt_pt_text_write(pp, area + DT_TRAP_PATH, path, sizeof (path)) !=
	    0)
		return -1;
	/* The previous action, then ours with the flags it needs from it. */
	args[0] = DT_PT_BRKSIG;
	args[1] = 0;
	args[2] = area + DT_TRAP_OLDACT;
	args[3] = 8;
	args[4] = args[5] = 0;
	if (dt_pt_inject_syscall(pp, t, SYS_rt_sigaction, args) != 0 ||
	    dt_pt_text_read(pp, area + DT_TRAP_OLDACT, &old, sizeof (old)) !=
	    0)
		return -1;
	act.ka_handler = area;
	act.ka_flags = DT_SA_SIGINFO | DT_SA_RESTART | DT_SA_RESTORER |
	    (old.ka_flags & DT_SA_ONSTACK);
	act.ka_restorer = area + (uint64_t) (dt_isa_trap_restorer -
	    dt_isa_trap_code);
	act.ka_mask = old.ka_mask;
	if (dt_pt_text_write(pp, area + DT_TRAP_NEWACT, &act, sizeof (act)) !=
	    0)
		return -1;
	args[1] = area + DT_TRAP_NEWACT;
	args[2] = 0;
	if (dt_pt_inject_syscall(pp, t, SYS_rt_sigaction, args) != 0)
		return -1;
	pp->pp_trap = pp->pp_traplast = area;
	pp->pp_trapn = 0;
	return 0;
}

int
dt_pt_trap_note(dt_pt_proc_t *pp, dt_pt_thread_t *t, uint64_t addr,
    const uint8_t *orig, size_t len)
{
	uint8_t ent[DT_TRAP_ENTSZ] = { 0 };
	uint64_t n, next;

	if (pp->pp_trap == 0 || len == 0 || len > DT_TRAP_ENTSZ - 9)
		return -1;
	if (pp->pp_trapn == (DT_TRAP_AREASZ - DT_TRAP_TABLE) / DT_TRAP_ENTSZ) {
		/* Full: a further area, linked once it is written. */
		if (t == NULL || (next = dt_pt_trap_map(pp, t)) == 0 ||
		    dt_pt_text_write(pp, pp->pp_traplast + DT_TRAP_NEXT, &next,
		    sizeof (next)) != 0)
			return -1;
		pp->pp_traplast = next;
		pp->pp_trapn = 0;
	}
	memcpy(ent, &addr, sizeof (addr));
	ent[8] = (uint8_t) len;
	memcpy(ent + 9, orig, len);
	n = pp->pp_trapn + 1;
	/* The entry, then the count that makes it seen. */
	if (dt_pt_text_write(pp, pp->pp_traplast + DT_TRAP_TABLE +
	    pp->pp_trapn * DT_TRAP_ENTSZ, ent, sizeof (ent)) != 0 ||
	    dt_pt_text_write(pp, pp->pp_traplast + DT_TRAP_NSITES, &n,
	    sizeof (n)) != 0)
		return -1;
	pp->pp_trapn = n;
	return 0;
}

/*
 * The areas an earlier tracer of pp (killed) left, found by their code
 * in pp's private writable and executable mappings: each first area, and
 * the areas linked from it.
 */
static void
dt_pt_trap_mend_area(dt_pt_proc_t *pp, uint64_t area)
{
	for (int hops = 0; area != 0 && hops < 4096; hops++) {
		uint64_t n, next;

		if (dt_pt_text_read(pp, area + DT_TRAP_NSITES, &n,
		    sizeof (n)) != 0 || dt_pt_text_read(pp, area + DT_TRAP_NEXT,
		    &next, sizeof (next)) != 0)
			return;
		if (n > (DT_TRAP_AREASZ - DT_TRAP_TABLE) / DT_TRAP_ENTSZ)
			return;
		for (uint64_t i = 0; i < n; i++) {
			uint8_t ent[DT_TRAP_ENTSZ], cur[DT_TRAP_ENTSZ - 9];
			uint64_t addr;
			size_t len;

			if (dt_pt_text_read(pp, area + DT_TRAP_TABLE + i *
			    DT_TRAP_ENTSZ, ent, sizeof (ent)) != 0)
				return;
			memcpy(&addr, ent, sizeof (addr));
			len = ent[8];
			/*
			 * Still patched (our breakpoint, or a jump to a
			 * counting trampoline): the original bytes back.
			 */
			if (len == 0 || len > sizeof (cur) ||
			    dt_pt_text_read(pp, addr, cur, len) != 0 ||
			    memcmp(cur, ent + 9, len) == 0)
				continue;
			if ((len == DT_PT_BRKLEN && memcmp(cur,
			    dt_isa_ptrace.ip_brk, len) == 0) ||
			    (len == DT_PT_JMPLEN &&
			    (cur[dt_isa_ptrace.ip_jmpop_at] &
			    dt_isa_ptrace.ip_jmpop_mask) ==
			    dt_isa_ptrace.ip_jmpop))
				(void) dt_pt_text_write(pp, addr, ent + 9, len);
		}
		area = next;
	}
}

void
dt_pt_trap_mend(dt_pt_proc_t *pp)
{
	size_t len = (size_t) (dt_isa_trap_code_end - dt_isa_trap_code);
	char path[64], line[512];
	uint8_t head[64];
	FILE *fp;

	if (len > sizeof (head))
		len = sizeof (head);
	(void) snprintf(path, sizeof (path), "/proc/%d/maps", pp->pp_pid);
	if ((fp = fopen(path, "re")) == NULL)
		return;
	while (fgets(line, sizeof (line), fp) != NULL) {
		unsigned long long lo, hi;
		char perm[8];

		if (sscanf(line, "%llx-%llx %7s", &lo, &hi, perm) != 3 ||
		    strcmp(perm, "rwxp") != 0)
			continue;
		for (uint64_t a = lo; a + DT_TRAP_AREASZ <= hi; a += 4096) {
			if (dt_pt_text_read(pp, a, head, len) == 0 &&
			    memcmp(head, dt_isa_trap_code, len) == 0)
				dt_pt_trap_mend_area(pp, a);
		}
	}
	(void) fclose(fp);
}

void
dt_pt_trap_moved(int tid, uint64_t pc)
{
	siginfo_t si;

	memset(&si, 0, sizeof (si));
	si.si_signo = DT_PT_BRKSIG;
	si.si_code = dt_isa_ptrace.ip_brkcode;
	si.si_errno = DT_TRAP_MAGIC;
	si.si_addr = (void *) (uintptr_t) pc;
	(void) ptrace(PTRACE_SETSIGINFO, tid, 0, &si);
}

void
dt_pt_trap_remove(dt_pt_proc_t *pp, dt_pt_thread_t *t)
{
	uint64_t args[6] = { DT_PT_BRKSIG, 0, 0, 8, 0, 0 };
	dt_ksigaction_t cur;

	if (pp->pp_trap == 0)
		return;
	/* Only if the action is still ours: the program may have its own. */
	args[2] = pp->pp_trap + DT_TRAP_NEWACT;
	if (dt_pt_inject_syscall(pp, t, SYS_rt_sigaction, args) == 0 &&
	    dt_pt_text_read(pp, pp->pp_trap + DT_TRAP_NEWACT, &cur,
	    sizeof (cur)) == 0 && cur.ka_handler == pp->pp_trap) {
		args[1] = pp->pp_trap + DT_TRAP_OLDACT;
		args[2] = 0;
		(void) dt_pt_inject_syscall(pp, t, SYS_rt_sigaction, args);
	}
	pp->pp_trap = pp->pp_traplast = 0;
	pp->pp_trapn = 0;
}
