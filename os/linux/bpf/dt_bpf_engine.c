/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_engine.c: the BPF engine -- building, loading and attaching the
 * programs of an enabling, and reading back what they record.
 *
 * eo_enable only collects enabled probes; eo_go does the work, because
 * the maps every program shares are sized from all of them:
 *
 *	plan	   group the enabled probes into programs (dt_bpf_plan_t),
 *		   each probe by the mechanism its provider names
 *		   (dt_bpf_mech.h: BEGIN/END/ERROR run on demand, timers,
 *		   system calls, uprobes, tracepoints, kernel functions),
 *		   which also says how its program is built and attached
 *	layout	   the translator's layout of the maps (dt_bpf_gen.h)
 *	maps	   state (mmap'ed: counters and the exit flag are read and
 *		   written in place), scratch, ring (or perf) buffer, one
 *		   hash map per dynamic variable, one per-CPU hash per
 *		   aggregation, the probe tables, the unwind rows of the
 *		   followed processes (user stacks)
 *	load	   generate each program and load it; a refusal becomes
 *		   one line quoting the verifier, the whole log kept for
 *		   -x debug
 *	attach	   then BEGIN fires
 *
 * Records arrive through one ring buffer (or, on kernels without one,
 * per-CPU perf buffers), each with the writing CPU in an 8-byte prefix;
 * eo_poll/eo_drain sort them into per-CPU runs for the consumer.
 * eo_stop sets the exit flag (so no probe but END runs any more) and
 * fires END.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "common/dif/dif.h"
#include "common/dt_aggfunc.h"
#include "os/linux/bpf/dt_bpf_aggread.h"
#include "common/dt_impl.h"
#include "common/dt_os.h"
#include "common/dt_work.h"
#include "common/engine/dt_spec.h"
#include "common/probe/dt_probe.h"
#include "common/prov/dt_prov.h"
#include "isa/dt_isa.h"
#include "os/linux/bpf/dt_bpf_attach.h"
#include "os/linux/bpf/dt_bpf_engine.h"
#include "os/linux/bpf/dt_bpf_engine_impl.h"
#include "os/linux/bpf/dt_bpf_gen.h"
#include "os/linux/bpf/dt_bpf_uprobes.h"
#include "os/linux/dt_cfi.h"
#include "os/linux/dt_linux_features.h"
#include "os/linux/dt_usyms.h"
#include "os/linux/ptrace/dt_ptrace.h"
#include "os/linux/prov/dt_linux_prov.h"

#define DT_BPF_LOGSIZE (16U << 20)
/* Bytes of consts kept for the names of probes enabled while tracing. */
#define DT_BPF_LATE_CONSTS 16384
/* Processes followed, at most. */
#define DT_BPF_PROCSET_MAX 65536

static dt_bpf_engine_t *
dt_bpf(dtrace_hdl_t *dtp)
{
	return dtp->dt_engine_data;
}

static void dt_bpf_procev_stop(dt_bpf_engine_t *be);
static void dt_bpf_consume(dt_bpf_engine_t *be);
static int dt_bpf_attach(dtrace_hdl_t *dtp, dt_bpf_engine_t *be,
    dt_bpf_plan_t *pl);
static int dt_bpf_late(dtrace_hdl_t *dtp, dt_bpf_engine_t *be,
    uint32_t first);

int
dt_bpf_fail(dtrace_hdl_t *dtp, int err, const char *fmt, ...)
{
	dt_bpf_engine_t *be = dt_bpf(dtp);
	va_list ap;

	if (be != NULL) {
		va_start(ap, fmt);
		vsnprintf(be->be_errmsg, sizeof (be->be_errmsg), fmt, ap);
		va_end(ap);
	}
	return dt_set_errno(dtp, err);
}

const char *
dt_bpf_engine_detail(dtrace_hdl_t *dtp)
{
	dt_bpf_engine_t *be = dt_bpf(dtp);

	return be != NULL ? be->be_errmsg : "";
}

static int
dt_bpf_open(dtrace_hdl_t *dtp)
{
	dt_bpf_engine_t *be;

	if (!dt_linux_feature(DT_LF_BPF) || !dt_linux_feature(DT_LF_PTR_LEAKS)
	    || (!dt_linux_feature(DT_LF_RINGBUF) &&
	    !dt_linux_feature(DT_LF_PERFBUF)) ||
	    !dt_linux_feature(DT_LF_TEST_RUN))
		return dt_set_errno(dtp, EDT_NOENGINE);
	if ((be = calloc(1, sizeof (*be))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	/* (not dt_linux_features(): it makes every on-demand probe) */
	be->be_ncpus = dt_linux_ncpus();
	be->be_procset_fd = be->be_fork_fd = be->be_fork_link = -1;
	be->be_ev_fd = be->be_ev_progs[0] = be->be_ev_progs[1] = -1;
	be->be_ustk_fd = be->be_ugen_fd = be->be_ucache_fd = -1;
	be->be_dtp = dtp;
	if ((be->be_stage = calloc((size_t) be->be_ncpus,
	    sizeof (*be->be_stage))) == NULL) {
		free(be);
		return dt_set_errno(dtp, EDT_NOMEM);
	}
	dtp->dt_engine_data = be;
	return 0;
}

/* Every plan's links, under one progress line (dt_bpf_close_links()). */
static void
dt_bpf_close_plans(dt_bpf_engine_t *be)
{
	uint32_t n = 0;
	int *fds;

	for (uint32_t i = 0; i < be->be_nplans; i++)
		n += be->be_plans[i].pl_nlinks;
	if ((fds = malloc((n + 1) * sizeof (int))) != NULL) {
		n = 0;
		for (uint32_t i = 0; i < be->be_nplans; i++) {
			for (uint32_t l = 0; l < be->be_plans[i].pl_nlinks; l++)
				fds[n++] = be->be_plans[i].pl_links[l];
		}
		dt_bpf_close_links(fds, n);
		free(fds);
	} else {
		for (uint32_t i = 0; i < be->be_nplans; i++)
			dt_bpf_close_links(be->be_plans[i].pl_links,
			    be->be_plans[i].pl_nlinks);
	}
}

static void
dt_bpf_close(dtrace_hdl_t *dtp)
{
	dt_bpf_engine_t *be = dt_bpf(dtp);

	if (be == NULL)
		return;
	dt_bpf_close_plans(be);
	for (uint32_t i = 0; i < be->be_nplans; i++) {
		dt_bpf_plan_t *pl = &be->be_plans[i];

		if (pl->pl_fd >= 0)
			(void) close(pl->pl_fd);
		if (pl->pl_standin_fd >= 0)
			(void) close(pl->pl_standin_fd);
		free(pl->pl_links);
		free(pl->pl_probes);
		free(pl->pl_stmts);
		free(pl->pl_epids);
	}
	free(be->be_plans);
	dt_bpf_procev_stop(be);
	for (int i = 0; i < 2; i++) {
		if (be->be_ev_progs[i] >= 0)
			(void) close(be->be_ev_progs[i]);
	}
	if (be->be_fork_link >= 0)
		(void) close(be->be_fork_link);
	if (be->be_fork_fd >= 0)
		(void) close(be->be_fork_fd);
	if (be->be_rb != NULL)
		ring_buffer__free(be->be_rb);
	if (be->be_pb != NULL)
		perf_buffer__free(be->be_pb);
	if (be->be_state != NULL)
		(void) munmap(be->be_state, be->be_statelen);
	for (uint32_t i = 0; be->be_laid && i < be->be_lay.bl_naggs; i++)
		dt_bpf_aggmap_release(&be->be_lay.bl_aggs[i]);
	for (uint32_t i = 0; i < be->be_nmapfds; i++)
		(void) close(be->be_mapfds[i]);
	free(be->be_mapfds);
	free(be->be_ucfi);
	free(be->be_ustk_pids);
	if (be->be_laid)
		dt_bpf_layout_fini(&be->be_lay);
	for (int c = 0; c < be->be_ncpus; c++)
		free(be->be_stage[c].sg_data);
	free(be->be_stage);
	dt_bpf_aggbufs_free(&be->be_aggbufs);
	free(be->be_eps);
	free(be->be_log);
	free(be);
	dtp->dt_engine_data = NULL;
}

static int
dt_bpf_enable(dtrace_hdl_t *dtp, dt_eprobe_t *const *eps, size_t n)
{
	dt_bpf_engine_t *be = dt_bpf(dtp);
	uint32_t first = be->be_neps;

	/* While tracing, only the probes of a process that changed. */
	if (be->be_active && !be->be_late)
		return dt_set_errno(dtp, EDT_ACTIVE);
	for (size_t i = 0; i < n; i++) {
		if (!(eps[i]->ep_probe->pr_prov->pv_engines & DT_ENGINE_F_KERNEL))
			return dt_set_errno(dtp, EDT_NOTSUP);
		if (be->be_prog != NULL && be->be_prog != eps[i]->ep_prog)
			return dt_bpf_fail(dtp, EDT_NOTSUP, "the bpf engine "
			    "runs one program per enabling");
		be->be_prog = eps[i]->ep_prog;
		if (be->be_neps == be->be_epcap) {
			uint32_t cap = be->be_epcap ? be->be_epcap * 2 : 64;
			dt_eprobe_t **p = realloc(be->be_eps,
			    cap * sizeof (*p));

			if (p == NULL)
				return dt_set_errno(dtp, EDT_NOMEM);
			be->be_eps = p;
			be->be_epcap = cap;
		}
		be->be_eps[be->be_neps++] = eps[i];
	}
	return be->be_active ? dt_bpf_late(dtp, be, first) : 0;
}

/*
 * Planning.
 */

dt_bpf_plan_t *
dt_bpf_plan_new(dt_bpf_engine_t *be, const dt_bpf_mech_t *mech)
{
	dt_bpf_plan_t *pl = realloc(be->be_plans, (be->be_nplans + 1) *
	    sizeof (*pl));

	if (pl == NULL)
		return NULL;
	be->be_plans = pl;
	pl += be->be_nplans++;
	memset(pl, 0, sizeof (*pl));
	pl->pl_mech = mech;
	pl->pl_fd = pl->pl_table_fd = -1;
	pl->pl_tick_fd = pl->pl_standin_fd = -1;
	return pl;
}

static int
dt_bpf_plan_addprobe(dt_bpf_plan_t *pl, dt_probe_t *prp)
{
	dt_probe_t **p;

	for (uint32_t i = 0; i < pl->pl_nprobes; i++) {
		if (pl->pl_probes[i] == prp)
			return 0;
	}
	if ((p = realloc(pl->pl_probes, (pl->pl_nprobes + 1) *
	    sizeof (*p))) == NULL)
		return -1;
	pl->pl_probes = p;
	p[pl->pl_nprobes++] = prp;
	return 0;
}

/* Where probe prp is in the plan, or -1. */
static int
dt_bpf_plan_probe(const dt_bpf_plan_t *pl, const dt_probe_t *prp)
{
	for (uint32_t j = 0; j < pl->pl_nprobes; j++) {
		if (pl->pl_probes[j] == prp)
			return (int) j;
	}
	return -1;
}

/* Enablings of statement stp on the plan's probe p before index e. */
static uint32_t
dt_bpf_plan_nth(const dt_bpf_engine_t *be, const dt_bpf_plan_t *pl,
    uint32_t e, const dt_stmt_t *stp, uint32_t p)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < e; i++) {
		if (be->be_eps[i]->ep_stmt == stp &&
		    be->be_eps[i]->ep_probe == pl->pl_probes[p])
			n++;
	}
	return n;
}

/*
 * Clauses and per-probe EPIDs from the enabled probes of the plan.  A
 * statement two of whose descriptions match a probe is enabled twice on
 * it (DTrace's one enabling per description): its clause has a slot per
 * enabling, each with its own EPID (0 where a probe has fewer).
 */
