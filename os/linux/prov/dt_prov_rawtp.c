/* SPDX-License-Identifier: MIT */
/*
 * dt_prov_rawtp.c: the rawtp provider -- one probe for every static
 * tracepoint of the running kernel, through its raw tracepoint: the
 * arguments the kernel passes the tracepoint (TP_PROTO), before the
 * event's record is made.
 *
 *	rawtp:<group>::<event>	bpf(BPF_RAW_TRACEPOINT_OPEN, "<event>") (a
 *				kernel event probe of kind DT_KEVENT_RAWTP,
 *				dt_kevent.h)
 *
 * The names are the sdt provider's (dt_kevent_names(): tracefs's events
 * less system calls and dynamic events).  arg0 .. argN-1 are the
 * tracepoint's TP_PROTO arguments as 64-bit words; their types (args[],
 * dtrace -lv) come from the kernel's BTF, typedef btf_trace_<event>: a
 * pointer to a function whose first parameter is the tracepoint's void *
 * data and the rest TP_PROTO's ("bool", "struct task_struct *", "struct
 * task_struct *", "unsigned int" for sched_switch), so args[1]->comm
 * reads the task's name.  A module's tracepoints are typed from its own
 * BTF (/sys/kernel/btf/<group>, when the group is named after the
 * module).  An event without a btf_trace_ type (no BTF, a module named
 * otherwise) has no typed arguments: arg0..arg9 still read the words,
 * and the kernel refuses those past the tracepoint's last.
 *
 * BTF is parsed (about 0.1 s) on the first probe whose arguments are
 * asked for, and kept for the life of the handle.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "common/dt_impl.h"
#include "common/probe/dt_probe.h"
#include "os/linux/prov/dt_kevent.h"
#include "os/linux/prov/dt_linux_prov.h"

/* The provider's data: kernel BTF, and one module's, parsed on demand. */
typedef struct dt_rawtp_btf {
	bool rb_tried;
	struct btf *rb_vmlinux;
	char *rb_modname;	/* the module rb_mod is for */
	struct btf *rb_mod;
} dt_rawtp_btf_t;

static const dt_provattr_t dt_prov_rawtp_attr = {
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_ISA },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_ISA },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_ISA },
};

/* Every tracepoint; arguments on first use (dt_prov_rawtp_probe_args()). */
static int
dt_prov_rawtp_populate(dtrace_hdl_t *dtp, dt_provider_t *pvp)
{
	return dt_kevent_populate_all(dtp, pvp, DT_KEVENT_RAWTP);
}

/* The BTF describing group's tracepoints: the kernel's, or a module's. */
static struct btf *
dt_rawtp_btf(dt_rawtp_btf_t *rb, const char *group, const char *event,
    uint32_t *idp)
{
	char name[256], path[300];
	int id;

	if (!rb->rb_tried) {
		rb->rb_tried = true;
		rb->rb_vmlinux = btf__load_vmlinux_btf();
	}
	if (rb->rb_vmlinux == NULL)
		return NULL;
	snprintf(name, sizeof (name), "btf_trace_%s", event);
	if ((id = btf__find_by_name_kind(rb->rb_vmlinux, name,
	    BTF_KIND_TYPEDEF)) > 0) {
		*idp = (uint32_t) id;
		return rb->rb_vmlinux;
	}
	snprintf(path, sizeof (path), "/sys/kernel/btf/%s", group);
	if (strchr(group, '/') != NULL || access(path, R_OK) != 0)
		return NULL;
	if (rb->rb_modname == NULL || strcmp(rb->rb_modname, group) != 0) {
		btf__free(rb->rb_mod);
		free(rb->rb_modname);
		rb->rb_mod = btf__load_module_btf(group, rb->rb_vmlinux);
		rb->rb_modname = strdup(group);
	}
	if (rb->rb_mod == NULL || (id = btf__find_by_name_kind(rb->rb_mod,
	    name, BTF_KIND_TYPEDEF)) <= 0)
		return NULL;
	*idp = (uint32_t) id;
	return rb->rb_mod;
}

/* The TP_PROTO arguments' types, from btf_trace_<event>. */
static int
dt_prov_rawtp_probe_args(dtrace_hdl_t *dtp, dt_probe_t *prp)
{
	dt_rawtp_btf_t *rb = prp->pr_prov->pv_data;
	dt_kevent_t *ke = prp->pr_data;
	char *types[DT_KEVENT_MAXARGS];
	const struct btf_param *pa;
	const struct btf_type *t = NULL;
	char decl[256];
	struct btf *btf;
	int nargs = 0, rc = 0, vlen;
	uint32_t id;

	/* typedef -> pointer -> function prototype (void *, TP_PROTO...) */
	if ((btf = dt_rawtp_btf(rb, ke->ke_group, ke->ke_event, &id)) != NULL)
		t = btf__type_by_id(btf, id);
	for (int i = 0; i < 2 && t != NULL; i++)
		t = btf__type_by_id(btf, t->type);
	if (t == NULL || !btf_is_func_proto(t) || btf_vlen(t) < 1) {
		ke->ke_nargs = 0;
		return dt_probe_set_args(dtp, prp, 0, NULL, NULL);
	}
	pa = btf_params(t);
	vlen = btf_vlen(t);
	for (int i = 1; i < vlen && nargs < DT_KEVENT_MAXARGS; i++) {
		dt_kevent_arg_t *ka = &ke->ke_args[nargs];

		dt_kevent_btf_decl(btf, pa[i].type, decl, sizeof (decl));
		if ((types[nargs] = strdup(decl)) == NULL) {
			rc = dt_set_errno(dtp, EDT_NOMEM);
			break;
		}
		/* The kernel widened each argument to 64 bits as C does. */
		memset(ka, 0, sizeof (*ka));
		ka->ka_kind = DT_KEVENT_ARG_RAW;
		ka->ka_size = 8;
		ka->ka_index = (uint8_t) (i - 1);
		nargs++;
	}
	if (rc == 0 && (rc = dt_probe_set_args(dtp, prp, nargs,
	    (const char *const *) types, NULL)) == 0)
		ke->ke_nargs = nargs;
	while (nargs > 0)
		free(types[--nargs]);
	return rc;
}

static void
dt_prov_rawtp_fini(dtrace_hdl_t *dtp, dt_provider_t *pvp)
{
	dt_rawtp_btf_t *rb = pvp->pv_data;

	(void) dtp;
	if (rb == NULL)
		return;
	btf__free(rb->rb_mod);
	btf__free(rb->rb_vmlinux);
	free(rb->rb_modname);
	free(rb);
	pvp->pv_data = NULL;
}

static const dt_provops_t dt_prov_rawtp_ops = {
	.po_populate = dt_prov_rawtp_populate,
	.po_probe_fini = dt_kevent_probe_fini,
	.po_mech = DT_MECH_KEVENT,
	.po_maymatch = dt_kevent_maymatch,
	.po_probe_args = dt_prov_rawtp_probe_args,
	.po_fini = dt_prov_rawtp_fini,
};

int
dt_prov_rawtp_init(dtrace_hdl_t *dtp)
{
	dt_rawtp_btf_t *rb = calloc(1, sizeof (*rb));

	if (rb == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	if (dt_provider_register(dtp, "rawtp", &dt_prov_rawtp_ops,
	    &dt_prov_rawtp_attr, DT_ENGINE_F_KERNEL, rb) != 0) {
		free(rb);
		return -1;
	}
	return 0;
}
