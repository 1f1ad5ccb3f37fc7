/* SPDX-License-Identifier: MIT */
/*
 * dt_cg_act.c: code generation for clauses -- statements, actions, record
 * layouts and aggregations; the program API and the -S listing.
 *
 * A program is built in two passes over the cooked tree:
 *
 *   1. every aggregation (DT_NODE_AGG) is given a dt_aggdesc_t, numbered
 *	densely in order of first appearance: its function, the parameters
 *	of lquantize()/llquantize() (which must be constants), and its key
 *	layout, from the types of the key expressions of its first use
 *	(strings take strsize bytes, integers their size, each aligned to
 *	its natural alignment).  Later uses must agree.
 *   2. each clause becomes one or more dt_stmt_t; each of its statements
 *	one action whose arguments are DIF objects, each writing one record
 *	laid out in the statement's data (aligned to the record's natural
 *	alignment, the total rounded up to 8).
 *
 * The records of each action, which the engines write and the consumer
 * reads (ac_args[i].aa_rec, in order):
 *
 *	DIFEXPR		the expression; no record
 *	TRACE, PRINT	the value: SINT/UINT of its size, PTR, STRING
 *			(strsize bytes) or BYTES (structs, arrays)
 *	PRINTF, SYSTEM,	one record per argument after the format, which is
 *	FREOPEN		in ac_format
 *	PRINTA		none; ac_format (or NULL) and ac_aggids
 *	CLEAR,		none; ac_aggids[0]
 *	DENORMALIZE
 *	NORMALIZE	SINT 8, the normalization factor; ac_aggids[0]
 *	TRUNC		SINT 8, the count, when given; ac_aggids[0]
 *	EXIT		SINT 4, the status
 *	STACK		STACK, rd_arg frames (argument or stackframes)
 *	USTACK, JSTACK	USTACK, rd_arg frames (argument or [uj]stackframes)
 *	SYM ... UADDR	SYM/MOD (8 bytes) or USYM/UMOD/UADDR (pid, address)
 *	TRACEMEM	BYTES of the (constant) size from the address, then
 *			SINT 8 with the displayed size when given
 *	PRINTM		BYTES of the (constant) size from the address
 *	SPECULATE,	SINT 4, the speculation ID
 *	COMMIT, DISCARD
 *	RAISE		SINT 4, the signal; CHILL SINT 8, the nanoseconds
 *	SETOPT		STRING name, then STRING value when given
 *	COPYOUT,	no record: the DIF calls the subroutine itself
 *	COPYOUTSTR
 *	STOP, BREAKPOINT, PANIC, FTRUNCATE	no arguments
 *	AGGREGATE	ac_keys[k] per ag_keys[k]; ac_args[0] the value
 *			(absent for count()), ac_args[1] the increment of
 *			quantize/lquantize/llquantize when given; no records
 *
 * A statement with an action the consumer carries out (printf, printa,
 * clear, ftruncate...) has st_size of at least 8 even when no action
 * stores data, so that its firing is recorded and the consumer sees it.
 *
 * if/else.  Actions cannot be skipped inside a record whose layout is
 * fixed, so, as in the DTrace implementations that added if/else, a
 * clause is cut into several statements at each if: the statement before
 * the if ends by storing the condition in a hidden clause-local variable
 * (1 when true, 2 when false); the then-part and else-part become
 * statements whose predicate tests it for 1 and 2, and the statements
 * after the if one whose predicate tests it for non-zero (the clause got
 * that far).  Clause-local variables live for the whole firing, across
 * clauses, so later statements see what earlier ones stored; the hidden
 * variables take IDs after every this-> variable the program uses.  A
 * clause that speculates keeps the speculation ID in another one, and
 * each statement cut after the speculate() starts with a speculate() of
 * that ID, so all of the clause's data goes to the same buffer.  The
 * statements cut from one clause are consecutive in pg_stmts and share
 * its probe descriptions and line.
 */
#include <stdlib.h>
#include <string.h>

#include "common/compiler/dt_cg.h"
#include "common/dif/dif_asm.h"
#include "common/dt_aggfunc.h"

/*
 * Freeing.
 */

static void
dt_cg_action_free(dt_action_t *ap)
{
	for (uint32_t i = 0; i < ap->ac_nargs; i++) {
		if (ap->ac_args[i].aa_difo != NULL)
			dif_object_free(ap->ac_args[i].aa_difo);
	}
	free(ap->ac_args);
	for (uint32_t k = 0; k < ap->ac_nkeys; k++) {
		if (ap->ac_keys[k] != NULL)
			dif_object_free(ap->ac_keys[k]);
	}
	free(ap->ac_keys);
	free(ap->ac_aggids);
	free((char *) ap->ac_format);
}

static void
dt_cg_stmt_free(dt_stmt_t *stp)
{
	free(stp->st_descs);
	if (stp->st_pred != NULL)
		dif_object_free(stp->st_pred);
	for (uint32_t a = 0; a < stp->st_nactions; a++)
		dt_cg_action_free(&stp->st_actions[a]);
	free(stp->st_actions);
}

void
dt_program_free(dt_program_t *pgp)
{
	if (pgp == NULL)
		return;
	for (uint32_t s = 0; s < pgp->pg_nstmts; s++)
		dt_cg_stmt_free(&pgp->pg_stmts[s]);
	free(pgp->pg_stmts);
	for (uint32_t i = 0; i < pgp->pg_naggs; i++) {
		free((char *) pgp->pg_aggs[i].ag_name);
		free(pgp->pg_aggs[i].ag_keys);
	}
	free(pgp->pg_aggs);
	free(pgp);
}

/*
 * Records.
 */

static uint32_t
dt_cg_option(dt_cg_t *cg, dt_optid_t id, uint32_t dflt)
{
	dtrace_optval_t v = cg->cg_hdl->dt_options[id];

	return v > 0 && v < UINT32_MAX ? (uint32_t) v : dflt;
}

/* The constant value of an argument, or an error with tag. */
static int64_t
dt_cg_const_arg(dt_cg_t *cg, dt_node_t *dnp, dt_errtag_t tag,
    const char *what)
{
	int64_t v;

	if (dnp == NULL || !dt_cg_fold(cg, dnp, &v))
		dt_cg_fail(cg, dnp, tag, "%s must be an integer constant",
		    what);
	return v;
}

/*
 * The frames of stack(), ustack() or jstack(): argument or option, at
 * most maxframes when that is set.
 */
static uint32_t
dt_cg_frames(dt_cg_t *cg, const dt_node_t *fn)
{
	uint32_t kind = fn->dn_ident->di_id, max, n;
	int64_t v;

	max = dt_cg_option(cg, DT_OPT_MAXFRAMES, UINT32_MAX);
	if (fn->dn_args != NULL) {
		v = dt_cg_const_arg(cg, fn->dn_args, kind == DT_ACT_STACK ?
		    D_STACK_SIZE : D_USTACK_FRAMES, "the number of frames");
		if (v <= 0 || v > 65535)
			dt_cg_fail(cg, fn, kind == DT_ACT_STACK ?
			    D_STACK_SIZE : D_USTACK_FRAMES, "%s( ) size must "
			    "be a positive integer", fn->dn_ident->di_name);
		n = (uint32_t) v;
	} else if (kind == DT_ACT_STACK) {
		n = dt_cg_option(cg, DT_OPT_STACKFRAMES, 20);
	} else if (kind == DT_ACT_JSTACK) {
		n = dt_cg_option(cg, DT_OPT_JSTACKFRAMES, 50);
	} else {
		n = dt_cg_option(cg, DT_OPT_USTACKFRAMES, 100);
	}
	return n < max ? n : max;
}

