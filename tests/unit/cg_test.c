/* SPDX-License-Identifier: MIT */
/*
 * cg_test.c: code generation -- D trees to DIF, run on the interpreter.
 *
 * The trees are built by hand in the shape the front end gives after
 * cooking (dt_cc.h), with types from a small CTF dictionary made here, so
 * each test names exactly the tree it compiles.  A little runner plays
 * the engine: it fires one probe, runs every statement's predicate and
 * actions in order on one interpreter state, and stores records as the
 * engines do, so tests check values, strings, variables of every scope,
 * record layouts and aggregation descriptions.
 */
#include <ctf-api.h>
#include <stdarg.h>

#include "common/compiler/dt_cg.h"
#include "common/dif/dif_interp.h"
#include "common/dt_aggfunc.h"
#include "tests/unit/unit.h"

/*
 * Types.
 */

static ctf_dict_t *ctf;
static ctf_id_t t_int, t_uint, t_char, t_long, t_ulong, t_str, t_void,
    t_voidp, t_intp, t_charp, t_s, t_sp, t_bf3, t_bf5;

static void
types_init(void)
{
	ctf_encoding_t e = { CTF_INT_SIGNED, 0, 32 };
	ctf_arinfo_t ar;
	int err;

	ctf = ctf_create(&err);
	if (ctf == NULL)
		SKIP("cannot create a CTF dictionary");
	t_int = ctf_add_integer(ctf, CTF_ADD_ROOT, "int", &e);
	e.cte_format = 0;
	t_uint = ctf_add_integer(ctf, CTF_ADD_ROOT, "unsigned int", &e);
	e.cte_format = CTF_INT_SIGNED | CTF_INT_CHAR;
	e.cte_bits = 8;
	t_char = ctf_add_integer(ctf, CTF_ADD_ROOT, "char", &e);
	e.cte_format = CTF_INT_SIGNED;
	e.cte_bits = 64;
	t_long = ctf_add_integer(ctf, CTF_ADD_ROOT, "long", &e);
	e.cte_format = 0;
	t_ulong = ctf_add_integer(ctf, CTF_ADD_ROOT, "unsigned long", &e);
	e.cte_format = 0;
	e.cte_bits = 0;
	t_void = ctf_add_integer(ctf, CTF_ADD_ROOT, "void", &e);
	ar.ctr_contents = t_char;
	ar.ctr_index = t_long;
	ar.ctr_nelems = 256;
	t_str = ctf_add_typedef(ctf, CTF_ADD_ROOT, "string",
	    ctf_add_array(ctf, CTF_ADD_ROOT, &ar));
	t_voidp = ctf_add_pointer(ctf, CTF_ADD_ROOT, t_void);
	t_intp = ctf_add_pointer(ctf, CTF_ADD_ROOT, t_int);
	t_charp = ctf_add_pointer(ctf, CTF_ADD_ROOT, t_char);

	/* struct s { int a; char b; unsigned bf:3, bg:5; long c; } */
	e.cte_format = 0;
	e.cte_offset = 0;
	e.cte_bits = 3;
	t_bf3 = ctf_add_slice(ctf, CTF_ADD_NONROOT, t_uint, &e);
	e.cte_bits = 5;
	t_bf5 = ctf_add_slice(ctf, CTF_ADD_NONROOT, t_uint, &e);
	t_s = ctf_add_struct(ctf, CTF_ADD_ROOT, "s");
	ctf_add_member_offset(ctf, t_s, "a", t_int, 0);
	ctf_add_member_offset(ctf, t_s, "b", t_char, 32);
	ctf_add_member_offset(ctf, t_s, "bf", t_bf3, 64);
	ctf_add_member_offset(ctf, t_s, "bg", t_bf5, 67);
	ctf_add_member_offset(ctf, t_s, "c", t_long, 128);
	t_sp = ctf_add_pointer(ctf, CTF_ADD_ROOT, t_s);
	if (t_sp == CTF_ERR || ctf_type_size(ctf, t_s) != 24)
		SKIP("libctf does not build the test types");
}

/*
 * Trees.
 */

#define MAXNODES 4096
static dt_node_t *nodes[MAXNODES];
static int nnodes;

static bool
type_signed(ctf_id_t type)
{
	ctf_encoding_t e;
	ctf_id_t b = ctf_type_resolve(ctf, type);

	return b != CTF_ERR && ctf_type_kind(ctf, b) == CTF_K_INTEGER &&
	    ctf_type_encoding(ctf, b, &e) == 0 && (e.cte_format &
	    CTF_INT_SIGNED);
}

static dt_node_t *
mk(dt_nodekind_t kind, ctf_id_t type)
{
	dt_node_t *dnp = calloc(1, sizeof (*dnp));

	if (dnp == NULL || nnodes == MAXNODES)
		abort();
	nodes[nnodes++] = dnp;
	dnp->dn_kind = kind;
	dnp->dn_line = 1;
	dnp->dn_flags = DT_NF_COOKED;
	dnp->dn_ctfp = type == CTF_ERR ? NULL : ctf;
	dnp->dn_type = type;
	if (type != CTF_ERR && type_signed(type))
		dnp->dn_flags |= DT_NF_SIGNED;
	return dnp;
}

static dt_node_t *
INT(int64_t v, ctf_id_t type)
{
	dt_node_t *dnp = mk(DT_NODE_INT, type);

	dnp->dn_value = (uint64_t) v;
	return dnp;
}

static dt_node_t *
STR(const char *s)
{
	dt_node_t *dnp = mk(DT_NODE_STRING, t_str);

	dnp->dn_string = (char *) s;
	dnp->dn_flags |= DT_NF_REF;
	return dnp;
}

static dt_node_t *
OP1(dt_op_t op, ctf_id_t type, dt_node_t *cp)
{
	dt_node_t *dnp = mk(DT_NODE_OP1, type);

	dnp->dn_op = op;
	dnp->dn_child = cp;
	return dnp;
}

static dt_node_t *
OP2(dt_op_t op, ctf_id_t type, dt_node_t *lp, dt_node_t *rp)
{
	dt_node_t *dnp = mk(DT_NODE_OP2, type);

	dnp->dn_op = op;
	dnp->dn_left = lp;
	dnp->dn_right = rp;
	return dnp;
}

static dt_node_t *
OP3(ctf_id_t type, dt_node_t *cp, dt_node_t *lp, dt_node_t *rp)
{
	dt_node_t *dnp = mk(DT_NODE_OP3, type);

	dnp->dn_op = DT_OP_QUESTION;
	dnp->dn_expr = cp;
	dnp->dn_left = lp;
	dnp->dn_right = rp;
	return dnp;
}

