/* SPDX-License-Identifier: MIT */
/*
 * dt_cook.c: semantic checks of D expressions ("cooking").
 *
 * dt_node_cook() walks an expression bottom-up, resolves every identifier
 * to what it names, gives every node its D type and flags, applies D's
 * typing rules (ANSI C's, with D's strings, associative arrays and
 * aggregations) and rewrites the tree into the shape code generation
 * wants:
 *
 *	x = e		first assignment creates global x, typed as e
 *	self->x, this->x  become VAR nodes of thread-local / clause scope
 *	a[k, ...]	VAR node of an associative array, keys in dn_args
 *	p[i]		*(p + i) for C arrays and pointers
 *	@a[k] = f(e)	AGG node: dn_aggtup keys, dn_aggfun the call
 *	integer constant operations are folded
 *
 * idflags (DT_IDFLG_REF / DT_IDFLG_MOD) say whether the enclosing
 * expression reads or writes a variable, for "has not yet been declared
 * or assigned" and for the variable tables code generation builds.
 *
 * Messages are DTrace's, word for word.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/compiler/dt_cc.h"
#include "common/dif/dif.h"
#include "common/dt_os.h"
#include "common/probe/dt_probe.h"

#define N1 char n1[512]
#define N2 char n2[512]
#define TNAME(dnp, buf) dt_node_type_name(cc, (dnp), (buf), sizeof (buf))

static dt_node_t *dt_cook_lbrac(dt_pcb_t *, dt_node_t *, unsigned);

/* Make a variable node for an identifier of a given table. */
/*
 * A built-in typed as a pointer to a forward declaration (curthread is
 * "struct task_struct *" before any kernel type is loaded) takes the
 * kernel's definition once a program uses it, so that *curthread,
 * sizeof and comparisons with kernel pointers see the real type.  The
 * prelude does not load kernel types; this is where they come in.
 */
static void
dt_cook_builtin_type(dt_cc_t *cc, dt_ident_t *idp)
{
	ctf_dict_t *fp = idp->di_ctfp;
	ctf_id_t t = ctf_type_resolve(fp, idp->di_type), ref;

	if (t == CTF_ERR || ctf_type_kind(fp, t) != CTF_K_POINTER)
		return;
	ref = ctf_type_resolve(fp, ctf_type_reference(fp, t));
	if (ref == CTF_ERR || ctf_type_kind(fp, ref) != CTF_K_FORWARD ||
	    !dt_type_complete(cc, &fp, &ref))
		return;
	if ((t = ctf_type_pointer(fp, ref)) == CTF_ERR &&
	    (t = ctf_add_pointer(fp, CTF_ADD_ROOT, ref)) == CTF_ERR)
		return;
	dt_ident_type_assign(idp, fp, t);
}

static dt_node_t *
dt_node_var(dt_pcb_t *pcb, dt_node_t *dnp, dt_ident_t *idp)
{
	dnp->dn_kind = idp->di_kind == DT_IDENT_AGG ? DT_NODE_AGG :
	    DT_NODE_VAR;
	dnp->dn_ident = idp;
	dnp->dn_flags |= DT_NF_LVALUE;
	if (idp->di_flags & DT_IDFLG_WRITE)
		dnp->dn_flags |= DT_NF_WRITABLE;
	if (idp->di_kind == DT_IDENT_ARRAY || idp->di_kind == DT_IDENT_AGG) {
		dt_node_type_assign(dnp, pcb->pcb_cc->cc_ctf,
		    pcb->pcb_cc->cc_type_dyn);
	} else if (!dt_ident_unref(idp)) {
		if (idp->di_flags & DT_IDFLG_BUILTIN)
			dt_cook_builtin_type(pcb->pcb_cc, idp);
		dt_node_type_assign(dnp, idp->di_ctfp, idp->di_type);
	}
	/*
	 * An inline defined by xlate, or a variable holding a translated
	 * pointer: its members are translated.
	 */
	if ((idp->di_flags & DT_IDFLG_INLINE) && idp->di_inline != NULL &&
	    idp->di_inline->dn_xlator != NULL)
		dnp->dn_xlator = idp->di_inline->dn_xlator;
	else if (idp->di_flags & DT_IDFLG_XLPTR)
		dnp->dn_xlator = idp->di_data;
	if (dnp->dn_flags & DT_NF_REF)
		dnp->dn_flags |= DT_NF_DPTR;
	return dnp;
}

/*
 * A kernel variable named with the backquote operator, `name or
 * module`name: *(T *)address, its address from the kernel's symbol table
 * and T from its type information.  Reading it needs the in-kernel engine
 * (the statement says so: dt_cg.c marks it).
 */
static dt_node_t *
dt_cook_ksym(dt_pcb_t *pcb, dt_node_t *dnp)
{
	const char *name = dnp->dn_string, *bq = strchr(name, '`'), *why;
	char mod[128];
	ctf_dict_t *ctfp;
	ctf_id_t type;
	uint64_t addr;
	dt_node_t *sym;
	int rc;

	if ((size_t) (bq - name) >= sizeof (mod) || bq[1] == '\0')
		dt_cc_error(pcb, D_IDENT_UNDEF, "failed to resolve %s: "
		    "Unknown symbol name", name);
	memcpy(mod, name, (size_t) (bq - name));
	mod[bq - name] = '\0';
	rc = dt_os_kvar_lookup(pcb->pcb_hdl, mod[0] != '\0' ? mod : NULL,
	    bq + 1, &addr, &ctfp, &type, &why);
	if (rc == -1)
		dt_cc_error(pcb, D_IDENT_UNDEF, "failed to resolve %s: "
		    "Unknown symbol name", name);
	if (rc != 0)
		dt_cc_error(pcb, D_SYM_NOTYPES, "no symbolic type information "
		    "is available for %s%s%s", name, why != NULL ? ": " : "",
		    why != NULL ? why : "");
	type = dt_type_pointer(pcb, &ctfp, type);
	sym = dt_node_alloc(pcb, DT_NODE_SYM);
	sym->dn_line = dnp->dn_line;
	sym->dn_value = addr;
	sym->dn_string = dnp->dn_string;
	dt_node_type_assign(sym, ctfp, type);
	sym->dn_flags |= DT_NF_COOKED;
	dnp->dn_kind = DT_NODE_OP1;
	dnp->dn_op = DT_OP_DEREF;
	dnp->dn_string = NULL;
	dnp->dn_child = sym;
	dnp = dt_node_cook(pcb, dnp, 0);
	/*
	 * A kernel variable is an object whatever its type: &`linux_banner
	 * is its address, as in DTrace, though an array is no lvalue else.
	 */
	dnp->dn_flags |= DT_NF_LVALUE;
	return dnp;
}

/*
 * Find (or, when create is set, make) the variable an identifier names in
 * table dhp.  Globals are searched in the translator's input name first.
 */
static dt_node_t *
dt_xcook_ident(dt_pcb_t *pcb, dt_node_t *dnp, dt_idhash_t *dhp,
    dt_idkind_t idkind, bool create)
{
	dt_cc_t *cc = pcb->pcb_cc;
	const char *name = dnp->dn_string;
	dt_ident_t *idp;
	uint32_t id;

	if (dnp->dn_kind != DT_NODE_IDENT)
		return dnp;
	if (dhp == cc->cc_globals && pcb->pcb_xlator != NULL &&
	    strcmp(name, pcb->pcb_xlator->dx_arg) == 0) {
		idp = pcb->pcb_xlator->dx_argid;
		dnp = dt_node_var(pcb, dnp, idp);
		dnp->dn_flags &= ~DT_NF_WRITABLE;
		return dnp;
	}
	/* The index of an inline array, in its definition. */
	if (dhp == cc->cc_globals && pcb->pcb_iparam != NULL &&
	    strcmp(name, pcb->pcb_iparam->di_name) == 0) {
		dnp = dt_node_var(pcb, dnp, pcb->pcb_iparam);
		dnp->dn_flags &= ~DT_NF_WRITABLE;
		return dnp;
	}
	if (strchr(name, '`') != NULL)
		return dt_cook_ksym(pcb, dnp);
	if ((idp = dt_idhash_lookup(dhp, name)) != NULL) {
		if (dhp == cc->cc_globals && idp->di_kind != idkind &&
		    !(idp->di_kind == DT_IDENT_ENUM &&
		    idkind == DT_IDENT_SCALAR))
			dt_cc_error(pcb, D_IDENT_BADREF, "%s '%s' may not be "
			    "referenced as %s", dt_idkind_name(idp->di_kind),
			    idp->di_name, dt_idkind_name(idkind));
		if (idp->di_kind == DT_IDENT_ENUM) {
			dnp->dn_kind = DT_NODE_INT;
			dnp->dn_value = (uint64_t) idp->di_value;
			dnp->dn_string = NULL;
			dt_node_type_assign(dnp, idp->di_ctfp, idp->di_type);
			dnp->dn_flags |= DT_NF_SIGNED | DT_NF_COOKED;
			return dnp;
		}
		/*
		 * An inline defined as an integer constant is that constant,
		 * as in DTrace: an array size, a uregs[] index...
		 */
		if ((idp->di_flags & DT_IDFLG_INLINE) &&
		    dhp == cc->cc_globals && idp->di_inline != NULL &&
		    idp->di_inline->dn_kind == DT_NODE_INT) {
			const dt_node_t *c = idp->di_inline;
			ssize_t size;

			/* The constant, at the inline's declared type. */
			dnp->dn_kind = DT_NODE_INT;
			dnp->dn_value = c->dn_value;
			dnp->dn_string = NULL;
			dt_node_type_assign(dnp, idp->di_ctfp, idp->di_type);
			size = ctf_type_size(idp->di_ctfp, idp->di_type);
			if (size > 0 && size < 8) {
				uint64_t m = (1ULL << (8 * size)) - 1;

				dnp->dn_value &= m;
				if ((dnp->dn_flags & DT_NF_SIGNED) &&
				    (dnp->dn_value >> (8 * size - 1)))
					dnp->dn_value |= ~m;
			}
			dnp->dn_flags |= DT_NF_COOKED;
			return dnp;
		}
		return dt_node_var(pcb, dnp, idp);
	}
	if (!create) {
		if (dnp->dn_flags & DT_NF_AGGIDENT)
			dt_cc_error(pcb, D_IDENT_UNDEF, "failed to resolve "
			    "@%s: Unknown variable name", name);
		dt_cc_error(pcb, D_IDENT_UNDEF, "failed to resolve %s: "
		    "Unknown variable name", name);
	}
	if (dt_idhash_nextid(dhp, &id) != 0)
		dt_cc_error(pcb, D_ID_OFLOW, "cannot create %s: limit on "
		    "number of %s variables exceeded", name, dhp->dh_name);
	if ((idp = dt_idhash_insert(dhp, name, idkind, DT_IDFLG_WRITE |
	    (dhp == cc->cc_tls ? DT_IDFLG_TLS : 0) |
	    (dhp == pcb->pcb_locals ? DT_IDFLG_LOCAL : 0), id,
	    cc->cc_gen)) == NULL)
		dt_cc_nomem(pcb);
	idp->di_scope = dhp == cc->cc_tls ? DIFV_SCOPE_THREAD :
	    dhp == pcb->pcb_locals ? DIFV_SCOPE_LOCAL : DIFV_SCOPE_GLOBAL;
	idp->di_line = dnp->dn_line;
	return dt_node_var(pcb, dnp, idp);
}