/* The record describing the value of an expression. */
static void
dt_cg_recdesc(dt_cg_t *cg, dt_node_t *dnp, dt_recdesc_t *rd)
{
	dt_cg_tinfo_t ti;
	ssize_t align;

	memset(rd, 0, sizeof (*rd));
	rd->rd_ctf = dnp->dn_ctfp;
	rd->rd_ctftype = dnp->dn_ctfp != NULL ? (long) dnp->dn_type : 0;
	if (dnp->dn_kind == DT_NODE_FUNC && dnp->dn_ident != NULL &&
	    dnp->dn_ident->di_kind == DT_IDENT_ACTFUNC) {
		rd->rd_align = 8;
		switch (dnp->dn_ident->di_id) {
		case DT_ACT_SYM:
			rd->rd_type = DT_REC_SYM;
			rd->rd_size = 8;
			return;
		case DT_ACT_MOD:
			rd->rd_type = DT_REC_MOD;
			rd->rd_size = 8;
			return;
		case DT_ACT_USYM:
			rd->rd_type = DT_REC_USYM;
			rd->rd_size = 16;
			return;
		case DT_ACT_UMOD:
			rd->rd_type = DT_REC_UMOD;
			rd->rd_size = 16;
			return;
		case DT_ACT_UADDR:
			rd->rd_type = DT_REC_UADDR;
			rd->rd_size = 16;
			return;
		case DT_ACT_STACK:
			rd->rd_type = DT_REC_STACK;
			rd->rd_arg = dt_cg_frames(cg, dnp);
			rd->rd_size = 8 * (uint32_t) rd->rd_arg;
			return;
		case DT_ACT_USTACK:
		case DT_ACT_JSTACK:
			rd->rd_type = DT_REC_USTACK;
			rd->rd_arg = dt_cg_frames(cg, dnp);
			rd->rd_size = 8 + 8 * (uint32_t) rd->rd_arg;
			return;
		default:
			break;
		}
	}
	dt_cg_node_tinfo(cg, dnp, &ti);
	if (ti.ti_string) {
		rd->rd_type = DT_REC_STRING;
		rd->rd_size = cg->cg_strsize;
		rd->rd_align = 1;
		return;
	}
	if (ti.ti_byref) {
		rd->rd_type = DT_REC_BYTES;
		rd->rd_size = ti.ti_size ? ti.ti_size : 1;
		align = dnp->dn_ctfp != NULL ?
		    ctf_type_align(dnp->dn_ctfp, dnp->dn_type) : 1;
		rd->rd_align = align == 2 || align == 4 || align >= 8 ?
		    (uint32_t) (align > 8 ? 8 : align) : 1;
		return;
	}
	if (ti.ti_size == 0 || ti.ti_kind == CTF_K_UNKNOWN)
		dt_cg_fail(cg, dnp, D_TRACE_VOID, "expression has void type "
		    "and cannot be recorded");
	if (ti.ti_kind == CTF_K_FLOAT) {
		/* The value's bits, which printf() formats as a float. */
		rd->rd_type = DT_REC_UINT;
		rd->rd_size = ti.ti_size;
		rd->rd_align = ti.ti_size;
		return;
	}
	if (ti.ti_ptr) {
		rd->rd_type = DT_REC_PTR;
		rd->rd_size = 8;
		rd->rd_align = 8;
		return;
	}
	rd->rd_type = ti.ti_signed ? DT_REC_SINT : DT_REC_UINT;
	rd->rd_size = ti.ti_size == 1 || ti.ti_size == 2 || ti.ti_size == 4 ?
	    ti.ti_size : 8;
	rd->rd_align = rd->rd_size;
}

static void
dt_cg_rec_int(dt_recdesc_t *rd, uint32_t size, bool sgn)
{
	memset(rd, 0, sizeof (*rd));
	rd->rd_type = sgn ? DT_REC_SINT : DT_REC_UINT;
	rd->rd_size = size;
	rd->rd_align = size;
}

/* Places a record at the next offset its alignment allows. */
static void
dt_cg_rec_place(uint32_t *offp, dt_recdesc_t *rd)
{
	uint32_t align = rd->rd_align ? rd->rd_align : 1;

	if (rd->rd_type == DT_REC_NONE)
		return;
	*offp = (*offp + align - 1) & ~(align - 1);
	rd->rd_offset = *offp;
	*offp += rd->rd_size;
}

/*
 * Aggregations (pass 1).
 */

static uint32_t
dt_cg_list_len(const dt_node_t *list)
{
	uint32_t n = 0;

	for (; list != NULL; list = list->dn_list)
		n++;
	return n;
}

static dt_node_t *
dt_cg_nth(dt_node_t *list, unsigned n)
{
	while (list != NULL && n-- > 0)
		list = list->dn_list;
	return list;
}

static int
dt_cg_agg_index(dt_cg_t *cg, const dt_ident_t *idp)
{
	for (uint32_t i = 0; i < cg->cg_prog->pg_naggs; i++) {
		if (cg->cg_aggids[i] == idp)
			return (int) i;
	}
	return -1;
}

/* The aggregation an argument of printa(), clear() ... names. */
static uint32_t
dt_cg_agg_ref(dt_cg_t *cg, dt_node_t *dnp, dt_errtag_t tag)
{
	int i;

	if (dnp == NULL || dnp->dn_ident == NULL ||
	    dnp->dn_ident->di_kind != DT_IDENT_AGG)
		dt_cg_fail(cg, dnp, tag, "argument is not an aggregation");
	if ((i = dt_cg_agg_index(cg, dnp->dn_ident)) < 0)
		dt_cg_fail(cg, dnp, tag, "aggregation %s is never assigned "
		    "a value", dnp->dn_ident->di_name);
	return (uint32_t) i;
}

static void
dt_cg_agg_params(dt_cg_t *cg, dt_node_t *fn, dt_aggdesc_t *agg)
{
	dt_node_t *a = fn->dn_args;

	switch (agg->ag_kind) {
	case DT_AGG_LQUANTIZE:
		agg->ag_params[0] = dt_cg_const_arg(cg, dt_cg_nth(a, 1),
		    D_LQUANT_BASEVAL, "lquantize( ) lower bound");
		agg->ag_params[1] = dt_cg_const_arg(cg, dt_cg_nth(a, 2),
		    D_LQUANT_LIMVAL, "lquantize( ) upper bound");
		agg->ag_params[2] = dt_cg_nth(a, 3) != NULL ?
		    dt_cg_const_arg(cg, dt_cg_nth(a, 3), D_LQUANT_STEPVAL,
		    "lquantize( ) step") : 1;
		if (agg->ag_params[2] <= 0 ||
		    agg->ag_params[1] <= agg->ag_params[0])
			dt_cg_fail(cg, fn, D_LQUANT_STEPVAL, "lquantize( ) "
			    "step must be positive and the upper bound above "
			    "the lower bound");
		break;
	case DT_AGG_LLQUANTIZE:
		agg->ag_params[0] = dt_cg_const_arg(cg, dt_cg_nth(a, 1),
		    D_LLQUANT_FACTORVAL, "llquantize( ) factor");
		agg->ag_params[1] = dt_cg_const_arg(cg, dt_cg_nth(a, 2),
		    D_LLQUANT_LMAGVAL, "llquantize( ) low magnitude");
		agg->ag_params[2] = dt_cg_const_arg(cg, dt_cg_nth(a, 3),
		    D_LLQUANT_HMAGVAL, "llquantize( ) high magnitude");
		agg->ag_params[3] = dt_cg_const_arg(cg, dt_cg_nth(a, 4),
		    D_LLQUANT_STEPVAL, "llquantize( ) steps per magnitude");
		break;
	default:
		break;
	}
}