static dt_node_t *
TYPE(ctf_id_t type)
{
	return mk(DT_NODE_TYPE, type);
}

static dt_node_t *
CAST(ctf_id_t type, dt_node_t *e)
{
	return OP2(DT_OP_CAST, type, TYPE(type), e);
}

/* s.m or p->m, with the member's type. */
static dt_node_t *
MEMB(dt_op_t op, dt_node_t *lp, const char *name, ctf_id_t type,
    bool bitfield)
{
	dt_node_t *id = mk(DT_NODE_IDENT, CTF_ERR);
	dt_node_t *dnp;

	id->dn_string = (char *) name;
	dnp = OP2(op, type, lp, id);
	dnp->dn_flags |= DT_NF_LVALUE | DT_NF_WRITABLE;
	if (bitfield)
		dnp->dn_flags |= DT_NF_BITFIELD;
	return dnp;
}

/* Links nodes into a list, NULL-terminated arguments. */
static dt_node_t *
LIST(dt_node_t *first, ...)
{
	va_list ap;
	dt_node_t *prev = first, *n;

	va_start(ap, first);
	while (prev != NULL && (n = va_arg(ap, dt_node_t *)) != NULL) {
		prev->dn_list = n;
		prev = n;
	}
	va_end(ap);
	return first;
}

/* Identifiers. */
#define MAXIDS 128
static dt_ident_t *idents[MAXIDS];
static int nidents;

static dt_ident_t *
IDENT(const char *name, dt_idkind_t kind, uint32_t id, int scope,
    ctf_id_t type)
{
	dt_ident_t *idp = calloc(1, sizeof (*idp));

	if (idp == NULL || nidents == MAXIDS)
		abort();
	idents[nidents++] = idp;
	idp->di_name = (char *) name;
	idp->di_kind = kind;
	idp->di_id = id;
	idp->di_scope = scope;
	idp->di_ctfp = type == CTF_ERR ? NULL : ctf;
	idp->di_type = type;
	if (scope == DIFV_SCOPE_THREAD)
		idp->di_flags |= DT_IDFLG_TLS;
	if (scope == DIFV_SCOPE_LOCAL)
		idp->di_flags |= DT_IDFLG_LOCAL;
	return idp;
}

static dt_node_t *
VAR(dt_ident_t *idp, dt_node_t *keys)
{
	dt_node_t *dnp = mk(DT_NODE_VAR, idp->di_type);

	dnp->dn_ident = idp;
	dnp->dn_args = keys;
	dnp->dn_flags |= DT_NF_LVALUE | DT_NF_WRITABLE;
	if (idp->di_type == t_str)
		dnp->dn_flags |= DT_NF_REF;
	return dnp;
}

static dt_node_t *
CALL(dt_ident_t *idp, ctf_id_t type, dt_node_t *args)
{
	dt_node_t *dnp = mk(DT_NODE_FUNC, type);

	dnp->dn_ident = idp;
	dnp->dn_args = args;
	return dnp;
}

static dt_node_t *
ASGN(dt_op_t op, dt_node_t *lp, dt_node_t *rp)
{
	return OP2(op, lp->dn_type, lp, rp);
}

/* Statements and clauses. */
static dt_node_t *
DEXPR(dt_node_t *e)
{
	dt_node_t *dnp = mk(DT_NODE_DEXPR, CTF_ERR);

	dnp->dn_expr = e;
	return dnp;
}

static dt_node_t *
DFUNC(dt_node_t *call)
{
	dt_node_t *dnp = mk(DT_NODE_DFUNC, CTF_ERR);

	dnp->dn_expr = call;
	return dnp;
}

static dt_node_t *
AGG(dt_ident_t *agg, dt_node_t *keys, dt_node_t *fn)
{
	dt_node_t *dnp = mk(DT_NODE_AGG, CTF_ERR);

	dnp->dn_ident = agg;
	dnp->dn_aggtup = keys;
	dnp->dn_aggfun = fn;
	return dnp;
}

static dt_node_t *
IF(dt_node_t *cond, dt_node_t *body, dt_node_t *alt)
{
	dt_node_t *dnp = mk(DT_NODE_IF, CTF_ERR);

	dnp->dn_expr = cond;
	dnp->dn_body = body;
	dnp->dn_alternate = alt;
	return dnp;
}

static dt_probedesc_t pd_begin = { "dtrace", "", "", "BEGIN", 0 };

static dt_node_t *
CLAUSE(dt_node_t *pred, dt_node_t *acts)
{
	dt_node_t *dnp = mk(DT_NODE_CLAUSE, CTF_ERR);
	dt_node_t *pd = mk(DT_NODE_PDESC, CTF_ERR);

	pd->dn_string = (char *) "dtrace:::BEGIN";
	pd->dn_desc = &pd_begin;
	dnp->dn_pdescs = pd;
	dnp->dn_pred = pred;
	dnp->dn_acts = acts;
	return dnp;
}

static dt_node_t *
PROG(dt_node_t *clauses)
{
	dt_node_t *dnp = mk(DT_NODE_PROG, CTF_ERR);

	dnp->dn_body = clauses;
	return dnp;
}

static void
free_trees(void)
{
	while (nnodes > 0)
		free(nodes[--nnodes]);
}

/*
 * Running.
 */

static dtrace_hdl_t hdl;
static dif_state_t *st;
static dif_mstate_t *ms;
static uint64_t fire_args[DIF_NARGS] = { 11, 22, 33 };

static dt_program_t *
compile(dt_node_t *root)
{
	dt_program_t *pgp = NULL;
	dt_cg_error_t err;

	if (dt_cg_program(&hdl, root, &pgp, &err) != 0) {
		printf("compile failed: line %d: %s\n", err.ce_line,
		    err.ce_msg);
		unit_failures++;
		return NULL;
	}
	return pgp;
}

/* Record data of each statement after run(). */
static unsigned char data[16][2048];
static int faults;

