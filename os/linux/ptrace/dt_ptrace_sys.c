/* SPDX-License-Identifier: MIT */
/*
 * dt_ptrace_sys.c: the syscall and proc providers on the ptrace engine --
 * system calls and process events of the traced processes, from ptrace
 * stops, without privilege.
 *
 *	syscall::<name>:entry	the call's entry stop: a seccomp stop
 *				(PTRACE_EVENT_SECCOMP) or a syscall-enter
 *				stop; arg0..arg5 from the ISA's system
 *				call registers (x86-64: rdi, rsi, rdx, r10,
 *				r8, r9; arm64: x0..x5)
 *	syscall::<name>:return	its syscall-exit stop; arg0 = arg1 = the
 *				result (rax, x0), but -1 with errno =
 *				-result when it is in [-4095, -1] (a
 *				failure), as in DTrace
 *	proc:::create		PTRACE_EVENT_FORK/VFORK of the parent
 *				(args[0]: the child's psinfo_t)
 *	proc:::start		the child's first stop, in the child
 *	proc:::exec		execve/execveat's entry (args[0]: the path)
 *	proc:::exec-success	PTRACE_EVENT_EXEC, in the new image
 *	proc:::exec-failure	execve/execveat's exit stop with an error
 *				(args[0]: the errno)
 *	proc:::exit		PTRACE_EVENT_EXIT of the last thread
 *				(args[0]: CLD_EXITED, CLD_KILLED, CLD_DUMPED)
 *	proc:::lwp-create	PTRACE_EVENT_CLONE of a thread (args[0],
 *				args[1]: the new thread's lwpsinfo_t and its
 *				process's psinfo_t)
 *	proc:::lwp-start	the new thread's first stop
 *	proc:::lwp-exit		PTRACE_EVENT_EXIT of a thread but the last
 *	proc:::signal-send	kill/tkill/tgkill's entry (args[0], args[1]:
 *				the target's lwpsinfo_t and psinfo_t,
 *				args[2] the signal)
 *	proc:::signal-handle	a signal-delivery stop of a signal the
 *				thread catches (args[0]: the signal)
 *	proc:::signal-discard	a signal-delivery stop of a signal the
 *				thread ignores (SIG_IGN, or SIG_DFL for
 *				SIGCHLD, SIGURG, SIGWINCH), in the thread:
 *				the kernel discards it once passed on
 *				(args[0], args[1]: its lwpsinfo_t and
 *				psinfo_t, args[2] the signal)
 *	proc:::signal-clear	rt_sigtimedwait's exit stop with a signal
 *				(sigwait(), sigwaitinfo(), sigtimedwait()
 *				took a pending signal; args[0]: the signal)
 *
 * Not seen: a signal read from a signalfd (a read(2) like any other), a
 * signal discarded while blocked (no delivery stop until unblocked), and
 * proc:::fault.
 *
 * How system calls stop.  A -c process, stopped at its entry point when
 * tracing starts, gets a seccomp filter (injected prctl(PR_SET_NO_NEW_PRIVS)
 * and seccomp(SECCOMP_SET_MODE_FILTER) calls) returning SECCOMP_RET_TRACE
 * for the calls probed, and only those stop: a seccomp stop is the entry,
 * and when a return probe (or exec-failure) wants the exit, the thread is
 * resumed with PTRACE_SYSCALL, whose next stop is that call's exit.  A
 * filter cannot be removed, and a SECCOMP_RET_TRACE call of a process
 * whose tracer is gone fails with ENOSYS: a -c process is killed when
 * dtrace ends (as DTrace does), but a -p process lives on, so it is
 * traced by PTRACE_SYSCALL instead -- every call stops, the unprobed ones
 * are let go at once, and detaching leaves nothing behind.
 *
 * Which processes: the syscall and proc providers are system-wide, but
 * this engine sees only the processes of -c and -p and, with these
 * probes enabled, their descendants (fork children are kept attached:
 * under a seccomp filter a child let go would get ENOSYS; one still
 * running when tracing ends is served on, dt_ptrace_linger.c).
 *
 * The psinfo_t and lwpsinfo_t of proc probes are filled in the engine's
 * memory, which args[N]-> reads as kernel memory would be read (the
 * probe context's do_read); their member offsets come from the compiler's
 * types, looked up once.
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "common/compiler/dt_cc.h"
#include "common/dt_impl.h"
#include "common/dt_os.h"
#include "common/probe/dt_probe.h"
#include "os/linux/ptrace/dt_ptrace_impl.h"

/* The proc provider's probes as this engine fires them. */
static const struct {
	const char *pn_name;
	int pn_nargs;
	const char *pn_types[3];
} dt_pt_procnames[DT_PT_PROC_NPROBES] = {
	[DT_PT_CREATE] = { "create", 1, { "psinfo_t *" } },
	[DT_PT_EXEC] = { "exec", 1, { "string" } },
	[DT_PT_EXEC_SUCCESS] = { "exec-success", 0, { NULL } },
	[DT_PT_EXEC_FAILURE] = { "exec-failure", 1, { "int" } },
	[DT_PT_EXIT] = { "exit", 1, { "int" } },
	[DT_PT_START] = { "start", 0, { NULL } },
	[DT_PT_LWP_CREATE] = { "lwp-create", 2,
		{ "lwpsinfo_t *", "psinfo_t *" } },
	[DT_PT_LWP_START] = { "lwp-start", 0, { NULL } },
	[DT_PT_LWP_EXIT] = { "lwp-exit", 0, { NULL } },
	[DT_PT_SIGNAL_SEND] = { "signal-send", 3,
		{ "lwpsinfo_t *", "psinfo_t *", "int" } },
	[DT_PT_SIGNAL_HANDLE] = { "signal-handle", 3,
		{ "int", "siginfo_t *", "void (*)(int)" } },
	[DT_PT_SIGNAL_DISCARD] = { "signal-discard", 3,
		{ "lwpsinfo_t *", "psinfo_t *", "int" } },
	[DT_PT_SIGNAL_CLEAR] = { "signal-clear", 1, { "int" } },
};