/* A variable read before any declaration or assignment gave it a type. */
static void
dt_cook_var_ref(dt_pcb_t *pcb, dt_node_t *dnp, unsigned idflags)
{
	dt_ident_t *idp = dnp->dn_ident;

	if ((idflags & DT_IDFLG_REF) && dt_ident_unref(idp) &&
	    !(idp->di_flags & DT_IDFLG_BUILTIN))
		dt_cc_nerror(pcb, dnp, D_VAR_UNDEF, "%s%s has not yet been "
		    "declared or assigned", (idp->di_flags & DT_IDFLG_LOCAL) ?
		    "this->" : (idp->di_flags & DT_IDFLG_TLS) ? "self->" : "",
		    idp->di_name);
	idp->di_flags |= idflags;
}

static dt_node_t *
dt_cook_ident(dt_pcb_t *pcb, dt_node_t *dnp, unsigned idflags)
{
	dt_cc_t *cc = pcb->pcb_cc;

	if (dnp->dn_flags & DT_NF_AGGIDENT) {
		dnp = dt_xcook_ident(pcb, dnp, cc->cc_aggs, DT_IDENT_AGG,
		    false);
		return dnp;
	}
	if (strcmp(dnp->dn_string, "self") == 0 ||
	    strcmp(dnp->dn_string, "this") == 0)
		dt_cc_error(pcb, D_SYNTAX, "%s may only be used with "
		    "operator ->", dnp->dn_string);
	dnp = dt_xcook_ident(pcb, dnp, cc->cc_globals, DT_IDENT_SCALAR,
	    false);
	if (dnp->dn_kind == DT_NODE_VAR) {
		if (dnp->dn_ident->di_kind == DT_IDENT_ARRAY &&
		    (dnp->dn_ident->di_flags & DT_IDFLG_BUILTIN))
			dt_cc_error(pcb, D_IDENT_BADREF, "%s '%s' may not be "
			    "referenced as %s",
			    dt_idkind_name(DT_IDENT_ARRAY),
			    dnp->dn_ident->di_name,
			    dt_idkind_name(DT_IDENT_SCALAR));
		dt_cook_var_ref(pcb, dnp, idflags);
	}
	return dnp;
}

/*
 * alloca() and copyin() take their memory from scratch, which the
 * scratchsize option (when set) bounds: a constant size beyond it can
 * never succeed, so it is an error now rather than a fault each firing.
 */
static void
dt_cook_scratch_size(dt_pcb_t *pcb, const dt_node_t *dnp)
{
	dtrace_optval_t limit =
	    pcb->pcb_cc->cc_hdl->dt_options[DT_OPT_SCRATCHSIZE];
	const dt_node_t *size = dnp->dn_args;

	if (limit == DTRACEOPT_UNSET || size == NULL)
		return;
	if (dnp->dn_ident->di_id == DIF_SUBR_COPYIN &&
	    (size = size->dn_list) == NULL)
		return;
	if (size->dn_kind != DT_NODE_INT || size->dn_value <= (uint64_t) limit)
		return;
	dt_cc_error(pcb, D_ALLOCA_SIZE, "%s(%llu) size larger than "
	    "scratchsize %llu", dnp->dn_ident->di_name,
	    (unsigned long long) size->dn_value, (unsigned long long) limit);
}

/*
 * inet_ntoa6(addr, strict), Oracle Linux DTrace's form: a constant strict
 * flag, non-zero for IPv4-mapped and -compatible addresses written in
 * full as inet_ntop() writes them (::ffff:127.0.0.1, not 127.0.0.1).  So
 * it becomes inet_ntop(AF_INET6, addr), or plain inet_ntoa6(addr).
 */
static void
dt_cook_ntoa6(dt_pcb_t *pcb, dt_node_t *dnp)
{
	dt_node_t *addr = dnp->dn_args, *strict = addr->dn_list, *af;
	dt_ident_t *ntop;

	if (strict->dn_kind != DT_NODE_INT)
		dt_cc_error(pcb, D_PROTO_ARG, "%s( ) argument #2 must be an "
		    "integer constant", dnp->dn_ident->di_name);
	addr->dn_list = NULL;
	if (strict->dn_value == 0 ||
	    (ntop = dt_ident_lookup_global(pcb, "inet_ntop")) == NULL)
		return;
	af = dt_node_int(pcb, (uint64_t) dt_os_af_inet6, NULL);
	af->dn_list = addr;
	dnp->dn_args = af;
	dnp->dn_ident = ntop;
}

/*
 * printa(), clear(), trunc(), normalize() and denormalize() name their
 * aggregations rather than read them, so one that no earlier clause assigns
 * is DTrace's "undefined aggregation", tagged by the action, not an unknown
 * variable.
 */
static void
dt_check_aggargs(dt_pcb_t *pcb, dt_node_t *dnp, const dt_ident_t *idp)
{
	dt_errtag_t tag;
	dt_node_t *a;

	if (idp->di_kind != DT_IDENT_ACTFUNC)
		return;
	switch ((dt_actkind_t) idp->di_id) {
	case DT_ACT_PRINTA: tag = D_PRINTA_AGGBAD; break;
	case DT_ACT_CLEAR: tag = D_CLEAR_AGGBAD; break;
	case DT_ACT_TRUNC: tag = D_TRUNC_AGGBAD; break;
	case DT_ACT_NORMALIZE:
	case DT_ACT_DENORMALIZE: tag = D_NORMALIZE_AGGBAD; break;
	default: return;
	}
	for (a = dnp->dn_args; a != NULL; a = a->dn_list) {
		if (a->dn_kind == DT_NODE_IDENT &&
		    (a->dn_flags & DT_NF_AGGIDENT) &&
		    dt_idhash_lookup(pcb->pcb_cc->cc_aggs, a->dn_string) ==
		    NULL)
			dt_cc_nerror(pcb, dnp, tag, "undefined aggregation: "
			    "@%s", a->dn_string);
		if (tag != D_PRINTA_AGGBAD)
			break;
	}
}

static dt_node_t *
dt_cook_func(dt_pcb_t *pcb, dt_node_t *dnp, unsigned idflags)
{
	dt_ident_t *idp;

	if ((idp = dt_ident_lookup_global(pcb, dnp->dn_string)) == NULL)
		dt_cc_error(pcb, D_FUNC_UNDEF, "undefined function name: %s",
		    dnp->dn_string);
	if (idp->di_kind != DT_IDENT_FUNC && idp->di_kind != DT_IDENT_AGGFUNC &&
	    idp->di_kind != DT_IDENT_ACTFUNC)
		dt_cc_error(pcb, D_FUNC_IDKIND, "%s '%s' may not be "
		    "referenced as a function", dt_idkind_name(idp->di_kind),
		    idp->di_name);
	dnp->dn_ident = idp;
	dt_check_aggargs(pcb, dnp, idp);
	dt_node_list_cook(pcb, &dnp->dn_args, DT_IDFLG_REF);
	dt_ident_cook(pcb, dnp, idp, dnp->dn_args);
	if (idp->di_kind == DT_IDENT_FUNC && (idp->di_id == DIF_SUBR_ALLOCA ||
	    idp->di_id == DIF_SUBR_COPYIN))
		dt_cook_scratch_size(pcb, dnp);
	if (idp->di_kind == DT_IDENT_FUNC && idp->di_id == DIF_SUBR_INET_NTOA6 &&
	    dnp->dn_args != NULL && dnp->dn_args->dn_list != NULL)
		dt_cook_ntoa6(pcb, dnp);
	return dnp;
}

/* Fold an operation on integer constants into a constant. */
static dt_node_t *
dt_fold2(dt_pcb_t *pcb, dt_node_t *dnp, dt_node_t *lp, dt_node_t *rp)
{
	bool s = (dnp->dn_flags & DT_NF_SIGNED) != 0;
	uint64_t l = lp->dn_value, r = rp->dn_value, v;

	switch (dnp->dn_op) {
	case DT_OP_ADD: v = l + r; break;
	case DT_OP_SUB: v = l - r; break;
	case DT_OP_MUL: v = l * r; break;
	case DT_OP_DIV:
	case DT_OP_MOD:
		if (r == 0)
			dt_cc_error(pcb, D_DIV_ZERO, "expression contains "
			    "division by zero");
		if (s && (int64_t) r == -1)
			v = dnp->dn_op == DT_OP_DIV ? -l : 0;
		else if (s)
			v = dnp->dn_op == DT_OP_DIV ?
			    (uint64_t) ((int64_t) l / (int64_t) r) :
			    (uint64_t) ((int64_t) l % (int64_t) r);
		else
			v = dnp->dn_op == DT_OP_DIV ? l / r : l % r;
		break;
	case DT_OP_BAND: v = l & r; break;
	case DT_OP_BOR: v = l | r; break;
	case DT_OP_XOR: v = l ^ r; break;
	case DT_OP_LSH: v = r >= 64 ? 0 : l << r; break;
	case DT_OP_RSH:
		if (r >= 64)
			v = s && (int64_t) l < 0 ? UINT64_MAX : 0;
		else
			v = s ? (uint64_t) ((int64_t) l >> r) : l >> r;
		break;
	default:
		return dnp;
	}
	/*
	 * All 64 bits are kept, whatever the result's type, as the generated
	 * code keeps them in its registers: (1 << 63) - 1 is INT64_MAX where
	 * a 64-bit value is taken (an increment, a sum), and a store, cast
	 * or record of the int cuts it as it would cut a computed one.
	 */
	dnp->dn_kind = DT_NODE_INT;
	dnp->dn_value = v;
	dnp->dn_left = dnp->dn_right = NULL;
	dnp->dn_op = DT_OP_NONE;
	return dnp;
}

