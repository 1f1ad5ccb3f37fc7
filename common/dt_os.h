/*
 * dt_os.h: the few facts about the running system the portable core needs.
 *
 * Each OS backend implements these in its own folder (os/linux/dt_os.c);
 * nothing in common/ calls a non-POSIX interface directly.
 */
#ifndef DT_OS_H
#define DT_OS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct dtrace_hdl dtrace_hdl_t;
struct dt_engine_ops;

/* The calling thread's ID, as the tid built-in variable shows it. */
extern uint64_t dt_os_gettid(void);
/* The CPU the caller is running on. */
extern uint32_t dt_os_getcpu(void);
/* Nanoseconds of CPU time the calling thread has used (vtimestamp). */
extern uint64_t dt_os_thread_cputime(void);
/* Nanoseconds since boot on the clock the kernel's timestamps use. */
extern uint64_t dt_os_timestamp(void);
/* Nanoseconds since the epoch (walltimestamp). */
extern uint64_t dt_os_walltimestamp(void);

/* Register the OS's own providers (syscall, ...) in a new handle. */
extern int dt_os_providers_init(dtrace_hdl_t *dtp);

/*
 * The OS's in-kernel engine, or NULL with *whyp set to one line saying why
 * it cannot be used here (no privilege, no kernel support).
 */
extern const struct dt_engine_ops *dt_os_kernel_engine(const char **whyp);

/*
 * The OS's engine for tracing the user's own processes without privilege
 * (ptrace on Linux), or NULL with *whyp set.
 */
extern const struct dt_engine_ops *dt_os_user_engine(const char **whyp);

/*
 * Why probes of this provider cannot be listed here (a kernel feature or a
 * privilege missing), or NULL when nothing is known to be missing.  Used
 * to explain a description that matches no probes.
 */
extern const char *dt_os_provider_hint(const char *provider);

/* More detail on the last failure of the in-kernel engine, or NULL. */
extern const char *dt_os_engine_detail(dtrace_hdl_t *dtp);

/*
 * Processes (-c, -p), for common/dt_proc.c.  Each failing call writes one
 * line (without "dtrace: ") to err.
 *
 * dt_os_proc_create	start argv[0] (found in PATH), stopped where every
 *			library it needs is mapped but before its own code
 *			runs; returns its pid
 * dt_os_proc_grab	check that a running process can be traced
 * dt_os_proc_resume	let a created process run
 * dt_os_proc_ended	1 once the process is gone (*statusp: its wait
 *			status, or -1 when it was not our child), else 0
 * dt_os_proc_kill	kill a created process and reap it
 */
extern int dt_os_proc_create(char *const argv[], char *err, size_t errlen);
extern int dt_os_proc_grab(int pid, char *err, size_t errlen);
extern int dt_os_proc_resume(int pid);
extern int dt_os_proc_ended(int pid, bool child, int *statusp);
extern void dt_os_proc_kill(int pid);

#endif /* DT_OS_H */