/* System calls proc probes need. */
#define DT_PT_NR_EXECVE	  SYS_execve
#define DT_PT_NR_EXECVEAT SYS_execveat
#define DT_PT_NR_KILL	  SYS_kill
#define DT_PT_NR_TKILL	  SYS_tkill
#define DT_PT_NR_TGKILL	  SYS_tgkill
#define DT_PT_NR_SIGTIMEDWAIT SYS_rt_sigtimedwait

static const dt_provattr_t dt_pt_proc_attr = {
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_ISA },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_ISA },
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_ISA },
};

static int
dt_pt_proc_populate(dtrace_hdl_t *dtp, dt_provider_t *pvp)
{
	for (int i = 0; i < DT_PT_PROC_NPROBES; i++) {
		if (dt_probe_create(dtp, pvp, "", "",
		    dt_pt_procnames[i].pn_name, dt_pt_procnames[i].pn_nargs,
		    dt_pt_procnames[i].pn_types, NULL) == NULL)
			return -1;
	}
	return 0;
}

static const dt_provops_t dt_pt_proc_ops = {
	.po_populate = dt_pt_proc_populate,
	.po_mech = DT_MECH_PROCEV,
};

int
dt_pt_proc_provider_init(dtrace_hdl_t *dtp)
{
	/*
	 * The in-kernel proc provider, registered first when BPF is usable
	 * (dt_ktab.c), names them all: its arguments are kernel types this
	 * engine cannot give.  Without BPF, these are the proc probes.
	 */
	if (dt_provider_lookup(dtp, "proc") != NULL)
		return 0;
	return dt_provider_register(dtp, "proc", &dt_pt_proc_ops,
	    &dt_pt_proc_attr, DT_ENGINE_F_USER, NULL);
}

static void
dt_pt_need(dt_ptrace_t *pt, int nr, uint8_t what)
{
	if (nr >= 0 && nr < DT_PT_NSYS)
		pt->pt_sysneed[nr] |= what;
}

