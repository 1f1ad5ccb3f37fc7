/* SPDX-License-Identifier: MIT */
/*
 * dt_cook_act.c: semantic checks of clauses, statements, actions and
 * aggregating functions.
 *
 * A clause is cooked statement by statement.  Each statement is one of:
 *
 *	DT_NODE_DEXPR	an expression evaluated for its effect (dn_expr)
 *	DT_NODE_DFUNC	an action call (dn_expr, a FUNC of kind ACTFUNC)
 *	DT_NODE_AGG	an aggregation update (replaces its DEXPR)
 *	DT_NODE_IF	a conditional with its own statement lists
 *
 * Actions are checked beyond their prototypes as DTrace does: printf()
 * formats against their arguments, printa() and clear() and friends take
 * aggregations, stack() sizes are constants, and data-recording actions,
 * speculate() and commit() must come in an order that makes sense.
 * Aggregating functions check their arguments here, and each aggregation
 * keeps one function, one key signature and one set of parameters for its
 * whole life.
 */
#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/compiler/dt_cc.h"
#include "common/consumer/dt_printf.h"
#include "common/probe/dt_probe.h"

#define TNAME(dnp, buf) dt_node_type_name(cc, (dnp), (buf), sizeof (buf))

/* The n-th (1-based) node of a list. */
static dt_node_t *
dt_arg(dt_node_t *args, int n)
{
	while (args != NULL && --n > 0)
		args = args->dn_list;
	return args;
}

static bool
dt_is_intconst(const dt_node_t *dnp)
{
	return dnp != NULL && dnp->dn_kind == DT_NODE_INT &&
	    dt_node_is_integer(dnp);
}

static bool
dt_is_posconst(const dt_node_t *dnp)
{
	return dt_is_intconst(dnp) && ((dnp->dn_flags & DT_NF_SIGNED) ?
	    (int64_t) dnp->dn_value > 0 : dnp->dn_value != 0);
}

/* Parameters of quantizing functions must agree between uses. */
static void
dt_cook_aggparams(dt_pcb_t *pcb, dt_node_t *agg, const char *fn,
    int first, int n, const dt_errtag_t *tags)
{
	dt_ident_t *aid = agg->dn_ident;
	dt_node_t *prev = aid->di_aggfirst;

	if (prev == NULL || prev == agg)
		return;
	for (int i = first; i < first + n; i++) {
		dt_node_t *a = dt_arg(agg->dn_aggfun->dn_args, i);
		dt_node_t *b = dt_arg(prev->dn_aggfun->dn_args, i);
		uint64_t av = a != NULL ? a->dn_value : (i == 4 ? 1 : 0);
		uint64_t bv = b != NULL ? b->dn_value : (i == 4 ? 1 : 0);

		if (av != bv)
			dt_cc_nerror(pcb, agg, tags[i - first], "%s( ) "
			    "argument #%d doesn't match previous declaration: "
			    "expected %" PRId64 ", found %" PRId64, fn, i,
			    (int64_t) bv, (int64_t) av);
	}
}

/*
 * llquantize()'s steps per magnitude: at least the factor, a multiple of
 * it, and a divisor of a power of it, so that every magnitude's buckets
 * start on whole multiples of that magnitude's step.
 */
static void
dt_cook_llqsteps(dt_pcb_t *pcb, dt_node_t *fn, uint64_t factor,
    uint64_t nsteps)
{
	uint64_t pow = factor;

	if (factor < 2 || nsteps == 0)
		return;
	if (nsteps < factor)
		dt_cc_nerror(pcb, fn, D_LLQUANT_STEPVAL, "llquantize( ) "
		    "argument #5 (nsteps) must be at least argument #2 "
		    "(factor)");
	while (pow < nsteps)
		pow *= factor;
	if (nsteps % factor != 0 || pow % nsteps != 0)
		dt_cc_nerror(pcb, fn, D_LLQUANT_STEPVAL, "llquantize( ) "
		    "argument #5 (nsteps) must be a multiple of argument #2 "
		    "(factor) and divide a power of it");
}

