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
#include <stddef.h>
#include <stdint.h>

typedef struct dtrace_hdl dtrace_hdl_t;
typedef struct dt_probe dt_probe_t;

extern int dt_linux_providers_init(dtrace_hdl_t *dtp);

/* The syscall provider (dt_prov_syscall.c). */
extern int dt_prov_syscall_init(dtrace_hdl_t *dtp);

typedef struct dt_syscall_probe {
	const char *sp_name;	/* "read": the syscalls:sys_enter_<name> */
	int sp_nr;		/* system call number, or -1 if unknown */
	int sp_nargs;		/* arguments, or -1 until first asked */
	bool sp_return;		/* a return probe */
} dt_syscall_probe_t;

/* The syscall facts of a syscall provider probe, or NULL. */
extern const dt_syscall_probe_t *dt_prov_syscall_info(const dt_probe_t *prp);
/* Its argument count, read from the tracepoint's format on first use. */
extern int dt_prov_syscall_nargs(const dt_probe_t *prp);

/* The pid provider (dt_prov_pid.c). */
extern int dt_prov_pid_init(dtrace_hdl_t *dtp);

typedef enum dt_pid_kind {
	DT_PID_ENTRY,
	DT_PID_RETURN,
	DT_PID_OFFSET,
} dt_pid_kind_t;

typedef struct dt_pid_probe {
	int pi_pid;
	dt_pid_kind_t pi_kind;
	const char *pi_path;	/* the mapped file */
	uint64_t pi_func;	/* the function's runtime address */
	uint64_t pi_base;	/* runtime address of file offset 0 */
	uint64_t *pi_sites;	/* file offsets of its uprobes */
	size_t pi_nsites;
} dt_pid_probe_t;

/* The pid facts of a pid provider probe, or NULL. */
extern const dt_pid_probe_t *dt_prov_pid_info(const dt_probe_t *prp);

#endif /* DT_LINUX_PROV_H */
