/* SPDX-License-Identifier: MIT */
/*
 * dt_ktab.c: the stable kernel providers' tables made into kernel event
 * probes (see dt_ktab.h for the table, dt_kevent.h for what the engine
 * does with the probes).
 *
 * Listing must stay cheap, since every dtrace run lists: a row's event
 * is checked in tracefs (one stat) or, for bare raw tracepoints, in the
 * kernel BTF's string section (one read for the whole table).  The
 * recipes are completed only when a probe's arguments are first asked
 * for: format files are read then, and the kernel's BTF is parsed once
 * per handle for the struct members of every row together.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dt_impl.h"
#include "common/dt_os.h"
#include "common/probe/dt_probe.h"
#include "os/linux/dt_ksyms.h"
#include "os/linux/dt_linux_features.h"
#include "os/linux/prov/dt_ktab.h"
#include "os/linux/prov/dt_linux_prov.h"

/* DTrace's attributes of the proc and sched providers. */
static const dt_provattr_t dt_ktab_attr = {
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_ISA },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_ISA },
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_ISA },
};

/* A provider's data: its table and the struct member offsets found. */
typedef struct dt_ktab {
	const dt_ktab_probe_t *kv_table;
	int kv_n;
	bool kv_tried;		/* kv_offs looked up */
	uint32_t *kv_offs;	/* per row, per recipe; UINT32_MAX: none */
} dt_ktab_t;

/* The row a probe was made from, kept in its kernel event's ke_priv. */
typedef struct dt_ktab_row {
	const dt_ktab_probe_t *kw_row;
	int kw_index;
} dt_ktab_row_t;

static bool
dt_ktab_member_recipe(const dt_ktab_recipe_t *kr)
{
	return kr->kr_where != NULL && (kr->kr_kind == DT_KEVENT_ARG_RAWMEM ||
	    kr->kr_kind == DT_KEVENT_ARG_CURMEM ||
	    kr->kr_kind == DT_KEVENT_ARG_DEREF);
}

/* The offsets of every row's struct members, in one pass over BTF. */
static int
dt_ktab_offsets(dtrace_hdl_t *dtp, dt_ktab_t *kv)
{
	const char **paths;
	int n = kv->kv_n * DT_KTAB_MAXARGS;

	if (kv->kv_tried)
		return kv->kv_offs != NULL ? 0 : -1;
	kv->kv_tried = true;
	if ((paths = calloc((size_t) n, sizeof (*paths))) == NULL ||
	    (kv->kv_offs = calloc((size_t) n, sizeof (uint32_t))) == NULL) {
		free(paths);
		return dt_set_errno(dtp, EDT_NOMEM);
	}
	for (int i = 0; i < kv->kv_n; i++) {
		for (int j = 0; j < DT_KTAB_MAXARGS; j++) {
			const dt_ktab_recipe_t *kr = &kv->kv_table[i].kp_args[j];

			/* A path naming no struct finds nothing: "". */
			paths[i * DT_KTAB_MAXARGS + j] =
			    dt_ktab_member_recipe(kr) ? kr->kr_where : "";
		}
	}
	if (dt_linux_btf_offsets(paths, kv->kv_offs, n) != 0) {
		free(paths);
		free(kv->kv_offs);
		kv->kv_offs = NULL;
		return dt_set_errno(dtp, ENOENT);
	}
	free(paths);
	return 0;
}

