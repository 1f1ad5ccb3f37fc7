/* SPDX-License-Identifier: MIT */
/*
 * dt_prov_dtrace.c: the dtrace provider -- BEGIN, END and ERROR.
 *
 *	dtrace:::BEGIN	fires once, before any other probe, when tracing
 *			starts (dtrace_go)
 *	dtrace:::END	fires once, after every other probe, when tracing
 *			stops (exit(), end of -c command, ^C)
 *	dtrace:::ERROR	fires when a clause faults; arg1 is the EPID, arg2
 *			the action index, arg3 the DIF offset, arg4 the fault
 *			kind and arg5 the faulting address
 *
 * The probes are portable: whichever engine runs the program fires them
 * itself at those moments (the interpreter calls them directly; the BPF
 * engine attaches to marker functions in libdtrace).  They are always
 * probe IDs 1, 2 and 3, as in DTrace.
 *
 * None of them has typed arguments (dtrace -lv lists "None", and args[]
 * is out of range), as in DTrace: ERROR's values are read as arg1..arg5.
 * The provider and probe names are Stable, the module and function
 * (always empty) Private.
 */
#include "common/dt_impl.h"
#include "common/probe/dt_probe.h"
#include "common/prov/dt_prov.h"

static const dt_provattr_t dt_prov_dtrace_attr = {
	{ DT_STAB_STABLE, DT_STAB_STABLE, DT_CLASS_COMMON },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
	{ DT_STAB_STABLE, DT_STAB_STABLE, DT_CLASS_COMMON },
	{ DT_STAB_STABLE, DT_STAB_STABLE, DT_CLASS_COMMON },
};

static int
dt_prov_dtrace_populate(dtrace_hdl_t *dtp, dt_provider_t *pvp)
{
	if (dt_probe_create(dtp, pvp, "", "", "BEGIN", 0, NULL, NULL) == NULL ||
	    dt_probe_create(dtp, pvp, "", "", "END", 0, NULL, NULL) == NULL ||
	    dt_probe_create(dtp, pvp, "", "", "ERROR", 0, NULL, NULL) == NULL)
		return -1;
	return 0;
}

static const dt_provops_t dt_prov_dtrace_ops = {
	.po_populate = dt_prov_dtrace_populate,
	.po_mech = DT_MECH_DEMAND,
};

int
dt_prov_dtrace_init(dtrace_hdl_t *dtp)
{
	return dt_provider_register(dtp, "dtrace", &dt_prov_dtrace_ops,
	    &dt_prov_dtrace_attr, DT_ENGINE_F_INTERP | DT_ENGINE_F_KERNEL, NULL);
}
