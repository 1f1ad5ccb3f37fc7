/* SPDX-License-Identifier: MIT */
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
#include <sys/types.h>

#include "os/linux/dt_elfsym.h"

typedef struct dtrace_hdl dtrace_hdl_t;
typedef struct dt_probe dt_probe_t;

extern int dt_linux_providers_init(dtrace_hdl_t *dtp);

/*
 * The mechanisms of the Linux providers (dt_provops_t.po_mech): system
 * call entries and returns; instructions of a process (pid, USDT); a
 * kernel event that the probe's dt_kevent_t describes (tracepoint, raw
 * tracepoint, function entry or return: dt_kevent.h); process events a
 * tracer sees (the ptrace engine's proc provider).
 */
#define DT_MECH_SYSCALL "syscall"
#define DT_MECH_USITE	"usite"
#define DT_MECH_KEVENT	"kevent"
#define DT_MECH_PROCEV	"procev"

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

/* The sdt and rawtp providers (dt_prov_sdt.c, dt_prov_rawtp.c). */
extern int dt_prov_sdt_init(dtrace_hdl_t *dtp);
extern int dt_prov_rawtp_init(dtrace_hdl_t *dtp);

/* The fbt provider (dt_prov_fbt.c), and why it has no probes, or NULL. */
extern int dt_prov_fbt_init(dtrace_hdl_t *dtp);
extern const char *dt_prov_fbt_why(void);
/*
 * Trace an fbt probe the kernel would not take through fentry/fexit with
 * a kprobe instead (same argument types, new recipes): 0, or -1 when
 * there are no kprobes (the handle's error untouched).
 */
extern int dt_prov_fbt_kprobe(dtrace_hdl_t *dtp, dt_probe_t *prp);
/*
 * The stable io, ip, tcp, udp and lockstat providers (dt_prov_io.c,
 * dt_prov_ip.c, dt_prov_tcp.c, dt_prov_udp.c, dt_prov_lockstat.c), all
 * registered by dt_prov_ionet_init() (dt_kprov.c).
 */
extern int dt_prov_ionet_init(dtrace_hdl_t *dtp);
extern int dt_prov_io_init(dtrace_hdl_t *dtp);
extern int dt_prov_ip_init(dtrace_hdl_t *dtp);
extern int dt_prov_tcp_init(dtrace_hdl_t *dtp);
extern int dt_prov_udp_init(dtrace_hdl_t *dtp);
extern int dt_prov_lockstat_init(dtrace_hdl_t *dtp);
/* The proc and sched providers (dt_prov_proc.c, dt_prov_sched.c). */
extern int dt_prov_proc_init(dtrace_hdl_t *dtp);
extern int dt_prov_sched_init(dtrace_hdl_t *dtp);

/* The pid provider (dt_prov_pid.c). */
extern int dt_prov_pid_init(dtrace_hdl_t *dtp);

typedef enum dt_pid_kind {
	DT_PID_ENTRY,
	DT_PID_RETURN,
	DT_PID_OFFSET,
	DT_PID_USDT,		/* a static probe (dt_prov_usdt.c) */
} dt_pid_kind_t;

/*
 * How a USDT probe site passes one argument, decoded from the operand
 * strings of its note ("-4@%edi", "8@-16(%rbp)", "4@$42").
 */
typedef enum dt_usdt_argkind {
	DT_USDT_ARG_NONE,	/* not understood: the argument is 0 */
	DT_USDT_ARG_CONST,	/* ua_val */
	DT_USDT_ARG_REG,	/* the register */
	DT_USDT_ARG_MEM,	/* user memory at register + ua_val */
} dt_usdt_argkind_t;

#define DT_USDT_MAXARGS 12	/* what <sys/sdt.h> can emit */

typedef struct dt_usdt_arg {
	uint8_t ua_kind;	/* dt_usdt_argkind_t */
	uint8_t ua_size;	/* bytes: 1, 2, 4 or 8 */
	bool ua_signed;
	uint8_t ua_shift;	/* bits below the value in the register
				   (8 for %ah) */
	int16_t ua_reg;		/* offset of the register in pt_regs */
	int64_t ua_val;		/* the constant, or the displacement */
} dt_usdt_arg_t;

typedef struct dt_usdt_args {
	int ua_nargs;
	dt_usdt_arg_t ua_args[DT_USDT_MAXARGS];
} dt_usdt_args_t;

typedef struct dt_pid_probe {
	int pi_pid;
	uint32_t pi_gen;	/* the image of pi_pid it was resolved in */
	dt_pid_kind_t pi_kind;
	const char *pi_path;	/* the mapped file */
	uint64_t pi_func;	/* the function's runtime address (USDT: the
				   runtime address of file offset 0) */
	uint64_t pi_base;	/* runtime address of file offset 0 */
	uint64_t *pi_sites;	/* file offsets of its uprobes */
	size_t pi_nsites;
	/*
	 * pid return probes, per site, or NULL when every site always
	 * returns: 0 for a ret or jmp, cc + 1 for a conditional branch out
	 * of the function (a conditional tail call), which returns only
	 * when condition cc (dt_isa_cond_holds(), dt_isa_cond_reg()) holds.
	 */
	uint16_t *pi_conds;
	/*
	 * Made for a pattern (pid123::f: is every instruction of f), not
	 * named: a site the kernel refuses is skipped without a word, as
	 * the pattern means the instructions that can be traced.
	 */
	bool pi_quiet;
	/*
	 * An offset probe where the function has no frame of its own
	 * (dt_isa_site_t.atcall): stacks by frame pointers add the caller.
	 */
	bool pi_atcall;
	/*
	 * pid: another symbol has the function's address (a weak alias),
	 * by whose name a description may find the probe too.
	 */
	bool pi_aliased;
	/*
	 * pid and USDT: a C++ or Rust function's other name -- the mangled
	 * one when the probe carries the demangled one, the demangled one
	 * under -x nodemangle -- so that descriptions match either.
	 */
	char *pi_altname;
	/* USDT probes, per site: */
	uint64_t *pi_semas;	/* the semaphore's file offset, or 0 */
	dt_usdt_args_t *pi_args; /* how the arguments are passed */
} dt_pid_probe_t;

