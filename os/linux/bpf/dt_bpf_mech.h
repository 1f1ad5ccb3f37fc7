/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_mech.h: the BPF engine's mechanisms -- how the probes of each
 * kind get a program and are attached to the kernel.
 *
 * A provider names its mechanism (dt_provops_t.po_mech); the engine looks
 * the name up in its table (dt_bpf_mech.c) and from then on asks the
 * mechanism, never which provider a probe is of:
 *
 *	demand	 BEGIN, END, ERROR: a raw_tp program the consumer runs
 *		 (dt_bpf_mech_demand.c)
 *	timer	 profile-N, tick-N: perf cpu-clock events (dt_bpf_mech_timer.c)
 *	syscall	 syscalls:sys_* tracepoints, or raw_syscalls with a probe
 *		 table (dt_bpf_mech_syscall.c)
 *	usite	 pid and USDT probes: uprobes, or uprobe_multi groups
 *		 (dt_bpf_mech_uprobe.c, placing them dt_bpf_uprobes.c)
 *	kevent	 a kernel event, whose kind picks one of two:
 *		 tracepoints and raw tracepoints (dt_bpf_mech_tp.c), or
 *		 function entries and returns by fentry/fexit or kprobes
 *		 (dt_bpf_mech_fbt.c)
 *
 * The engine (dt_bpf_engine.c) keeps what is common: plans' clauses and
 * EPIDs, the maps, generating and loading, the probe tables' common
 * fields, links and their closing.
 */
#ifndef DT_BPF_MECH_H
#define DT_BPF_MECH_H

#include <stdbool.h>
#include <stdint.h>

#include <bpf/bpf.h>

#include "os/linux/bpf/dt_bpf_gen.h"
#include "os/linux/dt_linux_features.h"

typedef struct dtrace_hdl dtrace_hdl_t;
typedef struct dt_probe dt_probe_t;
typedef struct dt_bpf_engine dt_bpf_engine_t;
typedef struct dt_bpf_plan dt_bpf_plan_t;

/* What a tracing program (fentry, fexit, uprobe_multi) is loaded for. */
typedef struct dt_bpf_target {
	enum bpf_attach_type tg_type;
	uint32_t tg_btf_id;	/* the function, in the BTF of: */
	int tg_obj_fd;		/* a module's BTF object; -1: vmlinux */
} dt_bpf_target_t;

/*
 * A program being built: the progspec (the engine fills the clauses, the
 * probe's names and the ERROR clauses; the mechanism the context kind,
 * the arguments' source and its own fields), the program type and, for
 * programs loaded for one attach point, the target (bb_tgp = &bb_tg).
 */
typedef struct dt_bpf_build {
	dt_bpf_progspec_t bb_ps;
	enum bpf_prog_type bb_type;
	dt_bpf_target_t bb_tg;
	dt_bpf_target_t *bb_tgp;
} dt_bpf_build_t;

typedef struct dt_bpf_mech {
	const char *bm_name;
	/*
	 * The kernel feature its probe needs, DT_LF_NFEATURES when none
	 * (may be NULL: none).
	 */
	dt_linux_feature_t (*bm_feature)(const dt_probe_t *prp);
	/* Once before planning, with every enabled probe known (may be NULL). */
	void (*bm_prepare)(dtrace_hdl_t *dtp, dt_bpf_engine_t *be);
	/*
	 * The plan of probe prp: one of its kind not built yet that takes
	 * more probes (a group), or a new one (dt_bpf_plan_new()).  May be
	 * NULL: a plan per probe.  NULL with errno: out of memory.
	 */
	dt_bpf_plan_t *(*bm_plan)(dtrace_hdl_t *dtp, dt_bpf_engine_t *be,
	    dt_probe_t *prp);
	/*
	 * A plan with a probe table (pl_table): the key of its probe p, and
	 * that probe's own fields of the entry (pt_nargs, pt_ufunc).
	 */
	uint32_t (*bm_tabent)(const dt_bpf_plan_t *pl, uint32_t p,
	    dt_bpf_ptab_t *pt);
	/*
	 * The program of plan pl: 0, or -1 with the error set.  bm_unspec
	 * (may be NULL) frees what it made, loaded or not.
	 */
	int (*bm_spec)(dtrace_hdl_t *dtp, dt_bpf_engine_t *be,
	    dt_bpf_plan_t *pl, dt_bpf_build_t *bb);
	void (*bm_unspec)(dt_bpf_build_t *bb);
	/* Once the program is loaded, more of its own (may be NULL). */
	int (*bm_loaded)(dtrace_hdl_t *dtp, dt_bpf_engine_t *be,
	    dt_bpf_plan_t *pl, const dt_bpf_progspec_t *ps);
	/*
	 * Attach the loaded program (pl_fd), its links added with
	 * dt_bpf_addlink() (the engine closes them): 0, or -1 with the
	 * error set (dt_bpf_attach_fail()).  NULL: nothing to attach.
	 */
	int (*bm_attach)(dtrace_hdl_t *dtp, dt_bpf_engine_t *be,
	    dt_bpf_plan_t *pl);
	/*
	 * The kernel refused the program, to load or to attach: true when
	 * the probe is now to be served another way and built again (may
	 * be NULL: never).
	 */
	bool (*bm_fallback)(dtrace_hdl_t *dtp, dt_bpf_plan_t *pl);
	/*
	 * The process its probe prp fires in, which dtrace then follows
	 * (may be NULL, or return 0: probes of no process).
	 */
	int (*bm_pid)(const dt_probe_t *prp);
	/*
	 * What to know of its probes: they can be enabled while tracing (a
	 * process loaded a library, or exec'ed); their programs run in the
	 * traced process with its unwind rows of their own (user stacks);
	 * the consumer runs them (BPF_PROG_TEST_RUN), not the kernel.
	 */
	bool bm_late;
	bool bm_user;
	bool bm_demand;
} dt_bpf_mech_t;

extern const dt_bpf_mech_t dt_bpf_mech_demand;
extern const dt_bpf_mech_t dt_bpf_mech_timer;
extern const dt_bpf_mech_t dt_bpf_mech_syscall;
extern const dt_bpf_mech_t dt_bpf_mech_uprobe;
extern const dt_bpf_mech_t dt_bpf_mech_tp;
extern const dt_bpf_mech_t dt_bpf_mech_fbt;

/*
 * The mechanism that serves probe prp, or NULL with the error set (its
 * provider names none the engine has, or its kernel event cannot be
 * described).
 */
extern const dt_bpf_mech_t *dt_bpf_mech_of(dtrace_hdl_t *dtp,
    dt_probe_t *prp);

/* Every mechanism's bm_prepare, before planning. */
extern void dt_bpf_mech_prepare(dtrace_hdl_t *dtp, dt_bpf_engine_t *be);

/* tick-N overdue: the timer mechanism's stand-in fires it (ms to wait). */
extern int dt_bpf_timer_check(dt_bpf_engine_t *be, int max_ms);

#endif /* DT_BPF_MECH_H */
