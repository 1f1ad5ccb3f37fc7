/* SPDX-License-Identifier: MIT */
/*
 * dif_verify.c: proving a DIF object safe to run.
 *
 * Because every branch goes forward, the instructions are already in a
 * topological order of the control-flow graph, and one pass from the
 * first to the last instruction is a complete data-flow analysis.  For
 * each instruction the pass keeps what holds on every path reaching it:
 *
 *	vs_regs	    registers certainly written (a bit mask; %r0 always)
 *	vs_cc	    whether the condition codes are certainly set
 *	vs_tmin/max the bounds of the tuple-stack depth
 *
 * and merges them into each successor (intersection for the first two,
 * the union interval for the depth).  An instruction no path reaches is
 * still checked for its encoding but not for register use.
 *
 * The static checks on the tables (strings end in NUL, variable entries
 * well formed, the return type sane) come first, so that the per-
 * instruction checks and the interpreter can rely on them.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dif/dif_verify.h"

/* Largest by-reference variable or return value, in bytes. */
#define DIF_VERIFY_MAXREF DIF_BYREF_MAX

typedef struct dif_vstate {
	bool vs_reached;
	bool vs_cc;
	uint8_t vs_regs;
	int vs_tmin, vs_tmax;
} dif_vstate_t;

static const struct {
	int8_t min, max;
} dif_subr_args[DIF_SUBR_MAX + 1] = {
	[DIF_SUBR_RAND] = { 0, 0 },
	[DIF_SUBR_MUTEX_OWNED] = { 1, 1 },
	[DIF_SUBR_MUTEX_OWNER] = { 1, 1 },
	[DIF_SUBR_MUTEX_TYPE_ADAPTIVE] = { 1, 1 },
	[DIF_SUBR_MUTEX_TYPE_SPIN] = { 1, 1 },
	[DIF_SUBR_RW_READ_HELD] = { 1, 1 },
	[DIF_SUBR_RW_WRITE_HELD] = { 1, 1 },
	[DIF_SUBR_RW_ISWRITER] = { 1, 1 },
	[DIF_SUBR_COPYIN] = { 2, 2 },
	[DIF_SUBR_COPYINSTR] = { 1, 2 },
	[DIF_SUBR_SPECULATION] = { 0, 0 },
	[DIF_SUBR_PROGENYOF] = { 1, 1 },
	[DIF_SUBR_STRLEN] = { 1, 1 },
	[DIF_SUBR_COPYOUT] = { 3, 3 },
	[DIF_SUBR_COPYOUTSTR] = { 3, 3 },
	[DIF_SUBR_ALLOCA] = { 1, 1 },
	[DIF_SUBR_BCOPY] = { 3, 3 },
	[DIF_SUBR_COPYINTO] = { 3, 3 },
	[DIF_SUBR_MSGDSIZE] = { 1, 1 },
	[DIF_SUBR_MSGSIZE] = { 1, 1 },
	[DIF_SUBR_GETMAJOR] = { 1, 1 },
	[DIF_SUBR_GETMINOR] = { 1, 1 },
	[DIF_SUBR_DDI_PATHNAME] = { 2, 2 },
	[DIF_SUBR_STRJOIN] = { 2, 2 },
	[DIF_SUBR_LLTOSTR] = { 1, 2 },
	[DIF_SUBR_BASENAME] = { 1, 1 },
	[DIF_SUBR_DIRNAME] = { 1, 1 },
	[DIF_SUBR_CLEANPATH] = { 1, 1 },
	[DIF_SUBR_STRCHR] = { 2, 2 },
	[DIF_SUBR_STRRCHR] = { 2, 2 },
	[DIF_SUBR_STRSTR] = { 2, 2 },
	[DIF_SUBR_STRTOK] = { 2, 2 },
	[DIF_SUBR_SUBSTR] = { 2, 3 },
	[DIF_SUBR_INDEX] = { 2, 3 },
	[DIF_SUBR_RINDEX] = { 2, 3 },
	[DIF_SUBR_HTONS] = { 1, 1 },
	[DIF_SUBR_HTONL] = { 1, 1 },
	[DIF_SUBR_HTONLL] = { 1, 1 },
	[DIF_SUBR_NTOHS] = { 1, 1 },
	[DIF_SUBR_NTOHL] = { 1, 1 },
	[DIF_SUBR_NTOHLL] = { 1, 1 },
	[DIF_SUBR_INET_NTOP] = { 2, 2 },
	[DIF_SUBR_INET_NTOA] = { 1, 1 },
	[DIF_SUBR_INET_NTOA6] = { 1, 1 },
	[DIF_SUBR_TOUPPER] = { 1, 1 },
	[DIF_SUBR_TOLOWER] = { 1, 1 },
	[DIF_SUBR_GETF] = { 1, 1 },
	[DIF_SUBR_JSON] = { 2, 2 },
	[DIF_SUBR_STRTOLL] = { 1, 2 },
	[DIF_SUBR_MEMREF] = { 2, 2 },
	[DIF_SUBR_LINK_NTOP] = { 2, 2 },
	[DIF_SUBR_D_PATH] = { 1, 2 },
};

