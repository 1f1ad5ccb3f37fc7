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
 * Not listed: enqueue, dequeue and change-pri.  The kernel has no
 * tracepoint where a thread enters or leaves a run queue (enqueue_task()
 * and dequeue_task() are functions: fbt), and its only priority
 * tracepoint, sched_pi_setprio, sees priority inheritance alone and not
 * the new priority of a thread whose boost ends.  A probe whose kernel
 * mechanism is missing (sched_exit_tp and sched_entry_tp are recent) is
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

static const dt_ktab_probe_t dt_prov_sched_table[] = {
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