/* Fires BEGIN once and runs every statement, as an engine would. */
static void
run(const dt_program_t *pgp)
{
	uint64_t v;

	faults = 0;
	memset(data, 0, sizeof (data));
	dif_mstate_firing(ms, 1, 1, "dtrace", "", "", "BEGIN", fire_args,
	    DIF_NARGS, 1000, 7);
	for (uint32_t s = 0; s < pgp->pg_nstmts && s < 16; s++) {
		const dt_stmt_t *stp = &pgp->pg_stmts[s];

		dif_mstate_clause(ms, 1);
		if (stp->st_pred != NULL) {
			if (dif_exec(st, ms, stp->st_pred, &v) != 0) {
				faults++;
				continue;
			}
			if (v == 0)
				continue;
		}
		for (uint32_t a = 0; a < stp->st_nactions; a++) {
			const dt_action_t *ap = &stp->st_actions[a];

			for (uint32_t k = 0; k < ap->ac_nkeys; k++) {
				if (dif_exec(st, ms, ap->ac_keys[k], &v) != 0)
					faults++;
			}
			for (uint32_t i = 0; i < ap->ac_nargs; i++) {
				const dt_recdesc_t *rd = &ap->ac_args[i].aa_rec;
				unsigned char *d = data[s] + rd->rd_offset;

				if (ap->ac_args[i].aa_difo == NULL)
					continue;
				if (dif_exec(st, ms, ap->ac_args[i].aa_difo,
				    &v) != 0) {
					faults++;
					continue;
				}
				if (ap->ac_kind == DT_ACT_AGGREGATE ||
				    rd->rd_type == DT_REC_NONE)
					continue;
				if (rd->rd_type == DT_REC_STRING)
					(void) dif_readstr(ms, v, (char *) d,
					    rd->rd_size);
				else if (rd->rd_type == DT_REC_BYTES)
					(void) dif_read(ms, v, d, rd->rd_size);
				else
					memcpy(d, &v, rd->rd_size < 8 ?
					    rd->rd_size : 8);
			}
		}
	}
}

/*
 * The value of an expression: compiled as the only statement of a clause
 * and run; strings are copied into sbuf.
 */
static char sbuf[256];

static int64_t
eval(dt_node_t *e)
{
	dt_program_t *pgp = compile(PROG(CLAUSE(NULL, DEXPR(e))));
	uint64_t v = 0;

	sbuf[0] = '\0';
	if (pgp == NULL)
		return -12345;
	dif_mstate_firing(ms, 1, 1, "dtrace", "", "", "BEGIN", fire_args,
	    DIF_NARGS, 1000, 7);
	dif_mstate_clause(ms, 1);
	if (dif_exec(st, ms, pgp->pg_stmts[0].st_actions[0].ac_args[0].aa_difo,
	    &v) != 0) {
		printf("fault: %s\n", dif_fault_name(
		    dif_mstate_fault(ms)->df_kind));
		v = (uint64_t) -12345;
	} else if (pgp->pg_stmts[0].st_actions[0].ac_args[0].aa_difo->
	    dif_rtype.dt_kind == DIF_TYPE_STRING) {
		(void) dif_readstr(ms, v, sbuf, sizeof (sbuf));
	}
	dt_program_free(pgp);
	return (int64_t) v;
}

static const char *
evals(dt_node_t *e)
{
	(void) eval(e);
	return sbuf;
}

/*
 * The tests.
 */

static dt_ident_t *g_x, *g_y, *g_u, *g_c, *g_s, *g_arr, *t_tv, *t_tarr,
    *l_p, *l_ip, *l_v, *b_arg0, *b_args, *b_probename, *f_strlen,
    *f_strjoin, *f_alloca, *f_substr, *a_trace, *a_printf, *a_exit,
    *a_printa, *a_stack, *a_func, *ag_count, *ag_lquant, *ag_sum, *agg_c,
    *agg_q;

static void
idents_init(void)
{
	uint32_t g = DIF_VAR_OTHER_UBASE;

	g_x = IDENT("x", DT_IDENT_SCALAR, g, DIFV_SCOPE_GLOBAL, t_int);
	g_y = IDENT("y", DT_IDENT_SCALAR, g + 1, DIFV_SCOPE_GLOBAL, t_int);
	g_u = IDENT("u", DT_IDENT_SCALAR, g + 2, DIFV_SCOPE_GLOBAL, t_uint);
	g_c = IDENT("c", DT_IDENT_SCALAR, g + 3, DIFV_SCOPE_GLOBAL, t_char);
	g_s = IDENT("s", DT_IDENT_SCALAR, g + 4, DIFV_SCOPE_GLOBAL, t_str);
	g_arr = IDENT("arr", DT_IDENT_ARRAY, g + 5, DIFV_SCOPE_GLOBAL, t_long);
	t_tv = IDENT("tv", DT_IDENT_SCALAR, g, DIFV_SCOPE_THREAD, t_long);
	t_tarr = IDENT("ta", DT_IDENT_ARRAY, g + 1, DIFV_SCOPE_THREAD, t_str);
	l_p = IDENT("p", DT_IDENT_SCALAR, g, DIFV_SCOPE_LOCAL, t_sp);
	l_ip = IDENT("ip", DT_IDENT_SCALAR, g + 1, DIFV_SCOPE_LOCAL, t_intp);
	l_v = IDENT("v", DT_IDENT_SCALAR, g + 2, DIFV_SCOPE_LOCAL, t_int);
	b_arg0 = IDENT("arg0", DT_IDENT_SCALAR, DIF_VAR_ARG0,
	    DIFV_SCOPE_GLOBAL, t_long);
	b_args = IDENT("args", DT_IDENT_ARRAY, DIF_VAR_ARGS,
	    DIFV_SCOPE_GLOBAL, t_int);
	b_probename = IDENT("probename", DT_IDENT_SCALAR, DIF_VAR_PROBENAME,
	    DIFV_SCOPE_GLOBAL, t_str);
	b_arg0->di_flags |= DT_IDFLG_BUILTIN;
	b_args->di_flags |= DT_IDFLG_BUILTIN;
	b_probename->di_flags |= DT_IDFLG_BUILTIN;
	f_strlen = IDENT("strlen", DT_IDENT_FUNC, DIF_SUBR_STRLEN, 0, t_ulong);
	f_strjoin = IDENT("strjoin", DT_IDENT_FUNC, DIF_SUBR_STRJOIN, 0, t_str);
	f_alloca = IDENT("alloca", DT_IDENT_FUNC, DIF_SUBR_ALLOCA, 0, t_voidp);
	f_substr = IDENT("substr", DT_IDENT_FUNC, DIF_SUBR_SUBSTR, 0, t_str);
	a_trace = IDENT("trace", DT_IDENT_ACTFUNC, DT_ACT_TRACE, 0, t_void);
	a_printf = IDENT("printf", DT_IDENT_ACTFUNC, DT_ACT_PRINTF, 0, t_void);
	a_exit = IDENT("exit", DT_IDENT_ACTFUNC, DT_ACT_EXIT, 0, t_void);
	a_printa = IDENT("printa", DT_IDENT_ACTFUNC, DT_ACT_PRINTA, 0, t_void);
	a_stack = IDENT("stack", DT_IDENT_ACTFUNC, DT_ACT_STACK, 0, t_long);
	a_func = IDENT("func", DT_IDENT_ACTFUNC, DT_ACT_SYM, 0, t_ulong);
	ag_count = IDENT("count", DT_IDENT_AGGFUNC, DT_AGG_COUNT, 0, t_long);
	ag_lquant = IDENT("lquantize", DT_IDENT_AGGFUNC, DT_AGG_LQUANTIZE, 0,
	    t_long);
	ag_sum = IDENT("sum", DT_IDENT_AGGFUNC, DT_AGG_SUM, 0, t_long);
	agg_c = IDENT("@c", DT_IDENT_AGG, 0, 0, CTF_ERR);
	agg_q = IDENT("@q", DT_IDENT_AGG, 1, 0, CTF_ERR);
}

