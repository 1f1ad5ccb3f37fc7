/* SPDX-License-Identifier: MIT */
/*
 * dt_ptrace_impl.h: the ptrace engine's state, shared by its files:
 * dt_ptrace.c (attaching, the wait loop, breakpoint hits, detaching),
 * dt_ptrace_sites.c (where the breakpoints go: sites collected from the
 * enabled pid and USDT probes, placed at the start and again after exec
 * and dlopen), dt_ptrace_fast.c (entry sites that only count, patched
 * with a jump to a counting trampoline instead), dt_ptrace_sys.c (the
 * syscall and proc providers through ptrace stops) and dt_ptrace_linger.c
 * (descendants under the seccomp filter, served after tracing ends).
 *
 * dt_ptrace_t is the engine: the pid and USDT probes enabled, each with
 * the image it was resolved in (dt_pt_pidp_t), the processes it holds
 * (dt_pt_proc_t, each with its probe sites sorted by address), every
 * thread it holds (dt_pt_thread_t, whatever its process), fork children
 * seen from one side only so far, and the system calls and proc probes
 * enabled.
 *
 * Images.  A process runs the probes of one image of one process, its
 * owner: its own (pp_owner == pp_pid) or, for a fork child under -x
 * followfork, its parent's, whose breakpoints it inherited.  Images are
 * numbered by the engine (0: the images of the processes at the start; a
 * new number at each exec), and each enabled probe is tagged with the
 * owner and image it was resolved for: a process's sites are those of the
 * enabled probes of its owner and image, at the addresses where it maps
 * their files.
 */
#ifndef DT_PTRACE_IMPL_H
#define DT_PTRACE_IMPL_H

#include <stdbool.h>
#include <stdint.h>
#include <pthread.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <time.h>

#include "common/engine/dt_interp.h"
#include "isa/dt_isa.h"
#include "os/linux/dt_cfi.h"
#include "os/linux/prov/dt_linux_prov.h"
#include "os/linux/ptrace/dt_ptrace.h"

#define DT_PT_NSYS	  512	/* system call numbers traced: 0..511 */
#define DT_PT_NEED_ENTRY  0x1	/* the entry stop of the call */
#define DT_PT_NEED_RETURN 0x2	/* and its exit stop */
#define DT_PT_INFOSZ	  256	/* room for a psinfo_t or lwpsinfo_t */

/* The proc provider's probes, by index into pt_procp[]. */
typedef enum dt_pt_procprobe {
	DT_PT_CREATE,
	DT_PT_EXEC,
	DT_PT_EXEC_SUCCESS,
	DT_PT_EXEC_FAILURE,
	DT_PT_EXIT,
	DT_PT_START,
	DT_PT_LWP_CREATE,
	DT_PT_LWP_START,
	DT_PT_LWP_EXIT,
	DT_PT_SIGNAL_SEND,
	DT_PT_SIGNAL_HANDLE,
	DT_PT_SIGNAL_DISCARD,
	DT_PT_SIGNAL_CLEAR,
	DT_PT_PROC_NPROBES
} dt_pt_procprobe_t;

#define DT_PT_OPTS                                                       \
	(PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | \
	    PTRACE_O_TRACEEXEC | PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEEXIT)
/*
 * The breakpoint (dt_isa_ptrace.ip_brk: x86-64's 0xce, arm64's brk #0),
 * an instruction that faults with the pc at the site rather than past it
 * as x86-64's int3 does.  A thread stopped on it is always where it can
 * go on from: should the tracer die during the stop, the kernel drops the
 * stop's signal and resumes the thread where it stands -- at the site,
 * which faults again (and the handler of dt_ptrace_trap.c mends it), not
 * in the middle of the instruction it displaced.
 */
#define DT_PT_BRKSIG	  ((int) dt_isa_ptrace.ip_brksig)
#define DT_PT_BRKLEN	  ((size_t) dt_isa_ptrace.ip_brklen)
#define DT_PT_SLOT	  128	/* bytes of one out-of-line copy */
#define DT_PT_NTSLOTS	  1024	/* per-thread copy slots in a process */
/* The jump over a counting site (0: the ISA has none), and room for it. */
#define DT_PT_JMPLEN	  ((size_t) dt_isa_ptrace.ip_jmplen)
#define DT_PT_JMPMAX	  16