int
dif_subr_minargs(uint32_t subr)
{
	return subr <= DIF_SUBR_MAX ? dif_subr_args[subr].min : -1;
}

int
dif_subr_maxargs(uint32_t subr)
{
	return subr <= DIF_SUBR_MAX ? dif_subr_args[subr].max : -1;
}

typedef struct dif_verifier {
	const dif_object_t *dv_difo;
	char *dv_err;
	size_t dv_errlen;
	dif_vstate_t *dv_states;
} dif_verifier_t;

static int
dif_verr(dif_verifier_t *dv, int64_t pc, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (dv->dv_errlen == 0)
		return -1;
	if (pc >= 0)
		n = snprintf(dv->dv_err, dv->dv_errlen,
		    "DIF instruction %02" PRId64 ": ", pc);
	else
		n = snprintf(dv->dv_err, dv->dv_errlen, "invalid DIF: ");
	if (n < 0 || (size_t) n >= dv->dv_errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(dv->dv_err + n, dv->dv_errlen - n, fmt, ap);
	va_end(ap);
	return -1;
}

static int
dif_verify_type(dif_verifier_t *dv, const dif_type_t *t, const char *what)
{
	if (t->dt_kind != DIF_TYPE_CTF && t->dt_kind != DIF_TYPE_STRING)
		return dif_verr(dv, -1, "%s has unknown type kind %u", what,
		    t->dt_kind);
	if (t->dt_flags & ~(DIF_TF_BYREF | DIF_TF_SIGNED | DIF_TF_POINTER))
		return dif_verr(dv, -1, "%s has unknown type flags 0x%x", what,
		    t->dt_flags);
	if (t->dt_kind == DIF_TYPE_STRING && !(t->dt_flags & DIF_TF_BYREF))
		return dif_verr(dv, -1, "%s is a string not by reference",
		    what);
	if (t->dt_flags & DIF_TF_BYREF) {
		if (t->dt_size == 0 || t->dt_size > DIF_VERIFY_MAXREF)
			return dif_verr(dv, -1, "%s has by-reference size %"
			    PRIu32 " (1 to %u allowed)", what, t->dt_size,
			    DIF_VERIFY_MAXREF);
	} else if (t->dt_size != 0 && t->dt_size != 1 && t->dt_size != 2 &&
	    t->dt_size != 4 && t->dt_size != 8) {
		return dif_verr(dv, -1, "%s has by-value size %" PRIu32
		    " (0, 1, 2, 4 or 8 allowed)", what, t->dt_size);
	}
	return 0;
}

static int
dif_verify_tables(dif_verifier_t *dv)
{
	const dif_object_t *difo = dv->dv_difo;
	uint32_t i, j;
	char what[64];

	if (difo->dif_len == 0)
		return dif_verr(dv, -1, "the object has no instructions");
	if (difo->dif_len > DIF_INSTR_MAX)
		return dif_verr(dv, -1, "%" PRIu32 " instructions exceed the "
		    "limit of %d", difo->dif_len, DIF_INSTR_MAX);
	if (difo->dif_buf == NULL)
		return dif_verr(dv, -1, "the object has no instruction buffer");
	if (difo->dif_intlen > DIF_INTOFF_MAX + 1 ||
	    (difo->dif_intlen > 0 && difo->dif_inttab == NULL))
		return dif_verr(dv, -1, "the integer table is malformed");
	if (difo->dif_strlen > DIF_STROFF_MAX + 1 ||
	    (difo->dif_strlen > 0 && difo->dif_strtab == NULL))
		return dif_verr(dv, -1, "the string table is malformed");
	if (difo->dif_strlen > 0 &&
	    difo->dif_strtab[difo->dif_strlen - 1] != '\0')
		return dif_verr(dv, -1, "the string table does not end in NUL");
	if (difo->dif_varlen > 0 && difo->dif_vartab == NULL)
		return dif_verr(dv, -1, "the variable table is malformed");
	if (dif_verify_type(dv, &difo->dif_rtype, "the return value") != 0)
		return -1;

	for (i = 0; i < difo->dif_varlen; i++) {
		const dif_var_t *v = &difo->dif_vartab[i];

		snprintf(what, sizeof (what), "variable %" PRIu32 " (ID %"
		    PRIu32 ")", i, v->dv_id);
		if (v->dv_name >= difo->dif_strlen)
			return dif_verr(dv, -1, "%s has a name outside the "
			    "string table", what);
		if (v->dv_kind != DIFV_KIND_SCALAR &&
		    v->dv_kind != DIFV_KIND_ARRAY)
			return dif_verr(dv, -1, "%s has unknown kind %u", what,
			    v->dv_kind);
		if (v->dv_scope > DIFV_SCOPE_LOCAL)
			return dif_verr(dv, -1, "%s has unknown scope %u",
			    what, v->dv_scope);
		if (v->dv_id > DIF_VARIABLE_MAX)
			return dif_verr(dv, -1, "%s has an ID out of range",
			    what);
		if (v->dv_kind == DIFV_KIND_SCALAR &&
		    v->dv_id < DIF_VAR_OTHER_UBASE)
			return dif_verr(dv, -1, "%s: user scalars start at ID "
			    "%d", what, DIF_VAR_OTHER_UBASE);
		if (v->dv_kind == DIFV_KIND_ARRAY &&
		    v->dv_id < DIF_VAR_OTHER_UBASE &&
		    (v->dv_id < DIF_VAR_ARRAY_UBASE ||
		    v->dv_id > DIF_VAR_ARRAY_MAX))
			return dif_verr(dv, -1, "%s: user arrays have IDs "
			    "0x80-0xff or from %d", what, DIF_VAR_OTHER_UBASE);
		if (v->dv_scope == DIFV_SCOPE_LOCAL &&
		    v->dv_kind == DIFV_KIND_ARRAY)
			return dif_verr(dv, -1, "%s: clause-local variables "
			    "cannot be arrays", what);
		if (dif_verify_type(dv, &v->dv_type, what) != 0)
			return -1;
		for (j = 0; j < i; j++) {
			const dif_var_t *w = &difo->dif_vartab[j];

			if (w->dv_id == v->dv_id && w->dv_scope == v->dv_scope)
				return dif_verr(dv, -1, "%s appears twice in "
				    "the variable table", what);
		}
	}
	return 0;
}

/* The table entry for a user variable, or NULL. */
static const dif_var_t *
dif_verify_var(const dif_object_t *difo, uint32_t id, uint8_t scope)
{
	uint32_t i;

	for (i = 0; i < difo->dif_varlen; i++) {
		const dif_var_t *v = &difo->dif_vartab[i];

		if (v->dv_id == id && v->dv_scope == scope)
			return v;
	}
	return NULL;
}

/* Is id a built-in scalar the interpreter knows? */
static bool
dif_builtin_scalar(uint32_t id)
{
	return id >= DIF_VAR_OTHER_MIN && id < DIF_VAR_OTHER_UBASE &&
	    id != DIF_VAR_ARGS && dif_var_name(id) != NULL;
}

/* Checks the variable operand of a variable access at pc. */
static int
dif_verify_varop(dif_verifier_t *dv, uint32_t pc, uint32_t op, uint32_t id)
{
	const dif_object_t *difo = dv->dv_difo;
	const char *opname = dif_op_name(op);
	const dif_var_t *v;
	uint8_t scope, kind;
	bool store = false;

	switch (op) {
	case DIF_OP_STGS: case DIF_OP_STTS: case DIF_OP_STLS:
	case DIF_OP_STGAA: case DIF_OP_STTAA:
		store = true;
		break;
	default:
		break;
	}
	switch (op) {
	case DIF_OP_LDGS: case DIF_OP_STGS:
		scope = DIFV_SCOPE_GLOBAL;
		kind = DIFV_KIND_SCALAR;
		break;
	case DIF_OP_LDTS: case DIF_OP_STTS:
		scope = DIFV_SCOPE_THREAD;
		kind = DIFV_KIND_SCALAR;
		break;
	case DIF_OP_LDLS: case DIF_OP_STLS:
		scope = DIFV_SCOPE_LOCAL;
		kind = DIFV_KIND_SCALAR;
		break;
	case DIF_OP_LDGAA: case DIF_OP_STGAA:
		scope = DIFV_SCOPE_GLOBAL;
		kind = DIFV_KIND_ARRAY;
		break;
	default: /* LDTAA, STTAA */
		scope = DIFV_SCOPE_THREAD;
		kind = DIFV_KIND_ARRAY;
		break;
	}

	if (id < DIF_VAR_OTHER_UBASE && op == DIF_OP_LDGS) {
		if (!dif_builtin_scalar(id))
			return dif_verr(dv, pc, "%s of unknown built-in "
			    "variable %" PRIu32, opname, id);
		return 0;
	}
	if (id < DIF_VAR_OTHER_UBASE && store) {
		const char *name = dif_var_name(id);

		if (name != NULL)
			return dif_verr(dv, pc, "%s to read-only built-in "
			    "variable %s", opname, name);
		return dif_verr(dv, pc, "%s to reserved variable ID %" PRIu32,
		    opname, id);
	}
	if (kind == DIFV_KIND_ARRAY && id < DIF_VAR_OTHER_UBASE &&
	    (id < DIF_VAR_ARRAY_UBASE || id > DIF_VAR_ARRAY_MAX))
		return dif_verr(dv, pc, "%s of reserved variable ID %" PRIu32,
		    opname, id);
	if (kind == DIFV_KIND_SCALAR && id < DIF_VAR_OTHER_UBASE)
		return dif_verr(dv, pc, "%s of reserved variable ID %" PRIu32,
		    opname, id);
	if ((v = dif_verify_var(difo, id, scope)) == NULL)
		return dif_verr(dv, pc, "%s of variable %" PRIu32 " missing "
		    "from the variable table", opname, id);
	if (v->dv_kind != kind)
		return dif_verr(dv, pc, "%s of %s, which is %s", opname,
		    dif_var_tabname(difo, v),
		    v->dv_kind == DIFV_KIND_ARRAY ? "an array" : "a scalar");
	return 0;
}

/* Merges the state after pc into the state of successor next. */
static void
dif_flow(dif_verifier_t *dv, uint32_t next, const dif_vstate_t *out)
{
	dif_vstate_t *vs = &dv->dv_states[next];

	if (!vs->vs_reached) {
		*vs = *out;
		return;
	}
	vs->vs_regs &= out->vs_regs;
	vs->vs_cc = vs->vs_cc && out->vs_cc;
	if (out->vs_tmin < vs->vs_tmin)
		vs->vs_tmin = out->vs_tmin;
	if (out->vs_tmax > vs->vs_tmax)
		vs->vs_tmax = out->vs_tmax;
}

/* Register checks: valid number, written before read, never %r0. */
static int
dif_reg_ok(dif_verifier_t *dv, uint32_t pc, unsigned r)
{
	if (r >= DIF_DIR_NREGS)
		return dif_verr(dv, pc, "invalid register %%r%u", r);
	return 0;
}

static int
dif_reg_read(dif_verifier_t *dv, uint32_t pc, const dif_vstate_t *vs,
    unsigned r)
{
	if (dif_reg_ok(dv, pc, r) != 0)
		return -1;
	if (vs->vs_reached && !(vs->vs_regs & (1U << r)))
		return dif_verr(dv, pc, "%%r%u is read before it is written",
		    r);
	return 0;
}

static int
dif_reg_write(dif_verifier_t *dv, uint32_t pc, dif_vstate_t *vs, unsigned r)
{
	if (dif_reg_ok(dv, pc, r) != 0)
		return -1;
	if (r == 0)
		return dif_verr(dv, pc, "%%r0 cannot be written");
	vs->vs_regs |= (uint8_t) (1U << r);
	return 0;
}

static int
dif_verify_instr(dif_verifier_t *dv, uint32_t pc)
{
	const dif_object_t *difo = dv->dv_difo;
	dif_instr_t in = difo->dif_buf[pc];
	uint32_t op = DIF_INSTR_OP(in), x;
	unsigned r1 = DIF_INSTR_R1(in), r2 = DIF_INSTR_R2(in);
	unsigned rd = DIF_INSTR_RD(in);
	dif_vstate_t vs = dv->dv_states[pc];
	const char *name = dif_op_name(op);
	bool fallthrough = true;
	int nargs;

	switch (dif_op_format(op)) {
	case DIF_FMT_INVALID:
		return dif_verr(dv, pc, "invalid opcode %u", op);
	case DIF_FMT_NONE:
		if (op == DIF_OP_POPTS) {
			if (vs.vs_reached && vs.vs_tmax == 0)
				return dif_verr(dv, pc, "popts on an empty "
				    "tuple stack");
			vs.vs_tmin = vs.vs_tmin > 0 ? vs.vs_tmin - 1 : 0;
			vs.vs_tmax = vs.vs_tmax > 0 ? vs.vs_tmax - 1 : 0;
		} else if (op == DIF_OP_FLUSHTS) {
			vs.vs_tmin = vs.vs_tmax = 0;
		}
		break;
	case DIF_FMT_R1R2RD:
		if (dif_reg_read(dv, pc, &vs, r1) ||
		    dif_reg_read(dv, pc, &vs, r2) ||
		    dif_reg_write(dv, pc, &vs, rd))
			return -1;
		break;
	case DIF_FMT_COPYS:
		if (dif_reg_read(dv, pc, &vs, r1) ||
		    dif_reg_read(dv, pc, &vs, r2) ||
		    dif_reg_read(dv, pc, &vs, rd))
			return -1;
		break;
	case DIF_FMT_R1RD:
	case DIF_FMT_LOAD:
		if (dif_reg_read(dv, pc, &vs, r1) ||
		    dif_reg_write(dv, pc, &vs, rd))
			return -1;
		break;
	case DIF_FMT_R1R2:
		if (dif_reg_read(dv, pc, &vs, r1) ||
		    dif_reg_read(dv, pc, &vs, r2))
			return -1;
		vs.vs_cc = true;
		break;
	case DIF_FMT_R1:
		if (dif_reg_read(dv, pc, &vs, r1))
			return -1;
		vs.vs_cc = true;
		break;
	case DIF_FMT_BRANCH:
		x = DIF_INSTR_LABEL(in);
		if (x <= pc)
			return dif_verr(dv, pc, "branch to %02" PRIu32 " does "
			    "not go forward", x);
		if (x >= difo->dif_len)
			return dif_verr(dv, pc, "branch to %02" PRIu32 " is "
			    "past the last instruction", x);
		if (op != DIF_OP_BA && vs.vs_reached && !vs.vs_cc)
			return dif_verr(dv, pc, "%s with no comparison before "
			    "it", name);
		if (vs.vs_reached)
			dif_flow(dv, x, &vs);
		fallthrough = op != DIF_OP_BA;
		break;
	case DIF_FMT_STORE:
		if (dif_reg_read(dv, pc, &vs, r1) ||
		    dif_reg_read(dv, pc, &vs, rd))
			return -1;
		break;
	case DIF_FMT_SETX:
		x = DIF_INSTR_INTEGER(in);
		if (x >= difo->dif_intlen)
			return dif_verr(dv, pc, "integer table index %" PRIu32
			    " out of range (table has %" PRIu32 ")", x,
			    difo->dif_intlen);
		if (dif_reg_write(dv, pc, &vs, rd))
			return -1;
		break;
	case DIF_FMT_SETS:
		x = DIF_INSTR_STRING(in);
		if (x >= difo->dif_strlen)
			return dif_verr(dv, pc, "string table offset %" PRIu32
			    " out of range (table has %" PRIu32 " bytes)", x,
			    difo->dif_strlen);
		if (dif_reg_write(dv, pc, &vs, rd))
			return -1;
		break;
	case DIF_FMT_LDV:
		if (dif_verify_varop(dv, pc, op, DIF_INSTR_VAR(in)) ||
		    dif_reg_write(dv, pc, &vs, rd))
			return -1;
		break;
	case DIF_FMT_STV:
		if (dif_verify_varop(dv, pc, op, DIF_INSTR_VAR(in)) ||
		    dif_reg_read(dv, pc, &vs, rd))
			return -1;
		break;
	case DIF_FMT_LDA:
		if (op == DIF_OP_LDTA)
			return dif_verr(dv, pc, "ldta: thread-local arrays "
			    "are not supported");
		if (r1 != DIF_VAR_ARGS && r1 != DIF_VAR_REGS &&
		    r1 != DIF_VAR_UREGS)
			return dif_verr(dv, pc, "ldga of unknown built-in "
			    "array %u", r1);
		if (dif_reg_read(dv, pc, &vs, r2) ||
		    dif_reg_write(dv, pc, &vs, rd))
			return -1;
		break;
	case DIF_FMT_CALL:
		x = DIF_INSTR_SUBR(in);
		if (dif_subr_name(x) == NULL)
			return dif_verr(dv, pc, "call of unknown subroutine %"
			    PRIu32, x);
		if (vs.vs_reached && vs.vs_tmin == vs.vs_tmax) {
			nargs = vs.vs_tmin;
			if (nargs < dif_subr_minargs(x) ||
			    nargs > dif_subr_maxargs(x))
				return dif_verr(dv, pc, "%s() called with %d "
				    "argument%s (takes %d to %d)",
				    dif_subr_name(x), nargs,
				    nargs == 1 ? "" : "s",
				    dif_subr_minargs(x), dif_subr_maxargs(x));
		}
		if (dif_reg_write(dv, pc, &vs, rd))
			return -1;
		break;
	case DIF_FMT_PUSHTR:
	case DIF_FMT_PUSHTV:
		if (r1 != DIF_TYPE_CTF && r1 != DIF_TYPE_STRING)
			return dif_verr(dv, pc, "%s of unknown type %u", name,
			    r1);
		if (dif_reg_read(dv, pc, &vs, rd))
			return -1;
		if (op == DIF_OP_PUSHTR && dif_reg_read(dv, pc, &vs, r2))
			return -1;
		if (vs.vs_reached && vs.vs_tmin >= DIF_DTR_NREGS)
			return dif_verr(dv, pc, "%s overflows the tuple stack "
			    "(%d entries)", name, DIF_DTR_NREGS);
		vs.vs_tmin++;
		vs.vs_tmax++;
		if (vs.vs_tmax > DIF_DTR_NREGS)
			vs.vs_tmax = DIF_DTR_NREGS;
		break;
	case DIF_FMT_RET:
		if (dif_reg_read(dv, pc, &vs, rd))
			return -1;
		fallthrough = false;
		break;
	case DIF_FMT_XLATE:
		return dif_verr(dv, pc, "%s: translator references must be "
		    "resolved by the compiler", name);
	}
	if (fallthrough && vs.vs_reached) {
		if (pc + 1 >= difo->dif_len)
			return dif_verr(dv, pc, "execution falls off the end "
			    "(the last instruction must be ret)");
		dif_flow(dv, pc + 1, &vs);
	}
	return 0;
}

int
dif_verify(const dif_object_t *difo, char *errbuf, size_t errlen)
{
	dif_verifier_t dv;
	uint32_t pc;
	int rv = 0;

	memset(&dv, 0, sizeof (dv));
	dv.dv_difo = difo;
	dv.dv_err = errbuf;
	dv.dv_errlen = errlen;
	if (errlen > 0)
		errbuf[0] = '\0';
	if (difo == NULL)
		return dif_verr(&dv, -1, "no DIF object");
	if (dif_verify_tables(&dv) != 0)
		return -1;
	if (DIF_INSTR_OP(difo->dif_buf[difo->dif_len - 1]) != DIF_OP_RET)
		return dif_verr(&dv, difo->dif_len - 1, "the last instruction "
		    "must be ret");
	if ((dv.dv_states = calloc(difo->dif_len, sizeof (dif_vstate_t))) ==
	    NULL)
		return dif_verr(&dv, -1, "out of memory");
	dv.dv_states[0].vs_reached = true;
	dv.dv_states[0].vs_regs = 1;	/* %r0 */
	for (pc = 0; pc < difo->dif_len && rv == 0; pc++)
		rv = dif_verify_instr(&dv, pc);
	free(dv.dv_states);
	return rv;
}
