/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_mech_demand.c: the mechanism of dtrace:::BEGIN, END and ERROR --
 * a raw_tp program attached nowhere, which the consumer runs in its own
 * thread (BPF_PROG_TEST_RUN, dt_bpf_engine_fire()), so that it shares
 * every map with the other programs.  ERROR's clauses also run inline
 * in every other program where a clause faults.
 */
#include <string.h>

#include "common/prov/dt_prov.h"
#include "os/linux/bpf/dt_bpf_engine_impl.h"
#include "os/linux/bpf/dt_bpf_mech.h"

static int
dt_bpf_demand_spec(dtrace_hdl_t *dtp, dt_bpf_engine_t *be, dt_bpf_plan_t *pl,
    dt_bpf_build_t *bb)
{
	const dt_probe_t *prp = pl->pl_probes[0];

	(void) dtp;
	(void) be;
	bb->bb_ps.ps_ctx = DT_BPF_CTX_RAWTP;
	/* END and ERROR run even after exit(); BEGIN before the start. */
	bb->bb_ps.ps_always = prp->pr_id != DT_PROBE_ID_BEGIN;
	bb->bb_ps.ps_begin = prp->pr_id == DT_PROBE_ID_BEGIN;
	bb->bb_type = BPF_PROG_TYPE_RAW_TRACEPOINT;
	return 0;
}

const dt_bpf_mech_t dt_bpf_mech_demand = {
	.bm_name = DT_MECH_DEMAND,
	.bm_spec = dt_bpf_demand_spec,
	.bm_demand = true,
};