#define X() VAR(g_x, NULL)
#define Y() VAR(g_y, NULL)
#define U() VAR(g_u, NULL)
#define C() VAR(g_c, NULL)
#define I(v) INT(v, t_int)
#define UI(v) INT(v, t_uint)

static void
test_arith(void)
{
	/* Folded constants. */
	CHECK_INT(eval(OP2(DT_OP_ADD, t_int, I(2), OP2(DT_OP_MUL, t_int, I(3),
	    I(4)))), 14);
	CHECK_INT(eval(OP2(DT_OP_LSH, t_int, I(1), I(4))), 16);
	CHECK_INT(eval(OP1(DT_OP_INEG, t_int, I(5))), -5);

	/* Through variables, so nothing folds. */
	CHECK_INT(eval(ASGN(DT_OP_ASGN, X(), I(7))), 7);
	CHECK_INT(eval(OP2(DT_OP_MUL, t_int, X(), I(6))), 42);
	CHECK_INT(eval(OP2(DT_OP_SUB, t_int, I(3), X())), -4);
	CHECK_INT(eval(OP2(DT_OP_MOD, t_int, X(), I(4))), 3);
	CHECK_INT(eval(OP2(DT_OP_BAND, t_int, X(), I(5))), 5);
	CHECK_INT(eval(OP2(DT_OP_XOR, t_int, X(), I(1))), 6);
	CHECK_INT(eval(OP1(DT_OP_BNEG, t_int, X())), -8);
	CHECK_INT(eval(OP1(DT_OP_LNEG, t_int, X())), 0);

	/*
	 * Widths: as in DTrace, arithmetic is done in the 64-bit registers
	 * and an int result is not cut to 32 bits there (it is where it is
	 * stored or recorded at its type's size, and where it is cast).
	 */
	(void) eval(ASGN(DT_OP_ASGN, X(), I(0x7fffffff)));
	CHECK_INT(eval(OP2(DT_OP_ADD, t_int, X(), I(1))), 2147483648LL);
	(void) eval(ASGN(DT_OP_ASGN, U(), UI(0xffffffff)));
	CHECK_INT(eval(OP2(DT_OP_ADD, t_uint, U(), UI(1))), 0x100000000LL);
	CHECK_INT(eval(OP2(DT_OP_LSH, t_uint, U(), I(4))), 0xffffffff0LL);
	(void) eval(ASGN(DT_OP_ASGN, C(), INT(127, t_char)));
	CHECK_INT(eval(CAST(t_char, OP2(DT_OP_ADD, t_int, C(), I(1)))), -128);
	CHECK_INT(eval(OP2(DT_OP_ADD, t_int, C(), I(1))), 128);
	/* Assignment converts to the variable's type. */
	CHECK_INT(eval(ASGN(DT_OP_ASGN, C(), I(300))), 44);
	CHECK_INT(eval(C()), 44);

	/* Signedness: division, shifts, comparisons. */
	(void) eval(ASGN(DT_OP_ASGN, X(), I(-7)));
	CHECK_INT(eval(OP2(DT_OP_DIV, t_int, X(), I(2))), -3);
	CHECK_INT(eval(OP2(DT_OP_RSH, t_int, X(), I(1))), -4);
	(void) eval(ASGN(DT_OP_ASGN, U(), UI(0xfffffff9)));
	CHECK_INT(eval(OP2(DT_OP_DIV, t_uint, U(), UI(2))), 0x7ffffffcLL);
	CHECK_INT(eval(OP2(DT_OP_RSH, t_uint, U(), I(1))), 0x7ffffffcLL);
	/* int -7 converted to unsigned int: 0xfffffff9 / 2. */
	CHECK_INT(eval(OP2(DT_OP_DIV, t_uint, X(), UI(2))), 0x7ffffffcLL);
	/* -7 < 1u is false in C; -7 < 1 is true. */
	CHECK_INT(eval(OP2(DT_OP_LT, t_int, X(), UI(1))), 0);
	CHECK_INT(eval(OP2(DT_OP_LT, t_int, X(), I(1))), 1);
	CHECK_INT(eval(OP2(DT_OP_EQU, t_int, X(), U())), 1);
	CHECK_INT(eval(OP2(DT_OP_GE, t_int, U(), UI(5))), 1);
	CHECK_INT(eval(OP2(DT_OP_NEQ, t_int, X(), I(-7))), 0);
	CHECK_INT(eval(OP2(DT_OP_GT, t_int, X(), I(-8))), 1);
	CHECK_INT(eval(OP2(DT_OP_LE, t_int, X(), I(-8))), 0);
	/* long arithmetic is 64-bit. */
	CHECK_INT(eval(OP2(DT_OP_MUL, t_long, CAST(t_long, X()),
	    INT(1000000000000LL, t_long))), -7000000000000LL);
}

static void
test_logic(void)
{
	(void) eval(ASGN(DT_OP_ASGN, X(), I(1)));
	/* 0 && (x = 5): x untouched. */
	CHECK_INT(eval(OP2(DT_OP_LAND, t_int, OP2(DT_OP_EQU, t_int, X(), I(0)),
	    ASGN(DT_OP_ASGN, X(), I(5)))), 0);
	CHECK_INT(eval(X()), 1);
	/* x || (x = 9): x untouched, value 1. */
	CHECK_INT(eval(OP2(DT_OP_LOR, t_int, X(), ASGN(DT_OP_ASGN, X(),
	    I(9)))), 1);
	CHECK_INT(eval(X()), 1);
	CHECK_INT(eval(OP2(DT_OP_LAND, t_int, X(), ASGN(DT_OP_ASGN, Y(),
	    I(3)))), 1);
	CHECK_INT(eval(Y()), 3);
	CHECK_INT(eval(OP2(DT_OP_LOR, t_int, OP1(DT_OP_LNEG, t_int, X()),
	    OP2(DT_OP_SUB, t_int, Y(), I(3)))), 0);
	CHECK_INT(eval(OP2(DT_OP_LXOR, t_int, X(), Y())), 0);
	CHECK_INT(eval(OP2(DT_OP_LXOR, t_int, X(), OP2(DT_OP_SUB, t_int, Y(),
	    I(3)))), 1);
	/* ?: */
	CHECK_INT(eval(OP3(t_int, OP2(DT_OP_GT, t_int, Y(), I(2)), I(10),
	    I(20))), 10);
	CHECK_STR(evals(OP3(t_str, OP2(DT_OP_GT, t_int, Y(), I(5)), STR("big"),
	    STR("small"))), "small");
	/* , */
	CHECK_INT(eval(OP2(DT_OP_COMMA, t_int, ASGN(DT_OP_ASGN, X(), I(4)),
	    OP2(DT_OP_ADD, t_int, X(), I(1)))), 5);
}