static int
dt_bpf_plan_clauses(dt_bpf_engine_t *be, dt_bpf_plan_t *pl)
{
	for (uint32_t e = 0; e < be->be_neps; e++) {
		const dt_eprobe_t *ep = be->be_eps[e];
		int p = dt_bpf_plan_probe(pl, ep->ep_probe);
		uint32_t nth, have = 0;

		if (p < 0)
			continue;
		nth = dt_bpf_plan_nth(be, pl, e, ep->ep_stmt, (uint32_t) p);
		for (uint32_t j = 0; j < pl->pl_nstmts; j++)
			have += pl->pl_stmts[j] == ep->ep_stmt;
		if (have <= nth) {
			const dt_stmt_t **q = realloc(pl->pl_stmts,
			    (pl->pl_nstmts + 1) * sizeof (*q));

			if (q == NULL)
				return -1;
			pl->pl_stmts = q;
			q[pl->pl_nstmts++] = ep->ep_stmt;
		}
	}
	if ((pl->pl_epids = calloc((size_t) pl->pl_nprobes * pl->pl_nstmts +
	    1, sizeof (uint32_t))) == NULL)
		return -1;
	for (uint32_t e = 0; e < be->be_neps; e++) {
		const dt_eprobe_t *ep = be->be_eps[e];
		int p = dt_bpf_plan_probe(pl, ep->ep_probe);
		uint32_t nth, seen = 0;

		if (p < 0)
			continue;
		nth = dt_bpf_plan_nth(be, pl, e, ep->ep_stmt, (uint32_t) p);
		for (uint32_t j = 0; j < pl->pl_nstmts; j++) {
			if (pl->pl_stmts[j] != ep->ep_stmt || seen++ != nth)
				continue;
			pl->pl_epids[(uint32_t) p * pl->pl_nstmts + j] =
			    ep->ep_epid;
			break;
		}
	}
	return 0;
}

/* Has a plan been made for probe prp yet? */
static bool
dt_bpf_planned(const dt_bpf_engine_t *be, const dt_probe_t *prp)
{
	for (uint32_t i = 0; i < be->be_nplans; i++) {
		if (dt_bpf_plan_probe(&be->be_plans[i], prp) >= 0)
			return true;
	}
	return false;
}

/*
 * The plan of probe prp, from its mechanism, which must find the kernel
 * feature it needs: 0, or -1 with the error set.
 */
static int
dt_bpf_plan_one(dtrace_hdl_t *dtp, dt_bpf_engine_t *be, dt_probe_t *prp,
    const dt_bpf_mech_t *mech)
{
	dt_linux_feature_t f = mech->bm_feature != NULL ?
	    mech->bm_feature(prp) : DT_LF_NFEATURES;
	dt_bpf_plan_t *pl;

	if (f != DT_LF_NFEATURES && !dt_linux_feature(f))
		return dt_bpf_fail(dtp, EDT_NOTSUP, "probe %s:%s:%s:%s needs "
		    "the kernel's %s, which this kernel does not offer (%s)",
		    prp->pr_prov->pv_name, prp->pr_mod, prp->pr_func,
		    prp->pr_name, dt_linux_feature_name(f),
		    dt_linux_feature_why(f));
	pl = mech->bm_plan != NULL ? mech->bm_plan(dtp, be, prp) :
	    dt_bpf_plan_new(be, mech);
	if (pl == NULL || dt_bpf_plan_addprobe(pl, prp) != 0)
		return dt_set_errno(dtp, EDT_NOMEM);
	return 0;
}

static int
dt_bpf_plan(dtrace_hdl_t *dtp, dt_bpf_engine_t *be)
{
	dt_bpf_mech_prepare(dtp, be);
	for (uint32_t e = 0; e < be->be_neps; e++) {
		dt_probe_t *prp = be->be_eps[e]->ep_probe;
		const dt_bpf_mech_t *mech;

		if (dt_bpf_planned(be, prp))
			continue;
		if ((mech = dt_bpf_mech_of(dtp, prp)) == NULL ||
		    dt_bpf_plan_one(dtp, be, prp, mech) != 0)
			return -1;
	}
	for (uint32_t i = 0; i < be->be_nplans; i++) {
		if (dt_bpf_plan_clauses(be, &be->be_plans[i]) != 0)
			return dt_set_errno(dtp, EDT_NOMEM);
	}
	return 0;
}

/*
 * Maps.
 */

int
dt_bpf_mapfd(dtrace_hdl_t *dtp, dt_bpf_engine_t *be, int fd, const char *what)
{
	int *p;

	if (fd < 0)
		return dt_bpf_fail(dtp, EDT_NOTSUP, "creating the %s map: %s",
		    what, strerror(errno));
	if ((p = realloc(be->be_mapfds, (be->be_nmapfds + 1) *
	    sizeof (int))) == NULL) {
		(void) close(fd);
		return dt_set_errno(dtp, EDT_NOMEM);
	}
	be->be_mapfds = p;
	p[be->be_nmapfds++] = fd;
	return fd;
}

/*
 * A hash map's key of keysize bytes, where the kernel takes at most
 * DT_LF_SMALL_KEY (Linux 5.10: keys were built on the BPF stack), is
 * refused in one line saying what to lower.
 */
static int
dt_bpf_bigkey(dtrace_hdl_t *dtp, uint32_t keysize, const char *what)
{
	if (keysize <= DT_LF_SMALL_KEY || dt_linux_feature(DT_LF_BIG_KEYS))
		return 0;
	return dt_bpf_fail(dtp, EDT_NOTSUP, "%s key is %u bytes, and this "
	    "kernel's BPF hash maps take keys of at most %d: fewer or "
	    "shorter strings in it (-x strsize, now %lld) would fit", what,
	    keysize, DT_LF_SMALL_KEY,
	    (long long) dtp->dt_options[DT_OPT_STRSIZE]);
}

static uint32_t
dt_bpf_pow2(uint64_t v, uint32_t min)
{
	uint64_t p = min;

	while (p < v && p < (1ULL << 30))
		p *= 2;
	return (uint32_t) p;
}

/*
 * The ring buffer: bufsize rounded up to a power of two pages, at most
 * 1g (the kernel's limit is near 2g).  With bufresize=auto, a size the
 * kernel cannot allocate is halved until it can, and bufsize lowered to
 * what was made (dtrace(1) says "buffer size lowered to ..."); with
 * manual, that is an error.  The map's fd, or -1 with errno.
 */
static int
dt_bpf_ringbuf(dtrace_hdl_t *dtp, uint32_t pg)
{
	uint64_t want = (uint64_t) dtp->dt_options[DT_OPT_BUFSIZE];
	uint32_t size = dt_bpf_pow2(want, pg);
	bool resize = dtp->dt_options[DT_OPT_BUFRESIZE] != DT_BUFRESIZE_MANUAL;
	int fd;

	if (size < want && !resize) {
		errno = E2BIG;
		return -1;
	}
	while ((fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "dt_buf", 0, 0,
	    size, NULL)) < 0 && (errno == ENOMEM || errno == E2BIG) &&
	    resize && size > pg)
		size /= 2;
	if (fd >= 0 && size < want)
		dtp->dt_options[DT_OPT_BUFSIZE] = size;
	return fd;
}

/*
 * Whether a clause clears or truncates aggregation aggid.  Only such an
 * aggregation needs its hash twice (dt_bpf_aggflip_t), so that it is
 * emptied whole while the firings go on: the others' firings find their
 * hash directly, without the lookup in the array of maps.
 */
static bool
dt_bpf_agg_emptied(const dt_program_t *pg, uint32_t aggid)
{
	for (uint32_t s = 0; pg != NULL && s < pg->pg_nstmts; s++) {
		const dt_stmt_t *st = &pg->pg_stmts[s];

		for (uint32_t a = 0; a < st->st_nactions; a++) {
			const dt_action_t *ap = &st->st_actions[a];

			if (ap->ac_kind != DT_ACT_CLEAR &&
			    ap->ac_kind != DT_ACT_TRUNC)
				continue;
			for (uint32_t k = 0; k < ap->ac_naggs; k++) {
				if (ap->ac_aggids[k] == aggid)
					return true;
			}
		}
	}
	return false;
}

static int
dt_bpf_maps(dtrace_hdl_t *dtp, dt_bpf_engine_t *be)
{
	dt_bpf_layout_t *lay = &be->be_lay;
	LIBBPF_OPTS(bpf_map_create_opts, mmopts,
	    .map_flags = BPF_F_MMAPABLE);
	uint32_t pg = (uint32_t) sysconf(_SC_PAGESIZE);
	struct timespec mono, real;
	int fd;

	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "dt_state", 4,
	    lay->bl_state_size, 1, &mmopts);
	if ((lay->bl_state_fd = dt_bpf_mapfd(dtp, be, fd, "state")) < 0)
		return -1;
	be->be_statelen = ((size_t) lay->bl_state_size + pg - 1) /
	    pg * pg;
	be->be_state = mmap(NULL, be->be_statelen, PROT_READ | PROT_WRITE,
	    MAP_SHARED, lay->bl_state_fd, 0);
	if (be->be_state == MAP_FAILED) {
		be->be_state = NULL;
		return dt_bpf_fail(dtp, EDT_NOTSUP, "mapping the state map: "
		    "%s", strerror(errno));
	}
	memcpy(be->be_state + lay->bl_consts_off, lay->bl_consts,
	    lay->bl_conslen);
	for (uint32_t i = 0; lay->bl_curcpu && i < lay->bl_ncpus; i++)
		dt_os_cpuinfo(i, (dt_cpuinfo_t *) (be->be_state +
		    lay->bl_cpuinfo_off) + i);
	(void) clock_gettime(CLOCK_MONOTONIC, &mono);
	(void) clock_gettime(CLOCK_REALTIME, &real);
	*(int64_t *) (be->be_state + lay->bl_cnt_off + 8 * DT_BPF_CNT_WALLOFF) =
	    ((int64_t) real.tv_sec - mono.tv_sec) * 1000000000LL +
	    (real.tv_nsec - mono.tv_nsec);

	if (lay->bl_scratch_shared)
		fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "dt_scratch", 4,
		    lay->bl_scratch_size, (uint32_t) be->be_ncpus, NULL);
	else
		fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "dt_scratch",
		    4, lay->bl_scratch_size, 1, NULL);
	if ((lay->bl_scratch_fd = dt_bpf_mapfd(dtp, be, fd, "scratch")) < 0)
		return -1;
	/* The records: a ring buffer, or else a perf buffer per CPU. */
	lay->bl_perfbuf = !dt_linux_feature(DT_LF_RINGBUF);
	if (lay->bl_perfbuf)
		fd = bpf_map_create(BPF_MAP_TYPE_PERF_EVENT_ARRAY, "dt_buf",
		    4, 4, (uint32_t) be->be_ncpus, NULL);
	else
		fd = dt_bpf_ringbuf(dtp, pg);
	if ((lay->bl_rb_fd = dt_bpf_mapfd(dtp, be, fd, lay->bl_perfbuf ?
	    "perf buffer" : "ring buffer")) < 0)
		return -1;
	for (uint32_t i = 0; i < lay->bl_nvars; i++) {
		dt_bpf_var_t *bv = &lay->bl_vars[i];

		if (bv->bv_scope == DIFV_SCOPE_LOCAL ||
		    (bv->bv_scope == DIFV_SCOPE_GLOBAL &&
		    bv->bv_kind == DIFV_KIND_SCALAR))
			continue;
		if (dt_bpf_bigkey(dtp, bv->bv_keysize, "an associative "
		    "array's or thread-local variable's") != 0)
			return -1;
		fd = bpf_map_create(BPF_MAP_TYPE_HASH, "dt_dvar",
		    bv->bv_keysize, bv->bv_size, bv->bv_maxent, NULL);
		if ((bv->bv_fd = dt_bpf_mapfd(dtp, be, fd, "variable")) < 0)
			return -1;
	}
	for (uint32_t i = 0; i < lay->bl_naggs; i++) {
		dt_bpf_aggmap_t *ba = &lay->bl_aggs[i];
		char what[160];

		snprintf(what, sizeof (what), "aggregation @%s's",
		    ba->ba_agg->ag_name);
		if (ba->ba_cut != 0)
			(void) fprintf(stderr, "dtrace: aggregation @%s: its "
			    "string keys are cut to %u bytes: this kernel's "
			    "BPF hash maps take keys of at most %d\n",
			    ba->ba_agg->ag_name, ba->ba_cut - 1,
			    DT_LF_SMALL_KEY);
		if (ba->ba_cutframes != 0)
			(void) fprintf(stderr, "dtrace: aggregation @%s: its "
			    "stack keys keep %u frames: this kernel's BPF hash "
			    "maps take keys of at most %d\n",
			    ba->ba_agg->ag_name, ba->ba_cutframes,
			    DT_LF_SMALL_KEY);
		if (ba->ba_kind != DT_AGGMAP_ARRAY &&
		    dt_bpf_bigkey(dtp, ba->ba_keysize, what) != 0)
			return -1;
		if (dt_bpf_aggslots_make(ba, be->be_ncpus) == 0) {
			/* Registered to be closed with the others. */
			if (dt_bpf_mapfd(dtp, be, ba->ba_fd, "aggregation") <
			    0 || dt_bpf_mapfd(dtp, be, ba->ba_slots_fd,
			    "aggregation") < 0 || dt_bpf_mapfd(dtp, be,
			    ba->ba_free_fd, "aggregation") < 0)
				return -1;
			continue;
		}
		if (ba->ba_kind == DT_AGGMAP_HASH &&
		    dt_bpf_agg_emptied(lay->bl_prog, ba->ba_agg->ag_id)) {
			int fds[3];

			if (dt_bpf_aggflip_make(ba, fds) == 0) {
				for (int f = 0; f < 3; f++) {
					if (dt_bpf_mapfd(dtp, be, fds[f],
					    "aggregation") < 0)
						return -1;
				}
				continue;
			}
		}
		fd = bpf_map_create(ba->ba_kind == DT_AGGMAP_ARRAY ?
		    BPF_MAP_TYPE_PERCPU_ARRAY : BPF_MAP_TYPE_PERCPU_HASH,
		    "dt_agg",
		    ba->ba_keysize, ba->ba_valsize, ba->ba_maxent, NULL);
		if ((ba->ba_fd = dt_bpf_mapfd(dtp, be, fd, "aggregation")) < 0)
			return -1;
		if (ba->ba_kind == DT_AGGMAP_ARRAY &&
		    dt_bpf_aggarray_make(ba, be->be_ncpus) != 0)
			return dt_set_errno(dtp, EDT_NOMEM);
	}
	return 0;
}

