/* SPDX-License-Identifier: MIT */
/*
 * dt_cg.c: code generation for D expressions -- one cooked expression to
 * one DIF object.
 *
 * The object under construction lives in dt_cg_t: an instruction buffer,
 * the integer table (SETX), the string table (SETS, and the names of the
 * variables), the variable table, labels and the set of registers in use.
 * dt_cg_obj_begin() empties them, dt_cg_expr() appends the code of an
 * expression and returns the register holding its value, and
 * dt_cg_obj_end() appends the final ret, resolves branch labels, builds
 * the dif_object_t and runs the verifier over it: a rejected object is a
 * bug here, reported as an internal error rather than run.
 *
 * Invariants of the generated code:
 *
 *   - integer arithmetic is DTrace's: done on 64-bit registers, whose
 *     result is not cut to its D type's width; a value is brought to its
 *     type (sign-extended for signed types, zero-extended for unsigned
 *     ones) where it is loaded, stored to a variable or memory, cast or
 *     negated, and a record keeps its type's width.  Operands of the
 *     operations whose result depends on the upper bits (division,
 *     remainder, right shift, comparison) are first converted to the
 *     common type of the usual arithmetic conversions when their own
 *     types differ from it;
 *   - a by-reference value (string, struct, union, array) is held as its
 *     address; storing it into a variable copies it (the interpreter's
 *     variable stores do the copy), so strings need no allocs/copys of
 *     their own except to assign through memory;
 *   - branches only go forward: &&, ||, ! and ?: become diamonds that
 *     leave the value in one register on every path, with the comparison
 *     immediately before its branch so that a translator never has to
 *     track condition codes across other instructions;
 *   - the tuple stack is empty between expressions.  The keys of an
 *     associative array and the arguments of a subroutine are evaluated
 *     into registers first whenever a later one itself uses the tuple
 *     stack (a call or an array reference), then pushed together, so a
 *     nested call never sees its caller's half-pushed tuple; after the
 *     call or array access the stack is flushed (DTrace's convention);
 *   - constant subexpressions are folded at compile time with the same
 *     width and signedness rules, so `1 << 4` costs one setx.
 *
 * Registers are %r1..%r7 (%r0 reads 0); an expression that needs more
 * fails with DTrace's "insufficient registers" error.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "common/compiler/dt_cg.h"
#include "common/dif/dif_verify.h"

/*
 * Errors and memory.
 */

void
dt_cg_fail(dt_cg_t *cg, const dt_node_t *dnp, dt_errtag_t tag,
    const char *fmt, ...)
{
	va_list ap;

	if (dnp == NULL)
		dnp = cg->cg_node;
	cg->cg_err->ce_tag = tag;
	cg->cg_err->ce_line = dnp != NULL ? dnp->dn_line : 0;
	va_start(ap, fmt);
	vsnprintf(cg->cg_err->ce_msg, sizeof (cg->cg_err->ce_msg), fmt, ap);
	va_end(ap);
	longjmp(cg->cg_jmp, 1);
}

void
dt_cg_nomem(dt_cg_t *cg)
{
	cg->cg_nomem = true;
	dt_cg_fail(cg, NULL, D_UNKNOWN, "failed to allocate memory");
}

void *
dt_cg_zalloc(dt_cg_t *cg, size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (p == NULL)
		dt_cg_nomem(cg);
	return p;
}

char *
dt_cg_strdup(dt_cg_t *cg, const char *s)
{
	char *p = strdup(s != NULL ? s : "");

	if (p == NULL)
		dt_cg_nomem(cg);
	return p;
}

/* Makes room for need elements of size sz in *arrp (capacity *capp). */
static void
dt_cg_grow(dt_cg_t *cg, void **arrp, uint32_t *capp, uint32_t need,
    size_t sz)
{
	uint32_t cap = *capp ? *capp : 16;
	void *p;

	if (need <= *capp)
		return;
	while (cap < need)
		cap *= 2;
	if ((p = realloc(*arrp, (size_t) cap * sz)) == NULL)
		dt_cg_nomem(cg);
	*arrp = p;
	*capp = cap;
}

/*
 * Types.
 */

/* Is this type D's string, a typedef named "string" somewhere down? */
static bool
dt_cg_is_strtype(ctf_dict_t *ctfp, ctf_id_t type)
{
	for (int depth = 0; depth < 32 && type != CTF_ERR; depth++) {
		int kind = ctf_type_kind(ctfp, type);
		const char *name;

		if (kind == CTF_K_TYPEDEF) {
			name = ctf_type_name_raw(ctfp, type);
			if (name != NULL && strcmp(name, "string") == 0)
				return true;
		} else if (kind != CTF_K_CONST && kind != CTF_K_VOLATILE &&
		    kind != CTF_K_RESTRICT) {
			return false;
		}
		type = ctf_type_reference(ctfp, type);
	}
	return false;
}

void
dt_cg_typeinfo(dt_cg_t *cg, ctf_dict_t *ctfp, ctf_id_t type, uint32_t flags,
    dt_cg_tinfo_t *tip)
{
	ctf_encoding_t enc;
	ctf_id_t base;
	ssize_t size;

	memset(tip, 0, sizeof (*tip));
	tip->ti_kind = CTF_K_INTEGER;
	tip->ti_size = 8;
	tip->ti_signed = (flags & DT_NF_SIGNED) != 0;
	if (ctfp == NULL || type == CTF_ERR)
		return;
	if (dt_cg_is_strtype(ctfp, type)) {
		tip->ti_kind = CTF_K_ARRAY;
		tip->ti_size = cg->cg_strsize;
		tip->ti_signed = false;
		tip->ti_string = tip->ti_byref = true;
		return;
	}
	if ((base = ctf_type_resolve(ctfp, type)) == CTF_ERR)
		return;
	tip->ti_kind = ctf_type_kind(ctfp, base);
	size = ctf_type_size(ctfp, base);
	tip->ti_size = size > 0 ? (uint32_t) size : 0;
	switch (tip->ti_kind) {
	case CTF_K_INTEGER:
		if (ctf_type_encoding(ctfp, base, &enc) == 0)
			tip->ti_signed = (enc.cte_format & CTF_INT_SIGNED) != 0;
		break;
	case CTF_K_ENUM:
		tip->ti_signed = true;
		break;
	case CTF_K_POINTER:
		tip->ti_signed = false;
		tip->ti_ptr = true;
		tip->ti_size = 8;
		break;
	case CTF_K_FUNCTION:
		tip->ti_signed = false;
		tip->ti_size = 8;
		break;
	case CTF_K_ARRAY:
		tip->ti_ptr = true;
		tip->ti_signed = false;
		tip->ti_byref = true;
		break;
	case CTF_K_STRUCT:
	case CTF_K_UNION:
		tip->ti_signed = false;
		tip->ti_byref = true;
		break;
	case CTF_K_FLOAT:
		/* A long double fits no register: like DTrace, by ref. */
		tip->ti_signed = false;
		tip->ti_byref = tip->ti_size > 8;
		break;
	default:
		break;
	}
}

void
dt_cg_node_tinfo(dt_cg_t *cg, const dt_node_t *dnp, dt_cg_tinfo_t *tip)
{
	if (dnp->dn_kind == DT_NODE_STRING) {
		memset(tip, 0, sizeof (*tip));
		tip->ti_kind = CTF_K_ARRAY;
		tip->ti_size = cg->cg_strsize;
		tip->ti_string = tip->ti_byref = true;
		return;
	}
	dt_cg_typeinfo(cg, dnp->dn_ctfp, dnp->dn_type, dnp->dn_flags, tip);
}

void
dt_cg_diftype(dt_cg_t *cg, ctf_dict_t *ctfp, ctf_id_t type, uint32_t flags,
    dif_type_t *dtp)
{
	dt_cg_tinfo_t ti;

	dt_cg_typeinfo(cg, ctfp, type, flags, &ti);
	memset(dtp, 0, sizeof (*dtp));
	dtp->dt_ctf = ctfp;
	dtp->dt_ctftype = ctfp != NULL ? (long) type : 0;
	if (ti.ti_string) {
		dtp->dt_kind = DIF_TYPE_STRING;
		dtp->dt_flags = DIF_TF_BYREF;
		dtp->dt_size = cg->cg_strsize;
		return;
	}
	dtp->dt_kind = DIF_TYPE_CTF;
	if (ti.ti_byref) {
		dtp->dt_flags = DIF_TF_BYREF;
		dtp->dt_size = ti.ti_size ? ti.ti_size : 1;
		return;
	}
	if (ti.ti_ptr)
		dtp->dt_flags = DIF_TF_POINTER;
	else if (ti.ti_signed)
		dtp->dt_flags = DIF_TF_SIGNED;
	switch (ti.ti_size) {
	case 0: case 1: case 2: case 4: case 8:
		dtp->dt_size = ti.ti_size;
		break;
	default:
		dtp->dt_size = 8;
		break;
	}
}

/* The type of the operands after the usual arithmetic conversions. */
static void
dt_cg_promote(const dt_cg_tinfo_t *a, const dt_cg_tinfo_t *b,
    dt_cg_tinfo_t *rp)
{
	dt_cg_tinfo_t l = *a, r = *b;

	/* Integer promotion: anything narrower than int becomes int. */
	if (l.ti_size < 4) {
		l.ti_size = 4;
		l.ti_signed = true;
	}
	if (r.ti_size < 4) {
		r.ti_size = 4;
		r.ti_signed = true;
	}
	memset(rp, 0, sizeof (*rp));
	rp->ti_kind = CTF_K_INTEGER;
	if (l.ti_size > r.ti_size) {
		rp->ti_size = l.ti_size;
		rp->ti_signed = l.ti_signed;
	} else if (r.ti_size > l.ti_size) {
		rp->ti_size = r.ti_size;
		rp->ti_signed = r.ti_signed;
	} else {
		rp->ti_size = l.ti_size;
		rp->ti_signed = l.ti_signed && r.ti_signed;
	}
	if (rp->ti_size > 8)
		rp->ti_size = 8;
}

/*
 * Does converting a normalized value of type from to type to change its
 * bits?  Only when to is narrower than 64 bits and from's range does not
 * fit in it.
 */
static bool
dt_cg_needs_conv(const dt_cg_tinfo_t *from, const dt_cg_tinfo_t *to)
{
	if (to->ti_byref || from->ti_byref || to->ti_size == 0 ||
	    to->ti_size >= 8)
		return false;
	if (from->ti_signed == to->ti_signed)
		return from->ti_size > to->ti_size;
	if (!from->ti_signed)	/* unsigned into signed */
		return from->ti_size >= to->ti_size;
	return true;		/* signed into unsigned */
}

/* C's conversion of a 64-bit value to an integer of size bytes. */
static uint64_t
dt_cg_cvt(uint64_t v, uint32_t size, bool sgn)
{
	unsigned bits = size * 8;

	if (size == 0 || size >= 8)
		return v;
	v &= (1ULL << bits) - 1;
	if (sgn && (v & (1ULL << (bits - 1))))
		v |= ~((1ULL << bits) - 1);
	return v;
}

/* Size of what a pointer or array node points at, for scaling. */
static uint32_t
dt_cg_elemsize(const dt_node_t *dnp)
{
	ctf_dict_t *ctfp = dnp->dn_ctfp;
	ctf_id_t type;
	ctf_arinfo_t ar;
	ssize_t size;

	if (ctfp == NULL || dnp->dn_type == CTF_ERR)
		return 1;
	if ((type = ctf_type_resolve(ctfp, dnp->dn_type)) == CTF_ERR)
		return 1;
	switch (ctf_type_kind(ctfp, type)) {
	case CTF_K_POINTER:
		type = ctf_type_reference(ctfp, type);
		break;
	case CTF_K_ARRAY:
		if (ctf_array_info(ctfp, type, &ar) != 0)
			return 1;
		type = ar.ctr_contents;
		break;
	default:
		return 1;
	}
	size = ctf_type_size(ctfp, type);
	return size > 0 ? (uint32_t) size : 1;
}

/*
 * Constant folding.
 */

static bool
dt_cg_is_intnode(dt_cg_t *cg, const dt_node_t *dnp)
{
	dt_cg_tinfo_t ti;

	dt_cg_node_tinfo(cg, dnp, &ti);
	return !ti.ti_byref && (ti.ti_kind == CTF_K_INTEGER ||
	    ti.ti_kind == CTF_K_ENUM || ti.ti_kind == CTF_K_POINTER);
}