static bool
dt_cg_rec_isint(const dt_recdesc_t *rd)
{
	return rd->rd_type == DT_REC_SINT || rd->rd_type == DT_REC_UINT;
}

/*
 * Whether an aggregating function's value argument is of an unsigned
 * integer type (size_t bytes, say), so that adding it never lowers a sum.
 */
static bool
dt_cg_agg_unsigned(const dt_node_t *arg)
{
	return arg != NULL && dt_node_is_integer(arg) &&
	    (arg->dn_flags & DT_NF_SIGNED) == 0;
}

/* Registers an aggregation at its first use; checks later uses. */
static void
dt_cg_agg_declare(dt_cg_t *cg, dt_node_t *dnp)
{
	dt_program_t *pgp = cg->cg_prog;
	dt_ident_t *idp = dnp->dn_ident;
	dt_node_t *fn = dnp->dn_aggfun, *k;
	dt_aggdesc_t *agg, nagg;
	dt_ident_t **idpp;
	uint32_t cap, off = 0, n;
	dt_recdesc_t rd;
	int i;

	if (idp == NULL || fn == NULL || fn->dn_ident == NULL)
		dt_cg_fail(cg, dnp, D_AGG_NULL, "aggregation has no function");
	memset(&nagg, 0, sizeof (nagg));
	nagg.ag_kind = (dt_aggkind_t) fn->dn_ident->di_id;
	dt_cg_agg_params(cg, fn, &nagg);
	nagg.ag_nonneg = nagg.ag_kind == DT_AGG_SUM &&
	    dt_cg_agg_unsigned(fn->dn_args);

	if ((i = dt_cg_agg_index(cg, idp)) >= 0) {
		agg = &pgp->pg_aggs[i];
		if (agg->ag_kind != nagg.ag_kind)
			dt_cg_fail(cg, dnp, D_AGG_REDEF, "aggregation "
			    "redefined: %s", idp->di_name);
		if (memcmp(agg->ag_params, nagg.ag_params,
		    sizeof (nagg.ag_params)) != 0)
			dt_cg_fail(cg, dnp, D_LQUANT_MISMATCH, "%s: "
			    "parameters differ from those of its first use",
			    idp->di_name);
		/*
		 * The first use fixes the key layout.  An integer key of
		 * another width or signedness later (the signature check
		 * found the types compatible) is stored converted to the
		 * first use's type, so equal values are one entry.
		 */
		n = 0;
		for (k = dnp->dn_aggtup; k != NULL; k = k->dn_list, n++) {
			dt_cg_recdesc(cg, k, &rd);
			if (n >= agg->ag_nkeys)
				break;
			if (dt_cg_rec_isint(&rd) &&
			    dt_cg_rec_isint(&agg->ag_keys[n]))
				continue;
			if (rd.rd_type != agg->ag_keys[n].rd_type ||
			    rd.rd_size != agg->ag_keys[n].rd_size)
				break;
		}
		if (k != NULL || n != agg->ag_nkeys)
			dt_cg_fail(cg, dnp, D_KEY_TYPE, "%s: keys differ "
			    "from those of its first use", idp->di_name);
		/* One signed use is enough for the sum to fall. */
		agg->ag_nonneg = agg->ag_nonneg && nagg.ag_nonneg;
		return;
	}

	cap = pgp->pg_naggs + 1;
	if ((agg = realloc(pgp->pg_aggs, cap * sizeof (*agg))) == NULL)
		dt_cg_nomem(cg);
	pgp->pg_aggs = agg;
	if ((idpp = realloc(cg->cg_aggids, cap * sizeof (*idpp))) == NULL)
		dt_cg_nomem(cg);
	cg->cg_aggids = idpp;
	agg = &pgp->pg_aggs[pgp->pg_naggs];
	*agg = nagg;
	cg->cg_aggids[pgp->pg_naggs] = idp;
	agg->ag_id = pgp->pg_naggs++;
	agg->ag_name = dt_cg_strdup(cg, idp->di_name[0] == '@' ?
	    idp->di_name + 1 : idp->di_name);
	agg->ag_nvals = dt_agg_nvals(agg->ag_kind, agg->ag_params);
	agg->ag_nkeys = dt_cg_list_len(dnp->dn_aggtup);
	agg->ag_keys = dt_cg_zalloc(cg, agg->ag_nkeys * sizeof (dt_recdesc_t));
	n = 0;
	for (k = dnp->dn_aggtup; k != NULL; k = k->dn_list, n++) {
		dt_cg_recdesc(cg, k, &agg->ag_keys[n]);
		dt_cg_rec_place(&off, &agg->ag_keys[n]);
	}
	agg->ag_keysize = off;
}

/* Visits the aggregations of a statement list, into if/else bodies. */
static void
dt_cg_agg_collect(dt_cg_t *cg, dt_node_t *list)
{
	for (dt_node_t *s = list; s != NULL; s = s->dn_list) {
		if (s->dn_kind == DT_NODE_AGG) {
			dt_cg_agg_declare(cg, s);
		} else if (s->dn_kind == DT_NODE_IF) {
			dt_cg_agg_collect(cg, s->dn_body);
			dt_cg_agg_collect(cg, s->dn_alternate);
		}
	}
}

/* The highest ID of a clause-local variable anywhere under dnp. */
static uint32_t
dt_cg_max_local(const dt_node_t *dnp)
{
	uint32_t max = 0, m;
	const dt_node_t *kids[12];

	if (dnp == NULL)
		return 0;
	if (dnp->dn_kind == DT_NODE_VAR && dnp->dn_ident != NULL &&
	    (dnp->dn_ident->di_scope == DIFV_SCOPE_LOCAL ||
	    (dnp->dn_ident->di_flags & DT_IDFLG_LOCAL)))
		max = dnp->dn_ident->di_id;
	kids[0] = dnp->dn_args;
	kids[1] = dnp->dn_child;
	kids[2] = dnp->dn_left;
	kids[3] = dnp->dn_right;
	kids[4] = dnp->dn_expr;
	kids[5] = dnp->dn_aggtup;
	kids[6] = dnp->dn_aggfun;
	kids[7] = dnp->dn_pred;
	kids[8] = dnp->dn_acts;
	kids[9] = dnp->dn_body;
	kids[10] = dnp->dn_alternate;
	kids[11] = NULL;
	for (int i = 0; i < 11; i++) {
		/* Lists: walk each element (dn_list chains). */
		for (const dt_node_t *k = kids[i]; k != NULL; k = k->dn_list) {
			if ((m = dt_cg_max_local(k)) > max)
				max = m;
			if (i == 1 || i == 2 || i == 3 || i == 6 || i == 7)
				break;	/* single nodes, not lists */
		}
	}
	return max;
}

/*
 * Statements (pass 2).
 */