/*
 * Loading.
 */

/* The verifier's last words: the line before "processed N insns". */
static void
dt_bpf_log_excerpt(const char *log, char *buf, size_t len)
{
	const char *end = log + strlen(log), *p, *line = NULL;

	buf[0] = '\0';
	while (end > log && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	for (int n = 0; n < 3 && end > log; n++) {
		for (p = end - 1; p > log && p[-1] != '\n'; p--)
			continue;
		line = p;
		if (strncmp(p, "processed ", 10) != 0 &&
		    strncmp(p, "verification time", 17) != 0 &&
		    strncmp(p, "stack depth", 11) != 0)
			break;
		end = p > log ? p - 1 : p;
	}
	if (line != NULL)
		snprintf(buf, len, "%.*s", (int) (end - line), line);
}

/*
 * Loads the program in b; a program with subprograms (bpf_loop()
 * callbacks) describes its functions in BTF, as the kernel requires.
 * Refused, it is loaded again with a log, to say why.
 */
static int
dt_bpf_load(dtrace_hdl_t *dtp, dt_bpf_engine_t *be, dt_bpf_plan_t *pl,
    enum bpf_prog_type type, const dt_bpf_target_t *tg,
    const dt_bpf_buf_t *b)
{
	const dt_probe_t *prp = pl->pl_probes[0];
	uint32_t nf = b->b_nfuncs + 1;
	struct bpf_func_info *fi = NULL;
	void *btf = NULL;
	int btf_fd = -1;
	char excerpt[256];
	int fd, err, first_err = 0;
	LIBBPF_OPTS(bpf_prog_load_opts, opts);

	if (tg != NULL) {
		opts.expected_attach_type = tg->tg_type;
		opts.attach_btf_id = tg->tg_btf_id;
		opts.attach_btf_obj_fd = (uint32_t) (tg->tg_obj_fd < 0 ? 0 :
		    tg->tg_obj_fd);
	}
	if (b->b_nfuncs > 0) {
		uint32_t *offs = calloc(nf, sizeof (uint32_t));

		if (offs == NULL)
			return dt_set_errno(dtp, EDT_NOMEM);
		for (uint32_t i = 1; i < nf; i++)
			offs[i] = b->b_funcs[i - 1].fn_start;
		if (dt_linux_btf_funcs(nf, offs, &btf_fd, &fi, &btf) != 0) {
			free(offs);
			return dt_bpf_fail(dtp, EDT_NOTSUP, "cannot load the "
			    "BTF of bpf_loop() callbacks: %s", strerror(errno));
		}
		free(offs);
		opts.prog_btf_fd = (uint32_t) btf_fd;
		opts.func_info = fi;
		opts.func_info_cnt = nf;
		opts.func_info_rec_size = sizeof (struct bpf_func_info);
	}
	/*
	 * -x bpflog: the verifier's log of every program, loaded or not, with
	 * its statistics, each line marked "BPF: " on stderr.
	 */
	if (dtp->dt_options[DT_OPT_BPFLOG] != DTRACEOPT_UNSET) {
		fd = -1;
	} else {
		while ((fd = bpf_prog_load(type, "dtrace", "GPL", b->b_insns,
			    b->b_len, &opts)) < 0 &&
		    errno == EMFILE && dt_bpf_more_files() == 0)
			continue;	/* a program per uprobe site */
		first_err = fd < 0 ? errno : 0;
	}
	if (fd < 0 && (be->be_log != NULL || (be->be_log =
	    malloc(DT_BPF_LOGSIZE)) != NULL)) {
		be->be_log[0] = '\0';
		opts.log_buf = be->be_log;
		opts.log_size = DT_BPF_LOGSIZE;
		opts.log_level =
		    dtp->dt_options[DT_OPT_BPFLOG] != DTRACEOPT_UNSET ? 1 | 4
								      : 1;
		fd = bpf_prog_load(type, "dtrace", "GPL", b->b_insns, b->b_len,
		    &opts);
		if (dtp->dt_options[DT_OPT_BPFLOG] != DTRACEOPT_UNSET) {
			int e = errno;

			for (char *l = be->be_log, *nl; *l != '\0'; l = nl) {
				size_t n = strcspn(l, "\n");

				nl = l[n] == '\n' ? l + n + 1 : l + n;
				fprintf(stderr, "BPF: %.*s\n", (int) n, l);
			}
			errno = e;
		}
	}
	err = errno;
	/*
	 * A log longer than the buffer fails the load with ENOSPC (before
	 * Linux 6.4, whatever the verifier said): the reason is the first
	 * load's, and the log's last line is where the buffer ended.
	 */
	if (fd < 0 && err == ENOSPC && first_err != 0)
		err = first_err;
	if (fi != NULL)
		dt_linux_btf_funcs_free(fi, btf);
	if (fd >= 0)
		return fd;
	if (be->be_log == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	/* Too many instructions followed: the log's end says nothing. */
	if (err == E2BIG)
		return dt_bpf_fail(dtp, EDT_NOTSUP, "program for %s:%s:%s:%s "
		    "refused by the kernel: too complex for its verifier%s",
		    prp->pr_prov->pv_name, prp->pr_mod, prp->pr_func,
		    prp->pr_name, dt_linux_feature(DT_LF_BPF_LOOP) ? "" :
		    ", which on a kernel without bpf_loop() (Linux 5.17) "
		    "follows every pass of every loop: fewer clauses on the "
		    "probe or a smaller strsize may pass");
	dt_bpf_log_excerpt(be->be_log, excerpt, sizeof (excerpt));
	dt_bpf_fail(dtp, EDT_NOTSUP, "program for %s:%s:%s:%s refused by the "
	    "kernel: %s%s%s", prp->pr_prov->pv_name, prp->pr_mod,
	    prp->pr_func, prp->pr_name, strerror(err),
	    excerpt[0] ? ": " : "", excerpt);
	if (dtp->dt_options[DT_OPT_DEBUG] != DTRACEOPT_UNSET)
		fprintf(stderr, "%s\n", be->be_log);
	return -1;
}

static dt_bpf_plan_t *dt_bpf_find(dt_bpf_engine_t *be, uint32_t id);

/*
 * User stacks through CFI.  A program on a uprobe whose clauses want the
 * user stack (ustack(), jstack(), ustackdepth, ucaller) gets the unwind
 * rows of its process (os/linux/dt_cfi.h) in an array map, built the
 * first time and shared by the process's programs; a process's libraries
 * loaded later get new rows with the programs made for them.  When the
 * rows cannot be had, the program walks frame pointers as before.
 */
typedef struct dt_bpf_ucfi {
	int uc_pid;
	int uc_fd;
	uint32_t uc_n;
} dt_bpf_ucfi_t;

static bool
dt_bpf_difo_ustack(const dif_object_t *difo)
{
	for (uint32_t pc = 0; difo != NULL && pc < difo->dif_len; pc++) {
		dif_instr_t in = difo->dif_buf[pc];

		if (DIF_INSTR_OP(in) == DIF_OP_LDGS &&
		    (DIF_INSTR_VAR(in) == DIF_VAR_USTACKDEPTH ||
		    DIF_INSTR_VAR(in) == DIF_VAR_UCALLER))
			return true;
	}
	return false;
}

bool
dt_bpf_wants_ustack(const dt_bpf_engine_t *be, const dt_bpf_plan_t *pl)
{
	const dt_program_t *pg = be->be_lay.bl_prog;

	for (uint32_t j = 0; j < pl->pl_nstmts; j++) {
		const dt_stmt_t *stp = pl->pl_stmts[j];

		if (dt_bpf_difo_ustack(stp->st_pred))
			return true;
		for (uint32_t a = 0; a < stp->st_nactions; a++) {
			const dt_action_t *ap = &stp->st_actions[a];

			for (uint32_t i = 0; i < ap->ac_nargs; i++) {
				if (ap->ac_args[i].aa_rec.rd_type ==
				    DT_REC_USTACK ||
				    dt_bpf_difo_ustack(ap->ac_args[i].aa_difo))
					return true;
			}
			for (uint32_t k = 0; k < ap->ac_nkeys; k++) {
				if (dt_bpf_difo_ustack(ap->ac_keys[k]))
					return true;
			}
			if (ap->ac_kind != DT_ACT_AGGREGATE || pg == NULL ||
			    ap->ac_aggid >= pg->pg_naggs)
				continue;
			for (uint32_t k = 0; k < pg->pg_aggs[ap->ac_aggid].ag_nkeys;
			    k++) {
				if (pg->pg_aggs[ap->ac_aggid].ag_keys[k].rd_type ==
				    DT_REC_USTACK)
					return true;
			}
		}
	}
	return false;
}

/*
 * Rows the generated walk reads: any, where the processor has a link
 * register (arm64's walk reads every DT_CFI_RA_* rule); elsewhere every
 * return address at CFA - 8 (an arm64 program that qemu-user runs on
 * x86-64 maps arm64 objects, whose rows x86-64's walk would misread).
 */
static bool
dt_bpf_rows_walkable(const dt_cfi_table_t *ct)
{
	if (dt_isa_layout.il_lr >= 0)
		return true;
	for (size_t i = 0; i < ct->ct_nrows; i++) {
		if (ct->ct_rows[i].cr_ra != 0)
			return false;
	}
	return true;
}

/*
 * A new array map of the unwind rows of process pid, at most max rows,
 * made with flags (BPF_F_MMAPABLE, and more): its fd and the row count,
 * or -1.  A table of the frame-pointer rule alone (no object the process
 * maps has CFI this unwinder reads: stripped of it) is no rows: the walk
 * by frame pointers then takes over, and it knows, as the rule does not,
 * where the caller is at a function's entry and return sites.  So is a
 * table the walk of this processor cannot read (dt_bpf_rows_walkable()).
 */
static int
dt_bpf_rows(int pid, uint32_t flags, uint32_t max, uint32_t *np)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = flags);
	dt_cfi_table_t ct;
	size_t len;
	void *m;
	int fd = -1;

	if (dt_cfi_proc(pid, &ct) != 0)
		return -1;
	if (ct.ct_nrows <= 1 || !dt_bpf_rows_walkable(&ct)) {
		dt_cfi_free(&ct);
		return -1;
	}
	len = ct.ct_nrows * sizeof (dt_cfi_row_t);
	if (ct.ct_nrows <= max)
		fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "dt_ucfi", 4,
		    sizeof (dt_cfi_row_t), (uint32_t) ct.ct_nrows, &opts);
	if (fd >= 0 && (m = mmap(NULL, len, PROT_READ | PROT_WRITE,
	    MAP_SHARED, fd, 0)) != MAP_FAILED) {
		memcpy(m, ct.ct_rows, len);
		(void) munmap(m, len);
		*np = (uint32_t) ct.ct_nrows;
	} else if (fd >= 0) {
		(void) close(fd);
		fd = -1;
	}
	dt_cfi_free(&ct);
	return fd;
}

