/*
 * dt_os.h: the few facts about the running system the portable core needs.
 *
 * Each OS backend implements these in its own folder (os/linux/dt_os.c);
 * nothing in common/ calls a non-POSIX interface directly.
 */
#ifndef DT_OS_H
#define DT_OS_H

#include <ctf-api.h>
#include <stdbool.h>
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
 * Why probes of this provider cannot be listed here (a kernel feature or a
 * privilege missing), or NULL when nothing is known to be missing.  Used
 * to explain a description that matches no probes.
 */
extern const char *dt_os_provider_hint(const char *provider);

/* More detail on the last failure of the in-kernel engine, or NULL. */
extern const char *dt_os_engine_detail(dtrace_hdl_t *dtp);

/*
 * The kernel's own types, for the D compiler.  Look up name -- "struct
 * task_struct", "union u", "enum e" or a typedef or base type name, no
 * derivations -- among the kernel's types: in module only, or when module
 * is NULL in the core kernel and then each loadable module.  On success
 * return 0 with the type as a (dictionary, ID) pair the backend owns until
 * dt_os_ktypes_fini(); pointers to its structs may refer to forward
 * declarations that a lookup of the tag by name completes.  -1 when there
 * is no such type or no kernel type information.  Types are loaded on
 * first use, so a program naming no kernel type costs nothing.
 */
extern int dt_os_ktype_lookup(dtrace_hdl_t *dtp, const char *module,
    const char *name, ctf_dict_t **ctfpp, ctf_id_t *typep);
/*
 * Whether the core kernel has a typedef or base type of this name: a
 * quick test, without importing anything, for the lexer, which asks it
 * of every identifier D does not know.
 */
extern bool dt_os_ktype_typename(dtrace_hdl_t *dtp, const char *name);
/* Free what dt_os_ktype_lookup() loaded (dtrace_close). */
extern void dt_os_ktypes_fini(dtrace_hdl_t *dtp);

#endif /* DT_OS_H */
