/* SPDX-License-Identifier: MIT */
/*
 * dt_node.c: parse tree nodes -- allocation, construction, type
 * assignment, names for messages and a debugging dump.
 *
 * Every node of a compile is on the compile's allocation list (dn_link,
 * starting at pcb_list), so an error anywhere frees the whole tree in one
 * walk and a successful compile hands the list to the handle.  Nodes are
 * never freed one by one; rewriting the tree during cooking just drops
 * references.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/compiler/dt_cc.h"

dt_node_t *
dt_node_alloc(dt_pcb_t *pcb, dt_nodekind_t kind)
{
	dt_node_t *dnp = calloc(1, sizeof (*dnp));

	if (dnp == NULL)
		dt_cc_nomem(pcb);
	dnp->dn_kind = kind;
	dnp->dn_line = pcb->pcb_fileptr != NULL ? pcb->pcb_line : 0;
	dnp->dn_type = CTF_ERR;
	dnp->dn_link = pcb->pcb_list;
	pcb->pcb_list = dnp;
	return dnp;
}

void
dt_node_free_list(dt_node_t *list)
{
	dt_node_t *next;

	for (; list != NULL; list = next) {
		next = list->dn_link;
		free(list);
	}
}

/*
 * An integer constant gets the first C type that holds its value, allowed
 * by its suffix: int, unsigned int (not for unsuffixed decimals), long,
 * unsigned long, long long, unsigned long long.
 */
dt_node_t *
dt_node_int(dt_pcb_t *pcb, uint64_t value, const char *text)
{
	static const struct {
		const char *name;
		uint64_t max;
		bool isunsigned;
		int longs;
	} ints[] = {
		{ "int", INT_MAX, false, 0 },
		{ "unsigned int", UINT_MAX, true, 0 },
		{ "long", LONG_MAX, false, 1 },
		{ "unsigned long", ULONG_MAX, true, 1 },
		{ "long long", LLONG_MAX, false, 2 },
		{ "unsigned long long", ULLONG_MAX, true, 2 },
	};
	dt_node_t *dnp = dt_node_alloc(pcb, DT_NODE_INT);
	bool decimal = true, usuffix = false;
	int longs = 0;
	ctf_dict_t *ctfp;
	ctf_id_t type;

	if (text != NULL) {
		const char *p = text;

		decimal = text[0] != '0' || text[1] == '\0';
		while (*p != '\0' && strchr("uUlL", *p) == NULL)
			p++;
		for (; *p != '\0'; p++) {
			if (*p == 'u' || *p == 'U')
				usuffix = true;
			else
				longs++;
		}
	}
	dnp->dn_value = value;
	for (size_t i = 0; i < sizeof (ints) / sizeof (ints[0]); i++) {
		if (value > ints[i].max || ints[i].longs < longs)
			continue;
		if (usuffix && !ints[i].isunsigned)
			continue;
		if (decimal && !usuffix && ints[i].isunsigned &&
		    i + 1 < sizeof (ints) / sizeof (ints[0]))
			continue;
		if (dt_type_lookup(pcb->pcb_cc, ints[i].name, &ctfp,
		    &type) != 0)
			dt_cc_error(pcb, D_UNKNOWN, "failed to find type %s",
			    ints[i].name);
		dt_node_type_assign(dnp, ctfp, type);
		dnp->dn_flags |= DT_NF_COOKED;
		return dnp;
	}
	dt_cc_error(pcb, D_INT_OFLOW, "integer constant 0x%" PRIx64
	    " cannot be represented in any built-in integral type", value);
}

dt_node_t *
dt_node_string(dt_pcb_t *pcb, char *s)
{
	dt_node_t *dnp = dt_node_alloc(pcb, DT_NODE_STRING);

	dnp->dn_string = s;
	dt_node_type_assign(dnp, pcb->pcb_cc->cc_ctf, pcb->pcb_cc->cc_type_str);
	dnp->dn_flags |= DT_NF_COOKED;
	return dnp;
}

dt_node_t *
dt_node_ident(dt_pcb_t *pcb, char *name)
{
	dt_node_t *dnp = dt_node_alloc(pcb, DT_NODE_IDENT);

	dnp->dn_string = name;
	return dnp;
}

/*
 * The depth of an expression tree.  The cooker, the code generator and
 * their helpers walk expressions recursively, so the depth bounds the
 * stack they need.  Nesting through parentheses, brackets and
 * right-associative operators is bounded by the parser's stack, but a
 * chain of left-associative operators (a + b + c ..., a || b || c ...,
 * x.a.b.c ...) is built without one, so its depth is counted here as the
 * tree is built and refused past DT_NODE_MAXDEPTH, which the compile
 * thread's stack is sized for (dt_cc_run()).
 */