int
dt_pt_sys_enable(dtrace_hdl_t *dtp, dt_ptrace_t *pt, const dt_probe_t *prp)
{
	const dt_syscall_probe_t *sp = dt_prov_syscall_info(prp);

	(void) dtp;
	if (sp != NULL) {
		pt->pt_any = true;
		/* A call this build does not know by number never fires. */
		if (sp->sp_nr < 0 || sp->sp_nr >= DT_PT_NSYS)
			return 1;
		if (sp->sp_return)
			pt->pt_sysret[sp->sp_nr] = prp->pr_id;
		else
			pt->pt_sysent[sp->sp_nr] = prp->pr_id;
		dt_pt_need(pt, sp->sp_nr, DT_PT_NEED_ENTRY |
		    (sp->sp_return ? DT_PT_NEED_RETURN : 0));
		return 1;
	}
	/* Any provider of process events (not only this one's "proc"). */
	if (prp->pr_prov->pv_ops->po_mech == NULL ||
	    strcmp(prp->pr_prov->pv_ops->po_mech, DT_MECH_PROCEV) != 0)
		return 0;
	for (int i = 0; i < DT_PT_PROC_NPROBES; i++) {
		if (strcmp(prp->pr_name, dt_pt_procnames[i].pn_name) != 0)
			continue;
		pt->pt_any = true;
		pt->pt_procp[i] = prp->pr_id;
		switch (i) {
		case DT_PT_EXEC:
			dt_pt_need(pt, DT_PT_NR_EXECVE, DT_PT_NEED_ENTRY);
			dt_pt_need(pt, DT_PT_NR_EXECVEAT, DT_PT_NEED_ENTRY);
			break;
		case DT_PT_EXEC_FAILURE:
			dt_pt_need(pt, DT_PT_NR_EXECVE, DT_PT_NEED_ENTRY |
			    DT_PT_NEED_RETURN);
			dt_pt_need(pt, DT_PT_NR_EXECVEAT, DT_PT_NEED_ENTRY |
			    DT_PT_NEED_RETURN);
			break;
		case DT_PT_SIGNAL_SEND:
			dt_pt_need(pt, DT_PT_NR_KILL, DT_PT_NEED_ENTRY);
			dt_pt_need(pt, DT_PT_NR_TKILL, DT_PT_NEED_ENTRY);
			dt_pt_need(pt, DT_PT_NR_TGKILL, DT_PT_NEED_ENTRY);
			break;
		case DT_PT_SIGNAL_CLEAR:
			dt_pt_need(pt, DT_PT_NR_SIGTIMEDWAIT,
			    DT_PT_NEED_ENTRY | DT_PT_NEED_RETURN);
			break;
		default:
			break;
		}
		return 1;
	}
	return 1;	/* a proc probe this engine never fires */
}

/*
 * The filter: SECCOMP_RET_TRACE for the ISA's native calls (its audit
 * architecture, dt_isa_ptrace.ip_auditarch) whose stops are
 * needed, SECCOMP_RET_ALLOW for everything else.  Each call is a jeq to
 * its own return, so that no jump is longer than a jeq can encode.
 */
static size_t
dt_pt_filter(const dt_ptrace_t *pt, struct sock_filter *f)
{
	size_t n = 0;

	f[n++] = (struct sock_filter) BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
	    offsetof(struct seccomp_data, arch));
	f[n++] = (struct sock_filter) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
	    dt_isa_ptrace.ip_auditarch, 1, 0);
	f[n++] = (struct sock_filter) BPF_STMT(BPF_RET | BPF_K,
	    SECCOMP_RET_ALLOW);
	f[n++] = (struct sock_filter) BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
	    offsetof(struct seccomp_data, nr));
	for (int nr = 0; nr < DT_PT_NSYS; nr++) {
		if (pt->pt_sysneed[nr] == 0)
			continue;
		f[n++] = (struct sock_filter) BPF_JUMP(BPF_JMP | BPF_JEQ |
		    BPF_K, (uint32_t) nr, 0, 1);
		f[n++] = (struct sock_filter) BPF_STMT(BPF_RET | BPF_K,
		    SECCOMP_RET_TRACE);
	}
	f[n++] = (struct sock_filter) BPF_STMT(BPF_RET | BPF_K,
	    SECCOMP_RET_ALLOW);
	return n;
}

/* Install the filter in pp through its stopped thread t. */
static int
dt_pt_seccomp(dt_ptrace_t *pt, dt_pt_proc_t *pp, dt_pt_thread_t *t)
{
	struct sock_filter f[2 * DT_PT_NSYS + 5];
	size_t n = dt_pt_filter(pt, f), len = 16 + n * sizeof (f[0]);
	uint64_t a[6] = { 0, len, PROT_READ | PROT_WRITE,
		MAP_PRIVATE | MAP_ANONYMOUS, (uint64_t) -1, 0 };
	int64_t at, rc;
	uint8_t prog[16] = { 0 };
	uint16_t cnt = (uint16_t) n;
	uint64_t fp;

	if ((at = dt_pt_inject_syscall(pp, t, SYS_mmap, a)) <= 0)
		return -1;
	/* struct sock_fprog: the count, padding, the filter's address. */
	fp = (uint64_t) at + 16;
	memcpy(prog, &cnt, sizeof (cnt));
	memcpy(prog + 8, &fp, sizeof (fp));
	rc = -1;
	if (dt_pt_text_write(pp, (uint64_t) at, prog, sizeof (prog)) == 0 &&
	    dt_pt_text_write(pp, fp, f, n * sizeof (f[0])) == 0) {
		uint64_t nnp[6] = { PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0, 0 };
		uint64_t sc[6] = { SECCOMP_SET_MODE_FILTER, 0, (uint64_t) at,
			0, 0, 0 };

		if (dt_pt_inject_syscall(pp, t, SYS_prctl, nnp) == 0)
			rc = dt_pt_inject_syscall(pp, t, SYS_seccomp, sc);
	}
	/* The kernel has its own copy of the filter now. */
	a[0] = (uint64_t) at;
	(void) dt_pt_inject_syscall(pp, t, SYS_munmap, a);
	return rc == 0 ? 0 : -1;
}