/* The size of sizeof's operand (a type or an expression). */
static bool
dt_cg_sizeof(dt_cg_t *cg, const dt_node_t *dnp, int64_t *valp)
{
	dt_cg_tinfo_t ti;

	if (dnp == NULL || dnp->dn_ctfp == NULL || dnp->dn_type == CTF_ERR) {
		if (dnp != NULL && dnp->dn_kind == DT_NODE_STRING) {
			*valp = cg->cg_strsize;
			return true;
		}
		return false;
	}
	dt_cg_node_tinfo(cg, dnp, &ti);
	*valp = ti.ti_size;
	return true;
}

static bool
dt_cg_offsetof(const dt_node_t *dnp, int64_t *valp)
{
	const dt_node_t *tp = dnp->dn_left, *mp = dnp->dn_right;
	ctf_membinfo_t mi;
	ctf_id_t type;

	if (tp == NULL || mp == NULL || tp->dn_ctfp == NULL ||
	    mp->dn_string == NULL)
		return false;
	if ((type = ctf_type_resolve(tp->dn_ctfp, tp->dn_type)) == CTF_ERR ||
	    dt_type_member_info(tp->dn_ctfp, type, mp->dn_string, &mi) != 0)
		return false;
	*valp = (int64_t) (mi.ctm_offset / 8);
	return true;
}

static bool
dt_cg_fold_op2(dt_cg_t *cg, const dt_node_t *dnp, int64_t *valp)
{
	dt_cg_tinfo_t lt, rt, pt, nt;
	int64_t l, r;
	uint64_t a, b, v;

	if (dnp->dn_op == DT_OP_OFFSETOF)
		return dt_cg_offsetof(dnp, valp);
	if (dnp->dn_op == DT_OP_CAST) {
		if (!dt_cg_is_intnode(cg, dnp) ||
		    !dt_cg_is_intnode(cg, dnp->dn_right) ||
		    !dt_cg_fold(cg, dnp->dn_right, &r))
			return false;
		dt_cg_node_tinfo(cg, dnp, &nt);
		*valp = (int64_t) dt_cg_cvt((uint64_t) r, nt.ti_size,
		    nt.ti_signed);
		return true;
	}
	switch (dnp->dn_op) {
	case DT_OP_LOR: case DT_OP_LXOR: case DT_OP_LAND:
	case DT_OP_BOR: case DT_OP_XOR: case DT_OP_BAND:
	case DT_OP_EQU: case DT_OP_NEQ: case DT_OP_LT: case DT_OP_LE:
	case DT_OP_GT: case DT_OP_GE: case DT_OP_LSH: case DT_OP_RSH:
	case DT_OP_ADD: case DT_OP_SUB: case DT_OP_MUL: case DT_OP_DIV:
	case DT_OP_MOD:
		break;
	default:
		return false;
	}
	if (!dt_cg_is_intnode(cg, dnp) || !dt_cg_is_intnode(cg, dnp->dn_left) ||
	    !dt_cg_is_intnode(cg, dnp->dn_right))
		return false;
	dt_cg_node_tinfo(cg, dnp->dn_left, &lt);
	dt_cg_node_tinfo(cg, dnp->dn_right, &rt);
	/* Pointer arithmetic scales; leave it to the generator. */
	if (lt.ti_ptr || rt.ti_ptr)
		return false;
	if (!dt_cg_fold(cg, dnp->dn_left, &l) ||
	    !dt_cg_fold(cg, dnp->dn_right, &r))
		return false;
	dt_cg_node_tinfo(cg, dnp, &nt);
	if (dnp->dn_op == DT_OP_LSH || dnp->dn_op == DT_OP_RSH)
		dt_cg_promote(&lt, &lt, &pt);
	else
		dt_cg_promote(&lt, &rt, &pt);
	/*
	 * Fold exactly as the generated code computes (dt_cg_binop() and
	 * dt_cg_compare()): on 64-bit registers, converting the operands only
	 * where the operation looks at their upper bits, and keeping all 64
	 * bits of the result, whatever its type (1 << 63 is not 0).
	 */
	a = (uint64_t) l;
	b = (uint64_t) r;
	switch (dnp->dn_op) {
	case DT_OP_DIV: case DT_OP_MOD:
	case DT_OP_EQU: case DT_OP_NEQ: case DT_OP_LT: case DT_OP_LE:
	case DT_OP_GT: case DT_OP_GE:
		if (dt_cg_needs_conv(&lt, &pt))
			a = dt_cg_cvt(a, pt.ti_size, pt.ti_signed);
		if (dt_cg_needs_conv(&rt, &pt))
			b = dt_cg_cvt(b, pt.ti_size, pt.ti_signed);
		break;
	case DT_OP_RSH:
		if (dt_cg_needs_conv(&lt, &pt))
			a = dt_cg_cvt(a, pt.ti_size, pt.ti_signed);
		break;
	default:
		break;
	}

	switch (dnp->dn_op) {
	case DT_OP_LOR:
		v = l != 0 || r != 0;
		break;
	case DT_OP_LXOR:
		v = (l != 0) != (r != 0);
		break;
	case DT_OP_LAND:
		v = l != 0 && r != 0;
		break;
	case DT_OP_BOR:
		v = a | b;
		break;
	case DT_OP_XOR:
		v = a ^ b;
		break;
	case DT_OP_BAND:
		v = a & b;
		break;
	case DT_OP_EQU:
		v = a == b;
		break;
	case DT_OP_NEQ:
		v = a != b;
		break;
	case DT_OP_LT:
		v = pt.ti_signed ? (int64_t) a < (int64_t) b : a < b;
		break;
	case DT_OP_LE:
		v = pt.ti_signed ? (int64_t) a <= (int64_t) b : a <= b;
		break;
	case DT_OP_GT:
		v = pt.ti_signed ? (int64_t) a > (int64_t) b : a > b;
		break;
	case DT_OP_GE:
		v = pt.ti_signed ? (int64_t) a >= (int64_t) b : a >= b;
		break;
	case DT_OP_LSH:
		v = a << (b & 63);
		break;
	case DT_OP_RSH:
		if (pt.ti_signed && (int64_t) a < 0 && (b & 63) != 0)
			v = (a >> (b & 63)) | ~(~0ULL >> (b & 63));
		else
			v = a >> (b & 63);
		break;
	case DT_OP_ADD:
		v = a + b;
		break;
	case DT_OP_SUB:
		v = a - b;
		break;
	case DT_OP_MUL:
		v = a * b;
		break;
	default: /* DIV, MOD */
		/* Division by zero is left to fault at run time. */
		if (b == 0)
			return false;
		if (pt.ti_signed && a == (uint64_t) INT64_MIN &&
		    b == (uint64_t) -1)
			v = dnp->dn_op == DT_OP_DIV ? a : 0;
		else if (pt.ti_signed)
			v = dnp->dn_op == DT_OP_DIV ?
			    (uint64_t) ((int64_t) a / (int64_t) b) :
			    (uint64_t) ((int64_t) a % (int64_t) b);
		else
			v = dnp->dn_op == DT_OP_DIV ? a / b : a % b;
		break;
	}
	*valp = (int64_t) v;
	return true;
}

static bool dt_cg_fold_node(dt_cg_t *cg, const dt_node_t *dnp,
    int64_t *valp);

/*
 * The value of a constant expression.  The generator asks at every level
 * of an expression, and the answer for a chain comes from its bottom, so
 * a "no" is remembered in the node: a chain of N operators is then
 * checked in O(N), not O(N^2).  (A "yes" is not asked again: the
 * constant replaces the whole subtree.)
 */
bool
dt_cg_fold(dt_cg_t *cg, const dt_node_t *dnp, int64_t *valp)
{
	if (dnp == NULL || dnp->dn_cg_nofold)
		return false;
	if (dt_cg_fold_node(cg, dnp, valp))
		return true;
	((dt_node_t *) dnp)->dn_cg_nofold = 1;
	return false;
}

static bool
dt_cg_fold_node(dt_cg_t *cg, const dt_node_t *dnp, int64_t *valp)
{
	dt_cg_tinfo_t nt;
	int64_t v;

	switch (dnp->dn_kind) {
	case DT_NODE_INT:
		*valp = (int64_t) dnp->dn_value;
		return true;
	case DT_NODE_VAR:
		if (dnp->dn_ident != NULL &&
		    dnp->dn_ident->di_kind == DT_IDENT_ENUM) {
			*valp = dnp->dn_ident->di_value;
			return true;
		}
		if (dnp->dn_ident != NULL &&
		    (dnp->dn_ident->di_flags & DT_IDFLG_INLINE) &&
		    dnp->dn_ident->di_inline != NULL &&
		    dt_cg_is_intnode(cg, dnp) &&
		    dt_cg_is_intnode(cg, dnp->dn_ident->di_inline) &&
		    dt_cg_fold(cg, dnp->dn_ident->di_inline, &v)) {
			dt_cg_node_tinfo(cg, dnp, &nt);
			*valp = (int64_t) dt_cg_cvt((uint64_t) v, nt.ti_size,
			    nt.ti_signed);
			return true;
		}
		return false;
	case DT_NODE_OP1:
		if (dnp->dn_op == DT_OP_SIZEOF)
			return dt_cg_sizeof(cg, dnp->dn_child, valp);
		if (dnp->dn_op != DT_OP_IPOS && dnp->dn_op != DT_OP_INEG &&
		    dnp->dn_op != DT_OP_BNEG && dnp->dn_op != DT_OP_LNEG)
			return false;
		if (!dt_cg_is_intnode(cg, dnp) ||
		    !dt_cg_is_intnode(cg, dnp->dn_child) ||
		    !dt_cg_fold(cg, dnp->dn_child, &v))
			return false;
		dt_cg_node_tinfo(cg, dnp, &nt);
		switch (dnp->dn_op) {
		case DT_OP_INEG:
			v = (int64_t) (0 - (uint64_t) v);
			break;
		case DT_OP_BNEG:
			v = (int64_t) ~(uint64_t) v;
			break;
		case DT_OP_LNEG:
			v = v == 0;
			break;
		default:
			break;
		}
		*valp = (int64_t) dt_cg_cvt((uint64_t) v, nt.ti_size,
		    nt.ti_signed);
		return true;
	case DT_NODE_OP2:
		return dt_cg_fold_op2(cg, dnp, valp);
	case DT_NODE_OP3:
		if (!dt_cg_is_intnode(cg, dnp) ||
		    !dt_cg_fold(cg, dnp->dn_expr, &v))
			return false;
		return dt_cg_fold(cg, v ? dnp->dn_left : dnp->dn_right, valp);
	default:
		return false;
	}
}

/*
 * The object under construction.
 */

void
dt_cg_obj_begin(dt_cg_t *cg)
{
	cg->cg_len = 0;
	cg->cg_nints = 0;
	cg->cg_strlen = 0;
	cg->cg_nvars = 0;
	cg->cg_nlabels = 0;
	cg->cg_regs = 1;	/* %r0 */
}

void
dt_cg_emit(dt_cg_t *cg, dif_instr_t instr)
{
	if (cg->cg_len >= DIF_INSTR_MAX - 1)
		dt_cg_fail(cg, NULL, D_CG_EXPR, "expression is too complex: "
		    "more than %d DIF instructions", DIF_INSTR_MAX);
	dt_cg_grow(cg, (void **) &cg->cg_buf, &cg->cg_bufcap, cg->cg_len + 1,
	    sizeof (dif_instr_t));
	cg->cg_buf[cg->cg_len++] = instr;
}

int
dt_cg_reg_alloc(dt_cg_t *cg)
{
	for (int r = 1; r < DIF_DIR_NREGS; r++) {
		if (!(cg->cg_regs & (1U << r))) {
			cg->cg_regs |= (uint8_t) (1U << r);
			return r;
		}
	}
	dt_cg_fail(cg, NULL, D_CG_EXPR,
	    "Insufficient registers to generate code");
}

void
dt_cg_reg_free(dt_cg_t *cg, int reg)
{
	if (reg > 0 && reg < DIF_DIR_NREGS)
		cg->cg_regs &= (uint8_t) ~(1U << reg);
}

uint32_t
dt_cg_label(dt_cg_t *cg)
{
	dt_cg_grow(cg, (void **) &cg->cg_labels, &cg->cg_labcap,
	    cg->cg_nlabels + 1, sizeof (uint32_t));
	cg->cg_labels[cg->cg_nlabels] = UINT32_MAX;
	return cg->cg_nlabels++;
}

void
dt_cg_label_set(dt_cg_t *cg, uint32_t label)
{
	cg->cg_labels[label] = cg->cg_len;
}

/* Branches carry the label number until dt_cg_obj_end() resolves it. */
void
dt_cg_branch(dt_cg_t *cg, uint32_t op, uint32_t label)
{
	dt_cg_emit(cg, DIF_INSTR_BRANCH(op, label));
}