static uint32_t
dt_node_depth(const dt_node_t *dnp)
{
	uint32_t d = 0;

	for (; dnp != NULL; dnp = dnp->dn_list) {
		if (dnp->dn_depth > d)
			d = dnp->dn_depth;
	}
	return d;
}

static void
dt_node_setdepth(dt_pcb_t *pcb, dt_node_t *dnp, uint32_t below)
{
	uint32_t max = pcb->pcb_cc->cc_maxdepth;

	dnp->dn_depth = below + 1;
	if (dnp->dn_depth > max)
		dt_cc_nerror(pcb, dnp, D_SYNTAX, "expression too deeply "
		    "nested: more than %u levels of operators", max);
}

dt_node_t *
dt_node_op1(dt_pcb_t *pcb, dt_op_t op, dt_node_t *cp)
{
	dt_node_t *dnp = dt_node_alloc(pcb, DT_NODE_OP1);

	dnp->dn_op = op;
	dnp->dn_child = cp;
	dt_node_setdepth(pcb, dnp, cp->dn_depth);
	return dnp;
}

dt_node_t *
dt_node_op2(dt_pcb_t *pcb, dt_op_t op, dt_node_t *lp, dt_node_t *rp)
{
	dt_node_t *dnp = dt_node_alloc(pcb, DT_NODE_OP2);
	uint32_t l = lp->dn_depth, r = dt_node_depth(rp);

	dnp->dn_op = op;
	dnp->dn_left = lp;
	dnp->dn_right = rp;
	dt_node_setdepth(pcb, dnp, l > r ? l : r);
	return dnp;
}

dt_node_t *
dt_node_op3(dt_pcb_t *pcb, dt_node_t *ep, dt_node_t *lp, dt_node_t *rp)
{
	dt_node_t *dnp = dt_node_alloc(pcb, DT_NODE_OP3);
	uint32_t d = ep->dn_depth;

	dnp->dn_op = DT_OP_QUESTION;
	dnp->dn_expr = ep;
	dnp->dn_left = lp;
	dnp->dn_right = rp;
	d = lp->dn_depth > d ? lp->dn_depth : d;
	d = rp->dn_depth > d ? rp->dn_depth : d;
	dt_node_setdepth(pcb, dnp, d);
	return dnp;
}

/*
 * A call.  The callee must be a plain identifier; what it names is
 * resolved when the call is cooked.
 */
dt_node_t *
dt_node_func(dt_pcb_t *pcb, dt_node_t *name, dt_node_t *args)
{
	dt_node_t *dnp;

	if (name->dn_kind != DT_NODE_IDENT ||
	    (name->dn_flags & DT_NF_AGGIDENT))
		dt_cc_nerror(pcb, name, D_FUNC_IDENT,
		    "function designator is not of function type");
	dnp = dt_node_alloc(pcb, DT_NODE_FUNC);
	dnp->dn_string = name->dn_string;
	dnp->dn_args = args;
	dt_node_setdepth(pcb, dnp, dt_node_depth(args));
	return dnp;
}

dt_node_t *
dt_node_type(dt_pcb_t *pcb, dt_decl_t *ddp)
{
	dt_node_t *dnp = dt_node_alloc(pcb, DT_NODE_TYPE);
	ctf_dict_t *ctfp;
	ctf_id_t type;

	dt_decl_type(pcb, ddp, &ctfp, &type);
	dt_node_type_assign(dnp, ctfp, type);
	dnp->dn_flags |= DT_NF_COOKED;
	return dnp;
}

dt_node_t *
dt_node_vartype(dt_pcb_t *pcb, ctf_dict_t *ctfp, ctf_id_t type)
{
	dt_node_t *dnp = dt_node_alloc(pcb, DT_NODE_TYPE);

	dt_node_type_assign(dnp, ctfp, type);
	dnp->dn_flags |= DT_NF_COOKED;
	return dnp;
}

dt_node_t *
dt_node_statement(dt_pcb_t *pcb, dt_node_t *expr)
{
	dt_node_t *dnp;

	/* A call of an action is an action statement; see dt_cook_act.c. */
	dnp = dt_node_alloc(pcb, DT_NODE_DEXPR);
	dnp->dn_expr = expr;
	dnp->dn_line = expr->dn_line;
	return dnp;
}

dt_node_t *
dt_node_pdesc(dt_pcb_t *pcb, char *spec)
{
	dt_node_t *dnp = dt_node_alloc(pcb, DT_NODE_PDESC);

	dnp->dn_string = spec;
	return dnp;
}

