/* SPDX-License-Identifier: MIT */
/*
 * dt_decl.c: declarations -- from specifiers and declarators to CTF types,
 * variables, typedefs, struct/union/enum definitions, inlines, translators
 * and provider definitions.
 *
 * The grammar hands over declarations bottom-up (see dt_cc.h, struct
 * dt_decl): a DT_DK_SPEC for the specifiers and, per declarator, a chain of
 * derivations from the identifier outwards.  dt_decl_type() applies the
 * chain to the base type from its far end, so "int *a[4]" (NONE(a) ->
 * ARRAY(4) -> PTR) becomes int -> int * -> int *[4].
 *
 * Struct and union layout is computed here rather than left to libctf, by
 * the x86-64 System V rules (gcc's): each member at the next multiple of
 * its alignment; a bit-field at the current bit if it fits in an aligned
 * unit of its declared type, else at the next such unit; ": 0" closes the
 * unit; the size is rounded up to the largest member alignment.
 * tests/unit/compiler_layout_test.c checks the result against gcc.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/compiler/dt_cc.h"

dt_decl_t *
dt_decl_new(dt_pcb_t *pcb, dt_dkind_t kind)
{
	dt_decl_t *ddp = calloc(1, sizeof (*ddp));

	if (ddp == NULL)
		dt_cc_nomem(pcb);
	ddp->dd_kind = kind;
	ddp->dd_type = CTF_ERR;
	ddp->dd_line = pcb->pcb_line;
	ddp->dd_link = pcb->pcb_decls;
	pcb->pcb_decls = ddp;
	return ddp;
}

typedef struct dt_member {
	char *dm_name;
	ctf_id_t dm_type;	/* in cc_ctf */
	unsigned dm_bits;	/* bit-field width, 0 if not a bit-field */
	bool dm_bitfield;
	uint64_t dm_offset;	/* bits from the start */
	struct dt_member *dm_next;
} dt_member_t;

static void
dt_member_free_list(dt_member_t *mp)
{
	dt_member_t *next;

	for (; mp != NULL; mp = next) {
		next = mp->dm_next;
		free(mp);
	}
}

void
dt_decl_free_all(dt_pcb_t *pcb)
{
	dt_decl_t *ddp, *next;
	dt_sou_t *sp, *snext;

	for (ddp = pcb->pcb_decls; ddp != NULL; ddp = next) {
		next = ddp->dd_link;
		free(ddp);
	}
	pcb->pcb_decls = NULL;
	for (sp = pcb->pcb_sou; sp != NULL; sp = snext) {
		snext = sp->ds_next;
		dt_member_free_list(sp->ds_members);
		free(sp);
	}
	pcb->pcb_sou = NULL;
}

dt_decl_t *
dt_decl_class(dt_pcb_t *pcb, dt_dclass_t dclass)
{
	dt_decl_t *ddp = dt_decl_new(pcb, DT_DK_SPEC);

	ddp->dd_class = dclass;
	return ddp;
}

dt_decl_t *
dt_decl_spec(dt_pcb_t *pcb, const char *name)
{
	dt_decl_t *ddp = dt_decl_new(pcb, DT_DK_SPEC);

	/* A scoped name ("vmlinux`u64") reaches here only if it resolved. */
	ddp->dd_name = dt_cc_strdup(pcb, name);
	if (strcmp(name, "int") && strcmp(name, "char") &&
	    strcmp(name, "void") && strcmp(name, "float") &&
	    strcmp(name, "double") && strcmp(name, "string"))
		ddp->dd_attr |= DT_DA_TNAME;
	return ddp;
}

dt_decl_t *
dt_decl_attr(dt_pcb_t *pcb, unsigned attr)
{
	dt_decl_t *ddp = dt_decl_new(pcb, DT_DK_SPEC);

	ddp->dd_attr = attr;
	return ddp;
}

static bool
dt_decl_has_base(const dt_decl_t *ddp)
{
	return ddp->dd_name != NULL || ddp->dd_ctfp != NULL;
}

/*
 * Merge specifier b (written earlier) into a (written later).  A type name
 * after a complete type in a non-typedef declaration is the declared
 * identifier itself (a variable named like a type), as in DTrace.
 */
dt_decl_t *
dt_decl_merge(dt_pcb_t *pcb, dt_decl_t *a, dt_decl_t *b)
{
	if (b->dd_class != DT_DC_DEFAULT) {
		if (a->dd_class != DT_DC_DEFAULT)
			dt_cc_error(pcb, D_DECL_CLASS, "only one storage "
			    "class allowed in a declaration");
		a->dd_class = b->dd_class;
	}
	if (dt_decl_has_base(a) && dt_decl_has_base(b)) {
		if ((a->dd_attr & DT_DA_TNAME) && a->dd_name != NULL &&
		    a->dd_ident == NULL) {
			if (a->dd_class == DT_DC_TYPEDEF)
				dt_cc_error(pcb, D_DECL_IDRED,
				    "identifier redeclared: %s", a->dd_name);
			a->dd_ident = a->dd_name;
			a->dd_name = b->dd_name;
			a->dd_ctfp = b->dd_ctfp;
			a->dd_type = b->dd_type;
			a->dd_attr &= ~DT_DA_TNAME;
			a->dd_attr |= b->dd_attr & DT_DA_TNAME;
		} else {
			/*
			 * DTrace finds this as it reads the second type, so
			 * that is the line reported.
			 */
			if (a->dd_line != 0)
				pcb->pcb_line = a->dd_line;
			dt_cc_error(pcb, D_DECL_COMBO,
			    "invalid type combination");
		}
	} else if (dt_decl_has_base(b)) {
		a->dd_name = b->dd_name;
		a->dd_ctfp = b->dd_ctfp;
		a->dd_type = b->dd_type;
		a->dd_attr |= b->dd_attr & DT_DA_TNAME;
	}
	if ((b->dd_attr & DT_DA_LONG) && (a->dd_attr & DT_DA_LONG)) {
		if (a->dd_attr & DT_DA_LONGLONG)
			dt_cc_error(pcb, D_DECL_COMBO,
			    "invalid type combination");
		a->dd_attr &= ~DT_DA_LONG;
		a->dd_attr |= DT_DA_LONGLONG;
		b = NULL;
	}
	if (b != NULL) {
		unsigned battr = b->dd_attr & ~DT_DA_TNAME;

		if ((battr & (DT_DA_LONG | DT_DA_LONGLONG)) &&
		    (a->dd_attr & DT_DA_LONGLONG))
			dt_cc_error(pcb, D_DECL_COMBO,
			    "invalid type combination");
		if ((battr & DT_DA_LONGLONG) && (a->dd_attr & DT_DA_LONG))
			dt_cc_error(pcb, D_DECL_COMBO,
			    "invalid type combination");
		a->dd_attr |= battr;
	}
	if ((a->dd_attr & DT_DA_SIGNED) && (a->dd_attr & DT_DA_UNSIGNED))
		dt_cc_error(pcb, D_DECL_COMBO, "invalid type combination");
	/*
	 * A struct, union or enum with integer attributes: DTrace checks the
	 * attributes when the body opens, so that is the line reported.
	 */
	if (a->dd_ctfp != NULL && a->dd_name == NULL &&
	    (a->dd_attr & (DT_DA_SIGNED | DT_DA_UNSIGNED | DT_DA_LONG |
	    DT_DA_LONGLONG))) {
		pcb->pcb_line = a->dd_line;
		if (a->dd_attr & (DT_DA_SIGNED | DT_DA_UNSIGNED))
			dt_cc_error(pcb, D_DECL_SIGNINT, "invalid type "
			    "declaration: signed and unsigned may only be "
			    "used with integer type");
		dt_cc_error(pcb, D_DECL_LONGINT, "invalid type declaration: "
		    "long and long long may only be used with integer or "
		    "floating-point type");
	}
	return a;
}

