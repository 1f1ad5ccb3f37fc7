/* SPDX-License-Identifier: MIT */
/*
 * dt_xlate.c: inline definitions, translators and provider definitions --
 * the declarations whose bodies are D expressions.
 *
 *	inline type name = expr;
 *		name becomes a read-only identifier (DT_IDFLG_INLINE) whose
 *		di_inline is the cooked expr; references to it are VAR nodes
 *		code generation expands.
 *
 *	translator out < in arg > { member = expr; ... };
 *		a dt_xlator_t on cc_xlators; member expressions are cooked
 *		with arg bound to a read-only variable of type in.
 *		xlate<out>(e) and xlate<out *>(e) find the translator whose
 *		input type accepts e; the result node carries dn_xlator and
 *		the output type, and member references through it are
 *		checked against the translator's members.
 *
 *	provider name { probe p(args) [: (xargs)]; ... };
 *		kept on cc_providers for dtrace -h and -G.
 */
#include <stdlib.h>
#include <string.h>

#include "common/compiler/dt_cc.h"
#include "common/dt_os.h"

#define TNAME(dnp, buf) dt_node_type_name(cc, (dnp), (buf), sizeof (buf))

dt_node_t *
dt_decl_inline(dt_pcb_t *pcb, dt_decl_t *spec, dt_decl_t *dtor,
    dt_node_t *expr)
{
	dt_cc_t *cc = pcb->pcb_cc;
	dt_node_t *dnp, tmp = { 0 };
	const char *name = NULL;
	dt_decl_t *keys = NULL;
	dt_ident_t *param = NULL;
	ctf_dict_t *ctfp;
	ctf_id_t type;
	dt_ident_t *idp;
	char n1[512], n2[512];

	for (dt_decl_t *d = dtor; d != NULL; d = d->dd_next)
		if (d->dd_kind == DT_DK_NONE && d->dd_ident != NULL)
			name = d->dd_ident;
	if (spec->dd_class != DT_DC_DEFAULT)
		dt_cc_error(pcb, D_DECL_BADCLASS, "specified storage class "
		    "not appropriate for inline declaration");
	if (name == NULL)
		dt_cc_error(pcb, D_DECL_USELESS, "useless declaration");
	/*
	 * A library may define a built-in placeholder (curpsinfo) as an
	 * inline: the identifier becomes the inline.
	 */
	if ((idp = dt_idhash_lookup(cc->cc_globals, name)) != NULL &&
	    !(cc->cc_inlib && (idp->di_flags & DT_IDFLG_BUILTIN) &&
	    idp->di_id == DT_VAR_NONE))
		dt_cc_error(pcb, D_DECL_IDRED, "identifier redefined: %s\n\t "
		    "current: inline definition\n\tprevious: %s %s", name,
		    dt_idkind_name(idp->di_kind),
		    (idp->di_flags & DT_IDFLG_INLINE) ? "inline" : "");
	/*
	 * inline T name[type param] = expr: an inline array, whose body reads
	 * its index as param (fds[fd]).  The first derivation from the name
	 * says which.
	 */
	for (dt_decl_t *d = dtor; d != NULL; d = d->dd_next) {
		if (d->dd_kind == DT_DK_NONE)
			continue;
		if (d->dd_kind == DT_DK_ARRAY && d->dd_node != NULL &&
		    d->dd_node->dn_kind == DT_NODE_TYPE)
			keys = d;
		break;
	}
	if (keys != NULL) {
		dt_node_t *k = keys->dd_node;

		if (k->dn_list != NULL || k->dn_type == CTF_ERR ||
		    k->dn_string == NULL)
			dt_cc_error(pcb, D_DECL_ARRSUB, "inline array %s "
			    "must take one named index", name);
		if ((param = calloc(1, sizeof (*param))) == NULL ||
		    (param->di_name = strdup(k->dn_string)) == NULL) {
			free(param);
			dt_cc_nomem(pcb);
		}
		param->di_kind = DT_IDENT_SCALAR;
		param->di_flags = DT_IDFLG_DECL;
		dt_ident_type_assign(param, k->dn_ctfp, k->dn_type);
		/* The element type: the declarator without the keys. */
		for (dt_decl_t *d = dtor; d != NULL; d = d->dd_next) {
			if (d->dd_next == keys) {
				d->dd_next = keys->dd_next;
				dt_decl_type(pcb, dt_decl_apply(pcb, spec,
				    dtor), &ctfp, &type);
				d->dd_next = keys;
				break;
			}
		}
	} else
		dt_decl_type(pcb, dt_decl_apply(pcb, spec, dtor), &ctfp, &type);
	/* Until the ident owns it, a failed compile frees it (dt_cc.c). */
	pcb->pcb_iparam = param;
	if (dt_type_is_void(ctfp, type))
		dt_cc_error(pcb, D_DECL_VOIDOBJ, "cannot declare void object: "
		    "%s", name);

	expr = dt_node_cook(pcb, expr, DT_IDFLG_REF);
	dt_node_type_assign(&tmp, ctfp, type);
	if (!dt_node_is_argcompat(cc, &tmp, expr) &&
	    !(expr->dn_xlator != NULL && dt_type_compat(ctfp, type,
	    expr->dn_ctfp, expr->dn_type)))
		dt_cc_nerror(pcb, expr, D_OP_INCOMPAT, "inline %s definition "
		    "uses incompatible types: \"%s\" = \"%s\"", name,
		    dt_type_name(ctfp, type, n1, sizeof (n1)),
		    TNAME(expr, n2));

	if (idp != NULL)
		idp->di_flags |= DT_IDFLG_INLINE | DT_IDFLG_DECL;
	else if ((idp = dt_idhash_insert(cc->cc_globals, name,
	    param != NULL ? DT_IDENT_ARRAY : DT_IDENT_SCALAR,
	    DT_IDFLG_INLINE | DT_IDFLG_DECL, 0, cc->cc_gen)) == NULL)
		dt_cc_nomem(pcb);
	dt_ident_type_assign(idp, ctfp, type);
	if (param != NULL) {
		dt_idsig_t *sig = calloc(1, sizeof (*sig));

		if (sig == NULL || (sig->ds_ctfp = calloc(1,
		    sizeof (ctf_dict_t *))) == NULL ||
		    (sig->ds_type = calloc(1, sizeof (ctf_id_t))) == NULL) {
			if (sig != NULL)
				free(sig->ds_ctfp);
			free(sig);
			dt_cc_nomem(pcb);
		}
		sig->ds_argc = 1;
		sig->ds_varargs = sig->ds_optargs = -1;
		sig->ds_ctfp[0] = param->di_ctfp;
		sig->ds_type[0] = param->di_type;
		idp->di_sig = sig;
		idp->di_iparam = param;
		pcb->pcb_iparam = NULL;
	}
	idp->di_inline = expr;
	idp->di_line = pcb->pcb_line;
	if (expr->dn_xlator != NULL)
		idp->di_data = expr->dn_xlator;

	dnp = dt_node_alloc(pcb, DT_NODE_INLINE);
	dnp->dn_ident = idp;
	dt_node_type_assign(dnp, ctfp, type);
	dnp->dn_flags |= DT_NF_COOKED;
	return dnp;
}