/* The rows of pid into ps (none when they cannot be had). */
void
dt_bpf_ucfi(dtrace_hdl_t *dtp, dt_bpf_engine_t *be, int pid,
    dt_bpf_progspec_t *ps)
{
	dt_bpf_ucfi_t *uc;
	uint32_t n = 0;
	int fd;

	for (uint32_t i = 0; i < be->be_nucfi; i++) {
		if (be->be_ucfi[i].uc_pid == pid) {
			ps->ps_ucfi_fd = be->be_ucfi[i].uc_fd;
			ps->ps_ucfi_n = be->be_ucfi[i].uc_n;
			return;
		}
	}
	if ((uc = realloc(be->be_ucfi, (be->be_nucfi + 1) *
	    sizeof (*uc))) == NULL)
		return;
	be->be_ucfi = uc;
	uc += be->be_nucfi;
	*uc = (dt_bpf_ucfi_t) { pid, -1, 0 };
	be->be_nucfi++;	/* even if it fails: tried once */
	if ((fd = dt_bpf_rows(pid, BPF_F_MMAPABLE, UINT32_MAX, &n)) >= 0 &&
	    dt_bpf_mapfd(dtp, be, fd, "unwind rows") >= 0) {
		uc->uc_fd = fd;
		uc->uc_n = n;
	}
	ps->ps_ucfi_fd = uc->uc_fd;
	ps->ps_ucfi_n = uc->uc_n;
}

/*
 * User stacks through CFI in every other probe.  When some program that
 * is not on a uprobe wants the user stack and dtrace follows processes
 * (-c, -p), each of those processes' rows go in a hash of maps keyed by
 * the process whose exec made the address space (the low word of its
 * image in the process set: with -x followfork a child shares its
 * parent's until it execs), read by the programs at run time
 * (dt_bpf_cg_ustack_cfi()).  The rows are made again after an exec or a
 * library load (the process events below, which then also come without
 * pid probes, but stop the process only for them), and the rows of
 * processes that have gone are dropped then.  Without the kernel
 * features (bpf_loop() among them: the walk's search is unrolled over
 * DT_CFI_MAXROWS, too many branches for the verifier to walk once per
 * frame), user stacks there follow frame pointers.
 */
/* Whether any clause takes a user stack (of any probe's process). */
static bool
dt_bpf_plans_want_ustack(const dt_bpf_engine_t *be)
{
	for (uint32_t i = 0; i < be->be_nplans; i++) {
		if (dt_bpf_wants_ustack(be, &be->be_plans[i]))
			return true;
	}
	return false;
}

static bool
dt_bpf_ustk_wanted(dtrace_hdl_t *dtp, dt_bpf_engine_t *be)
{
	if (dtp->dt_nprocs == 0 || !dt_linux_feature(DT_LF_TASK_PT_REGS) ||
	    !dt_linux_feature(DT_LF_MAP_IN_MAP) ||
	    !dt_linux_feature(DT_LF_BPF_LOOP))
		return false;
	for (uint32_t i = 0; i < be->be_nplans; i++) {
		if (!be->be_plans[i].pl_mech->bm_user &&
		    dt_bpf_wants_ustack(be, &be->be_plans[i]))
			return true;
	}
	return false;
}

/* Make (or make again) the rows of pid; forget those of the dead. */
static void
dt_bpf_ustk_add(dt_bpf_engine_t *be, int pid)
{
	uint32_t key = (uint32_t) pid, n, j = 0;
	uint64_t gen;
	int fd, *p;
	bool have = false;

	for (uint32_t i = 0; i < be->be_nustk; i++) {
		int k = be->be_ustk_pids[i];

		if (k != pid && kill(k, 0) != 0 && errno == ESRCH) {
			uint32_t dk = (uint32_t) k;

			(void) bpf_map_delete_elem(be->be_ustk_fd, &dk);
			continue;
		}
		have |= k == pid;
		be->be_ustk_pids[j++] = k;
	}
	be->be_nustk = j;
	fd = dt_bpf_rows(pid, BPF_F_INNER_MAP | BPF_F_MMAPABLE,
	    DT_CFI_MAXROWS, &n);
	if (fd < 0 || bpf_map_update_elem(be->be_ustk_fd, &key, &fd,
	    BPF_ANY) != 0) {
		/* Rows of the old image are wrong: none is better. */
		(void) bpf_map_delete_elem(be->be_ustk_fd, &key);
		have = true;	/* nothing new to remember */
	}
	/* After the rows: a walk with the new generation finds them. */
	gen = ++be->be_ugen;
	if (be->be_ugen_fd >= 0 && bpf_map_update_elem(be->be_ugen_fd, &key,
	    &gen, BPF_ANY) != 0)
		(void) bpf_map_delete_elem(be->be_ugen_fd, &key);
	if (!have && (p = realloc(be->be_ustk_pids,
	    (be->be_nustk + 1) * sizeof (int))) != NULL) {
		be->be_ustk_pids = p;
		p[be->be_nustk++] = pid;
	}
	if (fd >= 0)
		(void) close(fd);	/* the hash of maps holds it */
}

static int
dt_bpf_ustk_start(dtrace_hdl_t *dtp, dt_bpf_engine_t *be)
{
	LIBBPF_OPTS(bpf_map_create_opts, iopts,
	    .map_flags = BPF_F_INNER_MAP | BPF_F_MMAPABLE);
	LIBBPF_OPTS(bpf_map_create_opts, oopts);
	int ifd, fd;

	if ((ifd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "dt_ucfi", 4,
	    sizeof (dt_cfi_row_t), 1, &iopts)) < 0)
		return dt_bpf_mapfd(dtp, be, ifd, "unwind rows");
	oopts.inner_map_fd = (uint32_t) ifd;
	fd = bpf_map_create(BPF_MAP_TYPE_HASH_OF_MAPS, "dt_ustk", 4, 4,
	    DT_BPF_PROCSET_MAX, &oopts);
	(void) close(ifd);
	if ((be->be_ustk_fd = dt_bpf_mapfd(dtp, be, fd, "user stack")) < 0)
		return -1;
	/* The cache of rows found (ps_ucache_fd); without it, no cache. */
	fd = bpf_map_create(BPF_MAP_TYPE_HASH, "dt_ugen", 4, 8,
	    DT_BPF_PROCSET_MAX, NULL);
	if (fd >= 0 && (ifd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "dt_ucache",
	    4, 32 * DT_BPF_UCACHE_N, (uint32_t) be->be_ncpus, NULL)) >= 0) {
		be->be_ugen_fd = dt_bpf_mapfd(dtp, be, fd, "user stack");
		be->be_ucache_fd = dt_bpf_mapfd(dtp, be, ifd, "user stack");
	} else if (fd >= 0) {
		(void) close(fd);
	}
	for (uint32_t i = 0; i < dtp->dt_nprocs; i++)
		dt_bpf_ustk_add(be, dt_proc_pid(dtp, i));
	return 0;
}

int
dt_bpf_gen_load(dtrace_hdl_t *dtp, dt_bpf_engine_t *be, dt_bpf_plan_t *pl,
    const dt_bpf_progspec_t *ps, enum bpf_prog_type type,
    const dt_bpf_target_t *tg)
{
	const dt_probe_t *prp = pl->pl_probes[0];
	char err[512];
	dt_bpf_buf_t b;
	int rc;

	dt_bpf_buf_init(&b);
	if (dt_bpf_gen(&be->be_lay, ps, &b, err, sizeof (err)) != 0) {
		dt_bpf_buf_fini(&b);
		return dt_bpf_fail(dtp, EDT_NOTSUP, "%s:%s:%s:%s: %s",
		    prp->pr_prov->pv_name, prp->pr_mod, prp->pr_func,
		    prp->pr_name, err);
	}
	rc = dt_bpf_load(dtp, be, pl, type, tg, &b);
	dt_bpf_buf_fini(&b);
	return rc;
}

static int
dt_bpf_build(dtrace_hdl_t *dtp, dt_bpf_engine_t *be, dt_bpf_plan_t *pl)
{
	const dt_bpf_mech_t *mech = pl->pl_mech;
	dt_bpf_layout_t *lay = &be->be_lay;
	const dt_probe_t *prp = pl->pl_probes[0];
	const dt_bpf_plan_t *epl;
	dt_bpf_build_t bb;
	dt_bpf_progspec_t *ps = &bb.bb_ps;
	int rc;

	memset(&bb, 0, sizeof (bb));
	bb.bb_tg.tg_obj_fd = -1;
	ps->ps_nclauses = pl->pl_nstmts;
	ps->ps_stmts = pl->pl_stmts;
	ps->ps_epids = pl->pl_epids;
	ps->ps_id = prp->pr_id;
	ps->ps_table_fd = -1;
	ps->ps_tick_fd = -1;
	ps->ps_ustk = be->be_ustk_fd >= 0;
	ps->ps_ustk_fd = be->be_ustk_fd;
	ps->ps_ugen_fd = be->be_ugen_fd;
	ps->ps_ucache_fd = be->be_ucache_fd;
	ps->ps_procset_fd = be->be_procset_fd;
	ps->ps_prov = dt_bpf_layout_const(lay, prp->pr_prov->pv_name);
	ps->ps_mod = dt_bpf_layout_const(lay, prp->pr_mod);
	ps->ps_func = dt_bpf_layout_const(lay, prp->pr_func);
	ps->ps_name = dt_bpf_layout_const(lay, prp->pr_name);
	if (pl->pl_table) {
		ps->ps_table_fd = pl->pl_table_fd;
		ps->ps_table_max = pl->pl_table_max != 0 ? pl->pl_table_max :
		    pl->pl_nprobes;
	}
	if (mech->bm_spec(dtp, be, pl, &bb) != 0) {
		if (mech->bm_unspec != NULL)
			mech->bm_unspec(&bb);
		return -1;
	}
	if (prp->pr_id != DT_PROBE_ID_ERROR &&
	    (epl = dt_bpf_find(be, DT_PROBE_ID_ERROR)) != NULL) {
		const dt_probe_t *eprp = epl->pl_probes[0];

		ps->ps_nerr = epl->pl_nstmts;
		ps->ps_err_stmts = epl->pl_stmts;
		ps->ps_err_epids = epl->pl_epids;
		ps->ps_err_id = eprp->pr_id;
		ps->ps_err_prov = dt_bpf_layout_const(lay,
		    eprp->pr_prov->pv_name);
		ps->ps_err_mod = dt_bpf_layout_const(lay, eprp->pr_mod);
		ps->ps_err_func = dt_bpf_layout_const(lay, eprp->pr_func);
		ps->ps_err_name = dt_bpf_layout_const(lay, eprp->pr_name);
	}
	rc = dt_bpf_gen_load(dtp, be, pl, ps, bb.bb_type, bb.bb_tgp);
	if (rc >= 0) {
		pl->pl_fd = rc;
		if (mech->bm_loaded != NULL &&
		    mech->bm_loaded(dtp, be, pl, ps) != 0)
			rc = -1;
	}
	if (mech->bm_unspec != NULL)
		mech->bm_unspec(&bb);
	return rc < 0 ? -1 : 0;
}

