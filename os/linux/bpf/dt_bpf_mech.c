/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_mech.c: the BPF engine's table of mechanisms, by the names
 * providers give them (dt_provops_t.po_mech), and the choice between the
 * two that serve kernel events.
 */
#include <string.h>

#include "common/dt_impl.h"
#include "common/prov/dt_prov.h"
#include "os/linux/bpf/dt_bpf_engine_impl.h"
#include "os/linux/bpf/dt_bpf_mech.h"
#include "os/linux/prov/dt_kevent.h"
#include "os/linux/prov/dt_linux_prov.h"

/* A probe no mechanism serves. */
static const dt_bpf_mech_t *
dt_bpf_mech_none(dtrace_hdl_t *dtp, const dt_probe_t *prp)
{
	(void) dt_bpf_fail(dtp, EDT_NOTSUP, "the bpf engine cannot attach "
	    "%s:%s:%s:%s", prp->pr_prov->pv_name, prp->pr_mod, prp->pr_func,
	    prp->pr_name);
	return NULL;
}

/*
 * A kernel event's kind says how it is traced: a function's entry or
 * return by the function mechanism, any other event as a tracepoint.
 * Its arguments are described first: their recipes are in the event.
 */
static const dt_bpf_mech_t *
dt_bpf_mech_kevent(dtrace_hdl_t *dtp, dt_probe_t *prp)
{
	const dt_kevent_t *ke;

	if (!dt_kevent_is(prp))
		return dt_bpf_mech_none(dtp, prp);
	if ((ke = dt_kevent_info(dtp, prp)) == NULL) {
		(void) dt_bpf_fail(dtp, EDT_NOTSUP, "cannot find the "
		    "arguments of %s:%s:%s:%s: %s", prp->pr_prov->pv_name,
		    prp->pr_mod, prp->pr_func, prp->pr_name,
		    dtrace_errmsg(dtp, dtrace_errno(dtp)));
		return NULL;
	}
	return DT_KEVENT_ISFUNC(ke->ke_kind) ? &dt_bpf_mech_fbt :
	    &dt_bpf_mech_tp;
}

static const struct {
	const char *mt_name;
	const dt_bpf_mech_t *mt_mech;	/* or, by the probe: */
	const dt_bpf_mech_t *(*mt_pick)(dtrace_hdl_t *, dt_probe_t *);
} dt_bpf_mechs[] = {
	{ DT_MECH_DEMAND, &dt_bpf_mech_demand, NULL },
	{ DT_MECH_TIMER, &dt_bpf_mech_timer, NULL },
	{ DT_MECH_SYSCALL, &dt_bpf_mech_syscall, NULL },
	{ DT_MECH_USITE, &dt_bpf_mech_uprobe, NULL },
	{ DT_MECH_KEVENT, NULL, dt_bpf_mech_kevent },
};

void
dt_bpf_mech_prepare(dtrace_hdl_t *dtp, dt_bpf_engine_t *be)
{
	static const dt_bpf_mech_t *const all[] = {
		&dt_bpf_mech_demand, &dt_bpf_mech_timer, &dt_bpf_mech_syscall,
		&dt_bpf_mech_uprobe, &dt_bpf_mech_tp, &dt_bpf_mech_fbt,
	};

	for (size_t i = 0; i < sizeof (all) / sizeof (all[0]); i++) {
		if (all[i]->bm_prepare != NULL)
			all[i]->bm_prepare(dtp, be);
	}
}

const dt_bpf_mech_t *
dt_bpf_mech_of(dtrace_hdl_t *dtp, dt_probe_t *prp)
{
	const char *name = prp->pr_prov->pv_ops->po_mech;

	for (size_t i = 0; name != NULL && i < sizeof (dt_bpf_mechs) / sizeof (dt_bpf_mechs[0]); i++) {
		if (strcmp(name, dt_bpf_mechs[i].mt_name) != 0)
			continue;
		if (dt_bpf_mechs[i].mt_pick != NULL)
			return dt_bpf_mechs[i].mt_pick(dtp, prp);
		return dt_bpf_mechs[i].mt_mech;
	}
	return dt_bpf_mech_none(dtp, prp);
}