static uint32_t
dt_cg_intoff(dt_cg_t *cg, int64_t val)
{
	for (uint32_t i = 0; i < cg->cg_nints; i++) {
		if (cg->cg_ints[i] == val)
			return i;
	}
	if (cg->cg_nints > DIF_INTOFF_MAX)
		dt_cg_fail(cg, NULL, D_CG_EXPR, "expression is too complex: "
		    "integer table full");
	dt_cg_grow(cg, (void **) &cg->cg_ints, &cg->cg_intcap,
	    cg->cg_nints + 1, sizeof (int64_t));
	cg->cg_ints[cg->cg_nints] = val;
	return cg->cg_nints++;
}

static uint32_t
dt_cg_stroff(dt_cg_t *cg, const char *s)
{
	size_t len = strlen(s) + 1;
	uint32_t off;

	for (off = 0; off < cg->cg_strlen;
	    off += (uint32_t) strlen(cg->cg_strs + off) + 1) {
		if (strcmp(cg->cg_strs + off, s) == 0)
			return off;
	}
	if (cg->cg_strlen + len > DIF_STROFF_MAX + 1)
		dt_cg_fail(cg, NULL, D_CG_EXPR, "expression is too complex: "
		    "string table full");
	dt_cg_grow(cg, (void **) &cg->cg_strs, &cg->cg_strcap,
	    cg->cg_strlen + (uint32_t) len, 1);
	off = cg->cg_strlen;
	memcpy(cg->cg_strs + off, s, len);
	cg->cg_strlen += (uint32_t) len;
	return off;
}

void
dt_cg_setx(dt_cg_t *cg, int64_t val, int reg)
{
	dt_cg_emit(cg, DIF_INSTR_SETX(dt_cg_intoff(cg, val), reg));
}

uint32_t
dt_cg_var(dt_cg_t *cg, const char *name, uint32_t id, uint8_t kind,
    uint8_t scope, uint16_t flags, const dif_type_t *type)
{
	dif_var_t *v;

	for (uint32_t i = 0; i < cg->cg_nvars; i++) {
		v = &cg->cg_vars[i];
		if (v->dv_id == id && v->dv_scope == scope) {
			v->dv_flags |= flags;
			return i;
		}
	}
	dt_cg_grow(cg, (void **) &cg->cg_vars, &cg->cg_varcap,
	    cg->cg_nvars + 1, sizeof (dif_var_t));
	v = &cg->cg_vars[cg->cg_nvars];
	memset(v, 0, sizeof (*v));
	v->dv_name = dt_cg_stroff(cg, name != NULL ? name : "");
	v->dv_id = id;
	v->dv_kind = kind;
	v->dv_scope = scope;
	v->dv_flags = flags;
	v->dv_type = *type;
	v->dv_offset = DIFV_OFFSET_NONE;
	return cg->cg_nvars++;
}

dif_object_t *
dt_cg_obj_end(dt_cg_t *cg, int reg, const dif_type_t *rtype)
{
	dif_object_t *difo;
	char err[256];

	dt_cg_emit(cg, DIF_INSTR_RET(reg));
	for (uint32_t pc = 0; pc < cg->cg_len; pc++) {
		dif_instr_t in = cg->cg_buf[pc];
		uint32_t label;

		if (dif_op_format(DIF_INSTR_OP(in)) != DIF_FMT_BRANCH)
			continue;
		label = DIF_INSTR_LABEL(in);
		if (label >= cg->cg_nlabels || cg->cg_labels[label] == UINT32_MAX)
			dt_cg_fail(cg, NULL, D_UNKNOWN, "internal error: "
			    "branch to an unplaced label");
		cg->cg_buf[pc] = DIF_INSTR_BRANCH(DIF_INSTR_OP(in),
		    cg->cg_labels[label]);
	}
	difo = dif_object_create(cg->cg_buf, cg->cg_len, cg->cg_ints,
	    cg->cg_nints, cg->cg_strs, cg->cg_strlen, cg->cg_vars,
	    cg->cg_nvars, rtype);
	if (difo == NULL)
		dt_cg_nomem(cg);
	cg->cg_regs = 1;
	if (dif_verify(difo, err, sizeof (err)) != 0) {
		dif_object_free(difo);
		dt_cg_fail(cg, NULL, D_UNKNOWN, "internal error: code "
		    "generation produced invalid DIF: %s", err);
	}
	return difo;
}

/*
 * Conversions.
 */

/* Brings reg to the range of an integer of size bytes. */
static void
dt_cg_normalize(dt_cg_t *cg, int reg, uint32_t size, bool sgn)
{
	int t;

	if (size == 0 || size >= 8)
		return;
	t = dt_cg_reg_alloc(cg);
	if (sgn) {
		dt_cg_setx(cg, 64 - 8 * (int64_t) size, t);
		dt_cg_emit(cg, DIF_INSTR_FMT(DIF_OP_SLL, reg, t, reg));
		dt_cg_emit(cg, DIF_INSTR_FMT(DIF_OP_SRA, reg, t, reg));
	} else {
		dt_cg_setx(cg, (int64_t) ((1ULL << (8 * size)) - 1), t);
		dt_cg_emit(cg, DIF_INSTR_FMT(DIF_OP_AND, reg, t, reg));
	}
	dt_cg_reg_free(cg, t);
}

static void
dt_cg_convert(dt_cg_t *cg, int reg, const dt_cg_tinfo_t *from,
    const dt_cg_tinfo_t *to)
{
	if (dt_cg_needs_conv(from, to))
		dt_cg_normalize(cg, reg, to->ti_size, to->ti_signed);
}

static void
dt_cg_node_normalize(dt_cg_t *cg, int reg, const dt_node_t *dnp)
{
	dt_cg_tinfo_t ti;

	dt_cg_node_tinfo(cg, dnp, &ti);
	if (!ti.ti_byref && !ti.ti_ptr)
		dt_cg_normalize(cg, reg, ti.ti_size, ti.ti_signed);
}

/* reg = (condition of the last comparison, op) ? 1 : 0. */
static void
dt_cg_setcc(dt_cg_t *cg, uint32_t op, int reg)
{
	uint32_t ltrue = dt_cg_label(cg), lend = dt_cg_label(cg);

	dt_cg_branch(cg, op, ltrue);
	dt_cg_emit(cg, DIF_INSTR_MOV(0, reg));
	dt_cg_branch(cg, DIF_OP_BA, lend);
	dt_cg_label_set(cg, ltrue);
	dt_cg_setx(cg, 1, reg);
	dt_cg_label_set(cg, lend);
}

/*
 * Loads.
 */

static void
dt_cg_load(dt_cg_t *cg, int reg, uint32_t size, bool sgn, bool user)
{
	uint32_t op;

	switch (size) {
	case 1:
		op = sgn ? DIF_OP_LDSB : DIF_OP_LDUB;
		break;
	case 2:
		op = sgn ? DIF_OP_LDSH : DIF_OP_LDUH;
		break;
	case 4:
		op = sgn ? DIF_OP_LDSW : DIF_OP_LDUW;
		break;
	case 8:
		op = DIF_OP_LDX;
		break;
	default:
		dt_cg_fail(cg, NULL, D_CG_EXPR, "cannot load a value of %u "
		    "bytes", size);
	}
	if (user)
		op += DIF_OP_ULDSB - DIF_OP_LDSB;
	dt_cg_emit(cg, DIF_INSTR_LOAD(op, reg, reg));
}

/* Loads the value of node dnp whose address is in reg, unless by-ref. */
static void
dt_cg_load_node(dt_cg_t *cg, const dt_node_t *dnp, int reg)
{
	dt_cg_tinfo_t ti;

	dt_cg_node_tinfo(cg, dnp, &ti);
	if (ti.ti_byref)
		return;
	/*
	 * D has no floating-point arithmetic, but a float or double can be
	 * traced and given to printf(): its bits are loaded as an unsigned
	 * integer of its size.
	 */
	if (ti.ti_kind == CTF_K_FLOAT)
		ti.ti_signed = false;
	dt_cg_load(cg, reg, ti.ti_size, ti.ti_signed,
	    (dnp->dn_flags & DT_NF_USERLAND) != 0);
}

/*
 * Variables.
 */

static uint8_t
dt_cg_scope(const dt_ident_t *idp)
{
	if (idp->di_flags & DT_IDFLG_TLS)
		return DIFV_SCOPE_THREAD;
	if (idp->di_flags & DT_IDFLG_LOCAL)
		return DIFV_SCOPE_LOCAL;
	return (uint8_t) idp->di_scope;
}

static bool
dt_cg_builtin(const dt_ident_t *idp)
{
	if (idp->di_kind == DT_IDENT_ARRAY)
		return idp->di_id < DIF_VAR_ARRAY_UBASE;
	return idp->di_id < DIF_VAR_OTHER_UBASE;
}

/* Enters a user variable into the variable table. */
static void
dt_cg_var_ref(dt_cg_t *cg, const dt_node_t *dnp, uint16_t flags)
{
	dt_ident_t *idp = dnp->dn_ident;
	dt_cc_t *cc = cg->cg_hdl->dt_cc;
	dt_pcb_t *pcb = cc != NULL ? cc->cc_pcb : NULL;
	dif_type_t type;
	uint32_t i;

	if (idp->di_ctfp != NULL)
		dt_cg_diftype(cg, idp->di_ctfp, idp->di_type, 0, &type);
	else
		dt_cg_diftype(cg, dnp->dn_ctfp, dnp->dn_type, dnp->dn_flags,
		    &type);
	i = dt_cg_var(cg, idp->di_name, idp->di_id,
	    idp->di_kind == DT_IDENT_ARRAY ? DIFV_KIND_ARRAY : DIFV_KIND_SCALAR,
	    dt_cg_scope(idp), flags, &type);
	/* Undeclared variables find their place at first use. */
	if (pcb != NULL)
		dt_ident_layout(pcb, idp);
	cg->cg_vars[i].dv_offset = idp->di_offset;
}

/* Does evaluating dnp use the tuple stack (a call or an array access)? */
static bool
dt_cg_uses_tuple(const dt_node_t *dnp)
{
	if (dnp == NULL)
		return false;
	/* Translated members hide their expressions from this walk. */
	if (dnp->dn_xlator != NULL)
		return true;
	switch (dnp->dn_kind) {
	case DT_NODE_FUNC:
		if (dnp->dn_ident != NULL &&
		    dnp->dn_ident->di_kind == DT_IDENT_FUNC)
			return true;
		break;
	case DT_NODE_VAR:
		if (dnp->dn_ident != NULL &&
		    dnp->dn_ident->di_kind == DT_IDENT_ARRAY &&
		    !dt_cg_builtin(dnp->dn_ident))
			return true;
		if (dnp->dn_ident != NULL &&
		    (dnp->dn_ident->di_flags & DT_IDFLG_INLINE) &&
		    dt_cg_uses_tuple(dnp->dn_ident->di_inline))
			return true;
		break;
	default:
		break;
	}
	for (const dt_node_t *a = dnp->dn_args; a != NULL; a = a->dn_list) {
		if (dt_cg_uses_tuple(a))
			return true;
	}
	return dt_cg_uses_tuple(dnp->dn_child) ||
	    dt_cg_uses_tuple(dnp->dn_left) || dt_cg_uses_tuple(dnp->dn_right) ||
	    dt_cg_uses_tuple(dnp->dn_expr);
}

static void
dt_cg_push(dt_cg_t *cg, const dt_node_t *dnp, int reg)
{
	dt_cg_tinfo_t ti;
	int sz;

	dt_cg_node_tinfo(cg, dnp, &ti);
	if (ti.ti_string) {
		dt_cg_emit(cg, DIF_INSTR_PUSHTS(DIF_OP_PUSHTR, DIF_TYPE_STRING,
		    0, reg));
	} else if (ti.ti_byref) {
		sz = dt_cg_reg_alloc(cg);
		dt_cg_setx(cg, ti.ti_size, sz);
		dt_cg_emit(cg, DIF_INSTR_PUSHTS(DIF_OP_PUSHTR, DIF_TYPE_CTF,
		    sz, reg));
		dt_cg_reg_free(cg, sz);
	} else {
		dt_cg_emit(cg, DIF_INSTR_PUSHTS(DIF_OP_PUSHTV, DIF_TYPE_CTF,
		    0, reg));
	}
	dt_cg_reg_free(cg, reg);
}

/*
 * Pushes a list of keys or arguments.  Those up to the last one that uses
 * the tuple stack itself wait in registers and are pushed together; the
 * rest are pushed as soon as they are computed, which keeps registers
 * free for long argument lists of simple values.
 */