void
dt_decl_xlator_begin(dt_pcb_t *pcb, dt_decl_t *dst, dt_decl_t *src,
    char *arg)
{
	dt_cc_t *cc = pcb->pcb_cc;
	dt_xlator_t *dxp;
	ctf_dict_t *dfp, *sfp;
	ctf_id_t dt, st, base;

	dt_decl_type(pcb, dst, &dfp, &dt);
	dt_decl_type(pcb, src, &sfp, &st);
	base = ctf_type_resolve(dfp, dt);
	if ((dxp = calloc(1, sizeof (*dxp))) == NULL ||
	    (dxp->dx_arg = strdup(arg)) == NULL) {
		free(dxp);
		dt_cc_nomem(pcb);
	}
	dxp->dx_dst_ctfp = dfp;
	dxp->dx_dst_type = base;
	dxp->dx_src_ctfp = sfp;
	dxp->dx_src_type = st;
	dxp->dx_gen = cc->cc_gen;
	if ((dxp->dx_argid = calloc(1, sizeof (dt_ident_t))) == NULL ||
	    (dxp->dx_argid->di_name = strdup(arg)) == NULL) {
		free(dxp->dx_argid);
		free(dxp->dx_arg);
		free(dxp);
		dt_cc_nomem(pcb);
	}
	dxp->dx_argid->di_kind = DT_IDENT_SCALAR;
	dxp->dx_argid->di_flags = DT_IDFLG_DECL;
	dxp->dx_argid->di_data = dxp;
	dt_ident_type_assign(dxp->dx_argid, sfp, st);
	dxp->dx_next = cc->cc_xlators;
	cc->cc_xlators = dxp;
	pcb->pcb_xlator = dxp;
}