/* When a statement runs: the clause predicate, or a hidden local. */
typedef enum dt_cg_guardkind {
	DT_CG_GUARD_PRED,	/* g_pred, or always when NULL */
	DT_CG_GUARD_EQ,		/* this->(g_id) == g_val */
	DT_CG_GUARD_NZ,		/* this->(g_id) != 0 */
} dt_cg_guardkind_t;

typedef struct dt_cg_guard {
	dt_cg_guardkind_t g_kind;
	dt_node_t *g_pred;
	uint32_t g_id;
	int64_t g_val;
} dt_cg_guard_t;

static void
dt_cg_hidden_type(dif_type_t *tp)
{
	memset(tp, 0, sizeof (*tp));
	tp->dt_kind = DIF_TYPE_CTF;
	tp->dt_flags = DIF_TF_SIGNED;
	tp->dt_size = 4;
}

static void
dt_cg_hidden_var(dt_cg_t *cg, uint32_t id, uint16_t flags)
{
	dif_type_t type;
	char name[32];

	dt_cg_hidden_type(&type);
	snprintf(name, sizeof (name), "%%if%u", id - DIF_VAR_OTHER_UBASE);
	(void) dt_cg_var(cg, name, id, DIFV_KIND_SCALAR, DIFV_SCOPE_LOCAL,
	    flags, &type);
}

static dif_object_t *
dt_cg_guard_difo(dt_cg_t *cg, const dt_cg_guard_t *g)
{
	dif_type_t type;
	int r, t;

	if (g->g_kind == DT_CG_GUARD_PRED)
		return g->g_pred != NULL ? dt_cg_difo(cg, g->g_pred) : NULL;
	dt_cg_obj_begin(cg);
	dt_cg_hidden_var(cg, g->g_id, DIFV_F_REF);
	r = dt_cg_reg_alloc(cg);
	dt_cg_emit(cg, DIF_INSTR_LDV(DIF_OP_LDLS, g->g_id, r));
	if (g->g_kind == DT_CG_GUARD_EQ) {
		uint32_t ltrue = dt_cg_label(cg), lend = dt_cg_label(cg);

		t = dt_cg_reg_alloc(cg);
		dt_cg_setx(cg, g->g_val, t);
		dt_cg_emit(cg, DIF_INSTR_CMP(DIF_OP_CMP, r, t));
		dt_cg_reg_free(cg, t);
		dt_cg_branch(cg, DIF_OP_BE, ltrue);
		dt_cg_emit(cg, DIF_INSTR_MOV(0, r));
		dt_cg_branch(cg, DIF_OP_BA, lend);
		dt_cg_label_set(cg, ltrue);
		dt_cg_setx(cg, 1, r);
		dt_cg_label_set(cg, lend);
	}
	dt_cg_hidden_type(&type);
	return dt_cg_obj_end(cg, r, &type);
}

/* A new action at the end of the statement, with nargs arguments. */
static dt_action_t *
dt_cg_action_new(dt_cg_t *cg, dt_actkind_t kind, uint32_t nargs,
    const dt_node_t *dnp)
{
	dt_stmt_t *stp = cg->cg_stmt;
	dt_action_t *ap;

	ap = realloc(stp->st_actions, (stp->st_nactions + 1) * sizeof (*ap));
	if (ap == NULL)
		dt_cg_nomem(cg);
	stp->st_actions = ap;
	ap += stp->st_nactions++;
	memset(ap, 0, sizeof (*ap));
	ap->ac_kind = kind;
	ap->ac_line = dnp != NULL ? dnp->dn_line : stp->st_line;
	ap->ac_args = dt_cg_zalloc(cg, nargs * sizeof (dt_actarg_t));
	ap->ac_nargs = nargs;
	return ap;
}

static void
dt_cg_stmt_begin(dt_cg_t *cg, dt_node_t *clause, const dt_cg_guard_t *g)
{
	dt_stmt_t *stp;
	uint32_t n = 0;

	stp = cg->cg_stmt = dt_cg_zalloc(cg, sizeof (dt_stmt_t));
	stp->st_line = clause->dn_line;
	stp->st_ndescs = dt_cg_list_len(clause->dn_pdescs);
	stp->st_descs = dt_cg_zalloc(cg,
	    stp->st_ndescs * sizeof (dt_probedesc_t));
	for (dt_node_t *p = clause->dn_pdescs; p != NULL; p = p->dn_list) {
		if (p->dn_desc == NULL)
			dt_cg_fail(cg, p, D_PDESC_INVAL, "probe description "
			    "%s was not parsed", p->dn_string != NULL ?
			    p->dn_string : "");
		stp->st_descs[n++] = *p->dn_desc;
	}
	stp->st_pred = dt_cg_guard_difo(cg, g);
	if (cg->cg_speclocal != 0) {
		dt_action_t *ap = dt_cg_action_new(cg, DT_ACT_SPECULATE, 1,
		    clause);
		dif_type_t type;
		int r;

		dt_cg_obj_begin(cg);
		dt_cg_hidden_var(cg, cg->cg_speclocal, DIFV_F_REF);
		r = dt_cg_reg_alloc(cg);
		dt_cg_emit(cg, DIF_INSTR_LDV(DIF_OP_LDLS, cg->cg_speclocal, r));
		dt_cg_hidden_type(&type);
		ap->ac_args[0].aa_difo = dt_cg_obj_end(cg, r, &type);
		dt_cg_rec_int(&ap->ac_args[0].aa_rec, 4, true);
	}
}

/* Argument i of an action: the DIF of dnp and its record. */
static void
dt_cg_action_arg(dt_cg_t *cg, dt_action_t *ap, uint32_t i, dt_node_t *dnp)
{
	dt_cg_recdesc(cg, dnp, &ap->ac_args[i].aa_rec);
	ap->ac_args[i].aa_difo = dt_cg_difo(cg, dnp);
}

static void
dt_cg_action_aggids(dt_cg_t *cg, dt_action_t *ap, dt_node_t *list,
    dt_errtag_t tag)
{
	uint32_t n = dt_cg_list_len(list), i = 0;

	ap->ac_aggids = dt_cg_zalloc(cg, n * sizeof (uint32_t));
	for (dt_node_t *a = list; a != NULL; a = a->dn_list)
		ap->ac_aggids[i++] = dt_cg_agg_ref(cg, a, tag);
	ap->ac_naggs = n;
}

/* An action that calls a subroutine for its effect (copyout...). */
static dif_object_t *
dt_cg_difo_subr(dt_cg_t *cg, uint32_t subr, dt_node_t *args)
{
	dt_node_t call;
	dt_ident_t id;
	dif_type_t type;
	int r;

	memset(&id, 0, sizeof (id));
	id.di_name = (char *) dif_subr_name(subr);
	id.di_kind = DT_IDENT_FUNC;
	id.di_id = subr;
	id.di_flags = DT_IDFLG_DESTRUCT;
	memset(&call, 0, sizeof (call));
	call.dn_kind = DT_NODE_FUNC;
	call.dn_ident = &id;
	call.dn_args = args;
	call.dn_type = CTF_ERR;
	call.dn_line = args != NULL ? args->dn_line : 0;
	dt_cg_obj_begin(cg);
	r = dt_cg_expr(cg, &call);
	memset(&type, 0, sizeof (type));
	type.dt_kind = DIF_TYPE_CTF;
	return dt_cg_obj_end(cg, r, &type);
}