/*
 * The probe table of a group program: syscall number -> probe, or for
 * a group of pid probes, the uprobe's cookie (the probe's index) ->
 * probe.
 */
static int
dt_bpf_table(dtrace_hdl_t *dtp, dt_bpf_engine_t *be, dt_bpf_plan_t *pl)
{
	size_t vsz = dt_bpf_ptab_size(pl->pl_nstmts);
	uint32_t max = pl->pl_table_max != 0 ? pl->pl_table_max :
	    pl->pl_nprobes;
	dt_bpf_layout_t *lay = &be->be_lay;
	dt_bpf_ptab_t *pt;
	int fd;

	fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "dt_ptab", 4, (uint32_t) vsz,
	    max, NULL);
	if ((pl->pl_table_fd = dt_bpf_mapfd(dtp, be, fd, "probe table")) < 0)
		return -1;
	if ((pt = calloc(1, vsz)) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	for (uint32_t p = 0; p < pl->pl_nprobes; p++) {
		const dt_probe_t *prp = pl->pl_probes[p];
		uint32_t key;

		memset(pt, 0, vsz);
		key = pl->pl_mech->bm_tabent(pl, p, pt);
		pt->pt_id = prp->pr_id;
		pt->pt_mod = dt_bpf_layout_const(lay, prp->pr_mod);
		pt->pt_func = dt_bpf_layout_const(lay, prp->pr_func);
		pt->pt_name = dt_bpf_layout_const(lay, prp->pr_name);
		for (uint32_t j = 0; j < pl->pl_nstmts; j++)
			pt->pt_epids[j] = pl->pl_epids[p * pl->pl_nstmts + j];
		if (key >= max || bpf_map_update_elem(fd, &key, pt, 0) != 0) {
			free(pt);
			return dt_bpf_fail(dtp, EDT_NOTSUP, "%s:%s:%s:%s: no "
			    "place in the probe table", prp->pr_prov->pv_name,
			    prp->pr_mod, prp->pr_func, prp->pr_name);
		}
	}
	free(pt);
	return 0;
}

/*
 * Following processes.  The processes whose pid and USDT probes fire are a
 * hash map from tgid to the image they run, (generation << 32 | pid):
 * the pid<N> provider resolved the probe in that image of process N (its
 * generation counts N's execs, dt_prov_pid_gen()), and a probe fires only
 * in the processes mapped to its own image (dt_bpf_gen.c).  The map is
 * seeded with the processes of -c/-p and those the probes name; with
 * -x followfork a program on sched:sched_process_fork gives every child
 * of a member its parent's image, before the child runs, so it misses no
 * probe.  (Threads are added too; harmlessly, as probes look up the
 * thread group ID.)
 *
 * When the clauses name probes of those processes (pid$target, a USDT
 * provider myprov$target), two more programs tell the consumer, through
 * a ring buffer of their own, of a change that the descriptions must be
 * matched against again:
 *
 *	exec	sched:sched_process_exec of a member (followfork): its
 *		image becomes 0 (no probe fires in it), then its own once
 *		the descriptions, with its pid as $target, are resolved
 *		against the new executable
 *	dlopen	a uprobe on the dynamic linker's _dl_debug_state, which it
 *		calls when the list of libraries changes: the files mapped
 *		since are resolved for the process whose image it runs
 *
 * Either one stops the process (bpf_send_signal(SIGSTOP), delivered before
 * it returns to user space: before the new image runs an instruction, or
 * dlopen() returns) until dt_bpf_procev() has placed the new probes, then
 * continues it (SIGCONT): no probe is missed.  (Not a process under a
 * debugger: gdb would report the SIGSTOP and hold it.  Then no process
 * is stopped, and a probe may miss the first moments of a library.)
 * The cost to the process is
 * the stop itself: its parent may see it (waitpid(WUNTRACED), SIGCHLD
 * with CLD_STOPPED / CLD_CONTINUED) and a SIGCONT handler runs.  When
 * tracing stops, the programs are detached first and every process still
 * held is continued.
 */
#define DT_BPF_EV_EXEC 1
#define DT_BPF_EV_DLOPEN 2
#define DT_BPF_EV_MAX 4096	/* events waiting, at most */

static int
dt_bpf_procset_add(dt_bpf_engine_t *be, int pid)
{
	uint32_t key = (uint32_t) pid;
	uint64_t img = (uint64_t) dt_prov_pid_gen(be->be_dtp, pid) << 32 |
	    key;

	return bpf_map_update_elem(be->be_procset_fd, &key, &img, BPF_ANY);
}

/*
 * Whether probes are placed for an event of this kind (pid and USDT
 * probes; an exec only with followfork), and whether it stops its
 * process until they are: not under a debugger (be_nostop).  Events for
 * the unwind rows alone let it run.
 */
static bool
dt_bpf_ev_places(const dt_bpf_engine_t *be, uint32_t kind)
{
	return kind == DT_BPF_EV_EXEC ? be->be_follow : be->be_late;
}

static bool
dt_bpf_ev_stops(const dt_bpf_engine_t *be, uint32_t kind)
{
	return !be->be_nostop && dt_bpf_ev_places(be, kind);
}

/* Continue the process of an event that stopped it. */
static void
dt_bpf_ev_cont(const dt_bpf_engine_t *be, uint64_t ev)
{
	if (dt_bpf_ev_stops(be, (uint32_t) (ev >> 32)))
		(void) kill((pid_t) (uint32_t) ev, SIGCONT);
}

/*
 * The program of a process event: if the current process is in the set,
 * [exec: set its image to 0,] [stop it,] and send (pid, kind) to the
 * ring.
 */
static int
dt_bpf_procev_prog(dt_bpf_engine_t *be, uint32_t kind,
    enum bpf_prog_type type)
{
	struct bpf_insn prog[48];
	uint32_t n = 0, jeq;

	prog[n++] = DT_BPF_MOV64_REG(DT_R6, DT_R1);
	prog[n++] = DT_BPF_CALL(BPF_FUNC_get_current_pid_tgid);
	prog[n++] = DT_BPF_ALU64_IMM(BPF_RSH, DT_R0, 32);
	prog[n++] = DT_BPF_STX_MEM(BPF_W, DT_FP, DT_R0, -8);
	prog[n++] = DT_BPF_ST_MEM(BPF_W, DT_FP, -4, (int32_t) kind);
	prog[n++] = DT_BPF_LD_IMM64_LO(DT_R1, BPF_PSEUDO_MAP_FD,
	    be->be_procset_fd);
	prog[n++] = DT_BPF_LD_IMM64_HI(0);
	prog[n++] = DT_BPF_MOV64_REG(DT_R2, DT_FP);
	prog[n++] = DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, -8);
	prog[n++] = DT_BPF_CALL(BPF_FUNC_map_lookup_elem);
	jeq = n++;		/* to the exit, set below */
	if (kind == DT_BPF_EV_EXEC)
		prog[n++] = DT_BPF_ST_MEM(BPF_DW, DT_R0, 0, 0);
	if (dt_bpf_ev_stops(be, kind)) {
		prog[n++] = DT_BPF_MOV64_IMM(DT_R1, SIGSTOP);
		prog[n++] = DT_BPF_CALL(BPF_FUNC_send_signal);
	}
	if (be->be_lay.bl_perfbuf) {
		/* With the records, behind a prefix no CPU number has. */
		prog[n++] = DT_BPF_ST_MEM(BPF_DW, DT_FP, -16, -1);
		prog[n++] = DT_BPF_MOV64_REG(DT_R1, DT_R6);
		prog[n++] = DT_BPF_LD_IMM64_LO(DT_R2, BPF_PSEUDO_MAP_FD,
		    be->be_ev_fd);
		prog[n++] = DT_BPF_LD_IMM64_HI(0);
		prog[n++] = DT_BPF_MOV32_IMM(DT_R3, -1);
		prog[n++] = DT_BPF_MOV64_REG(DT_R4, DT_FP);
		prog[n++] = DT_BPF_ALU64_IMM(BPF_ADD, DT_R4, -16);
		prog[n++] = DT_BPF_MOV64_IMM(DT_R5, 16);
		prog[n++] = DT_BPF_CALL(BPF_FUNC_perf_event_output);
	} else {
		prog[n++] = DT_BPF_LD_IMM64_LO(DT_R1, BPF_PSEUDO_MAP_FD,
		    be->be_ev_fd);
		prog[n++] = DT_BPF_LD_IMM64_HI(0);
		prog[n++] = DT_BPF_MOV64_REG(DT_R2, DT_FP);
		prog[n++] = DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, -8);
		prog[n++] = DT_BPF_MOV64_IMM(DT_R3, 8);
		prog[n++] = DT_BPF_MOV64_IMM(DT_R4, 0);
		prog[n++] = DT_BPF_CALL(BPF_FUNC_ringbuf_output);
	}
	prog[jeq] = DT_BPF_JMP_IMM(BPF_JEQ, DT_R0, 0, (int16_t) (n - jeq - 1));
	prog[n++] = DT_BPF_MOV64_IMM(DT_R0, 0);
	prog[n++] = DT_BPF_EXIT();
	return bpf_prog_load(type, kind == DT_BPF_EV_EXEC ? "dtrace_exec" :
	    "dtrace_dlopen", "GPL", prog, n, NULL);
}

static int
dt_bpf_ev_link(dt_bpf_engine_t *be, int fd)
{
	int *p = realloc(be->be_ev_links, (be->be_nev_links + 1) *
	    sizeof (int));

	if (p == NULL) {
		(void) close(fd);
		return -1;
	}
	be->be_ev_links = p;
	p[be->be_nev_links++] = fd;
	return 0;
}

/* Events from the ring: kept until dt_bpf_procev() handles them. */
static int
dt_bpf_ev_record(void *ctx, void *data, size_t size)
{
	dt_bpf_engine_t *be = ctx;
	uint64_t *p, ev;

	if (size < sizeof (ev) || be->be_nevs >= DT_BPF_EV_MAX)
		return 0;
	memcpy(&ev, data, sizeof (ev));
	if ((p = realloc(be->be_evs, (be->be_nevs + 1) * sizeof (*p))) ==
	    NULL) {
		dt_bpf_ev_cont(be, ev);
		return 0;
	}
	be->be_evs = p;
	p[be->be_nevs++] = ev;
	return 0;
}