/*
 * Add derivations to a declarator.  No more than DT_DECL_MAXDERIV apply
 * (dt_decl_derive()), so a longer chain is refused as it is built, before
 * walking it to its end for each "[1]" of "int a[1][1]..." costs O(N^2).
 */
dt_decl_t *
dt_decl_chain(dt_pcb_t *pcb, dt_decl_t *dtor, dt_decl_t *deriv)
{
	dt_decl_t *ddp;
	unsigned n = 0;

	for (ddp = dtor; ddp->dd_next != NULL; ddp = ddp->dd_next) {
		if (++n > 4 * DT_DECL_MAXDERIV)
			dt_cc_error(pcb, D_DECL_COMBO,
			    "declarator is too complex");
	}
	ddp->dd_next = deriv;
	return dtor;
}

/* As dt_node_link(): the head remembers where its list ended. */
dt_decl_t *
dt_decl_list_append(dt_decl_t *a, dt_decl_t *b)
{
	dt_decl_t *ddp = a->dd_tail != NULL ? a->dd_tail : a;

	for (; ddp->dd_list != NULL; ddp = ddp->dd_list)
		continue;
	ddp->dd_list = b;
	a->dd_tail = b->dd_tail != NULL ? b->dd_tail : b;
	return a;
}

dt_decl_t *
dt_decl_apply(dt_pcb_t *pcb, dt_decl_t *spec, dt_decl_t *dtor)
{
	dt_decl_t *head = dt_decl_new(pcb, DT_DK_NONE);

	head->dd_spec = spec;
	head->dd_next = dtor;
	return head;
}

/* The name of the C type the specifiers spell. */
static const char *
dt_decl_basename(dt_pcb_t *pcb, dt_decl_t *spec)
{
	unsigned a = spec->dd_attr;
	const char *name = spec->dd_name;
	bool u = (a & DT_DA_UNSIGNED) != 0;

	if (name == NULL && spec->dd_ctfp == NULL)
		name = "int";
	if (name == NULL)
		return NULL;
	if ((a & DT_DA_SHORT) && (a & (DT_DA_LONG | DT_DA_LONGLONG)) &&
	    strcmp(name, "int") == 0) {
		/*
		 * DTrace accepts the attributes and then finds no type of
		 * the name they spell.
		 */
		dt_cc_error(pcb, D_UNKNOWN, "failed to resolve type %s%sshort "
		    "%s%s: Unknown type name", (a & DT_DA_SIGNED) ? "signed " :
		    "", u ? "unsigned " : "", (a & DT_DA_LONG) ? "long " :
		    "long long ", spec->dd_name != NULL ? spec->dd_name : "");
	}
	if (strcmp(name, "char") == 0) {
		if (a & (DT_DA_SHORT | DT_DA_LONG | DT_DA_LONGLONG))
			dt_cc_error(pcb, D_DECL_CHARATTR, "invalid type "
			    "declaration: short and long may not be used "
			    "with char type");
		if (a & DT_DA_UNSIGNED)
			return "unsigned char";
		if (a & DT_DA_SIGNED)
			return "signed char";
		return "char";
	}
	if (strcmp(name, "void") == 0) {
		if (a & (DT_DA_SHORT | DT_DA_LONG | DT_DA_LONGLONG |
		    DT_DA_SIGNED | DT_DA_UNSIGNED))
			dt_cc_error(pcb, D_DECL_VOIDATTR, "invalid type "
			    "declaration: attributes may not be used with "
			    "void type");
		return name;
	}
	if (strcmp(name, "int") == 0) {
		if (a & DT_DA_SHORT)
			return u ? "unsigned short" : "short";
		if (a & DT_DA_LONGLONG)
			return u ? "unsigned long long" : "long long";
		if (a & DT_DA_LONG)
			return u ? "unsigned long" : "long";
		return u ? "unsigned int" : "int";
	}
	if (a & (DT_DA_SIGNED | DT_DA_UNSIGNED))
		dt_cc_error(pcb, D_DECL_SIGNINT, "invalid type declaration: "
		    "signed and unsigned may only be used with integer type");
	if (strcmp(name, "double") == 0 && (a & DT_DA_LONG))
		return "long double";
	if (a & (DT_DA_LONG | DT_DA_LONGLONG))
		dt_cc_error(pcb, D_DECL_LONGINT, "invalid type declaration: "
		    "long and long long may only be used with integer or "
		    "floating-point type");
	if (a & DT_DA_SHORT)
		dt_cc_error(pcb, D_DECL_COMBO, "invalid type combination");
	return name;
}