static void
test_strings(void)
{
	dt_node_t *sv = VAR(g_s, NULL);

	CHECK_STR(evals(STR("hello")), "hello");
	CHECK_INT(eval(CALL(f_strlen, t_ulong, STR("hello"))), 5);
	CHECK_STR(evals(CALL(f_strjoin, t_str, LIST(STR("a"), STR("b"),
	    NULL))), "ab");
	/* Nested calls: the inner one runs before the outer pushes. */
	CHECK_INT(eval(CALL(f_strlen, t_ulong, CALL(f_strjoin, t_str,
	    LIST(STR("ab"), STR("cde"), NULL)))), 5);
	CHECK_STR(evals(CALL(f_strjoin, t_str, LIST(STR("<"),
	    CALL(f_strjoin, t_str, LIST(STR("x"), STR(">"), NULL)), NULL))),
	    "<x>");
	CHECK_STR(evals(CALL(f_substr, t_str, LIST(STR("hello"), I(1), I(3),
	    NULL))), "ell");
	CHECK_INT(eval(OP2(DT_OP_EQU, t_int, STR("abc"), STR("abc"))), 1);
	CHECK_INT(eval(OP2(DT_OP_LT, t_int, STR("abc"), STR("abd"))), 1);
	CHECK_INT(eval(OP2(DT_OP_GT, t_int, STR("abc"), STR("abd"))), 0);
	CHECK_INT(eval(OP2(DT_OP_NEQ, t_int, STR("a"), STR("b"))), 1);
	/* String variables copy on assignment. */
	CHECK_STR(evals(ASGN(DT_OP_ASGN, sv, STR("kept"))), "kept");
	CHECK_STR(evals(VAR(g_s, NULL)), "kept");
	CHECK_INT(eval(OP2(DT_OP_EQU, t_int, VAR(g_s, NULL), STR("kept"))), 1);
	CHECK_STR(evals(VAR(b_probename, NULL)), "BEGIN");
}

static void
test_vars(void)
{
	dt_node_t *k1, *k2;

	/* Built-ins: arg0 and args[]. */
	CHECK_INT(eval(VAR(b_arg0, NULL)), 11);
	CHECK_INT(eval(VAR(b_args, I(2))), 33);

	/* Associative arrays with a tuple of a string and an int. */
	k1 = LIST(STR("k"), I(2), NULL);
	CHECK_INT(eval(ASGN(DT_OP_ASGN, VAR(g_arr, k1), INT(10, t_long))), 10);
	k2 = LIST(STR("k"), I(2), NULL);
	CHECK_INT(eval(ASGN(DT_OP_ADD_EQ, VAR(g_arr, k2), INT(5, t_long))),
	    15);
	CHECK_INT(eval(VAR(g_arr, LIST(STR("k"), I(2), NULL))), 15);
	CHECK_INT(eval(VAR(g_arr, LIST(STR("k"), I(3), NULL))), 0);
	/* Keys computed by calls: pushed only after the calls ran. */
	CHECK_INT(eval(ASGN(DT_OP_ASGN, VAR(g_arr, LIST(CALL(f_strjoin, t_str,
	    LIST(STR("k"), STR(""), NULL)), CALL(f_strlen, t_ulong, STR("xy")),
	    NULL)), INT(99, t_long))), 99);
	CHECK_INT(eval(VAR(g_arr, LIST(STR("k"), I(2), NULL))), 99);

	/* Thread-locals, scalar and array. */
	CHECK_INT(eval(ASGN(DT_OP_ASGN, VAR(t_tv, NULL), INT(-3, t_long))), -3);
	CHECK_INT(eval(OP2(DT_OP_MUL, t_long, VAR(t_tv, NULL), INT(2,
	    t_long))), -6);
	CHECK_STR(evals(ASGN(DT_OP_ASGN, VAR(t_tarr, I(1)), STR("one"))),
	    "one");
	CHECK_STR(evals(VAR(t_tarr, I(1))), "one");

	/* ++ and --. */
	(void) eval(ASGN(DT_OP_ASGN, X(), I(5)));
	CHECK_INT(eval(OP1(DT_OP_POSTINC, t_int, X())), 5);
	CHECK_INT(eval(X()), 6);
	CHECK_INT(eval(OP1(DT_OP_PREINC, t_int, X())), 7);
	CHECK_INT(eval(OP1(DT_OP_PREDEC, t_int, X())), 6);
	CHECK_INT(eval(OP1(DT_OP_POSTINC, t_long, VAR(g_arr, LIST(STR("k"),
	    I(2), NULL)))), 99);
	CHECK_INT(eval(VAR(g_arr, LIST(STR("k"), I(2), NULL))), 100);
	CHECK_INT(eval(ASGN(DT_OP_SUB_EQ, VAR(t_tv, NULL), INT(4, t_long))),
	    -7);
	CHECK_INT(eval(ASGN(DT_OP_LSH_EQ, X(), I(2))), 24);
}

/*
 * Clause-locals and memory: one clause, several statements.
 *	this->p = (struct s *)alloca(sizeof (struct s));
 *	this->p->a = 5; this->p->c = -2;
 *	*(unsigned int *)((char *)this->p + 8) = 0xad;
 *	this->ip = (int *)this->p;
 *	trace(this->p->a + this->p->c);	trace(this->p->bf);
 *	trace(this->p->bg); trace(*(this->ip + 1) ...);
 */