/*
 * The dynamic linker's breakpoint in the processes of -c/-p: one uprobe
 * per file, for every process (followfork) or each process.
 */
static int
dt_bpf_watch_dlopen(dtrace_hdl_t *dtp, dt_bpf_engine_t *be)
{
	char path[PATH_MAX], seen[PATH_MAX] = "";
	bool all = be->be_follow || be->be_ustk_follow;

	for (uint32_t i = 0; i < dtp->dt_nprocs; i++) {
		int pid = dt_proc_pid(dtp, i), fd;
		uint64_t off;

		if (dt_pid_rtld_brk(pid, path, sizeof (path), &off) != 0 ||
		    (all && strcmp(path, seen) == 0))
			continue;	/* static: no libraries to load */
		(void) snprintf(seen, sizeof (seen), "%s", path);
		fd = dt_bpf_attach_uprobe(be->be_ev_progs[1], path, off,
		    all ? -1 : pid, 0, 0);
		if (fd < 0 || dt_bpf_ev_link(be, fd) != 0)
			return dt_bpf_fail(dtp, EDT_NOTSUP, "watching the "
			    "libraries of pid %d: %s", pid, strerror(errno));
	}
	return 0;
}

static int
dt_bpf_follow(dtrace_hdl_t *dtp, dt_bpf_engine_t *be)
{
	struct bpf_insn prog[32];
	uint32_t n = 0, jeq;
	int fd, child;
	bool events = be->be_late || be->be_ustk_fd >= 0 || be->be_usnap;
	bool forks = be->be_follow || be->be_ustk_follow;

	if (!forks && !events)
		return 0;
	fd = bpf_map_create(BPF_MAP_TYPE_HASH, "dt_procset", 4, 8,
	    DT_BPF_PROCSET_MAX, NULL);
	if ((be->be_procset_fd = dt_bpf_mapfd(dtp, be, fd, "process set")) < 0)
		return -1;
	for (uint32_t i = 0; i < dtp->dt_nprocs; i++)
		(void) dt_bpf_procset_add(be, dt_proc_pid(dtp, i));
	for (uint32_t i = 0; i < be->be_nplans; i++) {
		const dt_bpf_plan_t *pl = &be->be_plans[i];

		for (uint32_t p = 0; pl->pl_mech->bm_pid != NULL &&
		    p < pl->pl_nprobes; p++) {
			int pid = pl->pl_mech->bm_pid(pl->pl_probes[p]);

			if (pid > 0)
				(void) dt_bpf_procset_add(be, pid);
		}
	}
	if (events && be->be_lay.bl_perfbuf) {
		be->be_ev_fd = be->be_lay.bl_rb_fd;
	} else if (events) {
		fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "dt_procev", 0, 0,
		    (uint32_t) sysconf(_SC_PAGESIZE) * 4, NULL);
		if ((be->be_ev_fd = dt_bpf_mapfd(dtp, be, fd,
		    "process event")) < 0)
			return -1;
	}
	if (events) {
		if (((be->be_follow || be->be_ustk_fd >= 0 ||
		    be->be_usnap) &&
		    (be->be_ev_progs[0] = dt_bpf_procev_prog(be,
		    DT_BPF_EV_EXEC, BPF_PROG_TYPE_TRACEPOINT)) < 0) ||
		    (be->be_ev_progs[1] = dt_bpf_procev_prog(be,
		    DT_BPF_EV_DLOPEN, BPF_PROG_TYPE_KPROBE)) < 0)
			return dt_bpf_fail(dtp, EDT_NOTSUP, "loading the "
			    "program that follows execs and library loads: "
			    "%s", strerror(errno));
	}
	if (!forks)
		return 0;
	if ((child = dt_bpf_tp_field("sched", "sched_process_fork",
	    "child_pid")) < 0)
		return dt_bpf_fail(dtp, EDT_NOTSUP, "followfork needs the "
		    "sched:sched_process_fork tracepoint: %s", strerror(errno));

	/* v = procset[current tgid]; if (v) procset[child_pid] = *v; */
	prog[n++] = DT_BPF_MOV64_REG(DT_R6, DT_R1);
	prog[n++] = DT_BPF_CALL(BPF_FUNC_get_current_pid_tgid);
	prog[n++] = DT_BPF_ALU64_IMM(BPF_RSH, DT_R0, 32);
	prog[n++] = DT_BPF_STX_MEM(BPF_W, DT_FP, DT_R0, -4);
	prog[n++] = DT_BPF_LD_IMM64_LO(DT_R1, BPF_PSEUDO_MAP_FD, be->be_procset_fd);
	prog[n++] = DT_BPF_LD_IMM64_HI(0);
	prog[n++] = DT_BPF_MOV64_REG(DT_R2, DT_FP);
	prog[n++] = DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, -4);
	prog[n++] = DT_BPF_CALL(BPF_FUNC_map_lookup_elem);
	jeq = n++;		/* to the exit, set below */
	prog[n++] = DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R0, 0);
	prog[n++] = DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, -16);
	prog[n++] = DT_BPF_LDX_MEM(BPF_W, DT_R1, DT_R6, (int16_t) child);
	prog[n++] = DT_BPF_STX_MEM(BPF_W, DT_FP, DT_R1, -8);
	prog[n++] = DT_BPF_LD_IMM64_LO(DT_R1, BPF_PSEUDO_MAP_FD, be->be_procset_fd);
	prog[n++] = DT_BPF_LD_IMM64_HI(0);
	prog[n++] = DT_BPF_MOV64_REG(DT_R2, DT_FP);
	prog[n++] = DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, -8);
	prog[n++] = DT_BPF_MOV64_REG(DT_R3, DT_FP);
	prog[n++] = DT_BPF_ALU64_IMM(BPF_ADD, DT_R3, -16);
	prog[n++] = DT_BPF_MOV64_IMM(DT_R4, BPF_ANY);
	prog[n++] = DT_BPF_CALL(BPF_FUNC_map_update_elem);
	prog[jeq] = DT_BPF_JMP_IMM(BPF_JEQ, DT_R0, 0, (int16_t) (n - jeq - 1));
	prog[n++] = DT_BPF_MOV64_IMM(DT_R0, 0);
	prog[n++] = DT_BPF_EXIT();

	if ((be->be_fork_fd = bpf_prog_load(BPF_PROG_TYPE_TRACEPOINT,
	    "dtrace_fork", "GPL", prog, n, NULL)) < 0 ||
	    (be->be_fork_link = dt_bpf_attach_tracepoint(be->be_fork_fd,
	    "sched", "sched_process_fork")) < 0)
		return dt_bpf_fail(dtp, EDT_NOTSUP, "followfork: tracking "
		    "sched:sched_process_fork: %s", strerror(errno));
	return 0;
}

/* Watch execs and library loads, once every probe is in place. */
static int
dt_bpf_procev_start(dtrace_hdl_t *dtp, dt_bpf_engine_t *be)
{
	int fd;

	if (!be->be_late && be->be_ustk_fd < 0 && !be->be_usnap)
		return 0;
	if (be->be_rb != NULL && ring_buffer__add(be->be_rb, be->be_ev_fd,
	    dt_bpf_ev_record, be) != 0)
		return dt_bpf_fail(dtp, EDT_NOTSUP, "process event ring "
		    "buffer: %s", strerror(errno));
	if (be->be_ev_progs[0] >= 0) {
		fd = dt_bpf_attach_tracepoint(be->be_ev_progs[0], "sched",
		    "sched_process_exec");
		if (fd < 0 || dt_bpf_ev_link(be, fd) != 0)
			return dt_bpf_fail(dtp, EDT_NOTSUP, "followfork: "
			    "tracking sched:sched_process_exec: %s",
			    strerror(errno));
	}
	return dt_bpf_watch_dlopen(dtp, be);
}

/*
 * Handle the events read: resolve the descriptions against what each
 * process runs now, place the new probes, give an exec'd process its
 * image, and continue it.  A failure is reported in one line; the
 * process is continued all the same.
 */
static void
dt_bpf_procev(dtrace_hdl_t *dtp, dt_bpf_engine_t *be)
{
	for (uint32_t i = 0; i < be->be_nevs; i++) {
		uint32_t key = (uint32_t) be->be_evs[i];
		bool exec = (be->be_evs[i] >> 32) == DT_BPF_EV_EXEC;
		int pid = (int) key, owner = pid;
		uint64_t img;

		if (!exec && bpf_map_lookup_elem(be->be_procset_fd, &key,
		    &img) == 0 && (uint32_t) img != 0)
			owner = (int) (uint32_t) img;
		if (dt_bpf_ev_places(be, (uint32_t) (be->be_evs[i] >> 32)) &&
		    (dt_prov_pid_refresh(dtp, owner, pid, exec) != 0 ||
		    dt_prov_usdt_refresh(dtp, owner, pid, exec) != 0 ||
		    dt_work_rematch(dtp, owner) != 0))
			(void) fprintf(stderr, "dtrace: pid %d: probes not "
			    "placed after %s: %s\n", pid, exec ? "exec" :
			    "dlopen", dt_bpf_engine_detail(dtp)[0] != '\0' ?
			    dt_bpf_engine_detail(dtp) : dtrace_errmsg(dtp,
			    dtrace_errno(dtp)));
		/* Its new addresses resolve even after it has exited. */
		dt_linux_usym_refresh(pid);
		/*
		 * The rows of an address space: a child that has not exec'd
		 * shares its parent's, so its own library loads wait for its
		 * exec (the libraries it maps meanwhile fall back to frame
		 * pointers).
		 */
		if (be->be_ustk_fd >= 0 && owner == pid)
			dt_bpf_ustk_add(be, pid);
		if (exec)
			(void) dt_bpf_procset_add(be, pid);
		dt_bpf_ev_cont(be, be->be_evs[i]);
	}
	dt_bpf_urefused_flush();
	be->be_nevs = 0;
}

/* Tracing ends: no more stops; continue every process still held. */
static void
dt_bpf_procev_stop(dt_bpf_engine_t *be)
{
	/* The dynamic linker's uprobe too: out whatever signal comes. */
	if (be->be_nev_links > 0)
		dt_bpf_close_links_quietly(be->be_ev_links,
		    be->be_nev_links);
	free(be->be_ev_links);
	be->be_ev_links = NULL;
	be->be_nev_links = 0;
	if (be->be_ev_fd >= 0)
		dt_bpf_consume(be);
	for (uint32_t i = 0; i < be->be_nevs; i++)
		dt_bpf_ev_cont(be, be->be_evs[i]);
	free(be->be_evs);
	be->be_evs = NULL;
	be->be_nevs = 0;
}

/*
 * Probes enabled while tracing runs (dt_work_rematch()): be_eps[first..]
 * are pid and USDT probes of a process that changed.  Each new probe gets
 * its program, as at eo_go; the statements are in the layout already
 * (every one is, when clauses name processes) and the probe names go in
 * the room the consts keep for them.  A probe a program serves already
 * (one a clause matched late) keeps its clauses.
 */
