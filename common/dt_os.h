/* SPDX-License-Identifier: MIT */
/*
 * dt_os.h: the few facts about the running system the portable core needs.
 *
 * Each OS backend implements these in its own folder (os/linux/dt_os.c;
 * os/none/dt_os.c, the portable build with no kernel engine, is the
 * smallest complete example); nothing in common/ calls a non-POSIX
 * interface directly, nor names an OS, an engine or a processor.
 */
#ifndef DT_OS_H
#define DT_OS_H

#include <ctf-api.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct dtrace_hdl dtrace_hdl_t;
struct dt_engine_ops;

/* The calling thread's ID, as the tid built-in variable shows it. */
extern uint64_t dt_os_gettid(void);
/* The CPU the caller is running on. */
extern uint32_t dt_os_getcpu(void);
/* How many CPUs there may be: every dt_os_getcpu() is below it. */
extern uint32_t dt_os_ncpus(void);
/*
 * Run the calling thread on one CPU only, so that what it fires (BEGIN and
 * END under -x cpu) fires there; 0, or -1 with errno.  dt_os_cpu_unbind()
 * gives the thread back the CPUs it had.
 */
extern int dt_os_cpu_bind(uint32_t cpu);
extern void dt_os_cpu_unbind(void);
/* Nanoseconds of CPU time the calling thread has used (vtimestamp). */
extern uint64_t dt_os_thread_cputime(void);
/*
 * The calling thread's user registers, as uregs[] indexes them (the D
 * prelude's R_* numbers): what BEGIN and END, which DTrace fires in the
 * consumer process itself, see.  Fills at most max and returns how many,
 * or 0 where the architecture's layout is unknown.
 */
extern size_t dt_os_uregs(uint64_t *regs, size_t max);
/* Nanoseconds since boot on the clock the kernel's timestamps use. */
extern uint64_t dt_os_timestamp(void);
/* Nanoseconds since the epoch (walltimestamp). */
extern uint64_t dt_os_walltimestamp(void);

/*
 * DTrace's cpuinfo_t (and its processor_info_t), laid out as the D
 * prelude declares them: what curcpu points to.  Every engine keeps a
 * table of one per CPU, filled by dt_os_cpuinfo().
 */
typedef struct dt_processor_info {
	int32_t pi_state;		/* P_ONLINE (2) or P_OFFLINE (1) */
	char pi_processor_type[16];	/* "x86_64" */
	char pi_fputypes[32];
	int32_t pi_clock;		/* MHz, 0 if unknown */
} dt_processor_info_t;

typedef struct dt_cpuinfo {
	int32_t cpu_id;
	int32_t cpu_pset;		/* -1 (PS_NONE): no processor sets */
	int32_t cpu_chip;		/* the physical package */
	int32_t cpu_lgrp;		/* the NUMA node */
	dt_processor_info_t cpu_info;
} dt_cpuinfo_t;

#define DT_P_OFFLINE 1
#define DT_P_ONLINE 2

extern void dt_os_cpuinfo(uint32_t cpu, dt_cpuinfo_t *cip);

/* Register the OS's own providers (syscall, ...) in a new handle. */
extern int dt_os_providers_init(dtrace_hdl_t *dtp);

/*
 * The OS's engines besides the portable interpreter, ended by one with a
 * NULL oe_name; a backend may list none.  The core chooses among them by
 * kind only (common/dt_work.c): the first available DT_ENGINE_F_KERNEL
 * engine for kernel probes, else the first DT_ENGINE_F_USER one when it
 * fires every probe; -x engine=NAME forces one by its name.
 */
typedef struct dt_os_engine {
	const char *oe_name;	/* as -x engine= names it: "bpf" */
	unsigned oe_kind;	/* DT_ENGINE_F_KERNEL or DT_ENGINE_F_USER */
	/*
	 * The engine, or NULL with *whyp set to one line saying why it
	 * cannot be used here (no privilege, no kernel support).
	 */
	const struct dt_engine_ops *(*oe_get)(const char **whyp);
} dt_os_engine_t;

extern const dt_os_engine_t dt_os_engines[];

/*
 * The macros the OS predefines for D programs' preprocessor, as cpp
 * arguments ("-Dname"), ended by NULL: a D program tests them as a C
 * program tests its compiler's.
 */
extern const char *const dt_os_cpp_defines[];

/*
 * Typedefs of D's whose base type the system's C ABI decides, as {name,
 * base} pairs ended by a NULL name: each replaces D's default base, so
 * that the system's own headers, included with -C, declare the same
 * type again (glibc's nlink_t is 64 bits on x86-64, 32 on arm64).
 */
extern const char *const dt_os_typedefs[][2];

