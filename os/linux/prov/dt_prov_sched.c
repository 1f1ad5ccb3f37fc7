/* SPDX-License-Identifier: MIT */
/*
 * dt_prov_sched.c: the sched provider -- DTrace's stable probes of CPU
 * scheduling on kernel tracepoints, with DTrace's argument types
 * (lwpsinfo_t and psinfo_t from struct task_struct, os/linux/lib/
 * psinfo.d); curcpu is the CPU the probe fires on.
 *
 * Every probe is sched:vmlinux:<kernel event>:<name>:
 *
 *	on-cpu		raw tracepoint sched_exit_tp (no tracefs event) when
 *			its is_switch argument is true: the scheduler
 *			returns into a thread it switched to, or a new
 *			thread runs for the first time (schedule_tail), so
 *			the probe fires in the arriving thread's context
 *			and curthread, execname, pid, curlwpsinfo and
 *			curpsinfo describe it, as DTrace promises.  No
 *			arguments
 *	remain-cpu	sched_exit_tp when is_switch is false: the
 *			scheduler ran and kept the current thread
 *	off-cpu		raw tracepoint sched_switch, in the thread leaving
 *			the CPU.  args[0] lwpsinfo_t *, args[1] psinfo_t *
 *			of the thread about to run
 *	preempt		raw tracepoint sched_entry_tp when its preempt
 *			argument is true: the current thread is preempted
 *			and the scheduler is about to choose (followed by
 *			off-cpu, or remain-cpu when it keeps the thread);
 *			kernels without it: sched_switch when preempt is
 *			true (only preemptions that switch)
 *	sleep		tracepoint sched:sched_switch when the leaving
 *			thread's reported state is a sleep: S, D, T, t, P
 *			or I (1, 2, 4, 8, 64, 128), not running (0),
 *			preempted (256), dead or a zombie
 *	wakeup		raw tracepoint sched_waking, in the waker's context
 *			(sched_wakeup may run on the woken thread's CPU).
 *			args[0] lwpsinfo_t *, args[1] psinfo_t * of the
 *			thread woken
 *	surrender	raw tracepoint sched_set_need_resched_tp (no tracefs
 *			event): a CPU is told to reschedule.  args[0]
 *			lwpsinfo_t *, args[1] psinfo_t * of the thread
 *			running there
 *	tick		tracepoint timer:hrtimer_expire_entry when the timer
 *			expiring is the scheduler tick's (tick_nohz_handler,
 *			tick_sched_timer in older kernels): the clock
 *			interrupt that charges the running thread.  args[0]
 *			lwpsinfo_t *, args[1] psinfo_t * of that thread
 *
 *	enqueue		raw tracepoints sched_wakeup and sched_wakeup_new:
 *			a woken or new thread is queued on the run queue of
 *			its CPU; and sched_switch when the thread leaving
 *			the CPU is still runnable (prev_state 0: preempted
 *			or yielding), queued again on this CPU's.  args[0]
 *			lwpsinfo_t *, args[1] psinfo_t *, args[2]
 *			cpuinfo_t * of the queue's CPU (thread_info.cpu),
 *			args[3] int: 0, as Linux's fair queues have no
 *			front to be put at
 *	dequeue		raw tracepoint sched_switch: the thread chosen to
 *			run leaves this CPU's run queue (not the idle
 *			thread, which is on none).  args[0..2] as enqueue
 *
 * The cpuinfo_t * argument is the CPU's number, typed dt_cpu_t * and
 * translated (psinfo.d) to that CPU's entry of the table curcpu points
 * into.  A thread moved between run queues by load balancing
 * (sched_migrate_task) is not shown: the tracepoint fires for sleeping
 * threads too, which are on no queue.
 *
 *	change-pri	raw tracepoint sched_pi_setprio(tsk, pi_task): a
 *			priority inheritance boost of tsk begins, changes
 *			or ends.  args[0] lwpsinfo_t *, args[1] psinfo_t *
 *			of tsk, args[2] pri_t its new priority in the
 *			kernel's numbering, as pr_pri: pi_task's prio when
 *			there and lower in number, else tsk's normal_prio.
 *			Priority changes by nice or sched_setscheduler()
 *			have no tracepoint and are not seen
 *
 * A probe whose kernel mechanism is missing
 * (sched_exit_tp and sched_entry_tp are recent) is
 * not listed either.  tick does not fire on an idle CPU whose
 * tick is stopped (NO_HZ), nor on a kernel without high-resolution
 * timers.
 */