/* Check the arguments of an aggregating function in @a[...] = f(...). */
void
dt_cook_aggfunc(dt_pcb_t *pcb, dt_node_t *agg)
{
	dt_cc_t *cc = pcb->pcb_cc;
	dt_node_t *fn = agg->dn_aggfun;
	dt_ident_t *fid = fn->dn_ident, *aid = agg->dn_ident;
	const char *name = fid->di_name;
	dt_node_t *a1 = dt_arg(fn->dn_args, 1);
	int argc = (int) dt_node_list_len(fn->dn_args);
	char n[512];

	dt_ident_cook(pcb, agg, aid, agg->dn_aggtup);
	if (aid->di_aggfirst == NULL) {
		aid->di_aggfirst = agg;
		aid->di_agggen = pcb->pcb_gen;
		aid->di_id = cc->cc_naggs++;
	}

	switch ((dt_aggkind_t) fid->di_id) {
	case DT_AGG_COUNT:
		break;
	case DT_AGG_SUM:
	case DT_AGG_AVG:
	case DT_AGG_MIN:
	case DT_AGG_MAX:
	case DT_AGG_STDDEV:
		if (!dt_node_is_scalar(a1))
			dt_cc_nerror(pcb, fn, D_AGG_SCALAR, "%s( ) argument "
			    "#1 must be of scalar type", name);
		break;
	case DT_AGG_QUANTIZE:
		if (argc > 2)
			dt_cc_nerror(pcb, fn, D_PROTO_LEN, "%s( ) prototype "
			    "mismatch: %d args passed, at most 2 expected",
			    name, argc);
		if (!dt_node_is_scalar(a1))
			dt_cc_nerror(pcb, fn, D_AGG_SCALAR, "%s( ) argument "
			    "#1 must be of scalar type", name);
		if (argc == 2 && !dt_node_is_scalar(dt_arg(fn->dn_args, 2)))
			dt_cc_nerror(pcb, fn, D_PROTO_ARG, "%s( ) increment "
			    "value (argument #2) must be of scalar type", name);
		break;
	case DT_AGG_LQUANTIZE: {
		dt_node_t *base = dt_arg(fn->dn_args, 2);
		dt_node_t *lim = dt_arg(fn->dn_args, 3);
		dt_node_t *step = dt_arg(fn->dn_args, 4);
		int64_t b, l, s = 1;
		static const dt_errtag_t tags[] = { D_LQUANT_MATCHBASE,
			D_LQUANT_MATCHLIM, D_LQUANT_MATCHSTEP };

		if (argc > 5)
			dt_cc_nerror(pcb, fn, D_PROTO_LEN, "%s( ) prototype "
			    "mismatch: %d args passed, at most 5 expected",
			    name, argc);
		if (!dt_node_is_scalar(a1))
			dt_cc_nerror(pcb, fn, D_AGG_SCALAR, "%s( ) argument "
			    "#1 must be of scalar type", name);
		if (!dt_is_intconst(base))
			dt_cc_nerror(pcb, fn, D_LQUANT_BASETYPE, "lquantize( ) "
			    "argument #2 must be a constant integer "
			    "expression");
		if (!dt_is_intconst(lim))
			dt_cc_nerror(pcb, fn, D_LQUANT_LIMTYPE, "lquantize( ) "
			    "argument #3 must be a constant integer "
			    "expression");
		b = (int64_t) base->dn_value;
		l = (int64_t) lim->dn_value;
		if (b < INT32_MIN || b > INT32_MAX)
			dt_cc_nerror(pcb, fn, D_LQUANT_BASEVAL, "lquantize( ) "
			    "base (argument #2) must be a 32-bit quantity");
		if (l < INT32_MIN || l > INT32_MAX)
			dt_cc_nerror(pcb, fn, D_LQUANT_LIMVAL, "lquantize( ) "
			    "limit (argument #3) must be a 32-bit quantity");
		if (l < b)
			dt_cc_nerror(pcb, fn, D_LQUANT_MISMATCH, "lquantize( ) "
			    "base (argument #2) must be less than limit "
			    "(argument #3)");
		if (argc >= 4) {
			if (!dt_is_posconst(step))
				dt_cc_nerror(pcb, fn, D_LQUANT_STEPTYPE,
				    "lquantize( ) argument #4 must be a "
				    "non-zero positive constant integer "
				    "expression");
			s = (int64_t) step->dn_value;
			if (s > UINT16_MAX)
				dt_cc_nerror(pcb, fn, D_LQUANT_STEPVAL,
				    "lquantize( ) step (argument #4) must be "
				    "a 16-bit quantity");
		}
		if ((l - b) / s == 0)
			dt_cc_nerror(pcb, fn, D_LQUANT_STEPLARGE, "lquantize( ) "
			    "step (argument #4) too large: must have at least "
			    "one bucket");
		if ((l - b) / s > UINT16_MAX)
			dt_cc_nerror(pcb, fn, D_LQUANT_STEPSMALL, "lquantize( ) "
			    "step (argument #4) too small: must have at most %d "
			    "buckets", UINT16_MAX);
		if (argc == 5 && !dt_node_is_scalar(dt_arg(fn->dn_args, 5)))
			dt_cc_nerror(pcb, fn, D_PROTO_ARG, "%s( ) increment "
			    "value (argument #5) must be of scalar type", name);
		dt_cook_aggparams(pcb, agg, name, 2, 3, tags);
		break;
	}
	case DT_AGG_LLQUANTIZE: {
		int64_t v[5];
		static const dt_errtag_t types[] = { 0, D_LLQUANT_FACTORTYPE,
			D_LLQUANT_LMAGTYPE, D_LLQUANT_HMAGTYPE,
			D_LLQUANT_STEPTYPE };
		static const char *const what[] = { "", "factor", "low",
			"high", "nsteps" };
		static const dt_errtag_t lltags[] = { D_LLQUANT_MATCHFACTOR,
			D_LLQUANT_MATCHLMAG, D_LLQUANT_MATCHHMAG,
			D_LLQUANT_MATCHSTEPS };

		if (argc > 6)
			dt_cc_nerror(pcb, fn, D_PROTO_LEN, "%s( ) prototype "
			    "mismatch: %d args passed, at most 6 expected",
			    name, argc);
		if (!dt_node_is_scalar(a1))
			dt_cc_nerror(pcb, fn, D_AGG_SCALAR, "%s( ) argument "
			    "#1 must be of scalar type", name);
		for (int i = 1; i <= 4; i++) {
			dt_node_t *a = dt_arg(fn->dn_args, i + 1);

			if (!dt_is_intconst(a))
				dt_cc_nerror(pcb, fn, types[i], "llquantize( ) "
				    "argument #%d (%s) must be a constant "
				    "integer expression", i + 1, what[i]);
			v[i] = (int64_t) a->dn_value;
		}
		if (v[1] < 2 || v[1] > UINT16_MAX)
			dt_cc_nerror(pcb, fn, D_LLQUANT_FACTORVAL, "llquantize( ) "
			    "argument #2 (factor) must be two or more");
		if (v[2] < 0 || v[2] > UINT16_MAX)
			dt_cc_nerror(pcb, fn, D_LLQUANT_LMAGVAL, "llquantize( ) "
			    "argument #3 (low magnitude) must be a 16-bit "
			    "quantity");
		if (v[3] < 0 || v[3] > UINT16_MAX)
			dt_cc_nerror(pcb, fn, D_LLQUANT_HMAGVAL, "llquantize( ) "
			    "argument #4 (high magnitude) must be a 16-bit "
			    "quantity");
		if (v[4] < 1 || v[4] > UINT16_MAX)
			dt_cc_nerror(pcb, fn, D_LLQUANT_STEPVAL, "llquantize( ) "
			    "argument #5 (nsteps) must be a 16-bit quantity");
		/* As in DTrace, the range spans at least one magnitude. */
		if (v[3] <= v[2])
			dt_cc_nerror(pcb, fn, D_LLQUANT_HMAGVAL, "llquantize( ) "
			    "argument #4 (high magnitude) must be greater "
			    "than argument #3 (low magnitude)");
		dt_cook_llqsteps(pcb, fn, (uint64_t) v[1], (uint64_t) v[4]);
		/* factor^high is the top bucket's bound: it must fit. */
		for (int64_t i = 0, order = 1; i < v[3]; i++) {
			if (__builtin_mul_overflow(order, v[1], &order))
				dt_cc_nerror(pcb, fn, D_LLQUANT_HMAGVAL,
				    "llquantize( ) factor %" PRId64 " raised "
				    "to the high magnitude %" PRId64 " "
				    "overflows 64 bits", v[1], v[3]);
		}
		if (argc == 6 && !dt_node_is_scalar(dt_arg(fn->dn_args, 6)))
			dt_cc_nerror(pcb, fn, D_PROTO_ARG, "%s( ) increment "
			    "value (argument #6) must be of scalar type",
			    name);
		dt_cook_aggparams(pcb, agg, name, 2, 4, lltags);
		break;
	}
	}
	(void) n;
}