/*
 * The uregs[] names D programs use (R_PC, R_SP, ...) and the index of
 * each, as the processor the OS runs on numbers its registers: the i-th
 * name, from 0 up, and NULL past the last.  The compiler's prelude
 * declares them.
 */
extern const char *dt_os_regname(unsigned i, int *indexp);

/*
 * The OS's address family numbers (AF_INET, AF_INET6): the first
 * argument of inet_ntop(), as D programs give it from the constants the
 * backend's D library defines (os/linux/lib/net.d on Linux).
 */
extern const int dt_os_af_inet;
extern const int dt_os_af_inet6;

/*
 * dtrace -h and -G: the C header of the probe macros of the providers
 * the compiled programs define, and the object file their probes link
 * with -- the OS's format of user-space static probes.  As
 * dtrace_program_header() and dtrace_program_link() (common/dtrace.h);
 * a backend without them sets EDT_NOTSUP with a line saying so.
 */
extern int dt_os_usdt_header(dtrace_hdl_t *dtp, FILE *fp, const char *fname);
/*
 * The most arguments a probe of a provider a D program defines may take:
 * what the OS's user-space static probe sites can carry.
 */
extern const unsigned dt_os_usdt_maxargs;
extern int dt_os_usdt_link(dtrace_hdl_t *dtp, const char *ofile, int objc,
    char *const objv[]);

/*
 * Why probes of this provider cannot be listed here (a kernel feature or a
 * privilege missing), or NULL when nothing is known to be missing.  Used
 * to explain a description that matches no probes.
 */
extern const char *dt_os_provider_hint(const char *provider);

/*
 * Symbolise a kernel address: the module holding it ("vmlinux" for the
 * kernel itself), the symbol containing it and the symbol's address.
 * Returns 0, or -1 when the address is not known.  The strings live as
 * long as the process.  The symbol table is read on first use.
 */
extern int dt_os_ksym(uint64_t addr, const char **modp, const char **namep,
    uint64_t *valuep);
/*
 * Why no kernel address can be symbolised here (the table is unreadable,
 * or the kernel hides its addresses from us), or NULL.
 */
extern const char *dt_os_ksym_why(void);

/*
 * User symbols.  dt_os_usym() symbolises an address in process pid: the
 * basename of the file mapping it, the function holding it (NULL when
 * only the file is known), the function's address and the address of the
 * file's offset 0.  Returns 0, or -1 when no file maps the address.  The
 * strings live as long as the program.  dt_os_usym_hold() snapshots the
 * process's mappings now, so that its addresses still resolve after it
 * has exited; lookups take a snapshot on first use anyway.
 */
extern int dt_os_usym(int pid, uint64_t addr, const char **modp,
    const char **namep, uint64_t *valuep, uint64_t *basep);
extern void dt_os_usym_hold(int pid);
/*
 * Why symbols of a process were left unread by the lookups since the
 * last call (a JIT's map refused as unsafe, or read only in part), as
 * one line for the caller to print, each once; or NULL.
 */
extern const char *dt_os_usym_warning(void);

/*
 * The object file behind a stack frame, for profiles that name it
 * (-x oformat=pprof, common/consumer/dt_pprof.c): the file's path, the
 * range of the mapping holding the address with the file offset at its
 * start, and the object's build ID in hex ("" when it has none).
 * dt_os_umapping() answers for an address of process pid, from the
 * mappings dt_os_usym() looked the address up in: -1 when no file maps
 * it.  dt_os_kmapping() answers for a kernel module as dt_os_ksym()
 * names it ("vmlinux" for the kernel): its range is 0, 0 when unknown,
 * and -1 when the OS knows nothing of it.  The path lives as long as
 * the program.
 */
#define DT_OS_BUILDID_MAX 129 /* 64 bytes in hex, and the NUL */

typedef struct dt_os_mapping {
	const char *om_path;
	uint64_t om_start;  /* first address */
	uint64_t om_limit;  /* past the last */
	uint64_t om_offset; /* file offset of om_start */
	char om_buildid[DT_OS_BUILDID_MAX];
} dt_os_mapping_t;

extern int dt_os_umapping(int pid, uint64_t addr, dt_os_mapping_t *omp);
extern int dt_os_kmapping(const char *module, dt_os_mapping_t *omp);

/*
 * Why this OS refuses an action (a dt_actkind_t) on every engine, as one
 * line ("breakpoint() is not available on Linux: ..."), or NULL.
 */
extern const char *dt_os_action_refused(int kind);

/* More detail on the last failure of the in-kernel engine, or NULL. */
extern const char *dt_os_engine_detail(dtrace_hdl_t *dtp);