/* Recipe kr of row kw as a kernel event argument. */
static int
dt_ktab_recipe(dtrace_hdl_t *dtp, dt_ktab_t *kv, const dt_ktab_row_t *kw,
    int j, dt_kevent_arg_t *ka)
{
	const dt_ktab_probe_t *kp = kw->kw_row;
	const dt_ktab_recipe_t *kr = &kp->kp_args[j];

	memset(ka, 0, sizeof (*ka));
	switch (kr->kr_kind) {
	case DT_KEVENT_ARG_FIELD:
	case DT_KEVENT_ARG_USTR:
		if (dt_kevent_field(kp->kp_group, kp->kp_event, kr->kr_where,
		    ka) != 0)
			return dt_set_errno(dtp, errno == ENOMEM ? EDT_NOMEM :
			    ENOENT);
		if (kr->kr_kind == DT_KEVENT_ARG_USTR)
			ka->ka_kind = DT_KEVENT_ARG_USTR;
		break;
	case DT_KEVENT_ARG_RAWMEM:
	case DT_KEVENT_ARG_CURMEM:
	case DT_KEVENT_ARG_DEREF:
		/* A DEREF naming no member adds nothing to the sum. */
		if (kr->kr_kind == DT_KEVENT_ARG_DEREF && kr->kr_where == NULL)
			goto plain;
		if (dt_ktab_offsets(dtp, kv) != 0)
			return -1;
		ka->ka_off = kv->kv_offs[kw->kw_index * DT_KTAB_MAXARGS + j];
		if (ka->ka_off == UINT32_MAX)
			return dt_set_errno(dtp, ENOENT);
		/* FALLTHROUGH */
	default:
	plain:
		ka->ka_kind = kr->kr_kind;
		ka->ka_size = kr->kr_size != 0 ? kr->kr_size : 8;
		ka->ka_signed = kr->kr_signed;
		ka->ka_index = kr->kr_index;
		ka->ka_val = (int64_t) kr->kr_args;
		break;
	}
	ka->ka_xform = kr->kr_xform;
	return 0;
}

/* The row's recipes, conditions and argument types, on first use. */
static int
dt_ktab_probe_args(dtrace_hdl_t *dtp, dt_probe_t *prp)
{
	dt_ktab_t *kv = prp->pr_prov->pv_data;
	dt_kevent_t *ke = prp->pr_data;
	const dt_ktab_row_t *kw = ke->ke_priv;
	const dt_ktab_probe_t *kp = kw->kw_row;
	int nargs = 0;

	/* A ZERO recipe (an argument always 0) may precede others. */
	for (int j = 0; j < DT_KTAB_MAXARGS; j++) {
		if (kp->kp_args[j].kr_kind != DT_KEVENT_ARG_ZERO)
			nargs = j + 1;
	}
	for (int j = 0; j < nargs; j++) {
		if (dt_ktab_recipe(dtp, kv, kw, j, &ke->ke_args[j]) != 0)
			return -1;
	}
	memcpy(ke->ke_conds, kp->kp_conds, sizeof (ke->ke_conds));
	if (kp->kp_sym != NULL) {
		const dt_ksyms_t *ks = dt_linux_ksyms();
		uint64_t start, end;

		char syms[128], *save = NULL, *sym;
		bool found = false;

		/* "new_name|old_name": the first the kernel has. */
		snprintf(syms, sizeof (syms), "%s", kp->kp_sym);
		for (sym = strtok_r(syms, "|", &save); sym != NULL && !found &&
		    ks != NULL && !dt_ksyms_restricted(ks);
		    sym = strtok_r(NULL, "|", &save))
			found = dt_ksyms_range(ks, sym, &start, &end) == 0;
		if (!found)
			return dt_set_errno(dtp, ENOENT);
		ke->ke_conds[0].kc_val = (int64_t) start;
	}
	if (dt_probe_set_args(dtp, prp, kp->kp_ntyped, kp->kp_native,
	    kp->kp_xlate) != 0)
		return -1;
	ke->ke_nargs = nargs;
	return 0;
}

static bool
dt_ktab_field_exists(const char *group, const char *event, const char *f)
{
	dt_kevent_arg_t ka;

	return dt_kevent_field(group, event, f, &ka) == 0;
}