int
dt_pt_sys_arm(dtrace_hdl_t *dtp, dt_ptrace_t *pt, dt_pt_proc_t *pp,
    dt_pt_thread_t *t)
{
	bool any = false;
	long opts = DT_PT_OPTS | PTRACE_O_TRACESECCOMP;

	for (int nr = 0; nr < DT_PT_NSYS && !any; nr++)
		any = pt->pt_sysneed[nr] != 0;
	if (!any)
		return 0;
	/*
	 * A filter outlives tracing: only for our -c child, which ends with
	 * dtrace (dtrace_close() kills it), and not where a filter cannot
	 * be stacked on the process's own (it has no room left, say).
	 */
	if (pp->pp_created) {
		/*
		 * No PTRACE_O_EXITKILL: see dt_pt_seize_all().  The mode is
		 * set first: the filter is ours to inject calls past.
		 */
		pp->pp_sysmode = DT_PT_SYS_SECCOMP;
		if (ptrace(PTRACE_SETOPTIONS, pp->pp_pid, 0, (void *) opts) ==
		    0 && dt_pt_seccomp(pt, pp, t) == 0)
			return 0;
		(void) ptrace(PTRACE_SETOPTIONS, pp->pp_pid, 0,
		    (void *) (long) DT_PT_OPTS);
	}
	(void) dtp;
	pp->pp_sysmode = DT_PT_SYS_STEP;
	return 0;
}

/* Fire syscall probe id, or the proc probes a call implies. */
static void
dt_pt_sys_fire(dtrace_hdl_t *dtp, dt_ptrace_t *pt, dt_pt_thread_t *t,
    int nr, bool exit)
{
	const dt_isa_ptregs_t *r = &pt->pt_regs;
	const int16_t *ra = dt_isa_ptrace.ip_sysargs;
	uint64_t args[6];
	int64_t rv = (int64_t) DT_ISA_PTREG(r, dt_isa_ptrace.ip_sysret);

	for (int i = 0; i < 6; i++)
		args[i] = DT_ISA_PTREG(r, ra[i]);

	if (t->pt_proc->pp_gone)
		return;
	if (!exit) {
		if (pt->pt_sysent[nr] != 0)
			dt_pt_fire_probe(dtp, pt, t, pt->pt_sysent[nr], args,
			    6);
		if ((nr == DT_PT_NR_EXECVE || nr == DT_PT_NR_EXECVEAT) &&
		    pt->pt_procp[DT_PT_EXEC] != 0)
			dt_pt_proc_fire(dtp, pt, t, DT_PT_EXEC, 0, (int64_t)
			    (nr == DT_PT_NR_EXECVE ? args[0] : args[1]));
		if (nr == DT_PT_NR_KILL || nr == DT_PT_NR_TKILL ||
		    nr == DT_PT_NR_TGKILL) {
			int target = (int) (nr == DT_PT_NR_TGKILL ? args[1] :
			    args[0]);
			int sig = (int) (nr == DT_PT_NR_TGKILL ? args[2] :
			    args[1]);

			if (pt->pt_procp[DT_PT_SIGNAL_SEND] != 0 && sig > 0 &&
			    target > 0)
				dt_pt_proc_fire(dtp, pt, t, DT_PT_SIGNAL_SEND,
				    target, sig);
		}
		return;
	}
	pt->pt_errno = rv < 0 && rv >= -4095 ? (uint64_t) -rv : 0;
	if (pt->pt_sysret[nr] != 0) {
		/* A failed call returns -1, as in DTrace; errno says why. */
		args[0] = args[1] = pt->pt_errno != 0 ? (uint64_t) -1 :
		    (uint64_t) rv;
		dt_pt_fire_probe(dtp, pt, t, pt->pt_sysret[nr], args, 2);
	}
	if ((nr == DT_PT_NR_EXECVE || nr == DT_PT_NR_EXECVEAT) &&
	    pt->pt_errno != 0 && pt->pt_procp[DT_PT_EXEC_FAILURE] != 0)
		dt_pt_proc_fire(dtp, pt, t, DT_PT_EXEC_FAILURE, 0,
		    (int64_t) pt->pt_errno);
	/* The signal a sigwait() took. */
	if (nr == DT_PT_NR_SIGTIMEDWAIT && rv > 0 && rv < 65 &&
	    pt->pt_procp[DT_PT_SIGNAL_CLEAR] != 0)
		dt_pt_proc_fire(dtp, pt, t, DT_PT_SIGNAL_CLEAR, 0, rv);
	pt->pt_errno = 0;
}