dt_node_t *
dt_node_clause(dt_pcb_t *pcb, dt_node_t *pdescs, dt_node_t *pred,
    dt_node_t *acts)
{
	dt_node_t *dnp = dt_node_alloc(pcb, DT_NODE_CLAUSE);

	dnp->dn_pdescs = pdescs;
	dnp->dn_pred = pred;
	dnp->dn_acts = acts;
	dnp->dn_line = pdescs->dn_line;
	dnp->dn_endline = pcb->pcb_line;
	return dnp;
}

dt_node_t *
dt_node_if(dt_pcb_t *pcb, dt_node_t *cond, dt_node_t *body, dt_node_t *alt)
{
	dt_node_t *dnp = dt_node_alloc(pcb, DT_NODE_IF);

	dnp->dn_expr = cond;
	dnp->dn_body = body;
	dnp->dn_alternate = alt;
	dnp->dn_line = cond->dn_line;
	return dnp;
}

/*
 * Append list rp to list lp (either may be NULL).  The grammar builds
 * lists (clauses, statements, arguments) one item at a time, so the head
 * remembers where its list ended last time: a program of N clauses is
 * then linked in O(N), not O(N^2).  Lists are only ever cut after they
 * are built, so the remembered node is always in the list.
 */
dt_node_t *
dt_node_link(dt_node_t *lp, dt_node_t *rp)
{
	dt_node_t *dnp;

	if (lp == NULL)
		return rp;
	if (rp == NULL)
		return lp;
	dnp = lp->dn_tail != NULL ? lp->dn_tail : lp;
	for (; dnp->dn_list != NULL; dnp = dnp->dn_list)
		continue;
	dnp->dn_list = rp;
	lp->dn_tail = rp->dn_tail != NULL ? rp->dn_tail : rp;
	return lp;
}

unsigned
dt_node_list_len(const dt_node_t *lp)
{
	unsigned n = 0;

	for (; lp != NULL; lp = lp->dn_list)
		n++;
	return n;
}

/* The spelling of each operator, as DTrace's messages show it. */
const char *
dt_op_name(dt_op_t op)
{
	static const char *const names[DT_OP_COUNT] = {
		[DT_OP_NONE] = "<none>",
		[DT_OP_COMMA] = ",",
		[DT_OP_ASGN] = "=",
		[DT_OP_ADD_EQ] = "+=", [DT_OP_SUB_EQ] = "-=",
		[DT_OP_MUL_EQ] = "*=", [DT_OP_DIV_EQ] = "/=",
		[DT_OP_MOD_EQ] = "%=", [DT_OP_AND_EQ] = "&=",
		[DT_OP_XOR_EQ] = "^=", [DT_OP_OR_EQ] = "|=",
		[DT_OP_LSH_EQ] = "<<=", [DT_OP_RSH_EQ] = ">>=",
		[DT_OP_QUESTION] = "?:",
		[DT_OP_LOR] = "||", [DT_OP_LXOR] = "^^", [DT_OP_LAND] = "&&",
		[DT_OP_BOR] = "|", [DT_OP_XOR] = "^", [DT_OP_BAND] = "&",
		[DT_OP_EQU] = "==", [DT_OP_NEQ] = "!=",
		[DT_OP_LT] = "<", [DT_OP_LE] = "<=", [DT_OP_GT] = ">",
		[DT_OP_GE] = ">=",
		[DT_OP_LSH] = "<<", [DT_OP_RSH] = ">>",
		[DT_OP_ADD] = "+", [DT_OP_SUB] = "-", [DT_OP_MUL] = "*",
		[DT_OP_DIV] = "/", [DT_OP_MOD] = "%",
		[DT_OP_LNEG] = "!", [DT_OP_BNEG] = "~",
		[DT_OP_PREINC] = "++", [DT_OP_PREDEC] = "--",
		[DT_OP_POSTINC] = "++", [DT_OP_POSTDEC] = "--",
		[DT_OP_IPOS] = "+", [DT_OP_INEG] = "-",
		[DT_OP_DEREF] = "*", [DT_OP_ADDROF] = "&",
		[DT_OP_SIZEOF] = "sizeof", [DT_OP_STRINGOF] = "stringof",
		[DT_OP_OFFSETOF] = "offsetof", [DT_OP_CAST] = "(cast)",
		[DT_OP_XLATE] = "xlate", [DT_OP_LBRAC] = "[",
		[DT_OP_DOT] = ".", [DT_OP_PTR] = "->",
	};

	if (op < DT_OP_COUNT && names[op] != NULL)
		return names[op];
	return "<unknown>";
}