/*
 * printf-style formats.  The format is parsed and checked by the same code
 * the consumer formats with (common/consumer/dt_printf.c), so the compiler
 * and the consumer cannot disagree on what a conversion takes; the compiler
 * only describes each argument's D type.  The error texts are DTrace's:
 * a malformed conversion is a syntax error without the action's name.
 */
static dt_errtag_t
dt_pftag(const char *name)
{
	for (int t = 0; t < D_NTAGS; t++) {
		if (strcmp(dt_errtag((dt_errtag_t) t), name) == 0)
			return (dt_errtag_t) t;
	}
	return D_UNKNOWN;
}

static void __attribute__((noreturn))
dt_pferror(dt_pcb_t *pcb, dt_node_t *fn, const dt_pferr_t *err)
{
	char msg[sizeof (err->pe_msg) * 2];

	if (strcmp(err->pe_tag, "D_NOMEM") == 0)
		dt_cc_nomem(pcb);
	/*
	 * The checker's message is laid out with newlines and tabs; what it
	 * quotes of the program (a conversion) is escaped, as every
	 * compile error's quoted text is (dt_cc_verror()).
	 */
	(void) dt_strescape(msg, sizeof (msg), err->pe_msg,
	    strlen(err->pe_msg), "\n\t");
	dt_cc_nerror_made(pcb, fn, dt_pftag(err->pe_tag), msg);
	abort();	/* not reached: dt_cc_nerror() does not return */
}

/* Is the (resolved) type an array whose elements are integers of bits? */
static bool
dt_is_intarray(ctf_dict_t *ctfp, ctf_id_t type, unsigned bits, bool chr)
{
	ctf_arinfo_t ar;
	ctf_encoding_t e;
	ctf_id_t base;

	if (ctfp == NULL || type == CTF_ERR ||
	    (base = ctf_type_resolve(ctfp, type)) == CTF_ERR ||
	    ctf_type_kind(ctfp, base) != CTF_K_ARRAY ||
	    ctf_array_info(ctfp, base, &ar) != 0 ||
	    (base = ctf_type_resolve(ctfp, ar.ctr_contents)) == CTF_ERR ||
	    ctf_type_kind(ctfp, base) != CTF_K_INTEGER ||
	    ctf_type_encoding(ctfp, base, &e) != 0)
		return false;
	return e.cte_bits == bits && (!chr || (e.cte_format & CTF_INT_CHAR));
}

/* What the format checker needs to know of one argument's type. */
static void
dt_pfarg_describe(dt_pcb_t *pcb, const dt_node_t *dnp, dt_pfargtype_t *at)
{
	dt_cc_t *cc = pcb->pcb_cc;
	char *name = dt_cc_zalloc(pcb, 512);
	int kind = CTF_K_UNKNOWN;
	ctf_id_t base;

	memset(at, 0, sizeof (*at));
	at->pt_name = dt_node_type_name(cc, dnp, name, 512);
	if (dnp->dn_ctfp != NULL && dnp->dn_type != CTF_ERR &&
	    (base = ctf_type_resolve(dnp->dn_ctfp, dnp->dn_type)) != CTF_ERR)
		kind = ctf_type_kind(dnp->dn_ctfp, base);

	if (dt_node_is_stack(cc, dnp)) {
		at->pt_kind = DT_PFARG_STACK;
	} else if (dt_node_is_symaddr(cc, dnp)) {
		at->pt_kind = dnp->dn_type == cc->cc_type_usymaddr ?
		    DT_PFARG_USYMADDR : DT_PFARG_SYMADDR;
		at->pt_size = 8;
	} else if (dt_node_is_integer(dnp)) {
		at->pt_kind = DT_PFARG_INT;
		at->pt_size = (uint32_t) dt_node_sizeof(cc, dnp);
		at->pt_signed = kind == CTF_K_ENUM ||
		    (dnp->dn_flags & DT_NF_SIGNED) != 0;
	} else if (kind == CTF_K_FLOAT) {
		at->pt_kind = DT_PFARG_FLOAT;
		at->pt_size = (uint32_t) dt_node_sizeof(cc, dnp);
	} else if (dt_node_is_string(cc, dnp)) {
		at->pt_kind = DT_PFARG_STRING;
	} else if (dt_is_intarray(dnp->dn_ctfp, dnp->dn_type, 8, true)) {
		at->pt_kind = DT_PFARG_STRING;
		at->pt_array = true;
	} else if (dt_is_intarray(dnp->dn_ctfp, dnp->dn_type, 32, false)) {
		at->pt_kind = DT_PFARG_WSTRING;
		at->pt_array = true;
	} else if (kind == CTF_K_POINTER || kind == CTF_K_ARRAY) {
		/* As in DTrace, char * is no string: it takes stringof. */
		at->pt_kind = DT_PFARG_POINTER;
	} else {
		at->pt_kind = DT_PFARG_OTHER;
	}
}

