/* SPDX-License-Identifier: MIT */
/*
 * dt_ptrace.h: the ptrace engine -- pid probes of the user's own
 * processes, without privilege (dt_ptrace.c).
 *
 * It is the interpreter engine plus breakpoints: the traced processes stay
 * attached through ptrace, and a probe hit runs the clauses in dtrace's
 * process with the target's registers and memory.  Process control
 * (os/linux/dt_proc.c) asks it which processes it keeps attached, since a
 * kept process is resumed rather than detached, and its end is seen by
 * the engine's wait loop rather than by waitpid() there.
 */
#ifndef DT_PTRACE_H
#define DT_PTRACE_H

#include <stdbool.h>
#include <stdint.h>

struct dt_engine_ops;
typedef struct dtrace_hdl dtrace_hdl_t;

extern const struct dt_engine_ops dt_ptrace_engine_ops;

/*
 * The user-space engine of dt_os_user_engine(): this one, or NULL with
 * *whyp saying why.
 */
extern const struct dt_engine_ops *dt_ptrace_engine(const char **whyp);

/* Is process pid kept attached by the ptrace engine? */
extern bool dt_ptrace_keeps(int pid);
/* Let a kept -c child, stopped at its entry point, run. */
extern int dt_ptrace_resume(int pid);
/*
 * 1 once a kept process has ended, with its wait status in *statusp (or
 * -1 if it was not our child), else 0.
 */
extern int dt_ptrace_ended(int pid, int *statusp);

/*
 * Register the providers only this engine fires (proc, until an in-kernel
 * proc provider exists): after every other Linux provider.
 */
extern int dt_ptrace_providers_init(dtrace_hdl_t *dtp);

/*
 * Processes under our seccomp filter outlive tracing (descendants of a -c
 * process): dtrace stays their tracer (dt_ptrace_linger.c).  Are there
 * any?  Then serve them until they have all ended.
 */
extern bool dt_ptrace_lingering(void);
extern void dt_ptrace_linger(void);
/*
 * The guard's side of an injected system call cut short by the tracer's
 * death (dt_ptrace_rescue.c): dt_ptrace_rescue_open() maps the page the
 * tracer notes it in (before the guard forks: 0, or -1), and
 * dt_ptrace_rescue(), in the guard once the tracer has died, undoes it.
 */
extern int dt_ptrace_rescue_open(void);
extern void dt_ptrace_rescue(void);

/* A field of /proc/<pid>/status ("PPid:", "TracerPid:"...), or -1. */
extern long dt_pt_status_field(int pid, const char *field);

/* The entry point (AT_ENTRY) of a process, or 0 (os/linux/dt_proc.c). */
extern uint64_t dt_linux_proc_entry(int pid);

#endif /* DT_PTRACE_H */
