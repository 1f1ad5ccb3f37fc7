/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_mech_tp.c: the mechanism of kernel events that are tracepoints
 * (sdt, rawtp and the providers on dt_kevent.h): a tracepoint program on
 * the perf tracepoint event, reading the arguments from its record, or a
 * raw_tp program on the raw tracepoint, reading them from TP_PROTO's
 * arguments.  The event (dt_kevent_t, the probe's data) says which, and
 * how each argument is read.
 */
#include "os/linux/bpf/dt_bpf_attach.h"
#include "os/linux/bpf/dt_bpf_engine_impl.h"
#include "os/linux/bpf/dt_bpf_mech.h"
#include "os/linux/prov/dt_kevent.h"

static dt_linux_feature_t
dt_bpf_tp_feature(const dt_probe_t *prp)
{
	const dt_kevent_t *ke = prp->pr_data;

	return ke->ke_kind == DT_KEVENT_RAWTP ? DT_LF_RAW_TP_ATTACH :
	    DT_LF_TRACEPOINT;
}

static int
dt_bpf_tp_spec(dtrace_hdl_t *dtp, dt_bpf_engine_t *be, dt_bpf_plan_t *pl,
    dt_bpf_build_t *bb)
{
	const dt_kevent_t *ke = pl->pl_probes[0]->pr_data;

	(void) dtp;
	(void) be;
	bb->bb_ps.ps_kevent = ke;
	bb->bb_ps.ps_nargs = ke->ke_nargs;
	if (ke->ke_kind == DT_KEVENT_RAWTP) {
		bb->bb_ps.ps_ctx = DT_BPF_CTX_KRAWTP;
		bb->bb_type = BPF_PROG_TYPE_RAW_TRACEPOINT;
	} else {
		bb->bb_ps.ps_ctx = DT_BPF_CTX_KTP;
		bb->bb_type = BPF_PROG_TYPE_TRACEPOINT;
	}
	return 0;
}

static int
dt_bpf_tp_attach(dtrace_hdl_t *dtp, dt_bpf_engine_t *be, dt_bpf_plan_t *pl)
{
	const dt_kevent_t *ke = pl->pl_probes[0]->pr_data;
	int fd;

	(void) be;
	if (ke->ke_kind == DT_KEVENT_RAWTP)
		fd = dt_bpf_attach_raw_tp(pl->pl_fd, ke->ke_event);
	else
		fd = dt_bpf_attach_tracepoint(pl->pl_fd, ke->ke_group,
		    ke->ke_event);
	if (fd < 0 || dt_bpf_addlink(pl, fd) != 0)
		return dt_bpf_attach_fail(dtp, pl);
	return 0;
}

const dt_bpf_mech_t dt_bpf_mech_tp = {
	.bm_name = "tracepoint",
	.bm_feature = dt_bpf_tp_feature,
	.bm_spec = dt_bpf_tp_spec,
	.bm_attach = dt_bpf_tp_attach,
};