/*
 * Processes (-c, -p), for common/dt_proc.c.  Each failing call writes one
 * line (without "dtrace: ") to err.
 *
 * dt_os_proc_create	start argv[0] (found in PATH), stopped where every
 *			library it needs is mapped but before its own code
 *			runs, or, atexec, as soon as its exec has loaded the
 *			program (-x evaltime=exec); returns its pid
 * dt_os_proc_grab	check that a running process can be traced by one
 *			of the kinds of engine given (DT_ENGINE_F_*: the
 *			one forced, else any)
 * dt_os_proc_resume	let a created process run
 * dt_os_proc_ended	1 once the process is gone (*statusp: its wait
 *			status, or -1 when it was not our child), else 0
 * dt_os_proc_kill	kill a created process and reap it
 */
extern int dt_os_proc_create(char *const argv[], bool atexec, char *err,
    size_t errlen);
extern int dt_os_proc_grab(int pid, unsigned engines, char *err,
    size_t errlen);
extern int dt_os_proc_resume(int pid);
extern int dt_os_proc_ended(int pid, bool child, int *statusp);
extern void dt_os_proc_kill(int pid);
/* dtrace_proc_lingering() and dtrace_proc_linger(). */
extern bool dt_os_proc_lingering(void);
extern void dt_os_proc_linger(void);
/* dtrace_proc_rescue_open() and dtrace_proc_rescue(). */
extern int dt_os_proc_rescue_open(void);
extern void dt_os_proc_rescue(void);
/* The parent of a process (progenyof()), or -1 if unknown. */
extern int dt_os_proc_parent(int pid);
/*
 * A process's command line as execargs shows it (the arguments separated
 * by spaces), cut to size - 1 bytes.  0, or -1 when it cannot be read.
 */
extern int dt_os_proc_args(int pid, char *buf, size_t size);

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
/*
 * A kernel variable, for D's backquote operator (`max_pfn,
 * vmlinux`jiffies): its address from the kernel's symbol table and its
 * type from its type information, in module only or, when module is NULL,
 * in any.  Returns 0; -1 when there is no such symbol; -2 when there is
 * one but no type D can give it.  On failure *whyp says why, or is NULL.
 */
extern int dt_os_kvar_lookup(dtrace_hdl_t *dtp, const char *module,
    const char *name, uint64_t *addrp, ctf_dict_t **ctfpp, ctf_id_t *typep,
    const char **whyp);
/* Free what dt_os_ktype_lookup() loaded (dtrace_close). */
extern void dt_os_ktypes_fini(dtrace_hdl_t *dtp);

/*
 * TCP for the metrics endpoint (common/dt_metrics.c), which serves many
 * clients from one thread, so that none can hold the others up: nothing
 * here waits but dt_os_net_poll().  Sockets are plain ints, the OS's
 * descriptors.  dt_os_net_listen() listens on spec, "ADDR:PORT",
 * "[IPv6]:PORT" or "PORT" (the loopback address), port 0 for any; it
 * returns the socket and puts the address it is bound to, as
 * "ADDR:PORT", in bound, or returns -1 with why in err.
 * dt_os_net_poll() waits up to timeout_ms until a socket of pfds is
 * ready for what its events ask (DT_OS_NET_IN: a connection to accept,
 * bytes or the end to read; DT_OS_NET_OUT: room to send), saying so in
 * revents (DT_OS_NET_ERR too for an error or a hang-up): the number
 * ready, 0 at the time-out.  dt_os_net_accept() takes a waiting
 * connection, whose socket never blocks, or returns -1 when none is
 * waiting.  dt_os_net_recv() reads the bytes waiting: their count, 0 at
 * the end, DT_OS_NET_AGAIN when none are there yet, -1 on an error.
 * dt_os_net_send() sends what the socket takes now: the count (0 when
 * it takes nothing yet), -1 on an error.
 */
#define DT_OS_NET_IN	0x1
#define DT_OS_NET_OUT	0x2
#define DT_OS_NET_ERR	0x4
#define DT_OS_NET_AGAIN (-2)

typedef struct dt_os_netpoll {
	int fd;
	short events;  /* DT_OS_NET_IN, DT_OS_NET_OUT */
	short revents; /* and DT_OS_NET_ERR */
} dt_os_netpoll_t;

extern int dt_os_net_listen(const char *spec, char *bound, size_t boundlen,
    char *err, size_t errlen);
extern int dt_os_net_poll(dt_os_netpoll_t *pfds, size_t n, int timeout_ms);
extern int dt_os_net_accept(int lfd);
extern long dt_os_net_recv(int fd, void *buf, size_t len);
extern long dt_os_net_send(int fd, const void *buf, size_t len);
extern void dt_os_net_close(int fd);

#endif /* DT_OS_H */
