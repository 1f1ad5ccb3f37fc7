/* SPDX-License-Identifier: MIT */
/*
 * dt_prov_proc.c: the proc provider -- DTrace's stable probes of process
 * and thread life (creation, exec, exit) and signals, on kernel
 * tracepoints, with DTrace's argument types (psinfo_t and lwpsinfo_t
 * translated from struct task_struct by os/linux/lib/psinfo.d).
 *
 * Every probe is proc:vmlinux:<kernel event>:<name>:
 *
 *	create		raw tracepoint task_newtask (in the parent), when
 *			clone's flags lack CLONE_THREAD: a new process.
 *			args[0] psinfo_t * of the child
 *	lwp-create	task_newtask, every new thread, a new process's
 *			first one included, as DTrace's lwp-create fires
 *			for the LWP of a new process before create.
 *			args[0] lwpsinfo_t *, args[1] psinfo_t * of it
 *	exec		raw tracepoint sched_prepare_exec, once the
 *			program is found, and raw_syscalls:sys_exit
 *			for an execve that failed before it;
 *			kernels without sched_prepare_exec: tracepoints
 *			syscalls:sys_enter_execve and sys_enter_execveat,
 *			every attempt.  args[0] string: the path
 *			("" if unreadable)
 *	exec-success	raw tracepoint sched_process_exec: the new image
 *			is loaded, execname and curpsinfo are the new
 *			program's (pr_psargs its command line)
 *	exec-failure	raw_syscalls:sys_exit for execve (after exec)
 *			and syscalls:sys_exit_execveat when
 *			they return an error.  args[0] int: the errno
 *	exit		raw tracepoint sched_process_exit when its
 *			group_dead argument says the last thread of the
 *			process is exiting (kernels whose tracepoint lacks
 *			it: when the group's leader exits, which misses a
 *			process whose leader ended first).  args[0] int:
 *			why, as SIGCHLD codes: CLD_EXITED (1), CLD_KILLED
 *			(2), CLD_DUMPED (3), from the task's exit_code
 *	lwp-exit	sched_process_exit, every thread
 *	start		raw tracepoint sched_exit_tp (no tracefs event; it
 *			fires as a task returns from the scheduler), in
 *			the new task's first run -- the one whose context
 *			switch counts nvcsw and nivcsw are both 0 -- when
 *			it leads its thread group: before the new process
 *			runs any instruction of its own
 *	lwp-start	sched_exit_tp, likewise for every new thread;
 *			after start for a new process's first thread
 *	signal-send	raw tracepoint signal_generate (in the sender),
 *			unless the signal was ignored.  args[0]
 *			lwpsinfo_t *, args[1] psinfo_t * of the target,
 *			args[2] int: the signal
 *	signal-discard	signal_generate when the target ignores the
 *			signal; arguments as signal-send
 *	signal-handle	raw tracepoint signal_deliver, in the thread
 *			about to act on the signal (its handler or the
 *			default action; a fatal one's own number, not the
 *			SIGKILL the kernel makes of it).  args[0] int:
 *			the signal, args[1]
 *			siginfo_t * (os/linux/lib/signal.d), args[2] the
 *			handler's address (void *: D names no
 *			function pointer type; DTrace's is void (*)(void))
 *	signal-clear	syscalls:sys_exit_rt_sigtimedwait returning a
 *			signal (sigwait(), sigwaitinfo(), sigtimedwait()
 *			took a pending signal).  args[0] int: the signal
 *
 * Linux has no exact twin of some of DTrace's moments: a failed
 * execveat fires exec-failure without exec; start and lwp-start need the kernel's
 * sched_exit_tp (recent kernels only) and are not listed without it;
 * signal-clear does not see a signal taken through signalfd.  pr_psargs
 * of a psinfo_t is the current process's command line (psinfo.d), so
 * create's args[0]->pr_psargs is the parent's, which the child shares
 * until it execs.
 */
#include <sys/syscall.h>

