/* SPDX-License-Identifier: MIT */
/*
 * dt_kprov.c: the stable kernel providers' common part (dt_kprov.h) --
 * listing a provider's table as probes on kernel events, and turning a
 * probe's symbolic arguments into kernel event recipes on first use.
 *
 * Each table row becomes vmlinux:<func>:<name> when its event exists
 * (tracefs events/<group>/<event>) and, for a row naming one, has the
 * field that shows the event means what the row maps (a format file
 * read, for that row only).  Its arguments and filters are made when the
 * compiler or the engine first asks (po_probe_args): tracepoint fields
 * are looked up by name in the event's format file then, and kernel
 * struct members in the kernel's BTF, so a kernel whose event lacks a
 * field fails that probe's use with a clear error rather than slowing
 * every listing.
 */
#include <errno.h>
#include <string.h>

#include "common/compiler/dt_cc.h"
#include "common/dt_impl.h"
#include "common/dt_os.h"
#include "common/probe/dt_probe.h"
#include "os/linux/prov/dt_kprov.h"
#include "os/linux/prov/dt_linux_prov.h"

/* As DTrace gives its io, ip, tcp, udp and lockstat providers. */
static const dt_provattr_t dt_kprov_attr = {
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_ISA },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_ISA },
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_ISA },
};

static int
dt_kprov_populate(dtrace_hdl_t *dtp, dt_provider_t *pvp)
{
	const dt_kprov_t *kv = pvp->pv_data;

	for (int i = 0; i < kv->kv_nprobes; i++) {
		const dt_kprov_probe_t *kp = &kv->kv_probes[i];
		dt_kevent_t *ke;
		dt_kevent_arg_t ka;

		/* kp_need: a field that says the event is what we map. */
		if (!dt_kevent_exists(kp->kp_group, kp->kp_event) ||
		    (kp->kp_need != NULL && dt_kevent_field(kp->kp_group,
		    kp->kp_event, kp->kp_need, &ka) != 0))
			continue;
		if ((ke = dt_kevent_new(kp->kp_kind, kp->kp_group,
		    kp->kp_event)) == NULL)
			return dt_set_errno(dtp, EDT_NOMEM);
		ke->ke_nargs = -1;	/* dt_kprov_probe_args() */
		if (dt_probe_create(dtp, pvp, "vmlinux", kp->kp_func != NULL ?
		    kp->kp_func : "", kp->kp_name, -1, NULL, ke) == NULL) {
			dt_kevent_free(ke);
			return -1;
		}
	}
	return 0;
}

/*
 * A member of a kernel struct at another argument: its offset and size
 * from the kernel's BTF (through the compiler's import of it, which
 * finds members of unnamed unions and structs too), so no kernel's
 * layout is assumed.  A kernel whose struct lacks the member, or has it
 * of another size than a scalar's, makes the probe's use fail.
 */
static int
dt_kprov_member(dtrace_hdl_t *dtp, const dt_kprov_probe_t *kp,
    const dt_kprov_arg_t *ks, dt_kevent_arg_t *ka)
{
	char name[128];
	ctf_dict_t *fp;
	ctf_id_t type;
	ctf_membinfo_t mi;
	ssize_t size;

	(void) snprintf(name, sizeof (name), "struct %s", ks->ks_sou);
	if (dt_os_ktype_lookup(dtp, "vmlinux", name, &fp, &type) != 0 ||
	    dt_type_member_info(fp, type, ks->ks_field, &mi) != 0)
		return dt_set_errdetail(dtp, EDT_NOTSUP, "%s::%s: the kernel's "
		    "%s has no member %s", kp->kp_group, kp->kp_event, name,
		    ks->ks_field);
	size = ks->ks_size != 0 ? ks->ks_size : ctf_type_size(fp, mi.ctm_type);
	if ((size != 1 && size != 2 && size != 4 && size != 8) ||
	    mi.ctm_offset % 8 != 0)
		return dt_set_errdetail(dtp, EDT_NOTSUP, "%s::%s: the kernel's "
		    "%s.%s is not a scalar", kp->kp_group, kp->kp_event, name,
		    ks->ks_field);
	ka->ka_kind = DT_KEVENT_ARG_DEREF;
	ka->ka_val = DT_KEVENT_ARGBIT(ks->ks_index);
	ka->ka_off = (uint32_t) (mi.ctm_offset / 8);
	ka->ka_size = (uint8_t) size;
	return 0;
}