static void
dt_decl_spectype(dt_pcb_t *pcb, dt_decl_t *spec, ctf_dict_t **ctfpp,
    ctf_id_t *typep)
{
	const char *name = dt_decl_basename(pcb, spec);

	if (name == NULL) {
		*ctfpp = spec->dd_ctfp;
		*typep = spec->dd_type;
		if (spec->dd_attr & (DT_DA_SIGNED | DT_DA_UNSIGNED))
			dt_cc_error(pcb, D_DECL_SIGNINT, "invalid type "
			    "declaration: signed and unsigned may only be "
			    "used with integer type");
		if (spec->dd_attr & (DT_DA_LONG | DT_DA_LONGLONG |
		    DT_DA_SHORT))
			dt_cc_error(pcb, D_DECL_LONGINT, "invalid type "
			    "declaration: long and long long may only be "
			    "used with integer or floating-point type");
		return;
	}
	if (dt_type_lookup(pcb->pcb_cc, name, ctfpp, typep) != 0)
		dt_cc_error(pcb, D_TYPE_ERR, "failed to resolve type %s",
		    name);
}

static ctf_id_t
dt_decl_array_type(dt_pcb_t *pcb, ctf_dict_t *ctfp, ctf_id_t type,
    dt_decl_t *ddp)
{
	dt_cc_t *cc = pcb->pcb_cc;
	ctf_arinfo_t ar;
	int64_t n;
	ctf_id_t t;

	if (dt_type_is_void(ctfp, type))
		dt_cc_error(pcb, D_DECL_VOIDOBJ,
		    "cannot declare array of void");
	if (ddp->dd_node == NULL && pcb->pcb_arrctx == DT_ARRCTX_PARAM) {
		ctf_dict_t *fp = cc->cc_ctf;

		return dt_type_pointer(pcb, &fp, dt_type_import(pcb, ctfp,
		    type));
	}
	if (ddp->dd_node == NULL && pcb->pcb_arrctx == DT_ARRCTX_MEMBER) {
		ar.ctr_contents = dt_type_import(pcb, ctfp, type);
		ar.ctr_index = cc->cc_type_long;
		ar.ctr_nelems = 0;
		if ((t = ctf_add_array(cc->cc_ctf, CTF_ADD_ROOT, &ar)) ==
		    CTF_ERR)
			dt_cc_error(pcb, D_UNKNOWN, "failed to create array "
			    "type: %s", ctf_errmsg(ctf_errno(cc->cc_ctf)));
		return t;
	}
	if (ddp->dd_node == NULL)
		dt_cc_error(pcb, D_DECL_ARRNULL, "array declaration "
		    "requires array dimension or tuple signature");
	if (ddp->dd_node->dn_kind == DT_NODE_TYPE)
		return CTF_ERR;	/* associative array: caller handles */
	if (!dt_node_const_eval(pcb, ddp->dd_node, &n) || n <= 0)
		dt_cc_error(pcb, D_DECL_ARRSUB, "positive integral constant "
		    "expression or tuple signature expected as array "
		    "declaration subscript");
	if ((uint64_t) n > UINT_MAX)
		dt_cc_error(pcb, D_DECL_ARRBIG, "array dimension too big");
	ar.ctr_contents = dt_type_import(pcb, ctfp, type);
	ar.ctr_index = cc->cc_type_long;
	ar.ctr_nelems = (uint32_t) n;
	if ((t = ctf_add_array(cc->cc_ctf, CTF_ADD_ROOT, &ar)) == CTF_ERR)
		dt_cc_error(pcb, D_UNKNOWN, "failed to create array type: %s",
		    ctf_errmsg(ctf_errno(cc->cc_ctf)));
	return t;
}

static ctf_id_t
dt_decl_func_type(dt_pcb_t *pcb, ctf_dict_t *ctfp, ctf_id_t type,
    dt_decl_t *ddp)
{
	dt_cc_t *cc = pcb->pcb_cc;
	ctf_funcinfo_t fi = { 0 };
	ctf_id_t args[64], t;
	dt_node_t *pnp;

	fi.ctc_return = dt_type_import(pcb, ctfp, type);
	for (pnp = ddp->dd_node; pnp != NULL; pnp = pnp->dn_list) {
		if (pnp->dn_type == CTF_ERR) {
			fi.ctc_flags |= CTF_FUNC_VARARG;
			continue;
		}
		if (pnp->dn_ctfp == cc->cc_ctf && pnp->dn_type == cc->cc_type_dyn)
			dt_cc_error(pcb, D_DECL_PROTO_TYPE, "function prototype "
			    "may not use parameter of type dynamic variable: "
			    "%s, parameter #%u", pnp->dn_string != NULL ?
			    pnp->dn_string : "(anonymous)", fi.ctc_argc + 1);
		if (dt_node_is_void(pnp) && pnp->dn_string != NULL)
			dt_cc_error(pcb, D_DECL_PROTO_NAME, "void parameter may "
			    "not have a name: %s", pnp->dn_string);
		if (dt_node_is_void(pnp) && fi.ctc_argc == 0 &&
		    pnp->dn_list == NULL)
			break;
		if (dt_node_is_void(pnp))
			dt_cc_error(pcb, D_DECL_PROTO_VOID,
			    "void must be sole parameter");
		if (fi.ctc_argc < 64)
			args[fi.ctc_argc++] = dt_type_import(pcb,
			    pnp->dn_ctfp, pnp->dn_type);
	}
	if ((t = ctf_add_function(cc->cc_ctf, CTF_ADD_ROOT, &fi, args)) ==
	    CTF_ERR)
		dt_cc_error(pcb, D_UNKNOWN, "failed to create function type: "
		    "%s", ctf_errmsg(ctf_errno(cc->cc_ctf)));
	return t;
}

/*
 * Apply derivations [from, to) of a declarator chain to a type, from the
 * far end inwards.
 */