#include "common/dt_impl.h"
#include "isa/dt_isa.h"
#include "os/linux/prov/dt_ktab.h"
#include "os/linux/prov/dt_linux_prov.h"

#define DT_CLONE_THREAD 0x00010000	/* <linux/sched.h>: uapi, stable */
#define DT_SIGNAL_IGNORED 1		/* TRACE_SIGNAL_IGNORED */

#define TASK "struct task_struct *"
#define RAW(i) { .kr_kind = DT_KEVENT_ARG_RAW, .kr_index = (i) }
#define RAWINT(i) { .kr_kind = DT_KEVENT_ARG_RAW, .kr_index = (i), \
	.kr_size = 4, .kr_signed = true }
#define CURMEM(w) { .kr_kind = DT_KEVENT_ARG_CURMEM, .kr_where = (w) }
#define COND(op, a, v) { .kc_op = DT_KEVENT_FILT_ ## op, .kc_arg = (a), \
	.kc_val = (v) }

/*
 * start and lwp-start: the first run of a task, in its context -- a
 * switch to a task never switched out (the scheduler may also return
 * into a task it kept running: is_switch false).
 */
#define FIRST_RUN_ARGS { CURMEM("task_struct.nvcsw"), \
	CURMEM("task_struct.nivcsw"), CURMEM("task_struct.group_leader"), \
	{ .kr_kind = DT_KEVENT_ARG_CURTASK }, \
	{ .kr_kind = DT_KEVENT_ARG_RAW, .kr_index = 0, .kr_size = 1 } }
#define FIRST_RUN_CONDS COND(EQ, 0, 0), COND(EQ, 1, 0), COND(NE, 4, 0)

#define EXEC(sys) { \
	.kp_name = "exec", .kp_kind = DT_KEVENT_TP, .kp_group = "syscalls", \
	.kp_event = "sys_enter_" sys, .kp_ntyped = 1, .kp_alt = true, \
	.kp_native = { "string" }, \
	.kp_args = { { .kr_kind = DT_KEVENT_ARG_USTR, \
	    .kr_where = "filename" } } }

#define EXEC_FAILURE(sys) { \
	.kp_name = "exec-failure", .kp_kind = DT_KEVENT_TP, \
	.kp_group = "syscalls", .kp_event = "sys_exit_" sys, \
	.kp_ntyped = 1, .kp_native = { "int" }, \
	.kp_args = { { .kr_kind = DT_KEVENT_ARG_FIELD, .kr_where = "ret", \
	    .kr_xform = DT_KEVENT_XF_NEG } }, \
	.kp_conds = { COND(GE, 0, 1) } }

/*
 * A failed execve, seen where the system call returns (raw tracepoint
 * raw_syscalls:sys_exit with the caller's saved registers): its number
 * (the C library's for this ISA) and its path, which the kernel has read
 * by then, so the page is in and a BPF program can copy it.  The pt_regs
 * members that hold them then are the ISA's to name (isa/dt_isa.h).
 */
#define SYSEXIT_EXECVE(name, ...) { \
	.kp_name = (name), .kp_kind = DT_KEVENT_RAWTP, \
	.kp_group = "raw_syscalls", .kp_event = "sys_exit", \
	.kp_ntyped = 1, __VA_ARGS__, \
	.kp_conds = { COND(EQ, 2, SYS_execve), COND(LT, 3, 0) } }
#define SYSEXIT_REGS \
	{ .kr_kind = DT_KEVENT_ARG_RAWMEM, .kr_index = 0, .kr_size = 4, \
	    .kr_where = dt_isa_linux_sysnr_member }, RAW(1)

#define SIGNAL_SEND(name, op) { \
	.kp_name = (name), .kp_kind = DT_KEVENT_RAWTP, .kp_group = "signal", \
	.kp_event = "signal_generate", .kp_ntyped = 3, \
	.kp_native = { TASK, TASK, "int" }, \
	.kp_xlate = { "lwpsinfo_t *", "psinfo_t *" }, \
	.kp_args = { RAW(2), RAW(2), RAWINT(0), RAWINT(4) }, \
	.kp_conds = { COND(op, 3, DT_SIGNAL_IGNORED) } }

