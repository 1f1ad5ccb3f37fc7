/* SPDX-License-Identifier: MIT */
/*
 * dt_ptrace.c: the ptrace engine -- pid probes of the user's own processes
 * through breakpoints, for a user who may not load BPF programs.
 *
 * It is the interpreter engine (common/engine/dt_interp_engine.c) with a
 * different probe context: its ops call the interpreter's, and it adds
 * only what ptrace needs.  At dtrace_go() every process that enabled pid
 * probes name is held through ptrace (a -c child already is, a -p process
 * is seized thread by thread with PTRACE_SEIZE and stopped with
 * PTRACE_INTERRUPT), and, while all its threads are stopped:
 *
 *  - a scratch area is mapped in it by an injected mmap(2) system call
 *    (the syscall instruction written over the program's entry point,
 *    which has run already), readable, writable and executable;
 *  - each probe site's instruction is decoded (the ISA's
 *    dt_isa_ptrace_decode()) and, when it runs out of line, its copy
 *    (dt_isa_ptrace_ool()) written in the scratch area;
 *  - a breakpoint (dt_isa_ptrace.ip_brk: x86-64's 0xce, an invalid
 *    opcode; arm64's brk #0) replaces the start of each site
 *    (/proc/<pid>/mem), after a handler of its signal that mends it
 *    should we die is put in the process (dt_ptrace_trap.c), except, on
 *    x86-64, at entry sites whose probes only count: a jump to a counting
 *    trampoline replaces their first 5 bytes (dt_ptrace_fast.c), and the
 *    counters are read and handed to the interpreter as the wait for
 *    stops returns, at snapshots, at thread exits and at the end.
 *
 * A hit is a stop of one thread by the breakpoint's signal (SIGILL,
 * SIGTRAP) with the pc at a site.  The enabled clauses run at once
 * (dt_interp_fire_ctx()) with arg0.. from the argument registers
 * (dt_isa_layout; return probes: arg0 the site's offset in the function,
 * arg1 the return register), uregs[] from the thread's registers and user
 * memory read with process_vm_readv().  Then the displaced instruction
 * takes effect without the breakpoint ever being removed, so no thread can
 * run past a site unseen: it is emulated on the registers when it depends
 * on its own address (x86-64: call, jmp, jcc, ret, push, pop...; arm64:
 * adr, adrp, literal loads, every branch), otherwise the thread continues
 * in the out-of-line copy, which jumps back after it (x86-64) or ends in
 * a breakpoint whose stop sends the thread on past the site (arm64: a
 * branch back may not reach).  A copy that borrows a register keeps the
 * register's value in a slot of its own, so it is written per thread, at
 * the hit, in that thread's slot; every other copy is shared by all
 * threads.
 *
 * Threads: PTRACE_O_TRACECLONE attaches each new thread before it runs.
 * fork(2): the child gets a copy of the breakpoints but no tracer, so it
 * is caught (PTRACE_O_TRACEFORK), and either kept (-x followfork, or
 * syscall and proc probes) or has its bytes restored and is let go.  A
 * vfork(2) child shares the memory and so the breakpoints: it stays
 * attached as a process whose sites are its parent's until it execs.
 * exec(2) replaces the image and every breakpoint with it: the probes of
 * the new image are placed before it runs (dt_ptrace_sites.c), as are
 * those of the libraries it loads.
 *
 * Detaching (dtrace_stop: exit(), ^C, SIGTERM, or the end of the run):
 * every thread is stopped (one stopped on a breakpoint not yet handled
 * stands at the site), the original bytes are written back, the
 * process's own action for the breakpoint's signal put back, and every
 * thread is detached; the scratch area stays mapped, since a thread may be inside a copy and
 * will jump back from it.  If dtrace is killed with SIGKILL there is no
 * chance to do so: a -c child is killed with it (by its parent-death
 * signal, dt_proc.c: not PTRACE_O_EXITKILL, which the processes it forks
 * while traced would inherit, and a daemon of the command must outlive
 * dtrace as it would untraced); a -p
 * process runs on, each breakpoint put back to its original bytes by the
 * signal handler the first time it is reached (dt_ptrace_trap.c), and its
 * counting trampolines stay valid and only count.
 *
 * All ptrace requests come from the thread that called dtrace_go(), the
 * tracer.  The processes the engine keeps are noted in a small table of
 * this process (dt_pt_kept) because ptrace ties a tracee to the tracing
 * process, not to a handle: dt_proc.c asks it how to resume and reap.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/dt_impl.h"
#include "common/dt_os.h"
#include "common/dt_work.h"
#include "common/engine/dt_engine.h"
#include "common/engine/dt_interp.h"
#include "common/probe/dt_probe.h"
#include "isa/dt_isa.h"
#include "os/linux/dt_cfi.h"
#include "os/linux/prov/dt_linux_prov.h"
#include "os/linux/ptrace/dt_ptrace.h"
#include "os/linux/ptrace/dt_ptrace_impl.h"


/*
 * The processes the engine keeps, for os/linux/dt_proc.c: per process of
 * the tracer, since a ptrace attachment is.
 */
typedef struct dt_pt_kept {
	int pk_pid;
	bool pk_ended;
	int pk_status;
} dt_pt_kept_t;

static dt_pt_kept_t *dt_pt_kept;
static size_t dt_pt_nkept;
static dt_ptrace_t *dt_pt_state; /* one ptrace engine per process */

static dt_pt_kept_t *
dt_pt_kept_find(int pid)
{
	for (size_t i = 0; i < dt_pt_nkept; i++) {
		if (dt_pt_kept[i].pk_pid == pid)
			return &dt_pt_kept[i];
	}
	return NULL;
}

bool
dt_ptrace_keeps(int pid)
{
	return dt_pt_kept_find(pid) != NULL;
}

int
dt_ptrace_ended(int pid, int *statusp)
{
	dt_pt_kept_t *pk = dt_pt_kept_find(pid);

	if (pk == NULL || !pk->pk_ended)
		return 0;
	*statusp = pk->pk_status;
	return 1;
}

static int
dt_pt_keep(int pid)
{
	dt_pt_kept_t *p;

	if (dt_pt_kept_find(pid) != NULL)
		return 0;
	p = realloc(dt_pt_kept, (dt_pt_nkept + 1) * sizeof (*p));
	if (p == NULL)
		return -1;
	dt_pt_kept = p;
	p[dt_pt_nkept++] = (dt_pt_kept_t) { .pk_pid = pid };
	return 0;
}

/* Forget a process detached alive: dt_proc.c reaps it itself again. */
static void
dt_pt_unkeep(int pid)
{
	dt_pt_kept_t *pk = dt_pt_kept_find(pid);

	if (pk != NULL && !pk->pk_ended)
		*pk = dt_pt_kept[--dt_pt_nkept];
	if (dt_pt_nkept == 0) {
		free(dt_pt_kept);
		dt_pt_kept = NULL;
	}
}

static dt_ptrace_t *
dt_pt(void)
{
	return dt_pt_state;
}

/* Target memory. */
int
dt_pt_vm_read(int pid, uint64_t addr, void *buf, size_t len)
{
	struct iovec l = { buf, len }, r = { (void *) (uintptr_t) addr, len };

	return process_vm_readv(pid, &l, 1, &r, 1, 0) == (ssize_t) len ? 0 :
	    -1;
}

static int
dt_pt_vm_write(int pid, uint64_t addr, const void *buf, size_t len)
{
	struct iovec l = { (void *) buf, len };
	struct iovec r = { (void *) (uintptr_t) addr, len };

	return process_vm_writev(pid, &l, 1, &r, 1, 0) == (ssize_t) len ? 0 :
	    -1;
}

/* Text and the scratch area: /proc/<pid>/mem writes past protections. */
int
dt_pt_text_write(dt_pt_proc_t *pp, uint64_t addr, const void *buf,
    size_t len)
{
	return pwrite(pp->pp_memfd, buf, len, (off_t) addr) == (ssize_t) len ?
	    0 : -1;
}

int
dt_pt_text_read(dt_pt_proc_t *pp, uint64_t addr, void *buf, size_t len)
{
	return pread(pp->pp_memfd, buf, len, (off_t) addr) == (ssize_t) len ?
	    0 : -1;
}

static int
dt_pt_emu_read(void *arg, uint64_t addr, void *buf, size_t len)
{
	return dt_pt_vm_read(((dt_pt_proc_t *) arg)->pp_pid, addr, buf, len);
}

static int
dt_pt_emu_write(void *arg, uint64_t addr, const void *buf, size_t len)
{
	return dt_pt_vm_write(((dt_pt_proc_t *) arg)->pp_pid, addr, buf, len);
}

void
dt_pt_memops(dt_pt_proc_t *pp, dt_isa_memops_t *mem)
{
	mem->read = dt_pt_emu_read;
	mem->write = dt_pt_emu_write;
	mem->arg = pp;
}

/* Threads. */
dt_pt_thread_t *
dt_pt_thread(dt_ptrace_t *pt, int tid)
{
	for (size_t i = 0; i < pt->pt_nthreads; i++) {
		if (pt->pt_threads[i].pt_tid == tid)
			return &pt->pt_threads[i];
	}
	return NULL;
}

static dt_pt_thread_t *
dt_pt_thread_add(dt_ptrace_t *pt, dt_pt_proc_t *pp, int tid)
{
	dt_pt_thread_t *t = dt_pt_thread(pt, tid);

	if (t != NULL)
		return t;
	t = realloc(pt->pt_threads, (pt->pt_nthreads + 1) * sizeof (*t));
	if (t == NULL)
		return NULL;
	pt->pt_threads = t;
	t += pt->pt_nthreads++;
	memset(t, 0, sizeof (*t));
	t->pt_tid = tid;
	t->pt_proc = pp;
	t->pt_slot = -1;
	return t;
}

static void
dt_pt_thread_del(dt_ptrace_t *pt, dt_pt_thread_t *t)
{
	if (t->pt_slot >= 0 && t->pt_proc != NULL)
		t->pt_proc->pp_mm->pp_slotused[t->pt_slot] = 0;
	*t = pt->pt_threads[--pt->pt_nthreads];
	if (pt->pt_cur == &pt->pt_threads[pt->pt_nthreads])
		pt->pt_cur = NULL;
}