static void
dt_decl_derive(dt_pcb_t *pcb, dt_decl_t *from, dt_decl_t *to,
    ctf_dict_t **ctfpp, ctf_id_t *typep)
{
	dt_decl_t *v[DT_DECL_MAXDERIV];
	int n = 0;

	for (dt_decl_t *ddp = from; ddp != to && ddp != NULL;
	    ddp = ddp->dd_next) {
		if (ddp->dd_kind != DT_DK_NONE && ddp->dd_kind != DT_DK_SPEC) {
			if (n == DT_DECL_MAXDERIV)
				dt_cc_error(pcb, D_DECL_COMBO,
				    "declarator is too complex");
			v[n++] = ddp;
		}
	}
	while (n-- > 0) {
		switch (v[n]->dd_kind) {
		case DT_DK_PTR:
			*typep = dt_type_pointer(pcb, ctfpp, *typep);
			break;
		case DT_DK_ARRAY: {
			ctf_id_t t = dt_decl_array_type(pcb, *ctfpp, *typep,
			    v[n]);

			if (t == CTF_ERR)
				dt_cc_error(pcb, D_DECL_DYNOBJ, "cannot "
				    "declare array of associative arrays");
			*typep = t;
			*ctfpp = pcb->pcb_cc->cc_ctf;
			break;
		}
		case DT_DK_FUNC:
			*typep = dt_decl_func_type(pcb, *ctfpp, *typep, v[n]);
			*ctfpp = pcb->pcb_cc->cc_ctf;
			break;
		default:
			break;
		}
	}
}

/* The type a type name (specifiers plus abstract declarator) denotes. */
void
dt_decl_type(dt_pcb_t *pcb, dt_decl_t *ddp, ctf_dict_t **ctfpp,
    ctf_id_t *typep)
{
	if (ddp->dd_kind == DT_DK_SPEC) {
		dt_decl_spectype(pcb, ddp, ctfpp, typep);
		return;
	}
	dt_decl_spectype(pcb, ddp->dd_spec, ctfpp, typep);
	dt_decl_derive(pcb, ddp->dd_next, NULL, ctfpp, typep);
}

/*
 * Structs and unions.  A named struct is declared forward at its opening
 * brace so its members may point at it; at the closing brace it is
 * defined with its computed size and its members at their offsets.
 */

void
dt_decl_sou_begin(dt_pcb_t *pcb, int kind, char *name)
{
	dt_cc_t *cc = pcb->pcb_cc;
	dt_sou_t *sp = calloc(1, sizeof (*sp));
	char n[512];
	ctf_id_t t;

	if (sp == NULL)
		dt_cc_nomem(pcb);
	sp->ds_next = pcb->pcb_sou;
	pcb->pcb_sou = sp;
	sp->ds_kind = kind;
	sp->ds_name = name;
	sp->ds_line = pcb->pcb_line;
	sp->ds_ctfp = cc->cc_ctf;
	sp->ds_align = 1;
	sp->ds_type = CTF_ERR;
	if (name != NULL) {
		snprintf(n, sizeof (n), "%s %s",
		    kind == CTF_K_STRUCT ? "struct" : "union", name);
		if ((t = ctf_lookup_by_name(cc->cc_ctf, n)) != CTF_ERR &&
		    ctf_type_kind(cc->cc_ctf, t) != CTF_K_FORWARD)
			dt_cc_error(pcb, D_DECL_TYPERED, "type redeclared: %s",
			    n);
		if (t == CTF_ERR)
			t = ctf_add_forward(cc->cc_ctf, CTF_ADD_ROOT, name,
			    kind);
		sp->ds_type = t;
	}
}

void
dt_decl_sou_members(dt_pcb_t *pcb, dt_decl_t *spec, dt_decl_t *dtors)
{
	dt_sou_t *sp = pcb->pcb_sou;
	dt_cc_t *cc = pcb->pcb_cc;
	dt_member_t **tail, *mp;
	char n[512];

	if (sp == NULL)
		dt_cc_error(pcb, D_UNKNOWN, "member outside of a struct");
	if (spec->dd_class != DT_DC_DEFAULT)
		dt_cc_error(pcb, D_DECL_CLASS, "storage class not allowed "
		    "in a member declaration");
	for (tail = &sp->ds_members; *tail != NULL;
	    tail = &(*tail)->dm_next)
		continue;

	if (dtors == NULL) {
		/* An anonymous struct or union member. */
		ctf_dict_t *ctfp;
		ctf_id_t type;
		int k;

		dt_decl_spectype(pcb, spec, &ctfp, &type);
		k = ctf_type_kind(ctfp, ctf_type_resolve(ctfp, type));
		if (k != CTF_K_STRUCT && k != CTF_K_UNION)
			dt_cc_error(pcb, D_DECL_MNAME,
			    "member declaration requires a name");
		dtors = dt_decl_new(pcb, DT_DK_NONE);
	}
	for (dt_decl_t *d = dtors; d != NULL; d = d->dd_list) {
		const char *idname = d->dd_ident ? d->dd_ident : "(anon)";
		ctf_dict_t *ctfp;
		ctf_id_t type, base;
		ctf_encoding_t e;
		int kind;
		ssize_t size;

		dt_decl_spectype(pcb, spec, &ctfp, &type);
		pcb->pcb_arrctx = DT_ARRCTX_MEMBER;
		dt_decl_derive(pcb, d->dd_next, NULL, &ctfp, &type);
		pcb->pcb_arrctx = DT_ARRCTX_NONE;
		if (d->dd_ident != NULL && strchr(d->dd_ident, '`') != NULL)
			dt_cc_error(pcb, D_DECL_SCOPE, "D scoping operator "
			    "may not be used in a member name (%s)",
			    d->dd_ident);
		base = ctf_type_resolve(ctfp, type);
		kind = ctf_type_kind(ctfp, base);
		size = ctf_type_size(ctfp, base);
		if (ctfp == cc->cc_ctf && type == cc->cc_type_dyn)
			dt_cc_error(pcb, D_DECL_DYNOBJ,
			    "cannot have dynamic member: %s", idname);
		if (kind == CTF_K_FORWARD || ((kind == CTF_K_STRUCT ||
		    kind == CTF_K_UNION) && size == 0))
			dt_cc_error(pcb, D_DECL_INCOMPLETE, "incomplete "
			    "struct/union/enum %s: %s", dt_type_name(ctfp,
			    type, n, sizeof (n)), idname);
		if (size == 0 && !(d->dd_attr & DT_DA_BITFIELD) &&
		    kind != CTF_K_ARRAY)	/* a flexible member: [] */
			dt_cc_error(pcb, D_DECL_VOIDOBJ,
			    "cannot have void member: %s", idname);

		/* DTrace adds each member as it is read, so says it here. */
		for (dt_member_t *o = sp->ds_members; d->dd_ident != NULL &&
		    o != NULL; o = o->dm_next)
			if (o->dm_name != NULL &&
			    strcmp(o->dm_name, d->dd_ident) == 0)
				dt_cc_error(pcb, D_UNKNOWN, "failed to define "
				    "member '%s': Duplicate member or variable "
				    "name", d->dd_ident);
		if ((mp = calloc(1, sizeof (*mp))) == NULL)
			dt_cc_nomem(pcb);
		*tail = mp;
		tail = &mp->dm_next;
		mp->dm_name = d->dd_ident;
		mp->dm_type = dt_type_import(pcb, ctfp, type);

		if (d->dd_attr & DT_DA_BITFIELD) {
			int64_t bits;

			if (!dt_node_const_eval(pcb, d->dd_node, &bits) ||
			    bits < 0 || (bits == 0 && d->dd_ident != NULL))
				dt_cc_error(pcb, D_DECL_BFCONST, "positive "
				    "integral constant expression expected as "
				    "bit-field size");
			if ((kind != CTF_K_INTEGER && kind != CTF_K_ENUM) ||
			    (kind == CTF_K_INTEGER &&
			    (ctf_type_encoding(ctfp, base, &e) != 0 ||
			    e.cte_bits == 0)))
				dt_cc_error(pcb, D_DECL_BFTYPE,
				    "invalid type for bit-field: %s", idname);
			if ((uint64_t) bits > (uint64_t) size * 8)
				dt_cc_error(pcb, D_DECL_BFSIZE,
				    "bit-field too big for type: %s", idname);
			mp->dm_bits = (unsigned) bits;
			mp->dm_bitfield = true;
		} else if (d->dd_ident == NULL && kind != CTF_K_STRUCT &&
		    kind != CTF_K_UNION)
			dt_cc_error(pcb, D_DECL_MNAME,
			    "member declaration requires a name");
		sp->ds_nmembers++;
	}
}