void
dt_pt_sys_stop(dtrace_hdl_t *dtp, dt_ptrace_t *pt, dt_pt_thread_t *t, int st)
{
	struct __ptrace_syscall_info si;
	int nr;
	bool exit;

	if (dt_isa_ptrace_getregs(t->pt_tid, &pt->pt_regs) != 0) {
		dt_pt_cont(t, 0);
		return;
	}
	nr = (int) DT_ISA_PTREG(&pt->pt_regs, dt_isa_ptrace.ip_stopnr);
	if ((st >> 16) == PTRACE_EVENT_SECCOMP) {
		exit = false;
	} else if (t->pt_proc->pp_sysmode == DT_PT_SYS_STEP) {
		if (ptrace(PTRACE_GET_SYSCALL_INFO, t->pt_tid,
		    (void *) sizeof (si), &si) <= 0) {
			dt_pt_cont(t, 0);
			return;
		}
		exit = si.op == PTRACE_SYSCALL_INFO_EXIT;
	} else {
		/* The exit stop a seccomp stop asked for. */
		exit = true;
	}
	if (nr >= 0 && nr < DT_PT_NSYS && pt->pt_sysneed[nr] != 0)
		dt_pt_sys_fire(dtp, pt, t, nr, exit);
	/* An entry whose exit is wanted: stop at it (seccomp). */
	if (!exit && t->pt_proc->pp_sysmode == DT_PT_SYS_SECCOMP &&
	    nr >= 0 && nr < DT_PT_NSYS &&
	    (pt->pt_sysneed[nr] & DT_PT_NEED_RETURN)) {
		t->pt_sysexit = true;
		(void) ptrace(PTRACE_SYSCALL, t->pt_tid, 0, 0);
		return;
	}
	t->pt_sysexit = false;
	dt_pt_cont(t, 0);
}

/*
 * psinfo_t and lwpsinfo_t, filled by member name: the offsets are the
 * compiler's (common/compiler/dt_cc.c defines both types).
 */
static void
dt_pt_info_set(dtrace_hdl_t *dtp, unsigned char *buf, const char *type,
    const char *member, const void *val, size_t size)
{
	ctf_dict_t *fp;
	ctf_id_t t;
	ctf_membinfo_t mi;
	size_t off;

	if (dt_type_lookup(dtp->dt_cc, type, &fp, &t) != 0 ||
	    (t = ctf_type_resolve(fp, t)) == CTF_ERR ||
	    ctf_member_info(fp, t, member, &mi) != 0)
		return;
	off = (size_t) mi.ctm_offset / 8;
	if (off + size <= DT_PT_INFOSZ)
		memcpy(buf + off, val, size);
}

#define DT_PT_SET(dtp, buf, type, member, v)                          \
	do {                                                          \
		__typeof__(v) dt_v_ = (v);                            \
		dt_pt_info_set(dtp, buf, type, member, &dt_v_,         \
		    sizeof (dt_v_));                                  \
	} while (0)