const char *
dt_node_kind_name(dt_nodekind_t kind)
{
	static const char *const names[] = {
		"FREE", "INT", "STRING", "IDENT", "VAR", "SYM", "TYPE",
		"FUNC", "OP1", "OP2", "OP3", "DEXPR", "DFUNC", "AGG", "PDESC",
		"CLAUSE", "INLINE", "MEMBER", "XLATOR", "PROBE", "PROVIDER",
		"PROG", "IF", "DECL",
	};

	if ((size_t) kind < sizeof (names) / sizeof (names[0]))
		return names[kind];
	return "?";
}

/*
 * Give a node a type, setting the flags that follow from it: signedness,
 * and whether the value is handled by reference (strings, structs,
 * unions and arrays do not fit a register).
 */
void
dt_node_type_assign(dt_node_t *dnp, ctf_dict_t *ctfp, ctf_id_t type)
{
	ctf_id_t base = ctf_type_resolve(ctfp, type);
	int kind = base == CTF_ERR ? CTF_K_UNKNOWN : ctf_type_kind(ctfp, base);
	ctf_encoding_t e;

	dnp->dn_flags &= ~(DT_NF_SIGNED | DT_NF_REF | DT_NF_BITFIELD);
	if (kind == CTF_K_INTEGER && ctf_type_encoding(ctfp, base, &e) == 0) {
		if (e.cte_format & CTF_INT_SIGNED)
			dnp->dn_flags |= DT_NF_SIGNED;
		if (e.cte_offset != 0 || (e.cte_bits % 8 != 0) ||
		    (e.cte_bits != 0 && e.cte_bits != 8 &&
		    e.cte_bits != 16 && e.cte_bits != 32 && e.cte_bits != 64))
			dnp->dn_flags |= DT_NF_BITFIELD;
	}
	if (kind == CTF_K_STRUCT || kind == CTF_K_UNION ||
	    kind == CTF_K_ARRAY || kind == CTF_K_FLOAT)
		dnp->dn_flags |= DT_NF_REF;
	dnp->dn_ctfp = ctfp;
	dnp->dn_type = type;
}

void
dt_node_type_propagate(const dt_node_t *src, dt_node_t *dst)
{
	dst->dn_ctfp = src->dn_ctfp;
	dst->dn_type = src->dn_type;
	dst->dn_flags &= ~(DT_NF_SIGNED | DT_NF_REF | DT_NF_BITFIELD |
	    DT_NF_USERLAND | DT_NF_XLATED);
	dst->dn_flags |= src->dn_flags & (DT_NF_SIGNED | DT_NF_REF |
	    DT_NF_BITFIELD | DT_NF_USERLAND | DT_NF_XLATED);
	if (dst->dn_xlator == NULL)
		dst->dn_xlator = src->dn_xlator;
}

/* Print a tree, one node a line, for debugging and -x tree. */
void
dt_node_printr(const dt_node_t *dnp, FILE *fp, int depth)
{
	char n[256];

	for (; dnp != NULL; dnp = dnp->dn_list) {
		fprintf(fp, "%*s%s", depth * 2, "",
		    dt_node_kind_name(dnp->dn_kind));
		if (dnp->dn_op != DT_OP_NONE)
			fprintf(fp, " %s", dt_op_name(dnp->dn_op));
		if (dnp->dn_kind == DT_NODE_INT)
			fprintf(fp, " %" PRIu64, dnp->dn_value);
		if (dnp->dn_string != NULL)
			fprintf(fp, " \"%s\"", dnp->dn_string);
		if (dnp->dn_ident != NULL)
			fprintf(fp, " ident=%s id=%#x", dnp->dn_ident->di_name,
			    dnp->dn_ident->di_id);
		if (dnp->dn_ctfp != NULL && dnp->dn_type != CTF_ERR)
			fprintf(fp, " <%s>", dt_type_name(dnp->dn_ctfp,
			    dnp->dn_type, n, sizeof (n)));
		fprintf(fp, " flags=%#x line=%d\n", dnp->dn_flags,
		    dnp->dn_line);
		dt_node_printr(dnp->dn_pdescs, fp, depth + 1);
		dt_node_printr(dnp->dn_pred, fp, depth + 1);
		dt_node_printr(dnp->dn_expr, fp, depth + 1);
		dt_node_printr(dnp->dn_child, fp, depth + 1);
		dt_node_printr(dnp->dn_left, fp, depth + 1);
		dt_node_printr(dnp->dn_right, fp, depth + 1);
		dt_node_printr(dnp->dn_args, fp, depth + 1);
		dt_node_printr(dnp->dn_aggtup, fp, depth + 1);
		dt_node_printr(dnp->dn_aggfun, fp, depth + 1);
		dt_node_printr(dnp->dn_acts, fp, depth + 1);
		dt_node_printr(dnp->dn_body, fp, depth + 1);
		dt_node_printr(dnp->dn_alternate, fp, depth + 1);
	}
}
