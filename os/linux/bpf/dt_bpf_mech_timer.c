/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_mech_timer.c: the mechanism of profile-N and tick-N -- a
 * perf_event program on a cpu-clock event of every CPU (profile-N) or of
 * a few CPUs (tick-N): CPU 0's fires the probe when its period is due,
 * the others' only when CPU 0 has not (dt_bpf_cg_tick_due).  For tick-N the consumer also runs a
 * stand-in of the program when no CPU's timer has fired it in time
 * (dt_bpf_timer_check).
 */
#include <errno.h>
#include <string.h>

#include <bpf/bpf.h>

#include "common/dt_os.h"
#include "common/prov/dt_prov.h"
#include "os/linux/bpf/dt_bpf_attach.h"
#include "os/linux/bpf/dt_bpf_engine_impl.h"
#include "os/linux/bpf/dt_bpf_mech.h"

/* How many CPUs a tick-N probe's timer runs on. */
#define DT_BPF_TICK_CPUS 4

static dt_linux_feature_t
dt_bpf_timer_feature(const dt_probe_t *prp)
{
	(void) prp;
	return DT_LF_CPU_CLOCK;
}

/* tick-N's next due time (dt_bpf_cg_tick_due): an array of one word. */
static int
dt_bpf_tick_map(dtrace_hdl_t *dtp, dt_bpf_engine_t *be, int *fdp)
{
	int fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "dt_tick", 4, 8, 1, NULL);

	*fdp = dt_bpf_mapfd(dtp, be, fd, "tick");
	return *fdp < 0 ? -1 : 0;
}

static int
dt_bpf_timer_spec(dtrace_hdl_t *dtp, dt_bpf_engine_t *be, dt_bpf_plan_t *pl,
    dt_bpf_build_t *bb)
{
	const dt_profile_timer_t *pt = dt_prov_profile_timer(pl->pl_probes[0]);
	dt_bpf_progspec_t *ps = &bb->bb_ps;

	ps->ps_ctx = DT_BPF_CTX_PERF;
	ps->ps_nargs = 2;
	bb->bb_type = BPF_PROG_TYPE_PERF_EVENT;
	if (!pt->pt_percpu && pl->pl_tick_fd < 0 &&
	    dt_bpf_tick_map(dtp, be, &pl->pl_tick_fd) != 0)
		return -1;
	ps->ps_tick_fd = pt->pt_percpu ? -1 : pl->pl_tick_fd;
	ps->ps_tick_period = pl->pl_period = (uint64_t) pt->pt_period;
	ps->ps_tick_cpu = 0;	/* attached first; never offline */
	return 0;
}

/* tick-N's stand-in: the same clauses, run as BEGIN is. */
static int
dt_bpf_timer_loaded(dtrace_hdl_t *dtp, dt_bpf_engine_t *be, dt_bpf_plan_t *pl,
    const dt_bpf_progspec_t *ps)
{
	dt_bpf_progspec_t sps = *ps;
	int fd;

	if (ps->ps_tick_fd < 0 || pl->pl_standin_fd >= 0)
		return 0;
	sps.ps_ctx = DT_BPF_CTX_RAWTP;
	if ((fd = dt_bpf_gen_load(dtp, be, pl, &sps,
	    BPF_PROG_TYPE_RAW_TRACEPOINT, NULL)) < 0)
		return -1;
	pl->pl_standin_fd = fd;
	return 0;
}

/*
 * profile-N on every CPU; tick-N on a few: CPU 0's timer fires it, the
 * others' (twice a period, at most every 10 ms) when CPU 0 has not
 * (dt_bpf_cg_tick_due).  A
 * CPU running another BPF program when its timer expires skips the
 * event, and one CPU busy with a traced system call loop would lose most
 * ticks -- and exit() with them.
 */
static int
dt_bpf_timer_attach(dtrace_hdl_t *dtp, dt_bpf_engine_t *be, dt_bpf_plan_t *pl)
{
	const dt_profile_timer_t *pt = dt_prov_profile_timer(pl->pl_probes[0]);
	uint32_t want = pt->pt_percpu ? UINT32_MAX : DT_BPF_TICK_CPUS;
	int fd;

	for (int c = 0; c < be->be_ncpus && pl->pl_nlinks < want; c++) {
		uint64_t period = (uint64_t) pt->pt_period;

		if (!pt->pt_percpu && c > 0)
			period = DT_BPF_TICK_STANDBY_EVERY(period);
		fd = dt_bpf_attach_cpu_clock(pl->pl_fd, c, period);
		if (fd < 0 && errno == ENODEV)
			continue;	/* CPU not online */
		if (fd < 0 || dt_bpf_addlink(pl, fd) != 0)
			return dt_bpf_attach_fail(dtp, pl);
	}
	return 0;
}

/*
 * tick-N when no CPU's timer has fired it: a CPU skips its perf events
 * while it runs another BPF program (a traced system call loop there
 * takes most ticks), and an idle CPU of some virtual machines takes none.
 * A period overdue by DT_BPF_TICK_STANDIN (three quarters, within 250 ms
 * to 1 s; the other CPUs' timers would have taken it by then) is fired by the
 * stand-in,
 * run here -- in dtrace's context, as the consumer of a DTrace without
 * such timers would -- which takes the period as a CPU's firing would, so
 * that the two never both fire it.  Returns how long until the next
 * check is due, in ms, at most max_ms.
 */
int
dt_bpf_timer_check(dt_bpf_engine_t *be, int max_ms)
{
	uint64_t now = dt_os_timestamp();
	int ms = max_ms;

	for (uint32_t i = 0; i < be->be_nplans && !be->be_stopped; i++) {
		dt_bpf_plan_t *pl = &be->be_plans[i];
		uint64_t grace, due = 0, late;
		uint32_t key = 0;

		if (pl->pl_standin_fd < 0)
			continue;
		grace = DT_BPF_TICK_STANDIN(pl->pl_period);
		(void) bpf_map_lookup_elem(pl->pl_tick_fd, &key, &due);
		late = (due != 0 ? due : be->be_started + pl->pl_period) +
		    grace;
		if (now >= late) {
			LIBBPF_OPTS(bpf_test_run_opts, opts);
			uint64_t ctx[DT_BPF_NARGS] = { 0 };

			opts.ctx_in = ctx;
			opts.ctx_size_in = sizeof (ctx);
			(void) bpf_prog_test_run_opts(pl->pl_standin_fd, &opts);
			late = now + pl->pl_period + grace;
		}
		if ((late - now) / 1000000 + 1 < (uint64_t) ms)
			ms = (int) ((late - now) / 1000000 + 1);
	}
	return ms;
}

const dt_bpf_mech_t dt_bpf_mech_timer = {
	.bm_name = DT_MECH_TIMER,
	.bm_feature = dt_bpf_timer_feature,
	.bm_spec = dt_bpf_timer_spec,
	.bm_loaded = dt_bpf_timer_loaded,
	.bm_attach = dt_bpf_timer_attach,
};