/*
 * Check a format against its values.  For printf(), system() and
 * freopen() the values are the arguments after the format; for printa()
 * they are the keys of the aggregation (keys, NULL when it has never been
 * assigned), and '@' conversions take its value (aggsigned: all but
 * count() are signed).
 */
static void
dt_cook_format(dt_pcb_t *pcb, dt_node_t *fn, const char *fname,
    dt_node_t *fmt, dt_node_t *args, const dt_idsig_t *keys, bool aggsigned)
{
	dt_cc_t *cc = pcb->pcb_cc;
	dt_pfargtype_t *at;
	dt_ident_t *tgt;
	dt_pfargv_t *pfv;
	dt_pferr_t err;
	uint32_t n = 0, flags = 0;
	char n1[512];
	int rv;

	if (fmt == NULL || fmt->dn_kind != DT_NODE_STRING)
		dt_cc_nerror(pcb, fn, D_PRINTF_ARG_FMT, "%s( ) argument #1 "
		    "is incompatible with prototype:\n\tprototype: string "
		    "constant\n\t argument: %s", fname,
		    fmt == NULL ? "void" : TNAME(fmt, n1));
	/* freopen("") is no format: it restores the standard output. */
	if (strcmp(fname, "freopen") == 0 && fmt->dn_string[0] == '\0') {
		if (args != NULL)
			dt_cc_nerror(pcb, fn, D_PRINTF_ARG_EXTRA, "%s( ) "
			    "prototype mismatch: only 0 arguments required by "
			    "this format string", fname);
		return;
	}
	if ((pfv = dt_printf_parse(fmt->dn_string, &err)) == NULL)
		dt_pferror(pcb, fn, &err);

	if (keys != NULL) {
		dt_node_t key;

		n = (uint32_t) keys->ds_argc;
		at = dt_cc_zalloc(pcb, (n + 1) * sizeof (*at));
		for (uint32_t i = 0; i < n; i++) {
			memset(&key, 0, sizeof (key));
			key.dn_ctfp = keys->ds_ctfp[i];
			key.dn_type = keys->ds_type[i];
			key.dn_flags = keys->ds_flags[i];
			dt_pfarg_describe(pcb, &key, &at[i]);
		}
		flags |= DT_PRINTF_PRINTA;
	} else {
		n = (uint32_t) dt_node_list_len(args);
		at = dt_cc_zalloc(pcb, (n + 1) * sizeof (*at));
		n = 0;
		for (dt_node_t *a = args; a != NULL; a = a->dn_list)
			dt_pfarg_describe(pcb, a, &at[n++]);
		if (strcmp(fname, "printa") != 0)
			flags |= DT_PRINTF_EXACTLEN;
		else
			flags |= DT_PRINTF_PRINTA;
	}
	/* %A takes a plain address when -c or -p names the process. */
	if ((tgt = dt_idhash_lookup(cc->cc_macros, "target")) != NULL &&
	    tgt->di_value != 0)
		flags |= DT_PRINTF_TARGET;

	rv = dt_printf_validate(pfv, fname, 1, at, n, flags, aggsigned, &err);
	dt_printf_free(pfv);
	if (rv != 0)
		dt_pferror(pcb, fn, &err);
}

/* Arguments that must be aggregations: printa, clear, trunc ... */
static void
dt_cook_aggarg(dt_pcb_t *pcb, dt_node_t *fn, dt_node_t *a, int i,
    dt_errtag_t tag)
{
	dt_cc_t *cc = pcb->pcb_cc;
	char n[512];

	if (a->dn_kind != DT_NODE_AGG)
		dt_cc_nerror(pcb, fn, tag, "%s( ) argument #%d is "
		    "incompatible with prototype:\n\tprototype: aggregation\n"
		    "\t argument: %s", fn->dn_ident->di_name, i,
		    TNAME(a, n));
	if (a->dn_aggtup != NULL && tag == D_PRINTA_AGGARG)
		dt_cc_nerror(pcb, fn, tag, "%s( ) argument #%d is "
		    "incompatible with prototype:\n\tprototype: aggregation\n"
		    "\t argument: %s", fn->dn_ident->di_name, i,
		    "aggregation element");
}


/*
 * Aggregations printed together by one printa() are joined on their keys,
 * so their keys must agree in number and, one by one, in type.
 */
