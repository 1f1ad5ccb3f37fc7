/* SPDX-License-Identifier: MIT */
/*
 * dt_prov_sdt.c: the sdt provider -- one probe for every static
 * tracepoint of the running kernel, as Oracle Linux DTrace names them.
 *
 *	sdt:<group>::<event>	tracefs events/<group>/<event>, through a
 *				perf tracepoint event (a kernel event probe
 *				of kind DT_KEVENT_TP, dt_kevent.h)
 *
 * The list is tracefs's available_events less the syscalls group (the
 * syscall provider's) and dynamic events (dt_kevent_names()).
 *
 * Arguments: arg0 .. argN-1 are the fields of the event's format file
 * after the common_ ones, in order, at most ten:
 *
 *	an integer or pointer field	its value, sign-extended when the
 *					format says signed
 *	a fixed array ("char comm[16]")	the address of its bytes in the
 *					record, typed as a pointer to the
 *					element ("char *")
 *	__data_loc ("__data_loc char[]	the address of its bytes in the
 *	filename")			record, likewise ("char *")
 *
 * so strings are read with stringof(args[N]) (or copyinstr's kernel
 * twin, stringof(argN)), as in `sdt:sched::sched_process_exec {
 * trace(stringof(args[0])); }`.  Those addresses are valid only while
 * the probe fires.  The typed arguments (args[], dtrace -lv) come from
 * the same format file, read on first use of each probe: reading ~1,600
 * format files would slow every listing.
 *
 * Stability: names Evolving (tracepoints come and go with kernels), data
 * and arguments Private, as the kernel does not promise them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/dt_impl.h"
#include "common/probe/dt_probe.h"
#include "os/linux/prov/dt_kevent.h"
#include "os/linux/prov/dt_linux_prov.h"

static const dt_provattr_t dt_prov_sdt_attr = {
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_ISA },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_ISA },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_ISA },
};

/* Every tracepoint; arguments on first use (dt_prov_sdt_probe_args()). */
static int
dt_prov_sdt_populate(dtrace_hdl_t *dtp, dt_provider_t *pvp)
{
	return dt_kevent_populate_all(dtp, pvp, DT_KEVENT_TP);
}

/* The arguments and their recipes, from the event's format file. */
static int
dt_prov_sdt_probe_args(dtrace_hdl_t *dtp, dt_probe_t *prp)
{
	dt_kevent_t *ke = prp->pr_data;
	char *types[DT_KEVENT_MAXARGS];
	dt_kevent_field_t *fields;
	int n, nargs = 0, rc = 0;

	if ((n = dt_kevent_format(ke->ke_group, ke->ke_event, &fields)) < 0)
		return dt_set_errno(dtp, errno == ENOMEM ? EDT_NOMEM : errno);
	for (int i = 0; i < n && nargs < DT_KEVENT_MAXARGS; i++) {
		if (fields[i].kf_common)
			continue;
		if ((types[nargs] = dt_kevent_field_arg(&fields[i],
		    &ke->ke_args[nargs])) == NULL) {
			rc = dt_set_errno(dtp, EDT_NOMEM);
			break;
		}
		nargs++;
	}
	dt_kevent_fields_free(fields, n);
	if (rc == 0 && (rc = dt_probe_set_args(dtp, prp, nargs,
	    (const char *const *) types, NULL)) == 0)
		ke->ke_nargs = nargs;
	while (nargs > 0)
		free(types[--nargs]);
	return rc;
}

static const dt_provops_t dt_prov_sdt_ops = {
	.po_populate = dt_prov_sdt_populate,
	.po_probe_fini = dt_kevent_probe_fini,
	.po_mech = DT_MECH_KEVENT,
	.po_maymatch = dt_kevent_maymatch,
	.po_probe_args = dt_prov_sdt_probe_args,
};

int
dt_prov_sdt_init(dtrace_hdl_t *dtp)
{
	return dt_provider_register(dtp, "sdt", &dt_prov_sdt_ops,
	    &dt_prov_sdt_attr, DT_ENGINE_F_KERNEL, NULL);
}