/*
 * speculate(id): the ID is also kept in a hidden clause-local, so that the
 * statements an if cuts from the rest of the clause speculate to the same
 * buffer (dt_cg_stmt_begin() gives them a speculate() reading it).
 */
static dif_object_t *
dt_cg_difo_spec(dt_cg_t *cg, dt_node_t *arg)
{
	dif_type_t type;
	int r;

	if (cg->cg_speclocal == 0)
		cg->cg_speclocal = cg->cg_nextlocal++;
	dt_cg_obj_begin(cg);
	dt_cg_hidden_var(cg, cg->cg_speclocal, DIFV_F_MOD);
	r = dt_cg_expr(cg, arg);
	dt_cg_emit(cg, DIF_INSTR_STV(DIF_OP_STLS, cg->cg_speclocal, r));
	dt_cg_hidden_type(&type);
	return dt_cg_obj_end(cg, r, &type);
}

static bool
dt_cg_destructive(dt_actkind_t kind)
{
	switch (kind) {
	case DT_ACT_STOP: case DT_ACT_RAISE: case DT_ACT_SYSTEM:
	case DT_ACT_FREOPEN: case DT_ACT_BREAKPOINT: case DT_ACT_PANIC:
	case DT_ACT_CHILL: case DT_ACT_COPYOUT: case DT_ACT_COPYOUTSTR:
		return true;
	default:
		return false;
	}
}

/* The format argument of printf(), system(), freopen(), printa(). */
static const char *
dt_cg_format(dt_cg_t *cg, dt_node_t *dnp, const char *fname)
{
	if (dnp == NULL || dnp->dn_kind != DT_NODE_STRING)
		dt_cg_fail(cg, dnp, D_PRINTF_ARG_FMT, "%s( ) format must be "
		    "a string constant", fname);
	return dt_cg_strdup(cg, dnp->dn_string);
}

static void
dt_cg_act_aggregate(dt_cg_t *cg, dt_node_t *dnp)
{
	dt_node_t *fn = dnp->dn_aggfun, *args = fn->dn_args, *incr = NULL;
	uint32_t nkeys = dt_cg_list_len(dnp->dn_aggtup), k = 0, nargs;
	dt_action_t *ap;

	switch ((dt_aggkind_t) fn->dn_ident->di_id) {
	case DT_AGG_COUNT:
		args = NULL;
		break;
	case DT_AGG_QUANTIZE:
		incr = dt_cg_nth(args, 1);
		break;
	case DT_AGG_LQUANTIZE:
		incr = dt_cg_nth(args, 4);
		break;
	case DT_AGG_LLQUANTIZE:
		incr = dt_cg_nth(args, 5);
		break;
	default:
		break;
	}
	nargs = args == NULL ? 0 : incr != NULL ? 2 : 1;
	ap = dt_cg_action_new(cg, DT_ACT_AGGREGATE, nargs, dnp);
	ap->ac_aggid = dt_cg_agg_ref(cg, dnp, D_AGG_NULL);
	ap->ac_keys = dt_cg_zalloc(cg, nkeys * sizeof (dif_object_t *));
	ap->ac_nkeys = nkeys;
	for (dt_node_t *kp = dnp->dn_aggtup; kp != NULL; kp = kp->dn_list)
		ap->ac_keys[k++] = dt_cg_difo(cg, kp);
	if (nargs > 0)
		ap->ac_args[0].aa_difo = dt_cg_difo(cg, args);
	if (nargs > 1)
		ap->ac_args[1].aa_difo = dt_cg_difo(cg, incr);
}

/* An action statement: fn is the call of an action function. */
static void
dt_cg_act_call(dt_cg_t *cg, dt_node_t *fn)
{
	dt_actkind_t kind = (dt_actkind_t) fn->dn_ident->di_id;
	dt_node_t *args = fn->dn_args, *a;
	const char *name = fn->dn_ident->di_name;
	uint32_t n = dt_cg_list_len(args), i;
	dt_action_t *ap;
	int64_t size;

	switch (kind) {
	case DT_ACT_DIFEXPR:
	case DT_ACT_AGGREGATE:
		dt_cg_fail(cg, fn, D_UNKNOWN, "internal error: %s( ) is not "
		    "an action", name);
	case DT_ACT_PRINTF:
	case DT_ACT_SYSTEM:
	case DT_ACT_FREOPEN:
		ap = dt_cg_action_new(cg, kind, n > 0 ? n - 1 : 0, fn);
		ap->ac_format = dt_cg_format(cg, args, name);
		for (i = 0, a = args->dn_list; a != NULL; a = a->dn_list, i++)
			dt_cg_action_arg(cg, ap, i, a);
		break;
	case DT_ACT_PRINTA:
		a = args;
		ap = dt_cg_action_new(cg, kind, 0, fn);
		if (a != NULL && a->dn_kind == DT_NODE_STRING) {
			ap->ac_format = dt_cg_format(cg, a, name);
			a = a->dn_list;
		}
		dt_cg_action_aggids(cg, ap, a, D_PRINTA_AGGARG);
		break;
	case DT_ACT_CLEAR:
	case DT_ACT_DENORMALIZE:
		ap = dt_cg_action_new(cg, kind, 0, fn);
		dt_cg_action_aggids(cg, ap, args, kind == DT_ACT_CLEAR ?
		    D_CLEAR_AGGARG : D_NORMALIZE_AGGARG);
		break;
	case DT_ACT_NORMALIZE:
	case DT_ACT_TRUNC:
		ap = dt_cg_action_new(cg, kind, n > 1 ? 1 : 0, fn);
		ap->ac_aggids = dt_cg_zalloc(cg, sizeof (uint32_t));
		ap->ac_aggids[0] = dt_cg_agg_ref(cg, args, kind == DT_ACT_TRUNC ?
		    D_TRUNC_AGGARG : D_NORMALIZE_AGGARG);
		ap->ac_naggs = 1;
		if (n > 1) {
			ap->ac_args[0].aa_difo = dt_cg_difo(cg, args->dn_list);
			dt_cg_rec_int(&ap->ac_args[0].aa_rec, 8, true);
		}
		break;
	case DT_ACT_SPECULATE:
		if (args == NULL)
			dt_cg_fail(cg, fn, D_PROTO_LEN, "%s( ) needs an "
			    "argument", name);
		ap = dt_cg_action_new(cg, kind, 1, fn);
		ap->ac_args[0].aa_difo = dt_cg_difo_spec(cg, args);
		dt_cg_rec_int(&ap->ac_args[0].aa_rec, 4, true);
		break;
	case DT_ACT_EXIT:
	case DT_ACT_COMMIT:
	case DT_ACT_DISCARD:
	case DT_ACT_RAISE:
	case DT_ACT_CHILL:
		if (args == NULL)
			dt_cg_fail(cg, fn, D_PROTO_LEN, "%s( ) needs an "
			    "argument", name);
		ap = dt_cg_action_new(cg, kind, 1, fn);
		ap->ac_args[0].aa_difo = dt_cg_difo(cg, args);
		dt_cg_rec_int(&ap->ac_args[0].aa_rec,
		    kind == DT_ACT_CHILL ? 8 : 4, true);
		break;
	case DT_ACT_STACK:
	case DT_ACT_USTACK:
	case DT_ACT_JSTACK:
	case DT_ACT_SYM:
	case DT_ACT_MOD:
	case DT_ACT_USYM:
	case DT_ACT_UMOD:
	case DT_ACT_UADDR:
		ap = dt_cg_action_new(cg, kind, 1, fn);
		dt_cg_action_arg(cg, ap, 0, fn);
		break;
	case DT_ACT_TRACEMEM:
	case DT_ACT_PRINTM:
		/* tracemem(addr, size[, dsize]) but printm(size, addr). */
		a = kind == DT_ACT_PRINTM ? args : dt_cg_nth(args, 1);
		size = dt_cg_const_arg(cg, a, D_TRACEMEM_SIZE, "the size");
		if (size <= 0 || size > UINT32_MAX / 2)
			dt_cg_fail(cg, a, D_TRACEMEM_SIZE, "%s( ) size must be "
			    "positive", name);
		ap = dt_cg_action_new(cg, kind,
		    kind == DT_ACT_TRACEMEM && n > 2 ? 2 : 1, fn);
		ap->ac_args[0].aa_difo = dt_cg_difo(cg,
		    kind == DT_ACT_PRINTM ? dt_cg_nth(args, 1) : args);
		ap->ac_args[0].aa_rec.rd_type = DT_REC_BYTES;
		ap->ac_args[0].aa_rec.rd_size = (uint32_t) size;
		ap->ac_args[0].aa_rec.rd_align = 1;
		if (ap->ac_nargs > 1) {
			ap->ac_args[1].aa_difo = dt_cg_difo(cg,
			    dt_cg_nth(args, 2));
			dt_cg_rec_int(&ap->ac_args[1].aa_rec, 8, true);
		}
		break;
	case DT_ACT_SETOPT:
		ap = dt_cg_action_new(cg, kind, n, fn);
		for (i = 0, a = args; a != NULL; a = a->dn_list, i++)
			dt_cg_action_arg(cg, ap, i, a);
		break;
	case DT_ACT_COPYOUT:
	case DT_ACT_COPYOUTSTR:
		ap = dt_cg_action_new(cg, kind, 1, fn);
		ap->ac_args[0].aa_difo = dt_cg_difo_subr(cg,
		    kind == DT_ACT_COPYOUT ? DIF_SUBR_COPYOUT :
		    DIF_SUBR_COPYOUTSTR, args);
		break;
	case DT_ACT_TRACE:
	case DT_ACT_PRINT:
		if (args == NULL)
			dt_cg_fail(cg, fn, D_PROTO_LEN, "%s( ) needs an "
			    "argument", name);
		ap = dt_cg_action_new(cg, kind, 1, fn);
		dt_cg_action_arg(cg, ap, 0, args);
		break;
	default:
		/* stop(), breakpoint(), panic(), ftruncate(). */
		ap = dt_cg_action_new(cg, kind, 0, fn);
		break;
	}
	if (dt_cg_destructive(kind) || (fn->dn_ident->di_flags &
	    DT_IDFLG_DESTRUCT))
		cg->cg_stmt->st_destructive = true;
}