/*
 * A translator member: checked with the whole translator at its end, as
 * DTrace does, so that errors name the line that ends the definition.
 */
dt_node_t *
dt_decl_member(dt_pcb_t *pcb, char *name, dt_node_t *e)
{
	dt_xlator_t *dxp = pcb->pcb_xlator;
	dt_node_t *mnp = dt_node_alloc(pcb, DT_NODE_MEMBER);

	mnp->dn_membname = name;
	mnp->dn_membexpr = e;
	dxp->dx_members = dt_node_link(dxp->dx_members, mnp);
	return mnp;
}

dt_node_t *
dt_decl_xlator_end(dt_pcb_t *pcb, dt_node_t *members)
{
	dt_cc_t *cc = pcb->pcb_cc;
	dt_xlator_t *dxp = pcb->pcb_xlator, *oxp;
	dt_node_t *dnp = dt_node_alloc(pcb, DT_NODE_XLATOR);
	ctf_membinfo_t m;
	int kind;
	char n1[512], n2[512];

	(void) members;
	kind = dxp->dx_dst_type == CTF_ERR ? 0 :
	    ctf_type_kind(dxp->dx_dst_ctfp, dxp->dx_dst_type);
	if (kind != CTF_K_STRUCT && kind != CTF_K_UNION)
		dt_cc_error(pcb, D_XLATE_SOU, "translator output type must be "
		    "a struct or union");
	for (oxp = cc->cc_xlators; oxp != NULL; oxp = oxp->dx_next) {
		if (oxp != dxp && dt_type_compat(oxp->dx_dst_ctfp,
		    oxp->dx_dst_type, dxp->dx_dst_ctfp, dxp->dx_dst_type) &&
		    dt_type_compat(oxp->dx_src_ctfp, oxp->dx_src_type,
		    dxp->dx_src_ctfp, dxp->dx_src_type))
			dt_cc_error(pcb, D_XLATE_REDECL, "translator from %s "
			    "to %s has already been declared",
			    dt_type_name(dxp->dx_src_ctfp, dxp->dx_src_type,
			    n1, sizeof (n1)), dt_type_name(dxp->dx_dst_ctfp,
			    dxp->dx_dst_type, n2, sizeof (n2)));
	}
	for (dt_node_t *mnp = dxp->dx_members; mnp != NULL;
	    mnp = mnp->dn_list) {
		const char *name = mnp->dn_membname;

		if (dt_type_member_info(dxp->dx_dst_ctfp, dxp->dx_dst_type,
		    name, &m) != 0)
			dt_cc_error(pcb, D_XLATE_MEMB, "translator member %s "
			    "is not a member of %s", name, dt_type_name(
			    dxp->dx_dst_ctfp, dxp->dx_dst_type, n1,
			    sizeof (n1)));
		mnp->dn_membexpr = dt_node_cook(pcb, mnp->dn_membexpr,
		    DT_IDFLG_REF);
		dt_node_type_assign(mnp, dxp->dx_dst_ctfp, m.ctm_type);
		if (!dt_node_is_argcompat(cc, mnp, mnp->dn_membexpr))
			dt_cc_error(pcb, D_XLATE_INCOMPAT, "translator member "
			    "%s definition uses incompatible types: \"%s\" = "
			    "\"%s\"", name, TNAME(mnp, n1),
			    TNAME(mnp->dn_membexpr, n2));
		mnp->dn_flags |= DT_NF_COOKED;
	}
	dnp->dn_xlator = pcb->pcb_xlator;
	dnp->dn_members = pcb->pcb_xlator->dx_members;
	dnp->dn_flags |= DT_NF_COOKED;
	pcb->pcb_xlator = NULL;
	return dnp;
}