static void
dt_cg_tuple(dt_cg_t *cg, dt_node_t *list)
{
	dt_node_t *a, *held[DIF_DTR_NREGS];
	int regs[DIF_DTR_NREGS];
	int n = 0, last = -1, i = 0;

	for (a = list; a != NULL; a = a->dn_list, n++) {
		if (dt_cg_uses_tuple(a))
			last = n;
	}
	if (n > DIF_DTR_NREGS) {
		/* DTrace's words for running out of tuple stack. */
		cg->cg_err->ce_tag = D_CG_EXPR;
		cg->cg_err->ce_line = -1;
		snprintf(cg->cg_err->ce_msg, sizeof (cg->cg_err->ce_msg),
		    "Insufficient tuple registers to generate code");
		longjmp(cg->cg_jmp, 1);
	}
	for (a = list; a != NULL; a = a->dn_list, i++) {
		int r = dt_cg_expr(cg, a);

		if (i > last) {
			dt_cg_push(cg, a, r);
			continue;
		}
		held[i] = a;
		regs[i] = r;
		if (i == last) {
			for (int j = 0; j <= last; j++)
				dt_cg_push(cg, held[j], regs[j]);
		}
	}
}

static void dt_cg_xlate_var(dt_cg_t *cg, uint32_t id, uint16_t flags);
/* A binding of a translator's input or an inline array's index. */
typedef struct dt_cg_xlbind {
	const dt_ident_t *xb_arg;
	int xb_reg;
	uint32_t xb_var;
} dt_cg_xlbind_t;

static void dt_cg_bind(dt_cg_t *cg, const dt_ident_t *arg, dt_node_t *input,
    dt_cg_xlbind_t *save);
static void dt_cg_xlate_unbind(dt_cg_t *cg, const dt_cg_xlbind_t *save);

static int
dt_cg_var_load(dt_cg_t *cg, dt_node_t *dnp)
{
	dt_ident_t *idp = dnp->dn_ident;
	uint8_t scope = dt_cg_scope(idp);
	int r;

	if (idp->di_kind == DT_IDENT_ENUM) {
		r = dt_cg_reg_alloc(cg);
		dt_cg_setx(cg, idp->di_value, r);
		return r;
	}
	if (idp == cg->cg_xlarg) {
		r = dt_cg_reg_alloc(cg);
		if (cg->cg_xlvar != 0) {
			dt_cg_xlate_var(cg, cg->cg_xlvar, DIFV_F_REF);
			dt_cg_emit(cg, DIF_INSTR_LDV(DIF_OP_LDLS, cg->cg_xlvar,
			    r));
		} else
			dt_cg_emit(cg, DIF_INSTR_MOV(cg->cg_xlreg, r));
		return r;
	}
	if ((idp->di_flags & (DT_IDFLG_BUILTIN | DT_IDFLG_INLINE)) ==
	    DT_IDFLG_BUILTIN && idp->di_id == DT_VAR_NONE)
		dt_cg_fail(cg, dnp, D_VAR_UNSUP, "%s is defined by a D library "
		    "translator that is not loaded (it needs the kernel's "
		    "types)", idp->di_name);
	if ((idp->di_flags & DT_IDFLG_INLINE) && idp->di_inline != NULL) {
		dt_cg_tinfo_t it, nt;

		/*
		 * An inline is its definition, converted to its type; an
		 * inline array's, with its index bound to the key.
		 */
		if (idp->di_iparam != NULL) {
			dt_cg_xlbind_t save;

			dt_cg_bind(cg, idp->di_iparam, dnp->dn_args, &save);
			r = dt_cg_expr(cg, idp->di_inline);
			dt_cg_xlate_unbind(cg, &save);
		} else
			r = dt_cg_expr(cg, idp->di_inline);
		dt_cg_node_tinfo(cg, idp->di_inline, &it);
		dt_cg_node_tinfo(cg, dnp, &nt);
		if (!nt.ti_ptr)
			dt_cg_convert(cg, r, &it, &nt);
		return r;
	}
	if (idp->di_kind == DT_IDENT_ARRAY && dt_cg_builtin(idp)) {
		/* args[], regs[], uregs[]: ldga with the index in r2. */
		if (dnp->dn_args == NULL)
			dt_cg_fail(cg, dnp, D_CG_EXPR, "%s[] needs an index",
			    idp->di_name);
		r = dt_cg_expr(cg, dnp->dn_args);
		dt_cg_emit(cg, DIF_INSTR_LDA(DIF_OP_LDGA, idp->di_id, r, r));
		/* args[] are raw 64-bit words; give them the probe's type. */
		dt_cg_node_normalize(cg, r, dnp);
		return r;
	}
	if (idp->di_kind == DT_IDENT_ARRAY) {
		if (scope == DIFV_SCOPE_LOCAL)
			dt_cg_fail(cg, dnp, D_ARR_LOCAL, "clause-local "
			    "variables cannot be associative arrays");
		dt_cg_tuple(cg, dnp->dn_args);
		dt_cg_var_ref(cg, dnp, DIFV_F_REF);
		r = dt_cg_reg_alloc(cg);
		dt_cg_emit(cg, DIF_INSTR_LDV(scope == DIFV_SCOPE_THREAD ?
		    DIF_OP_LDTAA : DIF_OP_LDGAA, idp->di_id, r));
		dt_cg_emit(cg, DIF_INSTR_FLUSHTS);
		return r;
	}
	r = dt_cg_reg_alloc(cg);
	if (dt_cg_builtin(idp)) {
		dt_cg_emit(cg, DIF_INSTR_LDV(DIF_OP_LDGS, idp->di_id, r));
		return r;
	}
	dt_cg_var_ref(cg, dnp, DIFV_F_REF);
	dt_cg_emit(cg, DIF_INSTR_LDV(scope == DIFV_SCOPE_THREAD ? DIF_OP_LDTS :
	    scope == DIFV_SCOPE_LOCAL ? DIF_OP_LDLS : DIF_OP_LDGS,
	    idp->di_id, r));
	return r;
}

/*
 * Member access.  Returns the register holding the address of the member
 * of dnp (a DOT or PTR node); for a bit-field, the address of its storage
 * unit, with the unit size, bit shift and width in *bf.
 */
typedef struct dt_cg_bitfield {
	uint32_t bf_unit;	/* bytes loaded; 0 for an ordinary member */
	uint32_t bf_shift;
	uint32_t bf_bits;
} dt_cg_bitfield_t;

static int
dt_cg_member_addr(dt_cg_t *cg, dt_node_t *dnp, dt_cg_bitfield_t *bf)
{
	dt_node_t *lp = dnp->dn_left;
	const char *name = dnp->dn_right != NULL ? dnp->dn_right->dn_string :
	    NULL;
	ctf_dict_t *ctfp = lp->dn_ctfp;
	ctf_membinfo_t mi;
	ctf_encoding_t enc;
	ctf_id_t type;
	uint64_t off;
	int r, t;

	memset(bf, 0, sizeof (*bf));
	if (ctfp == NULL || name == NULL ||
	    (type = ctf_type_resolve(ctfp, lp->dn_type)) == CTF_ERR)
		dt_cg_fail(cg, dnp, D_TYPE_MEMBER, "invalid member "
		    "reference");
	if (dnp->dn_op == DT_OP_PTR) {
		type = ctf_type_resolve(ctfp, ctf_type_reference(ctfp, type));
		if (type == CTF_ERR)
			dt_cg_fail(cg, dnp, D_TYPE_MEMBER, "invalid member "
			    "reference");
	}
	/* As cooking did: a forward declaration means its definition. */
	if (!dt_type_complete(cg->cg_hdl->dt_cc, &ctfp, &type) ||
	    dt_type_member_info(ctfp, type, name, &mi) != 0)
		dt_cg_fail(cg, dnp, D_TYPE_MEMBER, "%s is not a member of "
		    "the struct or union", name);
	off = mi.ctm_offset / 8;
	if (dnp->dn_flags & DT_NF_BITFIELD) {
		ssize_t usz;
		uint64_t bitpos;

		if (ctf_type_encoding(ctfp, mi.ctm_type, &enc) != 0)
			dt_cg_fail(cg, dnp, D_CG_EXPR, "cannot find the "
			    "encoding of bit-field %s", name);
		bitpos = mi.ctm_offset + enc.cte_offset;
		/*
		 * The unit loaded is the smallest aligned one that holds
		 * the bits, so a field of a struct D laid out (one byte or
		 * two for a small field) is read without reading past it.
		 */
		for (usz = 1; usz < 8; usz *= 2) {
			if (bitpos / (8 * (uint64_t) usz) ==
			    (bitpos + enc.cte_bits - 1) / (8 * (uint64_t) usz))
				break;
		}
		off = (bitpos / (8 * (uint64_t) usz)) * (uint64_t) usz;
		bf->bf_unit = (uint32_t) usz;
		bf->bf_shift = (uint32_t) (bitpos - off * 8);
		bf->bf_bits = enc.cte_bits;
		if (bf->bf_shift + bf->bf_bits > 8 * bf->bf_unit)
			dt_cg_fail(cg, dnp, D_CG_EXPR, "bit-field %s straddles "
			    "its storage unit", name);
	}
	r = dt_cg_expr(cg, lp);
	if (off != 0) {
		t = dt_cg_reg_alloc(cg);
		dt_cg_setx(cg, (int64_t) off, t);
		dt_cg_emit(cg, DIF_INSTR_FMT(DIF_OP_ADD, r, t, r));
		dt_cg_reg_free(cg, t);
	}
	return r;
}

/*
 * Copies a by-reference value (reg, described by ti) to the memory at
 * dst.  A string may be shorter than its strsize bytes of storage (a
 * string-table constant, say), so it first goes through strjoin(s, "")
 * to become a full strsize-byte string in scratch.  Uses the tuple stack.
 */
static void
dt_cg_copyref(dt_cg_t *cg, int reg, const dt_cg_tinfo_t *ti, int dst)
{
	int t = dt_cg_reg_alloc(cg), src = reg;

	if (ti->ti_string) {
		dt_cg_emit(cg, DIF_INSTR_PUSHTS(DIF_OP_PUSHTR, DIF_TYPE_STRING,
		    0, reg));
		dt_cg_emit(cg, DIF_INSTR_SETS(dt_cg_stroff(cg, ""), t));
		dt_cg_emit(cg, DIF_INSTR_PUSHTS(DIF_OP_PUSHTR, DIF_TYPE_STRING,
		    0, t));
		src = dt_cg_reg_alloc(cg);
		dt_cg_emit(cg, DIF_INSTR_CALL(DIF_SUBR_STRJOIN, src));
		dt_cg_emit(cg, DIF_INSTR_FLUSHTS);
	}
	dt_cg_setx(cg, ti->ti_size, t);
	dt_cg_emit(cg, DIF_INSTR_COPYS(src, t, dst));
	dt_cg_reg_free(cg, t);
	if (src != reg)
		dt_cg_reg_free(cg, src);
}

/*
 * Translators are inlined: a member of xlate<T>(e), or of a translated
 * pointer, is the translator's expression for that member evaluated with
 * the input parameter bound to the value of e.
 */
static dt_node_t *
dt_cg_xlate_member(const dt_xlator_t *dxp, const char *name)
{
	for (dt_node_t *m = dxp->dx_members; m != NULL; m = m->dn_list) {
		if (m->dn_membname != NULL && strcmp(m->dn_membname, name) == 0)
			return m->dn_membexpr;
	}
	return NULL;
}

/* The conversion of the member dnp (x->m, x.m) names, or DTrace's error. */
static dt_node_t *
dt_cg_xlate_member_of(dt_cg_t *cg, dt_node_t *dnp)
{
	dt_node_t *mexpr = dt_cg_xlate_member(dnp->dn_xlator,
	    dnp->dn_right->dn_string);

	if (mexpr == NULL)
		dt_cg_fail(cg, dnp, D_XLATE_NOCONV, "translator does not "
		    "define conversion for member: %s",
		    dnp->dn_right->dn_string);
	return mexpr;
}

/* The hidden clause-local id, in the DIF object's variable table. */
static void
dt_cg_xlate_var(dt_cg_t *cg, uint32_t id, uint16_t flags)
{
	dif_type_t type = { 0 };
	char name[32];

	type.dt_kind = DIF_TYPE_CTF;
	type.dt_size = 8;
	snprintf(name, sizeof (name), "%%xl%u", id - DIF_VAR_OTHER_UBASE);
	(void) dt_cg_var(cg, name, id, DIFV_KIND_SCALAR, DIFV_SCOPE_LOCAL,
	    flags, &type);
}



/*
 * Bind a translator's input parameter (or an inline array's index, arg)
 * to the value of input.  A scalar
 * or pointer waits in a hidden clause-local, one per nesting depth, and is
 * loaded where the translator reads it: held in a register instead, the
 * inputs of nested translations (tcpsinfo_t from a record, then from its
 * socket) used up DIF's seven registers before the members' own
 * expressions were evaluated.  A by-reference input stays in a register.
 */