/* Is a breakpoint's signal pending for thread tid (SigPnd)? */
static bool
dt_pt_trap_pending(int tid)
{
	char path[64], line[256];
	unsigned long long pnd = 0;
	FILE *fp;

	(void) snprintf(path, sizeof (path), "/proc/%d/status", tid);
	if ((fp = fopen(path, "re")) == NULL)
		return false;
	while (fgets(line, sizeof (line), fp) != NULL) {
		if (strncmp(line, "SigPnd:", 7) == 0) {
			pnd = strtoull(line + 7, NULL, 16);
			break;
		}
	}
	(void) fclose(fp);
	return (pnd & (1ULL << (DT_PT_BRKSIG - 1))) != 0;
}

/*
 * Is stop st of thread t (a signal stop) at one of our breakpoints?  Its
 * signal is then ours to drop: the thread stands at the site.
 */
static bool
dt_pt_brk_stop(const dt_pt_thread_t *t, int st)
{
	dt_isa_ptregs_t r;
	const dt_pt_site_t *s;

	return WSTOPSIG(st) == DT_PT_BRKSIG &&
	    dt_isa_ptrace_getregs(t->pt_tid, &r) == 0 &&
	    (s = dt_pt_site(t->pt_proc, DT_PT_PC(&r))) != NULL && s->ps_armed;
}

dt_pt_proc_t *
dt_pt_proc(dt_ptrace_t *pt, int pid)
{
	for (size_t i = 0; i < pt->pt_nprocs; i++) {
		if (pt->pt_procs[i]->pp_pid == pid)
			return pt->pt_procs[i];
	}
	return NULL;
}

dt_pt_proc_t *
dt_pt_proc_add(dtrace_hdl_t *dtp, dt_ptrace_t *pt, int pid)
{
	dt_pt_proc_t *pp = dt_pt_proc(pt, pid), **pv;

	if (pp != NULL)
		return pp;
	pv = realloc(pt->pt_procs, (pt->pt_nprocs + 1) * sizeof (*pv));
	if (pv == NULL || (pp = calloc(1, sizeof (*pp))) == NULL) {
		if (pv != NULL)
			pt->pt_procs = pv;
		(void) dt_set_errno(dtp, EDT_NOMEM);
		return NULL;
	}
	pt->pt_procs = pv;
	pv[pt->pt_nprocs++] = pp;
	pp->pp_pid = pid;
	pp->pp_memfd = -1;
	pp->pp_owner = pid;
	pp->pp_mm = pp;
	return pp;
}

/*
 * The probe context of a firing: the thread's registers and its process's
 * memory.
 */
static int
dt_pt_ctx_read(void *arg, dif_as_t as, uint64_t addr, void *buf, size_t size)
{
	dt_ptrace_t *pt = arg;
	const struct {
		const void *p;
		size_t n;
	} kmem[] = { { pt->pt_psinfo, sizeof (pt->pt_psinfo) },
		{ pt->pt_lwpsinfo, sizeof (pt->pt_lwpsinfo) },
		{ pt->pt_str, sizeof (pt->pt_str) } };

	if (pt->pt_cur == NULL)
		return -1;
	if (as == DIF_AS_USER)
		return dt_pt_vm_read(pt->pt_cur->pt_proc->pp_pid, addr, buf,
		    size);
	/*
	 * No kernel memory, but what proc probes' args[] point to: the
	 * psinfo_t, lwpsinfo_t and path the engine filled.
	 */
	for (size_t i = 0; i < sizeof (kmem) / sizeof (kmem[0]); i++) {
		uint64_t lo = (uint64_t) (uintptr_t) kmem[i].p;

		if (addr >= lo && size <= kmem[i].n &&
		    addr - lo <= kmem[i].n - size) {
			memcpy(buf, (const char *) kmem[i].p + (addr - lo),
			    size);
			return 0;
		}
	}
	return -1;
}

/*
 * The user stack of the firing thread, walked with its process's CFI
 * rows (os/linux/dt_cfi.h, the BPF engine's walk): from the probe site
 * (the pc is the site at a hit), reading the stack through
 * process_vm_readv().
 */
#define DT_PT_MAXFRAMES 1024	/* ustackdepth counts this far */

static int
dt_pt_stack_read(void *arg, uint64_t addr, uint64_t *valp)
{
	return dt_pt_vm_read(*(const int *) arg, addr, valp, sizeof (*valp));
}

static uint32_t
dt_pt_ustack(void *arg, uint64_t *pcs, uint32_t max)
{
	dt_ptrace_t *pt = arg;
	dt_pt_proc_t *pp = pt->pt_cur->pt_proc;
	const dt_isa_ptregs_t *r = &pt->pt_regs;
	const dt_isa_layout_t *il = &dt_isa_layout;
	uint64_t sp = DT_ISA_PTREG(r, il->il_sp), ra = 0;
	dt_cfi_regs_t regs = { DT_ISA_PTREG(r, il->il_pc), sp,
		DT_ISA_PTREG(r, il->il_fp),
		il->il_lr >= 0 ? DT_ISA_PTREG(r, il->il_lr) : 0 };
	const dt_cfi_row_t *row;
	uint32_t n;

	if (!pp->pp_cfi_read) {
		pp->pp_cfi_read = true;
		(void) dt_cfi_proc(pp->pp_pid, &pp->pp_cfi);
	}
	n = dt_cfi_unwind(&pp->pp_cfi, &regs, dt_pt_stack_read, &pp->pp_pid,
	    pcs, max);
	/*
	 * Where no unwind row describes the site (code without CFI) the
	 * walk follows frame pointers (the row is the frame-pointer rule:
	 * the CFA 16 above the frame pointer), and where the function has
	 * no frame of its own (entry, return sites) the chain starts at the
	 * caller's frame: the caller's return address is still in the link
	 * register or on top of the stack, and comes second, as the BPF
	 * engine's walk puts it.  A row of the function's own says where
	 * the return address is, and the walk has found it.
	 */
	row = dt_cfi_find(&pp->pp_cfi, DT_ISA_PTREG(r, il->il_pc));
	if (!pt->pt_atcall || row->cr_cfa_reg != DT_CFI_FP ||
	    row->cr_cfa_off != 16 || n == 0 || max < 2)
		return n;
	if (il->il_lr >= 0)
		ra = DT_ISA_PTREG(r, il->il_lr);
	else if (dt_pt_vm_read(pp->pp_pid, sp, &ra, sizeof (ra)) != 0)
		return n;
	if (n == max)
		n--;
	memmove(pcs + 2, pcs + 1, (n - 1) * sizeof (pcs[0]));
	pcs[1] = ra;
	return n + 1;
}

static int
dt_pt_ctx_var(void *arg, uint32_t id, uint64_t ndx, uint64_t *valp)
{
	dt_ptrace_t *pt = arg;
	const dt_pt_proc_t *pp = pt->pt_cur->pt_proc;

	switch (id) {
	case DIF_VAR_PID:
		*valp = (uint64_t) pp->pp_pid;
		return 0;
	case DIF_VAR_TID:
		*valp = (uint64_t) pt->pt_cur->pt_tid;
		return 0;
	case DIF_VAR_PPID:
		*valp = pp->pp_ppid;
		return 0;
	case DIF_VAR_UID:
		*valp = pp->pp_uid;
		return 0;
	case DIF_VAR_GID:
		*valp = pp->pp_gid;
		return 0;
	case DIF_VAR_ERRNO:
		*valp = pt->pt_errno;
		return 0;
	case DIF_VAR_UREGS: {
		/*
		 * uregs[] numbered as the D prelude numbers it (the ISA's
		 * names, as the BPF engine reads them), at their pt_regs
		 * offsets in the ptrace register set, which starts in
		 * pt_regs order; what the ISA does not keep reads as 0.
		 */
		const dt_isa_layout_t *il = &dt_isa_layout;
		int16_t o;

		if (ndx >= (uint64_t) il->il_nuregs)
			return -1;
		o = il->il_uregs[ndx];
		if (o < 0 || (size_t) o + 8 > sizeof (pt->pt_regs))
			*valp = 0;
		else
			memcpy(valp, (const char *) &pt->pt_regs + o, 8);
		return 0;
	}
	case DIF_VAR_USTACKDEPTH:
	case DIF_VAR_UCALLER: {
		uint64_t pcs[DT_PT_MAXFRAMES];
		uint32_t n = dt_pt_ustack(pt, pcs, id == DIF_VAR_UCALLER ? 2 :
		    DT_PT_MAXFRAMES);

		if (id == DIF_VAR_USTACKDEPTH)
			*valp = n;
		else
			*valp = n > 1 ? pcs[1] : 0;
		return 0;
	}
	default:
		return -1;
	}
}

static int
dt_pt_ctx_varstr(void *arg, uint32_t id, char *buf, size_t size)
{
	dt_ptrace_t *pt = arg;
	const dt_pt_proc_t *pp = pt->pt_cur->pt_proc;
	char path[64];
	ssize_t n;

	switch (id) {
	case DIF_VAR_EXECNAME:
		(void) snprintf(buf, size, "%s", pp->pp_execname);
		return 0;
	case DIF_VAR_CWD:
		(void) snprintf(path, sizeof (path), "/proc/%d/cwd",
		    pp->pp_pid);
		if ((n = readlink(path, buf, size - 1)) < 0)
			return -1;
		buf[n] = '\0';
		return 0;
	case DIF_VAR_EXECARGS:
		return dt_os_proc_args(pp->pp_pid, buf, size);
	default:
		return -1;
	}
}

/* copyout(), copyoutstr(): as the target could, protections respected. */
static int
dt_pt_ctx_write(void *arg, uint64_t addr, const void *buf, size_t size)
{
	dt_ptrace_t *pt = arg;

	if (pt->pt_cur == NULL)
		return -1;
	return dt_pt_vm_write(pt->pt_cur->pt_proc->pp_pid, addr, buf, size);
}