static int
dt_ktab_populate(dtrace_hdl_t *dtp, dt_provider_t *pvp)
{
	dt_ktab_t *kv = pvp->pv_data;
	const char *bare[DT_KTAB_MAXBARE];
	bool have[DT_KTAB_MAXBARE], *made;
	int nbare = 0, rc = 0;

	/* Bare raw tracepoints: one look at the kernel's BTF for all. */
	for (int i = 0; i < kv->kv_n && nbare < DT_KTAB_MAXBARE; i++)
		if (kv->kv_table[i].kp_group[0] == '\0')
			bare[nbare++] = kv->kv_table[i].kp_event;
	if (nbare > 0)
		(void) dt_linux_tps_declared(bare, have, nbare);
	if (kv->kv_n <= 0)
		return 0;
	if ((made = calloc((size_t) kv->kv_n, sizeof (bool))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	for (int i = 0, b = 0; i < kv->kv_n && rc == 0; i++) {
		const dt_ktab_probe_t *kp = &kv->kv_table[i];
		dt_ktab_row_t *kw;
		dt_kevent_t *ke;
		bool exists, done = false;

		if (kp->kp_group[0] == '\0')
			exists = b < nbare && have[b++];
		else
			exists = dt_kevent_exists(kp->kp_group, kp->kp_event) &&
			    (kp->kp_needfield == NULL || dt_ktab_field_exists(
			    kp->kp_group, kp->kp_event, kp->kp_needfield));
		for (int j = 0; j < i && kp->kp_alt; j++)
			done |= made[j] &&
			    strcmp(kv->kv_table[j].kp_name, kp->kp_name) == 0;
		for (int j = 0; j < i && kp->kp_also; j++) {
			if (strcmp(kv->kv_table[j].kp_name, kp->kp_name) == 0) {
				done = !made[j];
				break;
			}
		}
		if (!exists || done)
			continue;
		if ((ke = dt_kevent_new(kp->kp_kind, kp->kp_group,
		    kp->kp_event)) == NULL ||
		    (kw = malloc(sizeof (*kw))) == NULL) {
			dt_kevent_free(ke);
			rc = dt_set_errno(dtp, EDT_NOMEM);
			break;
		}
		kw->kw_row = kp;
		kw->kw_index = i;
		ke->ke_priv = kw;
		ke->ke_nargs = -1;
		if (dt_probe_create(dtp, pvp, "vmlinux", kp->kp_event,
		    kp->kp_name, -1, NULL, ke) == NULL) {
			dt_kevent_free(ke);
			rc = -1;
		}
		made[i] = true;
	}
	free(made);
	return rc;
}

static void
dt_ktab_fini(dtrace_hdl_t *dtp, dt_provider_t *pvp)
{
	dt_ktab_t *kv = pvp->pv_data;

	(void) dtp;
	if (kv == NULL)
		return;
	free(kv->kv_offs);
	free(kv);
	pvp->pv_data = NULL;
}

/* A probe is vmlinux:<event>:<name> of a row of the table. */
static bool
dt_ktab_maymatch(dtrace_hdl_t *dtp, dt_provider_t *pvp,
    const dt_probedesc_t *pdp)
{
	const dt_ktab_t *kv = pvp->pv_data;

	(void) dtp;
	for (int i = 0; i < kv->kv_n; i++) {
		if (dt_probedesc_may(pdp, "vmlinux", kv->kv_table[i].kp_event,
		    kv->kv_table[i].kp_name))
			return true;
	}
	return false;
}

static const dt_provops_t dt_ktab_ops = {
	.po_populate = dt_ktab_populate,
	.po_maymatch = dt_ktab_maymatch,
	.po_probe_fini = dt_kevent_probe_fini,
	.po_mech = DT_MECH_KEVENT,
	.po_probe_args = dt_ktab_probe_args,
	.po_fini = dt_ktab_fini,
};

int
dt_ktab_register(dtrace_hdl_t *dtp, const char *name,
    const dt_ktab_probe_t *table, int n)
{
	dt_ktab_t *kv;
	const char *why;

	/*
	 * Probes only BPF can fire are not offered to whom cannot use it;
	 * the ptrace engine then offers its own proc probes.
	 */
	if (dt_os_kernel_engine(&why) == NULL)
		return 0;
	if ((kv = calloc(1, sizeof (*kv))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	kv->kv_table = table;
	kv->kv_n = n;
	/* Once registered, even if populating failed, the provider owns kv. */
	if (dt_provider_register(dtp, name, &dt_ktab_ops, &dt_ktab_attr,
	    DT_ENGINE_F_KERNEL, kv) != 0) {
		if (dt_provider_lookup(dtp, name) == NULL)
			free(kv);
		return -1;
	}
	return 0;
}