#include "common/dt_impl.h"
#include "os/linux/prov/dt_ktab.h"
#include "os/linux/prov/dt_linux_prov.h"

/* sched:sched_switch's prev_state as the tracepoint reports it. */
#define DT_SLEEPING 0xcf	/* S D T t P I */

#define TASK "struct task_struct *"
#define TASK_XLATE { "lwpsinfo_t *", "psinfo_t *" }
#define RAW(i) { .kr_kind = DT_KEVENT_ARG_RAW, .kr_index = (i) }
#define RAWBOOL(i) { .kr_kind = DT_KEVENT_ARG_RAW, .kr_index = (i), \
	.kr_size = 1 }
#define CURTASK { .kr_kind = DT_KEVENT_ARG_CURTASK }
#define COND(op, a, v) { .kc_op = DT_KEVENT_FILT_ ## op, .kc_arg = (a), \
	.kc_val = (v) }

/* A probe whose arguments are one task, TP_PROTO argument i. */
#define TASK_PROBE(name, group, event, i) { \
	.kp_name = (name), .kp_kind = DT_KEVENT_RAWTP, .kp_group = (group), \
	.kp_event = (event), .kp_ntyped = 2, .kp_native = { TASK, TASK }, \
	.kp_xlate = TASK_XLATE, .kp_args = { RAW(i), RAW(i) } }

/* The CPU whose run queue a task is on: thread_info.cpu. */
#define TASKCPU(i) { .kr_kind = DT_KEVENT_ARG_RAWMEM, .kr_index = (i), \
	.kr_size = 4, .kr_where = "task_struct.thread_info.cpu" }
#define CURCPU { .kr_kind = DT_KEVENT_ARG_CURMEM, .kr_size = 4, \
	.kr_where = "task_struct.thread_info.cpu" }
#define ZERO { .kr_kind = DT_KEVENT_ARG_ZERO }
#define QUEUE_NATIVE { TASK, TASK, "dt_cpu_t *", "int" }
#define QUEUE_XLATE { "lwpsinfo_t *", "psinfo_t *", "cpuinfo_t *", NULL }

/* enqueue of the task woken (argument 0), on its CPU's run queue. */
#define WAKE_ENQUEUE(event) { \
	.kp_name = "enqueue", .kp_kind = DT_KEVENT_RAWTP, .kp_group = "sched", \
	.kp_event = (event), .kp_ntyped = 4, .kp_native = QUEUE_NATIVE, \
	.kp_xlate = QUEUE_XLATE, \
	.kp_args = { RAW(0), RAW(0), TASKCPU(0), ZERO } }

/* A task's int member, read through TP_PROTO argument i. */
#define TASKINT(i, m) { .kr_kind = DT_KEVENT_ARG_RAWMEM, .kr_index = (i), \
	.kr_size = 4, .kr_signed = true, .kr_where = "task_struct." m }