static dt_node_t *
dt_cook_op1(dt_pcb_t *pcb, dt_node_t *dnp, unsigned idflags)
{
	dt_cc_t *cc = pcb->pcb_cc;
	dt_node_t *cp = dnp->dn_child;
	ctf_dict_t *ctfp;
	ctf_id_t type, base;
	int kind;
	N1;

	if (dnp->dn_op == DT_OP_PREINC || dnp->dn_op == DT_OP_POSTINC ||
	    dnp->dn_op == DT_OP_PREDEC || dnp->dn_op == DT_OP_POSTDEC)
		idflags = DT_IDFLG_REF | DT_IDFLG_MOD;
	else
		idflags = DT_IDFLG_REF;

	if (dnp->dn_op == DT_OP_SIZEOF && cp->dn_kind == DT_NODE_TYPE) {
		size_t size = dt_node_sizeof(cc, cp);

		if (size == 0)
			dt_cc_error(pcb, D_SIZEOF_TYPE, "cannot apply sizeof "
			    "to an operand of unknown size");
		dnp->dn_kind = DT_NODE_INT;
		dnp->dn_value = size;
		dnp->dn_op = DT_OP_NONE;
		dt_node_type_assign(dnp, cc->cc_ctf, cc->cc_type_sizet);
		return dnp;
	}

	/* ++ and -- may create a variable, as int64_t. */
	if (cp->dn_kind == DT_NODE_IDENT && (idflags & DT_IDFLG_MOD) &&
	    !(cp->dn_flags & DT_NF_AGGIDENT))
		cp = dt_xcook_ident(pcb, cp, cc->cc_globals, DT_IDENT_SCALAR,
		    true);
	cp = dnp->dn_child = dt_node_cook(pcb, cp, 0);
	if (cp->dn_kind == DT_NODE_VAR && dt_ident_unref(cp->dn_ident) &&
	    (idflags & DT_IDFLG_MOD)) {
		dt_ident_type_assign(cp->dn_ident, cc->cc_ctf,
		    cc->cc_type_int64);
		cp->dn_ident->di_typegen = pcb->pcb_gen;
		dt_node_type_assign(cp, cc->cc_ctf, cc->cc_type_int64);
	}
	if (cp->dn_kind == DT_NODE_VAR)
		dt_cook_var_ref(pcb, cp, idflags);

	switch (dnp->dn_op) {
	case DT_OP_DEREF:
		type = ctf_type_resolve(cp->dn_ctfp, cp->dn_type);
		kind = type == CTF_ERR ? CTF_K_UNKNOWN :
		    ctf_type_kind(cp->dn_ctfp, type);
		/* A string is a char array: *s and s[i] are its chars. */
		if (kind == CTF_K_ARRAY) {
			ctf_arinfo_t ar;

			ctf_array_info(cp->dn_ctfp, type, &ar);
			type = ar.ctr_contents;
		} else if (kind == CTF_K_POINTER) {
			type = ctf_type_reference(cp->dn_ctfp, type);
		} else
			dt_cc_error(pcb, D_DEREF_NONPTR,
			    "cannot dereference non-pointer type");
		ctfp = cp->dn_ctfp;
		base = ctf_type_resolve(ctfp, type);
		/* *p of a pointer to a tag: the tag's definition. */
		if (base != CTF_ERR &&
		    ctf_type_kind(ctfp, base) == CTF_K_FORWARD &&
		    dt_type_complete(cc, &ctfp, &base))
			type = base;
		else
			ctfp = cp->dn_ctfp;
		dt_node_type_assign(dnp, ctfp, type);
		if (dt_node_is_xlptr(cp)) {
			dnp->dn_xlator = cp->dn_xlator;
			dnp->dn_flags |= DT_NF_XLATED;
		}
		base = ctf_type_resolve(ctfp, type);
		kind = base == CTF_ERR ? CTF_K_UNKNOWN :
		    ctf_type_kind(ctfp, base);
		if (dt_type_is_void(ctfp, type))
			dt_cc_error(pcb, D_DEREF_VOID,
			    "cannot dereference pointer to void");
		if (kind == CTF_K_FUNCTION)
			dt_cc_error(pcb, D_DEREF_FUNC,
			    "cannot dereference pointer to function");
		if (kind != CTF_K_ARRAY || dt_node_is_string(cc, dnp))
			dnp->dn_flags |= DT_NF_LVALUE;
		if ((cp->dn_flags & DT_NF_WRITABLE) ||
		    (cp->dn_kind == DT_NODE_OP2 && cp->dn_op == DT_OP_ADD &&
		    (cp->dn_left->dn_flags & DT_NF_WRITABLE)))
			dnp->dn_flags |= DT_NF_WRITABLE;
		if ((cp->dn_flags & DT_NF_USERLAND) &&
		    (kind == CTF_K_POINTER || (dnp->dn_flags & DT_NF_REF)))
			dnp->dn_flags |= DT_NF_USERLAND;
		break;

	case DT_OP_IPOS:
	case DT_OP_INEG:
		if (!dt_node_is_arith(cp))
			dt_cc_error(pcb, D_OP_ARITH, "operator %s requires an "
			    "operand of arithmetic type", dt_op_name(dnp->dn_op));
		dt_node_type_propagate(cp, dnp);
		if (cp->dn_kind == DT_NODE_INT) {
			dnp->dn_kind = DT_NODE_INT;
			dnp->dn_value = dnp->dn_op == DT_OP_INEG ?
			    -cp->dn_value : cp->dn_value;
			if (ctf_type_size(dnp->dn_ctfp, dnp->dn_type) == 4 &&
			    !(dnp->dn_flags & DT_NF_SIGNED))
				dnp->dn_value = (uint32_t) dnp->dn_value;
			else if (ctf_type_size(dnp->dn_ctfp,
			    dnp->dn_type) == 4)
				dnp->dn_value = (uint64_t) (int64_t) (int32_t)
				    dnp->dn_value;
			dnp->dn_op = DT_OP_NONE;
			dnp->dn_child = NULL;
		}
		break;

	case DT_OP_BNEG:
		if (!dt_node_is_integer(cp))
			dt_cc_error(pcb, D_OP_INT, "operator %s requires an "
			    "operand of integral type", dt_op_name(dnp->dn_op));
		dt_node_type_propagate(cp, dnp);
		if (cp->dn_kind == DT_NODE_INT) {
			dnp->dn_kind = DT_NODE_INT;
			dnp->dn_value = ~cp->dn_value;
			if (ctf_type_size(dnp->dn_ctfp, dnp->dn_type) == 4)
				dnp->dn_value = (dnp->dn_flags &
				    DT_NF_SIGNED) ? (uint64_t) (int64_t)
				    (int32_t) dnp->dn_value :
				    (uint32_t) dnp->dn_value;
			dnp->dn_op = DT_OP_NONE;
			dnp->dn_child = NULL;
		}
		break;

	case DT_OP_LNEG:
		if (!dt_node_is_scalar(cp))
			dt_cc_error(pcb, D_OP_SCALAR, "operator %s requires an "
			    "operand of scalar type", dt_op_name(dnp->dn_op));
		dt_node_type_assign(dnp, cc->cc_ctf, cc->cc_type_int);
		if (cp->dn_kind == DT_NODE_INT) {
			dnp->dn_kind = DT_NODE_INT;
			dnp->dn_value = cp->dn_value == 0;
			dnp->dn_op = DT_OP_NONE;
			dnp->dn_child = NULL;
		}
		break;

	case DT_OP_ADDROF:
		if (cp->dn_kind == DT_NODE_VAR || cp->dn_kind == DT_NODE_AGG)
			dt_cc_error(pcb, D_ADDROF_VAR,
			    "cannot take address of dynamic variable");
		if (dt_node_is_dynamic(cc, cp))
			dt_cc_error(pcb, D_ADDROF_VAR,
			    "cannot take address of dynamic object");
		if (!(cp->dn_flags & DT_NF_LVALUE))
			dt_cc_error(pcb, D_ADDROF_LVAL,
			    "unacceptable operand for unary & operator");
		if (cp->dn_flags & DT_NF_BITFIELD)
			dt_cc_error(pcb, D_ADDROF_BITFIELD,
			    "cannot take address of bit-field");
		ctfp = cp->dn_ctfp;
		type = dt_type_pointer(pcb, &ctfp, cp->dn_type);
		dt_node_type_assign(dnp, ctfp, type);
		if (cp->dn_flags & DT_NF_USERLAND)
			dnp->dn_flags |= DT_NF_USERLAND;
		break;

	case DT_OP_SIZEOF:
		if (cp->dn_flags & DT_NF_BITFIELD)
			dt_cc_error(pcb, D_SIZEOF_BITFIELD,
			    "cannot apply sizeof to a bit-field");
		if (dt_node_sizeof(cc, cp) == 0)
			dt_cc_error(pcb, D_SIZEOF_TYPE, "cannot apply sizeof "
			    "to an operand of unknown size");
		dnp->dn_value = dt_node_sizeof(cc, cp);
		/* A string constant's size is its length with the NUL. */
		if (cp->dn_kind == DT_NODE_STRING && cp->dn_string != NULL)
			dnp->dn_value = strlen(cp->dn_string) + 1;
		dt_node_type_assign(dnp, cc->cc_ctf, cc->cc_type_sizet);
		/* sizeof does not evaluate its operand. */
		dnp->dn_kind = DT_NODE_INT;
		dnp->dn_op = DT_OP_NONE;
		dnp->dn_child = NULL;
		break;

	case DT_OP_STRINGOF:
		if (!dt_node_is_scalar(cp) && !dt_node_is_pointer(cp) &&
		    !dt_node_is_strcompat(cc, cp))
			dt_cc_error(pcb, D_STRINGOF_TYPE, "cannot apply "
			    "stringof to a value of type %s", TNAME(cp, n1));
		dt_node_type_assign(dnp, cc->cc_ctf, cc->cc_type_str);
		break;

	case DT_OP_PREINC:
	case DT_OP_POSTINC:
	case DT_OP_PREDEC:
	case DT_OP_POSTDEC:
		if (!dt_node_is_scalar(cp))
			dt_cc_error(pcb, D_OP_SCALAR, "operator %s requires "
			    "operand of scalar type", dt_op_name(dnp->dn_op));
		if (dt_node_is_vfptr(cp))
			dt_cc_error(pcb, D_OP_VFPTR, "operator %s requires an "
			    "operand of known size", dt_op_name(dnp->dn_op));
		if (!(cp->dn_flags & DT_NF_LVALUE))
			dt_cc_error(pcb, D_OP_LVAL, "operator %s requires "
			    "modifiable lvalue as an operand",
			    dt_op_name(dnp->dn_op));
		if (!(cp->dn_flags & DT_NF_WRITABLE))
			dt_cc_error(pcb, D_OP_WRITE, "operator %s can only be "
			    "applied to a writable variable",
			    dt_op_name(dnp->dn_op));
		dt_node_type_propagate(cp, dnp);
		break;

	default:
		dt_cc_error(pcb, D_UNKNOWN, "invalid unary op %s",
		    dt_op_name(dnp->dn_op));
	}
	return dnp;
}