static void
test_memory(void)
{
	dt_node_t *acts, *p, *bfw;
	dt_program_t *pgp;
	int64_t v;
	uint32_t u;
	int32_t i;

#define P() VAR(l_p, NULL)
	p = ASGN(DT_OP_ASGN, P(), CAST(t_sp, CALL(f_alloca, t_voidp,
	    OP1(DT_OP_SIZEOF, t_ulong, TYPE(t_s)))));
	bfw = OP1(DT_OP_DEREF, t_uint, CAST(ctf_add_pointer(ctf, CTF_ADD_ROOT,
	    t_uint), OP2(DT_OP_ADD, t_charp, CAST(t_charp, P()), I(8))));
	bfw->dn_flags |= DT_NF_LVALUE | DT_NF_WRITABLE;
	acts = LIST(DEXPR(p),
	    DEXPR(ASGN(DT_OP_ASGN, MEMB(DT_OP_PTR, P(), "a", t_int, false),
	    I(5))),
	    DEXPR(ASGN(DT_OP_ASGN, MEMB(DT_OP_PTR, P(), "c", t_long, false),
	    INT(-2, t_long))),
	    DEXPR(ASGN(DT_OP_ASGN, bfw, UI(0xad))),
	    DEXPR(ASGN(DT_OP_ASGN, VAR(l_ip, NULL), CAST(t_intp, P()))),
	    DFUNC(CALL(a_trace, t_void, OP2(DT_OP_ADD, t_long,
	    MEMB(DT_OP_PTR, P(), "a", t_int, false),
	    MEMB(DT_OP_PTR, P(), "c", t_long, false)))),
	    DFUNC(CALL(a_trace, t_void, MEMB(DT_OP_PTR, P(), "bf", t_uint,
	    true))),
	    DFUNC(CALL(a_trace, t_void, MEMB(DT_OP_PTR, P(), "bg", t_uint,
	    true))),
	    /* ip[4] is c's low word: *(ip + 4), scaled by sizeof (int). */
	    DFUNC(CALL(a_trace, t_void, OP1(DT_OP_DEREF, t_int,
	    OP2(DT_OP_ADD, t_intp, VAR(l_ip, NULL), I(4))))),
	    /* (char *)(ip + 2) - (char *)ip == 8; (ip + 2) - ip == 2 */
	    DFUNC(CALL(a_trace, t_void, OP2(DT_OP_SUB, t_long,
	    CAST(t_charp, OP2(DT_OP_ADD, t_intp, VAR(l_ip, NULL), I(2))),
	    CAST(t_charp, VAR(l_ip, NULL))))),
	    DFUNC(CALL(a_trace, t_void, OP2(DT_OP_SUB, t_long,
	    OP2(DT_OP_ADD, t_intp, VAR(l_ip, NULL), I(2)), VAR(l_ip, NULL)))),
	    /* this->v = this->p->b = 'x'; trace(this->v) */
	    DFUNC(CALL(a_trace, t_void, ASGN(DT_OP_ASGN, VAR(l_v, NULL),
	    ASGN(DT_OP_ASGN, MEMB(DT_OP_PTR, P(), "b", t_char, false),
	    INT('x', t_char))))),
	    NULL);
	pgp = compile(PROG(CLAUSE(NULL, acts)));
	if (pgp == NULL)
		return;
	CHECK_INT(pgp->pg_nstmts, 1);
	run(pgp);
	CHECK_INT(faults, 0);
	{
		const dt_action_t *ac = pgp->pg_stmts[0].st_actions;

		memcpy(&v, data[0] + ac[5].ac_args[0].aa_rec.rd_offset, 8);
		CHECK_INT(v, 3);
		memcpy(&u, data[0] + ac[6].ac_args[0].aa_rec.rd_offset, 4);
		CHECK_INT(u, 5);	/* 0xad & 7 */
		memcpy(&u, data[0] + ac[7].ac_args[0].aa_rec.rd_offset, 4);
		CHECK_INT(u, 21);	/* (0xad >> 3) & 31 */
		memcpy(&i, data[0] + ac[8].ac_args[0].aa_rec.rd_offset, 4);
		CHECK_INT(i, -2);
		memcpy(&v, data[0] + ac[9].ac_args[0].aa_rec.rd_offset, 8);
		CHECK_INT(v, 8);
		memcpy(&v, data[0] + ac[10].ac_args[0].aa_rec.rd_offset, 8);
		CHECK_INT(v, 2);
		memcpy(&i, data[0] + ac[11].ac_args[0].aa_rec.rd_offset, 4);
		CHECK_INT(i, 'x');
	}
	dt_program_free(pgp);
#undef P
}