/*
 * raise(), stop(): queued for the stopped thread (or its process), and
 * delivered as it runs on -- through its signal-delivery stop, which
 * passes any signal on to the program.
 */
static int
dt_pt_signal(void *arg, int sig, bool proc)
{
	dt_ptrace_t *pt = arg;
	dt_pt_thread_t *t = pt->pt_cur;

	if (t == NULL)
		return -1;
	if (proc)
		return kill(t->pt_proc->pp_pid, sig);
	return (int) syscall(SYS_tgkill, t->pt_proc->pp_pid, t->pt_tid, sig);
}

static const dif_ops_t dt_pt_ctx_ops = {
	.do_read = dt_pt_ctx_read,
	.do_write = dt_pt_ctx_write,
	.do_var = dt_pt_ctx_var,
	.do_varstr = dt_pt_ctx_varstr,
};

/* Read at attach, and again at exec. */
void
dt_pt_proc_facts(dt_pt_proc_t *pp)
{
	char path[64];
	ssize_t n;
	int fd;

	pp->pp_ppid = (uint64_t) dt_pt_status_field(pp->pp_pid, "PPid:");
	pp->pp_uid = (uint64_t) dt_pt_status_field(pp->pp_pid, "Uid:");
	pp->pp_gid = (uint64_t) dt_pt_status_field(pp->pp_pid, "Gid:");
	(void) snprintf(path, sizeof (path), "/proc/%d/comm", pp->pp_pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
		n = read(fd, pp->pp_execname, sizeof (pp->pp_execname) - 1);
		(void) close(fd);
		if (n > 0 && pp->pp_execname[n - 1] == '\n')
			n--;
		pp->pp_execname[n > 0 ? n : 0] = '\0';
	}
}

/*
 * Wait for the next stop of one thread we are attaching or detaching.
 * Returns 0 with its wait status in *stp, or -1 when the thread is gone
 * (*stp: how it ended, or -1).
 */
static int
dt_pt_wait_tid(int tid, int *stp)
{
	*stp = -1;
	while (waitpid(tid, stp, __WALL) != tid) {
		if (errno != EINTR)
			return -1;
	}
	return WIFEXITED(*stp) || WIFSIGNALED(*stp) ? -1 : 0;
}

/*
 * A seccomp filter may kill a process (SECCOMP_RET_KILL_*, SIGSYS) or fail
 * a call for any system call it chooses, and no process but the kernel
 * can read it (PTRACE_SECCOMP_GET_FILTER needs CAP_SYS_ADMIN): a process
 * under one of its own (a sandbox) could die of the mmap(2), mprotect(2)
 * or rt_sigaction(2) the engine runs in it.  Such a process gets none.
 * Filters are counted (/proc/<pid>/status, Seccomp_filters:, Linux 5.9):
 * those dtrace runs under itself, inherited from where both were started
 * (a container's), let dtrace run those calls and are not counted, nor is
 * the engine's own (dt_ptrace_sys.c).  Strict mode (Seccomp: 1) allows
 * nothing.  Without the count, a filter dtrace has no filter like is one.
 */
bool
dt_pt_sandboxed(dt_pt_proc_t *pp)
{
	static long self_mode = -2, self_n;
	long mode = dt_pt_status_field(pp->pp_pid, "Seccomp:");
	long n = dt_pt_status_field(pp->pp_pid, "Seccomp_filters:");
	long ours = pp->pp_sysmode == DT_PT_SYS_SECCOMP ? 1 : 0;

	if (self_mode == -2) {
		self_mode = dt_pt_status_field(getpid(), "Seccomp:");
		self_n = dt_pt_status_field(getpid(), "Seccomp_filters:");
		if (self_mode != 2 || self_n < 0)
			self_n = 0;
	}
	if (mode == 1)
		pp->pp_sandbox = true;
	else if (mode == 2 && n >= 0)
		pp->pp_sandbox = n > self_n + ours;
	else if (mode == 2)
		pp->pp_sandbox = self_mode != 2 && ours == 0;
	return pp->pp_sandbox;
}

/*
 * Do registers r show a system call interrupted by the stop they were read
 * at, which the kernel restarts when the thread goes on: the call's number
 * still in the restart word (x86-64's orig_rax) and one of the kernel's
 * restart codes as its result (ERESTARTSYS 512, ERESTARTNOINTR 513,
 * ERESTARTNOHAND 514, ERESTART_RESTARTBLOCK 516)?  That is how a thread
 * sleeping in a call (nanosleep, read of a pipe, select, a futex wait) is
 * found when PTRACE_INTERRUPT stops it on x86-64: the kernel decides to
 * restart the call after the stop (arch_do_signal_or_restart(), once
 * get_signal() returns), from the registers as they are then.  On arm64
 * the kernel has rewound the call before the stop (do_signal()): the pc is
 * at its svc again with x0 as it was and the number word is -1, so
 * putting the registers back is all it needs.
 */
static bool
dt_pt_restarting(const dt_isa_ptregs_t *r)
{
	int64_t rv = (int64_t) DT_ISA_PTREG(r, dt_isa_ptrace.ip_sysret);

	return (int64_t) DT_ISA_PTREG(r, dt_isa_ptrace.ip_norestart) >= 0 &&
	    (rv == -512 || rv == -513 || rv == -514 || rv == -516);
}

/*
 * Thread t, whose registers were just put back to those of a system call
 * interrupted by our stop (dt_pt_restarting()), is in the exit stop of a
 * call we injected.  Resumed from there it would return to its program at
 * once, with the kernel's restart code (-512...) as the result of its
 * call: the restart is decided only on the way out of a signal's handling
 * (get_signal()), which a system call's exit stop does not go through.  So
 * it is stopped once more the way it was stopped at the start: a
 * PTRACE_INTERRUPT, which makes it handle signals before it returns, and
 * stops it inside that handling; when it is resumed from that stop, the
 * kernel restarts its call exactly as it would have with no injected call
 * (ERESTART_RESTARTBLOCK through restart_syscall, its remaining time
 * kept), or, with a signal to deliver by then, runs the handler and
 * restarts or fails the call with EINTR as the handler's flags say.  A
 * signal already waiting to be delivered to t (t->pt_sig) is delivered
 * from this exit stop instead, which queues it: the same path.
 */
static void
dt_pt_restart_stop(dt_pt_thread_t *t)
{
	int st;

	if (t->pt_sig != 0 || ptrace(PTRACE_INTERRUPT, t->pt_tid, 0, 0) != 0 ||
	    ptrace(PTRACE_CONT, t->pt_tid, 0, 0) != 0)
		return;
	while (dt_pt_wait_tid(t->pt_tid, &st) == 0) {
		/* The interrupt's stop, or a group stop: in get_signal(). */
		if ((st >> 16) == PTRACE_EVENT_STOP)
			return;
		/* A signal first: delivered when t goes on, as at attach. */
		if ((st >> 16) == 0)
			t->pt_sig = WSTOPSIG(st);
		if (ptrace(PTRACE_CONT, t->pt_tid, 0, 0) != 0)
			return;
	}
}

/*
 * Run system call nr in stopped thread t of pp: the ISA's system call
 * instruction written over the program's entry point (every thread of pp
 * is stopped, and the entry point runs once, at the start: a -c child
 * stopped there runs it afterwards, restored), registers set for the
 * call with the word that would restart an interrupted system call
 * (x86-64's orig_rax, arm64's syscallno) at -1, so that it is not
 * restarted into ours, the thread run to the call's exit stop
 * (PTRACE_SYSCALL), then everything restored, and a call of the
 * program's own that our stop interrupted restarts when the thread goes
 * on (dt_pt_restart_stop()).  What follows the call is never run while
 * we live: the thread is stopped as the call returns.  Should we die, it
 * goes back to where it was by itself where the ISA can
 * (dt_isa_ptrace_injback(): x86-64), so that no thread is left in our
 * code even when the guard, which would otherwise undo what we were
 * doing (dt_ptrace_rescue.c), is killed with us; elsewhere it is a jump
 * to itself, where the thread waits for the guard, or without a guard a
 * breakpoint.  Returns what the call
 * returned (-errno on failure), or -ENOEXEC if it could not be run.
 */
int64_t
dt_pt_inject_syscall(dt_pt_proc_t *pp, dt_pt_thread_t *t, long nr,
    const uint64_t *args)
{
	const dt_isa_ptrace_t *ip = &dt_isa_ptrace;
	dt_isa_ptregs_t saved, r;
	uint64_t entry = dt_linux_proc_entry(pp->pp_pid), blkaddr;
	int64_t ret = -ENOEXEC;
	uint8_t orig[DT_PT_INJLEN], code[DT_PT_INJLEN], blk[DT_ISA_INJBLK];
	size_t len, blklen;
	int st, nsys = 0;

	if (entry == 0 || dt_pt_sandboxed(pp) ||
	    dt_isa_ptrace_getregs_all(t->pt_tid, &saved) != 0)
		return ret;
	r = saved;
	DT_PT_PC(&r) = entry;
	DT_ISA_PTREG(&r, ip->ip_sysnr) = (uint64_t) nr;
	DT_ISA_PTREG(&r, ip->ip_norestart) = (uint64_t) -1;
	for (int i = 0; i < 6; i++)
		DT_ISA_PTREG(&r, ip->ip_sysargs[i]) = args[i];
	/*
	 * Code that goes back by itself, its registers kept on the thread's
	 * stack, where the ISA has it and the stack takes them; else the
	 * jump to itself (the guard undoes it) or a breakpoint.
	 */
	if ((len = dt_isa_ptrace_injback(&saved, &r, code, blk, &blklen,
	    &blkaddr)) == 0 || dt_pt_text_write(pp, blkaddr, blk, blklen) !=
	    0) {
		DT_ISA_PTREG(&r, dt_isa_layout.il_sp) =
		    DT_ISA_PTREG(&saved, dt_isa_layout.il_sp);
		len = DT_ISA_INJSPIN;
		memcpy(code, dt_pt_rescue_on() ? ip->ip_injspin :
		    ip->ip_injtrap, len);
	}
	if (dt_pt_text_read(pp, entry, orig, len) != 0)
		return ret;
	dt_pt_rescue_note(t->pt_tid, entry, orig, len, &saved);
	if (dt_pt_text_write(pp, entry, code, len) != 0) {
		dt_pt_rescue_done();
		return ret;
	}
	if (dt_isa_ptrace_setregs(t->pt_tid, &r) != 0)
		goto out;
	for (;;) {
		struct __ptrace_syscall_info si;
		long n;

		if (ptrace(PTRACE_SYSCALL, t->pt_tid, 0, 0) != 0 ||
		    dt_pt_wait_tid(t->pt_tid, &st) != 0)
			goto out;
		if ((st >> 16) == 0 && WSTOPSIG(st) == (SIGTRAP | 0x80)) {
			/* The call's entry stop, then its exit stop. */
			n = ptrace(PTRACE_GET_SYSCALL_INFO, t->pt_tid,
			    (void *) sizeof (si), &si);
			if (n > 0 ? si.op == PTRACE_SYSCALL_INFO_EXIT :
			    ++nsys == 2)
				break;
			continue;
		}
		/* A signal on the way: deliver it once we are done. */
		if ((st >> 16) == 0)
			t->pt_sig = WSTOPSIG(st);
		/* Event stops (our own filter's, say) just go on. */
	}
	if (dt_isa_ptrace_getregs(t->pt_tid, &r) == 0 &&
	    DT_PT_PC(&r) == entry + ip->ip_sysdone)
		ret = (int64_t) DT_ISA_PTREG(&r, ip->ip_sysret);
out:
	/* The thread first: with the text back, it must not be in ours. */
	(void) dt_isa_ptrace_setregs(t->pt_tid, &saved);
	(void) dt_pt_text_write(pp, entry, orig, len);
	dt_pt_rescue_done();
	if (dt_pt_restarting(&saved))
		dt_pt_restart_stop(t);
	return ret;
}

