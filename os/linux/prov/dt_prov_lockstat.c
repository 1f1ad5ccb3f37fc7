/* SPDX-License-Identifier: MIT */
/*
 * dt_prov_lockstat.c: the lockstat provider -- kernel lock contention,
 * as far as the kernel's lock tracepoints say it.
 *
 *	lockstat:vmlinux::adaptive-block  lock:contention_begin, flags
 *					  LCB_F_MUTEX: a thread is about to
 *					  sleep on a mutex
 *	lockstat:vmlinux::adaptive-spin	  ... LCB_F_MUTEX | LCB_F_SPIN: it
 *					  spins on a mutex's owner first
 *	lockstat:vmlinux::spin-spin	  ... LCB_F_SPIN: it spins on a
 *					  contended spin lock
 *
 * A tracepoint (perf, the event's record) filtered in the kernel on its
 * flags.  args[0] is the lock.  Unlike DTrace's, these probes fire when
 * the contention begins, so there is no args[1] (the time spent
 * blocked or spinning): a script using it gets "index 1 is out of
 * range".  Not listed: the acquire and release probes and the
 * reader/writer lock ones (no tracepoint sees an uncontended lock, and
 * rwsem waits are not told apart from rwlock spins by one value).
 */
#include "os/linux/prov/dt_kprov.h"
#include "os/linux/prov/dt_linux_prov.h"

/* include/trace/events/lock.h */
#define DT_LCB_F_SPIN	0x01
#define DT_LCB_F_MUTEX	0x20

#define DT_LOCKSTAT_PROBE(name, native, flags) \
	{ .kp_name = (name), .kp_kind = DT_KEVENT_TP, .kp_group = "lock", \
	  .kp_event = "contention_begin", .kp_args = { \
	  DT_KPROV_A_FIELD("lock_addr", native, NULL), \
	  DT_KPROV_A_TEST("flags") }, \
	  .kp_filt = { DT_KPROV_F(1, EQ, flags) } }

static const dt_kprov_probe_t dt_lockstat_probes[] = {
	DT_LOCKSTAT_PROBE("adaptive-block", "struct mutex *", DT_LCB_F_MUTEX),
	DT_LOCKSTAT_PROBE("adaptive-spin", "struct mutex *",
	    DT_LCB_F_MUTEX | DT_LCB_F_SPIN),
	DT_LOCKSTAT_PROBE("spin-spin", "void *", DT_LCB_F_SPIN),
};

static const dt_kprov_t dt_lockstat_prov = {
	"lockstat", dt_lockstat_probes,
	sizeof (dt_lockstat_probes) / sizeof (dt_lockstat_probes[0])
};

int
dt_prov_lockstat_init(dtrace_hdl_t *dtp)
{
	return dt_kprov_register(dtp, &dt_lockstat_prov);
}