static void
dt_cook_printa_keys(dt_pcb_t *pcb, dt_node_t *fn, const dt_ident_t *lid,
    const dt_ident_t *rid)
{
	dt_cc_t *cc = pcb->pcb_cc;
	const dt_idsig_t *ls = lid->di_sig, *rs = rid->di_sig;
	int largc = ls != NULL ? ls->ds_argc : 0;
	int rargc = rs != NULL ? rs->ds_argc : 0;
	char n1[512], n2[512];

	if (largc != rargc)
		dt_cc_nerror(pcb, fn, D_PRINTA_AGGKEY, "printa( ): @%s and @%s "
		    "do not have matching key signatures: @%s has %d key%s, "
		    "@%s has %d key%s", lid->di_name, rid->di_name,
		    lid->di_name, largc, largc == 1 ? "" : "s", rid->di_name,
		    rargc, rargc == 1 ? "" : "s");
	for (int i = 0; i < largc; i++) {
		dt_node_t l, r;

		memset(&l, 0, sizeof (l));
		memset(&r, 0, sizeof (r));
		l.dn_ctfp = ls->ds_ctfp[i];
		l.dn_type = ls->ds_type[i];
		l.dn_flags = ls->ds_flags[i];
		r.dn_ctfp = rs->ds_ctfp[i];
		r.dn_type = rs->ds_type[i];
		r.dn_flags = rs->ds_flags[i];
		if (dt_node_is_argcompat(cc, &l, &r))
			continue;
		dt_cc_nerror(pcb, fn, D_PRINTA_AGGPROTO, "printa( ): @%s[ ] "
		    "key #%d is incompatible with @%s:\n%9s key #%d: %s\n"
		    "%9s key #%d: %s", rid->di_name, i + 1, lid->di_name,
		    lid->di_name, i + 1, TNAME(&l, n1), rid->di_name, i + 1,
		    TNAME(&r, n2));
	}
}

/*
 * printa([format,] @a[, @b ...]): the format's conversions take the keys
 * of the first aggregation, and its '@' conversions the values.
 */
static void
dt_cook_printa(dt_pcb_t *pcb, dt_node_t *fn)
{
	dt_node_t *args = fn->dn_args, *fmt = NULL, *a;
	const dt_ident_t *first = NULL;
	int argc = (int) dt_node_list_len(args), argr = 1, i;

	if (args != NULL && args->dn_kind == DT_NODE_STRING) {
		fmt = args;
		argr = 2;
	}
	if (argc < argr)
		dt_cc_nerror(pcb, fn, D_PRINTA_PROTO, "printa( ) prototype "
		    "mismatch: %d args passed, %d expected", argc, argr);

	for (a = fmt != NULL ? fmt->dn_list : args, i = argr; a != NULL;
	    a = a->dn_list, i++) {
		dt_cook_aggarg(pcb, fn, a, i, D_PRINTA_AGGARG);
		if (first == NULL) {
			const dt_ident_t *fid = a->dn_ident->di_aggfunc;

			first = a->dn_ident;
			if (fmt != NULL)
				dt_cook_format(pcb, fn, "printa", fmt, NULL,
				    first->di_sig, fid == NULL ||
				    fid->di_id != DT_AGG_COUNT);
		} else {
			dt_cook_printa_keys(pcb, fn, first, a->dn_ident);
		}
	}
}