/*
 * A variable assigned a translated pointer keeps its translator, so that
 * its members are translated wherever it is used, as args[N]'s are (its
 * value is the translator's input).  It may then hold only pointers of
 * that translation, or 0 (which frees a thread-local).
 */
static void
dt_asgn_xlptr(dt_pcb_t *pcb, dt_node_t *lp, dt_node_t *rp)
{
	dt_ident_t *idp = lp->dn_ident;
	bool xl = dt_node_is_xlptr(rp);

	if (!xl && (lp->dn_kind != DT_NODE_VAR || idp == NULL ||
	    !(idp->di_flags & DT_IDFLG_XLPTR)))
		return;
	if (lp->dn_kind != DT_NODE_VAR || idp == NULL ||
	    idp->di_kind != DT_IDENT_SCALAR)
		dt_cc_error(pcb, D_XLATE_INCOMPAT, "a translated pointer may "
		    "only be assigned to a scalar variable");
	if (xl && dt_ident_unref(idp)) {
		idp->di_flags |= DT_IDFLG_XLPTR;
		return;
	}
	if (idp->di_flags & DT_IDFLG_XLPTR) {
		if (xl ? rp->dn_xlator == idp->di_data :
		    rp->dn_kind == DT_NODE_INT && rp->dn_value == 0)
			return;
		dt_cc_error(pcb, D_XLATE_INCOMPAT, "%s holds a translated "
		    "pointer and may only be assigned the same translation "
		    "or 0", idp->di_name);
	}
	dt_cc_error(pcb, D_XLATE_INCOMPAT, "%s may not be assigned a "
	    "translated pointer: it holds other values", idp->di_name);
}

static void
dt_asgn_typeset(dt_pcb_t *pcb, dt_node_t *lp, dt_node_t *rp)
{
	dt_ident_t *idp = lp->dn_ident;

	dt_asgn_xlptr(pcb, lp, rp);
	/*
	 * The right side may have typed the variable already (x = x = 0):
	 * the left node then takes the type it was given.
	 */
	if (lp->dn_kind == DT_NODE_VAR && lp->dn_ctfp == NULL &&
	    !dt_ident_unref(idp))
		dt_node_type_assign(lp, idp->di_ctfp, idp->di_type);
	/* A variable's first assignment gives it its type. */
	if (lp->dn_kind == DT_NODE_VAR && dt_ident_unref(idp)) {
		dt_ident_type_assign(idp, rp->dn_ctfp, rp->dn_type);
		idp->di_typegen = pcb->pcb_gen;
		dt_node_type_assign(lp, rp->dn_ctfp, rp->dn_type);
		if (rp->dn_flags & DT_NF_USERLAND) {
			lp->dn_flags |= DT_NF_USERLAND;
			idp->di_flags |= DT_IDFLG_USER;
		}
		if (rp->dn_xlator != NULL) {
			lp->dn_xlator = rp->dn_xlator;
			lp->dn_flags |= DT_NF_XLATED;
			idp->di_data = rp->dn_xlator;
		}
		if (lp->dn_flags & DT_NF_REF)
			lp->dn_flags |= DT_NF_DPTR;
	}
	if (lp->dn_kind == DT_NODE_VAR)
		idp->di_flags |= DT_IDFLG_MOD;
}

/* The common end of every assignment operator. */
static dt_node_t *
dt_cook_asgn_common(dt_pcb_t *pcb, dt_node_t *dnp, dt_node_t *lp,
    dt_node_t *rp)
{
	if (!(lp->dn_flags & DT_NF_LVALUE))
		dt_cc_error(pcb, D_OP_LVAL, "operator %s requires modifiable "
		    "lvalue as an operand", dt_op_name(dnp->dn_op));
	if (!(lp->dn_flags & DT_NF_WRITABLE))
		dt_cc_error(pcb, D_OP_WRITE, "operator %s can only be applied "
		    "to a writable variable", dt_op_name(dnp->dn_op));
	dt_node_type_propagate(lp, dnp);
	return dnp;
}

/* The left side of an assignment: may create the variable it names. */
static dt_node_t *
dt_cook_lvalue(dt_pcb_t *pcb, dt_node_t *lp, dt_idkind_t kind)
{
	dt_cc_t *cc = pcb->pcb_cc;

	if (lp->dn_kind == DT_NODE_IDENT) {
		if (lp->dn_flags & DT_NF_AGGIDENT)
			return dt_xcook_ident(pcb, lp, cc->cc_aggs,
			    DT_IDENT_AGG, true);
		if (strcmp(lp->dn_string, "self") != 0 &&
		    strcmp(lp->dn_string, "this") != 0)
			return dt_xcook_ident(pcb, lp, cc->cc_globals, kind,
			    true);
	}
	return lp;
}

static bool
dt_is_scope_ident(const dt_node_t *dnp, const char *name)
{
	return dnp->dn_kind == DT_NODE_IDENT &&
	    !(dnp->dn_flags & DT_NF_AGGIDENT) &&
	    strcmp(dnp->dn_string, name) == 0;
}

/* self->x or this->x: create or find the variable. */
static dt_node_t *
dt_cook_scoped(dt_pcb_t *pcb, dt_node_t *dnp, unsigned idflags)
{
	dt_cc_t *cc = pcb->pcb_cc;
	dt_node_t *rp = dnp->dn_right;
	bool self = dt_is_scope_ident(dnp->dn_left, "self");

	/*
	 * The name may already be a variable: a clause whose actions fail on
	 * a variable the predicate assigns is cooked again, predicate first.
	 */
	if (rp->dn_kind != DT_NODE_IDENT && rp->dn_kind != DT_NODE_VAR)
		dt_cc_error(pcb, D_OP_IDENT, "operator %s must be followed by "
		    "an identifier", dt_op_name(dnp->dn_op));
	if (!self && pcb->pcb_clause == NULL && pcb->pcb_xlator == NULL)
		dt_cc_error(pcb, D_VAR_UNSUP, "this-> variables may only be "
		    "used in a clause");
	if (rp->dn_kind == DT_NODE_VAR)
		rp = dt_node_var(pcb, rp, rp->dn_ident);
	else
		rp = dt_xcook_ident(pcb, rp,
		    self ? cc->cc_tls : pcb->pcb_locals, DT_IDENT_SCALAR, true);
	rp->dn_line = dnp->dn_line;
	if (idflags != 0)
		dt_cook_var_ref(pcb, rp, idflags);
	rp->dn_flags |= DT_NF_COOKED;
	return rp;
}

static dt_node_t *
dt_cook_member(dt_pcb_t *pcb, dt_node_t *dnp, unsigned idflags)
{
	dt_cc_t *cc = pcb->pcb_cc;
	dt_node_t *lp, *rp = dnp->dn_right;
	dt_op_t op = dnp->dn_op;
	ctf_membinfo_t m;
	ctf_dict_t *ctfp;
	ctf_id_t type;
	int kind;
	N1;

	if (op == DT_OP_PTR && (dt_is_scope_ident(dnp->dn_left, "self") ||
	    dt_is_scope_ident(dnp->dn_left, "this")))
		return dt_cook_scoped(pcb, dnp, idflags);

	lp = dnp->dn_left = dt_node_cook(pcb, dnp->dn_left, DT_IDFLG_REF);
	if (rp->dn_kind != DT_NODE_IDENT)
		dt_cc_error(pcb, D_OP_IDENT, "operator %s must be followed by "
		    "an identifier", dt_op_name(op));

	ctfp = lp->dn_ctfp;
	type = ctfp == NULL ? CTF_ERR : ctf_type_resolve(ctfp, lp->dn_type);
	kind = type == CTF_ERR ? CTF_K_UNKNOWN : ctf_type_kind(ctfp, type);
	if (dt_node_is_string(cc, lp))
		kind = CTF_K_UNKNOWN;
	if (op == DT_OP_PTR) {
		if (kind != CTF_K_POINTER)
			dt_cc_error(pcb, D_OP_PTR, "operator %s must be "
			    "applied to a pointer", dt_op_name(op));
		type = ctf_type_resolve(ctfp, ctf_type_reference(ctfp, type));
		kind = ctf_type_kind(ctfp, type);
	}
	if (kind == CTF_K_FORWARD) {
		char tag[512];

		ctf_type_name(ctfp, type, tag, sizeof (tag));
		if (!dt_type_complete(cc, &ctfp, &type))
			dt_cc_error(pcb, D_OP_INCOMPLETE, "operator %s cannot "
			    "be applied to a forward declaration: no %s "
			    "definition is available", dt_op_name(op), tag);
		kind = ctf_type_kind(ctfp, type);
	}
	if (kind != CTF_K_STRUCT && kind != CTF_K_UNION) {
		if (op == DT_OP_PTR)
			dt_cc_error(pcb, D_OP_SOU, "operator -> cannot be "
			    "applied to pointer to type \"%s\"; must be "
			    "applied to a struct or union pointer",
			    dt_type_name(ctfp, type, n1, sizeof (n1)));
		dt_cc_error(pcb, D_OP_SOU, "operator %s cannot be applied to "
		    "type \"%s\"; must be applied to a struct or union",
		    dt_op_name(op), ctfp == NULL ? "<untyped>" :
		    dt_node_is_string(cc, lp) ? "string" :
		    dt_type_name(ctfp, type, n1, sizeof (n1)));
	}
	/*
	 * A member of a translated struct (args[2]->ipv4_hdr) is a value of
	 * its own type: a member of it (->ttl) is an ordinary one, not the
	 * translator's.
	 */
	if (lp->dn_xlator != NULL && !(lp->dn_kind == DT_NODE_OP2 &&
	    (lp->dn_op == DT_OP_PTR || lp->dn_op == DT_OP_DOT))) {
		dt_node_t *mnp;

		for (mnp = lp->dn_xlator->dx_members; mnp != NULL;
		    mnp = mnp->dn_list)
			if (strcmp(mnp->dn_membname, rp->dn_string) == 0)
				break;
		if (mnp == NULL)
			dt_cc_error(pcb, D_XLATE_NOCONV, "translator does not "
			    "define conversion for member: %s", rp->dn_string);
		dnp->dn_xlator = lp->dn_xlator;
	}
	if (dt_type_member_info(ctfp, type, rp->dn_string, &m) != 0)
		dt_cc_error(pcb, D_TYPE_MEMBER, "%s is not a member of %s",
		    rp->dn_string, dt_type_name(ctfp, type, n1, sizeof (n1)));

	dt_node_type_assign(dnp, ctfp, m.ctm_type);
	dnp->dn_value = m.ctm_offset;	/* bits, for code generation */
	type = ctf_type_resolve(ctfp, m.ctm_type);
	kind = type == CTF_ERR ? CTF_K_UNKNOWN : ctf_type_kind(ctfp, type);
	if (kind == CTF_K_INTEGER) {
		ctf_encoding_t e;

		if (ctf_type_encoding(ctfp, m.ctm_type, &e) == 0 &&
		    (e.cte_bits % 8 != 0 || (m.ctm_offset % 8) != 0 ||
		    (e.cte_bits > 0 && e.cte_bits != 8 && e.cte_bits != 16 &&
		    e.cte_bits != 32 && e.cte_bits != 64))) {
			dnp->dn_flags |= DT_NF_BITFIELD;
			dnp->dn_bitoff = (uint32_t) (m.ctm_offset % 64);
		}
	}
	if ((op == DT_OP_PTR || (lp->dn_flags & DT_NF_LVALUE)) &&
	    (kind != CTF_K_ARRAY || dt_node_is_string(cc, dnp)))
		dnp->dn_flags |= DT_NF_LVALUE;
	if (lp->dn_flags & DT_NF_WRITABLE)
		dnp->dn_flags |= DT_NF_WRITABLE;
	if ((lp->dn_flags & DT_NF_USERLAND) && (kind == CTF_K_POINTER ||
	    (dnp->dn_flags & DT_NF_REF)))
		dnp->dn_flags |= DT_NF_USERLAND;
	dnp->dn_flags &= ~DT_NF_XLATED;
	return dnp;
}