/* The recipe of one argument; -1 with the handle's error set. */
static int
dt_kprov_recipe(dtrace_hdl_t *dtp, const dt_kprov_probe_t *kp,
    const dt_kprov_arg_t *ks, dt_kevent_arg_t *ka)
{
	memset(ka, 0, sizeof (*ka));
	switch (ks->ks_src) {
	case DT_KPROV_ZERO:
		ka->ka_kind = DT_KEVENT_ARG_ZERO;
		return 0;
	case DT_KPROV_RAW:
		ka->ka_kind = DT_KEVENT_ARG_RAW;
		ka->ka_size = 8;
		ka->ka_index = ks->ks_index;
		return 0;
	case DT_KPROV_CURTASK:
		ka->ka_kind = DT_KEVENT_ARG_CURTASK;
		return 0;
	case DT_KPROV_SUM:
	case DT_KPROV_MEM:
		ka->ka_kind = ks->ks_src == DT_KPROV_SUM ? DT_KEVENT_ARG_SUM :
		    DT_KEVENT_ARG_DEREF;
		ka->ka_size = ks->ks_size;
		ka->ka_val = ks->ks_mask;
		ka->ka_off = ks->ks_off;
		return 0;
	case DT_KPROV_MEMBER:
		return dt_kprov_member(dtp, kp, ks, ka);
	case DT_KPROV_FIELD:
	case DT_KPROV_ADDR:
		break;
	default:
		return dt_set_errno(dtp, EINVAL);
	}
	if (dt_kevent_field(kp->kp_group, kp->kp_event, ks->ks_field, ka) != 0)
		return dt_set_errno(dtp, errno == ENOMEM ? EDT_NOMEM : errno);
	/*
	 * A record read as a struct, or two fields as one word, needs its
	 * layout as the D library declares it: refuse another.
	 */
	if (ks->ks_check != NULL) {
		dt_kevent_arg_t kc;

		if (dt_kevent_field(kp->kp_group, kp->kp_event, ks->ks_check,
		    &kc) != 0 || kc.ka_off != ka->ka_off + ks->ks_checkoff)
			return dt_set_errno(dtp, EDT_NOTSUP);
	}
	if (ks->ks_src == DT_KPROV_ADDR) {
		ka->ka_kind = DT_KEVENT_ARG_ADDR;
	} else if (ks->ks_size != 0) {
		ka->ka_kind = DT_KEVENT_ARG_FIELD;
		ka->ka_size = ks->ks_size;
		ka->ka_signed = false;
	}
	return 0;
}

static const dt_kprov_probe_t *
dt_kprov_lookup(const dt_probe_t *prp)
{
	const dt_kprov_t *kv = prp->pr_prov->pv_data;

	for (int i = 0; i < kv->kv_nprobes; i++) {
		const dt_kprov_probe_t *kp = &kv->kv_probes[i];

		if (strcmp(kp->kp_name, prp->pr_name) == 0 &&
		    strcmp(kp->kp_func != NULL ? kp->kp_func : "",
		    prp->pr_func) == 0)
			return kp;
	}
	return NULL;
}

static int
dt_kprov_probe_args(dtrace_hdl_t *dtp, dt_probe_t *prp)
{
	const dt_kprov_probe_t *kp = dt_kprov_lookup(prp);
	const char *native[DT_KEVENT_MAXARGS], *xlate[DT_KEVENT_MAXARGS];
	dt_kevent_t *ke = prp->pr_data;
	int nargs = 0, nrecipes = 0;

	if (kp == NULL)
		return dt_set_errno(dtp, EDT_NOPROBE);
	for (int i = 0; i < DT_KEVENT_MAXARGS; i++) {
		const dt_kprov_arg_t *ks = &kp->kp_args[i];

		if (ks->ks_native == NULL && ks->ks_src == DT_KPROV_ZERO)
			break;	/* the end of the row */
		if (dt_kprov_recipe(dtp, kp, ks, &ke->ke_args[i]) != 0)
			return -1;
		nrecipes = i + 1;
		if (ks->ks_native != NULL) {
			native[nargs] = ks->ks_native;
			xlate[nargs++] = ks->ks_xlate;
		}
	}
	ke->ke_filt = kp->kp_filt[0].kf_op;
	ke->ke_filt_arg = kp->kp_filt[0].kf_arg;
	ke->ke_filt_val = kp->kp_filt[0].kf_val;
	for (int i = 1; i < DT_KPROV_MAXFILT &&
	    kp->kp_filt[i].kf_op != DT_KEVENT_FILT_NONE; i++) {
		dt_kevent_cond_t *kc = &ke->ke_conds[i - 1];

		kc->kc_op = (uint8_t) kp->kp_filt[i].kf_op;
		kc->kc_arg = kp->kp_filt[i].kf_arg;
		kc->kc_mask = kp->kp_filt[i].kf_mask;
		kc->kc_val = kp->kp_filt[i].kf_val;
	}
	if (dt_probe_set_args(dtp, prp, nargs, native, xlate) != 0)
		return -1;
	ke->ke_nargs = nrecipes;
	return 0;
}

/* A probe is vmlinux:<function>:<name> of a row of the table. */
static bool
dt_kprov_maymatch(dtrace_hdl_t *dtp, dt_provider_t *pvp,
    const dt_probedesc_t *pdp)
{
	const dt_kprov_t *kv = pvp->pv_data;

	(void) dtp;
	for (int i = 0; i < kv->kv_nprobes; i++) {
		const dt_kprov_probe_t *kp = &kv->kv_probes[i];

		if (dt_probedesc_may(pdp, "vmlinux", kp->kp_func != NULL ?
		    kp->kp_func : "", kp->kp_name))
			return true;
	}
	return false;
}

static const dt_provops_t dt_kprov_ops = {
	.po_populate = dt_kprov_populate,
	.po_maymatch = dt_kprov_maymatch,
	.po_probe_fini = dt_kevent_probe_fini,
	.po_mech = DT_MECH_KEVENT,
	.po_probe_args = dt_kprov_probe_args,
};

int
dt_kprov_register(dtrace_hdl_t *dtp, const dt_kprov_t *kv)
{
	return dt_provider_register(dtp, kv->kv_name, &dt_kprov_ops,
	    &dt_kprov_attr, DT_ENGINE_F_KERNEL, (void *) kv);
}

/* Every stable provider of this family, in one call (dt_linux_prov.h). */
int
dt_prov_ionet_init(dtrace_hdl_t *dtp)
{
	return dt_prov_io_init(dtp) != 0 || dt_prov_ip_init(dtp) != 0 ||
	    dt_prov_tcp_init(dtp) != 0 || dt_prov_udp_init(dtp) != 0 ||
	    dt_prov_lockstat_init(dtp) != 0 ? -1 : 0;
}