/* A register of the ptrace register set r by its pt_regs offset. */
#define DT_PT_PC(r)	  DT_ISA_PTREG(r, dt_isa_layout.il_pc)

/* One probe firing at a site. */
typedef struct dt_pt_fire {
	uint32_t pf_id;
	dt_pid_kind_t pf_kind;
	uint64_t pf_func;	/* the function's address, for return arg0 */
	const dt_usdt_args_t *pf_args; /* USDT: how the site passes them */
	/* The function has no frame of its own there (dt_isa_site_t). */
	bool pf_atcall;
} dt_pt_fire_t;

typedef struct dt_pt_site {
	uint64_t ps_addr;
	uint8_t ps_insn[DT_ISA_MAX_INSN_LEN + 1]; /* original bytes */
	dt_isa_insn_t ps_in;
	dt_isa_strategy_t ps_strategy;
	uint64_t ps_ool;	/* its shared copy, or 0: per thread */
	bool ps_armed;		/* the breakpoint is written */
	bool ps_decoded;	/* ps_insn, ps_in and ps_strategy are set */
	bool ps_bad;		/* cannot be probed: never armed */
	bool ps_rtld;		/* the dynamic linker's breakpoint, no fires */
	/* Patched with a jmp to a counting trampoline (dt_ptrace_fast.c). */
	bool ps_fast;
	uint8_t ps_flen;	/* the bytes of instructions it displaced */
	uint64_t ps_counter;	/* its counter in the process */
	uint64_t ps_seen;	/* the counter's value already counted */
	const char *ps_path;	/* the file it is in */
	uint64_t ps_base;	/* where the process maps its offset 0 */
	dt_pt_fire_t *ps_fires;
	uint32_t ps_nfires;
} dt_pt_site_t;

typedef struct dt_pt_proc dt_pt_proc_t;

typedef struct dt_pt_thread {
	int pt_tid;
	dt_pt_proc_t *pt_proc;
	int pt_slot;		/* its per-thread copy slot, or -1 */
	int pt_sig;		/* a signal to deliver when resumed */
	bool pt_stopped;	/* in a ptrace stop we have seen */
	bool pt_sysexit;	/* a seccomp stop asked for the exit stop */
	bool pt_started;	/* its first stop was seen (lwp-start) */
	bool pt_exiting;	/* its PTRACE_EVENT_EXIT was seen */
} dt_pt_thread_t;

/* How the system calls of a process are seen. */
typedef enum dt_pt_sysmode {
	DT_PT_SYS_NONE,		/* not at all */
	DT_PT_SYS_SECCOMP,	/* a filter stops only the probed ones */
	DT_PT_SYS_STEP,		/* PTRACE_SYSCALL: every one stops */
} dt_pt_sysmode_t;

/* A USDT semaphore: raised (at sm_addr) while traced. */
typedef struct dt_pt_sema {
	const char *sm_path;	/* the file, */
	uint64_t sm_off;	/* the offset in it */
	uint64_t sm_addr;	/* where it was raised, or 0 */
} dt_pt_sema_t;

struct dt_pt_proc {
	int pp_pid;
	int pp_memfd;		/* /proc/<pid>/mem, of its current image */
	bool pp_created;	/* our -c child, already attached */
	bool pp_gone;		/* exited */
	int pp_owner;		/* whose probes its sites fire */
	uint32_t pp_image;	/* which image of pp_owner it runs */
	/*
	 * Whose memory, and so sites, scratch area and slots: itself, or
	 * the parent of a vfork child until the child execs.
	 */
	dt_pt_proc_t *pp_mm;
	bool pp_follow;		/* probes re-resolved after exec, dlopen */
	bool pp_rtld;		/* the dynamic linker's site is looked for */
	dt_pt_site_t *pp_sites;	/* sorted by address */
	size_t pp_nsites;
	uint64_t pp_tslots;	/* the per-thread slots, mapped at the first
				   site, or 0 */
	uint8_t pp_slotused[DT_PT_NTSLOTS];
	/*
	 * The breakpoint signal handler's first area (dt_ptrace_trap.c), or 0; the
	 * area whose table is being filled, and its entries used.
	 */
	uint64_t pp_trap;
	uint64_t pp_traplast;
	uint64_t pp_trapn;
	uint64_t pp_ppid, pp_uid, pp_gid;
	char pp_execname[16];
	dt_cfi_table_t pp_cfi;	/* unwind rows, read at the first ustack */
	bool pp_cfi_read;
	dt_pt_sysmode_t pp_sysmode;
	dt_pt_sema_t *pp_semas;
	size_t pp_nsemas;
	bool pp_child;		/* a descendant, traced for syscall/proc */
	/*
	 * Under a seccomp filter of its own (dt_pt_sandboxed()): no system
	 * call is injected into it, since the filter may kill it for one.
	 */
	bool pp_sandbox;
	bool pp_exitfired;	/* proc:::exit has fired */
};