static int
dt_bpf_late(dtrace_hdl_t *dtp, dt_bpf_engine_t *be, uint32_t first)
{
	uint32_t p0 = be->be_nplans;

	/* Libraries have come (or the image changed): rows made anew. */
	be->be_nucfi = 0;
	for (uint32_t e = first; e < be->be_neps; e++) {
		dt_probe_t *prp = be->be_eps[e]->ep_probe;
		const dt_bpf_mech_t *mech;

		if (dt_bpf_planned(be, prp))
			continue;
		if ((mech = dt_bpf_mech_of(dtp, prp)) == NULL)
			return -1;
		if (!mech->bm_late)
			return dt_bpf_fail(dtp, EDT_NOTSUP, "%s:%s:%s:%s "
			    "cannot be enabled while tracing",
			    prp->pr_prov->pv_name, prp->pr_mod, prp->pr_func,
			    prp->pr_name);
		if (dt_bpf_plan_one(dtp, be, prp, mech) != 0)
			return -1;
	}
	for (uint32_t i = p0; i < be->be_nplans; i++) {
		dt_bpf_plan_t *pl = &be->be_plans[i];
		dt_bpf_layout_t *lay = &be->be_lay;

		if (dt_bpf_plan_clauses(be, pl) != 0)
			return dt_set_errno(dtp, EDT_NOMEM);
		for (uint32_t p = 0; p < pl->pl_nprobes; p++) {
			const dt_probe_t *prp = pl->pl_probes[p];

			if (dt_bpf_layout_const(lay, prp->pr_prov->pv_name) ==
			    UINT32_MAX || dt_bpf_layout_const(lay,
			    prp->pr_mod) == UINT32_MAX ||
			    dt_bpf_layout_const(lay, prp->pr_func) ==
			    UINT32_MAX || dt_bpf_layout_const(lay,
			    prp->pr_name) == UINT32_MAX)
				return dt_bpf_fail(dtp, EDT_NOTSUP, "no room "
				    "left for the names of probes enabled "
				    "while tracing");
		}
		if ((pl->pl_table && dt_bpf_table(dtp, be, pl) != 0) ||
		    dt_bpf_build(dtp, be, pl) != 0 ||
		    dt_bpf_attach(dtp, be, pl) != 0)
			return -1;
	}
	return 0;
}

/*
 * Attaching.
 */

int
dt_bpf_addlink(dt_bpf_plan_t *pl, int fd)
{
	int *p = realloc(pl->pl_links, (pl->pl_nlinks + 1) * sizeof (int));

	if (p == NULL) {
		(void) close(fd);
		return -1;
	}
	pl->pl_links = p;
	p[pl->pl_nlinks++] = fd;
	return 0;
}

/*
 * A program the kernel refused, to load or to attach: true when its
 * mechanism serves the probe another way now, to be built again.
 */
static bool
dt_bpf_fallback(dtrace_hdl_t *dtp, dt_bpf_plan_t *pl)
{
	return pl->pl_mech->bm_fallback != NULL &&
	    pl->pl_mech->bm_fallback(dtp, pl);
}

int
dt_bpf_attach_fail(dtrace_hdl_t *dtp, const dt_bpf_plan_t *pl)
{
	const dt_probe_t *prp = pl->pl_probes[0];

	return dt_bpf_fail(dtp, EDT_NOTSUP, "attaching %s:%s:%s:%s: %s",
	    prp->pr_prov->pv_name, prp->pr_mod, prp->pr_func, prp->pr_name,
	    errno == DT_BPF_ENOTSUPP ? "the kernel does not support it here" :
	    strerror(errno));
}

static int
dt_bpf_attach(dtrace_hdl_t *dtp, dt_bpf_engine_t *be, dt_bpf_plan_t *pl)
{
	return pl->pl_mech->bm_attach != NULL ?
	    pl->pl_mech->bm_attach(dtp, be, pl) : 0;
}

/*
 * Records.
 */

static int
dt_bpf_rb_record(void *ctx, void *data, size_t size)
{
	dt_bpf_engine_t *be = ctx;
	dt_bpf_stage_t *sg;
	uint32_t cpu;

	if (size < DT_BPF_RECPREFIX + sizeof (dt_rechdr_t))
		return 0;
	memcpy(&cpu, data, sizeof (cpu));
	sg = &be->be_stage[cpu < (uint32_t) be->be_ncpus ? cpu : 0];
	size -= DT_BPF_RECPREFIX;
	if (sg->sg_len + size > sg->sg_cap) {
		size_t cap = sg->sg_cap ? sg->sg_cap : 65536;
		unsigned char *p;

		while (cap < sg->sg_len + size)
			cap *= 2;
		if ((p = realloc(sg->sg_data, cap)) == NULL)
			return 0;	/* counted by nobody: rare */
		sg->sg_data = p;
		sg->sg_cap = cap;
	}
	memcpy(sg->sg_data + sg->sg_len, (char *) data + DT_BPF_RECPREFIX,
	    size);
	sg->sg_len += size;
	return 0;
}

/*
 * A sample of the perf buffer (no ring buffer): a record, whose size
 * the kernel has rounded up (a sample's raw data ends on an 8-byte
 * boundary, counting its 4-byte size), so it is cut back to what the
 * record header says; or a process event, behind an all-ones prefix.
 */
static void
dt_bpf_pb_record(void *ctx, int cpu, void *data, uint32_t size)
{
	dt_rechdr_t hdr;
	uint64_t prefix;

	(void) cpu;	/* the prefix has it, as in the ring buffer */
	if (size < sizeof (prefix))
		return;
	memcpy(&prefix, data, sizeof (prefix));
	if (prefix == UINT64_MAX) {
		(void) dt_bpf_ev_record(ctx, (char *) data + sizeof (prefix),
		    size - sizeof (prefix));
		return;
	}
	if (size < DT_BPF_RECPREFIX + sizeof (hdr))
		return;
	memcpy(&hdr, (char *) data + DT_BPF_RECPREFIX, sizeof (hdr));
	if (hdr.rh_size <= size - DT_BPF_RECPREFIX - sizeof (hdr))
		size = DT_BPF_RECPREFIX + sizeof (hdr) + hdr.rh_size;
	(void) dt_bpf_rb_record(ctx, data, size);
}

/* Everything the programs have written so far, into the stages. */
static void
dt_bpf_consume(dt_bpf_engine_t *be)
{
	if (be->be_rb != NULL)
		(void) ring_buffer__consume(be->be_rb);
	if (be->be_pb != NULL)
		(void) perf_buffer__consume(be->be_pb);
}

/* Run a BEGIN/END/ERROR program now, in this thread. */
static int
dt_bpf_run(dt_bpf_plan_t *pl, const uint64_t *args, int nargs)
{
	uint64_t ctx[DT_BPF_NARGS];
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = ctx,
	    .ctx_size_in = sizeof (ctx));

	memset(ctx, 0, sizeof (ctx));
	for (int i = 0; i < nargs && i < DT_BPF_NARGS; i++)
		ctx[i] = args[i];
	return bpf_prog_test_run_opts(pl->pl_fd, &opts);
}

static dt_bpf_plan_t *
dt_bpf_find(dt_bpf_engine_t *be, uint32_t id)
{
	for (uint32_t i = 0; i < be->be_nplans; i++) {
		if (be->be_plans[i].pl_mech->bm_demand &&
		    be->be_plans[i].pl_probes[0]->pr_id == id)
			return &be->be_plans[i];
	}
	return NULL;
}

int
dt_bpf_engine_fire(dtrace_hdl_t *dtp, uint32_t id, const uint64_t *args,
    int nargs)
{
	dt_bpf_engine_t *be = dt_bpf(dtp);
	dt_bpf_plan_t *pl;

	if (be == NULL || !be->be_active)
		return dt_set_errno(dtp, EDT_NOTSUP);
	if ((pl = dt_bpf_find(be, id)) == NULL)
		return 0;
	if (dt_bpf_run(pl, args, nargs) != 0)
		return dt_bpf_fail(dtp, EDT_NOTSUP, "running probe %u: %s",
		    (unsigned) id, strerror(errno));
	return 0;
}

static int
dt_bpf_go(dtrace_hdl_t *dtp)
{
	dt_bpf_engine_t *be = dt_bpf(dtp);
	dt_bpf_layout_t *lay = &be->be_lay;
	dt_bpf_progress_t pg;
	uint32_t nprobes = 0, done = 0;
	char err[512];

	if (be->be_active)
		return dt_set_errno(dtp, EDT_ACTIVE);
	if (dt_bpf_plan(dtp, be) != 0)
		return -1;
	/*
	 * Clauses naming the processes of -c/-p are matched again when one
	 * loads a library or (followfork) execs: every statement is laid
	 * out now, and the consts keep room for the new probes' names.
	 */
	be->be_late = dtp->dt_nprocs > 0 && dt_work_names_procs(dtp) &&
	    dt_linux_feature(DT_LF_UPROBE);
	if (be->be_late && dtp->dt_options[DT_OPT_FOLLOWFORK] !=
	    DTRACEOPT_UNSET)
		be->be_follow = true;
	if (be->be_late && be->be_prog == NULL)
		be->be_prog = &dtp->dt_prog;
	dt_bpf_layout_init(lay, be->be_prog,
	    (uint32_t) dtp->dt_options[DT_OPT_STRSIZE],
	    (uint64_t) dtp->dt_options[DT_OPT_DYNVARSIZE],
	    (uint64_t) dtp->dt_options[DT_OPT_AGGSIZE]);
	lay->bl_nspec = (uint32_t) dtp->dt_options[DT_OPT_NSPEC];
	/* (Too large a scratch is refused when the maps are laid out.) */
	if (dtp->dt_options[DT_OPT_SCRATCHSIZE] != DTRACEOPT_UNSET) {
		lay->bl_scratchset = true;
		lay->bl_scratchsize = dtp->dt_options[DT_OPT_SCRATCHSIZE] >
		    (1 << 30) ? 1U << 30 :
		    (uint32_t) dtp->dt_options[DT_OPT_SCRATCHSIZE];
	}
	lay->bl_specsize = (uint64_t) dtp->dt_options[DT_OPT_SPECSIZE];
	lay->bl_ncpus = (uint32_t) be->be_ncpus;
	be->be_laid = true;
	for (uint32_t i = 0; i < be->be_nplans; i++) {
		const dt_bpf_plan_t *pl = &be->be_plans[i];

		if (pl->pl_nstmts > lay->bl_maxclauses)
			lay->bl_maxclauses = pl->pl_nstmts;
		for (uint32_t j = 0; j < pl->pl_nstmts; j++) {
			if (dt_bpf_layout_add_stmt(lay, pl->pl_stmts[j], err,
			    sizeof (err)) != 0)
				return dt_bpf_fail(dtp, EDT_NOTSUP, "%s", err);
		}
		/* Every name a program may show, before consts is sized. */
		for (uint32_t p = 0; p < pl->pl_nprobes; p++) {
			const dt_probe_t *prp = pl->pl_probes[p];

			(void) dt_bpf_layout_const(lay, prp->pr_prov->pv_name);
			(void) dt_bpf_layout_const(lay, prp->pr_mod);
			(void) dt_bpf_layout_const(lay, prp->pr_func);
			(void) dt_bpf_layout_const(lay, prp->pr_name);
		}
	}
	for (uint32_t j = 0; be->be_late && j < dtp->dt_prog.pg_nstmts; j++) {
		if (dt_bpf_layout_add_stmt(lay, &dtp->dt_prog.pg_stmts[j], err,
		    sizeof (err)) != 0)
			return dt_bpf_fail(dtp, EDT_NOTSUP, "%s", err);
		if (lay->bl_maxclauses < dtp->dt_prog.pg_nstmts)
			lay->bl_maxclauses = dtp->dt_prog.pg_nstmts;
	}
	if (be->be_late)
		dt_bpf_layout_spare(lay, DT_BPF_LATE_CONSTS);
	if (dt_bpf_layout_finish(lay, err, sizeof (err)) != 0)
		return dt_bpf_fail(dtp, EDT_NOTSUP, "%s", err);
	if (dt_bpf_maps(dtp, be) != 0)
		return -1;
	if (dt_bpf_ustk_wanted(dtp, be)) {
		be->be_ustk_follow = dtp->dt_options[DT_OPT_FOLLOWFORK] !=
		    DTRACEOPT_UNSET;
		if (dt_bpf_ustk_start(dtp, be) != 0)
			return -1;
	} else {
		be->be_usnap = dtp->dt_nprocs > 0 &&
		    dt_linux_feature(DT_LF_UPROBE) &&
		    dt_bpf_plans_want_ustack(be);
	}
	for (uint32_t i = 0; i < dtp->dt_nprocs; i++) {
		long tracer = dt_pt_status_field(dt_proc_pid(dtp, i),
		    "TracerPid:");

		be->be_nostop |= tracer > 0 && tracer != (long) getpid();
	}
	if (dt_bpf_follow(dtp, be) != 0)
		return -1;
	lay->bl_live = be->be_state + lay->bl_consts_off;
	for (uint32_t i = 0; i < be->be_nplans; i++)
		nprobes += be->be_plans[i].pl_nprobes;
	dt_bpf_progress_start(&pg, nprobes, "probes enabled");
	for (uint32_t i = 0; i < be->be_nplans; i++) {
		dt_bpf_plan_t *pl = &be->be_plans[i];

		if (pl->pl_table &&
		    dt_bpf_table(dtp, be, pl) != 0)
			goto fail;
		if (dt_bpf_build(dtp, be, pl) != 0 &&
		    (!dt_bpf_fallback(dtp, pl) ||
		    dt_bpf_build(dtp, be, pl) != 0))
			goto fail;
		dt_bpf_progress(&pg, "loading", done += pl->pl_nprobes);
	}
	if (lay->bl_perfbuf) {
		size_t pages = dt_bpf_pow2((uint64_t)
		    dtp->dt_options[DT_OPT_BUFSIZE], 4096) /
		    (size_t) sysconf(_SC_PAGESIZE);

		if ((be->be_pb = perf_buffer__new(lay->bl_rb_fd, pages ? pages :
		    1, dt_bpf_pb_record, NULL, be, NULL)) == NULL) {
			dt_bpf_progress_end(&pg, false);
			return dt_bpf_fail(dtp, EDT_NOTSUP, "perf buffer: %s",
			    strerror(errno));
		}
	} else if ((be->be_rb = ring_buffer__new(lay->bl_rb_fd,
	    dt_bpf_rb_record, be, NULL)) == NULL) {
		dt_bpf_progress_end(&pg, false);
		return dt_bpf_fail(dtp, EDT_NOTSUP, "ring buffer: %s",
		    strerror(errno));
	}
	done = 0;
	for (uint32_t i = 0; i < be->be_nplans; i++) {
		dt_bpf_plan_t *pl = &be->be_plans[i];

		if (dt_bpf_attach(dtp, be, pl) != 0 &&
		    (!dt_bpf_fallback(dtp, pl) ||
		    dt_bpf_build(dtp, be, pl) != 0 ||
		    dt_bpf_attach(dtp, be, pl) != 0))
			goto fail;
		dt_bpf_progress(&pg, "attaching", done += pl->pl_nprobes);
	}
	dt_bpf_progress_end(&pg, true);
	dt_bpf_urefused_flush();
	if (be->be_urefused > 0 && be->be_usites == 0)
		return dt_bpf_fail(dtp, EDT_NOTSUP, "the kernel cannot place "
		    "a uprobe at any site of the enabling");
	if (dt_bpf_procev_start(dtp, be) != 0)
		return -1;
	be->be_active = true;
	if (dt_bpf_engine_fire(dtp, DT_PROBE_ID_BEGIN, NULL, 0) != 0)
		return -1;
	/*
	 * As DTrace: BEGIN fires before any other probe, and the others
	 * only once all are in place -- the programs attached one by one
	 * have waited for this word.
	 */
	__atomic_store_n((uint64_t *) (be->be_state + lay->bl_cnt_off +
			     8 * DT_BPF_CNT_STARTED),
	    1, __ATOMIC_SEQ_CST);
	be->be_started = dt_os_timestamp();
	return 0;
fail:
	dt_bpf_progress_end(&pg, false);
	dt_bpf_urefused_flush();
	return -1;
}