static uint64_t
dt_roundup(uint64_t v, uint64_t a)
{
	return a == 0 ? v : (v + a - 1) / a * a;
}

dt_decl_t *
dt_decl_sou_end(dt_pcb_t *pcb)
{
	dt_sou_t *sp = pcb->pcb_sou;
	dt_cc_t *cc = pcb->pcb_cc;
	ctf_dict_t *fp = cc->cc_ctf;
	dt_member_t *mp;
	uint64_t off = 0, end = 0, size;
	dt_decl_t *ddp;
	ctf_id_t t;
	char n[512];

	/*
	 * First pass: offsets in bits, laid out as DTrace lays out the
	 * structs a D program declares (its CTF library's rule, not a C
	 * compiler's): each member starts at the first byte after the end
	 * of the one before, rounded up to its alignment; a bit-field
	 * takes the smallest power-of-two number of bytes that holds its
	 * bits, aligned to that size, so bit-fields are not packed
	 * together; a zero-width bit-field is ignored; and there is no
	 * padding after the last member.
	 */
	for (mp = sp->ds_members; mp != NULL; mp = mp->dm_next) {
		ssize_t msize = ctf_type_size(fp, mp->dm_type);
		ssize_t malign = dt_type_align(fp, mp->dm_type);
		uint64_t at, mbits;

		if (mp->dm_bitfield && mp->dm_bits == 0)
			continue;
		if (mp->dm_bitfield) {
			msize = 1;
			while ((uint64_t) msize * 8 < mp->dm_bits)
				msize *= 2;
			malign = msize;
			mbits = mp->dm_bits;
		} else
			mbits = msize > 0 ? (uint64_t) msize * 8 : 0;
		if (msize < 0)
			msize = 0;
		if (malign <= 0)
			malign = 1;
		if (sp->ds_kind == CTF_K_UNION) {
			mp->dm_offset = 0;
			if ((uint64_t) msize * 8 > end)
				end = (uint64_t) msize * 8;
			continue;
		}
		at = dt_roundup(dt_roundup(off, 8) / 8, (uint64_t) malign);
		mp->dm_offset = at * 8;
		off = mp->dm_offset + mbits;
		end = (at + (uint64_t) msize) * 8;
	}
	size = end / 8;

	if (sp->ds_kind == CTF_K_STRUCT)
		t = ctf_add_struct_sized(fp, CTF_ADD_ROOT, sp->ds_name, size);
	else
		t = ctf_add_union_sized(fp, CTF_ADD_ROOT, sp->ds_name, size);
	if (t == CTF_ERR)
		dt_cc_error(pcb, D_UNKNOWN, "failed to define %s %s: %s",
		    sp->ds_kind == CTF_K_STRUCT ? "struct" : "union",
		    sp->ds_name ? sp->ds_name : "(anon)",
		    ctf_errmsg(ctf_errno(fp)));

	for (mp = sp->ds_members; mp != NULL; mp = mp->dm_next) {
		int r;

		if (mp->dm_bitfield && mp->dm_bits == 0)
			continue;
		if (mp->dm_name != NULL && ctf_member_info(fp, t, mp->dm_name,
		    &(ctf_membinfo_t) { 0 }) == 0)
			dt_cc_error(pcb, D_DECL_IDRED,
			    "identifier redeclared: %s", mp->dm_name);
		if (mp->dm_bitfield) {
			ctf_encoding_t e;
			ctf_id_t base = ctf_type_resolve(fp, mp->dm_type);

			if (ctf_type_kind(fp, base) == CTF_K_ENUM) {
				e.cte_format = CTF_INT_SIGNED;
				e.cte_offset = 0;
				e.cte_bits = mp->dm_bits;
			} else {
				ctf_type_encoding(fp, base, &e);
				e.cte_offset = 0;
				e.cte_bits = mp->dm_bits;
			}
			r = ctf_add_member_encoded(fp, t, mp->dm_name,
			    mp->dm_type, mp->dm_offset, e);
		} else
			r = ctf_add_member_offset(fp, t, mp->dm_name,
			    mp->dm_type, mp->dm_offset);
		if (r != 0)
			dt_cc_error(pcb, D_UNKNOWN, "failed to define member "
			    "'%s': %s", mp->dm_name ? mp->dm_name : "(anon)",
			    ctf_errmsg(ctf_errno(fp)));
	}
	(void) n;

	ddp = dt_decl_new(pcb, DT_DK_SPEC);
	ddp->dd_ctfp = fp;
	ddp->dd_type = t;
	ddp->dd_line = sp->ds_line;

	pcb->pcb_sou = sp->ds_next;
	dt_member_free_list(sp->ds_members);
	free(sp);
	return ddp;
}

