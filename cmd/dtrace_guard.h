/* SPDX-License-Identifier: MIT */
/*
 * dtrace_guard.h: dtrace(1) traces processes from a child of its own; see
 * dtrace_guard.c.
 */
#ifndef DTRACE_GUARD_H
#define DTRACE_GUARD_H

/*
 * Fork: the caller's process stays behind as the guard and never returns
 * (it exits as the child does); the child returns and does the tracing.
 * Without a fork (it failed) the caller returns and traces itself.
 */
extern void guard_fork(void);

/*
 * dtrace is done, with exit status status, but processes it traced need it
 * as their tracer until they end (dtrace_proc_lingering()): hand the
 * status to the guard, which exits with it, and serve them.
 */
extern void guard_linger(int status);

/* The guard's pid, or 0 when there is none. */
extern int guard_pid(void);

#endif /* DTRACE_GUARD_H */