static void
test_records(void)
{
	dt_program_t *pgp;
	const dt_stmt_t *stp;
	const dt_action_t *ap;
	const dt_aggdesc_t *agg;
	dt_node_t *acts;
	int32_t i;
	int64_t l;

	(void) eval(ASGN(DT_OP_ASGN, X(), I(4)));
	acts = LIST(
	    DFUNC(CALL(a_printf, t_void, LIST(STR("%d %s %d\n"), X(),
	    STR("str"), CAST(t_long, X()), NULL))),
	    DFUNC(CALL(a_trace, t_void, CAST(t_char, I(-1)))),
	    AGG(agg_c, LIST(VAR(b_probename, NULL), X(), NULL),
	    CALL(ag_count, t_long, NULL)),
	    AGG(agg_q, NULL, CALL(ag_lquant, t_long, LIST(X(), I(0), I(10),
	    I(2), NULL))),
	    DFUNC(CALL(a_exit, t_void, I(3))),
	    NULL);
	pgp = compile(PROG(LIST(CLAUSE(OP2(DT_OP_GT, t_int, X(), I(0)), acts),
	    CLAUSE(NULL, LIST(DFUNC(CALL(a_printa, t_void, LIST(STR("%@d\n"),
	    AGG(agg_c, NULL, NULL), AGG(agg_q, NULL, NULL), NULL))),
	    AGG(agg_c, LIST(STR("x"), I(1), NULL), CALL(ag_count, t_long,
	    NULL)), NULL)),
	    CLAUSE(NULL, NULL), NULL)));
	if (pgp == NULL)
		return;
	CHECK_INT(pgp->pg_nstmts, 3);
	stp = &pgp->pg_stmts[0];
	CHECK(stp->st_pred != NULL);
	CHECK_INT(stp->st_nactions, 5);
	ap = &stp->st_actions[0];
	CHECK_INT(ap->ac_kind, DT_ACT_PRINTF);
	CHECK_STR(ap->ac_format, "%d %s %d\n");
	CHECK_INT(ap->ac_nargs, 3);
	CHECK_INT(ap->ac_args[0].aa_rec.rd_type, DT_REC_SINT);
	CHECK_INT(ap->ac_args[0].aa_rec.rd_size, 4);
	CHECK_INT(ap->ac_args[0].aa_rec.rd_offset, 0);
	CHECK_INT(ap->ac_args[1].aa_rec.rd_type, DT_REC_STRING);
	CHECK_INT(ap->ac_args[1].aa_rec.rd_size, 256);
	CHECK_INT(ap->ac_args[1].aa_rec.rd_offset, 4);
	CHECK_INT(ap->ac_args[2].aa_rec.rd_type, DT_REC_SINT);
	CHECK_INT(ap->ac_args[2].aa_rec.rd_offset, 264);
	CHECK_INT(stp->st_actions[1].ac_args[0].aa_rec.rd_size, 1);
	CHECK_INT(stp->st_actions[1].ac_args[0].aa_rec.rd_offset, 272);
	CHECK_INT(stp->st_actions[2].ac_kind, DT_ACT_AGGREGATE);
	CHECK_INT(stp->st_actions[2].ac_nkeys, 2);
	CHECK_INT(stp->st_actions[2].ac_nargs, 0);
	CHECK_INT(stp->st_actions[3].ac_nargs, 1);
	CHECK_INT(stp->st_actions[4].ac_kind, DT_ACT_EXIT);
	CHECK_INT(stp->st_actions[4].ac_args[0].aa_rec.rd_size, 4);
	CHECK_INT(stp->st_actions[4].ac_args[0].aa_rec.rd_offset, 276);
	CHECK_INT(stp->st_size, 280);

	CHECK_INT(pgp->pg_naggs, 2);
	agg = &pgp->pg_aggs[0];
	CHECK_STR(agg->ag_name, "c");
	CHECK_INT(agg->ag_kind, DT_AGG_COUNT);
	CHECK_INT(agg->ag_nvals, 1);
	CHECK_INT(agg->ag_nkeys, 2);
	CHECK_INT(agg->ag_keys[0].rd_type, DT_REC_STRING);
	CHECK_INT(agg->ag_keys[1].rd_offset, 256);
	CHECK_INT(agg->ag_keysize, 260);
	agg = &pgp->pg_aggs[1];
	CHECK_STR(agg->ag_name, "q");
	CHECK_INT(agg->ag_params[1], 10);
	CHECK_INT(agg->ag_params[2], 2);
	CHECK_INT(agg->ag_nvals, dt_lquantize_nbuckets(0, 10, 2));
	CHECK_INT(agg->ag_keysize, 0);

	stp = &pgp->pg_stmts[1];
	CHECK_INT(stp->st_actions[0].ac_kind, DT_ACT_PRINTA);
	CHECK_INT(stp->st_actions[0].ac_naggs, 2);
	CHECK_INT(stp->st_actions[0].ac_aggids[1], 1);
	CHECK_STR(stp->st_actions[0].ac_format, "%@d\n");
	/* printa() stores nothing but must be seen: 8 bytes. */
	CHECK_INT(stp->st_size, 8);
	/* An empty clause: the default action, no data. */
	CHECK_INT(pgp->pg_stmts[2].st_nactions, 0);
	CHECK_INT(pgp->pg_stmts[2].st_size, 0);

	run(pgp);
	CHECK_INT(faults, 0);
	memcpy(&i, data[0], 4);
	CHECK_INT(i, 4);
	CHECK_STR((char *) data[0] + 4, "str");
	memcpy(&l, data[0] + 264, 8);
	CHECK_INT(l, 4);
	CHECK_INT((signed char) data[0][272], -1);
	memcpy(&i, data[0] + 276, 4);
	CHECK_INT(i, 3);
	dt_program_free(pgp);
}

/*
 *	BEGIN { x = arg0; if (x > 5) { y = 1; trace(y); } else { y = 2; }
 *		z... trace(x + y); }
 */
static void
test_if(void)
{
	dt_program_t *pgp;
	dt_node_t *acts;
	int32_t v;

	for (int pass = 0; pass < 2; pass++) {
		fire_args[0] = pass == 0 ? 11 : 3;
		acts = LIST(DEXPR(ASGN(DT_OP_ASGN, X(), CAST(t_int,
		    VAR(b_arg0, NULL)))),
		    IF(OP2(DT_OP_GT, t_int, X(), I(5)),
		    LIST(DEXPR(ASGN(DT_OP_ASGN, Y(), I(1))),
		    DFUNC(CALL(a_trace, t_void, Y())), NULL),
		    DEXPR(ASGN(DT_OP_ASGN, Y(), I(2)))),
		    DFUNC(CALL(a_trace, t_void, OP2(DT_OP_ADD, t_int, X(),
		    Y()))), NULL);
		pgp = compile(PROG(CLAUSE(NULL, acts)));
		if (pgp == NULL)
			return;
		/* before+cond, then, else, after */
		CHECK_INT(pgp->pg_nstmts, 4);
		CHECK(pgp->pg_stmts[0].st_pred == NULL);
		CHECK(pgp->pg_stmts[1].st_pred != NULL);
		CHECK_INT(pgp->pg_stmts[0].st_size, 0);
		CHECK_INT(pgp->pg_stmts[1].st_size, 8);
		run(pgp);
		CHECK_INT(faults, 0);
		memcpy(&v, data[1], 4);
		CHECK_INT(v, pass == 0 ? 1 : 0);
		memcpy(&v, data[3], 4);
		CHECK_INT(v, pass == 0 ? 12 : 5);
		dt_program_free(pgp);
	}
	fire_args[0] = 11;

	/* speculate() carries over into the statements an if cuts off. */
	pgp = compile(PROG(CLAUSE(NULL, LIST(DFUNC(CALL(IDENT("speculate",
	    DT_IDENT_ACTFUNC, DT_ACT_SPECULATE, 0, t_void), t_void, I(1))),
	    IF(X(), DFUNC(CALL(a_trace, t_void, I(5))), NULL), NULL))));
	if (pgp == NULL)
		return;
	CHECK_INT(pgp->pg_nstmts, 2);
	CHECK(pgp->pg_stmts[0].st_speculative);
	CHECK(pgp->pg_stmts[1].st_speculative);
	CHECK_INT(pgp->pg_stmts[1].st_actions[0].ac_kind, DT_ACT_SPECULATE);
	run(pgp);
	CHECK_INT(faults, 0);
	memcpy(&v, data[1], 4);
	CHECK_INT(v, 1);
	dt_program_free(pgp);
}

/*
 *	translator struct s < int in > { a = in * 2; c = in + 1; };
 *	xlate<struct s>(x).a, trace(xlate<struct s>(x)); inline int nx = x+1
 */