/* A null pointer constant: NULL, (void *)0 or 0. */
static bool
dt_cook_is_null(const dt_node_t *dnp)
{
	return dnp->dn_kind == DT_NODE_INT && dnp->dn_value == 0;
}

static dt_node_t *
dt_cook_op2(dt_pcb_t *pcb, dt_node_t *dnp, unsigned idflags)
{
	dt_cc_t *cc = pcb->pcb_cc;
	dt_node_t *lp = dnp->dn_left, *rp = dnp->dn_right;
	dt_op_t op = dnp->dn_op;
	ctf_dict_t *ctfp;
	ctf_id_t type;
	int kind;
	N1;
	N2;

	switch (op) {
	case DT_OP_LBRAC:
		return dt_cook_lbrac(pcb, dnp, idflags);

	case DT_OP_BAND:
	case DT_OP_XOR:
	case DT_OP_BOR:
	case DT_OP_MOD:
		lp = dnp->dn_left = dt_node_cook(pcb, lp, DT_IDFLG_REF);
		rp = dnp->dn_right = dt_node_cook(pcb, rp, DT_IDFLG_REF);
		if (!dt_node_is_integer(lp) || !dt_node_is_integer(rp))
			dt_cc_error(pcb, D_OP_INT, "operator %s requires "
			    "operands of integral type", dt_op_name(op));
		dt_type_promote(cc, lp, rp, &ctfp, &type);
		dt_node_type_assign(dnp, ctfp, type);
		break;

	case DT_OP_LSH:
	case DT_OP_RSH:
		lp = dnp->dn_left = dt_node_cook(pcb, lp, DT_IDFLG_REF);
		rp = dnp->dn_right = dt_node_cook(pcb, rp, DT_IDFLG_REF);
		if (!dt_node_is_integer(lp) || !dt_node_is_integer(rp))
			dt_cc_error(pcb, D_OP_INT, "operator %s requires "
			    "operands of integral type", dt_op_name(op));
		dt_node_type_propagate(lp, dnp);
		break;

	case DT_OP_MUL:
	case DT_OP_DIV:
		lp = dnp->dn_left = dt_node_cook(pcb, lp, DT_IDFLG_REF);
		rp = dnp->dn_right = dt_node_cook(pcb, rp, DT_IDFLG_REF);
		if (!dt_node_is_arith(lp) || !dt_node_is_arith(rp))
			dt_cc_error(pcb, D_OP_ARITH, "operator %s requires "
			    "operands of arithmetic type", dt_op_name(op));
		dt_type_promote(cc, lp, rp, &ctfp, &type);
		dt_node_type_assign(dnp, ctfp, type);
		break;

	case DT_OP_LAND:
	case DT_OP_LXOR:
	case DT_OP_LOR:
		lp = dnp->dn_left = dt_node_cook(pcb, lp, DT_IDFLG_REF);
		rp = dnp->dn_right = dt_node_cook(pcb, rp, DT_IDFLG_REF);
		if (!dt_node_is_scalar(lp) || !dt_node_is_scalar(rp))
			dt_cc_error(pcb, D_OP_SCALAR, "operator %s requires "
			    "operands of scalar type", dt_op_name(op));
		dt_node_type_assign(dnp, cc->cc_ctf, cc->cc_type_int);
		break;

	case DT_OP_LT:
	case DT_OP_LE:
	case DT_OP_GT:
	case DT_OP_GE:
	case DT_OP_EQU:
	case DT_OP_NEQ: {
		int v;

		lp = dnp->dn_left = dt_node_cook(pcb, lp, DT_IDFLG_REF);
		/* An enum on the left lets its tags be named on the right. */
		type = lp->dn_ctfp ? ctf_type_resolve(lp->dn_ctfp,
		    lp->dn_type) : CTF_ERR;
		kind = type == CTF_ERR ? 0 : ctf_type_kind(lp->dn_ctfp, type);
		if (kind == CTF_K_ENUM && rp->dn_kind == DT_NODE_IDENT &&
		    strchr(rp->dn_string, '`') == NULL &&
		    ctf_enum_value(lp->dn_ctfp, type, rp->dn_string, &v) ==
		    0) {
			dt_ident_t *idp = dt_ident_lookup_global(pcb,
			    rp->dn_string);

			if (idp != NULL && idp->di_kind != DT_IDENT_ENUM)
				dt_cc_error(pcb, D_IDENT_AMBIG, "ambiguous use "
				    "of operator %s: %s is both a %s enum tag "
				    "and a global %s", dt_op_name(op),
				    rp->dn_string, TNAME(lp, n1),
				    dt_idkind_name(idp->di_kind));
			rp->dn_kind = DT_NODE_INT;
			rp->dn_value = (uint64_t) (int64_t) v;
			rp->dn_string = NULL;
			dt_node_type_assign(rp, lp->dn_ctfp, lp->dn_type);
			rp->dn_flags |= DT_NF_COOKED;
		}
		rp = dnp->dn_right = dt_node_cook(pcb, rp, DT_IDFLG_REF);
		if (dt_type_compat(lp->dn_ctfp, lp->dn_type, rp->dn_ctfp,
		    rp->dn_type) && !dt_node_is_dynamic(cc, lp) &&
		    !dt_node_is_void(lp) && !dt_node_is_float(lp))
			;
		else if (dt_node_is_integer(lp) && dt_node_is_integer(rp))
			;
		else if (dt_node_is_strcompat(cc, lp) &&
		    dt_node_is_strcompat(cc, rp) &&
		    (dt_node_is_string(cc, lp) || dt_node_is_string(cc, rp)))
			;
		else if (dt_node_is_string(cc, lp) && dt_cook_is_null(rp))
			;	/* strtok(...) == NULL: NULL compares as "" */
		else if (dt_node_is_string(cc, rp) && dt_cook_is_null(lp))
			;
		else if (!dt_node_is_ptrcompat(cc, lp, rp, NULL, NULL))
			dt_cc_error(pcb, D_OP_INCOMPAT, "operands have "
			    "incompatible types: \"%s\" %s \"%s\"",
			    TNAME(lp, n1), dt_op_name(op), TNAME(rp, n2));
		dt_node_type_assign(dnp, cc->cc_ctf, cc->cc_type_int);
		if (lp->dn_kind == DT_NODE_INT && rp->dn_kind == DT_NODE_INT) {
			bool s = (lp->dn_flags & DT_NF_SIGNED) &&
			    (rp->dn_flags & DT_NF_SIGNED);
			uint64_t l = lp->dn_value, r = rp->dn_value;
			bool res = false;

			switch (op) {
			case DT_OP_LT: res = s ? (int64_t) l < (int64_t) r :
			    l < r; break;
			case DT_OP_LE: res = s ? (int64_t) l <= (int64_t) r :
			    l <= r; break;
			case DT_OP_GT: res = s ? (int64_t) l > (int64_t) r :
			    l > r; break;
			case DT_OP_GE: res = s ? (int64_t) l >= (int64_t) r :
			    l >= r; break;
			case DT_OP_EQU: res = l == r; break;
			default: res = l != r; break;
			}
			dnp->dn_kind = DT_NODE_INT;
			dnp->dn_value = res;
			dnp->dn_op = DT_OP_NONE;
			dnp->dn_left = dnp->dn_right = NULL;
		}
		return dnp;
	}

	case DT_OP_ADD:
	case DT_OP_SUB: {
		bool lptr, lint, rptr, rint;

		lp = dnp->dn_left = dt_node_cook(pcb, lp, DT_IDFLG_REF);
		rp = dnp->dn_right = dt_node_cook(pcb, rp, DT_IDFLG_REF);
		lptr = dt_node_is_string(cc, lp) ||
		    (dt_node_is_pointer(lp) && !dt_node_is_vfptr(lp));
		lint = dt_node_is_integer(lp);
		rptr = dt_node_is_string(cc, rp) ||
		    (dt_node_is_pointer(rp) && !dt_node_is_vfptr(rp));
		rint = dt_node_is_integer(rp);
		if (lint && rint) {
			dt_type_promote(cc, lp, rp, &ctfp, &type);
			dt_node_type_assign(dnp, ctfp, type);
		} else if (lptr && rint) {
			dt_node_type_propagate(lp, dnp);
			dnp->dn_flags &= ~DT_NF_REF;
			dnp->dn_flags |= lp->dn_flags & DT_NF_USERLAND;
		} else if (lint && rptr && op == DT_OP_ADD) {
			dt_node_type_propagate(rp, dnp);
			dnp->dn_flags &= ~DT_NF_REF;
		} else if (lptr && rptr && op == DT_OP_SUB &&
		    dt_node_is_ptrcompat(cc, lp, rp, NULL, NULL)) {
			dt_node_type_assign(dnp, cc->cc_ctf,
			    cc->cc_type_ptrdiff);
		} else
			dt_cc_error(pcb, D_OP_INCOMPAT, "operands have "
			    "incompatible types: \"%s\" %s \"%s\"",
			    TNAME(lp, n1), dt_op_name(op), TNAME(rp, n2));
		break;
	}

	case DT_OP_OR_EQ:
	case DT_OP_XOR_EQ:
	case DT_OP_AND_EQ:
	case DT_OP_LSH_EQ:
	case DT_OP_RSH_EQ:
	case DT_OP_MOD_EQ:
	case DT_OP_MUL_EQ:
	case DT_OP_DIV_EQ:
		lp = dt_cook_lvalue(pcb, lp, DT_IDENT_SCALAR);
		lp = dnp->dn_left = dt_node_cook(pcb, lp,
		    DT_IDFLG_REF | DT_IDFLG_MOD);
		rp = dnp->dn_right = dt_node_cook(pcb, rp,
		    DT_IDFLG_REF | DT_IDFLG_MOD);
		if (op == DT_OP_MUL_EQ || op == DT_OP_DIV_EQ) {
			if (!dt_node_is_arith(lp) || !dt_node_is_arith(rp))
				dt_cc_error(pcb, D_OP_ARITH, "operator %s "
				    "requires operands of arithmetic type",
				    dt_op_name(op));
		} else if (!dt_node_is_integer(lp) || !dt_node_is_integer(rp))
			dt_cc_error(pcb, D_OP_INT, "operator %s requires "
			    "operands of integral type", dt_op_name(op));
		return dt_cook_asgn_common(pcb, dnp, lp, rp);

	case DT_OP_ADD_EQ:
	case DT_OP_SUB_EQ:
		lp = dt_cook_lvalue(pcb, lp, DT_IDENT_SCALAR);
		lp = dnp->dn_left = dt_node_cook(pcb, lp,
		    DT_IDFLG_REF | DT_IDFLG_MOD);
		rp = dnp->dn_right = dt_node_cook(pcb, rp,
		    DT_IDFLG_REF | DT_IDFLG_MOD);
		if (dt_node_is_string(cc, lp) || dt_node_is_string(cc, rp))
			dt_cc_error(pcb, D_OP_INCOMPAT, "operands have "
			    "incompatible types: \"%s\" %s \"%s\"",
			    TNAME(lp, n1), dt_op_name(op), TNAME(rp, n2));
		if (!dt_node_is_integer(lp) || !dt_node_is_integer(rp)) {
			if (!dt_node_is_pointer(lp) || dt_node_is_vfptr(lp))
				dt_cc_error(pcb, D_OP_VFPTR, "operator %s "
				    "requires left-hand scalar operand of "
				    "known size", dt_op_name(op));
			else if (!dt_node_is_integer(rp) &&
			    !dt_node_is_ptrcompat(cc, lp, rp, NULL, NULL))
				dt_cc_error(pcb, D_OP_INCOMPAT, "operands have "
				    "incompatible types: \"%s\" %s \"%s\"",
				    TNAME(lp, n1), dt_op_name(op),
				    TNAME(rp, n2));
		}
		return dt_cook_asgn_common(pcb, dnp, lp, rp);

	case DT_OP_ASGN:
		lp = dt_cook_lvalue(pcb, lp, DT_IDENT_SCALAR);
		if (lp->dn_kind == DT_NODE_OP2 && lp->dn_op == DT_OP_LBRAC &&
		    (lp->dn_left->dn_flags & DT_NF_AGGIDENT)) {
			/* @a[keys] = f(...) */
			lp->dn_left = dt_cook_lvalue(pcb, lp->dn_left,
			    DT_IDENT_AGG);
		}
		lp = dnp->dn_left = dt_node_cook(pcb, lp, 0);
		rp = dnp->dn_right = dt_node_cook(pcb, rp, DT_IDFLG_REF);

		if (lp->dn_kind == DT_NODE_AGG) {
			dt_ident_t *aid = lp->dn_ident;

			if (rp->dn_kind != DT_NODE_FUNC ||
			    rp->dn_ident->di_kind != DT_IDENT_AGGFUNC)
				dt_cc_error(pcb, D_AGG_FUNC, "@%s must be "
				    "assigned the result of an aggregating "
				    "function", aid->di_name);
			if (aid->di_aggfunc != NULL &&
			    aid->di_aggfunc != rp->dn_ident)
				dt_cc_error(pcb, D_AGG_REDEF, "aggregation "
				    "redefined: @%s\n\t current: @%s = %s( )\n"
				    "\tprevious: @%s = %s( ) : line %d",
				    aid->di_name, aid->di_name,
				    rp->dn_ident->di_name, aid->di_name,
				    aid->di_aggfunc->di_name, aid->di_line);
			if (lp->dn_aggfun != NULL)
				dt_cc_error(pcb, D_OP_LVAL, "operator = "
				    "requires modifiable lvalue as an operand");
			if (aid->di_aggfunc == NULL) {
				aid->di_aggfunc = rp->dn_ident;
				/* (a program from a string: the lexer's) */
				aid->di_line = dnp->dn_line != 0 ?
				    dnp->dn_line : pcb->pcb_line;
			}
			lp->dn_aggfun = rp;
			aid->di_flags |= DT_IDFLG_MOD;
			dt_cook_aggfunc(pcb, lp);
			lp->dn_line = dnp->dn_line;
			return lp;
		}
		if (dt_node_is_dynamic(cc, rp) && rp->dn_kind != DT_NODE_VAR)
			dt_cc_error(pcb, D_OP_DYN, "operator %s operands "
			    "cannot be of dynamic type", dt_op_name(op));
		if (dt_node_is_actfunc(rp) || (rp->dn_kind == DT_NODE_FUNC &&
		    rp->dn_ident->di_kind == DT_IDENT_AGGFUNC))
			dt_cc_error(pcb, D_OP_ACT, "operator %s operands "
			    "cannot be actions", dt_op_name(op));
		if (dt_node_is_void(rp) || dt_node_is_dynamic(cc, rp))
			dt_cc_error(pcb, D_OP_INCOMPAT, "operands have "
			    "incompatible types: \"%s\" %s \"%s\"",
			    lp->dn_ctfp ? TNAME(lp, n1) : "<untyped>",
			    dt_op_name(op), TNAME(rp, n2));
		dt_asgn_typeset(pcb, lp, rp);
		if (!dt_node_is_string(cc, lp)) {
			type = ctf_type_resolve(lp->dn_ctfp, lp->dn_type);
			kind = type == CTF_ERR ? 0 :
			    ctf_type_kind(lp->dn_ctfp, type);
			if (kind == CTF_K_ARRAY || kind == CTF_K_FUNCTION)
				dt_cc_error(pcb, D_OP_ARRFUN, "operator %s may "
				    "not be applied to operand of type \"%s\"",
				    dt_op_name(op), TNAME(lp, n1));
		}
		if (!dt_node_is_argcompat(cc, lp, rp) &&
		    !(lp->dn_xlator != NULL && rp->dn_xlator == lp->dn_xlator))
			dt_cc_error(pcb, D_OP_INCOMPAT, "operands have "
			    "incompatible types: \"%s\" %s \"%s\"",
			    TNAME(lp, n1), dt_op_name(op), TNAME(rp, n2));
		return dt_cook_asgn_common(pcb, dnp, lp, rp);

	case DT_OP_PTR:
	case DT_OP_DOT:
		return dt_cook_member(pcb, dnp, idflags);

	case DT_OP_CAST: {
		int lkind;

		rp = dnp->dn_right = dt_node_cook(pcb, rp, DT_IDFLG_REF);
		type = ctf_type_resolve(lp->dn_ctfp, lp->dn_type);
		lkind = type == CTF_ERR ? 0 : ctf_type_kind(lp->dn_ctfp, type);
		type = rp->dn_ctfp ? ctf_type_resolve(rp->dn_ctfp, rp->dn_type) :
		    CTF_ERR;
		kind = type == CTF_ERR ? 0 : ctf_type_kind(rp->dn_ctfp, type);
		/*
		 * A translated pointer points at nothing in memory: DTrace
		 * types it as translated data, which casts to nothing.
		 */
		if (kind == CTF_K_POINTER && ((rp->dn_flags & DT_NF_XLATED) ||
		    (rp->dn_kind == DT_NODE_VAR &&
		    (rp->dn_ident->di_flags & DT_IDFLG_XLPTR))))
			dt_cc_error(pcb, D_CAST_INVAL, "invalid cast "
			    "expression: \"pointer to translated data\" to "
			    "\"%s\"", TNAME(lp, n2));
		if (dt_type_compat(lp->dn_ctfp, lp->dn_type, rp->dn_ctfp,
		    rp->dn_type) && !dt_node_is_dynamic(cc, rp))
			;
		else if (dt_node_is_scalar(lp) && (dt_node_is_scalar(rp) ||
		    kind == CTF_K_FUNCTION))
			;
		else if (dt_node_is_void(lp))
			;
		else if (lkind == CTF_K_POINTER && dt_node_is_pointer(rp))
			;
		else if (dt_node_is_string(cc, lp) &&
		    (dt_node_is_scalar(rp) || dt_node_is_pointer(rp) ||
		    dt_node_is_strcompat(cc, rp)))
			;
		else
			dt_cc_error(pcb, D_CAST_INVAL, "invalid cast "
			    "expression: \"%s\" to \"%s\"", TNAME(rp, n1),
			    TNAME(lp, n2));
		dt_node_type_propagate(lp, dnp);
		dnp->dn_flags |= rp->dn_flags & DT_NF_USERLAND;
		if (rp->dn_kind == DT_NODE_INT && dt_node_is_integer(dnp)) {
			/* Fold: truncate or extend to the target width. */
			ssize_t size = ctf_type_size(dnp->dn_ctfp,
			    dnp->dn_type);
			uint64_t v = rp->dn_value;
			bool s = (dnp->dn_flags & DT_NF_SIGNED) != 0;

			if (size == 1)
				v = s ? (uint64_t) (int8_t) v : (uint8_t) v;
			else if (size == 2)
				v = s ? (uint64_t) (int16_t) v : (uint16_t) v;
			else if (size == 4)
				v = s ? (uint64_t) (int32_t) v : (uint32_t) v;
			dnp->dn_kind = DT_NODE_INT;
			dnp->dn_value = v;
			dnp->dn_op = DT_OP_NONE;
			dnp->dn_left = dnp->dn_right = NULL;
		}
		return dnp;
	}

	case DT_OP_XLATE:
		return dt_cook_xlator(pcb, dnp);

	case DT_OP_OFFSETOF: {
		ctf_membinfo_t m;

		type = ctf_type_resolve(lp->dn_ctfp, lp->dn_type);
		kind = type == CTF_ERR ? 0 : ctf_type_kind(lp->dn_ctfp, type);
		if (kind != CTF_K_STRUCT && kind != CTF_K_UNION)
			dt_cc_error(pcb, D_OFFSETOF_TYPE, "offsetof operand "
			    "must be a struct or union type");
		if (dt_type_member_info(lp->dn_ctfp, type, rp->dn_string, &m) != 0)
			dt_cc_error(pcb, D_UNKNOWN, "failed to determine "
			    "offset of %s: Member name not found",
			    rp->dn_string);
		{
			dt_node_t tmp = { 0 };

			dt_node_type_assign(&tmp, lp->dn_ctfp, m.ctm_type);
			if ((tmp.dn_flags & DT_NF_BITFIELD) ||
			    m.ctm_offset % 8 != 0)
				dt_cc_error(pcb, D_OFFSETOF_BITFIELD, "cannot "
				    "take offset of a bit-field: %s",
				    rp->dn_string);
		}
		dnp->dn_kind = DT_NODE_INT;
		dnp->dn_value = m.ctm_offset / 8;
		dnp->dn_op = DT_OP_NONE;
		dnp->dn_left = dnp->dn_right = NULL;
		dt_node_type_assign(dnp, cc->cc_ctf, cc->cc_type_sizet);
		return dnp;
	}

	case DT_OP_COMMA:
		lp = dnp->dn_left = dt_node_cook(pcb, lp, DT_IDFLG_REF);
		rp = dnp->dn_right = dt_node_cook(pcb, rp, DT_IDFLG_REF);
		if (dt_node_is_dynamic(cc, lp) || dt_node_is_dynamic(cc, rp))
			dt_cc_error(pcb, D_OP_DYN, "operator %s operands "
			    "cannot be of dynamic type", dt_op_name(op));
		if (dt_node_is_actfunc(lp) || dt_node_is_actfunc(rp))
			dt_cc_error(pcb, D_OP_ACT, "operator %s operands "
			    "cannot be actions", dt_op_name(op));
		dt_node_type_propagate(rp, dnp);
		return dnp;

	default:
		dt_cc_error(pcb, D_UNKNOWN, "invalid binary op %s",
		    dt_op_name(op));
	}

	if (lp->dn_kind == DT_NODE_INT && rp->dn_kind == DT_NODE_INT &&
	    dt_node_is_integer(dnp))
		return dt_fold2(pcb, dnp, lp, rp);
	if ((op == DT_OP_DIV || op == DT_OP_MOD) &&
	    rp->dn_kind == DT_NODE_INT && rp->dn_value == 0)
		dt_cc_error(pcb, D_DIV_ZERO,
		    "expression contains division by zero");
	return dnp;
}