static void
dt_cg_bind(dt_cg_t *cg, const dt_ident_t *arg, dt_node_t *input,
    dt_cg_xlbind_t *save)
{
	dt_cg_tinfo_t ti;
	int r;

	save->xb_arg = cg->cg_xlarg;
	save->xb_reg = cg->cg_xlreg;
	save->xb_var = cg->cg_xlvar;
	r = dt_cg_expr(cg, input);
	dt_cg_node_tinfo(cg, input, &ti);
	if (ti.ti_byref || cg->cg_xldepth >= DT_CG_XLDEPTH) {
		cg->cg_xlreg = r;
		cg->cg_xlvar = 0;
	} else {
		uint32_t *idp = &cg->cg_xlvars[cg->cg_xldepth];

		if (*idp == 0)
			*idp = cg->cg_nextlocal++;
		dt_cg_xlate_var(cg, *idp, DIFV_F_MOD);
		dt_cg_emit(cg, DIF_INSTR_STV(DIF_OP_STLS, *idp, r));
		dt_cg_reg_free(cg, r);
		cg->cg_xlreg = -1;
		cg->cg_xlvar = *idp;
	}
	cg->cg_xlarg = arg;
	cg->cg_xldepth++;
}

static void
dt_cg_xlate_bind(dt_cg_t *cg, const dt_xlator_t *dxp, dt_node_t *input,
    dt_cg_xlbind_t *save)
{
	dt_cg_bind(cg, dxp->dx_argid, input, save);
}

static void
dt_cg_xlate_unbind(dt_cg_t *cg, const dt_cg_xlbind_t *save)
{
	if (cg->cg_xlvar == 0)
		dt_cg_reg_free(cg, cg->cg_xlreg);
	cg->cg_xldepth--;
	cg->cg_xlarg = save->xb_arg;
	cg->cg_xlreg = save->xb_reg;
	cg->cg_xlvar = save->xb_var;
}

/* Member expression mexpr with the input bound, converted to dnp's type. */
static int
dt_cg_xlate_mexpr(dt_cg_t *cg, dt_node_t *mexpr, const dt_node_t *dnp)
{
	dt_cg_tinfo_t mt, nt;
	int r = dt_cg_expr(cg, mexpr);

	dt_cg_node_tinfo(cg, mexpr, &mt);
	dt_cg_node_tinfo(cg, dnp, &nt);
	if (!nt.ti_ptr)
		dt_cg_convert(cg, r, &mt, &nt);
	return r;
}

static int
dt_cg_xlate_eval(dt_cg_t *cg, const dt_xlator_t *dxp, dt_node_t *input,
    dt_node_t *mexpr, const dt_node_t *dnp)
{
	dt_cg_xlbind_t save;
	int r;

	dt_cg_xlate_bind(cg, dxp, input, &save);
	r = dt_cg_xlate_mexpr(cg, mexpr, dnp);
	dt_cg_xlate_unbind(cg, &save);
	return r;
}

/*
 * The translated struct T of input, built in scratch memory (dnp is of
 * type T): xlate<T>(e), or *p of a translated pointer p.
 */
static int
dt_cg_xlate_build(dt_cg_t *cg, const dt_xlator_t *dxp, dt_node_t *input,
    const dt_node_t *dnp)
{
	dt_cg_xlbind_t save;
	dt_cg_tinfo_t ti, mt;
	ctf_membinfo_t mi;
	ctf_id_t type;
	int rbase, rv, ra;

	dt_cg_node_tinfo(cg, dnp, &ti);
	type = ctf_type_resolve(dxp->dx_dst_ctfp, dxp->dx_dst_type);
	dt_cg_xlate_bind(cg, dxp, input, &save);
	rbase = dt_cg_reg_alloc(cg);
	dt_cg_setx(cg, ti.ti_size, rbase);
	dt_cg_emit(cg, DIF_INSTR_ALLOCS(rbase, rbase));
	for (dt_node_t *m = dxp->dx_members; m != NULL; m = m->dn_list) {
		if (dt_type_member_info(dxp->dx_dst_ctfp, type, m->dn_membname,
		    &mi) != 0 || (mi.ctm_offset % 8) != 0)
			dt_cg_fail(cg, dnp, D_XLATE_MEMB, "cannot translate "
			    "member %s", m->dn_membname);
		dt_cg_typeinfo(cg, dxp->dx_dst_ctfp, mi.ctm_type, 0, &mt);
		rv = dt_cg_xlate_mexpr(cg, m->dn_membexpr, m->dn_membexpr);
		ra = dt_cg_reg_alloc(cg);
		dt_cg_setx(cg, (int64_t) (mi.ctm_offset / 8), ra);
		dt_cg_emit(cg, DIF_INSTR_FMT(DIF_OP_ADD, rbase, ra, ra));
		if (mt.ti_byref) {
			dt_cg_copyref(cg, rv, &mt, ra);
		} else {
			dt_cg_emit(cg, DIF_INSTR_STORE(mt.ti_size == 1 ?
			    DIF_OP_STB : mt.ti_size == 2 ? DIF_OP_STH :
			    mt.ti_size == 4 ? DIF_OP_STW : DIF_OP_STX, rv, ra));
		}
		dt_cg_reg_free(cg, ra);
		dt_cg_reg_free(cg, rv);
	}
	dt_cg_xlate_unbind(cg, &save);
	return rbase;
}

/* xlate<T>(e) as a whole: a T built in scratch, or e for xlate<T *>. */
static int
dt_cg_xlate(dt_cg_t *cg, dt_node_t *dnp)
{
	dt_cg_tinfo_t ti;

	if (dnp->dn_xlator == NULL)
		dt_cg_fail(cg, dnp, D_XLATE_NONE, "translator not found");
	dt_cg_node_tinfo(cg, dnp, &ti);
	if (!ti.ti_byref)
		return dt_cg_expr(cg, dnp->dn_right);
	return dt_cg_xlate_build(cg, dnp->dn_xlator, dnp->dn_right, dnp);
}

static bool
dt_cg_is_xlate(const dt_node_t *dnp)
{
	return dnp != NULL && dnp->dn_kind == DT_NODE_OP2 &&
	    dnp->dn_op == DT_OP_XLATE;
}

static int
dt_cg_member(dt_cg_t *cg, dt_node_t *dnp)
{
	dt_cg_bitfield_t bf;
	dt_cg_tinfo_t ti;
	dt_node_t *lp = dnp->dn_left, *mexpr;
	int r, t;

	if (dnp->dn_xlator != NULL && dnp->dn_right != NULL) {
		bool xl = lp->dn_kind == DT_NODE_OP2 && lp->dn_op == DT_OP_XLATE;
		bool xd = lp->dn_kind == DT_NODE_OP1 &&
		    lp->dn_op == DT_OP_DEREF && lp->dn_xlator != NULL;

		/* xlate<T>(e).m, p->m and (*p).m of a translated p. */
		dt_cg_node_tinfo(cg, lp, &ti);
		if (lp->dn_kind == DT_NODE_VAR &&
		    lp->dn_ident->di_iparam != NULL && !ti.ti_ptr &&
		    dt_cg_is_xlate(lp->dn_ident->di_inline)) {
			/* fds[e].m: only m is translated, the index bound. */
			dt_node_t *xn = lp->dn_ident->di_inline;
			dt_cg_xlbind_t save;

			mexpr = dt_cg_xlate_member_of(cg, dnp);
			dt_cg_bind(cg, lp->dn_ident->di_iparam, lp->dn_args,
			    &save);
			r = dt_cg_xlate_eval(cg, dnp->dn_xlator, xn->dn_right,
			    mexpr, dnp);
			dt_cg_xlate_unbind(cg, &save);
			return r;
		}
		if (xl || xd || ti.ti_ptr) {
			mexpr = dt_cg_xlate_member_of(cg, dnp);
			return dt_cg_xlate_eval(cg, dnp->dn_xlator,
			    xl ? lp->dn_right : xd ? lp->dn_child : lp, mexpr,
			    dnp);
		}
	}
	r = dt_cg_member_addr(cg, dnp, &bf);

	if (bf.bf_unit == 0) {
		dt_cg_load_node(cg, dnp, r);
		return r;
	}
	/* A bit-field: load its unit, then shift it into place. */
	dt_cg_node_tinfo(cg, dnp, &ti);
	dt_cg_load(cg, r, bf.bf_unit, false,
	    (dnp->dn_flags & DT_NF_USERLAND) != 0);
	t = dt_cg_reg_alloc(cg);
	dt_cg_setx(cg, 64 - (int64_t) (bf.bf_shift + bf.bf_bits), t);
	dt_cg_emit(cg, DIF_INSTR_FMT(DIF_OP_SLL, r, t, r));
	dt_cg_setx(cg, 64 - (int64_t) bf.bf_bits, t);
	dt_cg_emit(cg, DIF_INSTR_FMT(ti.ti_signed ? DIF_OP_SRA : DIF_OP_SRL,
	    r, t, r));
	dt_cg_reg_free(cg, t);
	return r;
}

/*
 * Lvalues: a variable (scalar or array element) or memory.
 */

typedef enum dt_cg_lvkind {
	DT_CG_LV_SCALAR,
	DT_CG_LV_ARRAY,
	DT_CG_LV_MEM,
	DT_CG_LV_BITFIELD,	/* lv_addr is the address of lv_bf's unit */
} dt_cg_lvkind_t;

typedef struct dt_cg_lval {
	dt_cg_lvkind_t lv_kind;
	dt_node_t *lv_node;
	dt_ident_t *lv_ident;
	uint8_t lv_scope;
	int lv_addr;		/* DT_CG_LV_MEM: register with the address */
	dt_cg_tinfo_t lv_ti;
	dt_cg_bitfield_t lv_bf;	/* DT_CG_LV_BITFIELD */
} dt_cg_lval_t;

/*
 * Gets an lvalue ready for a load and a store: pushes an array element's
 * keys (they stay on the tuple stack until the store) or computes an
 * address.  Nothing using the tuple stack may run between this and
 * dt_cg_lval_store().
 */
static void
dt_cg_lval_prepare(dt_cg_t *cg, dt_node_t *dnp, dt_cg_lval_t *lv,
    uint16_t flags)
{
	dt_cg_bitfield_t bf;

	memset(lv, 0, sizeof (*lv));
	lv->lv_node = dnp;
	dt_cg_node_tinfo(cg, dnp, &lv->lv_ti);
	switch (dnp->dn_kind) {
	case DT_NODE_VAR:
		lv->lv_ident = dnp->dn_ident;
		lv->lv_scope = dt_cg_scope(dnp->dn_ident);
		if (dt_cg_builtin(dnp->dn_ident))
			dt_cg_fail(cg, dnp, D_OP_WRITE, "%s is a read-only "
			    "built-in variable", dnp->dn_ident->di_name);
		if (dnp->dn_ident->di_ctfp != NULL)
			dt_cg_typeinfo(cg, dnp->dn_ident->di_ctfp,
			    dnp->dn_ident->di_type, 0, &lv->lv_ti);
		dt_cg_var_ref(cg, dnp, flags);
		if (dnp->dn_ident->di_kind == DT_IDENT_ARRAY) {
			if (lv->lv_scope == DIFV_SCOPE_LOCAL)
				dt_cg_fail(cg, dnp, D_ARR_LOCAL, "clause-local "
				    "variables cannot be associative arrays");
			lv->lv_kind = DT_CG_LV_ARRAY;
			dt_cg_tuple(cg, dnp->dn_args);
		} else {
			lv->lv_kind = DT_CG_LV_SCALAR;
		}
		return;
	case DT_NODE_OP1:
		if (dnp->dn_op != DT_OP_DEREF)
			break;
		lv->lv_kind = DT_CG_LV_MEM;
		lv->lv_addr = dt_cg_expr(cg, dnp->dn_child);
		return;
	case DT_NODE_OP2:
		if (dnp->dn_op != DT_OP_DOT && dnp->dn_op != DT_OP_PTR)
			break;
		lv->lv_kind = DT_CG_LV_MEM;
		lv->lv_addr = dt_cg_member_addr(cg, dnp, &bf);
		if (bf.bf_unit != 0) {
			lv->lv_kind = DT_CG_LV_BITFIELD;
			lv->lv_bf = bf;
		}
		return;
	default:
		break;
	}
	dt_cg_fail(cg, dnp, D_OP_LVAL, "operator requires modifiable "
	    "lvalue as an operand");
}