/* Extra checks of an action call, beyond its prototype. */
void
dt_cook_action(dt_pcb_t *pcb, dt_node_t *stmt)
{
	dt_cc_t *cc = pcb->pcb_cc;
	dt_node_t *fn = stmt->dn_expr, *args = fn->dn_args;
	dt_ident_t *fid = fn->dn_ident;
	const char *name = fid->di_name;
	int argc = (int) dt_node_list_len(args);
	char n[512];

	switch ((dt_actkind_t) fid->di_id) {
	case DT_ACT_TRACE:
	case DT_ACT_PRINT:
		if (dt_node_is_void(args))
			dt_cc_nerror(pcb, fn, D_TRACE_VOID, "%s( ) may not be "
			    "applied to a void expression", name);
		if (dt_node_is_dynamic(cc, args))
			dt_cc_nerror(pcb, fn, D_TRACE_DYN, "%s( ) may not be "
			    "applied to a dynamic expression", name);
		if (dt_node_is_xlptr(args))
			dt_cc_nerror(pcb, fn, D_TRACE_DYN, "%s( ) may not be "
			    "applied to a translated pointer", name);
		break;
	case DT_ACT_TRACEMEM:
		if (!dt_node_is_pointer(args) && !dt_node_is_integer(args))
			dt_cc_nerror(pcb, fn, D_TRACEMEM_ADDR, "tracemem( ) "
			    "argument #1 is incompatible with prototype:\n\t"
			    "prototype: pointer or integer\n\t argument: %s",
			    TNAME(args, n));
		if (!dt_is_posconst(args->dn_list))
			dt_cc_nerror(pcb, fn, D_TRACEMEM_SIZE, "tracemem( ) "
			    "argument #2 must be a non-zero positive integral "
			    "constant expression");
		if (argc > 3)
			dt_cc_nerror(pcb, fn, D_PROTO_LEN, "tracemem( ) "
			    "prototype mismatch: %d args passed, at most 3 "
			    "expected", argc);
		break;
	case DT_ACT_PRINTF:
		dt_cook_format(pcb, fn, name, args, args->dn_list, NULL, true);
		break;
	case DT_ACT_SYSTEM:
	case DT_ACT_FREOPEN:
		/*
		 * "." is DTrace's token for "restore stdout" (what
		 * freopen("") asks for), so a program may not name it; any
		 * other name, ".." too, fails or not when it is opened.
		 */
		if (fid->di_id == DT_ACT_FREOPEN &&
		    args->dn_kind == DT_NODE_STRING &&
		    strcmp(args->dn_string, ".") == 0)
			dt_cc_nerror(pcb, fn, D_FREOPEN_INVALID, "%s( ) "
			    "argument #1 cannot be \"%s\"", name,
			    args->dn_string);
		dt_cook_format(pcb, fn, name, args, args->dn_list, NULL, true);
		break;
	case DT_ACT_PRINTA:
		dt_cook_printa(pcb, fn);
		break;
	case DT_ACT_CLEAR:
		if (argc != 1)
			dt_cc_nerror(pcb, fn, D_CLEAR_PROTO, "%s( ) prototype "
			    "mismatch: %d args passed, 1 expected", name, argc);
		dt_cook_aggarg(pcb, fn, args, 1, D_CLEAR_AGGARG);
		break;
	case DT_ACT_DENORMALIZE:
		/* normalize()'s inverse: its errors are normalize()'s. */
		if (argc != 1)
			dt_cc_nerror(pcb, fn, D_NORMALIZE_PROTO, "%s( ) "
			    "prototype mismatch: %d args passed, 1 expected",
			    name, argc);
		dt_cook_aggarg(pcb, fn, args, 1, D_NORMALIZE_AGGARG);
		break;
	case DT_ACT_NORMALIZE:
		if (argc != 2)
			dt_cc_nerror(pcb, fn, D_NORMALIZE_PROTO, "%s( ) "
			    "prototype mismatch: %d args passed, 2 expected",
			    name, argc);
		dt_cook_aggarg(pcb, fn, args, 1, D_NORMALIZE_AGGARG);
		if (!dt_node_is_scalar(args->dn_list))
			dt_cc_nerror(pcb, fn, D_NORMALIZE_SCALAR, "%s( ) "
			    "argument #2 must be of scalar type", name);
		break;
	case DT_ACT_TRUNC:
		if (argc < 1 || argc > 2)
			dt_cc_nerror(pcb, fn, D_TRUNC_PROTO, "%s( ) prototype "
			    "mismatch: %d args passed, %s expected", name,
			    argc, argc < 1 ? "at least 1" : "at most 2");
		dt_cook_aggarg(pcb, fn, args, 1, D_TRUNC_AGGARG);
		if (argc == 2 && !dt_node_is_scalar(args->dn_list))
			dt_cc_nerror(pcb, fn, D_TRUNC_SCALAR, "%s( ) argument "
			    "#2 must be of scalar type", name);
		break;
	case DT_ACT_STACK:
		/* DTrace's checks and words, in its order. */
		if (argc > 1)
			dt_cc_nerror(pcb, fn, D_STACK_PROTO, "stack( ) "
			    "prototype mismatch: too many arguments");
		if (args != NULL && !dt_is_posconst(args))
			dt_cc_nerror(pcb, fn, D_STACK_SIZE, "stack( ) size "
			    "must be a non-zero positive integral constant "
			    "expression");
		break;
	case DT_ACT_USTACK:
	case DT_ACT_JSTACK: {
		dt_node_t *a2 = args != NULL ? args->dn_list : NULL;

		if (args != NULL && !dt_is_posconst(args))
			dt_cc_nerror(pcb, fn, D_USTACK_FRAMES, "%s( ) argument "
			    "#1 must be a non-zero positive integer constant",
			    name);
		/* The string space may be zero: no strings kept. */
		if (a2 != NULL && (!dt_is_intconst(a2) ||
		    ((a2->dn_flags & DT_NF_SIGNED) &&
		    (int64_t) a2->dn_value < 0)))
			dt_cc_nerror(pcb, fn, D_USTACK_STRSIZE, "%s( ) "
			    "argument #2 must be a positive integer constant",
			    name);
		if (argc > 2)
			dt_cc_nerror(pcb, fn, D_USTACK_PROTO, "%s( ) prototype "
			    "mismatch: too many arguments", name);
		break;
	}
	case DT_ACT_SETOPT:
		if (args->dn_kind != DT_NODE_STRING)
			dt_cc_nerror(pcb, fn, D_PROTO_ARG, "setopt( ) argument "
			    "#1 is incompatible with prototype:\n\tprototype: "
			    "string constant\n\t argument: %s", TNAME(args, n));
		break;
	default:
		break;
	}
}

/*
 * Where an action may appear in a clause: after commit() nothing records,
 * after speculate() nothing destroys or aggregates, and speculate() and
 * commit() come before any data is recorded.
 */
typedef struct dt_actstate {
	bool as_data;		/* a data-recording action was seen */
	bool as_spec;		/* speculate() was seen */
	bool as_commit;		/* commit() was seen */
} dt_actstate_t;

static void
dt_check_order(dt_pcb_t *pcb, dt_node_t *stmt, dt_actstate_t *st)
{
	dt_node_t *fn = stmt->dn_expr;

	if (stmt->dn_kind == DT_NODE_AGG) {
		if (st->as_commit)
			dt_cc_nerror(pcb, stmt, D_AGG_COMM, "aggregating "
			    "actions may not follow commit( )");
		if (st->as_spec)
			dt_cc_nerror(pcb, stmt, D_AGG_SPEC, "aggregating "
			    "actions may not follow speculate( )");
		return;
	}
	if (stmt->dn_kind != DT_NODE_DFUNC)
		return;
	switch ((dt_actkind_t) fn->dn_ident->di_id) {
	case DT_ACT_SPECULATE:
		if (st->as_spec)
			dt_cc_nerror(pcb, stmt, D_SPEC_SPEC, "speculate( ) may "
			    "not follow speculate( )");
		if (st->as_commit)
			dt_cc_nerror(pcb, stmt, D_SPEC_COMM, "speculate( ) may "
			    "not follow commit( )");
		if (st->as_data)
			dt_cc_nerror(pcb, stmt, D_SPEC_DREC, "speculate( ) may "
			    "not follow data-recording action(s)");
		st->as_spec = true;
		return;
	case DT_ACT_COMMIT:
		/*
		 * After speculate() it commits another speculation, at once,
		 * as in DTrace.
		 */
		if (st->as_commit)
			dt_cc_nerror(pcb, stmt, D_COMM_COMM, "commit( ) may "
			    "not follow commit( )");
		if (st->as_data)
			dt_cc_nerror(pcb, stmt, D_COMM_DREC, "commit( ) may "
			    "not follow data-recording action(s)");
		st->as_commit = true;
		return;
	case DT_ACT_DISCARD:
		return;
	case DT_ACT_EXIT:
		if (st->as_spec)
			dt_cc_nerror(pcb, stmt, D_EXIT_SPEC, "exit( ) may not "
			    "follow speculate( )");
		break;
	default:
		if ((fn->dn_ident->di_flags & DT_IDFLG_DESTRUCT) &&
		    st->as_spec)
			dt_cc_nerror(pcb, stmt, D_ACT_SPEC, "destructive "
			    "actions may not follow speculate( )");
		/*
		 * Destructive actions that record nothing (chill(), raise(),
		 * stop(), ...) are not data: speculate() and commit() may
		 * follow them, and they may follow commit(), as in DTrace.
		 */
		if ((fn->dn_ident->di_flags & DT_IDFLG_DESTRUCT) &&
		    !dt_action_consumed((dt_actkind_t) fn->dn_ident->di_id))
			return;
		break;
	}
	if (st->as_commit)
		dt_cc_nerror(pcb, stmt, D_DREC_COMM, "data-recording actions "
		    "may not follow commit( )");
	st->as_data = true;
}