/* args[N]: argument N of the clause's probes, with the type they give it. */
static dt_node_t *
dt_cook_args(dt_pcb_t *pcb, dt_node_t *dnp, dt_ident_t *idp, dt_node_t *ap)
{
	dt_cc_t *cc = pcb->pcb_cc;
	int argc = (int) dt_node_list_len(ap);
	const char *tname = NULL, *nname = NULL;
	char desc[4 * DT_PROBE_FIELD_MAX], first[4 * DT_PROBE_FIELD_MAX];
	bool xlated = false;
	ctf_dict_t *ctfp;
	ctf_id_t type;
	uint64_t ndx;
	N1;

	if (argc != 1)
		dt_cc_error(pcb, D_PROTO_LEN, "%s[ ] prototype mismatch: %d "
		    "arg%spassed, 1 expected", idp->di_name, argc,
		    argc == 1 ? " " : "s ");
	if (ap->dn_kind != DT_NODE_INT)
		dt_cc_error(pcb, D_PROTO_ARG, "%s[ ] argument #1 is "
		    "incompatible with prototype:\n\tprototype: %s\n\t "
		    "argument: %s", idp->di_name, "integer constant",
		    TNAME(ap, n1));
	if (pcb->pcb_clause == NULL)
		dt_cc_error(pcb, D_ARGS_NONE, "%s[ ] may not be referenced "
		    "outside of a probe clause", idp->di_name);
	ndx = ap->dn_value;
	/*
	 * args[N] has the type the probes give their argument N.  DTrace
	 * compiles a clause once per probe description, each seeing its own
	 * probe's types; here one clause serves all its descriptions, so
	 * they must agree on the type of args[N].
	 */
	for (dt_node_t *pd = pcb->pcb_clause->dn_pdescs; pd != NULL;
	    pd = pd->dn_list) {
		const dt_probedesc_t *pdp = pd->dn_desc;
		const dt_argdesc_t *args;
		dt_probe_t *prp;
		int nmatch, nargs;

		dt_probedesc_str(pdp, desc, sizeof (desc));
		prp = dt_probe_typed(pcb->pcb_hdl, pdp, &nmatch);
		if (nmatch < 0)
			dt_cc_nomem(pcb);
		if (nmatch == 0 && !(pcb->pcb_cflags & DTRACE_C_ZDEFS))
			dt_cc_nomatch(pcb, pd->dn_line, pdp);
		if (prp == NULL)
			dt_cc_error(pcb, D_ARGS_MULTI, "%s[ ] may not be "
			    "referenced because probe description %s matches "
			    "an unstable set of probes", idp->di_name, desc);
		if ((nargs = dt_probe_args(pcb->pcb_hdl, prp, &args)) < 0)
			dt_cc_error(pcb, D_ARGS_TYPE, "failed to find the "
			    "argument types of probe %s:%s:%s:%s: %s",
			    prp->pr_prov->pv_name, prp->pr_mod, prp->pr_func,
			    prp->pr_name, dtrace_errmsg(pcb->pcb_hdl,
			    dtrace_errno(pcb->pcb_hdl)));
		if (ndx >= (uint64_t) nargs)
			dt_cc_error(pcb, D_ARGS_IDX, "index %lld is out of "
			    "range for %s %s[ ]", (long long) ndx, desc,
			    idp->di_name);
		if (tname == NULL) {
			tname = dt_argdesc_type(&args[ndx]);
			xlated = args[ndx].ad_xlate != NULL;
			nname = args[ndx].ad_native;
			snprintf(first, sizeof (first), "%s", desc);
		} else if (strcmp(tname, dt_argdesc_type(&args[ndx])) != 0 ||
		    (xlated && strcmp(nname, args[ndx].ad_native) != 0)) {
			dt_cc_error(pcb, D_ARGS_MULTI, "%s[%lld] may not be "
			    "referenced because probe descriptions %s and %s "
			    "give it different types: %s and %s",
			    idp->di_name, (long long) ndx, first, desc, tname,
			    dt_argdesc_type(&args[ndx]));
		}
	}
	/*
	 * A type the compiler does not know (a kernel type before kernel
	 * types are loaded) is an error, as in DTrace, not a silent integer:
	 * arg0..arg9 remain for untyped access.
	 */
	if (dt_type_lookup(cc, tname, &ctfp, &type) != 0)
		dt_cc_error(pcb, D_ARGS_TYPE, "failed to resolve %s type for "
		    "%s[%lld]", xlated ? "translated" : "native", idp->di_name,
		    (long long) ndx);
	dnp->dn_kind = DT_NODE_VAR;
	dnp->dn_ident = idp;
	dnp->dn_args = ap;
	pcb->pcb_cooked_args = true;
	if (!xlated) {
		dt_node_type_assign(dnp, ctfp, type);
		dnp->dn_flags |= DT_NF_LVALUE;
		return dnp;
	}
	/*
	 * A translated argument is the translation of the native one:
	 * args[N] is xlate<translated type>((native type) argN).
	 */
	{
		ctf_dict_t *nctfp;
		ctf_id_t ntype;
		dt_node_t *xnp;

		if (dt_type_lookup(cc, nname, &nctfp, &ntype) != 0)
			dt_cc_error(pcb, D_ARGS_TYPE, "failed to resolve "
			    "native type for %s[%lld]", idp->di_name,
			    (long long) ndx);
		dt_node_type_assign(dnp, nctfp, ntype);
		xnp = dt_node_op2(pcb, DT_OP_XLATE, dt_node_vartype(pcb, ctfp,
		    type), dnp);
		xnp->dn_line = dnp->dn_line;
		return dt_cook_xlator(pcb, xnp);
	}
}