/* The psinfo_t of process pid into buf, from /proc. */
static void
dt_pt_psinfo(dtrace_hdl_t *dtp, unsigned char *buf, int pid)
{
	char path[64], comm[16] = "", args[80] = "";
	int32_t v;
	ssize_t n;
	FILE *fp;

	memset(buf, 0, DT_PT_INFOSZ);
	DT_PT_SET(dtp, buf, "psinfo_t", "pr_pid", (int32_t) pid);
	v = (int32_t) dt_pt_status_field(pid, "PPid:");
	DT_PT_SET(dtp, buf, "psinfo_t", "pr_ppid", v);
	v = (int32_t) dt_pt_status_field(pid, "Uid:");
	DT_PT_SET(dtp, buf, "psinfo_t", "pr_uid", v);
	DT_PT_SET(dtp, buf, "psinfo_t", "pr_euid", v);
	v = (int32_t) dt_pt_status_field(pid, "Gid:");
	DT_PT_SET(dtp, buf, "psinfo_t", "pr_gid", v);
	DT_PT_SET(dtp, buf, "psinfo_t", "pr_egid", v);
	v = (int32_t) dt_pt_status_field(pid, "Threads:");
	DT_PT_SET(dtp, buf, "psinfo_t", "pr_nlwp", v);
	DT_PT_SET(dtp, buf, "psinfo_t", "pr_dmodel", (char) 2);
	(void) snprintf(path, sizeof (path), "/proc/%d/comm", pid);
	if ((fp = fopen(path, "re")) != NULL) {
		if (fgets(comm, sizeof (comm), fp) != NULL)
			comm[strcspn(comm, "\n")] = '\0';
		(void) fclose(fp);
	}
	dt_pt_info_set(dtp, buf, "psinfo_t", "pr_fname", comm, sizeof (comm));
	if (dt_os_proc_args(pid, args, sizeof (args)) == 0) {
		n = (ssize_t) strlen(args);
		dt_pt_info_set(dtp, buf, "psinfo_t", "pr_psargs", args,
		    (size_t) n + 1);
	}
}

static void
dt_pt_lwpsinfo(dtrace_hdl_t *dtp, unsigned char *buf, int tid)
{
	memset(buf, 0, DT_PT_INFOSZ);
	DT_PT_SET(dtp, buf, "lwpsinfo_t", "pr_lwpid", (int32_t) tid);
	DT_PT_SET(dtp, buf, "lwpsinfo_t", "pr_bindpro", (int32_t) -1);
	DT_PT_SET(dtp, buf, "lwpsinfo_t", "pr_bindpset", (int32_t) -1);
}

void
dt_pt_proc_fire(dtrace_hdl_t *dtp, dt_ptrace_t *pt, dt_pt_thread_t *t,
    dt_pt_procprobe_t which, int other, int64_t val)
{
	uint64_t args[3] = { 0 };
	long tgid;

	if (pt->pt_procp[which] == 0)
		return;
	switch (which) {
	case DT_PT_CREATE:
		dt_pt_psinfo(dtp, pt->pt_psinfo, other);
		args[0] = (uint64_t) (uintptr_t) pt->pt_psinfo;
		break;
	case DT_PT_LWP_CREATE:
		dt_pt_lwpsinfo(dtp, pt->pt_lwpsinfo, other);
		dt_pt_psinfo(dtp, pt->pt_psinfo, t->pt_proc->pp_pid);
		args[0] = (uint64_t) (uintptr_t) pt->pt_lwpsinfo;
		args[1] = (uint64_t) (uintptr_t) pt->pt_psinfo;
		break;
	case DT_PT_SIGNAL_SEND:
	case DT_PT_SIGNAL_DISCARD:
		tgid = dt_pt_status_field(other, "Tgid:");
		dt_pt_lwpsinfo(dtp, pt->pt_lwpsinfo, other);
		dt_pt_psinfo(dtp, pt->pt_psinfo, tgid > 0 ? (int) tgid :
		    other);
		args[0] = (uint64_t) (uintptr_t) pt->pt_lwpsinfo;
		args[1] = (uint64_t) (uintptr_t) pt->pt_psinfo;
		args[2] = (uint64_t) val;
		break;
	case DT_PT_EXEC:
		/* The path, copied where args[0] reads it. */
		memset(pt->pt_str, 0, sizeof (pt->pt_str));
		for (size_t i = 0; i + 1 < sizeof (pt->pt_str); i++) {
			if (dt_pt_vm_read(t->pt_proc->pp_pid, (uint64_t) val +
			    i, &pt->pt_str[i], 1) != 0 || pt->pt_str[i] == '\0')
				break;
		}
		args[0] = (uint64_t) (uintptr_t) pt->pt_str;
		break;
	default:
		args[0] = (uint64_t) val;
		break;
	}
	dt_pt_fire_probe(dtp, pt, t, pt->pt_procp[which], args,
	    dt_pt_procnames[which].pn_nargs);
}