/* In the order DTrace fires probes that share an event. */
static const dt_ktab_probe_t dt_prov_proc_table[] = {
	{ .kp_name = "lwp-create", .kp_kind = DT_KEVENT_RAWTP,
	  .kp_group = "task", .kp_event = "task_newtask", .kp_ntyped = 2,
	  .kp_native = { TASK, TASK },
	  .kp_xlate = { "lwpsinfo_t *", "psinfo_t *" },
	  .kp_args = { RAW(0), RAW(0) } },
	{ .kp_name = "create", .kp_kind = DT_KEVENT_RAWTP,
	  .kp_group = "task", .kp_event = "task_newtask", .kp_ntyped = 1,
	  .kp_native = { TASK }, .kp_xlate = { "psinfo_t *" },
	  .kp_args = { RAW(0), RAW(1) },
	  .kp_conds = { { .kc_op = DT_KEVENT_FILT_EQ, .kc_arg = 1,
	      .kc_mask = DT_CLONE_THREAD, .kc_val = 0 } } },
	{ .kp_name = "exec", .kp_kind = DT_KEVENT_RAWTP, .kp_group = "sched",
	  .kp_event = "sched_prepare_exec", .kp_ntyped = 1,
	  .kp_native = { "string" },
	  .kp_args = { { .kr_kind = DT_KEVENT_ARG_RAWMEM, .kr_index = 1,
	      .kr_where = "linux_binprm.filename" } } },
	EXEC("execve"),
	EXEC("execveat"),
	/*
	 * DTrace fires exec for every attempt, before it can fail: an
	 * execve that fails before sched_prepare_exec (no such file, not
	 * an executable format) fires exec as it returns, then
	 * exec-failure, on the same event in this order.  Not where
	 * exec is at sys_enter_execve, which sees every attempt already.
	 */
	SYSEXIT_EXECVE("exec", .kp_native = { "string" }, .kp_also = true,
	    .kp_args = { { .kr_kind = DT_KEVENT_ARG_USTRARG, .kr_index = 1 },
	    { .kr_kind = DT_KEVENT_ARG_RAWMEM, .kr_index = 0,
	    .kr_where = dt_isa_linux_sysarg0_member }, SYSEXIT_REGS }),
	{ .kp_name = "exec-success", .kp_kind = DT_KEVENT_RAWTP,
	  .kp_group = "sched", .kp_event = "sched_process_exec" },
	SYSEXIT_EXECVE("exec-failure", .kp_native = { "int" },
	    .kp_args = { { .kr_kind = DT_KEVENT_ARG_RAW, .kr_index = 1,
	    .kr_xform = DT_KEVENT_XF_NEG }, RAW(1), SYSEXIT_REGS }),
	EXEC_FAILURE("execveat"),
	{ .kp_name = "lwp-exit", .kp_kind = DT_KEVENT_RAWTP,
	  .kp_group = "sched", .kp_event = "sched_process_exit" },
	{ .kp_name = "exit", .kp_kind = DT_KEVENT_RAWTP,
	  .kp_group = "sched", .kp_event = "sched_process_exit",
	  .kp_needfield = "group_dead", .kp_ntyped = 1,
	  .kp_native = { "int" },
	  .kp_args = { { .kr_kind = DT_KEVENT_ARG_RAWMEM, .kr_index = 0,
	      .kr_size = 4, .kr_signed = true,
	      .kr_xform = DT_KEVENT_XF_CLD,
	      .kr_where = "task_struct.exit_code" },
	      { .kr_kind = DT_KEVENT_ARG_RAW, .kr_index = 1, .kr_size = 1 } },
	  .kp_conds = { COND(NE, 1, 0) } },
	{ .kp_name = "exit", .kp_kind = DT_KEVENT_RAWTP,
	  .kp_group = "sched", .kp_event = "sched_process_exit",
	  .kp_ntyped = 1, .kp_native = { "int" }, .kp_alt = true,
	  .kp_args = { { .kr_kind = DT_KEVENT_ARG_RAWMEM, .kr_index = 0,
	      .kr_size = 4, .kr_signed = true,
	      .kr_xform = DT_KEVENT_XF_CLD,
	      .kr_where = "task_struct.exit_code" },
	      RAW(0),
	      { .kr_kind = DT_KEVENT_ARG_RAWMEM, .kr_index = 0,
	      .kr_where = "task_struct.group_leader" } },
	  .kp_conds = { { .kc_op = DT_KEVENT_FILT_EQ, .kc_arg = 2,
	      .kc_vsarg = true, .kc_val = 1 } } },
	{ .kp_name = "start", .kp_kind = DT_KEVENT_RAWTP, .kp_group = "",
	  .kp_event = "sched_exit_tp", .kp_args = FIRST_RUN_ARGS,
	  .kp_conds = { FIRST_RUN_CONDS,
	      { .kc_op = DT_KEVENT_FILT_EQ, .kc_arg = 2, .kc_vsarg = true,
	      .kc_val = 3 } } },
	{ .kp_name = "lwp-start", .kp_kind = DT_KEVENT_RAWTP, .kp_group = "",
	  .kp_event = "sched_exit_tp", .kp_args = FIRST_RUN_ARGS,
	  .kp_conds = { FIRST_RUN_CONDS } },
	SIGNAL_SEND("signal-send", NE),
	SIGNAL_SEND("signal-discard", EQ),
	/*
	 * A signal whose default action kills the process is made SIGKILL
	 * for the whole group when it is sent, and each thread then takes
	 * that SIGKILL with no siginfo; the signal the process was sent is
	 * kept as the group's exit code (current->signal->group_exit_code).
	 * So with no siginfo the signal is that code's, and a thread going
	 * for another reason (another thread's exit_group(), an exec) has
	 * no signal there and fires nothing, as in DTrace.
	 */
	{ .kp_name = "signal-handle", .kp_kind = DT_KEVENT_RAWTP,
	  .kp_group = "signal", .kp_event = "signal_deliver", .kp_ntyped = 3,
	  .kp_native = { "int", "struct kernel_siginfo *", "void *" },
	  .kp_xlate = { NULL, "siginfo_t *" },
	  .kp_args = {
	      { .kr_kind = DT_KEVENT_ARG_SELECT, .kr_index = 1,
	      .kr_args = DT_KEVENT_ARGBIT(3) | DT_KEVENT_ARGBIT(5) },
	      RAW(1),
	      { .kr_kind = DT_KEVENT_ARG_RAWMEM, .kr_index = 2,
	      .kr_where = "k_sigaction.sa.sa_handler" },
	      RAWINT(0),
	      { .kr_kind = DT_KEVENT_ARG_CURMEM,
	      .kr_where = "task_struct.signal" },
	      { .kr_kind = DT_KEVENT_ARG_DEREF, .kr_size = 4,
	      .kr_xform = DT_KEVENT_XF_SIG,
	      .kr_args = DT_KEVENT_ARGBIT(4),
	      .kr_where = "signal_struct.group_exit_code" } },
	  .kp_conds = { COND(NE, 0, 0) } },
	{ .kp_name = "signal-clear", .kp_kind = DT_KEVENT_TP,
	  .kp_group = "syscalls", .kp_event = "sys_exit_rt_sigtimedwait",
	  .kp_ntyped = 1, .kp_native = { "int" },
	  .kp_args = { { .kr_kind = DT_KEVENT_ARG_FIELD, .kr_where = "ret" } },
	  .kp_conds = { COND(GE, 0, 1) } },
};

int
dt_prov_proc_init(dtrace_hdl_t *dtp)
{
	return dt_ktab_register(dtp, "proc", dt_prov_proc_table,
	    (int) (sizeof (dt_prov_proc_table) /
	    sizeof (dt_prov_proc_table[0])));
}