/* A fork or vfork child seen from one side (event or first stop). */
typedef struct dt_pt_child {
	int pc_pid;
	dt_pt_proc_t *pc_parent; /* set by the parent's event */
	bool pc_vfork;
	bool pc_stopped;	 /* its first stop was seen */
} dt_pt_child_t;

/* An enabled pid or USDT probe, for the processes of its owner's image. */
typedef struct dt_pt_pidp {
	const dt_probe_t *pd_probe;
	const dt_pid_probe_t *pd_pi;
	int pd_owner;
	uint32_t pd_image;
} dt_pt_pidp_t;

typedef struct dt_ptrace {
	dt_pt_pidp_t *pt_pidps;
	size_t pt_npidps;
	uint32_t pt_image;	/* the image probes enabled now are for */
	uint32_t pt_nimages;	/* the last image number given */
	bool pt_late;		/* follow execs and dlopens */
	dt_pt_proc_t **pt_procs;
	size_t pt_nprocs;
	dt_pt_thread_t *pt_threads;
	size_t pt_nthreads;
	dt_pt_child_t *pt_children;
	size_t pt_nchildren;
	bool pt_attached;
	/*
	 * dt_pt_wait()'s deadline: a timer that sends the thread that opened
	 * the engine (pt_wake_thread) DT_PT_WAKESIG, whose handler we set
	 * (pt_wake_ok; pt_wake_old is the disposition to put back).
	 */
	bool pt_wake_ok;
	timer_t pt_wake_timer;
	pthread_t pt_wake_thread;
	struct sigaction pt_wake_old;
	/* The firing in progress, for the context callbacks. */
	dt_pt_thread_t *pt_cur;
	dt_isa_ptregs_t pt_regs;
	bool pt_atcall;		/* its site's function has no frame yet */
	uint64_t pt_errno;	/* errno of a syscall return firing */
	/* The syscall and proc providers (dt_ptrace_sys.c). */
	bool pt_follow;		/* -x followfork */
	bool pt_any;		/* syscall or proc probes: trace descendants */
	uint32_t pt_sysent[DT_PT_NSYS]; /* entry probe of each call, or 0 */
	uint32_t pt_sysret[DT_PT_NSYS]; /* return probe */
	uint8_t pt_sysneed[DT_PT_NSYS]; /* DT_PT_NEED_*: stops wanted */
	uint32_t pt_procp[DT_PT_PROC_NPROBES]; /* proc probe IDs, or 0 */
	/* proc:::*'s psinfo_t and lwpsinfo_t of the firing, for args[]. */
	unsigned char pt_psinfo[DT_PT_INFOSZ];
	unsigned char pt_lwpsinfo[DT_PT_INFOSZ];
	char pt_str[1024];	/* proc:::exec's path */
} dt_ptrace_t;

/* dt_ptrace.c, for the other two. */
extern dt_pt_thread_t *dt_pt_thread(dt_ptrace_t *pt, int tid);
extern dt_pt_proc_t *dt_pt_proc(dt_ptrace_t *pt, int pid);
extern dt_pt_proc_t *dt_pt_proc_add(dtrace_hdl_t *dtp, dt_ptrace_t *pt,
    int pid);