/*
 * Seize every thread of a -p process and stop it, until no new thread
 * shows up.  A -c child is attached already, one thread, stopped.
 */
static int
dt_pt_seize_all(dt_ptrace_t *pt, dt_pt_proc_t *pp)
{
	char path[64];
	bool more = true;

	if (pp->pp_created) {
		dt_pt_thread_t *t = dt_pt_thread_add(pt, pp, pp->pp_pid);

		/*
		 * Without PTRACE_O_EXITKILL, which dt_proc.c seized it with:
		 * the children it forks while traced inherit their tracer's
		 * options, and a daemon it leaves must not die with us.  It
		 * dies with us all the same, by its parent-death signal.
		 */
		if (t == NULL || ptrace(PTRACE_SETOPTIONS, pp->pp_pid, 0,
		    (void *) (long) DT_PT_OPTS) != 0)
			return -1;
		t->pt_stopped = true;
		t->pt_started = true;
		return 0;
	}
	(void) snprintf(path, sizeof (path), "/proc/%d/task", pp->pp_pid);
	while (more) {
		DIR *d = opendir(path);
		struct dirent *de;

		if (d == NULL)
			return -1;
		more = false;
		while ((de = readdir(d)) != NULL) {
			int tid = atoi(de->d_name), st, rc;
			dt_pt_thread_t *t;

			if (tid <= 0 || dt_pt_thread(pt, tid) != NULL)
				continue;
			more = true;
			if (ptrace(PTRACE_SEIZE, tid, 0,
			    (void *) (long) DT_PT_OPTS) != 0)
				continue;	/* exited meanwhile */
			if ((t = dt_pt_thread_add(pt, pp, tid)) == NULL) {
				(void) closedir(d);
				return -1;
			}
			(void) ptrace(PTRACE_INTERRUPT, tid, 0, 0);
			while ((rc = dt_pt_wait_tid(tid, &st)) == 0 &&
			    (st >> 16) != PTRACE_EVENT_STOP) {
				if ((st >> 16) == 0)
					t->pt_sig = WSTOPSIG(st);
				(void) ptrace(PTRACE_CONT, tid, 0, 0);
			}
			if (rc != 0) {
				dt_pt_thread_del(pt, t);
			} else {
				t->pt_stopped = true;
				t->pt_started = true;
			}
		}
		(void) closedir(d);
	}
	return 0;
}

void
dt_pt_cont(dt_pt_thread_t *t, int sig)
{
	/* Every system call stops a process traced by steps. */
	int req = t->pt_proc != NULL &&
	    t->pt_proc->pp_sysmode == DT_PT_SYS_STEP ? PTRACE_SYSCALL :
	    PTRACE_CONT;

	(void) ptrace(req, t->pt_tid, 0, (void *) (long) sig);
}

/* A slot of the scratch area for this thread's private copies, or -1. */
static int
dt_pt_thread_slot(dt_pt_thread_t *t)
{
	dt_pt_proc_t *pp = t->pt_proc->pp_mm;

	if (t->pt_slot >= 0)
		return t->pt_slot;
	for (int i = 0; i < DT_PT_NTSLOTS; i++) {
		if (!pp->pp_slotused[i]) {
			pp->pp_slotused[i] = 1;
			t->pt_slot = i;
			return i;
		}
	}
	return -1;
}

/*
 * Make the displaced instruction of site s take effect for thread t,
 * stopped on its breakpoint with registers r, and let t run on: emulated
 * on r, or run from its shared out-of-line copy, or from a copy in the
 * thread's own slot.
 */
static void
dt_pt_step_over(dt_pt_thread_t *t, dt_pt_site_t *s, dt_isa_ptregs_t *r)
{
	dt_pt_proc_t *pp = t->pt_proc->pp_mm;
	dt_isa_memops_t mem;
	uint8_t buf[DT_PT_SLOT];
	uint64_t at;
	size_t len;
	int sig = 0, slot, priv;

	dt_pt_memops(t->pt_proc, &mem);
	DT_PT_PC(r) = s->ps_addr;
	if (s->ps_strategy == DT_ISA_STRAT_EMULATE) {
		/* As the processor would have: a fault here. */
		if (dt_isa_ptrace_emulate(&s->ps_in, r, &mem) != 0)
			sig = SIGSEGV;
	} else if (s->ps_ool != 0) {
		DT_PT_PC(r) = s->ps_ool;
	} else if ((slot = dt_pt_thread_slot(t)) >= 0) {
		at = pp->pp_tslots + (uint64_t) slot * DT_PT_SLOT;
		if (dt_isa_ptrace_ool(&s->ps_in, s->ps_insn, at, &mem, buf,
		    sizeof (buf), &len, &priv) == 0 &&
		    dt_pt_text_write(pp, at, buf, len) == 0)
			DT_PT_PC(r) = at;
		else
			sig = SIGSEGV;
	} else {
		/* More threads than slots: nothing safe to do. */
		sig = SIGSEGV;
	}
	dt_pt_trap_moved(t->pt_tid, DT_PT_PC(r));
	(void) dt_isa_ptrace_setregs(t->pt_tid, r);
	dt_pt_cont(t, sig);
}

/*
 * Is thread t, stopped by a breakpoint at pc (no site of ours), at the
 * trap that ends an out-of-line copy (where the ISA's copies end so)?
 * Then it goes on where the copy says: 1; else 0.
 */
static bool
dt_pt_ool_return(dt_pt_thread_t *t, dt_isa_ptregs_t *r)
{
	uint8_t code[32];
	uint64_t resume;

	if (dt_pt_text_read(t->pt_proc->pp_mm, DT_PT_PC(r), code,
	    sizeof (code)) != 0 ||
	    !dt_isa_ptrace_ool_return(code, sizeof (code), &resume))
		return false;
	DT_PT_PC(r) = resume;
	dt_pt_trap_moved(t->pt_tid, resume);
	(void) dt_isa_ptrace_setregs(t->pt_tid, r);
	dt_pt_cont(t, 0);
	return true;
}

void
dt_pt_fire_probe(dtrace_hdl_t *dtp, dt_ptrace_t *pt, dt_pt_thread_t *t,
    uint32_t id, const uint64_t *args, int nargs)
{
	dt_interp_ctx_t ctx = {
		.ic_ops = &dt_pt_ctx_ops,
		.ic_arg = pt,
		.ic_pid = (uint64_t) t->pt_proc->pp_pid,
		.ic_tid = (uint64_t) t->pt_tid,
		.ic_ustack = dt_pt_ustack,
		.ic_signal = dt_pt_signal,
	};

	bool exited = dt_interp_exited(dtp);

	pt->pt_cur = t;
	dt_interp_fire_ctx(dtp, id, args, nargs, &ctx);
	pt->pt_cur = NULL;
	pt->pt_atcall = false;
	/*
	 * exit() in this firing: what the counting sites counted before it
	 * is read now, while this thread is still stopped, as firings before
	 * the exit; what they count after it is not counted.
	 */
	if (!exited && dt_interp_exited(dtp))
		dt_pt_fast_collect_all(dtp, pt, true);
}

/*
 * A USDT argument as the site's note says it is passed: a constant, a
 * register (struct pt_regs offsets index the ptrace register set), or
 * memory at a register plus a displacement.
 */
static uint64_t
dt_pt_usdt_arg(const dt_pt_proc_t *pp, const dt_isa_ptregs_t *r,
    const dt_usdt_arg_t *ua)
{
	uint64_t v = 0, reg = 0;

	if (ua->ua_kind == DT_USDT_ARG_REG || ua->ua_kind == DT_USDT_ARG_MEM) {
		if (ua->ua_reg < 0 || (size_t) ua->ua_reg + 8 > sizeof (*r))
			return 0;
		memcpy(&reg, (const char *) r + ua->ua_reg, 8);
	}
	switch (ua->ua_kind) {
	case DT_USDT_ARG_CONST:
		return (uint64_t) ua->ua_val;
	case DT_USDT_ARG_REG:
		v = reg >> ua->ua_shift;
		break;
	case DT_USDT_ARG_MEM:
		if (dt_pt_vm_read(pp->pp_pid, reg + (uint64_t) ua->ua_val, &v,
		    ua->ua_size) != 0)
			return 0;
		break;
	default:
		return 0;
	}
	if (ua->ua_size < 8) {
		unsigned bits = 8U * ua->ua_size;

		v &= (1ULL << bits) - 1;
		if (ua->ua_signed && (v >> (bits - 1)) != 0)
			v |= ~0ULL << bits;
	}
	return v;
}