/* A reference to a tag: struct foo, union bar, enum baz. */
dt_decl_t *
dt_decl_sou_ref(dt_pcb_t *pcb, int kind, char *name)
{
	dt_cc_t *cc = pcb->pcb_cc;
	dt_decl_t *ddp = dt_decl_new(pcb, DT_DK_SPEC);
	const char *kw = kind == CTF_K_STRUCT ? "struct" :
	    kind == CTF_K_UNION ? "union" : "enum";
	char n[512];
	ctf_id_t t;

	ctf_dict_t *fp;

	bool defining = false;

	/* A struct naming itself while it is defined means itself. */
	for (dt_sou_t *sp = pcb->pcb_sou; sp != NULL; sp = sp->ds_next)
		if (sp->ds_kind == kind && sp->ds_name != NULL &&
		    strcmp(sp->ds_name, name) == 0)
			defining = true;
	snprintf(n, sizeof (n), "%s %s", kw, name);
	/* D's and C's tags, then the kernel's (dt_type_lookup). */
	if (defining ? (fp = cc->cc_ctf, t = ctf_lookup_by_name(fp, n)) !=
	    CTF_ERR : dt_type_lookup(cc, n, &fp, &t) == 0) {
		ddp->dd_ctfp = fp;
		ddp->dd_type = t;
		return ddp;
	}
	if (strchr(name, '`') != NULL)
		dt_cc_error(pcb, D_TYPE_ERR, "failed to resolve type %s: no "
		    "such type in that module, or no type information for it",
		    n);
	/* As in C, naming an unknown tag declares it. */
	if ((t = ctf_add_forward(cc->cc_ctf, CTF_ADD_ROOT, name, kind)) ==
	    CTF_ERR)
		dt_cc_error(pcb, D_UNKNOWN, "failed to declare %s: %s", n,
		    ctf_errmsg(ctf_errno(cc->cc_ctf)));
	ddp->dd_ctfp = cc->cc_ctf;
	ddp->dd_type = t;
	return ddp;
}

void
dt_decl_enum_begin(dt_pcb_t *pcb, char *name)
{
	dt_cc_t *cc = pcb->pcb_cc;
	dt_sou_t *sp = calloc(1, sizeof (*sp));
	char n[512];
	ctf_id_t t;

	if (sp == NULL)
		dt_cc_nomem(pcb);
	sp->ds_next = pcb->pcb_sou;
	pcb->pcb_sou = sp;
	sp->ds_kind = CTF_K_ENUM;
	sp->ds_name = name;
	sp->ds_line = pcb->pcb_line;
	if (name != NULL) {
		snprintf(n, sizeof (n), "enum %s", name);
		if ((t = ctf_lookup_by_name(cc->cc_ctf, n)) != CTF_ERR &&
		    ctf_type_kind(cc->cc_ctf, t) != CTF_K_FORWARD)
			dt_cc_error(pcb, D_DECL_TYPERED, "type redeclared: %s",
			    n);
	}
	if ((t = ctf_add_enum(cc->cc_ctf, CTF_ADD_ROOT, name)) == CTF_ERR)
		dt_cc_error(pcb, D_UNKNOWN, "failed to define enum %s: %s",
		    name ? name : "(anon)", ctf_errmsg(ctf_errno(cc->cc_ctf)));
	sp->ds_ctfp = cc->cc_ctf;
	sp->ds_type = t;
}

void
dt_decl_enumerator(dt_pcb_t *pcb, char *name, dt_node_t *val)
{
	dt_sou_t *sp = pcb->pcb_sou;
	dt_cc_t *cc = pcb->pcb_cc;
	dt_ident_t *idp;
	int64_t v;

	if (val != NULL) {
		if (!dt_node_const_eval(pcb, val, &v))
			dt_cc_error(pcb, D_DECL_ENCONST, "enumerator '%s' must "
			    "be assigned to an integral constant expression",
			    name);
	} else
		v = sp->ds_enumval;
	if (v > INT_MAX || v < INT_MIN)
		dt_cc_error(pcb, D_DECL_ENOFLOW, "enumerator '%s' value "
		    "overflows INT_MAX (%d)", name, INT_MAX);
	if (ctf_add_enumerator(sp->ds_ctfp, sp->ds_type, name, (int) v) != 0)
		dt_cc_error(pcb, D_UNKNOWN, "failed to define enumerator "
		    "'%s': %s", name, ctf_errno(sp->ds_ctfp) == ECTF_DUPLICATE ?
		    "Duplicate member or variable name" :
		    ctf_errmsg(ctf_errno(sp->ds_ctfp)));
	if ((idp = dt_idhash_lookup(cc->cc_globals, name)) != NULL)
		dt_cc_error(pcb, D_DECL_IDRED, "identifier redeclared: %s",
		    name);
	sp->ds_enumval = v + 1;
	idp = dt_idhash_insert(cc->cc_globals, name, DT_IDENT_ENUM, 0, 0,
	    cc->cc_gen);
	if (idp == NULL)
		dt_cc_nomem(pcb);
	idp->di_value = v;
	idp->di_ctfp = sp->ds_ctfp;
	idp->di_type = sp->ds_type;
	idp->di_line = pcb->pcb_line;
}

dt_decl_t *
dt_decl_enum_end(dt_pcb_t *pcb)
{
	dt_sou_t *sp = pcb->pcb_sou;
	dt_decl_t *ddp = dt_decl_new(pcb, DT_DK_SPEC);

	ddp->dd_ctfp = sp->ds_ctfp;
	ddp->dd_type = sp->ds_type;
	ddp->dd_line = sp->ds_line;
	pcb->pcb_sou = sp->ds_next;
	free(sp);
	return ddp;
}

