/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_mech_fbt.c: the mechanism of kernel events that are a function's
 * entry or return (fbt, and providers on dt_kevent.h that name a
 * function): an fentry or fexit tracing program, loaded for the
 * function's BTF ID (in vmlinux's BTF or its module's), or a kprobe
 * program on a kprobe or kretprobe perf event.  An fentry/fexit program
 * the kernel refuses is made a kprobe where the provider can
 * (bm_fallback).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/dt_impl.h"
#include "os/linux/bpf/dt_bpf_attach.h"
#include "os/linux/bpf/dt_bpf_engine_impl.h"
#include "os/linux/bpf/dt_bpf_mech.h"
#include "os/linux/prov/dt_kevent.h"
#include "os/linux/prov/dt_linux_prov.h"

static bool
dt_bpf_fbt_tracing(const dt_kevent_t *ke)
{
	return ke->ke_kind == DT_KEVENT_FENTRY ||
	    ke->ke_kind == DT_KEVENT_FEXIT;
}

static dt_linux_feature_t
dt_bpf_fbt_feature(const dt_probe_t *prp)
{
	return dt_bpf_fbt_tracing(prp->pr_data) ? DT_LF_FENTRY : DT_LF_KPROBE;
}

static int
dt_bpf_fbt_spec(dtrace_hdl_t *dtp, dt_bpf_engine_t *be, dt_bpf_plan_t *pl,
    dt_bpf_build_t *bb)
{
	const dt_probe_t *prp = pl->pl_probes[0];
	const dt_kevent_t *ke = prp->pr_data;

	(void) be;
	bb->bb_ps.ps_kevent = ke;
	bb->bb_ps.ps_nargs = ke->ke_nargs;
	bb->bb_ps.ps_ctx = DT_BPF_CTX_FBT;
	if (!dt_bpf_fbt_tracing(ke)) {
		bb->bb_type = BPF_PROG_TYPE_KPROBE;
		return 0;
	}
	bb->bb_type = BPF_PROG_TYPE_TRACING;
	bb->bb_tg.tg_type = ke->ke_kind == DT_KEVENT_FENTRY ?
	    BPF_TRACE_FENTRY : BPF_TRACE_FEXIT;
	bb->bb_tg.tg_btf_id = ke->ke_btf_id;
	if (strcmp(ke->ke_group, "vmlinux") != 0 &&
	    (bb->bb_tg.tg_obj_fd = dt_bpf_btf_obj_fd(ke->ke_group)) < 0)
		return dt_bpf_fail(dtp, EDT_NOTSUP, "%s:%s:%s:%s: no BTF "
		    "object for module %s: %s", prp->pr_prov->pv_name,
		    prp->pr_mod, prp->pr_func, prp->pr_name, ke->ke_group,
		    strerror(errno));
	bb->bb_tgp = &bb->bb_tg;
	return 0;
}

static void
dt_bpf_fbt_unspec(dt_bpf_build_t *bb)
{
	if (bb->bb_tg.tg_obj_fd >= 0)
		(void) close(bb->bb_tg.tg_obj_fd);
}

static int
dt_bpf_fbt_attach(dtrace_hdl_t *dtp, dt_bpf_engine_t *be, dt_bpf_plan_t *pl)
{
	const dt_kevent_t *ke = pl->pl_probes[0]->pr_data;
	char event[160];
	int fd;

	(void) be;
	if (dt_bpf_fbt_tracing(ke)) {
		/* Where is in the program's attach_btf_id. */
		fd = dt_bpf_attach_raw_tp(pl->pl_fd, NULL);
	} else {
		/* A module's function by module:name (kallsyms). */
		if (strcmp(ke->ke_group, "vmlinux") == 0)
			snprintf(event, sizeof (event), "%s", ke->ke_event);
		else
			snprintf(event, sizeof (event), "%s:%s", ke->ke_group,
			    ke->ke_event);
		fd = dt_bpf_attach_kprobe(pl->pl_fd, event,
		    ke->ke_kind == DT_KEVENT_KRETPROBE);
	}
	if (fd < 0 || dt_bpf_addlink(pl, fd) != 0)
		return dt_bpf_attach_fail(dtp, pl);
	return 0;
}

/*
 * An fbt probe whose fentry or fexit program the kernel refused, to load
 * or to attach (6.1's BPF trampolines take at most six arguments), is
 * traced with a kprobe instead where there are kprobes: true when the
 * provider has made it one, and its program is to be built again.
 */
static bool
dt_bpf_fbt_fallback(dtrace_hdl_t *dtp, dt_bpf_plan_t *pl)
{
	dt_probe_t *prp = pl->pl_probes[0];

	if (!dt_bpf_fbt_tracing(prp->pr_data) ||
	    dt_prov_fbt_kprobe(dtp, prp) != 0)
		return false;
	if (pl->pl_fd >= 0)
		(void) close(pl->pl_fd);
	pl->pl_fd = -1;
	return true;
}

const dt_bpf_mech_t dt_bpf_mech_fbt = {
	.bm_name = "function",
	.bm_feature = dt_bpf_fbt_feature,
	.bm_spec = dt_bpf_fbt_spec,
	.bm_unspec = dt_bpf_fbt_unspec,
	.bm_attach = dt_bpf_fbt_attach,
	.bm_fallback = dt_bpf_fbt_fallback,
};