/* Fire the probes of site s for thread t. */
static void
dt_pt_fire(dtrace_hdl_t *dtp, dt_ptrace_t *pt, dt_pt_thread_t *t,
    const dt_pt_site_t *s)
{
	const dt_isa_ptregs_t *r = &pt->pt_regs;
	const dt_isa_layout_t *il = &dt_isa_layout;

	for (uint32_t i = 0; i < s->ps_nfires; i++) {
		const dt_pt_fire_t *f = &s->ps_fires[i];
		uint64_t args[DT_USDT_MAXARGS] = { 0 };
		int na = il->il_nargs < 10 ? il->il_nargs : 10;

		for (int k = 0; k < na; k++)
			args[k] = DT_ISA_PTREG(r, il->il_args[k]);
		pt->pt_atcall = f->pf_atcall;
		if (f->pf_kind == DT_PID_RETURN) {
			/* A conditional branch out returns when taken. */
			if (!dt_isa_ptrace_taken(&s->ps_in, r))
				continue;
			args[0] = s->ps_addr - f->pf_func;
			args[1] = DT_ISA_PTREG(r, il->il_ret);
			dt_pt_fire_probe(dtp, pt, t, f->pf_id, args, 2);
		} else if (f->pf_kind == DT_PID_USDT && f->pf_args != NULL) {
			int n = f->pf_args->ua_nargs;

			for (int k = 0; k < n && k < DT_USDT_MAXARGS; k++)
				args[k] = dt_pt_usdt_arg(t->pt_proc, r,
				    &f->pf_args->ua_args[k]);
			dt_pt_fire_probe(dtp, pt, t, f->pf_id, args,
			    n < DIF_NARGS ? n : DIF_NARGS);
		} else {
			/*
			 * Past those in registers, as DTrace reads them: the
			 * stack words at the stack pointer, above the return
			 * address where the call pushed one (0 if
			 * unreadable).
			 */
			uint64_t sp = DT_ISA_PTREG(r, il->il_sp) +
			    il->il_stackargs;

			for (int k = na; k < 10; k++) {
				if (dt_pt_vm_read(t->pt_proc->pp_pid, sp +
				    8 * (uint64_t) (k - na), &args[k], 8) != 0)
					args[k] = 0;
			}
			dt_pt_fire_probe(dtp, pt, t, f->pf_id, args, 10);
		}
	}
}

int
dt_pt_memfd(int pid)
{
	char path[64];

	(void) snprintf(path, sizeof (path), "/proc/%d/mem", pid);
	return open(path, O_RDWR | O_CLOEXEC);
}

/*
 * A fork or vfork child traced on, as a process of its own: its system
 * calls and process events fire probes.  A vfork child shares its
 * parent's memory, and so its breakpoints, until it execs; a fork child
 * has a copy of them, which with -x followfork it keeps (its hits fire
 * its parent's pid and USDT probes, with its own pid) and otherwise loses.
 */
static dt_pt_proc_t *
dt_pt_child_keep(dtrace_hdl_t *dtp, dt_ptrace_t *pt, int pid,
    dt_pt_proc_t *parent, bool vfork)
{
	dt_pt_proc_t *pp = dt_pt_proc_add(dtp, pt, pid);

	if (pp == NULL || (pp->pp_memfd = dt_pt_memfd(pid)) < 0)
		return NULL;
	pp->pp_child = true;
	pp->pp_sysmode = parent->pp_sysmode;
	pp->pp_owner = parent->pp_owner;
	pp->pp_image = parent->pp_image;
	pp->pp_follow = pt->pt_late && pt->pt_follow;
	dt_pt_proc_facts(pp);
	if (vfork) {
		pp->pp_mm = parent->pp_mm;
		return pp;
	}
	if (!pt->pt_follow) {
		dt_pt_disarm(parent->pp_mm, pp->pp_memfd);
		return pp;
	}
	return dt_pt_sites_copy(pp, parent->pp_mm) == 0 ? pp : NULL;
}

/* A fork or vfork child: both its event and its first stop are needed. */
static void
dt_pt_child(dtrace_hdl_t *dtp, dt_ptrace_t *pt, int pid,
    dt_pt_proc_t *parent, bool vfork, bool stopped)
{
	dt_pt_child_t *c = NULL;
	dt_pt_proc_t *pp;
	dt_pt_thread_t *t;

	for (size_t i = 0; i < pt->pt_nchildren; i++) {
		if (pt->pt_children[i].pc_pid == pid)
			c = &pt->pt_children[i];
	}
	if (c == NULL) {
		c = realloc(pt->pt_children, (pt->pt_nchildren + 1) *
		    sizeof (*c));
		if (c == NULL) {
			/* Better untraced than stopped forever. */
			(void) ptrace(PTRACE_DETACH, pid, 0, 0);
			return;
		}
		pt->pt_children = c;
		c += pt->pt_nchildren++;
		memset(c, 0, sizeof (*c));
		c->pc_pid = pid;
	}
	if (parent != NULL) {
		c->pc_parent = parent;
		c->pc_vfork = vfork;
	}
	c->pc_stopped |= stopped;
	if (c->pc_parent == NULL || !c->pc_stopped)
		return;
	parent = c->pc_parent;
	vfork = c->pc_vfork;
	*c = pt->pt_children[--pt->pt_nchildren];
	/* A vfork child shares the breakpoints: it must stay attached. */
	if ((vfork || pt->pt_any || pt->pt_follow) &&
	    (pp = dt_pt_child_keep(dtp, pt, pid, parent, vfork)) != NULL &&
	    (t = dt_pt_thread_add(pt, pp, pid)) != NULL) {
		t->pt_started = true;
		dt_pt_proc_fire(dtp, pt, t, DT_PT_START, 0, 0);
		dt_pt_cont(t, 0);
		return;
	}
	if (vfork) {
		(void) ptrace(PTRACE_CONT, pid, 0, 0);
		return;
	}
	{
		int fd = dt_pt_memfd(pid);

		if (fd >= 0) {
			dt_pt_disarm(parent->pp_mm, fd);
			(void) close(fd);
		}
	}
	(void) ptrace(PTRACE_DETACH, pid, 0, 0);
}

/* The end of a thread, or of a whole process when it is the leader. */
static void
dt_pt_exited(dt_ptrace_t *pt, int tid, int st)
{
	dt_pt_thread_t *t = dt_pt_thread(pt, tid);
	dt_pt_proc_t *pp = t != NULL ? t->pt_proc : NULL;
	dt_pt_kept_t *pk;

	if (t != NULL)
		dt_pt_thread_del(pt, t);
	if (pp == NULL || pp->pp_pid != tid)
		return;
	pp->pp_gone = true;
	if ((pk = dt_pt_kept_find(tid)) != NULL) {
		pk->pk_ended = true;
		pk->pk_status = pp->pp_created ? st : -1;
	}
}

/*
 * PTRACE_EVENT_EXIT of thread t: proc:::exit for the last thread of its
 * process to go, lwp-exit for the others.
 */
static void
dt_pt_exiting(dtrace_hdl_t *dtp, dt_ptrace_t *pt, dt_pt_thread_t *t)
{
	unsigned long msg = 0;
	size_t live = 0;
	int st, why;

	t->pt_exiting = true;
	/* Its process's memory, and its counters, may go with it. */
	dt_pt_fast_collect(dtp, t->pt_proc, false);
	for (size_t i = 0; i < pt->pt_nthreads; i++)
		live += pt->pt_threads[i].pt_proc == t->pt_proc &&
		    !pt->pt_threads[i].pt_exiting;
	if (live > 0) {
		dt_pt_proc_fire(dtp, pt, t, DT_PT_LWP_EXIT, 0, 0);
		return;
	}
	if (t->pt_proc->pp_exitfired)
		return;
	t->pt_proc->pp_exitfired = true;
	(void) ptrace(PTRACE_GETEVENTMSG, t->pt_tid, 0, &msg);
	st = (int) msg;
	/* As DTrace: CLD_EXITED, CLD_KILLED or CLD_DUMPED. */
	why = WIFSIGNALED(st) ? (WCOREDUMP(st) ? CLD_DUMPED : CLD_KILLED) :
	    CLD_EXITED;
	dt_pt_proc_fire(dtp, pt, t, DT_PT_EXIT, 0, why);
}

static void dt_pt_event(dtrace_hdl_t *, dt_ptrace_t *, int, int);

/*
 * PTRACE_EVENT_EXEC of thread t: its process runs a new image, and its
 * probes are placed at execve's exit stop, waited for here -- the event
 * stop comes before execve returns, which would overwrite the result of a
 * system call injected now.  That exit stop is then handled as any
 * other (syscall::execve:return); any other stop instead (the thread
 * killed) as well, with nothing placed.
 */
static void
dt_pt_exec_stop(dtrace_hdl_t *dtp, dt_ptrace_t *pt, dt_pt_thread_t *t)
{
	int tid = t->pt_tid, st;

	if (ptrace(PTRACE_SYSCALL, tid, 0, 0) != 0)
		return;
	if (dt_pt_wait_tid(tid, &st) != 0) {
		dt_pt_event(dtp, pt, tid, st);
		return;
	}
	if ((st >> 16) != 0 || WSTOPSIG(st) != (SIGTRAP | 0x80)) {
		dt_pt_event(dtp, pt, tid, st);
		return;
	}
	dt_pt_exec(dtp, pt, t);
	if (t->pt_proc->pp_sysmode == DT_PT_SYS_STEP || t->pt_sysexit)
		dt_pt_sys_stop(dtp, pt, t, st);
	else
		dt_pt_cont(t, 0);
}

/* What thread tid does with signal sig, from /proc/<tid>/status. */
typedef enum dt_pt_sigdisp {
	DT_PT_SIG_CAUGHT,	/* a handler runs */
	DT_PT_SIG_IGNORED,	/* discarded when delivered */
	DT_PT_SIG_OTHER		/* its default action */
} dt_pt_sigdisp_t;

