/* SPDX-License-Identifier: MIT */
/*
 * dt_interp.h: what the portable interpreter engine offers to an engine
 * built on it.
 *
 * An OS backend that fires probes of other processes from user space (the
 * Linux ptrace engine) reuses the interpreter engine whole -- buffers,
 * aggregations, clause execution, faults, BEGIN/END and timers -- and adds
 * only the probe context: whose registers and memory a firing sees, and
 * how to wait for events between timers.  Such an engine's ops table
 * calls the interpreter's (dt_interp_engine_ops) and these.
 */
#ifndef DT_INTERP_H
#define DT_INTERP_H

#include <stdbool.h>
#include <stdint.h>

#include "common/dif/dif_interp.h"

typedef struct dtrace_hdl dtrace_hdl_t;

/*
 * The context of one firing in another process.  ic_ops answers reads of
 * user memory and the built-in variables it knows (pid, tid, uregs[],
 * execname, ...); whatever it refuses falls back to the interpreter
 * engine's own answer (cpu, timestamps).  ic_pid names the process in
 * ustack()/usym() records; ic_tid keys self-> variables.  ic_ustack, when
 * set, walks the firing thread's user stack: up to max PCs into pcs, the
 * probe site first; it returns how many (ustack() records them, as the
 * other engines do, and the engine's ustackdepth and ucaller come from
 * the same walk).
 */
typedef struct dt_interp_ctx {
	const dif_ops_t *ic_ops;
	void *ic_arg;
	uint64_t ic_pid;
	uint64_t ic_tid;
	uint32_t (*ic_ustack)(void *arg, uint64_t *pcs, uint32_t max);
	/*
	 * raise(sig) and stop(): send sig to the thread that fired (proc
	 * false) or to its whole process (stop(): SIGSTOP, proc true).
	 * NULL: the context cannot be signalled (the action faults).
	 */
	int (*ic_signal)(void *arg, int sig, bool proc);
} dt_interp_ctx_t;

/* Fire probe id with the given arguments in context ctx. */
extern void dt_interp_fire_ctx(dtrace_hdl_t *dtp, uint32_t id,
    const uint64_t *args, int nargs, const dt_interp_ctx_t *ctx);

/*
 * How the engine waits between timers: called by eo_poll with the
 * dt_os_timestamp() at which the next timer (or the poll's timeout) is
 * due; returns then, or earlier (a signal).  NULL: sleep.
 */
typedef void dt_interp_wait_f(dtrace_hdl_t *dtp, uint64_t deadline);
extern void dt_interp_set_wait(dtrace_hdl_t *dtp, dt_interp_wait_f *fn);

/*
 * Probes counted elsewhere.  dt_interp_countonly() says whether every
 * clause enabled for probe id is a plain count -- no predicate, one
 * action, @ = count() or @[probefunc] = count() -- so that n firings of it
 * are n added to each of its counts, whatever the context: an engine may
 * then count its firings itself and hand them over with
 * dt_interp_count(), which leaves the aggregations as n firings would.
 * After exit(), firings count no more -- but for those the engine says
 * came before it (before_exit: counted before the firing that called
 * exit(), and handed over just after it).
 */
extern bool dt_interp_countonly(dtrace_hdl_t *dtp, uint32_t id);
extern void dt_interp_count(
    dtrace_hdl_t *dtp, uint32_t id, uint64_t n, bool before_exit);

/* exit() has run: no probe but END fires any more. */
extern bool dt_interp_exited(dtrace_hdl_t *dtp);

#endif /* DT_INTERP_H */