static int
dt_cg_lval_load(dt_cg_t *cg, dt_cg_lval_t *lv)
{
	uint32_t id = lv->lv_ident != NULL ? lv->lv_ident->di_id : 0;
	int r = dt_cg_reg_alloc(cg);

	switch (lv->lv_kind) {
	case DT_CG_LV_SCALAR:
		dt_cg_emit(cg, DIF_INSTR_LDV(
		    lv->lv_scope == DIFV_SCOPE_THREAD ? DIF_OP_LDTS :
		    lv->lv_scope == DIFV_SCOPE_LOCAL ? DIF_OP_LDLS :
		    DIF_OP_LDGS, id, r));
		break;
	case DT_CG_LV_ARRAY:
		dt_cg_emit(cg, DIF_INSTR_LDV(
		    lv->lv_scope == DIFV_SCOPE_THREAD ? DIF_OP_LDTAA :
		    DIF_OP_LDGAA, id, r));
		break;
	case DT_CG_LV_BITFIELD: {
		const dt_cg_bitfield_t *bf = &lv->lv_bf;
		int t;

		/* As dt_cg_member() reads one: the unit, shifted. */
		dt_cg_emit(cg, DIF_INSTR_MOV(lv->lv_addr, r));
		dt_cg_load(cg, r, bf->bf_unit, false,
		    (lv->lv_node->dn_flags & DT_NF_USERLAND) != 0);
		t = dt_cg_reg_alloc(cg);
		dt_cg_setx(cg, 64 - (int64_t) (bf->bf_shift + bf->bf_bits), t);
		dt_cg_emit(cg, DIF_INSTR_FMT(DIF_OP_SLL, r, t, r));
		dt_cg_setx(cg, 64 - (int64_t) bf->bf_bits, t);
		dt_cg_emit(cg, DIF_INSTR_FMT(lv->lv_ti.ti_signed ?
		    DIF_OP_SRA : DIF_OP_SRL, r, t, r));
		dt_cg_reg_free(cg, t);
		break;
	}
	default:
		dt_cg_emit(cg, DIF_INSTR_MOV(lv->lv_addr, r));
		if (!lv->lv_ti.ti_byref)
			dt_cg_load(cg, r, lv->lv_ti.ti_size,
			    lv->lv_ti.ti_signed,
			    (lv->lv_node->dn_flags & DT_NF_USERLAND) != 0);
		break;
	}
	return r;
}

static uint32_t
dt_cg_store_op(uint32_t size)
{
	switch (size) {
	case 1:
		return DIF_OP_STB;
	case 2:
		return DIF_OP_STH;
	case 4:
		return DIF_OP_STW;
	default:
		return DIF_OP_STX;
	}
}

/*
 * Stores reg into a bit-field: the unit that holds it is read, its bits
 * replaced by reg's low bits (the rest of reg is dropped, as C converts
 * to the field's width) and written back.
 */
static void
dt_cg_bitfield_store(dt_cg_t *cg, dt_cg_lval_t *lv, int reg)
{
	const dt_cg_bitfield_t *bf = &lv->lv_bf;
	uint64_t mask = bf->bf_bits >= 64 ? ~0ULL : (1ULL << bf->bf_bits) - 1;
	int u = dt_cg_reg_alloc(cg), v = dt_cg_reg_alloc(cg);
	int t = dt_cg_reg_alloc(cg);

	dt_cg_emit(cg, DIF_INSTR_MOV(lv->lv_addr, u));
	dt_cg_load(cg, u, bf->bf_unit, false, false);
	dt_cg_setx(cg, (int64_t) ~(mask << bf->bf_shift), t);
	dt_cg_emit(cg, DIF_INSTR_FMT(DIF_OP_AND, u, t, u));
	dt_cg_setx(cg, (int64_t) mask, t);
	dt_cg_emit(cg, DIF_INSTR_FMT(DIF_OP_AND, reg, t, v));
	dt_cg_setx(cg, (int64_t) bf->bf_shift, t);
	dt_cg_emit(cg, DIF_INSTR_FMT(DIF_OP_SLL, v, t, v));
	dt_cg_emit(cg, DIF_INSTR_FMT(DIF_OP_OR, u, v, u));
	dt_cg_emit(cg, DIF_INSTR_STORE(dt_cg_store_op(bf->bf_unit), u,
	    lv->lv_addr));
	dt_cg_reg_free(cg, t);
	dt_cg_reg_free(cg, v);
	dt_cg_reg_free(cg, u);
}

/* Stores reg into the lvalue (reg stays allocated) and releases it. */
static void
dt_cg_lval_store(dt_cg_t *cg, dt_cg_lval_t *lv, int reg)
{
	uint32_t id = lv->lv_ident != NULL ? lv->lv_ident->di_id : 0;
	uint32_t op;

	switch (lv->lv_kind) {
	case DT_CG_LV_SCALAR:
		dt_cg_emit(cg, DIF_INSTR_STV(
		    lv->lv_scope == DIFV_SCOPE_THREAD ? DIF_OP_STTS :
		    lv->lv_scope == DIFV_SCOPE_LOCAL ? DIF_OP_STLS :
		    DIF_OP_STGS, id, reg));
		break;
	case DT_CG_LV_ARRAY:
		dt_cg_emit(cg, DIF_INSTR_STV(
		    lv->lv_scope == DIFV_SCOPE_THREAD ? DIF_OP_STTAA :
		    DIF_OP_STGAA, id, reg));
		dt_cg_emit(cg, DIF_INSTR_FLUSHTS);
		break;
	default:
		if (lv->lv_node->dn_flags & DT_NF_USERLAND)
			dt_cg_fail(cg, lv->lv_node, D_OP_WRITE, "cannot "
			    "store to user memory; use copyout()");
		if (lv->lv_kind == DT_CG_LV_BITFIELD) {
			dt_cg_bitfield_store(cg, lv, reg);
		} else if (lv->lv_ti.ti_byref) {
			/* Struct or string assignment: copy the bytes. */
			dt_cg_copyref(cg, reg, &lv->lv_ti, lv->lv_addr);
		} else {
			op = dt_cg_store_op(lv->lv_ti.ti_size);
			dt_cg_emit(cg, DIF_INSTR_STORE(op, reg, lv->lv_addr));
		}
		dt_cg_reg_free(cg, lv->lv_addr);
		lv->lv_addr = 0;
		break;
	}
}

/*
 * Operators.
 */

static uint32_t
dt_cg_arith_op(dt_op_t op, bool sgn)
{
	switch (op) {
	case DT_OP_ADD: case DT_OP_ADD_EQ:
		return DIF_OP_ADD;
	case DT_OP_SUB: case DT_OP_SUB_EQ:
		return DIF_OP_SUB;
	case DT_OP_MUL: case DT_OP_MUL_EQ:
		return DIF_OP_MUL;
	case DT_OP_DIV: case DT_OP_DIV_EQ:
		return sgn ? DIF_OP_SDIV : DIF_OP_UDIV;
	case DT_OP_MOD: case DT_OP_MOD_EQ:
		return sgn ? DIF_OP_SREM : DIF_OP_UREM;
	case DT_OP_BAND: case DT_OP_AND_EQ:
		return DIF_OP_AND;
	case DT_OP_BOR: case DT_OP_OR_EQ:
		return DIF_OP_OR;
	case DT_OP_XOR: case DT_OP_XOR_EQ:
		return DIF_OP_XOR;
	case DT_OP_LSH: case DT_OP_LSH_EQ:
		return DIF_OP_SLL;
	default: /* RSH, RSH_EQ */
		return sgn ? DIF_OP_SRA : DIF_OP_SRL;
	}
}

/* Multiplies reg by a constant scale (an element size). */
static void
dt_cg_scale(dt_cg_t *cg, int reg, uint32_t scale)
{
	int t;

	if (scale <= 1)
		return;
	t = dt_cg_reg_alloc(cg);
	dt_cg_setx(cg, scale, t);
	dt_cg_emit(cg, DIF_INSTR_FMT(DIF_OP_MUL, reg, t, reg));
	dt_cg_reg_free(cg, t);
}

/*
 * rl = rl op rr for values of types lt and rt, giving a result of type
 * nt: converts the operands where the operation depends on their upper
 * bits, scales pointer arithmetic, and normalizes the result.  rr is
 * freed.  lnode and rnode give the element sizes for pointers.
 */
static void
dt_cg_binop(dt_cg_t *cg, dt_op_t op, int rl, const dt_cg_tinfo_t *lt,
    const dt_node_t *lnode, int rr, const dt_cg_tinfo_t *rt,
    const dt_node_t *rnode, const dt_cg_tinfo_t *nt)
{
	bool add = op == DT_OP_ADD || op == DT_OP_ADD_EQ;
	bool sub = op == DT_OP_SUB || op == DT_OP_SUB_EQ;
	bool shift = op == DT_OP_LSH || op == DT_OP_RSH ||
	    op == DT_OP_LSH_EQ || op == DT_OP_RSH_EQ;
	dt_cg_tinfo_t pt;
	uint32_t esz;

	if ((add || sub) && (lt->ti_ptr || rt->ti_ptr)) {
		if (lt->ti_ptr && rt->ti_ptr) {
			/* Pointer difference, in elements. */
			dt_cg_emit(cg, DIF_INSTR_FMT(DIF_OP_SUB, rl, rr, rl));
			if ((esz = dt_cg_elemsize(lnode)) > 1) {
				dt_cg_setx(cg, esz, rr);
				dt_cg_emit(cg, DIF_INSTR_FMT(DIF_OP_SDIV, rl,
				    rr, rl));
			}
		} else if (lt->ti_ptr) {
			dt_cg_scale(cg, rr, dt_cg_elemsize(lnode));
			dt_cg_emit(cg, DIF_INSTR_FMT(add ? DIF_OP_ADD :
			    DIF_OP_SUB, rl, rr, rl));
		} else {
			dt_cg_scale(cg, rl, dt_cg_elemsize(rnode));
			dt_cg_emit(cg, DIF_INSTR_FMT(DIF_OP_ADD, rl, rr, rl));
		}
		dt_cg_reg_free(cg, rr);
		return;
	}
	if (shift)
		dt_cg_promote(lt, lt, &pt);
	else
		dt_cg_promote(lt, rt, &pt);
	switch (op) {
	case DT_OP_DIV: case DT_OP_MOD: case DT_OP_DIV_EQ: case DT_OP_MOD_EQ:
		dt_cg_convert(cg, rl, lt, &pt);
		dt_cg_convert(cg, rr, rt, &pt);
		break;
	case DT_OP_RSH: case DT_OP_RSH_EQ:
		dt_cg_convert(cg, rl, lt, &pt);
		break;
	default:
		break;
	}
	dt_cg_emit(cg, DIF_INSTR_FMT(dt_cg_arith_op(op, pt.ti_signed), rl, rr,
	    rl));
	dt_cg_reg_free(cg, rr);
	/*
	 * As in DTrace, the result keeps all 64 bits of the register (nt,
	 * its type, says how wide a store, cast or record will cut it).
	 */
	(void) nt;
}

/*
 * Compare the operands of a comparison: emits the cmp and returns the
 * branch opcode taken when the comparison holds.  No register is left
 * in use.
 */
static uint32_t
dt_cg_compare_cc(dt_cg_t *cg, dt_node_t *dnp)
{
	dt_cg_tinfo_t lt, rt, pt;
	bool str, sgn;
	int rl, rr;

	dt_cg_node_tinfo(cg, dnp->dn_left, &lt);
	dt_cg_node_tinfo(cg, dnp->dn_right, &rt);
	str = lt.ti_string || rt.ti_string;
	dt_cg_promote(&lt, &rt, &pt);
	rl = dt_cg_expr(cg, dnp->dn_left);
	if (!str)
		dt_cg_convert(cg, rl, &lt, &pt);
	rr = dt_cg_expr(cg, dnp->dn_right);
	if (!str)
		dt_cg_convert(cg, rr, &rt, &pt);
	dt_cg_emit(cg, DIF_INSTR_CMP(str ? DIF_OP_SCMP : DIF_OP_CMP, rl, rr));
	dt_cg_reg_free(cg, rr);
	dt_cg_reg_free(cg, rl);
	/* scmp orders like a signed comparison (its carry is clear). */
	sgn = str || pt.ti_signed;
	switch (dnp->dn_op) {
	case DT_OP_EQU:
		return DIF_OP_BE;
	case DT_OP_NEQ:
		return DIF_OP_BNE;
	case DT_OP_LT:
		return sgn ? DIF_OP_BL : DIF_OP_BLU;
	case DT_OP_LE:
		return sgn ? DIF_OP_BLE : DIF_OP_BLEU;
	case DT_OP_GT:
		return sgn ? DIF_OP_BG : DIF_OP_BGU;
	default:
		return sgn ? DIF_OP_BGE : DIF_OP_BGEU;
	}
}