static void
test_xlate_inline(void)
{
	dt_ident_t *in = IDENT("in", DT_IDENT_SCALAR, 0, 0, t_int);
	dt_ident_t *nx = IDENT("nx", DT_IDENT_SCALAR, 0, 0, t_int);
	dt_xlator_t xl;
	dt_node_t *ma, *mc, *xp, *mp;
	dt_program_t *pgp;
	int32_t a;
	int64_t c;

	in->di_flags |= DT_IDFLG_BUILTIN;
	ma = mk(DT_NODE_MEMBER, CTF_ERR);
	ma->dn_membname = "a";
	ma->dn_membexpr = OP2(DT_OP_MUL, t_int, VAR(in, NULL), I(2));
	mc = mk(DT_NODE_MEMBER, CTF_ERR);
	mc->dn_membname = "c";
	mc->dn_membexpr = CAST(t_long, OP2(DT_OP_ADD, t_int, VAR(in, NULL),
	    I(1)));
	memset(&xl, 0, sizeof (xl));
	xl.dx_dst_ctfp = ctf;
	xl.dx_dst_type = t_s;
	xl.dx_src_ctfp = ctf;
	xl.dx_src_type = t_int;
	xl.dx_argid = in;
	xl.dx_members = LIST(ma, mc, NULL);

	(void) eval(ASGN(DT_OP_ASGN, X(), I(21)));
	xp = OP2(DT_OP_XLATE, t_s, TYPE(t_s), X());
	xp->dn_xlator = &xl;
	mp = MEMB(DT_OP_DOT, xp, "a", t_int, false);
	mp->dn_xlator = &xl;
	CHECK_INT(eval(mp), 42);

	xp = OP2(DT_OP_XLATE, t_s, TYPE(t_s), X());
	xp->dn_xlator = &xl;
	xp->dn_flags |= DT_NF_REF;
	pgp = compile(PROG(CLAUSE(NULL, DFUNC(CALL(a_trace, t_void, xp)))));
	if (pgp != NULL) {
		CHECK_INT(pgp->pg_stmts[0].st_actions[0].ac_args[0].aa_rec.
		    rd_type, DT_REC_BYTES);
		CHECK_INT(pgp->pg_stmts[0].st_size, 24);
		run(pgp);
		CHECK_INT(faults, 0);
		memcpy(&a, data[0], 4);
		memcpy(&c, data[0] + 16, 8);
		CHECK_INT(a, 42);
		CHECK_INT(c, 22);
		dt_program_free(pgp);
	}

	nx->di_flags |= DT_IDFLG_INLINE;
	nx->di_inline = OP2(DT_OP_ADD, t_int, X(), I(1));
	CHECK_INT(eval(OP2(DT_OP_MUL, t_int, VAR(nx, NULL), I(2))), 44);
}

/* A balanced tree of additions of x, depth levels deep. */
static dt_node_t *
t_balanced(int depth)
{
	if (depth == 0)
		return X();
	return OP2(DT_OP_ADD, t_int, t_balanced(depth - 1),
	    t_balanced(depth - 1));
}

/* x + (x + (x + ...)), deeper than DIF has registers. */
static void
test_deep_right(void)
{
	dt_node_t *e = X();

	for (int i = 0; i < 12; i++)
		e = OP2(DT_OP_ADD, t_int, X(), e);
	CHECK_INT(eval(e), 13 * 21);
}

static void
test_errors_and_listing(void)
{
	dt_program_t *pgp = NULL;
	dt_cg_error_t err;
	dt_node_t *e = X();
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	/*
	 * (x + x) + (x + x) ... balanced eight deep: more live values than
	 * registers, whichever operand goes first.
	 */
	e = t_balanced(8);
	CHECK_INT(dt_cg_program(&hdl, PROG(CLAUSE(NULL, DEXPR(e))), &pgp,
	    &err), -1);
	CHECK(pgp == NULL);
	CHECK_INT(err.ce_tag, D_CG_EXPR);
	CHECK(strstr(err.ce_msg, "registers") != NULL);

	/* stack() and func() as keys and records. */
	pgp = compile(PROG(CLAUSE(NULL, LIST(
	    AGG(IDENT("@s", DT_IDENT_AGG, 2, 0, CTF_ERR), LIST(CALL(a_stack,
	    t_long, I(5)), CALL(a_func, t_ulong, VAR(b_arg0, NULL)), NULL),
	    CALL(ag_sum, t_long, VAR(b_arg0, NULL))),
	    DFUNC(CALL(a_func, t_ulong, VAR(b_arg0, NULL))), NULL))));
	if (pgp == NULL)
		return;
	CHECK_INT(pgp->pg_aggs[0].ag_keys[0].rd_type, DT_REC_STACK);
	CHECK_INT(pgp->pg_aggs[0].ag_keys[0].rd_arg, 5);
	CHECK_INT(pgp->pg_aggs[0].ag_keys[0].rd_size, 40);
	CHECK_INT(pgp->pg_aggs[0].ag_keys[1].rd_type, DT_REC_SYM);
	CHECK_INT(pgp->pg_aggs[0].ag_keysize, 48);
	CHECK_INT(pgp->pg_stmts[0].st_actions[1].ac_kind, DT_ACT_SYM);
	CHECK_INT(pgp->pg_stmts[0].st_actions[1].ac_args[0].aa_rec.rd_type,
	    DT_REC_SYM);
	run(pgp);
	CHECK_INT(faults, 0);

	if ((fp = open_memstream(&buf, &len)) != NULL) {
		dt_cg_disasm(&hdl, fp, pgp);
		fclose(fp);
		CHECK(strstr(buf, "dtrace:::BEGIN") != NULL);
		CHECK(strstr(buf, "ldgs") != NULL);
		CHECK(strstr(buf, "ret") != NULL);
		if (getenv("CG_TEST_VERBOSE") != NULL)
			fputs(buf, stdout);
		free(buf);
	}
	dt_program_free(pgp);
}

int
main(void)
{
	dif_options_t opts = { 0 };

	types_init();
	idents_init();
	dt_options_init(&hdl);
	opts.dio_strsize = 256;
	opts.dio_seed = 1;
	if ((st = dif_state_create(&opts)) == NULL ||
	    (ms = dif_mstate_create(st, 0)) == NULL)
		SKIP("cannot create an interpreter state");

	test_arith();
	test_logic();
	test_strings();
	test_vars();
	test_memory();
	test_records();
	test_if();
	test_xlate_inline();
	test_deep_right();
	test_errors_and_listing();

	free_trees();
	while (nidents > 0)
		free(idents[--nidents]);
	dif_mstate_destroy(ms);
	dif_state_destroy(st);
	dt_options_fini(&hdl);
	ctf_dict_close(ctf);
	return unit_done();
}