extern int dt_pt_vm_read(int pid, uint64_t addr, void *buf, size_t len);
/* The ISA's memory callbacks for pp's user memory. */
extern void dt_pt_memops(dt_pt_proc_t *pp, dt_isa_memops_t *mem);
/* The memory of process pid, opened for writing: -1 on failure. */
extern int dt_pt_memfd(int pid);
/* Text and the scratch area through pp's memory file: 0, or -1. */
extern int dt_pt_text_write(dt_pt_proc_t *pp, uint64_t addr, const void *buf,
    size_t len);
extern int dt_pt_text_read(dt_pt_proc_t *pp, uint64_t addr, void *buf,
    size_t len);
/* Process facts the built-in variables show (ppid, uid, execname...). */
extern void dt_pt_proc_facts(dt_pt_proc_t *pp);
/*
 * Is pp under a seccomp filter other than dtrace's own (those it runs
 * under itself, inherited from where it was started) and the engine's?
 * Sets pp->pp_sandbox.
 */
extern bool dt_pt_sandboxed(dt_pt_proc_t *pp);
/*
 * Run a system call in stopped thread t: its return value, or -errno;
 * -ENOEXEC if it could not be run, or pp is sandboxed (nothing run).
 */
extern int64_t dt_pt_inject_syscall(dt_pt_proc_t *pp, dt_pt_thread_t *t,
    long nr, const uint64_t *args);
/* Let thread t run on (with signal sig), as its process is traced. */
extern void dt_pt_cont(dt_pt_thread_t *t, int sig);
/* Fire probe id for thread t, whose registers are in pt->pt_regs. */
extern void dt_pt_fire_probe(dtrace_hdl_t *dtp, dt_ptrace_t *pt,
    dt_pt_thread_t *t, uint32_t id, const uint64_t *args, int nargs);

/* dt_ptrace_sites.c */
/* The site at addr in the memory of pp, or NULL. */
extern dt_pt_site_t *dt_pt_site(dt_pt_proc_t *pp, uint64_t addr);
/* Note an enabled pid or USDT probe, for image pt_image of its process. */
extern int dt_pt_pidp_add(dt_ptrace_t *pt, const dt_probe_t *prp,
    const dt_pid_probe_t *pi);
/*
 * Collect the sites of pp and place those not placed yet, pp stopped in
 * thread t.  A site that cannot be placed fails the whole (-1 with the
 * error set), or when late is set is left out, and the first such error is
 * set and -1 returned once every other site is placed.
 */
extern int dt_pt_place(dtrace_hdl_t *dtp, dt_ptrace_t *pt, dt_pt_proc_t *pp,
    dt_pt_thread_t *t, bool late);
/*
 * Take the breakpoints of pp out of the memory open as memfd (pp's own,
 * or a fork child's copy) and lower its USDT semaphores there.
 */
extern void dt_pt_disarm(const dt_pt_proc_t *pp, int memfd);
/* A fork child with -x followfork: a copy of its parent's sites. */
extern int dt_pt_sites_copy(dt_pt_proc_t *pp, const dt_pt_proc_t *parent);
/* Forget the sites and semaphores of pp (gone with its image). */
extern void dt_pt_sites_free(dt_pt_proc_t *pp);
/* Thread t has exec'd: its process runs a new image. */
extern void dt_pt_exec(dtrace_hdl_t *dtp, dt_ptrace_t *pt, dt_pt_thread_t *t);
/* Thread t is at the dynamic linker's breakpoint: libraries changed. */
extern void dt_pt_dlopen(dtrace_hdl_t *dtp, dt_ptrace_t *pt,
    dt_pt_thread_t *t);

/* dt_ptrace_rescue.c */
/* The most bytes of an injected system call's code. */
#define DT_PT_INJLEN DT_ISA_INJLEN
/* Is there a guard to undo an injection we die in? */
extern bool dt_pt_rescue_on(void);
/*
 * An injection into thread tid begins: where, over what (len bytes), and
 * its regs.
 */
extern void dt_pt_rescue_note(int tid, uint64_t entry, const uint8_t *orig,
    size_t len, const dt_isa_ptregs_t *regs);
/* ... and is over: the thread and the text are as they were. */
extern void dt_pt_rescue_done(void);

