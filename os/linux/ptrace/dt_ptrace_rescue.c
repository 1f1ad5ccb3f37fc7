/* SPDX-License-Identifier: MIT */
/*
 * dt_ptrace_rescue.c: a system call being injected into a traced process
 * when the tracer is SIGKILLed, undone by the guard that outlives it
 * (cmd/dtrace_guard.c).
 *
 * The engine runs system calls in its tracees (a scratch area, the
 * breakpoint handler of dt_ptrace_trap.c, counting pages) by writing a
 * system call instruction over the program's entry point and setting the registers for
 * it (dt_pt_inject_syscall()).  Killed in the middle, the tracer leaves a
 * thread with borrowed registers in borrowed code, which no handler in
 * the process can mend: its own registers are only in the tracer.  So
 * they are kept in a page shared with the guard, the process that
 * started the tracer and outlives it (mapped by the guard before it
 * forks, inherited): the thread, its registers before, the entry point
 * and the bytes the code replaced.  The code after the syscall is a jump
 * to itself: the tracer never lets the thread reach it (it waits for the
 * syscall's exit stop, PTRACE_SYSCALL), and with the tracer gone the
 * thread spins there, harmlessly, until the guard, once its child has
 * died, seizes it, gives it its registers back (if it is still in the
 * borrowed code), writes the original bytes back and lets it go.
 *
 * Without a guard (a library user that traces itself) the code after the
 * syscall is a breakpoint, as it was: such a thread dies with its tracer.
 *
 * Where the ISA has it (x86-64: dt_isa_ptrace_injback()), the code after
 * the syscall takes the thread back by itself instead, its registers kept
 * on its own stack: the guard may be killed with the tracer (pkill -9
 * dtrace names both).  The guard still undoes what it finds: registers of
 * a thread still in that code, and the bytes at the entry point.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "os/linux/ptrace/dt_ptrace_impl.h"

typedef struct dt_pt_journal {
	int pj_tid;		/* the thread under way, or 0 */
	uint64_t pj_entry;	/* where the borrowed code is */
	uint8_t pj_orig[DT_PT_INJLEN]; /* the bytes it replaced, */
	uint64_t pj_len;	/* as many as this */
	dt_isa_ptregs_t pj_regs; /* the thread's registers before */
} dt_pt_journal_t;

static dt_pt_journal_t *dt_pt_journal;

int
dt_ptrace_rescue_open(void)
{
	void *p;

	if (dt_pt_journal != NULL)
		return 0;
	p = mmap(NULL, sizeof (dt_pt_journal_t), PROT_READ | PROT_WRITE,
	    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	dt_pt_journal = p;
	return 0;
}

bool
dt_pt_rescue_on(void)
{
	return dt_pt_journal != NULL;
}

void
dt_pt_rescue_note(int tid, uint64_t entry, const uint8_t *orig, size_t len,
    const dt_isa_ptregs_t *regs)
{
	if (dt_pt_journal == NULL || len > DT_PT_INJLEN)
		return;
	dt_pt_journal->pj_entry = entry;
	memcpy(dt_pt_journal->pj_orig, orig, len);
	dt_pt_journal->pj_len = len;
	dt_pt_journal->pj_regs = *regs;
	__atomic_store_n(&dt_pt_journal->pj_tid, tid, __ATOMIC_RELEASE);
}

void
dt_pt_rescue_done(void)
{
	if (dt_pt_journal != NULL)
		__atomic_store_n(&dt_pt_journal->pj_tid, 0, __ATOMIC_RELEASE);
}

void
dt_ptrace_rescue(void)
{
	dt_pt_journal_t *j = dt_pt_journal;
	dt_isa_ptregs_t r;
	char path[64];
	int tid, st, sig = 0, fd;

	if (j == NULL || (tid = __atomic_load_n(&j->pj_tid,
	    __ATOMIC_ACQUIRE)) == 0)
		return;
	/* Without holding it, the text cannot be touched: it may be there. */
	if (ptrace(PTRACE_SEIZE, tid, 0, 0) != 0)
		return;
	(void) ptrace(PTRACE_INTERRUPT, tid, 0, 0);
	for (;;) {
		if (waitpid(tid, &st, __WALL) != tid) {
			if (errno == EINTR)
				continue;
			return;
		}
		if (!WIFSTOPPED(st))
			return;		/* it ended */
		if ((st >> 16) == PTRACE_EVENT_STOP)
			break;
		/* A signal for it: given back with the registers. */
		if ((st >> 16) == 0) {
			sig = WSTOPSIG(st);
			break;
		}
		(void) ptrace(PTRACE_CONT, tid, 0, 0);
	}
	if (dt_isa_ptrace_getregs(tid, &r) == 0 &&
	    DT_PT_PC(&r) >= j->pj_entry &&
	    DT_PT_PC(&r) <= j->pj_entry + j->pj_len)
		(void) dt_isa_ptrace_setregs(tid, &j->pj_regs);
	(void) snprintf(path, sizeof (path), "/proc/%d/mem", tid);
	if ((fd = open(path, O_RDWR | O_CLOEXEC)) >= 0) {
		(void) !pwrite(fd, j->pj_orig, j->pj_len,
		    (off_t) j->pj_entry);
		(void) close(fd);
	}
	(void) ptrace(PTRACE_DETACH, tid, 0, (void *) (long) sig);
	j->pj_tid = 0;
}