static dt_pt_sigdisp_t
dt_pt_sigdisp(int tid, int sig)
{
	char path[64], line[256];
	unsigned long long ign = 0, cgt = 0, bit;
	FILE *fp;

	if (sig < 1 || sig > 64)
		return DT_PT_SIG_OTHER;
	bit = 1ULL << (sig - 1);
	(void) snprintf(path, sizeof (path), "/proc/%d/status", tid);
	if ((fp = fopen(path, "re")) == NULL)
		return DT_PT_SIG_OTHER;
	while (fgets(line, sizeof (line), fp) != NULL) {
		if (strncmp(line, "SigIgn:", 7) == 0)
			ign = strtoull(line + 7, NULL, 16);
		else if (strncmp(line, "SigCgt:", 7) == 0)
			cgt = strtoull(line + 7, NULL, 16);
	}
	(void) fclose(fp);
	if (cgt & bit)
		return DT_PT_SIG_CAUGHT;
	/* SIG_IGN, or the default action is to ignore it. */
	if ((ign & bit) || sig == SIGCHLD || sig == SIGURG || sig == SIGWINCH)
		return DT_PT_SIG_IGNORED;
	return DT_PT_SIG_OTHER;
}

/* Handle one wait status of a traced thread. */
static void
dt_pt_event(dtrace_hdl_t *dtp, dt_ptrace_t *pt, int tid, int st)
{
	dt_pt_thread_t *t = dt_pt_thread(pt, tid);
	unsigned long msg = 0;
	dt_pt_site_t *s;
	int ev, sig;

	if (WIFEXITED(st) || WIFSIGNALED(st)) {
		dt_pt_exited(pt, tid, st);
		return;
	}
	if (!WIFSTOPPED(st))
		return;
	ev = st >> 16;
	sig = WSTOPSIG(st);
	if (t == NULL) {
		/* A new thread's first stop, before its parent's event? */
		long tgid = dt_pt_status_field(tid, "Tgid:");
		dt_pt_proc_t *pp = tgid > 0 ? dt_pt_proc(pt, (int) tgid) :
		    NULL;

		if (pp != NULL && tgid != tid) {
			if ((t = dt_pt_thread_add(pt, pp, tid)) == NULL) {
				(void) ptrace(PTRACE_DETACH, tid, 0, 0);
				return;
			}
		} else {
			dt_pt_child(dtp, pt, tid, NULL, false, true);
			return;
		}
	}
	t->pt_stopped = false;
	if (!t->pt_started && ev == PTRACE_EVENT_STOP) {
		/* A new thread's first stop. */
		t->pt_started = true;
		if (t->pt_tid != t->pt_proc->pp_pid)
			dt_pt_proc_fire(dtp, pt, t, DT_PT_LWP_START, 0, 0);
	}
	t->pt_started = true;
	switch (ev) {
	case PTRACE_EVENT_CLONE:
		if (ptrace(PTRACE_GETEVENTMSG, tid, 0, &msg) == 0 &&
		    dt_pt_thread(pt, (int) msg) == NULL) {
			dt_pt_thread_t *nt = dt_pt_thread_add(pt, t->pt_proc,
			    (int) msg);

			/* Re-found: the table may have moved. */
			t = dt_pt_thread(pt, tid);
			(void) nt;
		}
		dt_pt_proc_fire(dtp, pt, t, DT_PT_LWP_CREATE, (int) msg, 0);
		dt_pt_cont(t, 0);
		return;
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
		if (ptrace(PTRACE_GETEVENTMSG, tid, 0, &msg) == 0) {
			dt_pt_proc_fire(dtp, pt, t, DT_PT_CREATE, (int) msg,
			    0);
			dt_pt_child(dtp, pt, (int) msg, t->pt_proc,
			    ev == PTRACE_EVENT_VFORK, false);
			t = dt_pt_thread(pt, tid);
		}
		if (t != NULL)
			dt_pt_cont(t, 0);
		return;
	case PTRACE_EVENT_EXEC:
		/*
		 * A thread but the leader exec'd: it has the leader's tid
		 * now, and the leader, which may have reported its exit, is
		 * that thread.
		 */
		if (ptrace(PTRACE_GETEVENTMSG, tid, 0, &msg) == 0 &&
		    (int) msg != tid && dt_pt_thread(pt, (int) msg) != NULL) {
			dt_pt_proc_t *pp = t->pt_proc;

			dt_pt_thread_del(pt, dt_pt_thread(pt, (int) msg));
			if ((t = dt_pt_thread_add(pt, pp, tid)) == NULL) {
				(void) ptrace(PTRACE_DETACH, tid, 0, 0);
				return;
			}
		}
		t->pt_exiting = false;
		if (t->pt_proc->pp_mm != t->pt_proc && !pt->pt_any &&
		    !t->pt_proc->pp_follow) {
			/* A vfork child's image of its own: nothing to see. */
			t->pt_proc->pp_gone = true;
			dt_pt_thread_del(pt, t);
			(void) ptrace(PTRACE_DETACH, tid, 0, 0);
			return;
		}
		dt_pt_proc_facts(t->pt_proc);
		dt_pt_proc_fire(dtp, pt, t, DT_PT_EXEC_SUCCESS, 0, 0);
		dt_pt_exec_stop(dtp, pt, t);
		return;
	case PTRACE_EVENT_EXIT:
		dt_pt_exiting(dtp, pt, t);
		dt_pt_cont(t, 0);
		return;
	case PTRACE_EVENT_SECCOMP:
		dt_pt_sys_stop(dtp, pt, t, st);
		return;
	case PTRACE_EVENT_STOP:
		/* A group-stop keeps it stopped; a new thread starts. */
		if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN ||
		    sig == SIGTTOU)
			(void) ptrace(PTRACE_LISTEN, tid, 0, 0);
		else
			dt_pt_cont(t, 0);
		return;
	case 0:
		break;
	default:
		dt_pt_cont(t, 0);
		return;
	}
	if (sig == (SIGTRAP | 0x80)) {
		dt_pt_sys_stop(dtp, pt, t, st);
		return;
	}
	if (sig == DT_PT_BRKSIG &&
	    dt_isa_ptrace_getregs(tid, &pt->pt_regs) == 0 &&
	    (s = dt_pt_site(t->pt_proc, DT_PT_PC(&pt->pt_regs))) != NULL &&
	    s->ps_armed) {
		dt_pt_proc_t *pp = t->pt_proc;

		if (s->ps_rtld) {
			/* Libraries changed: the site table may move. */
			dt_pt_dlopen(dtp, pt, t);
			if ((s = dt_pt_site(pp, DT_PT_PC(&pt->pt_regs))) ==
			    NULL ||
			    !s->ps_armed) {
				/* Gone: the original instruction runs. */
				dt_pt_cont(t, 0);
				return;
			}
		}
		/* A vfork child fires its parent's probes if followed. */
		if ((pp->pp_mm == pp || pt->pt_follow) && !pp->pp_gone)
			dt_pt_fire(dtp, pt, t, s);
		dt_pt_step_over(t, s, &pt->pt_regs);
		return;
	}
	if (sig == DT_PT_BRKSIG && dt_pt_ool_return(t, &pt->pt_regs))
		return;
	/* Any other signal is the program's. */
	if (pt->pt_procp[DT_PT_SIGNAL_HANDLE] != 0 ||
	    pt->pt_procp[DT_PT_SIGNAL_DISCARD] != 0) {
		switch (dt_pt_sigdisp(tid, sig)) {
		case DT_PT_SIG_CAUGHT:
			dt_pt_proc_fire(dtp, pt, t, DT_PT_SIGNAL_HANDLE, 0,
			    sig);
			break;
		case DT_PT_SIG_IGNORED:
			dt_pt_proc_fire(dtp, pt, t, DT_PT_SIGNAL_DISCARD, tid,
			    sig);
			break;
		default:
			break;
		}
	}
	dt_pt_cont(t, sig);
}

/*
 * The deadline of a wait for stops.  A stop costs the tracer a wake, the
 * tracee's stop and its resumption: the fewer system calls around them
 * the better (a system call probe stops once per call where strace stops
 * twice).  So we sleep in waitpid() itself, which returns with the stop,
 * rather than in a timed wait for SIGCHLD followed by waitpid() -- and a
 * timed sleep arms and cancels a kernel timer each time, in a virtual
 * machine two writes to the timer device and two exits to the hypervisor.
 * What ends that sleep at the deadline is one timer per wait, sending
 * this thread a signal whose handler does nothing: waitpid() fails with
 * EINTR.  The timer repeats every DT_PT_WAKE_REPEAT_NS after the deadline
 * until disarmed, for a signal taken between our check of the clock and
 * the sleep.  Where the signal has a handler already, the engine leaves
 * it alone and waits for SIGCHLD as before (dt_pt_wait()).
 */
#define DT_PT_WAKESIG (SIGRTMAX - 1)
#define DT_PT_WAKE_REPEAT_NS 1000000

static void
dt_pt_wake_handler(int sig)
{
	(void) sig;
}

/* The handler and timer, at engine open, in the thread that will wait. */
static void
dt_pt_wake_init(dt_ptrace_t *pt)
{
	struct sigaction sa = { 0 };
	struct sigevent sev = { 0 };

	if (sigaction(DT_PT_WAKESIG, NULL, &pt->pt_wake_old) != 0 ||
	    pt->pt_wake_old.sa_handler != SIG_DFL ||
	    (pt->pt_wake_old.sa_flags & SA_SIGINFO))
		return;
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = DT_PT_WAKESIG;
#ifdef sigev_notify_thread_id
	sev.sigev_notify_thread_id = (pid_t) syscall(SYS_gettid);
#else
	sev._sigev_un._tid = (pid_t) syscall(SYS_gettid);
#endif
	if (timer_create(CLOCK_MONOTONIC, &sev, &pt->pt_wake_timer) != 0)
		return;
	sa.sa_handler = dt_pt_wake_handler;	/* no SA_RESTART: EINTR */
	(void) sigemptyset(&sa.sa_mask);
	if (sigaction(DT_PT_WAKESIG, &sa, NULL) != 0) {
		(void) timer_delete(pt->pt_wake_timer);
		return;
	}
	pt->pt_wake_thread = pthread_self();
	pt->pt_wake_ok = true;
}