static int
dt_bpf_poll(dtrace_hdl_t *dtp, int64_t timeout_ns)
{
	dt_bpf_engine_t *be = dt_bpf(dtp);
	int ms = (int) (timeout_ns / 1000000);

	dt_spec_t *specs;
	uint32_t nspec;

	if (!be->be_active || (be->be_rb == NULL && be->be_pb == NULL))
		return 0;
	/* Busy speculations are free again within cleanrate. */
	specs = (dt_spec_t *) (be->be_state + be->be_lay.bl_spec_off);
	nspec = be->be_lay.bl_nspec;
	if (dt_spec_busy(specs, nspec) &&
	    ms > dtp->dt_options[DT_OPT_CLEANRATE] / 1000000)
		ms = (int) (dtp->dt_options[DT_OPT_CLEANRATE] / 1000000);
	ms = dt_bpf_timer_check(be, ms > 0 ? ms : 0);
	/* A signal (^C) ends the wait early; the caller checks. */
	if ((be->be_rb != NULL ? ring_buffer__poll(be->be_rb, ms > 0 ? ms : 0) :
	    perf_buffer__poll(be->be_pb, ms > 0 ? ms : 0)) < 0 &&
	    errno != EINTR)
		return -1;
	if (be->be_nevs > 0 && !be->be_stopped)
		dt_bpf_procev(dtp, be);
	dt_spec_clean(specs, nspec);
	return 0;
}

static int
dt_bpf_drain(dtrace_hdl_t *dtp, dt_drain_f *fn, void *arg)
{
	dt_bpf_engine_t *be = dt_bpf(dtp);
	int rc = 0;

	dt_bpf_consume(be);
	for (int c = 0; c < be->be_ncpus; c++) {
		dt_bpf_stage_t *sg = &be->be_stage[c];

		if (sg->sg_len == 0)
			continue;
		if (rc == 0)
			rc = fn(dtp, (uint32_t) c, sg->sg_data, sg->sg_len,
			    arg);
		sg->sg_len = 0;
	}
	return rc;
}

/*
 * Aggregations: each CPU's values of every key of aggregation aggid (all
 * for UINT32_MAX), as the per-CPU hash maps hold them
 * (dt_bpf_aggread.c); with take set, the keys are deleted too.
 */
static int
dt_bpf_snap(dtrace_hdl_t *dtp, uint32_t aggid, bool take,
    dt_aggsnap_t **snapsp, uint32_t *nsnapsp)
{
	dt_bpf_engine_t *be = dt_bpf(dtp);
	static const dt_bpf_layout_t none;

	return dt_bpf_aggread_snap(dtp, &be->be_aggbufs,
	    be->be_active ? &be->be_lay : &none, be->be_ncpus, aggid, take,
	    snapsp, nsnapsp);
}

/*
 * Snapshots back: their buffers are kept for the next reading while
 * tracing runs; once it has stopped, the few readings left have no need
 * of them, and the printing at the end (a sort of every key) should not
 * find a million keys' worth of them still held.
 */
static void
dt_bpf_aggsnap_free(dtrace_hdl_t *dtp, dt_aggsnap_t *snaps, uint32_t nsnaps)
{
	dt_bpf_engine_t *be = dt_bpf(dtp);

	dt_bpf_aggread_done(&be->be_aggbufs, snaps, nsnaps);
	if ((be->be_stopped || !be->be_active) && !be->be_aggbufs.ab_lent)
		dt_bpf_aggbufs_free(&be->be_aggbufs);
}

static int
dt_bpf_aggsnap(dtrace_hdl_t *dtp, dt_aggsnap_t **snapsp, uint32_t *nsnapsp)
{
	return dt_bpf_snap(dtp, UINT32_MAX, false, snapsp, nsnapsp);
}

static int
dt_bpf_aggtake(dtrace_hdl_t *dtp, uint32_t aggid, dt_aggsnap_t **snapsp,
    uint32_t *nsnapsp)
{
	return dt_bpf_snap(dtp, aggid, true, snapsp, nsnapsp);
}

static int
dt_bpf_stop(dtrace_hdl_t *dtp)
{
	dt_bpf_engine_t *be = dt_bpf(dtp);
	dt_bpf_layout_t *lay = &be->be_lay;

	if (!be->be_active || be->be_stopped)
		return 0;
	/* No probe but END from now on. */
	__atomic_store_n((uint64_t *) (be->be_state + lay->bl_cnt_off +
	    8 * DT_BPF_CNT_EXITED), 1, __ATOMIC_SEQ_CST);
	be->be_stopped = true;
	dt_bpf_procev_stop(be);
	return dt_bpf_engine_fire(dtp, DT_PROBE_ID_END, NULL, 0);
}

static void
dt_bpf_status(dtrace_hdl_t *dtp, dt_engine_status_t *stp)
{
	dt_bpf_engine_t *be = dt_bpf(dtp);
	const uint64_t *cnt;

	memset(stp, 0, sizeof (*stp));
	if (be == NULL || be->be_state == NULL)
		return;
	cnt = (const uint64_t *) (be->be_state + be->be_lay.bl_cnt_off);
	stp->es_drops = __atomic_load_n(&cnt[DT_BPF_CNT_DROPS],
	    __ATOMIC_RELAXED);
	stp->es_dyndrops = __atomic_load_n(&cnt[DT_BPF_CNT_DYNDROPS],
	    __ATOMIC_RELAXED);
	stp->es_aggdrops = __atomic_load_n(&cnt[DT_BPF_CNT_AGGDROPS],
	    __ATOMIC_RELAXED);
	stp->es_errors = __atomic_load_n(&cnt[DT_BPF_CNT_ERRORS],
	    __ATOMIC_RELAXED);
	stp->es_specdrops = __atomic_load_n(&cnt[DT_BPF_CNT_SPECDROPS],
	    __ATOMIC_RELAXED);
	stp->es_specbusy = __atomic_load_n(&cnt[DT_BPF_CNT_SPECBUSY],
	    __ATOMIC_RELAXED);
	stp->es_specunavail = __atomic_load_n(&cnt[DT_BPF_CNT_SPECUNAVAIL],
	    __ATOMIC_RELAXED);
	stp->es_exited = __atomic_load_n(&cnt[DT_BPF_CNT_EXITED],
	    __ATOMIC_RELAXED) != 0;
}

static void
dt_bpf_cpudrops(dtrace_hdl_t *dtp, uint64_t *drops, uint64_t *aggdrops,
    uint32_t ncpus)
{
	dt_bpf_engine_t *be = dt_bpf(dtp);
	const uint64_t *cnt;
	uint32_t n;

	if (be == NULL || be->be_state == NULL)
		return;
	cnt = (const uint64_t *) (be->be_state + be->be_lay.bl_cpudrops_off);
	n = be->be_lay.bl_ncpus;
	for (uint32_t c = 0; c < ncpus && c < n; c++) {
		drops[c] = __atomic_load_n(&cnt[c], __ATOMIC_RELAXED);
		aggdrops[c] = __atomic_load_n(&cnt[n + c], __ATOMIC_RELAXED);
	}
}

const dt_engine_ops_t dt_bpf_engine_ops = {
	.eo_name = "bpf",
	.eo_flag = DT_ENGINE_F_KERNEL,
	.eo_open = dt_bpf_open,
	.eo_enable = dt_bpf_enable,
	.eo_go = dt_bpf_go,
	.eo_poll = dt_bpf_poll,
	.eo_drain = dt_bpf_drain,
	.eo_aggsnap = dt_bpf_aggsnap,
	.eo_aggsnap_free = dt_bpf_aggsnap_free,
	.eo_aggtake = dt_bpf_aggtake,
	.eo_stop = dt_bpf_stop,
	.eo_status = dt_bpf_status,
	.eo_cpudrops = dt_bpf_cpudrops,
	.eo_close = dt_bpf_close,
};