/*
 * The actions that make a value to be recorded -- stack(), ustack(),
 * sym(), usym() and friends -- may be an aggregation key or an argument
 * of a data-recording action, but nothing deeper.
 */
static bool
dt_is_recfunc(const dt_cc_t *cc, const dt_node_t *dnp)
{
	return dt_node_is_actfunc(dnp) && (dt_node_is_stack(cc, dnp) ||
	    dt_node_is_symaddr(cc, dnp));
}

static void dt_check_noact(dt_pcb_t *pcb, dt_node_t *dnp);

/* An argument or key: a record-making action is allowed at its top. */
static void
dt_check_arg(dt_pcb_t *pcb, dt_node_t *dnp)
{
	if (dnp != NULL && dt_is_recfunc(pcb->pcb_cc, dnp)) {
		for (dt_node_t *a = dnp->dn_args; a != NULL; a = a->dn_list)
			dt_check_noact(pcb, a);
		return;
	}
	dt_check_noact(pcb, dnp);
}

/* No action may hide inside an expression. */
static void
dt_check_noact(dt_pcb_t *pcb, dt_node_t *dnp)
{
	if (dnp == NULL)
		return;
	if (dnp->dn_kind == DT_NODE_FUNC && dnp->dn_ident != NULL &&
	    (dnp->dn_ident->di_kind == DT_IDENT_ACTFUNC ||
	    dnp->dn_ident->di_kind == DT_IDENT_AGGFUNC))
		dt_cc_nerror(pcb, dnp, D_CG_EXPR, "%s( ) may not be called "
		    "from a D expression (D program context required)",
		    dnp->dn_ident->di_name);
	dt_check_noact(pcb, dnp->dn_child);
	dt_check_noact(pcb, dnp->dn_left);
	dt_check_noact(pcb, dnp->dn_right);
	dt_check_noact(pcb, dnp->dn_expr);
	for (dt_node_t *a = dnp->dn_args; a != NULL; a = a->dn_list)
		dt_check_noact(pcb, a);
	for (dt_node_t *a = dnp->dn_aggtup; a != NULL; a = a->dn_list)
		dt_check_noact(pcb, a);
}

static void
dt_cook_stmts(dt_pcb_t *pcb, dt_node_t **lpp, dt_actstate_t *st)
{
	dt_node_t *stmt, *next, **pp = lpp;

	for (stmt = *lpp; stmt != NULL; stmt = next) {
		next = stmt->dn_list;
		if (stmt->dn_flags & DT_NF_COOKED) {
			/* Cooked by an earlier attempt at this clause. */
			pp = &stmt->dn_list;
			continue;
		}
		if (stmt->dn_kind == DT_NODE_IF) {
			dt_actstate_t save = *st;

			stmt->dn_expr = dt_node_cook(pcb, stmt->dn_expr,
			    DT_IDFLG_REF);
			dt_check_noact(pcb, stmt->dn_expr);
			if (!dt_node_is_scalar(stmt->dn_expr))
				dt_cc_nerror(pcb, stmt, D_OP_SCALAR, "if "
				    "condition must be of scalar type");
			dt_cook_stmts(pcb, &stmt->dn_body, st);
			dt_cook_stmts(pcb, &stmt->dn_alternate, &save);
			st->as_data |= save.as_data;
			st->as_spec |= save.as_spec;
			st->as_commit |= save.as_commit;
			stmt->dn_flags |= DT_NF_COOKED;
			pp = &stmt->dn_list;
			continue;
		}
		stmt->dn_expr = dt_node_cook(pcb, stmt->dn_expr, 0);
		if (stmt->dn_expr->dn_kind == DT_NODE_AGG) {
			dt_node_t *agg = stmt->dn_expr;

			if (agg->dn_aggfun == NULL)
				dt_cc_nerror(pcb, agg, D_AGG_NULL, "expression "
				    "has null effect: @%s",
				    agg->dn_ident->di_name);
			for (dt_node_t *k = agg->dn_aggtup; k != NULL;
			    k = k->dn_list)
				dt_check_arg(pcb, k);
			for (dt_node_t *a = agg->dn_aggfun->dn_args; a != NULL;
			    a = a->dn_list)
				dt_check_noact(pcb, a);
			agg->dn_list = next;
			*pp = agg;
			pp = &agg->dn_list;
			dt_check_order(pcb, agg, st);
			continue;
		}
		if (dt_node_is_actfunc(stmt->dn_expr)) {
			/*
			 * The action's own checks come first, as in DTrace:
			 * printf("%s", printf("x")) is a void argument
			 * before it is an action inside an expression.
			 */
			stmt->dn_kind = DT_NODE_DFUNC;
			/*
			 * The action's own checks come first, as in DTrace:
			 * clear(count()) is a clear() argument error before
			 * count() is one of context.
			 */
			dt_cook_action(pcb, stmt);
			for (dt_node_t *a = stmt->dn_expr->dn_args; a != NULL;
			    a = a->dn_list)
				dt_check_arg(pcb, a);
			dt_check_order(pcb, stmt, st);
		} else {
			/*
			 * An expression records nothing (its value is void,
			 * as in DTrace), so it may follow commit(): the
			 * usual "commit(self->spec); self->spec = 0;".
			 */
			dt_check_noact(pcb, stmt->dn_expr);
		}
		stmt->dn_flags |= DT_NF_COOKED;
		pp = &stmt->dn_list;
	}
}