/*
 * -x tregs: a tuple (the keys of an aggregation or an associative array)
 * is built in tuple registers, one per key; with fewer registers than keys
 * the program cannot be compiled, as in DTrace.
 */
static void
dt_cook_tuple_regs(dt_pcb_t *pcb, const dt_node_t *keys)
{
	dtrace_optval_t nregs = pcb->pcb_hdl->dt_options[DT_OPT_TREGS];
	dtrace_optval_t n = 0;

	if (nregs == DTRACEOPT_UNSET)
		return;
	for (; keys != NULL; keys = keys->dn_list)
		n++;
	if (n > nregs)
		longjmp(pcb->pcb_jmpbuf, EDT_NOTUPREG);
}

/*
 * E1[E2]: an associative array, an aggregation's keys, a built-in array,
 * or C array indexing, which becomes *(E1 + E2).
 */
static dt_node_t *
dt_cook_lbrac(dt_pcb_t *pcb, dt_node_t *dnp, unsigned idflags)
{
	dt_cc_t *cc = pcb->pcb_cc;
	dt_node_t *lp = dnp->dn_left, *rp = dnp->dn_right;
	dt_ident_t *idp;
	N1;

	if (lp->dn_kind == DT_NODE_IDENT && (lp->dn_flags & DT_NF_AGGIDENT)) {
		lp = dt_xcook_ident(pcb, lp, cc->cc_aggs, DT_IDENT_AGG, true);
	} else if (lp->dn_kind == DT_NODE_IDENT) {
		if ((idp = dt_ident_lookup_global(pcb, lp->dn_string)) == NULL ||
		    idp->di_kind == DT_IDENT_ARRAY)
			lp = dt_xcook_ident(pcb, lp, cc->cc_globals,
			    DT_IDENT_ARRAY, true);
		else
			lp = dt_node_cook(pcb, lp, DT_IDFLG_REF);
	} else if (lp->dn_kind == DT_NODE_OP2 && lp->dn_op == DT_OP_PTR &&
	    (dt_is_scope_ident(lp->dn_left, "self") ||
	    dt_is_scope_ident(lp->dn_left, "this"))) {
		lp = dt_cook_scoped(pcb, lp, 0);
		idp = lp->dn_ident;
		if (idp->di_kind == DT_IDENT_SCALAR && dt_ident_unref(idp) &&
		    !(idp->di_flags & DT_IDFLG_DECL)) {
			if (idp->di_flags & DT_IDFLG_LOCAL)
				dt_cc_error(pcb, D_ARR_LOCAL, "local variables "
				    "may not be used as associative arrays: %s",
				    idp->di_name);
			idp->di_kind = DT_IDENT_ARRAY;
			dt_node_type_assign(lp, cc->cc_ctf, cc->cc_type_dyn);
		}
	} else if (lp->dn_kind == DT_NODE_VAR && lp->dn_args == NULL &&
	    lp->dn_ident->di_kind == DT_IDENT_ARRAY) {
		/*
		 * Left cooked by an attempt at the clause that failed in the
		 * keys (dt_cook_clause() tries again after the predicate):
		 * the keys are still to be cooked.
		 */
	} else
		lp = dt_node_cook(pcb, lp, DT_IDFLG_REF);
	dnp->dn_left = lp;

	if (lp->dn_kind == DT_NODE_AGG) {
		if (lp->dn_aggtup != NULL)
			dt_cc_error(pcb, D_AGG_MDIM, "improper attempt to "
			    "reference @%s as a multi-dimensional array",
			    lp->dn_ident->di_name);
		dt_node_list_cook(pcb, &rp, DT_IDFLG_REF);
		dt_cook_tuple_regs(pcb, rp);
		lp->dn_aggtup = rp;
		lp->dn_line = dnp->dn_line;
		return lp;
	}

	if (lp->dn_kind == DT_NODE_VAR && lp->dn_ident->di_kind ==
	    DT_IDENT_ARRAY && lp->dn_args == NULL) {
		idp = lp->dn_ident;
		if ((idp->di_flags & DT_IDFLG_INLINE) &&
		    idp->di_iparam == NULL)
			dt_cc_error(pcb, D_IDENT_BADREF, "inline '%s' may not "
			    "be referenced as %s", idp->di_name,
			    dt_idkind_name(DT_IDENT_ARRAY));
		dt_node_list_cook(pcb, &rp, DT_IDFLG_REF);
		if (idp->di_flags & DT_IDFLG_INLINE) {
			/* fds[e]: the index checked against the parameter. */
			lp->dn_args = rp;
			lp->dn_line = dnp->dn_line;
			dt_ident_cook(pcb, lp, idp, rp);
			dt_node_type_assign(lp, idp->di_ctfp, idp->di_type);
			if (lp->dn_flags & DT_NF_REF)
				lp->dn_flags |= DT_NF_DPTR;
			lp->dn_flags |= DT_NF_COOKED;
			return lp;
		}
		if (idp->di_flags & DT_IDFLG_DIFR)
			return dt_cook_args(pcb, lp, idp, rp);
		dt_cook_tuple_regs(pcb, rp);
		lp->dn_args = rp;
		lp->dn_line = dnp->dn_line;
		dt_ident_cook(pcb, lp, idp, rp);
		dt_cook_var_ref(pcb, lp, idflags);
		lp->dn_flags |= DT_NF_COOKED;
		return lp;
	}
	if (lp->dn_kind == DT_NODE_VAR && lp->dn_ident->di_kind !=
	    DT_IDENT_ARRAY && dt_ident_unref(lp->dn_ident))
		dt_cc_error(pcb, D_IDENT_BADREF, "%s '%s' may not be "
		    "referenced as %s", dt_idkind_name(lp->dn_ident->di_kind),
		    lp->dn_ident->di_name, dt_idkind_name(DT_IDENT_ARRAY));

	/* C array or pointer: *(E1 + E2) */
	if (rp->dn_list != NULL && lp->dn_kind == DT_NODE_VAR) {
		/* DTrace names a variable by its kind and scope. */
		dt_ident_t *vp = lp->dn_ident;

		dt_cc_error(pcb, D_ARR_BADREF, "cannot access %s %s%s as an "
		    "associative array", dt_idkind_name(vp->di_kind),
		    (vp->di_flags & DT_IDFLG_LOCAL) ? "this->" :
		    (vp->di_flags & DT_IDFLG_TLS) ? "self->" : "",
		    vp->di_name);
	}
	if (rp->dn_list != NULL)
		dt_cc_error(pcb, D_ARR_BADREF, "cannot access %s as an "
		    "associative array", TNAME(lp, n1));
	dnp->dn_op = DT_OP_ADD;
	{
		ctf_id_t t = lp->dn_ctfp ? ctf_type_resolve(lp->dn_ctfp,
		    lp->dn_type) : CTF_ERR;

		rp = dnp->dn_right = dt_node_cook(pcb, rp, DT_IDFLG_REF);
		if (t != CTF_ERR && ctf_type_kind(lp->dn_ctfp, t) ==
		    CTF_K_ARRAY && rp->dn_kind == DT_NODE_INT &&
		    !dt_node_is_string(cc, lp)) {
			ctf_arinfo_t ar;

			/* A flexible array member ([0] or []) has no bound. */
			if (ctf_array_info(lp->dn_ctfp, t, &ar) == 0 &&
			    ar.ctr_nelems != 0 && rp->dn_value >= ar.ctr_nelems)
				dt_cc_error(pcb, D_ARR_BOUNDS, "index outside "
				    "array bounds: %llu, max is %u",
				    (unsigned long long) rp->dn_value,
				    (unsigned) ar.ctr_nelems);
		}
	}
	dnp = dt_node_cook(pcb, dnp, DT_IDFLG_REF);
	dnp->dn_flags |= DT_NF_COOKED;
	return dt_node_cook(pcb, dt_node_op1(pcb, DT_OP_DEREF, dnp), idflags);
}