/*
 * xlate<T>(e) and xlate<T *>(e): the translator from e's type to T.  An
 * exact input type is preferred; otherwise any input type e could be
 * assigned to.
 */
dt_node_t *
dt_cook_xlator(dt_pcb_t *pcb, dt_node_t *dnp)
{
	dt_cc_t *cc = pcb->pcb_cc;
	dt_node_t *lp = dnp->dn_left, *rp;
	dt_xlator_t *dxp, *best = NULL;
	ctf_dict_t *dfp = lp->dn_ctfp;
	ctf_id_t dt = ctf_type_resolve(dfp, lp->dn_type);
	bool ptr = false;
	char n1[512], n2[512];

	rp = dnp->dn_right = dt_node_cook(pcb, dnp->dn_right, DT_IDFLG_REF);
	if (dt != CTF_ERR && ctf_type_kind(dfp, dt) == CTF_K_POINTER) {
		ptr = true;
		dt = ctf_type_resolve(dfp, ctf_type_reference(dfp, dt));
	}
	for (dxp = cc->cc_xlators; dxp != NULL; dxp = dxp->dx_next) {
		dt_node_t src = { 0 };

		if (!dt_type_compat(dxp->dx_dst_ctfp, dxp->dx_dst_type, dfp,
		    dt))
			continue;
		if (dt_type_compat(dxp->dx_src_ctfp, dxp->dx_src_type,
		    rp->dn_ctfp, rp->dn_type)) {
			best = dxp;
			break;
		}
		dt_node_type_assign(&src, dxp->dx_src_ctfp, dxp->dx_src_type);
		if (best == NULL && dt_node_is_argcompat(cc, &src, rp))
			best = dxp;
	}
	if (best == NULL)
		dt_cc_error(pcb, D_XLATE_NONE, "cannot translate from \"%s\" "
		    "to \"%s\"", TNAME(rp, n1), TNAME(lp, n2));
	dnp->dn_xlator = best;
	dt_node_type_assign(dnp, lp->dn_ctfp, lp->dn_type);
	dnp->dn_flags |= DT_NF_XLATED;
	(void) ptr;
	return dnp;
}

/* Probe names in D use "__" where the probe name has "-". */
dt_node_t *
dt_decl_probe(dt_pcb_t *pcb, char *name, dt_node_t *nargs, dt_node_t *xargs,
    bool has_xargs)
{
	dt_node_t *dnp = dt_node_alloc(pcb, DT_NODE_PROBE);
	char *s = dt_cc_strdup(pcb, name), *p;

	while ((p = strstr(s, "__")) != NULL) {
		*p = '-';
		memmove(p + 1, p + 2, strlen(p + 2) + 1);
	}
	for (dt_node_t *a = nargs; a != NULL; a = a->dn_list)
		if (a->dn_type == CTF_ERR)
			dt_cc_error(pcb, D_DECL_PROTO_VARARGS, "probe "
			    "prototype may not use a variable-length argument "
			    "list");
	dnp->dn_string = s;
	dnp->dn_nargs = nargs;
	dnp->dn_xargs = has_xargs ? xargs : nargs;
	dnp->dn_flags |= DT_NF_COOKED;
	if (dt_node_list_len(dnp->dn_xargs) > dt_os_usdt_maxargs)
		dt_cc_error(pcb, D_PROV_PRARGLEN, "probe %s input prototype "
		    "is too long: %u arguments, limit is %u", s,
		    dt_node_list_len(dnp->dn_xargs), dt_os_usdt_maxargs);
	return dnp;
}

