/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_engine_impl.h: the BPF engine's own state -- its plans (one
 * program each) and the engine -- shared by dt_bpf_engine.c and the
 * mechanisms (dt_bpf_mech_*.c, dt_bpf_mech.h), with the engine's helpers
 * they use.
 */
#ifndef DT_BPF_ENGINE_IMPL_H
#define DT_BPF_ENGINE_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include <bpf/libbpf.h>

#include "common/dt_impl.h"
#include "common/engine/dt_engine.h"
#include "common/probe/dt_probe.h"
#include "os/linux/bpf/dt_bpf_aggread.h"
#include "os/linux/bpf/dt_bpf_gen.h"
#include "os/linux/bpf/dt_bpf_mech.h"

/* One program: the probes it serves and the clauses it runs. */
struct dt_bpf_plan {
	const dt_bpf_mech_t *pl_mech;
	bool pl_return;		/* syscall return probes */
	/*
	 * uprobes: a group of the entry, return or offset probes of one
	 * process image, whose program finds the probe in its table by the
	 * uprobe's attach cookie (its index in pl_probes), attached with
	 * one uprobe_multi link per file: however many probes, one program
	 * and a few links.  Otherwise a program per probe.
	 */
	bool pl_group;
	/*
	 * A program that finds its probe in a table (dt_bpf_ptab_t): of
	 * pl_table_max entries, or as many as its probes when 0.
	 */
	bool pl_table;
	uint32_t pl_table_max;
	dt_probe_t **pl_probes;
	uint32_t pl_nprobes;
	const dt_stmt_t **pl_stmts;	/* clauses, in EPID order */
	uint32_t pl_nstmts;
	uint32_t *pl_epids;	/* [probe * nstmts + clause], 0: none */
	int pl_fd;
	int pl_table_fd;
	/*
	 * tick-N: the map of its next due time, and a stand-in of its
	 * program that the consumer runs when no CPU's timer has fired it
	 * in time (dt_bpf_timer_check); -1 otherwise.
	 */
	int pl_tick_fd;
	int pl_standin_fd;
	uint64_t pl_period;
	int *pl_links;
	uint32_t pl_nlinks;
};

typedef struct dt_bpf_stage {
	unsigned char *sg_data;
	size_t sg_len;
	size_t sg_cap;
} dt_bpf_stage_t;

struct dt_bpf_engine {
	dt_eprobe_t **be_eps;
	uint32_t be_neps;
	uint32_t be_epcap;
	const dt_program_t *be_prog;
	dt_bpf_layout_t be_lay;
	bool be_laid;
	dt_bpf_plan_t *be_plans;
	uint32_t be_nplans;
	int *be_mapfds;		/* every map we created */
	uint32_t be_nmapfds;
	unsigned char *be_state;	/* the state map, mmap'ed */
	uint64_t be_started;	/* CLOCK_MONOTONIC when tracing started */
	size_t be_statelen;
	struct ring_buffer *be_rb;
	struct perf_buffer *be_pb;	/* instead, without a ring buffer */
	dt_bpf_stage_t *be_stage;	/* per CPU */
	dt_bpf_aggbufs_t be_aggbufs;	/* reading the aggregations */
	int be_ncpus;
	bool be_active;
	bool be_stopped;
	bool be_follow;		/* -x followfork with pid probes */
	bool be_late;		/* clauses name processes: re-match them */
	/*
	 * User stacks of -c/-p processes walked without unwind rows (a
	 * kernel without what the rows' walk takes, Linux 5.10): the
	 * process's maps are taken again when it loads a library or
	 * execs, so that its frames are named after it has exited.
	 */
	bool be_usnap;
	/*
	 * A process of -p is under a debugger, which would take a stop
	 * for its own: process events never stop the processes.
	 */
	bool be_nostop;
	int be_procset_fd;	/* the traced processes: tgid -> image */
	int be_fork_fd;		/* followfork: its program, and link */
	int be_fork_link;
	int be_ev_fd;		/* process events: ring buffer */
	int be_ev_progs[2];	/* their programs: exec, library loads */
	int *be_ev_links;
	uint32_t be_nev_links;
	uint64_t *be_evs;	/* events read, not yet handled */
	uint32_t be_nevs;
	dtrace_hdl_t *be_dtp;
	struct dt_bpf_ucfi *be_ucfi;	/* per process: its CFI rows map */
	uint32_t be_nucfi;
	int be_ustk_fd;		/* every probe's rows: hash of maps, or -1 */
	int be_ugen_fd;		/* the generation of each one's rows */
	int be_ucache_fd;	/* rows found, by owner, generation, address */
	uint32_t be_ugen;	/* the last generation given */
	int *be_ustk_pids;	/* its keys */
	uint32_t be_nustk;
	bool be_ustk_follow;	/* and followfork: children share them */
	uint32_t be_usites;	/* uprobes placed */
	uint32_t be_urefused;	/* sites the kernel would not probe */
	uint32_t be_nsys[2];	/* syscall entry, return probes enabled */
	char be_errmsg[1024];
	char *be_log;		/* verifier log of the last refusal */
};