static const dt_ktab_probe_t dt_prov_sched_table[] = {
	/*
	 * A priority inheritance boost begins, changes or ends: the new
	 * priority is the boosting task's when it is there and higher
	 * (lower in number), else the task's own (normal_prio).
	 */
	{ .kp_name = "change-pri", .kp_kind = DT_KEVENT_RAWTP,
	  .kp_group = "sched", .kp_event = "sched_pi_setprio", .kp_ntyped = 3,
	  .kp_native = { TASK, TASK, "pri_t" }, .kp_xlate = TASK_XLATE,
	  .kp_args = { RAW(0), RAW(0),
	      { .kr_kind = DT_KEVENT_ARG_MINIF, .kr_index = 3,
	      .kr_args = DT_KEVENT_ARGBIT(4) | DT_KEVENT_ARGBIT(5) },
	      RAW(1), TASKINT(1, "prio"), TASKINT(0, "normal_prio") } },
	WAKE_ENQUEUE("sched_wakeup"),
	WAKE_ENQUEUE("sched_wakeup_new"),
	/* A thread that leaves the CPU still runnable is queued again. */
	{ .kp_name = "enqueue", .kp_kind = DT_KEVENT_RAWTP,
	  .kp_group = "sched", .kp_event = "sched_switch",
	  .kp_ntyped = 4,
	  .kp_native = QUEUE_NATIVE, .kp_xlate = QUEUE_XLATE,
	  .kp_args = { RAW(1), RAW(1), CURCPU, ZERO,
	      { .kr_kind = DT_KEVENT_ARG_RAW, .kr_index = 3, .kr_size = 4 } },
	  .kp_conds = { COND(EQ, 4, 0) } },
	/* The thread chosen to run leaves the run queue (not idle). */
	{ .kp_name = "dequeue", .kp_kind = DT_KEVENT_RAWTP,
	  .kp_group = "sched", .kp_event = "sched_switch", .kp_ntyped = 3,
	  .kp_native = QUEUE_NATIVE, .kp_xlate = QUEUE_XLATE,
	  .kp_args = { RAW(2), RAW(2), CURCPU,
	      { .kr_kind = DT_KEVENT_ARG_RAWMEM, .kr_index = 2, .kr_size = 4,
	      .kr_where = "task_struct.pid" } },
	  .kp_conds = { COND(NE, 3, 0) } },
	{ .kp_name = "preempt", .kp_kind = DT_KEVENT_RAWTP, .kp_group = "",
	  .kp_event = "sched_entry_tp", .kp_args = { RAWBOOL(0) },
	  .kp_conds = { COND(NE, 0, 0) } },
	{ .kp_name = "preempt", .kp_kind = DT_KEVENT_RAWTP,
	  .kp_group = "sched", .kp_event = "sched_switch", .kp_alt = true,
	  .kp_args = { RAWBOOL(0) }, .kp_conds = { COND(NE, 0, 0) } },
	{ .kp_name = "sleep", .kp_kind = DT_KEVENT_TP, .kp_group = "sched",
	  .kp_event = "sched_switch",
	  .kp_args = { { .kr_kind = DT_KEVENT_ARG_FIELD,
	      .kr_where = "prev_state" } },
	  .kp_conds = { { .kc_op = DT_KEVENT_FILT_NE, .kc_arg = 0,
	      .kc_mask = DT_SLEEPING, .kc_val = 0 } } },
	TASK_PROBE("off-cpu", "sched", "sched_switch", 2),
	{ .kp_name = "on-cpu", .kp_kind = DT_KEVENT_RAWTP, .kp_group = "",
	  .kp_event = "sched_exit_tp", .kp_args = { RAWBOOL(0) },
	  .kp_conds = { COND(NE, 0, 0) } },
	{ .kp_name = "remain-cpu", .kp_kind = DT_KEVENT_RAWTP,
	  .kp_group = "", .kp_event = "sched_exit_tp",
	  .kp_args = { RAWBOOL(0) }, .kp_conds = { COND(EQ, 0, 0) } },
	TASK_PROBE("wakeup", "sched", "sched_waking", 0),
	TASK_PROBE("surrender", "", "sched_set_need_resched_tp", 0),
	{ .kp_name = "tick", .kp_kind = DT_KEVENT_TP, .kp_group = "timer",
	  .kp_event = "hrtimer_expire_entry", .kp_ntyped = 2,
	  .kp_native = { TASK, TASK }, .kp_xlate = TASK_XLATE,
	  .kp_args = { CURTASK, CURTASK,
	      { .kr_kind = DT_KEVENT_ARG_FIELD, .kr_where = "function" } },
	  .kp_conds = { COND(EQ, 2, 0) },
	  .kp_sym = "tick_nohz_handler|tick_sched_timer" },
};

int
dt_prov_sched_init(dtrace_hdl_t *dtp)
{
	return dt_ktab_register(dtp, "sched", dt_prov_sched_table,
	    (int) (sizeof (dt_prov_sched_table) /
	    sizeof (dt_prov_sched_table[0])));
}