/* The pid facts of a pid or USDT provider probe, or NULL. */
extern const dt_pid_probe_t *dt_prov_pid_info(const dt_probe_t *prp);

/* A file a process maps executable, and where. */
typedef struct dt_pid_module {
	char *pm_path;
	const char *pm_name;	/* basename */
	bool pm_aout;		/* the executable */
	uint64_t pm_base;	/* runtime address of file offset 0 */
	bool pm_loaded;		/* pm_syms read */
	dt_elfsyms_t pm_syms;
	uint8_t *pm_made;	/* pid provider: what it made, per symbol */
	uint32_t *pm_byname;	/* pid provider: pm_syms' indexes by name */
	uint32_t pm_gen;	/* pid provider: the image it belongs to */
} dt_pid_module_t;

/*
 * A process of pid<N> has a new image (exec: its modules so far are kept
 * for the probes made from them, but no description matches them any
 * more) or new libraries (dlopen: the files it maps now that pid<N> has
 * not seen are added).  Descriptions matched afterwards resolve against
 * what it maps now: the mappings of process from (pid itself, or a child
 * it forked, which shares its probes).  0, or -1 with the handle's error
 * set.
 */
extern int dt_prov_pid_refresh(dtrace_hdl_t *dtp, int pid, int from,
    bool exec);
/* The current image of pid<N> (0 until its first exec), for pi_gen. */
extern uint32_t dt_prov_pid_gen(dtrace_hdl_t *dtp, int pid);
/*
 * The same for the USDT providers of pid: the notes of the files process
 * from maps now that were not read yet.  0, or -1 (EDT_NOMEM).
 */
extern int dt_prov_usdt_refresh(dtrace_hdl_t *dtp, int pid, int from,
    bool exec);
/*
 * Where the dynamic linker of a process tells debuggers that its list of
 * libraries changes (_dl_debug_state, r_debug.r_brk): the file, into
 * path, and the offset in it.  0, or -1 (a static program: none).
 */
extern int dt_pid_rtld_brk(int pid, char *path, size_t len,
    uint64_t *offp);

/*
 * The executable mappings of a process, one module per file (appended to
 * *modsp).  0, or -1 with errno (ENOENT: no such process).
 */
extern int dt_pid_read_maps(int pid, dt_pid_module_t **modsp,
    size_t *nmodsp);
extern void dt_pid_modules_free(dt_pid_module_t *mods, size_t nmods);

/*
 * The function name a pid or USDT probe in the function named sym
 * carries: sym demangled when it is a C++ or Rust name (ns::K::f(int)),
 * as stacks print it, unless -x nodemangle; else sym itself.
 */
extern const char *dt_pid_funcname(dtrace_hdl_t *dtp, const char *sym);

/*
 * Give a probe about to be named func (dt_pid_funcname() of sym) the
 * function's other name, so that descriptions naming either match it:
 * 0, or -1 (ENOMEM).
 */
extern int dt_pid_setaltname(dt_pid_probe_t *pi, const char *func,
    const char *sym);

/* Does the function glob name the probe by its other name? */
extern bool dt_pid_altmatch(const dt_probe_t *prp, const char *func);

/*
 * Add to *modsp the files process from maps now, as image gen; after a
 * dlopen (!exec) only those not there already for gen.  Returns the
 * index of the first one added (*nmodsp when none), or -1 with errno
 * (ENOMEM; another errno: from's maps could not be read, nothing added).
 */
extern ssize_t dt_pid_modules_merge(dt_pid_module_t **modsp, size_t *nmodsp,
    int from, uint32_t gen, bool exec);

/*
 * How well module name names the file at path, whose basename (or
 * soname) is base: 1 by its path or base itself, 2 by base up to a '.'
 * (libc for libc.so.6), 0 not at all (dt_pid_lib.c).
 */
extern int dt_pid_name_rank(const char *path, const char *base,
    const char *name);
/*
 * The file a module name of a pid* probe names, into path: a path as it
 * is, else the library the dynamic linker's cache names so (libc,
 * libc.so, libc.so.6), its symbolic links resolved.  0, or -1 with
 * errno (ENOENT: no such file or library; ENOEXEC: not an ELF file).
 */
extern int dt_pid_lib_resolve(const char *name, char *path, size_t len);
/*
 * The path the dynamic linker's cache (cachefile, /etc/ld.so.cache) gives
 * a library name of rank 1, else the first of rank 2, of the architecture
 * dtrace runs on, into path: 0, or -1 when none.
 */
extern int dt_pid_ldcache(const char *cachefile, const char *name,
    char *path, size_t len);

/* The USDT providers (dt_prov_usdt.c). */
extern int dt_prov_usdt_init(dtrace_hdl_t *dtp);
/* Decode a note's argument string ("-4@%edi 8@-16(%rbp) 4@$1"). */
extern void dt_usdt_parse_args(const char *s, dt_usdt_args_t *uas);
/* The most arguments any site of a USDT probe passes. */
extern int dt_usdt_nargs(const dt_pid_probe_t *pi);
/* The USDT facts of a USDT probe (kind DT_PID_USDT), or NULL. */
extern const dt_pid_probe_t *dt_prov_usdt_info(const dt_probe_t *prp);

#endif /* DT_LINUX_PROV_H */