/* Sets the handle's error err, with a message for dtrace(1) to print. */
extern int dt_bpf_fail(dtrace_hdl_t *dtp, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "attaching P: <errno's reason>", for a mechanism's bm_attach. */
extern int dt_bpf_attach_fail(dtrace_hdl_t *dtp, const dt_bpf_plan_t *pl);
/* A new plan of mechanism mech, no probe yet; NULL: out of memory. */
extern dt_bpf_plan_t *dt_bpf_plan_new(dt_bpf_engine_t *be,
    const dt_bpf_mech_t *mech);
/* A map the engine keeps (closed with it): fd, or -1 with the error set. */
extern int dt_bpf_mapfd(dtrace_hdl_t *dtp, dt_bpf_engine_t *be, int fd,
    const char *what);
/* Keep link fd of plan pl (closed when it is); -1: out of memory. */
extern int dt_bpf_addlink(dt_bpf_plan_t *pl, int fd);
/* Generates and loads a program of plan pl: its descriptor, or -1. */
extern int dt_bpf_gen_load(dtrace_hdl_t *dtp, dt_bpf_engine_t *be,
    dt_bpf_plan_t *pl, const dt_bpf_progspec_t *ps, enum bpf_prog_type type,
    const dt_bpf_target_t *tg);
/* Does a clause of the plan want the user stack? */
extern bool dt_bpf_wants_ustack(const dt_bpf_engine_t *be,
    const dt_bpf_plan_t *pl);
/* The unwind rows of process pid into ps (none when they cannot be had). */
extern void dt_bpf_ucfi(dtrace_hdl_t *dtp, dt_bpf_engine_t *be, int pid,
    dt_bpf_progspec_t *ps);

/*
 * The progress line of a slow start (dt_bpf_progress.c): started with
 * the number of probes, told how many are done in each phase ("loading",
 * "attaching"), ended with the line finished if one was shown.  Only on a
 * terminal, and only after a second.
 */
typedef struct dt_bpf_progress {
	uint64_t pg_t0;		/* CLOCK_MONOTONIC ns */
	uint64_t pg_last;	/* when last drawn */
	uint64_t pg_delay;	/* ns before the first */
	uint32_t pg_total;
	const char *pg_end;	/* the last line's words: "probes enabled" */
	bool pg_tty;
	bool pg_shown;
} dt_bpf_progress_t;

extern void dt_bpf_progress_start(dt_bpf_progress_t *pg, uint32_t total,
    const char *end);
extern void dt_bpf_progress(dt_bpf_progress_t *pg, const char *what,
    uint32_t done);
/* ok: the work is done (the last line says in how long). */
extern void dt_bpf_progress_end(dt_bpf_progress_t *pg, bool ok);
/*
 * Close n links, with the progress line: each may wait.  The kernel's
 * release of each is in a helper process's exit, which no signal stops
 * halfway (dt_bpf_detach.c).
 */
extern void dt_bpf_close_links(const int *fds, uint32_t n);
/* The same without the progress line: a few links of dtrace's own. */
extern void dt_bpf_close_links_quietly(const int *fds, uint32_t n);

#endif /* DT_BPF_ENGINE_IMPL_H */