/* A parameter of a function, probe or associative array key list. */
dt_node_t *
dt_decl_param(dt_pcb_t *pcb, dt_decl_t *spec, dt_decl_t *dtor)
{
	dt_node_t *dnp = dt_node_alloc(pcb, DT_NODE_TYPE);
	ctf_dict_t *ctfp;
	ctf_id_t type;

	if (spec == NULL) {
		/* "..." */
		dnp->dn_type = CTF_ERR;
		dnp->dn_flags |= DT_NF_COOKED;
		return dnp;
	}
	if (spec->dd_class != DT_DC_DEFAULT &&
	    spec->dd_class != DT_DC_REGISTER)
		dt_cc_error(pcb, D_DECL_PARMCLASS, "inappropriate storage "
		    "class for function or associative array parameter");
	dt_decl_spectype(pcb, spec, &ctfp, &type);
	if (dtor != NULL) {
		bool assoc = false;

		/* A parameter declared x[type] is an associative array. */
		for (dt_decl_t *d = dtor; d != NULL; d = d->dd_next)
			if (d->dd_kind == DT_DK_ARRAY && d->dd_node != NULL &&
			    d->dd_node->dn_kind == DT_NODE_TYPE)
				assoc = true;
		if (assoc) {
			ctfp = pcb->pcb_cc->cc_ctf;
			type = pcb->pcb_cc->cc_type_dyn;
		} else {
			int ctx = pcb->pcb_arrctx;

			pcb->pcb_arrctx = DT_ARRCTX_PARAM;
			dt_decl_derive(pcb, dtor, NULL, &ctfp, &type);
			pcb->pcb_arrctx = ctx;
		}
		for (dt_decl_t *d = dtor; d != NULL; d = d->dd_next)
			if (d->dd_kind == DT_DK_NONE && d->dd_ident != NULL)
				dnp->dn_string = d->dd_ident;
	}
	if (spec->dd_ident != NULL)
		dnp->dn_string = spec->dd_ident;
	dt_node_type_assign(dnp, ctfp, type);
	dnp->dn_flags |= DT_NF_COOKED;
	return dnp;
}

/* Declare one variable (global, self-> or this->) with a type. */
static void
dt_decl_var(dt_pcb_t *pcb, dt_decl_t *spec, dt_decl_t *d, const char *name)
{
	dt_cc_t *cc = pcb->pcb_cc;
	dt_idhash_t *dhp = cc->cc_globals;
	dt_decl_t *outer = NULL;
	ctf_dict_t *ctfp;
	ctf_id_t type;
	dt_idkind_t kind = DT_IDENT_SCALAR;
	dt_ident_t *idp;
	uint32_t id, flags = DT_IDFLG_WRITE | DT_IDFLG_DECL;
	char n1[512], n2[512];

	if (spec->dd_class == DT_DC_SELF)
		dhp = cc->cc_tls, flags |= DT_IDFLG_TLS;
	else if (spec->dd_class == DT_DC_THIS)
		dhp = pcb->pcb_locals, flags |= DT_IDFLG_LOCAL;

	/* The first derivation from the name decides: key list => array. */
	for (dt_decl_t *x = d; x != NULL; x = x->dd_next) {
		if (x->dd_kind != DT_DK_NONE) {
			outer = x;
			break;
		}
	}
	dt_decl_spectype(pcb, spec, &ctfp, &type);
	if (outer != NULL && outer->dd_kind == DT_DK_ARRAY &&
	    outer->dd_node != NULL && outer->dd_node->dn_kind == DT_NODE_TYPE) {
		if (spec->dd_class == DT_DC_THIS)
			dt_cc_error(pcb, D_DECL_LOCASSC, "associative arrays "
			    "may not be declared as local variables: %s",
			    name);
		dt_decl_derive(pcb, outer->dd_next, NULL, &ctfp, &type);
		kind = DT_IDENT_ARRAY;
	} else
		dt_decl_derive(pcb, d, NULL, &ctfp, &type);

	if (dt_type_is_void(ctfp, type))
		dt_cc_error(pcb, D_DECL_VOIDOBJ, "cannot declare void object: "
		    "%s", name);
	if (ctf_type_kind(ctfp, ctf_type_resolve(ctfp, type)) ==
	    CTF_K_FUNCTION) {
		/* A function prototype: D has no use for it. */
		return;
	}

	if ((idp = dt_idhash_lookup(dhp, name)) != NULL) {
		if (idp->di_kind != kind || idp->di_ctfp == NULL ||
		    !dt_type_compat(idp->di_ctfp, idp->di_type, ctfp, type) ||
		    (idp->di_flags & (DT_IDFLG_BUILTIN | DT_IDFLG_INLINE))) {
			if (idp->di_kind == kind && idp->di_ctfp != NULL &&
			    !(idp->di_flags & DT_IDFLG_BUILTIN))
				dt_cc_error(pcb, D_DECL_IDRED, "identifier "
				    "redeclared: %s\n\t current: %s\n\t"
				    "previous: %s", name, dt_type_name(ctfp,
				    type, n1, sizeof (n1)),
				    dt_type_name(idp->di_ctfp, idp->di_type,
				    n2, sizeof (n2)));
			dt_cc_error(pcb, D_DECL_IDRED,
			    "identifier redeclared: %s", name);
		}
		return;
	}
	if (dt_idhash_nextid(dhp, &id) != 0)
		dt_cc_error(pcb, D_ID_OFLOW, "cannot create %s: limit on "
		    "number of %s variables exceeded", name, dhp->dh_name);
	idp = dt_idhash_insert(dhp, name, kind, flags, id, cc->cc_gen);
	if (idp == NULL)
		dt_cc_nomem(pcb);
	idp->di_scope = spec->dd_class == DT_DC_SELF ? 1 :
	    spec->dd_class == DT_DC_THIS ? 2 : 0;
	idp->di_line = d->dd_line;
	dt_ident_type_assign(idp, ctfp, type);
	dt_ident_layout(pcb, idp);
	if (kind == DT_IDENT_ARRAY) {
		dt_node_t *k;
		int i = 0, nk = (int) dt_node_list_len(outer->dd_node);
		dt_idsig_t *sig = calloc(1, sizeof (*sig));

		if (sig == NULL)
			dt_cc_nomem(pcb);
		idp->di_sig = sig;
		sig->ds_varargs = sig->ds_optargs = -1;
		sig->ds_ctfp = calloc(nk + 1, sizeof (ctf_dict_t *));
		sig->ds_type = calloc(nk + 1, sizeof (ctf_id_t));
		sig->ds_flags = calloc(nk + 1, sizeof (uint32_t));
		if (sig->ds_ctfp == NULL || sig->ds_type == NULL ||
		    sig->ds_flags == NULL)
			dt_cc_nomem(pcb);
		for (k = outer->dd_node; k != NULL; k = k->dn_list, i++) {
			if (k->dn_type == CTF_ERR)
				dt_cc_error(pcb, D_DECL_PROTO_VARARGS, "array "
				    "prototype may not use a variable-length "
				    "argument list");
			if (dt_node_is_void(k))
				dt_cc_error(pcb, D_DECL_PROTO_TYPE, "array "
				    "prototype may not use parameter of type "
				    "%s: %s, parameter #%d", dt_type_name(
				    k->dn_ctfp, k->dn_type, n1, sizeof (n1)),
				    k->dn_string ? k->dn_string : "(anonymous)",
				    i + 1);
			sig->ds_ctfp[i] = k->dn_ctfp;
			sig->ds_type[i] = k->dn_type;
			sig->ds_flags[i] = k->dn_flags;
		}
		sig->ds_argc = nk;
	}
}
/*
 * Whether two types are integers of one size.  A typedef that a header
 * included with -C makes again (glibc's uint64_t is unsigned long, D's
 * unsigned long long; its id_t is unsigned) keeps D's own: the headers'
 * typedefs share D's namespace here, and the value is the same either way.
 */