/* One statement of a clause body (not an if). */
static void
dt_cg_act_stmt(dt_cg_t *cg, dt_node_t *dnp)
{
	dt_node_t *ep = dnp->dn_expr;
	dt_action_t *ap;

	cg->cg_node = dnp;
	switch (dnp->dn_kind) {
	case DT_NODE_AGG:
		dt_cg_act_aggregate(cg, dnp);
		return;
	case DT_NODE_DFUNC:
	case DT_NODE_DEXPR:
		if (ep != NULL && ep->dn_kind == DT_NODE_FUNC &&
		    ep->dn_ident != NULL &&
		    ep->dn_ident->di_kind == DT_IDENT_ACTFUNC) {
			dt_cg_act_call(cg, ep);
			return;
		}
		if (ep == NULL)
			return;
		ap = dt_cg_action_new(cg, DT_ACT_DIFEXPR, 1, dnp);
		ap->ac_args[0].aa_difo = dt_cg_difo(cg, ep);
		return;
	case DT_NODE_DECL:
		return;
	default:
		dt_cg_fail(cg, dnp, D_UNKNOWN, "internal error: unexpected "
		    "node of kind %d in a clause", (int) dnp->dn_kind);
	}
}

/* The statement before an if stores its condition: 1 true, 2 false. */
static void
dt_cg_act_ifcond(dt_cg_t *cg, dt_node_t *ifp, uint32_t id)
{
	uint32_t lelse, lend;
	dif_type_t type;
	dt_action_t *ap;
	int r;

	ap = dt_cg_action_new(cg, DT_ACT_DIFEXPR, 1, ifp);
	dt_cg_obj_begin(cg);
	lelse = dt_cg_label(cg);
	lend = dt_cg_label(cg);
	dt_cg_hidden_var(cg, id, DIFV_F_MOD);
	r = dt_cg_expr(cg, ifp->dn_expr);
	dt_cg_emit(cg, DIF_INSTR_TST(r));
	dt_cg_branch(cg, DIF_OP_BE, lelse);
	dt_cg_setx(cg, 1, r);
	dt_cg_branch(cg, DIF_OP_BA, lend);
	dt_cg_label_set(cg, lelse);
	dt_cg_setx(cg, 2, r);
	dt_cg_label_set(cg, lend);
	dt_cg_emit(cg, DIF_INSTR_STV(DIF_OP_STLS, id, r));
	dt_cg_hidden_type(&type);
	ap->ac_args[0].aa_difo = dt_cg_obj_end(cg, r, &type);
}

/* Lays out the finished statement and appends it to the program. */
static void
dt_cg_stmt_end(dt_cg_t *cg)
{
	dt_program_t *pgp = cg->cg_prog;
	dt_stmt_t *stp = cg->cg_stmt, *nstmts;
	bool visible = false;
	uint32_t off = 0;

	for (uint32_t a = 0; a < stp->st_nactions; a++) {
		dt_action_t *ap = &stp->st_actions[a];

		for (uint32_t i = 0; i < ap->ac_nargs; i++)
			dt_cg_rec_place(&off, &ap->ac_args[i].aa_rec);
		if (dt_action_consumed(ap->ac_kind))
			visible = true;
	}
	if (visible && off == 0)
		off = 8;
	stp->st_size = (off + 7) & ~7U;
	/*
	 * Only assignments and other actions that record nothing may come
	 * before speculate() (dt_check_order()), so a clause that calls it
	 * anywhere -- say right after speculation() -- is speculative.
	 */
	stp->st_speculative = false;
	for (uint32_t a = 0; a < stp->st_nactions; a++) {
		if (stp->st_actions[a].ac_kind == DT_ACT_SPECULATE)
			stp->st_speculative = true;
	}

	nstmts = realloc(pgp->pg_stmts, (pgp->pg_nstmts + 1) *
	    sizeof (*nstmts));
	if (nstmts == NULL)
		dt_cg_nomem(cg);
	pgp->pg_stmts = nstmts;
	stp->st_id = pgp->pg_nstmts;
	pgp->pg_stmts[pgp->pg_nstmts++] = *stp;
	free(stp);
	cg->cg_stmt = NULL;
}