/* dt_ptrace_trap.c */
/* Its area in a process (isa/dt_isa.h: DT_TRAP_*): code, fixed fields, */
/* then the table. */
/* struct sigaction as rt_sigaction(2) takes it (x86-64 and arm64 alike). */
typedef struct dt_ksigaction {
	uint64_t ka_handler;
	uint64_t ka_flags;
	uint64_t ka_restorer;
	uint64_t ka_mask;
} dt_ksigaction_t;
/* The handler's code (dt_isa_trap_code) is copied to the area's start. */
/*
 * Install the breakpoint signal's handler that mends breakpoints a dead
 * tracer left, in pp stopped in thread t (once per image): 0, or -1 with
 * why it cannot protect pp in why (a sandbox, a thread blocking the
 * signal, a call that failed).
 */
extern int dt_pt_trap_install(dt_pt_proc_t *pp, dt_pt_thread_t *t,
    char *why, size_t whylen);
/*
 * Note a patch about to be written at addr over the len bytes orig (a
 * breakpoint, DT_PT_BRKLEN; a jump to a counting trampoline,
 * DT_PT_JMPLEN): 0 or -1.
 */
extern int dt_pt_trap_note(dt_pt_proc_t *pp, dt_pt_thread_t *t,
    uint64_t addr, const uint8_t *orig, size_t len);
/*
 * Before pp's text is read and patched (every thread stopped): put back
 * what an earlier tracer killed left patched, from its areas' tables.
 */
extern void dt_pt_trap_mend(dt_pt_proc_t *pp);
/*
 * Thread tid, in the stop of a breakpoint, is about to be given pc pc:
 * should we die before resuming it and the kernel deliver the stop's
 * signal, its handler lets it be.
 */
extern void dt_pt_trap_moved(int tid, uint64_t pc);
/* The process's previous action back, if still ours (at detach). */
extern void dt_pt_trap_remove(dt_pt_proc_t *pp, dt_pt_thread_t *t);

/* dt_ptrace_fast.c */
/*
 * Patch the sites of pp to be placed whose probes only count with a jump
 * to a counting trampoline, where it is safe (pp stopped, t its stopped
 * thread); the others are left for breakpoints.
 */
extern void dt_pt_fast_place(dtrace_hdl_t *dtp, dt_ptrace_t *pt,
    dt_pt_proc_t *pp, dt_pt_thread_t *t);
/*
 * Is site s (placed later: a probe matched after a dlopen) inside the
 * instructions a counting site displaced, which never run again?
 */
extern bool dt_pt_fast_covers(const dt_pt_proc_t *pp, const dt_pt_site_t *s);
/* Hand the counts of pp's patched sites since the last call over. */
extern void dt_pt_fast_collect(
    dtrace_hdl_t *dtp, dt_pt_proc_t *pp, bool before_exit);
extern void dt_pt_fast_collect_all(
    dtrace_hdl_t *dtp, dt_ptrace_t *pt, bool before_exit);

/* dt_ptrace_linger.c */
/*
 * Keep stopped thread tid (of a process under our seccomp filter) traced
 * when tracing ends, and resume it (with signal sig): 0, or -1.
 */
extern int dt_pt_linger_thread(int tid, int sig);

/* dt_ptrace_sys.c */
/* Take an enabled syscall or proc probe: 1, 0 if it is neither, -1. */
extern int dt_pt_sys_enable(dtrace_hdl_t *dtp, dt_ptrace_t *pt,
    const dt_probe_t *prp);
/* Start seeing the system calls of pp, stopped (t: its stopped thread). */
extern int dt_pt_sys_arm(dtrace_hdl_t *dtp, dt_ptrace_t *pt,
    dt_pt_proc_t *pp, dt_pt_thread_t *t);
/* A seccomp or syscall stop of t (status st): handled, t resumed. */
extern void dt_pt_sys_stop(dtrace_hdl_t *dtp, dt_ptrace_t *pt,
    dt_pt_thread_t *t, int st);
/* Fire proc probe which for thread t (args[] as the probe defines). */
extern void dt_pt_proc_fire(dtrace_hdl_t *dtp, dt_ptrace_t *pt,
    dt_pt_thread_t *t, dt_pt_procprobe_t which, int other, int64_t val);
/* Register the proc provider for the ptrace engine, if none is. */
extern int dt_pt_proc_provider_init(dtrace_hdl_t *dtp);

#endif /* DT_PTRACE_IMPL_H */