static int
dt_cg_compare(dt_cg_t *cg, dt_node_t *dnp)
{
	uint32_t op = dt_cg_compare_cc(cg, dnp);
	int r = dt_cg_reg_alloc(cg);

	dt_cg_setcc(cg, op, r);
	return r;
}

/* The branch taken when the one given is not. */
static uint32_t
dt_cg_cc_invert(uint32_t op)
{
	switch (op) {
	case DIF_OP_BE: return DIF_OP_BNE;
	case DIF_OP_BNE: return DIF_OP_BE;
	case DIF_OP_BL: return DIF_OP_BGE;
	case DIF_OP_BGE: return DIF_OP_BL;
	case DIF_OP_BLU: return DIF_OP_BGEU;
	case DIF_OP_BGEU: return DIF_OP_BLU;
	case DIF_OP_BLE: return DIF_OP_BG;
	case DIF_OP_BG: return DIF_OP_BLE;
	case DIF_OP_BLEU: return DIF_OP_BGU;
	default: return DIF_OP_BLEU;	/* BGU */
	}
}

/*
 * Branch to label when the truth of dnp is when.  A comparison branches
 * on its own condition codes instead of making a 0 or 1 to test.
 */
static void
dt_cg_test(dt_cg_t *cg, dt_node_t *dnp, bool when, uint32_t label)
{
	const dt_node_t *saved = cg->cg_node;
	uint32_t op;
	int64_t v;
	int r;

	if (dnp->dn_kind == DT_NODE_OP2 && dnp->dn_op >= DT_OP_EQU &&
	    dnp->dn_op <= DT_OP_GE && !(dt_cg_is_intnode(cg, dnp) &&
	    dt_cg_fold(cg, dnp, &v))) {
		cg->cg_node = dnp;
		op = dt_cg_compare_cc(cg, dnp);
		dt_cg_branch(cg, when ? op : dt_cg_cc_invert(op), label);
		cg->cg_node = saved;
		return;
	}
	r = dt_cg_expr(cg, dnp);
	dt_cg_emit(cg, DIF_INSTR_TST(r));
	dt_cg_reg_free(cg, r);
	dt_cg_branch(cg, when ? DIF_OP_BNE : DIF_OP_BE, label);
}

/* && and || short-circuit; ^^ evaluates both sides. */
static int
dt_cg_logical(dt_cg_t *cg, dt_node_t *dnp)
{
	uint32_t lshort = dt_cg_label(cg), lend = dt_cg_label(cg);
	/* && stops at the first zero, || at the first non-zero. */
	uint32_t br = dnp->dn_op == DT_OP_LAND ? DIF_OP_BE : DIF_OP_BNE;
	dt_node_t *np, *bottom;
	int rl, rr;

	if (dnp->dn_op == DT_OP_LXOR) {
		rl = dt_cg_expr(cg, dnp->dn_left);
		dt_cg_emit(cg, DIF_INSTR_TST(rl));
		dt_cg_setcc(cg, DIF_OP_BNE, rl);
		rr = dt_cg_expr(cg, dnp->dn_right);
		dt_cg_emit(cg, DIF_INSTR_TST(rr));
		dt_cg_setcc(cg, DIF_OP_BNE, rr);
		dt_cg_emit(cg, DIF_INSTR_FMT(DIF_OP_XOR, rl, rr, rl));
		dt_cg_reg_free(cg, rr);
		return rl;
	}
	/*
	 * A chain of the same operator (a || b || c ..., as a generated
	 * predicate is) is one sequence of tests, from the bottom of the
	 * tree up: walked without recursion, each node noting its parent
	 * on the way down, so a long chain needs no stack.
	 */
	for (bottom = dnp; bottom->dn_left->dn_kind == DT_NODE_OP2 &&
	    bottom->dn_left->dn_op == dnp->dn_op; bottom = bottom->dn_left)
		bottom->dn_left->dn_cg_up = bottom;
	dt_cg_test(cg, bottom->dn_left, br == DIF_OP_BNE, lshort);
	for (np = bottom;; np = np->dn_cg_up) {
		dt_cg_test(cg, np->dn_right, br == DIF_OP_BNE, lshort);
		if (np == dnp)
			break;
	}
	rl = dt_cg_reg_alloc(cg);
	/* Both sides decided nothing: && is true, || is false. */
	if (dnp->dn_op == DT_OP_LAND)
		dt_cg_setx(cg, 1, rl);
	else
		dt_cg_emit(cg, DIF_INSTR_MOV(0, rl));
	dt_cg_branch(cg, DIF_OP_BA, lend);
	dt_cg_label_set(cg, lshort);
	if (dnp->dn_op == DT_OP_LAND)
		dt_cg_emit(cg, DIF_INSTR_MOV(0, rl));
	else
		dt_cg_setx(cg, 1, rl);
	dt_cg_label_set(cg, lend);
	return rl;
}

static int
dt_cg_ternary(dt_cg_t *cg, dt_node_t *dnp)
{
	uint32_t lelse = dt_cg_label(cg), lend = dt_cg_label(cg);
	int rc, r;

	rc = dt_cg_expr(cg, dnp->dn_expr);
	dt_cg_emit(cg, DIF_INSTR_TST(rc));
	dt_cg_branch(cg, DIF_OP_BE, lelse);
	r = dt_cg_expr(cg, dnp->dn_left);
	dt_cg_emit(cg, DIF_INSTR_MOV(r, rc));
	dt_cg_reg_free(cg, r);
	dt_cg_branch(cg, DIF_OP_BA, lend);
	dt_cg_label_set(cg, lelse);
	/*
	 * On this path rc holds nothing until the else value is moved in:
	 * free it meanwhile, so a chain (c1 ? a : c2 ? b : ...) needs no
	 * register per link.
	 */
	dt_cg_reg_free(cg, rc);
	r = dt_cg_expr(cg, dnp->dn_right);
	if (r != rc) {
		dt_cg_emit(cg, DIF_INSTR_MOV(r, rc));
		dt_cg_reg_free(cg, r);
		cg->cg_regs |= (uint8_t) (1U << rc);
	}
	dt_cg_label_set(cg, lend);
	return rc;
}

/*
 * A value stored to a variable or to memory takes its type's width: the
 * only place, with casts and records, where DTrace cuts the 64 bits an
 * operation leaves in a register.
 */
static void
dt_cg_store_normalize(dt_cg_t *cg, int reg, const dt_cg_tinfo_t *ti)
{
	if (!ti->ti_ptr && !ti->ti_byref && ti->ti_kind != CTF_K_FLOAT)
		dt_cg_normalize(cg, reg, ti->ti_size, ti->ti_signed);
}

/*
 * Is the value of dnp sure to be in its type's range?  Everything but an
 * arithmetic operation's result (or a choice or sequence ending in one)
 * is: it was loaded, stored, cast or is a constant of the type.
 */
static bool
dt_cg_in_range(const dt_node_t *dnp)
{
	switch (dnp->dn_kind) {
	case DT_NODE_OP2:
		switch (dnp->dn_op) {
		case DT_OP_ADD: case DT_OP_SUB: case DT_OP_MUL: case DT_OP_DIV:
		case DT_OP_MOD: case DT_OP_BAND: case DT_OP_BOR:
		case DT_OP_XOR: case DT_OP_LSH: case DT_OP_RSH:
			return false;
		case DT_OP_COMMA:
			return dt_cg_in_range(dnp->dn_right);
		default:
			return true;
		}
	case DT_NODE_OP3:
		return dt_cg_in_range(dnp->dn_left) &&
		    dt_cg_in_range(dnp->dn_right);
	default:
		return true;
	}
}

static int
dt_cg_assign(dt_cg_t *cg, dt_node_t *dnp)
{
	dt_node_t *lp = dnp->dn_left, *rp = dnp->dn_right;
	dt_cg_tinfo_t rt;
	dt_cg_lval_t lv;
	int rv, cur;

	dt_cg_node_tinfo(cg, rp, &rt);
	/* The value first: it may use the tuple stack, the keys wait. */
	rv = dt_cg_expr(cg, rp);
	if (dnp->dn_op == DT_OP_ASGN) {
		dt_cg_lval_prepare(cg, lp, &lv, DIFV_F_MOD);
		if (dt_cg_in_range(rp))
			dt_cg_convert(cg, rv, &rt, &lv.lv_ti);
		else
			dt_cg_store_normalize(cg, rv, &lv.lv_ti);
		dt_cg_lval_store(cg, &lv, rv);
		return rv;
	}
	dt_cg_lval_prepare(cg, lp, &lv, DIFV_F_REF | DIFV_F_MOD);
	cur = dt_cg_lval_load(cg, &lv);
	dt_cg_binop(cg, dnp->dn_op, cur, &lv.lv_ti, lp, rv, &rt, rp,
	    &lv.lv_ti);
	dt_cg_store_normalize(cg, cur, &lv.lv_ti);
	dt_cg_lval_store(cg, &lv, cur);
	return cur;
}

static int
dt_cg_incdec(dt_cg_t *cg, dt_node_t *dnp)
{
	bool post = dnp->dn_op == DT_OP_POSTINC ||
	    dnp->dn_op == DT_OP_POSTDEC;
	bool inc = dnp->dn_op == DT_OP_POSTINC || dnp->dn_op == DT_OP_PREINC;
	dt_cg_lval_t lv;
	int cur, old = 0, t;

	dt_cg_lval_prepare(cg, dnp->dn_child, &lv, DIFV_F_REF | DIFV_F_MOD);
	cur = dt_cg_lval_load(cg, &lv);
	if (post) {
		old = dt_cg_reg_alloc(cg);
		dt_cg_emit(cg, DIF_INSTR_MOV(cur, old));
	}
	t = dt_cg_reg_alloc(cg);
	dt_cg_setx(cg, lv.lv_ti.ti_ptr ? dt_cg_elemsize(dnp->dn_child) : 1, t);
	dt_cg_emit(cg, DIF_INSTR_FMT(inc ? DIF_OP_ADD : DIF_OP_SUB, cur, t,
	    cur));
	dt_cg_reg_free(cg, t);
	dt_cg_store_normalize(cg, cur, &lv.lv_ti);
	dt_cg_lval_store(cg, &lv, cur);
	if (!post)
		return cur;
	dt_cg_reg_free(cg, cur);
	return old;
}

/* &E: the address of an lvalue in memory. */
static int
dt_cg_addrof(dt_cg_t *cg, dt_node_t *dnp)
{
	dt_node_t *cp = dnp->dn_child;
	dt_cg_bitfield_t bf;

	if (cp->dn_kind == DT_NODE_OP1 && cp->dn_op == DT_OP_DEREF)
		return dt_cg_expr(cg, cp->dn_child);
	if (cp->dn_kind == DT_NODE_OP2 &&
	    (cp->dn_op == DT_OP_DOT || cp->dn_op == DT_OP_PTR)) {
		if (cp->dn_flags & DT_NF_BITFIELD)
			dt_cg_fail(cg, dnp, D_ADDROF_BITFIELD, "cannot take "
			    "address of bit-field");
		/*
		 * A translated member exists only as its translation's
		 * value: its address is that of a copy in scratch memory,
		 * as the member of the translated struct built whole
		 * (*args[2]) would be.
		 */
		if (cp->dn_xlator != NULL && cp->dn_right != NULL) {
			dt_cg_tinfo_t mt;
			int r = dt_cg_member(cg, cp), ra;

			dt_cg_node_tinfo(cg, cp, &mt);
			if (mt.ti_byref)
				return r;
			ra = dt_cg_reg_alloc(cg);
			dt_cg_setx(cg, mt.ti_size, ra);
			dt_cg_emit(cg, DIF_INSTR_ALLOCS(ra, ra));
			dt_cg_emit(cg, DIF_INSTR_STORE(mt.ti_size == 1 ?
			    DIF_OP_STB : mt.ti_size == 2 ? DIF_OP_STH :
			    mt.ti_size == 4 ? DIF_OP_STW : DIF_OP_STX, r, ra));
			dt_cg_reg_free(cg, r);
			return ra;
		}
		return dt_cg_member_addr(cg, cp, &bf);
	}
	dt_cg_fail(cg, dnp, D_ADDROF_VAR, "cannot take address of "
	    "dynamic variable");
}