static void
dt_cg_stmt_list(dt_cg_t *cg, dt_node_t *clause, dt_node_t *list,
    const dt_cg_guard_t *guard)
{
	dt_cg_guard_t g = *guard, sub;

	for (dt_node_t *s = list; s != NULL; s = s->dn_list) {
		if (cg->cg_stmt == NULL && s->dn_kind != DT_NODE_DECL)
			dt_cg_stmt_begin(cg, clause, &g);
		if (s->dn_kind != DT_NODE_IF) {
			dt_cg_act_stmt(cg, s);
			continue;
		}
		sub.g_kind = DT_CG_GUARD_EQ;
		sub.g_pred = NULL;
		sub.g_id = cg->cg_nextlocal++;
		dt_cg_act_ifcond(cg, s, sub.g_id);
		dt_cg_stmt_end(cg);
		sub.g_val = 1;
		dt_cg_stmt_list(cg, clause, s->dn_body, &sub);
		sub.g_val = 2;
		dt_cg_stmt_list(cg, clause, s->dn_alternate, &sub);
		g.g_kind = DT_CG_GUARD_NZ;
		g.g_pred = NULL;
		g.g_id = sub.g_id;
	}
	if (cg->cg_stmt != NULL)
		dt_cg_stmt_end(cg);
}

static void
dt_cg_clause(dt_cg_t *cg, dt_node_t *clause)
{
	dt_cg_guard_t g;

	memset(&g, 0, sizeof (g));
	g.g_kind = DT_CG_GUARD_PRED;
	g.g_pred = clause->dn_pred;
	cg->cg_node = clause;
	cg->cg_speclocal = 0;
	/* A clause with no statements still fires: the default action. */
	if (clause->dn_acts == NULL) {
		dt_cg_stmt_begin(cg, clause, &g);
		dt_cg_stmt_end(cg);
		return;
	}
	dt_cg_stmt_list(cg, clause, clause->dn_acts, &g);
}

/*
 * The API.
 */

static void
dt_cg_fini(dt_cg_t *cg)
{
	if (cg->cg_stmt != NULL) {
		dt_cg_stmt_free(cg->cg_stmt);
		free(cg->cg_stmt);
	}
	free(cg->cg_buf);
	free(cg->cg_ints);
	free(cg->cg_strs);
	free(cg->cg_vars);
	free(cg->cg_labels);
	free(cg->cg_aggids);
	free(cg);
}

int
dt_cg_program(dtrace_hdl_t *dtp, dt_node_t *root, dt_program_t **pgpp,
    dt_cg_error_t *errp)
{
	dt_cg_error_t err;
	dt_cg_t *cg;
	uint32_t maxlocal;
	dt_node_t *dnp;

	*pgpp = NULL;
	if (errp == NULL)
		errp = &err;
	memset(errp, 0, sizeof (*errp));
	if ((cg = calloc(1, sizeof (*cg))) == NULL ||
	    (cg->cg_prog = calloc(1, sizeof (dt_program_t))) == NULL) {
		free(cg);
		snprintf(errp->ce_msg, sizeof (errp->ce_msg),
		    "failed to allocate memory");
		return dt_set_errno(dtp, EDT_NOMEM);
	}
	cg->cg_hdl = dtp;
	cg->cg_err = errp;
	cg->cg_strsize = dt_cg_option(cg, DT_OPT_STRSIZE, 256);

	if (setjmp(cg->cg_jmp) != 0) {
		int e = cg->cg_nomem ? EDT_NOMEM : EDT_COMPILER;

		dt_program_free(cg->cg_prog);
		dt_cg_fini(cg);
		return dt_set_errno(dtp, e);
	}
	if (root == NULL || root->dn_kind != DT_NODE_PROG)
		dt_cg_fail(cg, root, D_UNKNOWN, "internal error: code "
		    "generation needs a program node");

	/* Hidden locals come after every clause's own (not the first's). */
	maxlocal = 0;
	for (dnp = root->dn_body; dnp != NULL; dnp = dnp->dn_list) {
		uint32_t m = dt_cg_max_local(dnp);

		if (m > maxlocal)
			maxlocal = m;
	}
	cg->cg_nextlocal = maxlocal >= DIF_VAR_OTHER_UBASE ? maxlocal + 1 :
	    DIF_VAR_OTHER_UBASE;
	for (dnp = root->dn_body; dnp != NULL; dnp = dnp->dn_list) {
		if (dnp->dn_kind == DT_NODE_CLAUSE)
			dt_cg_agg_collect(cg, dnp->dn_acts);
	}
	for (dnp = root->dn_body; dnp != NULL; dnp = dnp->dn_list) {
		if (dnp->dn_kind == DT_NODE_CLAUSE)
			dt_cg_clause(cg, dnp);
	}
	*pgpp = cg->cg_prog;
	cg->cg_prog = NULL;
	dt_cg_fini(cg);
	return 0;
}

/*
 * The -S listing.  Each object's variable table has DTrace's columns:
 *
 *	NAME  ID (hex)  OFFSET  KND (scl, arr)  SCP (glb, tls, loc)
 *	RANGE (the instructions that use it)  FLAG (r, w, r/w)
 *	TYPE ("D type (integer) (size 4)", "string (unknown) by ref ...")
 *
 * OFFSET is blank for built-ins and associative arrays.  Built-in
 * variables are not in the object's table (the engines know them by ID);
 * the listing adds a row for each the code reads, as DTrace lists them.
 */

static const char *
dt_cg_ctfkind_name(const dif_type_t *t)
{
	ctf_dict_t *ctfp = t->dt_ctf;

	if (t->dt_kind == DIF_TYPE_STRING)
		return "unknown";
	if (ctfp == NULL)
		return (t->dt_flags & DIF_TF_POINTER) ? "pointer" : "integer";
	switch (ctf_type_kind(ctfp, ctf_type_resolve(ctfp, t->dt_ctftype))) {
	case CTF_K_INTEGER: return "integer";
	case CTF_K_FLOAT: return "float";
	case CTF_K_POINTER: return "pointer";
	case CTF_K_ARRAY: return "array";
	case CTF_K_FUNCTION: return "function";
	case CTF_K_STRUCT: return "struct";
	case CTF_K_UNION: return "union";
	case CTF_K_ENUM: return "enum";
	case CTF_K_FORWARD: return "forward";
	default: return "unknown";
	}
}

/* The instructions of difo that load or store variable v: "first-last". */
static void
dt_cg_var_range(const dif_object_t *difo, const dif_var_t *v, char *buf,
    size_t size)
{
	uint32_t first = UINT32_MAX, last = 0;

	for (uint32_t pc = 0; pc < difo->dif_len; pc++) {
		dif_instr_t in = difo->dif_buf[pc];
		uint32_t op = DIF_INSTR_OP(in), id;

		switch (dif_op_format(op)) {
		case DIF_FMT_LDV:
		case DIF_FMT_STV:
			id = DIF_INSTR_VAR(in);
			break;
		case DIF_FMT_LDA:
			id = DIF_INSTR_R1(in);
			break;
		default:
			continue;
		}
		if (id != v->dv_id || dif_op_scope(op) != v->dv_scope)
			continue;
		if (first == UINT32_MAX)
			first = pc;
		last = pc;
	}
	if (first == UINT32_MAX)
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%u-%u", first, last);
}

