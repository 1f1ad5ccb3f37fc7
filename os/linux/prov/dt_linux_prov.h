/*
 * dt_linux_prov.h: the Linux providers, and what the BPF engine needs to
 * know of their probes to attach them.
 *
 * dt_linux_providers_init() registers every Linux provider on a handle
 * (after the portable dtrace and profile providers, so BEGIN, END and
 * ERROR keep IDs 1-3).  Each provider is one file, whose top comment
 * maps its probe names onto kernel mechanisms.
 */
#ifndef DT_LINUX_PROV_H
#define DT_LINUX_PROV_H

#include <stdbool.h>

typedef struct dtrace_hdl dtrace_hdl_t;
typedef struct dt_probe dt_probe_t;

extern int dt_linux_providers_init(dtrace_hdl_t *dtp);

/* The syscall provider (dt_prov_syscall.c). */
extern int dt_prov_syscall_init(dtrace_hdl_t *dtp);

typedef struct dt_syscall_probe {
	const char *sp_name;	/* "read": the syscalls:sys_enter_<name> */
	int sp_nr;		/* system call number, or -1 if unknown */
	bool sp_return;		/* a return probe */
} dt_syscall_probe_t;

/* The syscall facts of a syscall provider probe, or NULL. */
extern const dt_syscall_probe_t *dt_prov_syscall_info(const dt_probe_t *prp);
/*
 * The argument words its own tracepoint passes: an entry probe's typed
 * arguments (read from the tracepoint's format on first use), 2 for a
 * return probe (arg0 = arg1 = the return value).
 */
extern int dt_prov_syscall_nargs(dtrace_hdl_t *dtp, dt_probe_t *prp);

#endif /* DT_LINUX_PROV_H */