static int
dt_cg_op1(dt_cg_t *cg, dt_node_t *dnp)
{
	dt_cg_tinfo_t ct, nt;
	int r;

	switch (dnp->dn_op) {
	case DT_OP_PREINC: case DT_OP_PREDEC:
	case DT_OP_POSTINC: case DT_OP_POSTDEC:
		return dt_cg_incdec(cg, dnp);
	case DT_OP_ADDROF:
		return dt_cg_addrof(cg, dnp);
	case DT_OP_DEREF:
		/* *p of a translated pointer: the translated struct. */
		if (dnp->dn_xlator != NULL)
			return dt_cg_xlate_build(cg, dnp->dn_xlator,
			    dnp->dn_child, dnp);
		r = dt_cg_expr(cg, dnp->dn_child);
		dt_cg_load_node(cg, dnp, r);
		return r;
	case DT_OP_SIZEOF:
		dt_cg_fail(cg, dnp, D_SIZEOF_TYPE, "cannot apply sizeof to "
		    "this operand");
	default:
		break;
	}
	r = dt_cg_expr(cg, dnp->dn_child);
	switch (dnp->dn_op) {
	case DT_OP_LNEG:
		dt_cg_emit(cg, DIF_INSTR_TST(r));
		dt_cg_setcc(cg, DIF_OP_BE, r);
		break;
	case DT_OP_BNEG:
		dt_cg_emit(cg, DIF_INSTR_NOT(r, r));
		dt_cg_node_normalize(cg, r, dnp);
		break;
	case DT_OP_INEG:
		dt_cg_emit(cg, DIF_INSTR_FMT(DIF_OP_SUB, 0, r, r));
		dt_cg_node_normalize(cg, r, dnp);
		break;
	case DT_OP_IPOS:
		dt_cg_node_tinfo(cg, dnp->dn_child, &ct);
		dt_cg_node_tinfo(cg, dnp, &nt);
		dt_cg_convert(cg, r, &ct, &nt);
		break;
	default:
		/* stringof: the same address, seen as a string. */
		break;
	}
	return r;
}

/* Is op one of the arithmetic operators dt_cg_binop() computes? */
static bool
dt_cg_is_arith(dt_op_t op)
{
	switch (op) {
	case DT_OP_ADD: case DT_OP_SUB: case DT_OP_MUL: case DT_OP_DIV:
	case DT_OP_MOD: case DT_OP_BAND: case DT_OP_BOR: case DT_OP_XOR:
	case DT_OP_LSH: case DT_OP_RSH:
		return true;
	default:
		return false;
	}
}

/*
 * Roughly how many registers evaluating dnp takes (Sethi-Ullman numbers
 * over the arithmetic operators; anything else counts as two).
 */
static unsigned
dt_cg_regneed(dt_node_t *dnp)
{
	unsigned l, r, n;

	if (dnp == NULL)
		return 0;
	if (dnp->dn_kind == DT_NODE_INT || dnp->dn_kind == DT_NODE_VAR)
		return 1;
	if (dnp->dn_kind != DT_NODE_OP2 || !dt_cg_is_arith(dnp->dn_op))
		return 2;
	/* Remembered: asked at every level of a chain (see dt_cg_fold()). */
	if (dnp->dn_cg_regneed != 0)
		return dnp->dn_cg_regneed;
	l = dt_cg_regneed(dnp->dn_left);
	r = dt_cg_regneed(dnp->dn_right);
	n = l == r ? l + 1 : l > r ? l : r;
	dnp->dn_cg_regneed = n < UINT8_MAX ? n : UINT8_MAX;
	return n;
}

static int
dt_cg_op2(dt_cg_t *cg, dt_node_t *dnp)
{
	dt_cg_tinfo_t lt, rt, nt;
	int rl, rr;

	switch (dnp->dn_op) {
	case DT_OP_COMMA:
		rl = dt_cg_expr(cg, dnp->dn_left);
		dt_cg_reg_free(cg, rl);
		return dt_cg_expr(cg, dnp->dn_right);
	case DT_OP_ASGN:
	case DT_OP_ADD_EQ: case DT_OP_SUB_EQ: case DT_OP_MUL_EQ:
	case DT_OP_DIV_EQ: case DT_OP_MOD_EQ: case DT_OP_AND_EQ:
	case DT_OP_XOR_EQ: case DT_OP_OR_EQ: case DT_OP_LSH_EQ:
	case DT_OP_RSH_EQ:
		return dt_cg_assign(cg, dnp);
	case DT_OP_LOR: case DT_OP_LXOR: case DT_OP_LAND:
		return dt_cg_logical(cg, dnp);
	case DT_OP_EQU: case DT_OP_NEQ: case DT_OP_LT: case DT_OP_LE:
	case DT_OP_GT: case DT_OP_GE:
		return dt_cg_compare(cg, dnp);
	case DT_OP_DOT: case DT_OP_PTR:
		return dt_cg_member(cg, dnp);
	case DT_OP_CAST:
		rl = dt_cg_expr(cg, dnp->dn_right);
		dt_cg_node_tinfo(cg, dnp->dn_right, &rt);
		dt_cg_node_tinfo(cg, dnp, &nt);
		if (!nt.ti_byref && !nt.ti_ptr && nt.ti_size > 0)
			dt_cg_convert(cg, rl, &rt, &nt);
		return rl;
	case DT_OP_XLATE:
		return dt_cg_xlate(cg, dnp);
	case DT_OP_OFFSETOF:
		dt_cg_fail(cg, dnp, D_OFFSETOF_TYPE, "cannot find the "
		    "member offset");
	case DT_OP_LBRAC:
		dt_cg_fail(cg, dnp, D_UNKNOWN, "internal error: "
		    "subscript was not rewritten by the front end");
	case DT_OP_ADD: case DT_OP_SUB: case DT_OP_MUL: case DT_OP_DIV:
	case DT_OP_MOD: case DT_OP_BAND: case DT_OP_BOR: case DT_OP_XOR:
	case DT_OP_LSH: case DT_OP_RSH:
		break;
	default:
		dt_cg_fail(cg, dnp, D_UNKNOWN, "internal error: unexpected "
		    "operator %d", (int) dnp->dn_op);
	}
	dt_cg_node_tinfo(cg, dnp->dn_left, &lt);
	dt_cg_node_tinfo(cg, dnp->dn_right, &rt);
	dt_cg_node_tinfo(cg, dnp, &nt);
	/*
	 * The operand needing more registers goes first (C leaves the order
	 * open), so a + (b + (c + ...)) holds one value while the rest is
	 * computed instead of one per level: DIF has seven registers.
	 */
	if (dt_cg_regneed(dnp->dn_right) > dt_cg_regneed(dnp->dn_left)) {
		rr = dt_cg_expr(cg, dnp->dn_right);
		rl = dt_cg_expr(cg, dnp->dn_left);
	} else {
		rl = dt_cg_expr(cg, dnp->dn_left);
		rr = dt_cg_expr(cg, dnp->dn_right);
	}
	dt_cg_binop(cg, dnp->dn_op, rl, &lt, dnp->dn_left, rr, &rt,
	    dnp->dn_right, &nt);
	return rl;
}

/*
 * Calls.  A subroutine takes its arguments on the tuple stack.  An action
 * that also yields a value (func(), sym(), stack() ...) appears in
 * expressions as an aggregation key or a trace() argument: its value is
 * the address it is given, its record type says how it prints.
 */
static int
dt_cg_call(dt_cg_t *cg, dt_node_t *dnp)
{
	dt_ident_t *idp = dnp->dn_ident;
	int r;

	if (idp == NULL)
		dt_cg_fail(cg, dnp, D_FUNC_UNDEF, "undefined function");
	switch (idp->di_kind) {
	case DT_IDENT_FUNC:
		if (dnp->dn_args != NULL)
			dt_cg_tuple(cg, dnp->dn_args);
		r = dt_cg_reg_alloc(cg);
		dt_cg_emit(cg, DIF_INSTR_CALL(idp->di_id, r));
		if (dnp->dn_args != NULL)
			dt_cg_emit(cg, DIF_INSTR_FLUSHTS);
		if (cg->cg_stmt != NULL && (idp->di_flags & DT_IDFLG_DESTRUCT))
			cg->cg_stmt->st_destructive = true;
		return r;
	case DT_IDENT_ACTFUNC:
		switch (idp->di_id) {
		case DT_ACT_SYM: case DT_ACT_MOD: case DT_ACT_USYM:
		case DT_ACT_UMOD: case DT_ACT_UADDR:
			if (dnp->dn_args != NULL)
				return dt_cg_expr(cg, dnp->dn_args);
			break;
		case DT_ACT_STACK: case DT_ACT_USTACK: case DT_ACT_JSTACK:
			/* The engine fills the record; the value is unused. */
			r = dt_cg_reg_alloc(cg);
			dt_cg_emit(cg, DIF_INSTR_MOV(0, r));
			return r;
		default:
			break;
		}
		dt_cg_fail(cg, dnp, D_OP_ACT, "action %s( ) may not be used "
		    "in an expression", idp->di_name);
	case DT_IDENT_AGGFUNC:
		dt_cg_fail(cg, dnp, D_AGG_FUNC, "%s( ) may only be used as "
		    "the value of an aggregation", idp->di_name);
	default:
		dt_cg_fail(cg, dnp, D_FUNC_IDKIND, "%s is not a function",
		    idp->di_name);
	}
}

int
dt_cg_expr(dt_cg_t *cg, dt_node_t *dnp)
{
	const dt_node_t *saved = cg->cg_node;
	int64_t v;
	int r;

	if (dnp == NULL)
		dt_cg_fail(cg, NULL, D_UNKNOWN, "internal error: missing "
		    "expression");
	cg->cg_node = dnp;
	if (dnp->dn_kind != DT_NODE_INT && dnp->dn_kind != DT_NODE_STRING &&
	    dt_cg_is_intnode(cg, dnp) && dt_cg_fold(cg, dnp, &v)) {
		r = dt_cg_reg_alloc(cg);
		dt_cg_setx(cg, v, r);
		cg->cg_node = saved;
		return r;
	}
	switch (dnp->dn_kind) {
	case DT_NODE_INT:
		r = dt_cg_reg_alloc(cg);
		dt_cg_setx(cg, (int64_t) dnp->dn_value, r);
		break;
	case DT_NODE_STRING:
		r = dt_cg_reg_alloc(cg);
		dt_cg_emit(cg, DIF_INSTR_SETS(dt_cg_stroff(cg,
		    dnp->dn_string != NULL ? dnp->dn_string : ""), r));
		break;
	case DT_NODE_VAR:
		if (dnp->dn_ident == NULL)
			dt_cg_fail(cg, dnp, D_IDENT_UNDEF, "undefined "
			    "variable");
		r = dt_cg_var_load(cg, dnp);
		break;
	case DT_NODE_FUNC:
		r = dt_cg_call(cg, dnp);
		break;
	case DT_NODE_OP1:
		r = dt_cg_op1(cg, dnp);
		break;
	case DT_NODE_OP2:
		r = dt_cg_op2(cg, dnp);
		break;
	case DT_NODE_OP3:
		r = dt_cg_ternary(cg, dnp);
		break;
	case DT_NODE_SYM:
		/* A kernel variable's address: only the kernel reads it. */
		r = dt_cg_reg_alloc(cg);
		dt_cg_setx(cg, (int64_t) dnp->dn_value, r);
		if (cg->cg_stmt != NULL)
			cg->cg_stmt->st_kmem = true;
		break;
	default:
		dt_cg_fail(cg, dnp, D_UNKNOWN, "internal error: cannot "
		    "generate code for a node of kind %d", (int) dnp->dn_kind);
	}
	cg->cg_node = saved;
	return r;
}

dif_object_t *
dt_cg_difo(dt_cg_t *cg, dt_node_t *dnp)
{
	dif_type_t rtype;
	int r;

	dt_cg_obj_begin(cg);
	r = dt_cg_expr(cg, dnp);
	if (dnp->dn_kind == DT_NODE_STRING)
		dt_cg_diftype(cg, NULL, CTF_ERR, 0, &rtype);
	else
		dt_cg_diftype(cg, dnp->dn_ctfp, dnp->dn_type, dnp->dn_flags,
		    &rtype);
	if (dnp->dn_kind == DT_NODE_STRING) {
		rtype.dt_kind = DIF_TYPE_STRING;
		rtype.dt_flags = DIF_TF_BYREF;
		rtype.dt_size = cg->cg_strsize;
	}
	return dt_cg_obj_end(cg, r, &rtype);
}

dif_object_t *
dt_cg_difo_const(dt_cg_t *cg, int64_t val, uint32_t size, bool sgn)
{
	dif_type_t rtype;
	int r;

	memset(&rtype, 0, sizeof (rtype));
	rtype.dt_kind = DIF_TYPE_CTF;
	rtype.dt_flags = sgn ? DIF_TF_SIGNED : 0;
	rtype.dt_size = size;
	dt_cg_obj_begin(cg);
	r = dt_cg_reg_alloc(cg);
	dt_cg_setx(cg, val, r);
	return dt_cg_obj_end(cg, r, &rtype);
}