static void
dt_cg_disasm_var(FILE *fp, const dif_object_t *difo, const dif_var_t *v,
    const char *name)
{
	static const char *const scopes[] = { "glb", "tls", "loc" };
	char off[16] = "", range[32], type[96];

	if (v->dv_offset != DIFV_OFFSET_NONE)
		snprintf(off, sizeof (off), "%u", v->dv_offset);
	dt_cg_var_range(difo, v, range, sizeof (range));
	snprintf(type, sizeof (type), "%s (%s) %s(size %u)",
	    v->dv_type.dt_kind == DIF_TYPE_STRING ? "string" : "D type",
	    dt_cg_ctfkind_name(&v->dv_type),
	    (v->dv_type.dt_flags & DIF_TF_BYREF) ? "by ref " : "",
	    (unsigned) v->dv_type.dt_size);
	fprintf(fp, "%-16s %-4x %-6s %-3s %-3s %-11s %-4s %s\n",
	    name != NULL ? name : "?", (unsigned) v->dv_id, off,
	    v->dv_kind == DIFV_KIND_ARRAY ? "arr" : "scl",
	    v->dv_scope < 3 ? scopes[v->dv_scope] : "?", range,
	    (v->dv_flags & (DIFV_F_REF | DIFV_F_MOD)) ==
	    (DIFV_F_REF | DIFV_F_MOD) ? "r/w" :
	    (v->dv_flags & DIFV_F_REF) ? "r" :
	    (v->dv_flags & DIFV_F_MOD) ? "w" : "", type);
}

/* The built-in variable instruction pc reads, or NULL. */
static const char *
dt_cg_builtin_at(const dif_object_t *difo, uint32_t pc, dif_var_t *v)
{
	dif_instr_t in = difo->dif_buf[pc];
	uint32_t op = DIF_INSTR_OP(in);

	memset(v, 0, sizeof (*v));
	v->dv_offset = DIFV_OFFSET_NONE;
	v->dv_flags = DIFV_F_REF;
	v->dv_scope = (uint8_t) dif_op_scope(op);
	if (dif_op_format(op) == DIF_FMT_LDV) {
		v->dv_id = DIF_INSTR_VAR(in);
		v->dv_kind = DIFV_KIND_SCALAR;
		if (v->dv_id >= DIF_VAR_OTHER_UBASE)
			return NULL;
	} else if (dif_op_format(op) == DIF_FMT_LDA) {
		v->dv_id = DIF_INSTR_R1(in);
		v->dv_kind = DIFV_KIND_ARRAY;
		if (v->dv_id >= DIF_VAR_ARRAY_UBASE)
			return NULL;
	} else {
		return NULL;
	}
	return dif_var_name(v->dv_id);
}

/* The table's heading, before its first row. */
static void
dt_cg_vartab_head(FILE *fp, bool *headp)
{
	if (!*headp)
		fprintf(fp, "\n%-16s %-4s %-6s %-3s %-3s %-11s %-4s %s\n",
		    "NAME", "ID", "OFFSET", "KND", "SCP", "RANGE", "FLAG",
		    "TYPE");
	*headp = true;
}

static void
dt_cg_disasm_vartab(dtrace_hdl_t *dtp, FILE *fp, const dif_object_t *difo)
{
	dt_cc_t *cc = dtp->dt_cc;
	bool head = false;
	dif_var_t v, w;
	const char *name;

	for (uint32_t i = 0; i < difo->dif_varlen; i++) {
		dt_cg_vartab_head(fp, &head);
		dt_cg_disasm_var(fp, difo, &difo->dif_vartab[i],
		    dif_var_tabname(difo, &difo->dif_vartab[i]));
	}
	for (uint32_t pc = 0; pc < difo->dif_len; pc++) {
		const dt_ident_t *idp;
		bool seen = false;

		if ((name = dt_cg_builtin_at(difo, pc, &v)) == NULL)
			continue;
		for (uint32_t p = 0; p < pc && !seen; p++)
			seen = dt_cg_builtin_at(difo, p, &w) != NULL &&
			    w.dv_id == v.dv_id && w.dv_kind == v.dv_kind;
		if (seen)
			continue;
		v.dv_type.dt_kind = DIF_TYPE_CTF;
		v.dv_type.dt_size = 8;
		idp = cc != NULL ? dt_idhash_lookup(cc->cc_globals, name) :
		    NULL;
		if (idp != NULL && !dt_ident_unref(idp)) {
			ctf_id_t base = ctf_type_resolve(idp->di_ctfp,
			    idp->di_type);
			ssize_t size = ctf_type_size(idp->di_ctfp, base);

			v.dv_type.dt_ctf = idp->di_ctfp;
			v.dv_type.dt_ctftype = idp->di_type;
			if (idp->di_ctfp == cc->cc_ctf && base ==
			    ctf_type_resolve(cc->cc_ctf, cc->cc_type_str)) {
				v.dv_type.dt_kind = DIF_TYPE_STRING;
				v.dv_type.dt_flags = DIF_TF_BYREF;
			}
			if (size > 0)
				v.dv_type.dt_size = (uint32_t) size;
		}
		dt_cg_vartab_head(fp, &head);
		dt_cg_disasm_var(fp, difo, &v, name);
	}
}

static void
dt_cg_disasm_difo(dtrace_hdl_t *dtp, FILE *fp, const char *what,
    const dif_object_t *difo)
{
	char rtype[64];

	fprintf(fp, "\n%s:\n", what);
	dif_disasm_code(fp, difo);
	dt_cg_disasm_vartab(dtp, fp, difo);
	dif_type_format(&difo->dif_rtype, rtype, sizeof (rtype));
	fprintf(fp, "\nRETURN %s\n", rtype);
}

void
dt_cg_disasm(dtrace_hdl_t *dtp, FILE *fp, const dt_program_t *pgp)
{
	char what[160];

	for (uint32_t s = 0; s < pgp->pg_nstmts; s++) {
		const dt_stmt_t *stp = &pgp->pg_stmts[s];

		fprintf(fp, "\nStatement %u (line %d):", stp->st_id,
		    stp->st_line);
		for (uint32_t d = 0; d < stp->st_ndescs; d++) {
			const dt_probedesc_t *pd = &stp->st_descs[d];

			fprintf(fp, "%s %s:%s:%s:%s", d ? "," : "",
			    pd->pd_provider, pd->pd_module, pd->pd_function,
			    pd->pd_name);
		}
		fprintf(fp, "\n");
		if (stp->st_pred != NULL)
			dt_cg_disasm_difo(dtp, fp, "Predicate", stp->st_pred);
		for (uint32_t a = 0; a < stp->st_nactions; a++) {
			const dt_action_t *ap = &stp->st_actions[a];
			const char *name = ap->ac_kind == DT_ACT_DIFEXPR ?
			    "DIF expression" : dt_action_name(ap->ac_kind);

			for (uint32_t k = 0; k < ap->ac_nkeys; k++) {
				snprintf(what, sizeof (what), "Action #%u (%s "
				    "@%s), key %u", a + 1, name,
				    pgp->pg_aggs[ap->ac_aggid].ag_name, k);
				dt_cg_disasm_difo(dtp, fp, what, ap->ac_keys[k]);
			}
			for (uint32_t i = 0; i < ap->ac_nargs; i++) {
				if (ap->ac_args[i].aa_difo == NULL)
					continue;
				if (ap->ac_kind == DT_ACT_AGGREGATE)
					snprintf(what, sizeof (what), "Action "
					    "#%u (%s @%s), argument %u", a + 1,
					    name,
					    pgp->pg_aggs[ap->ac_aggid].ag_name,
					    i);
				else
					snprintf(what, sizeof (what), "Action "
					    "#%u (%s), argument %u", a + 1,
					    name, i);
				dt_cg_disasm_difo(dtp, fp, what,
				    ap->ac_args[i].aa_difo);
			}
		}
	}
}