static void
dt_provprobes_free(dt_provdecl_t *pvp)
{
	for (size_t i = 0; i < pvp->pv_npprobes; i++) {
		dt_provprobe_t *pp = &pvp->pv_pprobes[i];

		for (int j = 0; j < pp->pp_nargs; j++)
			free(pp->pp_types[j]);
		free(pp->pp_types);
		free(pp->pp_name);
	}
	free(pvp->pv_pprobes);
	pvp->pv_pprobes = NULL;
	pvp->pv_npprobes = 0;
}

void
dt_provdecl_free(dt_provdecl_t *pvp)
{
	dt_provprobes_free(pvp);
	free(pvp->pv_name);
	free(pvp);
}

/*
 * Keep a provider's probes past the compile: their declared names and the
 * C types of their arguments, what dtrace -h writes prototypes from.
 */
static void
dt_decl_provprobes(dt_pcb_t *pcb, dt_provdecl_t *pvp, dt_node_t *probes)
{
	dt_cc_t *cc = pcb->pcb_cc;
	size_t n = dt_node_list_len(probes);

	dt_provprobes_free(pvp);
	if ((pvp->pv_pprobes = calloc(n + 1, sizeof (dt_provprobe_t))) == NULL)
		dt_cc_nomem(pcb);
	for (dt_node_t *p = probes; p != NULL; p = p->dn_list) {
		dt_provprobe_t *pp = &pvp->pv_pprobes[pvp->pv_npprobes++];
		int na = (int) dt_node_list_len(p->dn_nargs), j = 0;
		char *q;

		if ((pp->pp_name = malloc(2 * strlen(p->dn_string) + 1)) ==
		    NULL || (pp->pp_types = calloc((size_t) na + 1,
		    sizeof (char *))) == NULL)
			dt_cc_nomem(pcb);
		q = pp->pp_name;
		for (const char *c = p->dn_string; *c != '\0'; c++) {
			if (*c == '-') {
				*q++ = '_';
				*q++ = '_';
			} else
				*q++ = *c;
		}
		*q = '\0';
		for (dt_node_t *a = p->dn_nargs; a != NULL; a = a->dn_list) {
			char buf[256];
			const char *t = TNAME(a, buf);

			/* D's string is a C string */
			if (strcmp(t, "string") == 0)
				t = "char *";
			if ((pp->pp_types[j++] = strdup(t)) == NULL)
				dt_cc_nomem(pcb);
			pp->pp_nargs = j;
		}
	}
}

dt_node_t *
dt_decl_provider(dt_pcb_t *pcb, char *name, dt_node_t *probes)
{
	dt_cc_t *cc = pcb->pcb_cc;
	dt_node_t *dnp = dt_node_alloc(pcb, DT_NODE_PROVIDER);
	dt_provdecl_t *pvp;
	size_t len = strlen(name);

	if (len > 0 && name[len - 1] >= '0' && name[len - 1] <= '9')
		dt_cc_error(pcb, D_PROV_BADNAME, "provider name may not end "
		    "with a digit: %s", name);
	for (dt_node_t *a = probes; a != NULL; a = a->dn_list)
		for (dt_node_t *b = a->dn_list; b != NULL; b = b->dn_list)
			if (strcmp(a->dn_string, b->dn_string) == 0)
				dt_cc_nerror(pcb, b, D_PROV_PRDUP, "probe "
				    "redeclared: %s:%s", name, b->dn_string);
	for (pvp = cc->cc_providers; pvp != NULL; pvp = pvp->pv_next)
		if (strcmp(pvp->pv_name, name) == 0)
			break;
	if (pvp == NULL) {
		if ((pvp = calloc(1, sizeof (*pvp))) == NULL ||
		    (pvp->pv_name = strdup(name)) == NULL) {
			free(pvp);
			dt_cc_nomem(pcb);
		}
		pvp->pv_gen = cc->cc_gen;
		pvp->pv_next = cc->cc_providers;
		cc->cc_providers = pvp;
	}
	pvp->pv_probes = probes;
	dt_decl_provprobes(pcb, pvp, probes);
	dnp->dn_provname = name;
	dnp->dn_probes = probes;
	dnp->dn_flags |= DT_NF_COOKED;
	return dnp;
}