static void
dt_pt_wake_fini(dt_ptrace_t *pt)
{
	if (!pt->pt_wake_ok)
		return;
	(void) timer_delete(pt->pt_wake_timer);
	(void) sigaction(DT_PT_WAKESIG, &pt->pt_wake_old, NULL);
	pt->pt_wake_ok = false;
}

/* Arm (deadline, dt_os_timestamp()'s clock) or disarm (0) the timer. */
static int
dt_pt_wake_at(dt_ptrace_t *pt, uint64_t deadline)
{
	struct itimerspec its = { 0 };

	if (deadline != 0) {
		its.it_value.tv_sec = (time_t) (deadline / 1000000000ULL);
		its.it_value.tv_nsec = (long) (deadline % 1000000000ULL);
		its.it_interval.tv_nsec = DT_PT_WAKE_REPEAT_NS;
	}
	return timer_settime(pt->pt_wake_timer, TIMER_ABSTIME, &its, NULL);
}

/*
 * Handle stops until the deadline, asleep in waitpid(): 0, or -1 when
 * there is nothing to wait for (no child: the caller sleeps instead).
 * SIGCHLD stays blocked, as in dt_pt_wait(), for a handler of the
 * program's.
 */
static int
dt_pt_wait_stops(dtrace_hdl_t *dtp, dt_ptrace_t *pt, uint64_t deadline)
{
	sigset_t mask, old;
	int rc = 0;

	(void) pthread_sigmask(SIG_SETMASK, NULL, &mask);
	(void) sigaddset(&mask, SIGCHLD);
	(void) sigdelset(&mask, DT_PT_WAKESIG);
	(void) pthread_sigmask(SIG_SETMASK, &mask, &old);
	if (dt_pt_wake_at(pt, deadline) != 0) {
		(void) pthread_sigmask(SIG_SETMASK, &old, NULL);
		return -1;
	}
	while (pt->pt_attached) {
		int st;
		pid_t tid = waitpid(-1, &st, __WALL);

		if (tid < 0) {
			/* The deadline, or a signal the caller handles. */
			if (errno != EINTR)
				rc = -1;
			break;
		}
		dt_pt_event(dtp, pt, tid, st);
		if (dt_interp_exited(dtp) || dt_os_timestamp() >= deadline)
			break;
	}
	(void) dt_pt_wake_at(pt, 0);
	(void) pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/*
 * Wait for ptrace stops until the deadline, handling each: asleep in
 * waitpid() where we can (above), else in a timed wait for the SIGCHLD
 * that every stop sends.
 */
static void
dt_pt_wait(dtrace_hdl_t *dtp, uint64_t deadline)
{
	dt_ptrace_t *pt = dt_pt();
	sigset_t set, old;

	if (pt->pt_attached && pt->pt_wake_ok &&
	    pthread_equal(pt->pt_wake_thread, pthread_self()) &&
	    dt_os_timestamp() < deadline &&
	    dt_pt_wait_stops(dtp, pt, deadline) == 0)
		goto out;
	(void) sigemptyset(&set);
	(void) sigaddset(&set, SIGCHLD);
	(void) sigprocmask(SIG_BLOCK, &set, &old);
	for (;;) {
		struct timespec ts;
		uint64_t now;
		int st;
		/*
		 * Only while we hold processes: a -c child not held is
		 * reaped by dt_proc.c, with its status.
		 */
		pid_t tid = pt->pt_attached ?
		    waitpid(-1, &st, __WALL | WNOHANG) : 0;

		if (tid > 0) {
			dt_pt_event(dtp, pt, tid, st);
			if (dt_interp_exited(dtp) ||
			    dt_os_timestamp() >= deadline)
				break;
			continue;
		}
		if ((now = dt_os_timestamp()) >= deadline)
			break;
		ts.tv_sec = (time_t) ((deadline - now) / 1000000000ULL);
		ts.tv_nsec = (long) ((deadline - now) % 1000000000ULL);
		/* The timeout, or a signal the caller handles (^C). */
		if (sigtimedwait(&set, NULL, &ts) < 0)
			break;
	}
	(void) sigprocmask(SIG_SETMASK, &old, NULL);
out:
	/* The counts of patched sites, before the timers due now fire. */
	dt_pt_fast_collect_all(dtp, pt, false);
}

/*
 * Thread t, stopped as tracing ends, inside an out-of-line copy that ends
 * in a trap (arm64): out of it, since neither we nor the handler (its
 * action is put back) will be there for the trap; the trap's signal, if
 * it was reported, is ours.
 */
static void
dt_pt_ool_leave(dt_pt_thread_t *t)
{
	dt_isa_ptregs_t r;
	uint8_t code[32];
	uint64_t pc;

	if (!t->pt_stopped || t->pt_proc->pp_gone ||
	    dt_isa_ptrace_getregs(t->pt_tid, &r) != 0 ||
	    dt_pt_text_read(t->pt_proc->pp_mm, DT_PT_PC(&r), code,
	    sizeof (code)) != 0 ||
	    !dt_isa_ptrace_ool_leave(code, sizeof (code), &pc))
		return;
	DT_PT_PC(&r) = pc;
	dt_pt_trap_moved(t->pt_tid, pc);
	if (dt_isa_ptrace_setregs(t->pt_tid, &r) == 0 &&
	    t->pt_sig == DT_PT_BRKSIG)
		t->pt_sig = 0;
}

/*
 * Stop every thread of every process, put back the original bytes and
 * detach.  A thread caught on a breakpoint is set back to the site, where
 * the original instruction now is.
 */
static void
dt_pt_detach_all(dtrace_hdl_t *dtp, dt_ptrace_t *pt)
{
	for (size_t i = 0; i < pt->pt_nthreads; i++) {
		dt_pt_thread_t *t = &pt->pt_threads[i];

		if (!t->pt_stopped)
			(void) ptrace(PTRACE_INTERRUPT, t->pt_tid, 0, 0);
	}
	for (size_t i = 0; i < pt->pt_nthreads;) {
		dt_pt_thread_t *t = &pt->pt_threads[i];
		unsigned long msg;
		int st, ev;

		if (t->pt_stopped) {
			i++;
			continue;
		}
		if (dt_pt_wait_tid(t->pt_tid, &st) != 0) {
			dt_pt_exited(pt, t->pt_tid, st);
			continue;
		}
		ev = st >> 16;
		if (ev == PTRACE_EVENT_CLONE &&
		    ptrace(PTRACE_GETEVENTMSG, t->pt_tid, 0, &msg) == 0) {
			/* Attached and stopping: wait for it in turn. */
			t = dt_pt_thread_add(pt, pt->pt_threads[i].pt_proc,
			    (int) msg);
			t = &pt->pt_threads[i];
		} else if (ev == 0 && !dt_pt_brk_stop(t, st)) {
			t->pt_sig = WSTOPSIG(st);
		}
		t->pt_stopped = true;
		i++;
	}
	/*
	 * A thread stopped by the interrupt may have hit a breakpoint just
	 * before: that signal waits behind the stop, pending, and would kill
	 * the thread once we are gone.  Let it be reported now, and take it
	 * back as any breakpoint stop (the thread, at the site, runs the
	 * original instruction when let go).
	 */
	for (size_t i = 0; i < pt->pt_nthreads;) {
		dt_pt_thread_t *t = &pt->pt_threads[i];
		int st;

		if (!dt_pt_trap_pending(t->pt_tid) ||
		    ptrace(PTRACE_CONT, t->pt_tid, 0, 0) != 0) {
			i++;
			continue;
		}
		if (dt_pt_wait_tid(t->pt_tid, &st) != 0) {
			dt_pt_exited(pt, t->pt_tid, st);
			continue;
		}
		if ((st >> 16) == 0 && !dt_pt_brk_stop(t, st))
			t->pt_sig = WSTOPSIG(st);
		i++;
	}
	for (size_t i = 0; i < pt->pt_nthreads; i++)
		dt_pt_ool_leave(&pt->pt_threads[i]);
	dt_pt_fast_collect_all(dtp, pt, false);
	for (size_t p = 0; p < pt->pt_nprocs; p++) {
		dt_pt_proc_t *pp = pt->pt_procs[p];

		if (!pp->pp_gone && pp->pp_memfd >= 0)
			dt_pt_disarm(pp, pp->pp_memfd);
		/* No breakpoint left: the program's own action. */
		for (size_t i = 0; i < pt->pt_nthreads && !pp->pp_gone &&
		    pp->pp_mm == pp && pp->pp_trap != 0; i++) {
			if (pt->pt_threads[i].pt_proc == pp &&
			    pt->pt_threads[i].pt_stopped)
				dt_pt_trap_remove(pp, &pt->pt_threads[i]);
		}
	}
	while (pt->pt_nthreads > 0) {
		dt_pt_thread_t *t = &pt->pt_threads[pt->pt_nthreads - 1];
		const dt_pt_proc_t *pp = t->pt_proc;

		/* A descendant under our filter stays ours while it runs. */
		if (!pp->pp_child || pp->pp_sysmode != DT_PT_SYS_SECCOMP ||
		    dt_pt_linger_thread(t->pt_tid, t->pt_sig) != 0)
			(void) ptrace(PTRACE_DETACH, t->pt_tid, 0,
			    (void *) (long) t->pt_sig);
		dt_pt_thread_del(pt, t);
	}
	for (size_t p = 0; p < pt->pt_nprocs; p++) {
		if (!pt->pt_procs[p]->pp_gone)
			dt_pt_unkeep(pt->pt_procs[p]->pp_pid);
	}
	pt->pt_attached = false;
}

int
dt_ptrace_resume(int pid)
{
	dt_pt_thread_t *t;

	/* The engine must know it runs: detaching waits for it to stop. */
	if (dt_pt_state != NULL &&
	    (t = dt_pt_thread(dt_pt_state, pid)) != NULL) {
		t->pt_stopped = false;
		dt_pt_cont(t, t->pt_sig);
		t->pt_sig = 0;
		return 0;
	}
	return ptrace(PTRACE_CONT, pid, 0, 0) == 0 ? 0 : -1;
}

int
dt_ptrace_providers_init(dtrace_hdl_t *dtp)
{
	return dt_pt_proc_provider_init(dtp);
}

static int
dt_ptrace_open(dtrace_hdl_t *dtp)
{
	dt_ptrace_t *pt;

	if (dt_pt_state != NULL)
		return dt_set_errdetail(dtp, EDT_NOENGINE, "the ptrace engine "
		    "is in use by another handle of this process");
	if ((pt = calloc(1, sizeof (*pt))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	if (dt_interp_engine_ops.eo_open(dtp) != 0) {
		free(pt);
		return -1;
	}
	dt_pt_state = pt;
	dt_pt_wake_init(pt);
	dt_interp_set_wait(dtp, dt_pt_wait);
	return 0;
}

static int
dt_ptrace_enable(dtrace_hdl_t *dtp, dt_eprobe_t *const *eps, size_t n)
{
	dt_ptrace_t *pt = dt_pt();

	if (dt_interp_engine_ops.eo_enable(dtp, eps, n) != 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		const dt_probe_t *prp = eps[i]->ep_probe;
		const dt_pid_probe_t *pi = dt_prov_pid_info(prp);
		int rc;

		if (pi == NULL)
			pi = dt_prov_usdt_info(prp);
		if (pi == NULL) {
			if ((rc = dt_pt_sys_enable(dtp, pt, prp)) < 0)
				return -1;
			/* (and say why the engine that sees all is not) */
			if (rc > 0 && dtp->dt_nprocs == 0)
				return dt_set_errdetail(dtp, EDT_NOENGINE,
				    "%s probes on the ptrace engine see only "
				    "the processes of -c and -p, and none is "
				    "given%s%s", prp->pr_prov->pv_name,
				    dtp->dt_kernel_why != NULL ? "; the "
				    "in-kernel engine is not available: " : "",
				    dtp->dt_kernel_why != NULL ?
				    dtp->dt_kernel_why : "");
			continue;
		}
		/*
		 * Its process is attached at dtrace_go(); once tracing runs,
		 * the process that asked for it (dt_ptrace_sites.c) places
		 * its sites.
		 */
		if (!pt->pt_attached &&
		    dt_pt_proc_add(dtp, pt, pi->pi_pid) == NULL)
			return -1;
		if (dt_pt_pidp_add(pt, prp, pi) != 0)
			return dt_set_errno(dtp, EDT_NOMEM);
	}
	return 0;
}

static int
dt_ptrace_go(dtrace_hdl_t *dtp)
{
	dt_ptrace_t *pt = dt_pt();
	size_t nprocs;

	pt->pt_follow = dtp->dt_options[DT_OPT_FOLLOWFORK] != DTRACEOPT_UNSET;
	/* pid and USDT probes are matched again after exec and dlopen. */
	pt->pt_late = pt->pt_npidps > 0 || dt_work_names_procs(dtp);
	/*
	 * syscall and proc probes see every process of -c and -p; so do
	 * descriptions of their probes that may match only later.
	 */
	for (uint32_t i = 0; (pt->pt_any || pt->pt_late) &&
	    i < dtp->dt_nprocs; i++) {
		if (dt_pt_proc_add(dtp, pt, dt_proc_pid(dtp, i)) == NULL)
			return -1;
	}
	nprocs = pt->pt_nprocs;
	for (size_t p = 0; p < nprocs; p++) {
		dt_pt_proc_t *pp = pt->pt_procs[p];
		dt_pt_thread_t *t = NULL;

		/* Our -c child is attached already (dt_proc.c). */
		long tracer = dt_pt_status_field(pp->pp_pid, "TracerPid:");

		pp->pp_created = tracer == (long) getpid();
		/*
		 * A process under a debugger (gdb) has its tracer: ours would
		 * be a second, which the kernel refuses.  The bpf engine
		 * needs none.
		 */
		if (tracer > 0 && !pp->pp_created)
			return dt_set_errdetail(dtp, EDT_PROC, "failed to "
			    "attach to pid %d: it is traced by pid %ld (a "
			    "debugger), and the ptrace engine would be a "
			    "second tracer (as root, the bpf engine traces it "
			    "without ptrace)", pp->pp_pid, tracer);
		if (dt_pt_keep(pp->pp_pid) != 0)
			return dt_set_errno(dtp, EDT_NOMEM);
		pt->pt_attached = true;
		if (dt_pt_seize_all(pt, pp) != 0)
			return dt_set_errdetail(dtp, EDT_PROC, "failed to "
			    "attach to pid %d: %s", pp->pp_pid,
			    strerror(errno == EPERM ? EACCES : errno));
		if ((pp->pp_memfd = dt_pt_memfd(pp->pp_pid)) < 0)
			return dt_set_errdetail(dtp, EDT_PROC, "failed to open "
			    "the memory of pid %d: %s", pp->pp_pid,
			    strerror(errno));
		dt_pt_proc_facts(pp);
		pp->pp_follow = pt->pt_late;
		for (size_t i = 0; i < pt->pt_nthreads && t == NULL; i++) {
			if (pt->pt_threads[i].pt_proc == pp)
				t = &pt->pt_threads[i];
		}
		if (t == NULL)
			return dt_set_errdetail(dtp, EDT_PROC, "failed to "
			    "attach to pid %d: %s", pp->pp_pid,
			    strerror(ESRCH));
		if (dt_pt_place(dtp, pt, pp, t, false) != 0 ||
		    (pt->pt_any && dt_pt_sys_arm(dtp, pt, pp, t) != 0))
			return -1;
	}
	/* Let -p processes run; -c children run at dtrace_proc_continue. */
	for (size_t i = 0; i < pt->pt_nthreads; i++) {
		dt_pt_thread_t *t = &pt->pt_threads[i];

		if (t->pt_proc->pp_created)
			continue;
		t->pt_stopped = false;
		dt_pt_cont(t, t->pt_sig);
		t->pt_sig = 0;
	}
	return dt_interp_engine_ops.eo_go(dtp);
}

static int
dt_ptrace_stop(dtrace_hdl_t *dtp)
{
	dt_ptrace_t *pt = dt_pt();
	int rc;

	dt_pt_fast_collect_all(dtp, pt, false);
	rc = dt_interp_engine_ops.eo_stop(dtp);

	if (pt->pt_attached)
		dt_pt_detach_all(dtp, pt);
	return rc;
}

static void
dt_ptrace_close(dtrace_hdl_t *dtp)
{
	dt_ptrace_t *pt = dt_pt();

	if (pt == NULL)
		return;
	if (pt->pt_attached)
		dt_pt_detach_all(dtp, pt);
	for (size_t p = 0; p < pt->pt_nprocs; p++) {
		dt_pt_proc_t *pp = pt->pt_procs[p];

		dt_pt_sites_free(pp);
		dt_cfi_free(&pp->pp_cfi);
		if (pp->pp_memfd >= 0)
			(void) close(pp->pp_memfd);
		free(pp);
	}
	free(pt->pt_procs);
	free(pt->pt_pidps);
	free(pt->pt_threads);
	free(pt->pt_children);
	dt_pt_wake_fini(pt);
	free(pt);
	dt_pt_state = NULL;
	dt_interp_engine_ops.eo_close(dtp);
}

static int
dt_ptrace_poll(dtrace_hdl_t *dtp, int64_t timeout_ns)
{
	return dt_interp_engine_ops.eo_poll(dtp, timeout_ns);
}

static int
dt_ptrace_drain(dtrace_hdl_t *dtp, dt_drain_f *fn, void *arg)
{
	return dt_interp_engine_ops.eo_drain(dtp, fn, arg);
}

static int
dt_ptrace_aggsnap(dtrace_hdl_t *dtp, dt_aggsnap_t **snapsp,
    uint32_t *nsnapsp)
{
	dt_pt_fast_collect_all(dtp, dt_pt(), false);
	return dt_interp_engine_ops.eo_aggsnap(dtp, snapsp, nsnapsp);
}

static int
dt_ptrace_aggtake(dtrace_hdl_t *dtp, uint32_t aggid, dt_aggsnap_t **snapsp,
    uint32_t *nsnapsp)
{
	/* The counting sites' increases first, so that they are taken too. */
	dt_pt_fast_collect_all(dtp, dt_pt(), false);
	return dt_interp_engine_ops.eo_aggtake(dtp, aggid, snapsp, nsnapsp);
}

static void
dt_ptrace_status(dtrace_hdl_t *dtp, dt_engine_status_t *stp)
{
	dt_interp_engine_ops.eo_status(dtp, stp);
}

static void
dt_ptrace_cpudrops(dtrace_hdl_t *dtp, uint64_t *drops, uint64_t *aggdrops,
    uint32_t n)
{
	dt_interp_engine_ops.eo_cpudrops(dtp, drops, aggdrops, n);
}

const dt_engine_ops_t dt_ptrace_engine_ops = {
	.eo_name = "ptrace",
	/* It runs whatever the interpreter runs, and pid probes. */
	.eo_flag = DT_ENGINE_F_INTERP | DT_ENGINE_F_USER,
	.eo_open = dt_ptrace_open,
	.eo_enable = dt_ptrace_enable,
	.eo_go = dt_ptrace_go,
	.eo_poll = dt_ptrace_poll,
	.eo_drain = dt_ptrace_drain,
	.eo_aggsnap = dt_ptrace_aggsnap,
	.eo_aggsnap_free = dt_engine_aggsnap_free,
	.eo_aggtake = dt_ptrace_aggtake,
	.eo_stop = dt_ptrace_stop,
	.eo_status = dt_ptrace_status,
	/* Drops are the interpreter's buffers': reported as every engine's. */
	.eo_cpudrops = dt_ptrace_cpudrops,
	.eo_close = dt_ptrace_close,
};

const struct dt_engine_ops *
dt_ptrace_engine(const char **whyp)
{
	*whyp = "";
	return &dt_ptrace_engine_ops;
}