void
dt_cook_statement_list(dt_pcb_t *pcb, dt_node_t *list)
{
	dt_actstate_t st = { 0 };

	dt_cook_stmts(pcb, &list, &st);
}

/*
 * A clause: its probe descriptions, its actions and its predicate.  As in
 * DTrace, the actions are cooked first (they usually create the variables
 * the predicate reads); if that fails on an undefined name, the predicate
 * is cooked first instead.
 */
/*
 * DTrace checks the predicate once the whole clause is read, and reports
 * a predicate that is not a scalar at the line the clause ends on.
 */
static void
dt_cook_pred_scalar(dt_pcb_t *pcb, dt_node_t *dnp)
{
	pcb->pcb_line = dnp->dn_endline;
	dt_cc_error(pcb, D_PRED_SCALAR, "predicate result must be of scalar "
	    "type");
}

void
dt_cook_clause(dt_pcb_t *pcb, dt_node_t *dnp)
{
	dt_actstate_t st = { 0 };
	jmp_buf save;
	volatile bool pred_first = false;
	int err;

	for (dt_node_t *pd = dnp->dn_pdescs; pd != NULL; pd = pd->dn_list) {
		const char *why = NULL;

		int rc;

		if ((pd->dn_desc = dt_cc_zalloc(pcb,
		    sizeof (dt_probedesc_t))) == NULL)
			dt_cc_nomem(pcb);
		rc = dt_pdesc_parse(pcb, pd->dn_string, pcb->pcb_pspec,
		    pd->dn_desc, &why);
		if (rc == -2)	/* why is the whole message */
			dt_cc_nerror(pcb, pd, D_PDESC_INVAL, "%s", why);
		if (rc != 0)
			dt_cc_nerror(pcb, pd, D_PDESC_INVAL, "invalid probe "
			    "description \"%s\": %s", pd->dn_string, why);
		/*
		 * As DTrace, a description that matches nothing is an error
		 * (unless -Z) before the clause's body is looked at, and at
		 * the description's own line.  Matching also makes on-demand
		 * probes (tick-N, ...).
		 */
		if (!(pcb->pcb_cflags & DTRACE_C_ZDEFS)) {
			int n = dt_probe_iter(
			    pcb->pcb_hdl, pd->dn_desc, NULL, NULL);

			if (n < 0)
				dt_cc_nomem(pcb);
			if (n == 0)
				dt_cc_nomatch(pcb, pd->dn_line, pd->dn_desc);
		}
	}

	/*
	 * -x cpu: only that CPU traces.  Each clause's predicate starts with
	 * "cpu == N", so that every engine honours it as it honours any
	 * predicate.
	 */
	if (pcb->pcb_hdl->dt_options[DT_OPT_CPU] != DTRACEOPT_UNSET &&
	    !pcb->pcb_cc->cc_inlib) {
		dt_node_t *on = dt_node_op2(pcb, DT_OP_EQU,
		    dt_node_ident(pcb, dt_cc_strdup(pcb, "cpu")),
		    dt_node_int(pcb,
			(uint64_t) pcb->pcb_hdl->dt_options[DT_OPT_CPU], NULL));

		dnp->dn_pred = dnp->dn_pred == NULL
		    ? on
		    : dt_node_op2(pcb, DT_OP_LAND, on, dnp->dn_pred);
	}

	pcb->pcb_clause = dnp;
	memcpy(save, pcb->pcb_jmpbuf, sizeof (jmp_buf));
	if (dnp->dn_pred != NULL && (err = setjmp(pcb->pcb_jmpbuf)) != 0) {
		memcpy(pcb->pcb_jmpbuf, save, sizeof (jmp_buf));
		if (pred_first || (pcb->pcb_cc->cc_errtag !=
		    dt_errtag(D_IDENT_UNDEF) && pcb->pcb_cc->cc_errtag !=
		    dt_errtag(D_VAR_UNDEF)))
			longjmp(pcb->pcb_jmpbuf, err);
		pred_first = true;
	}
	if (pred_first) {
		pcb->pcb_region = "predicate";
		dnp->dn_pred = dt_node_cook(pcb, dnp->dn_pred, DT_IDFLG_REF);
		if (!dt_node_is_scalar(dnp->dn_pred))
			dt_cook_pred_scalar(pcb, dnp);
		memcpy(&st, &(dt_actstate_t) { 0 }, sizeof (st));
	}
	pcb->pcb_region = "action list";
	dt_cook_stmts(pcb, &dnp->dn_acts, &st);
	memcpy(pcb->pcb_jmpbuf, save, sizeof (jmp_buf));
	if (dnp->dn_pred != NULL && !pred_first) {
		pcb->pcb_region = "predicate";
		dnp->dn_pred = dt_node_cook(pcb, dnp->dn_pred, DT_IDFLG_REF);
		if (!dt_node_is_scalar(dnp->dn_pred))
			dt_cook_pred_scalar(pcb, dnp);
	}
	pcb->pcb_region = NULL;
	if (dnp->dn_pred != NULL)
		dt_check_noact(pcb, dnp->dn_pred);
	pcb->pcb_clause = NULL;
}