static dt_node_t *
dt_cook_op3(dt_pcb_t *pcb, dt_node_t *dnp, unsigned idflags)
{
	dt_cc_t *cc = pcb->pcb_cc;
	dt_node_t *lp, *rp;
	ctf_dict_t *ctfp = NULL;
	ctf_id_t type = CTF_ERR;

	dnp->dn_expr = dt_node_cook(pcb, dnp->dn_expr, DT_IDFLG_REF);
	lp = dnp->dn_left = dt_node_cook(pcb, dnp->dn_left, DT_IDFLG_REF);
	rp = dnp->dn_right = dt_node_cook(pcb, dnp->dn_right, DT_IDFLG_REF);

	if (!dt_node_is_scalar(dnp->dn_expr))
		dt_cc_error(pcb, D_OP_SCALAR,
		    "operator ?: expression must be of scalar type");
	if (dt_node_is_dynamic(cc, lp) || dt_node_is_dynamic(cc, rp))
		dt_cc_error(pcb, D_OP_DYN,
		    "operator ?: operands cannot be of dynamic type");
	if (dt_type_compat(lp->dn_ctfp, lp->dn_type, rp->dn_ctfp,
	    rp->dn_type)) {
		ctfp = lp->dn_ctfp;
		type = lp->dn_type;
	} else if (dt_node_is_integer(lp) && dt_node_is_integer(rp)) {
		dt_type_promote(cc, lp, rp, &ctfp, &type);
	} else if (dt_node_is_strcompat(cc, lp) &&
	    dt_node_is_strcompat(cc, rp) && (dt_node_is_string(cc, lp) ||
	    dt_node_is_string(cc, rp))) {
		ctfp = cc->cc_ctf;
		type = cc->cc_type_str;
	} else if (!dt_node_is_ptrcompat(cc, lp, rp, &ctfp, &type))
		dt_cc_error(pcb, D_OP_INCOMPAT,
		    "operator ?: operands must have compatible types");
	if (dt_node_is_actfunc(lp) || dt_node_is_actfunc(rp))
		dt_cc_error(pcb, D_OP_ACT,
		    "action cannot be used in a conditional context");
	dt_node_type_assign(dnp, ctfp, type);
	if (dnp->dn_expr->dn_kind == DT_NODE_INT && lp->dn_kind ==
	    DT_NODE_INT && rp->dn_kind == DT_NODE_INT &&
	    dt_node_is_integer(dnp)) {
		dnp->dn_value = dnp->dn_expr->dn_value ? lp->dn_value :
		    rp->dn_value;
		dnp->dn_kind = DT_NODE_INT;
		dnp->dn_op = DT_OP_NONE;
		dnp->dn_expr = dnp->dn_left = dnp->dn_right = NULL;
	}
	return dnp;
}

dt_node_t *
dt_node_cook(dt_pcb_t *pcb, dt_node_t *dnp, unsigned idflags)
{
	int oline = pcb->pcb_line;

	if (dnp == NULL)
		return NULL;
	if (dnp->dn_line != 0)
		pcb->pcb_line = dnp->dn_line;

	switch (dnp->dn_kind) {
	case DT_NODE_INT:
	case DT_NODE_STRING:
	case DT_NODE_TYPE:
		break;
	case DT_NODE_IDENT:
		dnp = dt_cook_ident(pcb, dnp, idflags);
		break;
	case DT_NODE_VAR:
		if (dnp->dn_ctfp == NULL && !dt_ident_unref(dnp->dn_ident) &&
		    dnp->dn_ident->di_kind != DT_IDENT_ARRAY)
			dt_node_type_assign(dnp, dnp->dn_ident->di_ctfp,
			    dnp->dn_ident->di_type);
		if (dnp->dn_ident->di_kind == DT_IDENT_ARRAY &&
		    dnp->dn_args == NULL && (idflags & DT_IDFLG_REF))
			dt_cc_error(pcb, D_IDENT_BADREF, "%s '%s' may not be "
			    "referenced as %s", dt_idkind_name(DT_IDENT_ARRAY),
			    dnp->dn_ident->di_name,
			    dt_idkind_name(DT_IDENT_SCALAR));
		dt_cook_var_ref(pcb, dnp, idflags);
		break;
	case DT_NODE_AGG:
		if (idflags & DT_IDFLG_REF)
			dnp->dn_ident->di_flags |= DT_IDFLG_REF;
		break;
	case DT_NODE_FUNC:
		dnp = dt_cook_func(pcb, dnp, idflags);
		break;
	case DT_NODE_OP1:
		dnp = dt_cook_op1(pcb, dnp, idflags);
		break;
	case DT_NODE_OP2:
		dnp = dt_cook_op2(pcb, dnp, idflags);
		break;
	case DT_NODE_OP3:
		dnp = dt_cook_op3(pcb, dnp, idflags);
		break;
	default:
		break;
	}
	dnp->dn_flags |= DT_NF_COOKED;
	pcb->pcb_line = oline;
	return dnp;
}

/*
 * Each node is cooked on its own, unlinked from the rest; if cooking one
 * fails, the list is relinked before the error goes on, since a clause
 * whose actions name a variable its predicate creates is cooked again.
 */
void
dt_node_list_cook(dt_pcb_t *pcb, dt_node_t **lpp, unsigned idflags)
{
	dt_node_t *volatile dnp;
	dt_node_t *volatile next;
	dt_node_t **volatile pp = lpp;
	jmp_buf save;
	int err;

	memcpy(save, pcb->pcb_jmpbuf, sizeof (jmp_buf));
	if ((err = setjmp(pcb->pcb_jmpbuf)) != 0) {
		memcpy(pcb->pcb_jmpbuf, save, sizeof (jmp_buf));
		dnp->dn_list = next;
		longjmp(pcb->pcb_jmpbuf, err);
	}
	for (dnp = *lpp; dnp != NULL; dnp = next) {
		dt_node_t *cooked;

		next = dnp->dn_list;
		dnp->dn_list = NULL;
		cooked = dt_node_cook(pcb, dnp, idflags);
		cooked->dn_list = next;
		cooked->dn_tail = NULL;	/* the list is no longer the parser's */
		*pp = cooked;
		pp = &cooked->dn_list;
	}
	memcpy(pcb->pcb_jmpbuf, save, sizeof (jmp_buf));
}