static bool
dt_decl_same_int(ctf_dict_t *ctfp, ctf_id_t a, ctf_id_t b)
{
	ctf_encoding_t ea, eb;

	a = ctf_type_resolve(ctfp, a);
	b = ctf_type_resolve(ctfp, b);
	return a != CTF_ERR && b != CTF_ERR &&
	    ctf_type_kind(ctfp, a) == CTF_K_INTEGER &&
	    ctf_type_kind(ctfp, b) == CTF_K_INTEGER &&
	    ctf_type_encoding(ctfp, a, &ea) == 0 &&
	    ctf_type_encoding(ctfp, b, &eb) == 0 && ea.cte_bits == eb.cte_bits;
}


void
dt_decl_declare(dt_pcb_t *pcb, dt_decl_t *spec, dt_decl_t *dtors)
{
	dt_cc_t *cc = pcb->pcb_cc;

	if (spec->dd_class == DT_DC_AUTO || spec->dd_class == DT_DC_REGISTER ||
	    spec->dd_class == DT_DC_STATIC)
		dt_cc_error(pcb, D_DECL_BADCLASS, "specified storage class "
		    "not appropriate in D");

	/*
	 * "typedef unsigned short __kernel_old_uid_t;" of a header, where the
	 * lexer took the name for the kernel's type of that name: after
	 * integer keywords, which make a type of their own, it is the name
	 * declared, as in C.
	 */
	if (dtors == NULL && spec->dd_ident == NULL && spec->dd_name != NULL &&
	    (spec->dd_attr & DT_DA_TNAME) && (spec->dd_attr & (DT_DA_SIGNED |
	    DT_DA_UNSIGNED | DT_DA_SHORT | DT_DA_LONG | DT_DA_LONGLONG))) {
		spec->dd_ident = spec->dd_name;
		spec->dd_name = NULL;
		spec->dd_attr &= ~DT_DA_TNAME;
	}
	if (dtors == NULL && spec->dd_ident != NULL) {
		/* "int foo_t;": the type name was the declared name. */
		dtors = dt_decl_new(pcb, DT_DK_NONE);
		dtors->dd_ident = spec->dd_ident;
		spec->dd_ident = NULL;
	}
	if (dtors == NULL) {
		/* Only a struct, union or enum definition is useful. */
		if (spec->dd_ctfp != NULL && spec->dd_name == NULL) {
			ctf_dict_t *ctfp;
			ctf_id_t type;

			/* "long struct s {...};" is still wrong. */
			dt_decl_spectype(pcb, spec, &ctfp, &type);
		}
		if (spec->dd_ctfp == NULL || spec->dd_class != DT_DC_DEFAULT)
			dt_cc_error(pcb, D_DECL_USELESS,
			    "useless declaration");
		return;
	}
	for (dt_decl_t *d = dtors; d != NULL; d = d->dd_list) {
		const char *name = NULL;

		for (dt_decl_t *x = d; x != NULL; x = x->dd_next)
			if (x->dd_kind == DT_DK_NONE && x->dd_ident != NULL)
				name = x->dd_ident;
		if (name == NULL)
			dt_cc_error(pcb, D_DECL_USELESS,
			    "useless declaration");
		if (strchr(name, '`') != NULL)
			dt_cc_error(pcb, D_DECL_SCOPE, "D scoping operator "
			    "may not be used in a declaration name (%s)",
			    name);

		if (spec->dd_class == DT_DC_TYPEDEF) {
			ctf_dict_t *ctfp;
			ctf_id_t type, old;

			dt_decl_spectype(pcb, spec, &ctfp, &type);
			dt_decl_derive(pcb, d, NULL, &ctfp, &type);
			type = dt_type_import(pcb, ctfp, type);
			if ((old = ctf_lookup_by_name(cc->cc_ctf, name)) !=
			    CTF_ERR) {
				if (ctf_type_resolve(cc->cc_ctf, old) ==
				    ctf_type_resolve(cc->cc_ctf, type) ||
				    dt_decl_same_int(cc->cc_ctf, old, type))
					continue;
				dt_cc_error(pcb, D_DECL_IDRED,
				    "typedef redeclared: %s", name);
			}
			if (dt_idhash_lookup(cc->cc_globals, name) != NULL &&
			    !(dt_idhash_lookup(cc->cc_globals, name)->di_flags
			    & DT_IDFLG_BUILTIN))
				dt_cc_error(pcb, D_DECL_IDRED,
				    "identifier redeclared: %s", name);
			if (ctf_add_typedef(cc->cc_ctf, CTF_ADD_ROOT, name,
			    type) == CTF_ERR)
				dt_cc_error(pcb, D_UNKNOWN, "failed to "
				    "create typedef %s: %s", name,
				    ctf_errmsg(ctf_errno(cc->cc_ctf)));
			continue;
		}
		if (spec->dd_class == DT_DC_EXTERN) {
			/* Kernel symbols are resolved when BTF is loaded. */
			continue;
		}
		dt_decl_var(pcb, spec, d, name);
	}
}

/* Evaluate an integral constant expression; false if it is not one. */
bool
dt_node_const_eval(dt_pcb_t *pcb, dt_node_t *dnp, int64_t *valp)
{
	if (dnp == NULL)
		return false;
	dnp = dt_node_cook(pcb, dnp, DT_IDFLG_REF);
	if (dnp->dn_kind != DT_NODE_INT || !dt_node_is_integer(dnp))
		return false;
	*valp = (int64_t) dnp->dn_value;
	return true;
}
