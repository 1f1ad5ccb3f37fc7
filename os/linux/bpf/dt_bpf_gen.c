/*
 * dt_bpf_gen.c: the DIF to eBPF translator -- layouts, programs, clauses
 * and DIF instructions (subroutines are in dt_bpf_subr.c).
 *
 * A program (see dt_bpf_gen.h for the maps) is:
 *
 *	prologue   find the scratch and state map values (r7, r8), turn
 *		   their addresses into numbers, stop if exit() has run,
 *		   fill the firing context: timestamp, probe ID and names,
 *		   the EPID of each clause, arguments, errno; clear
 *		   clause-locals
 *	clause j   skip unless it has an EPID on this probe; the predicate;
 *		   the record header; each action: its DIF inlined, its value
 *		   stored in the record or the aggregation updated; the
 *		   record to the ring buffer
 *		   stubs: one per place that can fault, noting the fault
 *		   (kind, address, DIF offset, action) for the handler
 *		   handler: a DT_EPID_FAULT record exactly as the interpreter
 *		   writes it; the errors counter; on to the next clause
 *	epilogue   return 0
 *
 * Each DIF object is inlined where it is used.  A forward pass first
 * finds which instructions are reachable (the kernel refuses unreachable
 * code) and the tuple-stack depth and entry types at each one, which are
 * static in DIF since branches only go forward: so the translator knows
 * at every call and associative-array access which arguments are strings.
 * Semantics follow common/dif/dif_interp.c instruction by instruction;
 * the comments say where BPF needs a different route to the same result.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dt_aggfunc.h"
#include "common/dif/dif.h"
#include "common/dif/dif_interp.h"
#include "os/linux/bpf/dt_bpf_gen.h"
#include "os/linux/bpf/dt_bpf_impl.h"
#include "os/linux/dt_ksyms.h"
#include "os/linux/dt_linux_features.h"

#define DT_BPF_DSCRATCH_MIN 8192

/*
 * Errors.
 */

void
dt_bpf_cg_error(dt_bpf_cg_t *cg, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (cg->cg_failed)
		return;
	cg->cg_failed = 1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof (msg), fmt, ap);
	va_end(ap);
	if (cg->cg_difo != NULL)
		snprintf(cg->cg_err, cg->cg_errlen,
		    "clause %u, %s, DIF instruction %u: %s",
		    (unsigned) cg->cg_clause + 1, cg->cg_action == 0 ?
		    "predicate" : "action", (unsigned) cg->cg_pc, msg);
	else
		snprintf(cg->cg_err, cg->cg_errlen, "clause %u: %s",
		    (unsigned) cg->cg_clause + 1, msg);
}

static int
dt_lay_error(char *errbuf, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(errbuf, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/*
 * Tuple-stack analysis: reachability, depth and entry types per pc.
 */

static int
dt_bpf_tuples(const dif_object_t *difo, dt_bpf_tstate_t *ts, char *errbuf,
    size_t errlen)
{
	for (uint32_t pc = 0; pc < difo->dif_len; pc++)
		ts[pc].ts_depth = -1;
	if (difo->dif_len == 0)
		return dt_lay_error(errbuf, errlen, "empty DIF object");
	ts[0].ts_depth = 0;
	memset(ts[0].ts_type, 0, sizeof (ts[0].ts_type));

	for (uint32_t pc = 0; pc < difo->dif_len; pc++) {
		dif_instr_t in = difo->dif_buf[pc];
		uint32_t op = DIF_INSTR_OP(in), x;
		dt_bpf_tstate_t next = ts[pc];
		bool fall = true;

		if (ts[pc].ts_depth < 0)
			continue;
		switch (op) {
		case DIF_OP_PUSHTR:
		case DIF_OP_PUSHTV:
			if (next.ts_depth < DIF_DTR_NREGS) {
				next.ts_type[next.ts_depth] =
				    op == DIF_OP_PUSHTV ? DT_TT_VALUE :
				    DIF_INSTR_TYPE(in) == DIF_TYPE_STRING ?
				    DT_TT_STRING : DT_TT_REF;
				next.ts_depth++;
			}
			break;
		case DIF_OP_POPTS:
			if (next.ts_depth > 0)
				next.ts_depth--;
			break;
		case DIF_OP_FLUSHTS:
			next.ts_depth = 0;
			break;
		case DIF_OP_RET:
			fall = false;
			break;
		default:
			break;
		}
		if (dif_op_format(op) == DIF_FMT_BRANCH) {
			x = DIF_INSTR_LABEL(in);
			if (x <= pc || x >= difo->dif_len)
				return dt_lay_error(errbuf, errlen,
				    "DIF instruction %u: bad branch target",
				    (unsigned) pc);
			if (ts[x].ts_depth < 0)
				ts[x] = next;
			else if (ts[x].ts_depth != next.ts_depth ||
			    memcmp(ts[x].ts_type, next.ts_type,
			    (size_t) next.ts_depth) != 0)
				return dt_lay_error(errbuf, errlen,
				    "DIF instruction %u: tuple stack differs "
				    "between paths", (unsigned) x);
			if (op == DIF_OP_BA)
				fall = false;
		}
		if (!fall)
			continue;
		if (pc + 1 >= difo->dif_len)
			return dt_lay_error(errbuf, errlen,
			    "DIF object does not end with ret");
		if (ts[pc + 1].ts_depth < 0)
			ts[pc + 1] = next;
		else if (ts[pc + 1].ts_depth != next.ts_depth ||
		    memcmp(ts[pc + 1].ts_type, next.ts_type,
		    (size_t) next.ts_depth) != 0)
			return dt_lay_error(errbuf, errlen,
			    "DIF instruction %u: tuple stack differs between "
			    "paths", (unsigned) pc + 1);
	}
	return 0;
}

/*
 * Layouts.
 */

void
dt_bpf_layout_init(dt_bpf_layout_t *lay, const dt_program_t *pgp,
    uint32_t strsize, uint64_t dynvarsize, uint64_t aggsize)
{
	memset(lay, 0, sizeof (*lay));
	lay->bl_prog = pgp;
	lay->bl_strsize = strsize < 2 ? 2 : strsize;
	lay->bl_dynvarsize = dynvarsize;
	lay->bl_aggsize = aggsize;
	lay->bl_state_fd = lay->bl_scratch_fd = lay->bl_rb_fd = -1;
	lay->bl_maxclauses = 1;
	/* Offset 0 stays unused, so no constant has address "base". */
	(void) dt_bpf_layout_const(lay, "");
	lay->bl_zonename = dt_bpf_layout_const(lay, "global");
}

void
dt_bpf_layout_fini(dt_bpf_layout_t *lay)
{
	free(lay->bl_consts);
	free(lay->bl_difc);
	free(lay->bl_vars);
	for (uint32_t i = 0; lay->bl_aggs != NULL && i < lay->bl_naggs; i++)
		free(lay->bl_aggs[i].ba_keys);
	free(lay->bl_aggs);
	for (uint32_t i = 0; lay->bl_keybound != NULL && lay->bl_prog != NULL &&
	    i < lay->bl_prog->pg_naggs; i++)
		free(lay->bl_keybound[i]);
	free(lay->bl_keybound);
	memset(lay, 0, sizeof (*lay));
}

static uint32_t
dt_bpf_layout_bytes(dt_bpf_layout_t *lay, const char *p, uint32_t len)
{
	uint32_t off;

	if (lay->bl_conslen + len > lay->bl_conscap) {
		uint32_t cap = lay->bl_conscap ? lay->bl_conscap : 1024;
		char *q;

		while (cap < lay->bl_conslen + len)
			cap *= 2;
		if ((q = realloc(lay->bl_consts, cap)) == NULL)
			return 0;
		lay->bl_consts = q;
		lay->bl_conscap = cap;
	}
	off = lay->bl_conslen;
	if (len > 0)
		memcpy(lay->bl_consts + off, p, len);
	lay->bl_conslen += len;
	return off;
}

uint32_t
dt_bpf_layout_const(dt_bpf_layout_t *lay, const char *s)
{
	/* Share identical strings (probe names repeat a lot). */
	size_t n = strlen(s) + 1;

	for (uint32_t off = 0; off + n <= lay->bl_conslen; off++) {
		if (memcmp(lay->bl_consts + off, s, n) == 0)
			return off;
	}
	return dt_bpf_layout_bytes(lay, s, (uint32_t) n);
}

static int
dt_bpf_layout_difo(dt_bpf_layout_t *lay, const dif_object_t *difo)
{
	dt_bpf_difconst_t *dc;

	for (uint32_t i = 0; i < lay->bl_ndifc; i++) {
		if (lay->bl_difc[i].dc_difo == difo)
			return 0;
	}
	if ((dc = realloc(lay->bl_difc, (lay->bl_ndifc + 1) *
	    sizeof (*dc))) == NULL)
		return -1;
	lay->bl_difc = dc;
	dc += lay->bl_ndifc++;
	dc->dc_difo = difo;
	/* A trailing NUL so a string at the very end still terminates. */
	dc->dc_off = dt_bpf_layout_bytes(lay, difo->dif_strtab,
	    difo->dif_strlen);
	(void) dt_bpf_layout_bytes(lay, "", 1);
	return 0;
}

const dt_bpf_var_t *
dt_bpf_layout_var(const dt_bpf_layout_t *lay, uint8_t scope, uint32_t id)
{
	for (uint32_t i = 0; i < lay->bl_nvars; i++) {
		if (lay->bl_vars[i].bv_scope == scope &&
		    lay->bl_vars[i].bv_id == id)
			return &lay->bl_vars[i];
	}
	return NULL;
}

static dt_bpf_var_t *
dt_bpf_layout_addvar(dt_bpf_layout_t *lay, const dif_var_t *v)
{
	dt_bpf_var_t *bv;

	if ((bv = (dt_bpf_var_t *) dt_bpf_layout_var(lay, v->dv_scope,
	    v->dv_id)) != NULL)
		return bv;
	if ((bv = realloc(lay->bl_vars, (lay->bl_nvars + 1) *
	    sizeof (*bv))) == NULL)
		return NULL;
	lay->bl_vars = bv;
	bv += lay->bl_nvars++;
	memset(bv, 0, sizeof (*bv));
	bv->bv_scope = v->dv_scope;
	bv->bv_kind = v->dv_kind;
	bv->bv_id = v->dv_id;
	bv->bv_byref = (v->dv_type.dt_flags & DIF_TF_BYREF) != 0;
	bv->bv_string = v->dv_type.dt_kind == DIF_TYPE_STRING;
	bv->bv_size = v->dv_type.dt_size;
	if (bv->bv_string) {
		bv->bv_byref = true;
		bv->bv_size = lay->bl_strsize;
	}
	if (bv->bv_byref && bv->bv_size == 0)
		bv->bv_size = 8;
	if (!bv->bv_byref)
		bv->bv_size = 8;
	bv->bv_size = (bv->bv_size + 7) & ~7U;
	bv->bv_keysize = 8;
	bv->bv_fd = -1;
	return bv;
}

/* Bytes a tuple entry takes in a dynamic variable's key. */
static uint32_t
dt_bpf_tupwidth(const dt_bpf_layout_t *lay, uint8_t type)
{
	return type == DT_TT_VALUE ? 8 : (lay->bl_strsize + 7) & ~7U;
}

static int
dt_bpf_layout_scan(dt_bpf_layout_t *lay, const dif_object_t *difo,
    char *errbuf, size_t errlen)
{
	dt_bpf_tstate_t *ts;

	if (difo == NULL)
		return 0;
	if (dt_bpf_layout_difo(lay, difo) != 0)
		return dt_lay_error(errbuf, errlen, "out of memory");
	for (uint32_t i = 0; i < difo->dif_varlen; i++) {
		const dif_var_t *v = &difo->dif_vartab[i];

		if ((v->dv_kind == DIFV_KIND_SCALAR &&
		    v->dv_id < DIF_VAR_OTHER_UBASE) ||
		    (v->dv_kind == DIFV_KIND_ARRAY &&
		    v->dv_id < DIF_VAR_ARRAY_UBASE))
			continue;	/* built-in */
		if (dt_bpf_layout_addvar(lay, v) == NULL)
			return dt_lay_error(errbuf, errlen, "out of memory");
	}
	if ((ts = calloc(difo->dif_len ? difo->dif_len : 1,
	    sizeof (*ts))) == NULL)
		return dt_lay_error(errbuf, errlen, "out of memory");
	if (dt_bpf_tuples(difo, ts, errbuf, errlen) != 0) {
		free(ts);
		return -1;
	}
	/* The key size of each associative array from its access sites. */
	for (uint32_t pc = 0; pc < difo->dif_len; pc++) {
		dif_instr_t in = difo->dif_buf[pc];
		uint32_t op = DIF_INSTR_OP(in), ksz = 8;
		dt_bpf_var_t *bv;
		uint8_t scope;

		if (ts[pc].ts_depth < 0)
			continue;
		switch (op) {
		case DIF_OP_LDGAA:
		case DIF_OP_STGAA:
			scope = DIFV_SCOPE_GLOBAL;
			break;
		case DIF_OP_LDTAA:
		case DIF_OP_STTAA:
			scope = DIFV_SCOPE_THREAD;
			break;
		default:
			continue;
		}
		bv = (dt_bpf_var_t *) dt_bpf_layout_var(lay, scope,
		    DIF_INSTR_VAR(in));
		if (bv == NULL)
			continue;	/* faults at run time, as in DIF */
		for (int i = 0; i < ts[pc].ts_depth; i++)
			ksz += dt_bpf_tupwidth(lay, ts[pc].ts_type[i]);
		if (ksz > bv->bv_keysize)
			bv->bv_keysize = ksz;
	}
	free(ts);
	return 0;
}

/*
 * The most bytes (NUL included, at most strsize) the string a DIF object
 * returns can take, or UINT32_MAX when the translator cannot tell.  A
 * forward pass over the registers (branches only go forward): execname
 * is at most 16 bytes, a string constant its own length; mov keeps a
 * bound, any other write to a register loses it.
 */
#define DT_BPF_NOBOUND UINT32_MAX

static void
dt_bpf_strbound_merge(uint32_t (*rb)[DIF_DIR_NREGS], bool *seen,
    uint32_t pc, const uint32_t *in)
{
	for (uint32_t r = 0; r < DIF_DIR_NREGS; r++) {
		if (!seen[pc] || in[r] > rb[pc][r])
			rb[pc][r] = in[r];
	}
	seen[pc] = true;
}

static uint32_t
dt_bpf_strbound(const dt_bpf_layout_t *lay, const dif_object_t *difo)
{
	uint32_t (*rb)[DIF_DIR_NREGS], ret = 0;
	bool *seen;

	if (difo == NULL || difo->dif_len == 0)
		return DT_BPF_NOBOUND;
	rb = calloc(difo->dif_len, sizeof (*rb));
	seen = calloc(difo->dif_len, sizeof (*seen));
	if (rb == NULL || seen == NULL) {
		free(rb);
		free(seen);
		return DT_BPF_NOBOUND;
	}
	for (uint32_t r = 0; r < DIF_DIR_NREGS; r++)
		rb[0][r] = DT_BPF_NOBOUND;	/* %r0 and the unset: NULL */
	seen[0] = true;
	for (uint32_t pc = 0; pc < difo->dif_len; pc++) {
		dif_instr_t in = difo->dif_buf[pc];
		uint32_t op = DIF_INSTR_OP(in), next[DIF_DIR_NREGS];
		uint32_t rd = DIF_INSTR_RD(in) & (DIF_DIR_NREGS - 1), v;
		bool fall = op != DIF_OP_RET && op != DIF_OP_BA;

		if (!seen[pc])
			continue;
		memcpy(next, rb[pc], sizeof (next));
		switch (dif_op_format(op)) {
		case DIF_FMT_R1R2RD:
		case DIF_FMT_R1RD:
		case DIF_FMT_LOAD:
		case DIF_FMT_SETX:
		case DIF_FMT_SETS:
		case DIF_FMT_LDV:
		case DIF_FMT_LDA:
		case DIF_FMT_CALL:
		case DIF_FMT_COPYS:
		case DIF_FMT_XLATE:
			v = DT_BPF_NOBOUND;
			if (op == DIF_OP_MOV)
				v = rb[pc][DIF_INSTR_R1(in) &
				    (DIF_DIR_NREGS - 1)];
			else if (op == DIF_OP_LDGS &&
			    DIF_INSTR_VAR(in) == DIF_VAR_EXECNAME)
				v = 16;
			else if (op == DIF_OP_SETS &&
			    DIF_INSTR_STRING(in) < difo->dif_strlen)
				v = (uint32_t) strnlen(difo->dif_strtab +
				    DIF_INSTR_STRING(in), difo->dif_strlen -
				    DIF_INSTR_STRING(in)) + 1;
			if (v != DT_BPF_NOBOUND && v > lay->bl_strsize)
				v = lay->bl_strsize;
			if (rd != 0)
				next[rd] = v;
			break;
		case DIF_FMT_RET:
			if (rb[pc][rd] > ret)
				ret = rb[pc][rd];
			break;
		case DIF_FMT_BRANCH:
			if (DIF_INSTR_LABEL(in) > pc &&
			    DIF_INSTR_LABEL(in) < difo->dif_len)
				dt_bpf_strbound_merge(rb, seen,
				    DIF_INSTR_LABEL(in), next);
			break;
		default:
			break;
		}
		if (fall && pc + 1 < difo->dif_len)
			dt_bpf_strbound_merge(rb, seen, pc + 1, next);
	}
	free(rb);
	free(seen);
	return ret == 0 ? DT_BPF_NOBOUND : ret;
}

/* Notes each string key's bound for the aggregation ap updates. */
static int
dt_bpf_layout_keybound(dt_bpf_layout_t *lay, const dt_action_t *ap)
{
	const dt_program_t *pgp = lay->bl_prog;
	const dt_aggdesc_t *agg;
	uint32_t *kb;

	if (pgp == NULL || ap->ac_aggid >= pgp->pg_naggs)
		return 0;	/* refused when the clause is generated */
	agg = &pgp->pg_aggs[ap->ac_aggid];
	if (lay->bl_keybound == NULL && (lay->bl_keybound =
	    calloc(pgp->pg_naggs, sizeof (*lay->bl_keybound))) == NULL)
		return -1;
	if ((kb = lay->bl_keybound[ap->ac_aggid]) == NULL) {
		if ((kb = calloc(agg->ag_nkeys + 1, sizeof (*kb))) == NULL)
			return -1;
		lay->bl_keybound[ap->ac_aggid] = kb;
	}
	for (uint32_t k = 0; k < agg->ag_nkeys; k++) {
		uint32_t b = DT_BPF_NOBOUND;

		if (k < ap->ac_nkeys &&
		    agg->ag_keys[k].rd_type == DT_REC_STRING)
			b = dt_bpf_strbound(lay, ap->ac_keys[k]);
		if (b > kb[k])
			kb[k] = b;
	}
	return 0;
}

int
dt_bpf_layout_add_stmt(dt_bpf_layout_t *lay, const dt_stmt_t *stp,
    char *errbuf, size_t errlen)
{
	if (dt_bpf_layout_scan(lay, stp->st_pred, errbuf, errlen) != 0)
		return -1;
	if (stp->st_size > lay->bl_maxrec)
		lay->bl_maxrec = stp->st_size;
	for (uint32_t a = 0; a < stp->st_nactions; a++) {
		const dt_action_t *ap = &stp->st_actions[a];

		for (uint32_t i = 0; i < ap->ac_nargs; i++) {
			if (dt_bpf_layout_scan(lay, ap->ac_args[i].aa_difo,
			    errbuf, errlen) != 0)
				return -1;
		}
		for (uint32_t k = 0; k < ap->ac_nkeys; k++) {
			if (dt_bpf_layout_scan(lay, ap->ac_keys[k], errbuf,
			    errlen) != 0)
				return -1;
		}
		if (ap->ac_kind == DT_ACT_AGGREGATE &&
		    dt_bpf_layout_keybound(lay, ap) != 0)
			return dt_lay_error(errbuf, errlen, "out of memory");
	}
	return 0;
}

/*
 * The map key layout of aggregation i: ag_keys, with each bounded string
 * key shrunk to its bound and the keys placed again at their alignment.
 */
static int
dt_bpf_layout_aggkeys(dt_bpf_layout_t *lay, uint32_t i, dt_bpf_aggmap_t *ba)
{
	const dt_aggdesc_t *agg = ba->ba_agg;
	const uint32_t *kb = lay->bl_keybound != NULL ?
	    lay->bl_keybound[i] : NULL;
	uint32_t off = 0;

	ba->ba_keysize = agg->ag_keysize;
	if (agg->ag_nkeys == 0)
		return 0;
	if ((ba->ba_keys = calloc(agg->ag_nkeys, sizeof (*ba->ba_keys))) ==
	    NULL)
		return -1;
	memcpy(ba->ba_keys, agg->ag_keys, agg->ag_nkeys *
	    sizeof (*ba->ba_keys));
	for (uint32_t k = 0; kb != NULL && k < agg->ag_nkeys; k++) {
		if (kb[k] != 0 && kb[k] < agg->ag_keys[k].rd_size)
			ba->ba_compact = true;
	}
	if (!ba->ba_compact)
		return 0;
	for (uint32_t k = 0; k < agg->ag_nkeys; k++) {
		dt_recdesc_t *rd = &ba->ba_keys[k];
		uint32_t align = rd->rd_align ? rd->rd_align : 1;

		if (rd->rd_type == DT_REC_NONE)
			continue;
		if (kb[k] != 0 && kb[k] < rd->rd_size)
			rd->rd_size = kb[k];
		off = (off + align - 1) & ~(align - 1);
		rd->rd_offset = off;
		off += rd->rd_size;
	}
	ba->ba_keysize = off;
	return 0;
}

int
dt_bpf_layout_finish(dt_bpf_layout_t *lay, char *errbuf, size_t errlen)
{
	const dt_program_t *pgp = lay->bl_prog;
	uint32_t off, ss = (lay->bl_strsize + 7) & ~7U;

	/* Aggregations: one map each. */
	if (pgp != NULL && pgp->pg_naggs > 0) {
		if ((lay->bl_aggs = calloc(pgp->pg_naggs,
		    sizeof (*lay->bl_aggs))) == NULL)
			return dt_lay_error(errbuf, errlen, "out of memory");
		lay->bl_naggs = pgp->pg_naggs;
	}
	for (uint32_t i = 0; i < lay->bl_naggs; i++) {
		dt_bpf_aggmap_t *ba = &lay->bl_aggs[i];
		const dt_aggdesc_t *agg = &pgp->pg_aggs[i];
		uint64_t need;

		ba->ba_agg = agg;
		ba->ba_fd = -1;
		if (dt_bpf_layout_aggkeys(lay, i, ba) != 0)
			return dt_lay_error(errbuf, errlen, "out of memory");
		ba->ba_keysize = (ba->ba_keysize + 7) & ~7U;
		if (ba->ba_keysize == 0)
			ba->ba_keysize = 8;
		ba->ba_valsize = (agg->ag_nvals + 1) * 8;
		if (ba->ba_valsize > 32768 - 8)
			return dt_lay_error(errbuf, errlen,
			    "aggregation @%s: %u buckets are too many for the "
			    "bpf engine", agg->ag_name, agg->ag_nvals);
		/* As the interpreter charges each entry against aggsize. */
		need = 32 + ba->ba_keysize + ba->ba_valsize;
		ba->ba_maxent = (uint32_t) (lay->bl_aggsize / need);
		if (ba->ba_maxent < 16)
			ba->ba_maxent = 16;
		if (ba->ba_maxent > (1U << 20))
			ba->ba_maxent = 1U << 20;
		if (ba->ba_keysize > lay->bl_maxaggkey)
			lay->bl_maxaggkey = ba->ba_keysize;
		if (ba->ba_valsize > lay->bl_maxaggval)
			lay->bl_maxaggval = ba->ba_valsize;
	}

	/* State map: consts, zeros, counters, globals. */
	off = (lay->bl_conslen + 7) & ~7U;
	lay->bl_dscratch_size = DT_BPF_DSCRATCH_MIN;
	if (lay->bl_dscratch_size < 8 * ss)
		lay->bl_dscratch_size = 8 * ss;
	lay->bl_zero_off = off;
	lay->bl_zero_size = lay->bl_dscratch_size;
	off += lay->bl_zero_size;
	lay->bl_cnt_off = off;
	off += DT_BPF_CNT_NWORDS * 8;
	lay->bl_globals_off = off;
	for (uint32_t i = 0; i < lay->bl_nvars; i++) {
		dt_bpf_var_t *bv = &lay->bl_vars[i];

		if (bv->bv_scope != DIFV_SCOPE_GLOBAL ||
		    bv->bv_kind != DIFV_KIND_SCALAR)
			continue;
		/* By reference: a NULL flag word, then the bytes. */
		bv->bv_off = off;
		off += bv->bv_byref ? 8 + bv->bv_size : 8;
	}
	lay->bl_globals_size = off - lay->bl_globals_off;
	lay->bl_spec_off = off;
	off += 16 * lay->bl_nspec;
	lay->bl_cpudrops_off = off;
	off += 16 * lay->bl_ncpus;
	lay->bl_state_size = off;

	/* Dynamic variables. */
	for (uint32_t i = 0; i < lay->bl_nvars; i++) {
		dt_bpf_var_t *bv = &lay->bl_vars[i];
		uint64_t n;

		if (bv->bv_scope == DIFV_SCOPE_LOCAL ||
		    (bv->bv_scope == DIFV_SCOPE_GLOBAL &&
		    bv->bv_kind == DIFV_KIND_SCALAR))
			continue;
		n = lay->bl_dynvarsize / (bv->bv_keysize + bv->bv_size + 64);
		bv->bv_maxent = n < 16 ? 16 : n > (1U << 22) ? 1U << 22 :
		    (uint32_t) n;
		if (bv->bv_keysize > lay->bl_maxdynkey)
			lay->bl_maxdynkey = bv->bv_keysize;
		if (bv->bv_size > lay->bl_maxdynval)
			lay->bl_maxdynval = bv->bv_size;
	}

	/* Scratch map: context, epids, tuples, buffers, locals, dscratch. */
	off = DT_SC_HDRSIZE;
	lay->bl_epids_off = off;
	off += ((lay->bl_maxclauses * 4) + 7) & ~7U;
	/* Next to the context, so a small key shares its cache lines. */
	lay->bl_aggkey_off = off;
	off += lay->bl_maxaggkey + 8;
	lay->bl_tuple_off = off;
	off += 16 * DIF_DTR_NREGS;
	/* lltostr() builds its digits in 72 bytes of work buffer 0. */
	lay->bl_worksize = ss + 8 < 80 ? 80 : ss + 8;
	lay->bl_work_off = off;
	off += DT_BPF_NWORK * lay->bl_worksize;
	lay->bl_strbuf_off = off;
	off += ss;
	lay->bl_dynkey_off = off;
	off += (lay->bl_maxdynkey + 7) & ~7U;
	lay->bl_dynval_off = off;
	off += (lay->bl_maxdynval + 7) & ~7U;
	lay->bl_aggval_off = off;
	off += lay->bl_maxaggval + 8;
	lay->bl_rec_off = off;
	off += DT_BPF_RECPREFIX + sizeof (dt_rechdr_t) +
	    (lay->bl_maxrec > sizeof (dt_faultrec_t) ? lay->bl_maxrec :
	    sizeof (dt_faultrec_t));
	off = (off + 7) & ~7U;
	lay->bl_esave_off = off;
	off += DT_SC_FKIND - DT_SC_TS;
	lay->bl_locals_size = 0;
	for (uint32_t i = 0; i < lay->bl_nvars; i++) {
		dt_bpf_var_t *bv = &lay->bl_vars[i];

		if (bv->bv_scope == DIFV_SCOPE_LOCAL)
			lay->bl_locals_size += bv->bv_byref ?
			    8 + bv->bv_size : 8;
	}
	lay->bl_lsave_off = off;
	off += lay->bl_locals_size;
	lay->bl_kstack_off = off;
	off += 8 * DT_BPF_KSTACK_MAX;
	lay->bl_locals_off = off;
	for (uint32_t i = 0; i < lay->bl_nvars; i++) {
		dt_bpf_var_t *bv = &lay->bl_vars[i];

		if (bv->bv_scope != DIFV_SCOPE_LOCAL)
			continue;
		bv->bv_off = off;
		off += bv->bv_byref ? 8 + bv->bv_size : 8;
	}
	lay->bl_dscratch_off = off;
	off += lay->bl_dscratch_size;
	/* The guard: helpers may be told to write up to dscratch_size past
	 * a bounded offset, which the verifier checks against the value. */
	off += lay->bl_dscratch_size;
	lay->bl_scratch_size = off;
	if (lay->bl_scratch_size > 32768 * 16)
		return dt_lay_error(errbuf, errlen,
		    "the program needs %u bytes of scratch per CPU, too many "
		    "for the bpf engine (lower strsize)",
		    (unsigned) lay->bl_scratch_size);
	return 0;
}

size_t
dt_bpf_ptab_size(uint32_t nclauses)
{
	return sizeof (dt_bpf_ptab_t) + ((nclauses * 4 + 7) & ~7U);
}

/*
 * Small emitters.
 */

void
dt_bpf_cg_ldreg(dt_bpf_cg_t *cg, int breg, unsigned dreg)
{
	dreg &= DIF_DIR_NREGS - 1;
	if (dreg == 0)
		DT_EMIT(cg, DT_BPF_MOV64_IMM(breg, 0));
	else
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, breg, DT_FP,
		    DT_FP_REG(dreg)));
}

void
dt_bpf_cg_streg(dt_bpf_cg_t *cg, unsigned dreg, int breg)
{
	dreg &= DIF_DIR_NREGS - 1;
	if (dreg != 0)
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, breg,
		    DT_FP_REG(dreg)));
}

void
dt_bpf_cg_saddr(dt_bpf_cg_t *cg, int breg, uint32_t off)
{
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, breg, DT_R7, DT_SC_SBASE));
	if (off != 0)
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, breg, (int32_t) off));
}

void
dt_bpf_cg_gaddr(dt_bpf_cg_t *cg, int breg, uint32_t off)
{
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, breg, DT_R7, DT_SC_GBASE));
	if (off != 0)
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, breg, (int32_t) off));
}

void
dt_bpf_cg_ptr2num(dt_bpf_cg_t *cg, int breg)
{
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, breg, DT_SC_LEAK));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, breg, DT_R7, DT_SC_LEAK));
}

/*
 * r1 = the firing's timestamp, read from the clock the first time a
 * firing needs it (a record header, a fault, timestamp): most clauses
 * that only aggregate never pay for the clock.  Clobbers r0-r5.
 */
void
dt_bpf_cg_timestamp(dt_bpf_cg_t *cg)
{
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_TS));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JNE, DT_R1, 0, 3));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_ktime_get_ns));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R0, DT_SC_TS));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
}

void
dt_bpf_cg_counter(dt_bpf_cg_t *cg, int which)
{
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 1));
	DT_EMIT(cg, DT_BPF_INSN(BPF_STX | BPF_DW | DT_BPF_ATOMIC, DT_R8, DT_R1,
	    (int16_t) (cg->cg_lay->bl_cnt_off + 8 * which), BPF_ADD));
}

void
dt_bpf_cg_zero(dt_bpf_cg_t *cg, uint32_t off, uint32_t len)
{
	len = (len + 7) & ~7U;
	if (len <= 128) {
		for (uint32_t i = 0; i < len; i += 8)
			DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7,
			    (int16_t) (off + i), 0));
		return;
	}
	/* One copy from the zero block of the state map. */
	while (len > 0) {
		uint32_t n = len > cg->cg_lay->bl_zero_size ?
		    cg->cg_lay->bl_zero_size : len;

		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, (int32_t) off));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, (int32_t) n));
		dt_bpf_cg_gaddr(cg, DT_R3, cg->cg_lay->bl_zero_off);
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_kernel));
		off += n;
		len -= n;
	}
}

/*
 * Faults.  Each place that can fault jumps to a stub placed after the
 * clause's code; the stub notes the fault and goes to the handler.
 */

typedef struct dt_bpf_cg_stub {
	uint32_t st_label;
	int st_kind;
	int st_addr_dreg;	/* DIF register with the address, or -1 */
	int st_addr_slot;	/* stack slot with it, or 0 */
	int32_t st_offset;	/* DIF offset, or -1 */
	uint32_t st_action;
} dt_bpf_cg_stub_t;

typedef struct dt_bpf_cg_stubs {
	dt_bpf_cg_stub_t *ss_v;
	uint32_t ss_n;
	uint32_t ss_cap;
} dt_bpf_cg_stubs_t;

static void
dt_bpf_cg_add_stub(dt_bpf_cg_t *cg, uint32_t label, int kind, int dreg, int slot,
    int32_t offset)
{
	dt_bpf_cg_stubs_t *ss = cg->cg_stubs;
	dt_bpf_cg_stub_t *st;

	if (ss->ss_n == ss->ss_cap) {
		uint32_t cap = ss->ss_cap ? ss->ss_cap * 2 : 32;

		if ((st = realloc(ss->ss_v, cap * sizeof (*st))) == NULL) {
			dt_bpf_cg_error(cg, "out of memory");
			return;
		}
		ss->ss_v = st;
		ss->ss_cap = cap;
	}
	st = &ss->ss_v[ss->ss_n++];
	st->st_label = label;
	st->st_kind = kind;
	st->st_addr_dreg = dreg;
	st->st_addr_slot = slot;
	st->st_offset = offset;
	st->st_action = cg->cg_action;
}

static int32_t
dt_bpf_cg_offset(const dt_bpf_cg_t *cg)
{
	return cg->cg_difo != NULL ? (int32_t) (cg->cg_pc * 4) : -1;
}

void
dt_bpf_cg_fault_if(dt_bpf_cg_t *cg, int op, int breg, int32_t imm, int kind,
    int addr_dreg)
{
	uint32_t l = dt_bpf_label_new(cg->cg_b);

	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(op, breg, imm, 0), l);
	dt_bpf_cg_add_stub(cg, l, kind, addr_dreg, 0, dt_bpf_cg_offset(cg));
}

void
dt_bpf_cg_fault_if_slot(dt_bpf_cg_t *cg, int op, int breg, int32_t imm, int kind,
    int addr_slot)
{
	uint32_t l = dt_bpf_label_new(cg->cg_b);

	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(op, breg, imm, 0), l);
	dt_bpf_cg_add_stub(cg, l, kind, -1, addr_slot, dt_bpf_cg_offset(cg));
}

void
dt_bpf_cg_fault(dt_bpf_cg_t *cg, int kind, int addr_slot)
{
	uint32_t l = dt_bpf_label_new(cg->cg_b);

	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), l);
	dt_bpf_cg_add_stub(cg, l, kind, -1, addr_slot, dt_bpf_cg_offset(cg));
}

static void
dt_bpf_cg_emit_stubs(dt_bpf_cg_t *cg)
{
	dt_bpf_cg_stubs_t *ss = cg->cg_stubs;

	for (uint32_t i = 0; i < ss->ss_n; i++) {
		const dt_bpf_cg_stub_t *st = &ss->ss_v[i];

		dt_bpf_label_here(cg->cg_b, st->st_label);
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_SC_FKIND,
		    st->st_kind));
		if (st->st_addr_dreg >= 0) {
			dt_bpf_cg_ldreg(cg, DT_R1, (unsigned) st->st_addr_dreg);
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
			    DT_SC_FADDR));
		} else if (st->st_addr_slot != 0) {
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP,
			    st->st_addr_slot));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
			    DT_SC_FADDR));
		} else {
			DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_SC_FADDR,
			    0));
		}
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_SC_FOFF,
		    st->st_offset));
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_SC_FACT,
		    (int32_t) st->st_action));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), cg->cg_lfault);
	}
	ss->ss_n = 0;
}

/*
 * Memory access.
 */

/* Loads size bytes at the address in breg (r3) into T0 via a helper. */
static void
dt_bpf_cg_load(dt_bpf_cg_t *cg, unsigned r1, unsigned rd, int size, bool sgn,
    bool user)
{
	static const int bsz[] = { 0, BPF_B, BPF_H, 0, BPF_W, 0, 0, 0, BPF_DW };

	dt_bpf_cg_ldreg(cg, DT_R3, r1);
	if (size > 1) {
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R3));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R1, size - 1));
		dt_bpf_cg_fault_if(cg, BPF_JNE, DT_R1, 0, DIF_FLT_BADALIGN,
		    (int) r1);
	}
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_T0, 0));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_FP));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, DT_FP_T0));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, size));
	DT_EMIT(cg, DT_BPF_CALL(user ? BPF_FUNC_probe_read_user :
	    BPF_FUNC_probe_read_kernel));
	dt_bpf_cg_fault_if(cg, BPF_JNE, DT_R0, 0, DIF_FLT_BADADDR, (int) r1);
	DT_EMIT(cg, DT_BPF_LDX_MEM(bsz[size], DT_R1, DT_FP, DT_FP_T0));
	if (sgn && size < 8) {
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R1, 64 - 8 * size));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ARSH, DT_R1, 64 - 8 * size));
	}
	dt_bpf_cg_streg(cg, rd, DT_R1);
}

/*
 * A pointer (into r5) to len writable bytes at the address in r3, or a
 * fault: DIF may write to its scratch and clause-locals (in the scratch
 * map) and to global variables (in the state map), as in the interpreter.
 * len is a constant, or a bounded register (lenreg >= 0, value <= maxlen).
 * r4 is clobbered; r3 and lenreg are kept.
 */
static void
dt_bpf_cg_wptr(dt_bpf_cg_t *cg, int lenreg, uint32_t len, uint32_t maxlen,
    int fault_dreg, int fault_slot)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	uint32_t lglob = dt_bpf_label_new(cg->cg_b);
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);
	uint32_t lbad = dt_bpf_label_new(cg->cg_b);
	uint32_t span = lay->bl_locals_size + lay->bl_dscratch_size;
	uint32_t gspan = lay->bl_globals_size;

	if (lenreg < 0)
		maxlen = len;
	/* off = addr - (scratch base + locals); off + len <= span */
	dt_bpf_cg_saddr(cg, DT_R4, lay->bl_locals_off);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R5, DT_R3));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R5, DT_R4));
	if (maxlen > span) {
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lglob);
	} else {
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGT, DT_R5,
		    (int32_t) (span - maxlen), 0), lglob);
		if (lenreg >= 0) {
			DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R4, DT_R5));
			DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R4, lenreg));
			dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGT,
			    DT_R4, (int32_t) span, 0), lbad);
		}
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R5, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R5,
		    (int32_t) lay->bl_locals_off));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
	}
	dt_bpf_label_here(cg->cg_b, lglob);
	if (maxlen > gspan || gspan == 0) {
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lbad);
	} else {
		dt_bpf_cg_gaddr(cg, DT_R4, lay->bl_globals_off);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R5, DT_R3));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R5, DT_R4));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGT, DT_R5,
		    (int32_t) (gspan - maxlen), 0), lbad);
		if (lenreg >= 0) {
			DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R4, DT_R5));
			DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R4, lenreg));
			dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGT,
			    DT_R4, (int32_t) gspan, 0), lbad);
		}
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R5, DT_R8));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R5,
		    (int32_t) lay->bl_globals_off));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
	}
	dt_bpf_label_here(cg->cg_b, lbad);
	if (fault_dreg >= 0) {
		uint32_t l = dt_bpf_label_new(cg->cg_b);

		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), l);
		dt_bpf_cg_add_stub(cg, l, DIF_FLT_BADADDR, fault_dreg, 0,
		    dt_bpf_cg_offset(cg));
	} else {
		dt_bpf_cg_fault(cg, DIF_FLT_BADADDR, fault_slot);
	}
	dt_bpf_label_here(cg->cg_b, ldone);
}

static void
dt_bpf_cg_store(dt_bpf_cg_t *cg, unsigned r1, unsigned rd, int size)
{
	static const int bsz[] = { 0, BPF_B, BPF_H, 0, BPF_W, 0, 0, 0, BPF_DW };

	dt_bpf_cg_ldreg(cg, DT_R3, rd);
	if (size > 1) {
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R3));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R1, size - 1));
		dt_bpf_cg_fault_if(cg, BPF_JNE, DT_R1, 0, DIF_FLT_BADALIGN,
		    (int) rd);
	}
	dt_bpf_cg_wptr(cg, -1, (uint32_t) size, 0, (int) rd, 0);
	dt_bpf_cg_ldreg(cg, DT_R1, r1);
	DT_EMIT(cg, DT_BPF_STX_MEM(bsz[size], DT_R5, DT_R1, 0));
}

void
dt_bpf_cg_dsptr(dt_bpf_cg_t *cg, int breg, int offslot)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;

	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, breg, DT_FP, offslot));
	/* Re-bound it: the verifier must see offset <= dscratch size. */
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLE, breg,
	    (int32_t) lay->bl_dscratch_size, 1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(breg, 0));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, breg, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, breg,
	    (int32_t) lay->bl_dscratch_off));
}

void
dt_bpf_cg_alloc(dt_bpf_cg_t *cg, int sizeslot, uint32_t size, int offslot)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	uint32_t ds = lay->bl_dscratch_size;

	/* used = (used + 7) & ~7; size <= ds && used <= ds - size */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_USED));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R1, -8));
	if (sizeslot != 0)
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, sizeslot));
	else
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, (int32_t) size));
	dt_bpf_cg_fault_if(cg, BPF_JGT, DT_R2, (int32_t) ds, DIF_FLT_NOSCRATCH,
	    -1);
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R3, (int32_t) ds));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R3, DT_R2));
	{
		uint32_t l = dt_bpf_label_new(cg->cg_b);

		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JGT, DT_R1,
		    DT_R3, 0), l);
		dt_bpf_cg_add_stub(cg, l, DIF_FLT_NOSCRATCH, -1, 0,
		    dt_bpf_cg_offset(cg));
	}
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, offslot));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R1));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R3, DT_R2));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R3, DT_SC_USED));
	/* Zero it: copy size bytes of the state map's zero block. */
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R2, DT_FP_T4));
	dt_bpf_cg_dsptr(cg, DT_R1, offslot);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, DT_FP_T4));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLE, DT_R2, (int32_t) ds, 1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, 0));
	dt_bpf_cg_gaddr(cg, DT_R3, lay->bl_zero_off);
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_kernel));
}

/*
 * Variables.
 */

/* rd = address of a by-reference static (r8 or r7 + off), or NULL. */
static void
dt_bpf_cg_ldsvar(dt_bpf_cg_t *cg, const dt_bpf_var_t *bv, unsigned rd)
{
	int base = bv->bv_scope == DIFV_SCOPE_LOCAL ? DT_R7 : DT_R8;

	if (!bv->bv_byref) {
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, base,
		    (int16_t) bv->bv_off));
		dt_bpf_cg_streg(cg, rd, DT_R1);
		return;
	}
	/* The flag word says NULL; the bytes follow it. */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, base, (int16_t) bv->bv_off));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JNE, DT_R2, 0, 2));
	if (base == DT_R7)
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_SBASE));
	else
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_GBASE));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, (int32_t) bv->bv_off +
	    8));
	dt_bpf_cg_streg(cg, rd, DT_R1);
}

/* Copies the value at the address in slot T0 into size bytes at
 * base + off (a string when str). */
static void
dt_bpf_cg_copyval(dt_bpf_cg_t *cg, int base, uint32_t off, uint32_t size,
    bool str)
{
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, base));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, (int32_t) off));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, (int32_t) size));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_FP, DT_FP_T0));
	DT_EMIT(cg, DT_BPF_CALL(str ? BPF_FUNC_probe_read_kernel_str :
	    BPF_FUNC_probe_read_kernel));
	dt_bpf_cg_fault_if_slot(cg, BPF_JSLT, DT_R0, 0, DIF_FLT_BADADDR, DT_FP_T0);
}

static void
dt_bpf_cg_stsvar(dt_bpf_cg_t *cg, const dt_bpf_var_t *bv, unsigned rs)
{
	int base = bv->bv_scope == DIFV_SCOPE_LOCAL ? DT_R7 : DT_R8;
	uint32_t lnull = dt_bpf_label_new(cg->cg_b);
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);

	dt_bpf_cg_ldreg(cg, DT_R1, rs);
	if (!bv->bv_byref) {
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, base, DT_R1,
		    (int16_t) bv->bv_off));
		return;
	}
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 0, 0),
	    lnull);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T0));
	dt_bpf_cg_copyval(cg, base, bv->bv_off + 8, bv->bv_size, bv->bv_string);
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, base, (int16_t) bv->bv_off, 0));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
	dt_bpf_label_here(cg->cg_b, lnull);
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, base, (int16_t) bv->bv_off, 1));
	dt_bpf_label_here(cg->cg_b, ldone);
}

/*
 * The key of a dynamic variable in the dynkey buffer: the thread key
 * (tid for self->, 0 for global arrays) and the tuple entries, strings
 * and other by-reference values copied in at strsize bytes each.
 */
static void
dt_bpf_cg_dynkey(dt_bpf_cg_t *cg, const dt_bpf_var_t *bv, bool array)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	const dt_bpf_tstate_t *ts = &cg->cg_tstate[cg->cg_pc];
	uint32_t off = 8;

	dt_bpf_cg_zero(cg, lay->bl_dynkey_off, bv->bv_keysize);
	if (bv->bv_scope == DIFV_SCOPE_THREAD) {
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_pid_tgid));
		DT_EMIT(cg, DT_BPF_INSN(BPF_ALU | BPF_MOV | BPF_X, DT_R0,
		    DT_R0, 0, 0));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R0,
		    (int16_t) lay->bl_dynkey_off));
	}
	for (int i = 0; array && i < ts->ts_depth; i++) {
		uint32_t w = dt_bpf_tupwidth(lay, ts->ts_type[i]);

		if (off + w > bv->bv_keysize) {
			dt_bpf_cg_error(cg, "associative array key larger than "
			    "planned");
			return;
		}
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R7,
		    (int16_t) (lay->bl_tuple_off + DT_TUP_VAL(i))));
		if (ts->ts_type[i] == DT_TT_VALUE) {
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R3,
			    (int16_t) (lay->bl_dynkey_off + off)));
			off += w;
			continue;
		}
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R3, DT_FP_T4));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1,
		    (int32_t) (lay->bl_dynkey_off + off)));
		if (ts->ts_type[i] == DT_TT_STRING) {
			DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2,
			    (int32_t) lay->bl_strsize));
			DT_EMIT(cg,
			    DT_BPF_CALL(BPF_FUNC_probe_read_kernel_str));
		} else {
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7,
			    (int16_t) (lay->bl_tuple_off + DT_TUP_SIZE(i))));
			dt_bpf_cg_fault_if(cg, BPF_JGT, DT_R2,
			    (int32_t) lay->bl_strsize, DIF_FLT_ILLOP, -1);
			DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_kernel));
		}
		dt_bpf_cg_fault_if_slot(cg, BPF_JSLT, DT_R0, 0, DIF_FLT_BADADDR,
		    DT_FP_T4);
		off += w;
	}
}

/* r0 = lookup(map, dynkey) */
static void
dt_bpf_cg_dynlookup(dt_bpf_cg_t *cg, const dt_bpf_var_t *bv)
{
	dt_bpf_emit_map_fd(cg->cg_b, DT_R1, bv->bv_fd);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2,
	    (int32_t) cg->cg_lay->bl_dynkey_off));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_map_lookup_elem));
}

static void
dt_bpf_cg_lddvar(dt_bpf_cg_t *cg, uint8_t scope, uint32_t id, bool array,
    unsigned rd)
{
	const dt_bpf_var_t *bv = dt_bpf_layout_var(cg->cg_lay, scope, id);
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);

	if (bv == NULL || bv->bv_fd < 0) {
		dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
		return;
	}
	dt_bpf_cg_dynkey(cg, bv, array);
	dt_bpf_cg_dynlookup(cg, bv);
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R0, 0, 0),
	    ldone);
	if (bv->bv_byref) {
		dt_bpf_cg_ptr2num(cg, DT_R0);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
	} else {
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R0, 0));
	}
	dt_bpf_label_here(cg->cg_b, ldone);
	dt_bpf_cg_streg(cg, rd, DT_R1);
}

static void
dt_bpf_cg_stdvar(dt_bpf_cg_t *cg, uint8_t scope, uint32_t id, bool array,
    unsigned rs)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	const dt_bpf_var_t *bv = dt_bpf_layout_var(lay, scope, id);
	uint32_t ldel = dt_bpf_label_new(cg->cg_b);
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);

	if (bv == NULL || bv->bv_fd < 0) {
		dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
		return;
	}
	dt_bpf_cg_dynkey(cg, bv, array);
	dt_bpf_cg_ldreg(cg, DT_R1, rs);
	/* Assigning zero deletes the variable. */
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 0, 0), ldel);
	if (bv->bv_byref) {
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T0));
		dt_bpf_cg_zero(cg, lay->bl_dynval_off, bv->bv_size);
		dt_bpf_cg_copyval(cg, DT_R7, lay->bl_dynval_off, bv->bv_size,
		    bv->bv_string);
	} else {
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
		    (int16_t) lay->bl_dynval_off));
	}
	dt_bpf_emit_map_fd(cg->cg_b, DT_R1, bv->bv_fd);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2,
	    (int32_t) lay->bl_dynkey_off));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R3,
	    (int32_t) lay->bl_dynval_off));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, BPF_ANY));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_map_update_elem));
	/* A full map drops the store, counted as DTrace's dynvar drops. */
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R0, 0, 0), ldone);
	dt_bpf_cg_counter(cg, DT_BPF_CNT_DYNDROPS);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
	dt_bpf_label_here(cg->cg_b, ldel);
	dt_bpf_emit_map_fd(cg->cg_b, DT_R1, bv->bv_fd);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2,
	    (int32_t) lay->bl_dynkey_off));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_map_delete_elem));
	dt_bpf_label_here(cg->cg_b, ldone);
}

/*
 * Stacks.  bpf_get_stack() walks from the registers of the program's
 * context: for a profile probe, those of the interrupted code, so the
 * first frame is arg0; for a syscall tracepoint, registers taken inside
 * the tracepoint's glue, whose frames are ours rather than the traced
 * code's.  Which glue functions show depends on the kernel and even on
 * the moment: a tracepoint with one callback makes a static call straight
 * to it (perf_syscall_enter), with more it goes through its iterator
 * (__traceiter_sys_enter), and a call in tail position leaves no frame.
 * So the leading frames are compared at run time with the glue
 * functions' address ranges, read from kallsyms, and those that match are
 * skipped: the first frame is then the probe site (syscall_trace_enter,
 * syscall_exit_work).  BEGIN, END and ERROR run in a test run on our own
 * behalf: like DTrace's probes fired from its own process, they have no
 * kernel stack.
 */
static const char *const dt_bpf_glue_names[] = {
	"__traceiter_sys_enter", "__traceiter_sys_exit",
	"perf_syscall_enter", "perf_syscall_exit",
	"perf_trace_sys_enter", "perf_trace_sys_exit",
	"perf_trace_run_bpf_submit", "trace_call_bpf",
	"__bpf_trace_sys_enter", "__bpf_trace_sys_exit", "bpf_trace_run2",
};
#define DT_BPF_NGLUE (sizeof (dt_bpf_glue_names) / sizeof (char *))
#define DT_BPF_GLUE_FRAMES 4 /* leading frames that may be glue */

static struct {
	uint64_t start, end;
} dt_bpf_glue[DT_BPF_NGLUE];
static uint32_t dt_bpf_nglue;
static pthread_once_t dt_bpf_glue_once = PTHREAD_ONCE_INIT;

static void
dt_bpf_glue_init(void)
{
	const dt_ksyms_t *ks = dt_linux_ksyms();

	for (size_t i = 0; ks != NULL && i < DT_BPF_NGLUE; i++) {
		if (dt_ksyms_range(ks, dt_bpf_glue_names[i],
			&dt_bpf_glue[dt_bpf_nglue].start,
			&dt_bpf_glue[dt_bpf_nglue].end) == 0)
			dt_bpf_nglue++;
	}
}

static bool
dt_bpf_cg_has_kstack(const dt_bpf_cg_t *cg)
{
	return cg->cg_ps->ps_ctx != DT_BPF_CTX_RAWTP;
}

/* r4 = the number of leading glue frames (r0-r5 clobbered). */
static void
dt_bpf_cg_glue_skip(dt_bpf_cg_t *cg)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);

	(void) pthread_once(&dt_bpf_glue_once, dt_bpf_glue_init);
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, 0));
	if (dt_bpf_nglue == 0)
		return;
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R6));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2,
	    (int32_t) lay->bl_kstack_off));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R3, 8 * DT_BPF_GLUE_FRAMES));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_stack));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, 0));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R5, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R5,
	    (int32_t) lay->bl_kstack_off));
	for (int i = 0; i < DT_BPF_GLUE_FRAMES; i++) {
		uint32_t lglue = dt_bpf_label_new(cg->cg_b);

		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R5,
		    (int16_t) (8 * i)));
		for (uint32_t g = 0; g < dt_bpf_nglue; g++) {
			dt_bpf_emit_imm64(cg->cg_b, DT_R2, dt_bpf_glue[g].start);
			DT_EMIT(cg, DT_BPF_JMP_REG(BPF_JLT, DT_R1, DT_R2, 3));
			dt_bpf_emit_imm64(cg->cg_b, DT_R2, dt_bpf_glue[g].end);
			dt_bpf_jmp_label(cg->cg_b,
			    DT_BPF_JMP_REG(BPF_JLT, DT_R1, DT_R2, 0), lglue);
		}
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
		dt_bpf_label_here(cg->cg_b, lglue);
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, i + 1));
	}
	dt_bpf_label_here(cg->cg_b, ldone);
}

/*
 * The user stack: bpf_get_stack() walks the frame pointers from the
 * current one, so at a function's first instruction (a pid entry probe,
 * before the function has pushed a frame) it misses the caller, whose
 * return address is still on top of the stack; so it does at a return
 * site, where the frame is gone again.  There, as DTrace does at entry,
 * the frames are the probe site, the word at the stack pointer, then the
 * walk from the caller's frame.  r0 as for dt_bpf_cg_getstack().
 */
static void
dt_bpf_cg_getustack(dt_bpf_cg_t *cg, uint32_t off, uint32_t size)
{
	bool entry = cg->cg_ps->ps_uatret && size >= 16;

	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R6));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2,
	    (int32_t) (entry ? off + 8 : off)));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R3, (int32_t) (entry ? size - 8 :
	    size)));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, BPF_F_USER_STACK));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_stack));
	if (!entry)
		return;
#if defined(__x86_64__)
	uint32_t lbad = dt_bpf_label_new(cg->cg_b);
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);

	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JSLE, DT_R0, 0, 0),
	    lbad);
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R0, 8));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R0, DT_FP_T4));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, (int32_t) off));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R1, 8));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R1, DT_R2, 0));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 8));
	/* The word at pt_regs.sp */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R6, 152));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, 8));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_user));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R0, DT_FP, DT_FP_T4));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
	/* No stack at all: the kernel zeroed all but the first slot. */
	dt_bpf_label_here(cg->cg_b, lbad);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, (int32_t) off));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R1, 0, 0));
	dt_bpf_label_here(cg->cg_b, ldone);
#else
	dt_bpf_cg_error(cg, "user stacks at pid entry probes need this "
	    "architecture's register layout");
#endif
}

/*
 * uregs[]: DTrace's register numbers (R_EIP, R_RAX, ...: the D prelude
 * defines them as illumos numbers them on amd64, the 32-bit names first)
 * as offsets in x86-64's struct pt_regs; -1 for what Linux does not keep
 * there (segment registers but cs and ss, trap number, error code),
 * which reads as 0.
 */
#if defined(__x86_64__)
static const int16_t dt_bpf_uregs_off[] = {
	/* gs fs es ds edi esi ebp esp ebx edx ecx eax trapno err */
	-1, -1, -1, -1, 112, 104, 32, 152, 40, 96, 88, 80, -1, -1,
	/* eip cs efl uesp ss */
	128, 136, 144, 152, 160,
	/* r15 r14 r13 r12 r11 r10 r9 r8 rdi rsi rbp rbx rdx rcx rax */
	0, 8, 16, 24, 48, 56, 64, 72, 112, 104, 32, 40, 96, 88, 80,
	/* trapno err rip cs rfl rsp ss fs gs es ds fsbase gsbase */
	-1, -1, 128, 136, 144, 152, 160, -1, -1, -1, -1, -1, -1,
};
#endif

/*
 * uregs[r2] into rd.  The user registers are the uprobe's context, or
 * elsewhere the current task's saved ones (task_pt_regs()); an index
 * past the table faults as an illegal operation, as in DTrace.
 */
static void
dt_bpf_cg_uregs(dt_bpf_cg_t *cg, unsigned r2, unsigned rd)
{
#if defined(__x86_64__)
	dt_bpf_ctxkind_t ctx = cg->cg_ps->ps_ctx;
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);
	size_t n = sizeof (dt_bpf_uregs_off) / sizeof (dt_bpf_uregs_off[0]);

	if (ctx == DT_BPF_CTX_UPROBE || ctx == DT_BPF_CTX_URETURN) {
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R6));
	} else {
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_task_btf));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_task_pt_regs));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R0));
	}
	dt_bpf_cg_ldreg(cg, DT_R2, r2);
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
	for (size_t i = 0; i < n; i++) {
		int16_t o = dt_bpf_uregs_off[i];

		if (o < 0)
			continue;
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JNE, DT_R2, (int32_t) i, 2));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R3, o));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
	}
	dt_bpf_cg_fault_if(cg, BPF_JGE, DT_R2, (int32_t) n, DIF_FLT_ILLOP,
	    -1);
	dt_bpf_label_here(cg->cg_b, ldone);
	dt_bpf_cg_streg(cg, rd, DT_R1);
#else
	(void) r2;
	(void) rd;
	dt_bpf_cg_error(cg, "uregs[] needs this architecture's register "
	    "layout");
#endif
}

/*
 * r0 = bytes of frames written to r7 + off (size bytes, the rest zeroed
 * by the kernel); a context without a kernel stack writes nothing and
 * gives 0.
 */
static void
dt_bpf_cg_getstack(dt_bpf_cg_t *cg, uint32_t off, uint32_t size, bool user)
{
	dt_bpf_ctxkind_t ctx = cg->cg_ps->ps_ctx;

	if (!user && !dt_bpf_cg_has_kstack(cg)) {
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R0, 0));
		return;
	}
	if (user) {
		dt_bpf_cg_getustack(cg, off, size);
		return;
	}
	if (ctx == DT_BPF_CTX_SYSCALL_ENTRY ||
	    ctx == DT_BPF_CTX_SYSCALL_RETURN)
		dt_bpf_cg_glue_skip(cg);
	else
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, 0));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R6));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, (int32_t) off));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R3, (int32_t) size));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_stack));
}

/*
 * Built-in variables.
 */

/* r1 = size bytes read at (r3 + off); 0 when the read fails. */
void
dt_bpf_cg_kread(dt_bpf_cg_t *cg, uint32_t off, int size)
{
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R3, (int32_t) off));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_T0, 0));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_FP));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, DT_FP_T0));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, size));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_kernel));
	DT_EMIT(cg, DT_BPF_LDX_MEM(size == 4 ? BPF_W : BPF_DW, DT_R1, DT_FP,
	    DT_FP_T0));
}

/*
 * ppid (curthread->real_parent->tgid) and vtimestamp (the thread's
 * on-CPU time as the scheduler accounts it, se.sum_exec_runtime), at
 * offsets from the kernel's BTF.  Returns -1 after an error.
 */
static int
dt_bpf_cg_task(dt_bpf_cg_t *cg, uint32_t id)
{
	const dt_linux_task_offs_t *lt = dt_linux_task_offs();

	if (!lt->lt_ok) {
		dt_bpf_cg_error(cg, "built-in variable %s is not supported by "
		    "the bpf engine here: %s", dif_var_name(id), lt->lt_why);
		return -1;
	}
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_task));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R0));
	if (id == DIF_VAR_VTIMESTAMP) {
		dt_bpf_cg_kread(cg, lt->lt_exec_runtime, 8);
		return 0;
	}
	dt_bpf_cg_kread(cg, lt->lt_real_parent, 8);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R1));
	dt_bpf_cg_kread(cg, lt->lt_tgid, 4);
	return 0;
}

static void
dt_bpf_cg_builtin(dt_bpf_cg_t *cg, uint32_t id, unsigned rd)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;

	switch (id) {
	case DIF_VAR_ARG0: case DIF_VAR_ARG1: case DIF_VAR_ARG2:
	case DIF_VAR_ARG3: case DIF_VAR_ARG4: case DIF_VAR_ARG5:
	case DIF_VAR_ARG6: case DIF_VAR_ARG7: case DIF_VAR_ARG8:
	case DIF_VAR_ARG9:
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7,
		    (int16_t) (DT_SC_ARGS + 8 * (id - DIF_VAR_ARG0))));
		break;
	case DIF_VAR_EPID:
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_EPID));
		break;
	case DIF_VAR_ID:
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_ID));
		break;
	case DIF_VAR_TIMESTAMP:
		dt_bpf_cg_timestamp(cg);
		break;
	case DIF_VAR_WALLTIMESTAMP:
		dt_bpf_cg_timestamp(cg);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R8,
		    (int16_t) (lay->bl_cnt_off + 8 * DT_BPF_CNT_WALLOFF)));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R2));
		break;
	/* Constants of the program but a group's probefunc. */
	/* Constants of the program's probe, or of ERROR in its clauses. */
	case DIF_VAR_PROBEPROV:
		dt_bpf_cg_gaddr(cg, DT_R1, cg->cg_in_error ?
		    cg->cg_ps->ps_err_prov : cg->cg_ps->ps_prov);
		break;
	case DIF_VAR_PROBEMOD:
		dt_bpf_cg_gaddr(cg, DT_R1, cg->cg_in_error ?
		    cg->cg_ps->ps_err_mod : cg->cg_ps->ps_mod);
		break;
	case DIF_VAR_PROBEFUNC:
		if (cg->cg_in_error)
			dt_bpf_cg_gaddr(cg, DT_R1, cg->cg_ps->ps_err_func);
		else if (cg->cg_ps->ps_table_fd >= 0)
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7,
			    DT_SC_FUNC));
		else
			dt_bpf_cg_gaddr(cg, DT_R1, cg->cg_ps->ps_func);
		break;
	case DIF_VAR_PROBENAME:
		dt_bpf_cg_gaddr(cg, DT_R1, cg->cg_in_error ?
		    cg->cg_ps->ps_err_name : cg->cg_ps->ps_name);
		break;
	case DIF_VAR_ZONENAME:
		dt_bpf_cg_gaddr(cg, DT_R1, lay->bl_zonename);
		break;
	case DIF_VAR_ERRNO:
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_ERRNO));
		break;
	case DIF_VAR_PID:
	case DIF_VAR_TID:
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_pid_tgid));
		if (id == DIF_VAR_PID)
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R0, 32));
		else
			DT_EMIT(cg, DT_BPF_INSN(BPF_ALU | BPF_MOV | BPF_X,
			    DT_R0, DT_R0, 0, 0));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
		break;
	case DIF_VAR_UID:
	case DIF_VAR_GID:
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_uid_gid));
		if (id == DIF_VAR_GID)
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R0, 32));
		else
			DT_EMIT(cg, DT_BPF_INSN(BPF_ALU | BPF_MOV | BPF_X,
			    DT_R0, DT_R0, 0, 0));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
		break;
	case DIF_VAR_CPU:
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_smp_processor_id));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
		break;
	case DIF_VAR_CURTHREAD:
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_task));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
		break;
	case DIF_VAR_EXECNAME:
		/* comm, zero-padded to its 16 bytes, in the strbuf slot */
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1,
		    (int32_t) lay->bl_strbuf_off));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, lay->bl_strsize < 16 ?
		    (int32_t) lay->bl_strsize : 16));
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_comm));
		dt_bpf_cg_saddr(cg, DT_R1, lay->bl_strbuf_off);
		break;
	case DIF_VAR_PPID:
	case DIF_VAR_VTIMESTAMP:
		if (dt_bpf_cg_task(cg, id) != 0)
			return;
		break;
	case DIF_VAR_STACKDEPTH:
		/* The frames stack() would record, were it unbounded. */
		dt_bpf_cg_getstack(cg, lay->bl_kstack_off,
		    8 * DT_BPF_KSTACK_MAX, false);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JSGE, DT_R1, 0, 1));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R1, 3));
		break;
	case DIF_VAR_CALLER:
		/* The frame after the probe site's; 0 when there is none. */
		if (!dt_bpf_cg_has_kstack(cg)) {
			DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
			break;
		}
		dt_bpf_cg_getstack(cg, lay->bl_kstack_off, 16, false);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1,
		    (int32_t) lay->bl_kstack_off));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R1, 8));
		break;
	case DIF_VAR_USTACKDEPTH:
		/* The frames ustack() would record (the scratch is shared). */
		dt_bpf_cg_getstack(cg, lay->bl_kstack_off,
		    8 * DT_BPF_KSTACK_MAX, true);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JSGE, DT_R1, 0, 1));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R1, 3));
		break;
	case DIF_VAR_UCALLER:
		/* The user frame after the probe site's; 0 when none. */
		dt_bpf_cg_getstack(cg, lay->bl_kstack_off, 16, true);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1,
		    (int32_t) lay->bl_kstack_off));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R1, 8));
		break;
	case DIF_VAR_IPL:
	case DIF_VAR_CURCPU:
		/* What the interpreter engine answers for these. */
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
		break;
	default:
		dt_bpf_cg_error(cg, "built-in variable %s is not supported by "
		    "the bpf engine", dif_var_name(id) ? dif_var_name(id) :
		    "?");
		return;
	}
	dt_bpf_cg_streg(cg, rd, DT_R1);
}

/*
 * Instructions.
 */

static uint32_t
dt_bpf_cg_plabel(dt_bpf_cg_t *cg, uint32_t pc)
{
	if (cg->cg_plabels[pc] == UINT32_MAX)
		cg->cg_plabels[pc] = dt_bpf_label_new(cg->cg_b);
	return cg->cg_plabels[pc];
}

static void
dt_bpf_cg_divide(dt_bpf_cg_t *cg, uint32_t op, unsigned r1, unsigned r2,
    unsigned rd)
{
	bool sgn = op == DIF_OP_SDIV || op == DIF_OP_SREM;
	bool rem = op == DIF_OP_SREM || op == DIF_OP_UREM;

	dt_bpf_cg_ldreg(cg, DT_R1, r1);
	dt_bpf_cg_ldreg(cg, DT_R2, r2);
	dt_bpf_cg_fault_if(cg, BPF_JEQ, DT_R2, 0, DIF_FLT_DIVZERO, -1);
	if (!sgn) {
		DT_EMIT(cg, DT_BPF_ALU64_REG(rem ? BPF_MOD : BPF_DIV, DT_R1,
		    DT_R2));
		dt_bpf_cg_streg(cg, rd, DT_R1);
		return;
	}
	/*
	 * Signed division from unsigned: divide the magnitudes, then fix
	 * the sign (the quotient's is the XOR of the operands', the
	 * remainder's the dividend's).  INT64_MIN / -1 comes out as
	 * INT64_MIN with remainder 0, as the interpreter defines it.
	 */
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R5, 0));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JSGE, DT_R1, 0, 2));
	DT_EMIT(cg, DT_BPF_NEG64(DT_R1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R5, 1));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JSGE, DT_R2, 0, 2));
	DT_EMIT(cg, DT_BPF_NEG64(DT_R2));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_XOR, DT_R5, rem ? 0 : 1));
	DT_EMIT(cg, DT_BPF_ALU64_REG(rem ? BPF_MOD : BPF_DIV, DT_R1, DT_R2));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JEQ, DT_R5, 0, 1));
	DT_EMIT(cg, DT_BPF_NEG64(DT_R1));
	dt_bpf_cg_streg(cg, rd, DT_R1);
}

static void
dt_bpf_cg_instr(dt_bpf_cg_t *cg, dif_instr_t in, uint32_t lend)
{
	const dif_object_t *difo = cg->cg_difo;
	const dt_bpf_layout_t *lay = cg->cg_lay;
	uint32_t op = DIF_INSTR_OP(in), x;
	unsigned r1 = DIF_INSTR_R1(in), r2 = DIF_INSTR_R2(in);
	unsigned rd = DIF_INSTR_RD(in);
	static const int alu[] = {
		[DIF_OP_OR] = BPF_OR, [DIF_OP_XOR] = BPF_XOR,
		[DIF_OP_AND] = BPF_AND, [DIF_OP_SLL] = BPF_LSH,
		[DIF_OP_SRL] = BPF_RSH, [DIF_OP_SUB] = BPF_SUB,
		[DIF_OP_ADD] = BPF_ADD, [DIF_OP_MUL] = BPF_MUL,
		[DIF_OP_SRA] = BPF_ARSH,
	};
	static const int jmp[] = {
		[DIF_OP_BE] = BPF_JEQ, [DIF_OP_BNE] = BPF_JNE,
		[DIF_OP_BG] = BPF_JSGT, [DIF_OP_BGU] = BPF_JGT,
		[DIF_OP_BGE] = BPF_JSGE, [DIF_OP_BGEU] = BPF_JGE,
		[DIF_OP_BL] = BPF_JSLT, [DIF_OP_BLU] = BPF_JLT,
		[DIF_OP_BLE] = BPF_JSLE, [DIF_OP_BLEU] = BPF_JLE,
	};

	switch (op) {
	case DIF_OP_OR: case DIF_OP_XOR: case DIF_OP_AND:
	case DIF_OP_SUB: case DIF_OP_ADD: case DIF_OP_MUL:
	case DIF_OP_SLL: case DIF_OP_SRL: case DIF_OP_SRA:
		dt_bpf_cg_ldreg(cg, DT_R1, r1);
		dt_bpf_cg_ldreg(cg, DT_R2, r2);
		if (op == DIF_OP_SLL || op == DIF_OP_SRL || op == DIF_OP_SRA)
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R2, 63));
		DT_EMIT(cg, DT_BPF_ALU64_REG(alu[op], DT_R1, DT_R2));
		dt_bpf_cg_streg(cg, rd, DT_R1);
		break;
	case DIF_OP_SDIV: case DIF_OP_SREM:
	case DIF_OP_UDIV: case DIF_OP_UREM:
		dt_bpf_cg_divide(cg, op, r1, r2, rd);
		break;
	case DIF_OP_NOT:
		dt_bpf_cg_ldreg(cg, DT_R1, r1);
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_XOR, DT_R1, -1));
		dt_bpf_cg_streg(cg, rd, DT_R1);
		break;
	case DIF_OP_MOV:
		dt_bpf_cg_ldreg(cg, DT_R1, r1);
		dt_bpf_cg_streg(cg, rd, DT_R1);
		break;
	case DIF_OP_CMP:
		dt_bpf_cg_ldreg(cg, DT_R1, r1);
		dt_bpf_cg_ldreg(cg, DT_R2, r2);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_CCA));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R2, DT_FP_CCB));
		break;
	case DIF_OP_TST:
		dt_bpf_cg_ldreg(cg, DT_R1, r1);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_CCA));
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_CCB, 0));
		break;
	case DIF_OP_SCMP:
		dt_bpf_cg_scmp(cg, r1, r2);
		break;
	case DIF_OP_BA:
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0),
		    dt_bpf_cg_plabel(cg, DIF_INSTR_LABEL(in)));
		break;
	case DIF_OP_BE: case DIF_OP_BNE: case DIF_OP_BG: case DIF_OP_BGU:
	case DIF_OP_BGE: case DIF_OP_BGEU: case DIF_OP_BL: case DIF_OP_BLU:
	case DIF_OP_BLE: case DIF_OP_BLEU:
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_CCA));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, DT_FP_CCB));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(jmp[op], DT_R1,
		    DT_R2, 0), dt_bpf_cg_plabel(cg, DIF_INSTR_LABEL(in)));
		break;
	case DIF_OP_LDSB: case DIF_OP_RLDSB:
		dt_bpf_cg_load(cg, r1, rd, 1, true, false);
		break;
	case DIF_OP_LDSH: case DIF_OP_RLDSH:
		dt_bpf_cg_load(cg, r1, rd, 2, true, false);
		break;
	case DIF_OP_LDSW: case DIF_OP_RLDSW:
		dt_bpf_cg_load(cg, r1, rd, 4, true, false);
		break;
	case DIF_OP_LDUB: case DIF_OP_RLDUB:
		dt_bpf_cg_load(cg, r1, rd, 1, false, false);
		break;
	case DIF_OP_LDUH: case DIF_OP_RLDUH:
		dt_bpf_cg_load(cg, r1, rd, 2, false, false);
		break;
	case DIF_OP_LDUW: case DIF_OP_RLDUW:
		dt_bpf_cg_load(cg, r1, rd, 4, false, false);
		break;
	case DIF_OP_LDX: case DIF_OP_RLDX:
		dt_bpf_cg_load(cg, r1, rd, 8, false, false);
		break;
	case DIF_OP_ULDSB:
		dt_bpf_cg_load(cg, r1, rd, 1, true, true);
		break;
	case DIF_OP_ULDSH:
		dt_bpf_cg_load(cg, r1, rd, 2, true, true);
		break;
	case DIF_OP_ULDSW:
		dt_bpf_cg_load(cg, r1, rd, 4, true, true);
		break;
	case DIF_OP_ULDUB:
		dt_bpf_cg_load(cg, r1, rd, 1, false, true);
		break;
	case DIF_OP_ULDUH:
		dt_bpf_cg_load(cg, r1, rd, 2, false, true);
		break;
	case DIF_OP_ULDUW:
		dt_bpf_cg_load(cg, r1, rd, 4, false, true);
		break;
	case DIF_OP_ULDX:
		dt_bpf_cg_load(cg, r1, rd, 8, false, true);
		break;
	case DIF_OP_STB:
		dt_bpf_cg_store(cg, r1, rd, 1);
		break;
	case DIF_OP_STH:
		dt_bpf_cg_store(cg, r1, rd, 2);
		break;
	case DIF_OP_STW:
		dt_bpf_cg_store(cg, r1, rd, 4);
		break;
	case DIF_OP_STX:
		dt_bpf_cg_store(cg, r1, rd, 8);
		break;
	case DIF_OP_RET:
		dt_bpf_cg_ldreg(cg, DT_R0, rd);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lend);
		break;
	case DIF_OP_NOP:
		break;
	case DIF_OP_SETX:
		if ((x = DIF_INSTR_INTEGER(in)) >= difo->dif_intlen) {
			dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
			break;
		}
		dt_bpf_emit_imm64(cg->cg_b, DT_R1,
		    (uint64_t) difo->dif_inttab[x]);
		dt_bpf_cg_streg(cg, rd, DT_R1);
		break;
	case DIF_OP_SETS:
		if ((x = DIF_INSTR_STRING(in)) >= difo->dif_strlen) {
			dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
			break;
		}
		dt_bpf_cg_gaddr(cg, DT_R1, cg->cg_strtab + x);
		dt_bpf_cg_streg(cg, rd, DT_R1);
		break;
	case DIF_OP_LDGA:
		if (r1 == DIF_VAR_UREGS) {
			dt_bpf_cg_uregs(cg, r2, rd);
			break;
		}
		if (r1 != DIF_VAR_ARGS) {
			dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
			break;
		}
		dt_bpf_cg_ldreg(cg, DT_R1, r2);
		dt_bpf_cg_fault_if(cg, BPF_JGE, DT_R1, DT_BPF_NARGS, DIF_FLT_ILLOP,
		    -1);
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R1, 3));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R7));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R1, DT_SC_ARGS));
		dt_bpf_cg_streg(cg, rd, DT_R1);
		break;
	case DIF_OP_LDGS:
		x = DIF_INSTR_VAR(in);
		if (x < DIF_VAR_OTHER_UBASE) {
			dt_bpf_cg_builtin(cg, x, rd);
			break;
		}
		/* FALLTHROUGH */
	case DIF_OP_LDLS: {
		uint8_t scope = op == DIF_OP_LDLS ? DIFV_SCOPE_LOCAL :
		    DIFV_SCOPE_GLOBAL;
		const dt_bpf_var_t *bv = dt_bpf_layout_var(lay, scope,
		    DIF_INSTR_VAR(in));

		if (bv == NULL)
			dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
		else
			dt_bpf_cg_ldsvar(cg, bv, rd);
		break;
	}
	case DIF_OP_STGS:
	case DIF_OP_STLS: {
		uint8_t scope = op == DIF_OP_STLS ? DIFV_SCOPE_LOCAL :
		    DIFV_SCOPE_GLOBAL;
		const dt_bpf_var_t *bv;

		x = DIF_INSTR_VAR(in);
		if (op == DIF_OP_STGS && x < DIF_VAR_OTHER_UBASE) {
			dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
			break;
		}
		if ((bv = dt_bpf_layout_var(lay, scope, x)) == NULL)
			dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
		else
			dt_bpf_cg_stsvar(cg, bv, rd);
		break;
	}
	case DIF_OP_LDTS:
		dt_bpf_cg_lddvar(cg, DIFV_SCOPE_THREAD, DIF_INSTR_VAR(in), false,
		    rd);
		break;
	case DIF_OP_STTS:
		dt_bpf_cg_stdvar(cg, DIFV_SCOPE_THREAD, DIF_INSTR_VAR(in), false,
		    rd);
		break;
	case DIF_OP_LDGAA:
		dt_bpf_cg_lddvar(cg, DIFV_SCOPE_GLOBAL, DIF_INSTR_VAR(in), true,
		    rd);
		break;
	case DIF_OP_STGAA:
		dt_bpf_cg_stdvar(cg, DIFV_SCOPE_GLOBAL, DIF_INSTR_VAR(in), true,
		    rd);
		break;
	case DIF_OP_LDTAA:
		dt_bpf_cg_lddvar(cg, DIFV_SCOPE_THREAD, DIF_INSTR_VAR(in), true,
		    rd);
		break;
	case DIF_OP_STTAA:
		dt_bpf_cg_stdvar(cg, DIFV_SCOPE_THREAD, DIF_INSTR_VAR(in), true,
		    rd);
		break;
	case DIF_OP_CALL:
		dt_bpf_cg_subr(cg, DIF_INSTR_SUBR(in), rd);
		break;
	case DIF_OP_PUSHTR:
	case DIF_OP_PUSHTV: {
		int depth = cg->cg_tstate[cg->cg_pc].ts_depth;

		if (depth >= DIF_DTR_NREGS) {
			dt_bpf_cg_fault(cg, DIF_FLT_TUPOFLOW, 0);
			break;
		}
		dt_bpf_cg_ldreg(cg, DT_R1, rd);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
		    (int16_t) (lay->bl_tuple_off + DT_TUP_VAL(depth))));
		if (r1 == DIF_TYPE_STRING)
			DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1,
			    (int32_t) lay->bl_strsize));
		else
			dt_bpf_cg_ldreg(cg, DT_R1, r2);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
		    (int16_t) (lay->bl_tuple_off + DT_TUP_SIZE(depth))));
		break;
	}
	case DIF_OP_POPTS:
	case DIF_OP_FLUSHTS:
		break;		/* the depth is static */
	case DIF_OP_ALLOCS:
		dt_bpf_cg_ldreg(cg, DT_R1, r1);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T1));
		dt_bpf_cg_alloc(cg, DT_FP_T1, 0, DT_FP_T2);
		dt_bpf_cg_saddr(cg, DT_R1, lay->bl_dscratch_off);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, DT_FP_T2));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R2));
		dt_bpf_cg_streg(cg, rd, DT_R1);
		break;
	case DIF_OP_COPYS:
		/* copy r2 bytes from r1 to rd */
		dt_bpf_cg_ldreg(cg, DT_R2, r2);
		dt_bpf_cg_fault_if(cg, BPF_JGT, DT_R2,
		    (int32_t) lay->bl_dscratch_size, DIF_FLT_NOSCRATCH, -1);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R2, DT_FP_T1));
		dt_bpf_cg_ldreg(cg, DT_R3, rd);
		dt_bpf_cg_wptr(cg, DT_R2, 0, lay->bl_dscratch_size, (int) rd, 0);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R5));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, DT_FP_T1));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLE, DT_R2,
		    (int32_t) lay->bl_dscratch_size, 1));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, 0));
		dt_bpf_cg_ldreg(cg, DT_R3, r1);
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_kernel));
		dt_bpf_cg_fault_if(cg, BPF_JNE, DT_R0, 0, DIF_FLT_BADADDR,
		    (int) r1);
		break;
	default:
		/* ldta, xlate, xlarg and unknown opcodes, as in DIF. */
		dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
		break;
	}
}

/* Inlines one DIF object; its value ends in r0. */
static void
dt_bpf_cg_difo(dt_bpf_cg_t *cg, const dif_object_t *difo)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	uint32_t lend = dt_bpf_label_new(cg->cg_b);
	uint32_t i, used = 0;

	cg->cg_difo = difo;
	cg->cg_strtab = 0;
	for (i = 0; i < lay->bl_ndifc; i++) {
		if (lay->bl_difc[i].dc_difo == difo) {
			cg->cg_strtab = lay->bl_difc[i].dc_off;
			break;
		}
	}
	if (i == lay->bl_ndifc && difo->dif_strlen > 0) {
		dt_bpf_cg_error(cg, "DIF object not in the layout");
		return;
	}
	cg->cg_tstate = calloc(difo->dif_len, sizeof (*cg->cg_tstate));
	cg->cg_plabels = malloc(difo->dif_len * sizeof (uint32_t));
	if (cg->cg_tstate == NULL || cg->cg_plabels == NULL) {
		dt_bpf_cg_error(cg, "out of memory");
		goto out;
	}
	memset(cg->cg_plabels, 0xff, difo->dif_len * sizeof (uint32_t));
	if (dt_bpf_tuples(difo, cg->cg_tstate, cg->cg_err, cg->cg_errlen) !=
	    0) {
		cg->cg_failed = 1;
		goto out;
	}
	/* The interpreter starts every object with zeroed registers. */
	for (i = 0; i < difo->dif_len; i++) {
		dif_instr_t in = difo->dif_buf[i];

		used |= 1U << (DIF_INSTR_R1(in) & 7);
		used |= 1U << (DIF_INSTR_R2(in) & 7);
		used |= 1U << (DIF_INSTR_RD(in) & 7);
	}
	for (i = 1; i < DIF_DIR_NREGS; i++) {
		if (used & (1U << i))
			DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_REG(i),
			    0));
	}
	for (cg->cg_pc = 0; cg->cg_pc < difo->dif_len && !cg->cg_failed;
	    cg->cg_pc++) {
		if (cg->cg_plabels[cg->cg_pc] != UINT32_MAX)
			dt_bpf_label_here(cg->cg_b, cg->cg_plabels[cg->cg_pc]);
		if (cg->cg_tstate[cg->cg_pc].ts_depth < 0)
			continue;	/* unreachable */
		dt_bpf_cg_instr(cg, difo->dif_buf[cg->cg_pc], lend);
	}
	dt_bpf_label_here(cg->cg_b, lend);
out:
	free(cg->cg_tstate);
	free(cg->cg_plabels);
	cg->cg_tstate = NULL;
	cg->cg_plabels = NULL;
	cg->cg_difo = NULL;
}

/*
 * Records and aggregations.
 */

/* Stores the value in slot T0 as record rd at r7 + base + rd_offset. */
static void
dt_bpf_cg_store_rec(dt_bpf_cg_t *cg, const dt_recdesc_t *rd, uint32_t base)
{
	static const int bsz[] = { 0, BPF_B, BPF_H, 0, BPF_W, 0, 0, 0, BPF_DW };
	uint32_t off = base + rd->rd_offset;
	uint32_t size = rd->rd_size;

	switch (rd->rd_type) {
	case DT_REC_NONE:
		return;
	case DT_REC_STRING:
	case DT_REC_BYTES:
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, (int32_t) off));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, (int32_t) size));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_FP, DT_FP_T0));
		DT_EMIT(cg, DT_BPF_CALL(rd->rd_type == DT_REC_STRING ?
		    BPF_FUNC_probe_read_kernel_str :
		    BPF_FUNC_probe_read_kernel));
		dt_bpf_cg_fault_if_slot(cg, BPF_JSLT, DT_R0, 0, DIF_FLT_BADADDR,
		    DT_FP_T0);
		return;
	case DT_REC_STACK:
	case DT_REC_USTACK:
		if (rd->rd_type == DT_REC_USTACK) {
			DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_pid_tgid));
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R0, 32));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R0,
			    (int16_t) off));
			off += 8;
			size = size > 8 ? size - 8 : 0;
		}
		if (size == 0)
			return;
		dt_bpf_cg_getstack(cg, off, size,
		    rd->rd_type == DT_REC_USTACK);
		return;
	case DT_REC_USYM:
	case DT_REC_UMOD:
	case DT_REC_UADDR:
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_pid_tgid));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R0, 32));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R0,
		    (int16_t) off));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_T0));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
		    (int16_t) (off + 8)));
		return;
	default:
		if (size != 1 && size != 2 && size != 4 && size != 8) {
			dt_bpf_cg_error(cg, "record of %u bytes for an integer",
			    (unsigned) size);
			return;
		}
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_T0));
		DT_EMIT(cg, DT_BPF_STX_MEM(bsz[size], DT_R7, DT_R1,
		    (int16_t) off));
		return;
	}
}

/* Count leading bits: r1 = floor(log2(r1)) for r1 > 0 (r2 clobbered). */
static void
dt_bpf_cg_log2(dt_bpf_cg_t *cg)
{
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, 0));
	for (int s = 32; s > 0; s /= 2) {
		/* if (r1 >> s) { r1 >>= s; r2 += s; } */
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R1));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R3, s));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3, 0, 2));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R3));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, s));
	}
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R2));
}

/*
 * The bucket of the value in r1 for the quantize family, into r1; r9 is
 * the value words.  Same arithmetic as common/dt_aggfunc.c.
 */
static void
dt_bpf_cg_bucket(dt_bpf_cg_t *cg, const dt_aggdesc_t *agg)
{
	const int64_t *p = agg->ag_params;
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);

	if (agg->ag_kind == DT_AGG_QUANTIZE) {
		uint32_t lneg = dt_bpf_label_new(cg->cg_b);

		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R4, DT_R1));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R5, DT_QUANTIZE_ZERO));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R4, 0, 0),
		    ldone);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JSLT, DT_R4, 0,
		    0), lneg);
		dt_bpf_cg_log2(cg);
		/* ZERO + 1 + min(log2, 62) */
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLE, DT_R1, 62, 1));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 62));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1,
		    DT_QUANTIZE_ZERO + 1));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R5, DT_R1));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
		dt_bpf_label_here(cg->cg_b, lneg);
		/* -v as unsigned (INT64_MIN gives 2^63); log2 >= 62: 0 */
		DT_EMIT(cg, DT_BPF_NEG64(DT_R1));
		dt_bpf_cg_log2(cg);
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R5, 0));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JGE, DT_R1, 62, 2));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R5, DT_QUANTIZE_ZERO - 1));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R5, DT_R1));
		dt_bpf_label_here(cg->cg_b, ldone);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R5));
		return;
	}
	if (agg->ag_kind == DT_AGG_LQUANTIZE) {
		int64_t base = p[0], step = p[2];
		uint32_t levels = (uint32_t) ((p[1] - p[0]) / step);
		int64_t top = base + (int64_t) levels * step;
		uint32_t labove = dt_bpf_label_new(cg->cg_b);

		dt_bpf_emit_imm64(cg->cg_b, DT_R2, (uint64_t) base);
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R5, 0));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JSLT, DT_R1,
		    DT_R2, 0), ldone);
		dt_bpf_emit_imm64(cg->cg_b, DT_R3, (uint64_t) top);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JSGE, DT_R1,
		    DT_R3, 0), labove);
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R1, DT_R2));
		dt_bpf_emit_imm64(cg->cg_b, DT_R3, (uint64_t) step);
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_DIV, DT_R1, DT_R3));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 1));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R5, DT_R1));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
		dt_bpf_label_here(cg->cg_b, labove);
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R5, (int32_t) levels + 1));
		dt_bpf_label_here(cg->cg_b, ldone);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R5));
		return;
	}
	/*
	 * llquantize: the orders are constants, so the walk of
	 * dt_llquantize_bucket() unrolls into a chain of compares.
	 */
	{
		int64_t factor = p[0], low = p[1], high = p[2], nsteps = p[3];
		int64_t last = 1, base = 1;

		for (int64_t i = 0; i < low; i++)
			last = last > INT64_MAX / factor ? INT64_MAX :
			    last * factor;
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R5, 0));
		dt_bpf_emit_imm64(cg->cg_b, DT_R2, (uint64_t) last);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JSLT, DT_R1,
		    DT_R2, 0), ldone);
		for (int64_t o = low; o <= high; o++) {
			int64_t this = last > INT64_MAX / factor ? INT64_MAX :
			    last * factor;
			int64_t nb = this < nsteps ? this : nsteps;
			uint32_t lnext = dt_bpf_label_new(cg->cg_b);

			if (this != INT64_MAX) {
				dt_bpf_emit_imm64(cg->cg_b, DT_R2,
				    (uint64_t) this);
				dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(
				    BPF_JSGE, DT_R1, DT_R2, 0), lnext);
			}
			/* base + (v - last) / (this / nb) */
			DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R5, DT_R1));
			dt_bpf_emit_imm64(cg->cg_b, DT_R2, (uint64_t) last);
			DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R5, DT_R2));
			dt_bpf_emit_imm64(cg->cg_b, DT_R2,
			    (uint64_t) (this / nb));
			DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_DIV, DT_R5, DT_R2));
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R5,
			    (int32_t) base));
			dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
			dt_bpf_label_here(cg->cg_b, lnext);
			base += nb - nb / factor;
			last = this;
			if (this == INT64_MAX)
				break;
		}
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R5, (int32_t) base));
		dt_bpf_label_here(cg->cg_b, ldone);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R5));
	}
}

/* v in slot T1, incr in slot T2; r9 = the value words. */
static void
dt_bpf_cg_aggupdate(dt_bpf_cg_t *cg, const dt_aggdesc_t *agg)
{
	switch (agg->ag_kind) {
	case DT_AGG_COUNT:
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R9, 0));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 1));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R9, DT_R1, 0));
		break;
	case DT_AGG_SUM:
	case DT_AGG_AVG:
	case DT_AGG_STDDEV: {
		int sumw = agg->ag_kind == DT_AGG_SUM ? 0 : 8;

		if (agg->ag_kind != DT_AGG_SUM) {
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R9, 0));
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 1));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R9, DT_R1, 0));
		}
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, DT_FP_T1));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R9, sumw));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R2));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R9, DT_R1, sumw));
		if (agg->ag_kind != DT_AGG_STDDEV)
			break;
		/*
		 * Add v*v to the 128-bit sum in words 2 (low) and 3: with
		 * m = |v| = hi:lo in 32-bit halves, m*m = hi*hi << 64 +
		 * lo*hi << 33 + lo*lo.
		 */
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JSGE, DT_R2, 0, 1));
		DT_EMIT(cg, DT_BPF_NEG64(DT_R2));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R2));
		/* r3 = hi, r2 = lo */
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R3, 32));
		DT_EMIT(cg, DT_BPF_INSN(BPF_ALU | BPF_MOV | BPF_X, DT_R2,
		    DT_R2, 0, 0));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R4, DT_R2));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_MUL, DT_R4, DT_R2)); /* ll */
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_MUL, DT_R2, DT_R3)); /* lh */
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_MUL, DT_R3, DT_R3)); /* hh */
		/* lo64 = ll + (lh << 33), carry; hi64 = hh + lh >> 31 */
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R5, DT_R2));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R5, 33));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R5, DT_R4));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R2, 31));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R3, DT_R2));
		DT_EMIT(cg, DT_BPF_JMP_REG(BPF_JGE, DT_R5, DT_R4, 1));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R3, 1));
		/* words[2] += lo64 (carry into words[3]); words[3] += hi64 */
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R9, 16));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R5));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R9, DT_R1, 16));
		DT_EMIT(cg, DT_BPF_JMP_REG(BPF_JGE, DT_R1, DT_R5, 1));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R3, 1));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R9, 24));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R3));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R9, DT_R1, 24));
		break;
	}
	case DT_AGG_MIN:
	case DT_AGG_MAX:
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, DT_FP_T1));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R9, 0));
		DT_EMIT(cg, DT_BPF_JMP_REG(agg->ag_kind == DT_AGG_MIN ?
		    BPF_JSGE : BPF_JSLE, DT_R2, DT_R1, 1));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R9, DT_R2, 0));
		break;
	case DT_AGG_QUANTIZE:
	case DT_AGG_LQUANTIZE:
	case DT_AGG_LLQUANTIZE:
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_T1));
		dt_bpf_cg_bucket(cg, agg);
		/* Bound it for the verifier; the arithmetic keeps it so. */
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLT, DT_R1,
		    (int32_t) agg->ag_nvals, 1));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R1, 3));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R9));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R1, 0));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_FP, DT_FP_T2));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R2, DT_R3));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R1, DT_R2, 0));
		break;
	}
}

/*
 * Runs a DIF object and stores its value as record rd at r7 + base +
 * rd_offset (which the caller has zeroed).  An object that only returns
 * execname -- the key of the most common aggregation, @[execname] --
 * becomes one bpf_get_current_comm() straight into the record: the
 * helper pads with NULs to the size it is given, as a string record is
 * padded, and the object has nothing else to do.
 */
static void
dt_bpf_cg_difo_rec(dt_bpf_cg_t *cg, const dif_object_t *difo,
    const dt_recdesc_t *rd, uint32_t base)
{
	if (rd->rd_type == DT_REC_STRING && rd->rd_size > 0 &&
	    difo->dif_len == 2 &&
	    DIF_INSTR_OP(difo->dif_buf[0]) == DIF_OP_LDGS &&
	    DIF_INSTR_VAR(difo->dif_buf[0]) == DIF_VAR_EXECNAME &&
	    DIF_INSTR_OP(difo->dif_buf[1]) == DIF_OP_RET &&
	    (DIF_INSTR_RD(difo->dif_buf[0]) & (DIF_DIR_NREGS - 1)) != 0 &&
	    DIF_INSTR_RD(difo->dif_buf[1]) == DIF_INSTR_RD(difo->dif_buf[0])) {
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1,
		    (int32_t) (base + rd->rd_offset)));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, rd->rd_size < 16 ?
		    (int32_t) rd->rd_size : 16));
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_comm));
		return;
	}
	dt_bpf_cg_difo(cg, difo);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R0, DT_FP_T0));
	dt_bpf_cg_store_rec(cg, rd, base);
}

static void
dt_bpf_cg_aggregate(dt_bpf_cg_t *cg, const dt_action_t *ap)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	const dt_bpf_aggmap_t *ba;
	const dt_aggdesc_t *agg;
	uint32_t lfound = dt_bpf_label_new(cg->cg_b);
	uint32_t linit = dt_bpf_label_new(cg->cg_b);
	uint32_t lskip = dt_bpf_label_new(cg->cg_b);
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);
	uint32_t flag;

	if (ap->ac_aggid >= lay->bl_naggs) {
		dt_bpf_cg_error(cg, "aggregation %u not in the program",
		    (unsigned) ap->ac_aggid);
		return;
	}
	ba = &lay->bl_aggs[ap->ac_aggid];
	agg = ba->ba_agg;
	flag = agg->ag_nvals * 8;
	dt_bpf_cg_zero(cg, lay->bl_aggkey_off, ba->ba_keysize);
	for (uint32_t k = 0; k < ap->ac_nkeys && k < agg->ag_nkeys; k++)
		dt_bpf_cg_difo_rec(cg, ap->ac_keys[k], &ba->ba_keys[k],
		    lay->bl_aggkey_off);
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_T1, 0));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_T2, 1));
	if (ap->ac_nargs > 0 && ap->ac_args[0].aa_difo != NULL) {
		dt_bpf_cg_difo(cg, ap->ac_args[0].aa_difo);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R0, DT_FP_T1));
	}
	if (ap->ac_nargs > 1 && ap->ac_args[1].aa_difo != NULL) {
		dt_bpf_cg_difo(cg, ap->ac_args[1].aa_difo);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R0, DT_FP_T2));
	}

	/* r9 = lookup, or insert this CPU's initial value and look up. */
	for (int pass = 0; pass < 2; pass++) {
		dt_bpf_emit_map_fd(cg->cg_b, DT_R1, ba->ba_fd);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2,
		    (int32_t) lay->bl_aggkey_off));
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_map_lookup_elem));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R0, 0, 0),
		    lfound);
		if (pass == 1)
			break;
		dt_bpf_cg_zero(cg, lay->bl_aggval_off, ba->ba_valsize);
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7,
		    (int16_t) (lay->bl_aggval_off + flag), 1));
		if (agg->ag_kind == DT_AGG_MIN || agg->ag_kind == DT_AGG_MAX) {
			dt_bpf_emit_imm64(cg->cg_b, DT_R1,
			    agg->ag_kind == DT_AGG_MIN ? (uint64_t) INT64_MAX :
			    (uint64_t) INT64_MIN);
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
			    (int16_t) lay->bl_aggval_off));
		}
		dt_bpf_emit_map_fd(cg->cg_b, DT_R1, ba->ba_fd);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2,
		    (int32_t) lay->bl_aggkey_off));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R3,
		    (int32_t) lay->bl_aggval_off));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, BPF_NOEXIST));
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_map_update_elem));
	}
	dt_bpf_cg_cpudrop(cg, DT_BPF_CNT_AGGDROPS);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lskip);
	dt_bpf_label_here(cg->cg_b, lfound);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R9, DT_R0));
	/*
	 * Another CPU inserted the key: this CPU's words are zero and its
	 * flag clear, so give them their initial value first.
	 */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R9, (int16_t) flag));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R1, 0, 0),
	    linit);
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R9, (int16_t) flag, 1));
	if (agg->ag_kind == DT_AGG_MIN || agg->ag_kind == DT_AGG_MAX) {
		dt_bpf_emit_imm64(cg->cg_b, DT_R1, agg->ag_kind == DT_AGG_MIN ?
		    (uint64_t) INT64_MAX : (uint64_t) INT64_MIN);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R9, DT_R1, 0));
	}
	dt_bpf_label_here(cg->cg_b, linit);
	dt_bpf_cg_aggupdate(cg, agg);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
	dt_bpf_label_here(cg->cg_b, lskip);
	dt_bpf_label_here(cg->cg_b, ldone);
}

/*
 * Clauses and programs.
 */

static void
dt_bpf_cg_fault_handler(dt_bpf_cg_t *cg, uint32_t lnext)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	uint32_t r = lay->bl_rec_off;
	uint32_t size = DT_BPF_RECPREFIX + sizeof (dt_rechdr_t) +
	    sizeof (dt_faultrec_t);
	uint32_t lok = dt_bpf_label_new(cg->cg_b);

	dt_bpf_label_here(cg->cg_b, cg->cg_lfault);
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_smp_processor_id));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R0, (int16_t) r));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_W, DT_R7, (int16_t) (r + 8),
	    (int32_t) DT_EPID_FAULT));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_W, DT_R7, (int16_t) (r + 12),
	    sizeof (dt_faultrec_t)));
	dt_bpf_cg_timestamp(cg);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, (int16_t) (r + 16)));
	r += DT_BPF_RECPREFIX + sizeof (dt_rechdr_t);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_EPID));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_W, DT_R7, DT_R1, (int16_t) r));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_FACT));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_W, DT_R7, DT_R1, (int16_t) (r + 4)));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_FOFF));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_W, DT_R7, DT_R1, (int16_t) (r + 8)));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_FKIND));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_W, DT_R7, DT_R1, (int16_t) (r + 12)));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_FADDR));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, (int16_t) (r + 16)));
	dt_bpf_cg_counter(cg, DT_BPF_CNT_ERRORS);
	dt_bpf_emit_map_fd(cg->cg_b, DT_R1, lay->bl_rb_fd);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2,
	    (int32_t) lay->bl_rec_off));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R3, (int32_t) size));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, 0));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_ringbuf_output));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R0, 0, 0), lok);
	dt_bpf_cg_cpudrop(cg, DT_BPF_CNT_DROPS);
	dt_bpf_label_here(cg->cg_b, lok);
	/*
	 * Then the ERROR probe fires in this context, unless the fault was
	 * in an ERROR clause: DTrace drops those silently.
	 */
	if (!cg->cg_in_error && cg->cg_ps->ps_nerr > 0) {
		cg->cg_eret[cg->cg_clause] = lnext;
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_ERET,
		    (int32_t) cg->cg_clause));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), cg->cg_lerror);
		return;
	}
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lnext);
}

static void
dt_bpf_cg_clause(dt_bpf_cg_t *cg, uint32_t j, const dt_stmt_t *stp)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	uint32_t lnext = dt_bpf_label_new(cg->cg_b);
	uint32_t data = lay->bl_rec_off + DT_BPF_RECPREFIX +
	    sizeof (dt_rechdr_t);
	bool rec = stp->st_nactions == 0 || stp->st_size > 0;
	dt_bpf_cg_stubs_t stubs = { NULL, 0, 0 };

	cg->cg_stubs = &stubs;
	cg->cg_clause = j;
	cg->cg_lfault = dt_bpf_label_new(cg->cg_b);

	if (cg->cg_in_error) {
		/* The ERROR probe's clauses all run: EPIDs are constants. */
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_SC_EPID,
		    (int32_t) cg->cg_ps->ps_err_epids[j]));
	} else {
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_W, DT_R1, DT_R7,
		    (int16_t) (lay->bl_epids_off + 4 * j)));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 0,
		    0), lnext);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_SC_EPID));
	}
	if (!cg->cg_ps->ps_always && !cg->cg_in_error && j > 0) {
		/* exit() in an earlier clause stops this one. */
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R8,
		    (int16_t) (lay->bl_cnt_off + 8 * DT_BPF_CNT_EXITED)));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R1, 0, 0),
		    lnext);
	}
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_SC_USED, 0));

	cg->cg_action = 0;
	if (stp->st_pred != NULL) {
		dt_bpf_cg_difo(cg, stp->st_pred);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R0, 0, 0),
		    lnext);
	}
	if (rec) {
		uint32_t r = lay->bl_rec_off;

		dt_bpf_cg_zero(cg, data, stp->st_size);
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_smp_processor_id));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R0, (int16_t) r));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_EPID));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_W, DT_R7, DT_R1,
		    (int16_t) (r + 8)));
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_W, DT_R7, (int16_t) (r + 12),
		    (int32_t) stp->st_size));
		dt_bpf_cg_timestamp(cg);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
		    (int16_t) (r + 16)));
	}
	for (uint32_t a = 0; a < stp->st_nactions && !cg->cg_failed; a++) {
		const dt_action_t *ap = &stp->st_actions[a];

		cg->cg_action = a + 1;
		if (ap->ac_kind == DT_ACT_AGGREGATE) {
			dt_bpf_cg_aggregate(cg, ap);
			continue;
		}
		for (uint32_t i = 0; i < ap->ac_nargs; i++) {
			const dt_actarg_t *aa = &ap->ac_args[i];

			if (aa->aa_difo == NULL)
				continue;
			bool spec = ap->ac_kind == DT_ACT_SPECULATE ||
			    ap->ac_kind == DT_ACT_COMMIT ||
			    ap->ac_kind == DT_ACT_DISCARD;

			if (aa->aa_rec.rd_type == DT_REC_NONE || !rec) {
				dt_bpf_cg_difo(cg, aa->aa_difo);
				if (spec)
					dt_bpf_cg_spec_action(cg, ap->ac_kind,
					    sizeof (dt_rechdr_t) + stp->st_size,
					    lnext);
				continue;
			}
			if (aa->aa_rec.rd_offset + aa->aa_rec.rd_size >
			    stp->st_size) {
				dt_bpf_cg_error(cg, "record outside the clause's "
				    "data");
				break;
			}
			if (!spec) {
				dt_bpf_cg_difo_rec(cg, aa->aa_difo, &aa->aa_rec,
				    data);
				continue;
			}
			/* The ID decides where the record goes, then is kept. */
			dt_bpf_cg_difo(cg, aa->aa_difo);
			dt_bpf_cg_spec_action(cg, ap->ac_kind,
			    sizeof (dt_rechdr_t) + stp->st_size, lnext);
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R0, DT_FP_T0));
			dt_bpf_cg_store_rec(cg, &aa->aa_rec, data);
		}
		if (ap->ac_kind == DT_ACT_EXIT)
			DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R8,
			    (int16_t) (lay->bl_cnt_off + 8 * DT_BPF_CNT_EXITED),
			    1));
	}
	if (rec) {
		uint32_t lok = dt_bpf_label_new(cg->cg_b);

		dt_bpf_emit_map_fd(cg->cg_b, DT_R1, lay->bl_rb_fd);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2,
		    (int32_t) lay->bl_rec_off));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R3,
		    (int32_t) (DT_BPF_RECPREFIX + sizeof (dt_rechdr_t) +
		    stp->st_size)));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, 0));
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_ringbuf_output));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R0, 0, 0),
		    lok);
		dt_bpf_cg_cpudrop(cg, DT_BPF_CNT_DROPS);
		dt_bpf_label_here(cg->cg_b, lok);
	}
	if (stubs.ss_n > 0) {
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lnext);
		dt_bpf_cg_emit_stubs(cg);
		dt_bpf_cg_fault_handler(cg, lnext);
	}
	dt_bpf_label_here(cg->cg_b, lnext);
	free(stubs.ss_v);
	cg->cg_stubs = NULL;
}

/* r0 = lookup(fd, key 0) with the key on the stack; exit when NULL. */
static void
dt_bpf_cg_lookup0(dt_bpf_cg_t *cg, int fd, uint32_t lexit)
{
	dt_bpf_emit_map_fd(cg->cg_b, DT_R1, fd);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_FP));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, DT_FP_KEY));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_map_lookup_elem));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R0, 0, 0), lexit);
}

#if defined(__x86_64__)
/*
 * USDT arguments as one site's operands give them: a register of pt_regs,
 * user memory at a register plus a displacement (0 if unreadable), or a
 * constant; cut to the operand's size and sign- or zero-extended.
 */
static void
dt_bpf_cg_usdt_args(dt_bpf_cg_t *cg, const dt_usdt_args_t *uas)
{
	static const int bsz[] = { 0, BPF_B, BPF_H, 0, BPF_W, 0, 0, 0, BPF_DW };

	for (int i = 0; i < uas->ua_nargs && i < DT_BPF_NARGS; i++) {
		const dt_usdt_arg_t *ua = &uas->ua_args[i];

		switch (ua->ua_kind) {
		case DT_USDT_ARG_CONST:
			dt_bpf_emit_imm64(cg->cg_b, DT_R1,
			    (uint64_t) ua->ua_val);
			break;
		case DT_USDT_ARG_REG:
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6,
			    ua->ua_reg));
			if (ua->ua_shift != 0)
				DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R1,
				    ua->ua_shift));
			break;
		case DT_USDT_ARG_MEM:
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R6,
			    ua->ua_reg));
			dt_bpf_emit_imm64(cg->cg_b, DT_R2,
			    (uint64_t) ua->ua_val);
			DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R3, DT_R2));
			DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_T0, 0));
			DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_FP));
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, DT_FP_T0));
			DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, ua->ua_size));
			DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_user));
			DT_EMIT(cg, DT_BPF_LDX_MEM(bsz[ua->ua_size], DT_R1,
			    DT_FP, DT_FP_T0));
			break;
		default:
			continue;
		}
		if (ua->ua_size < 8) {
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R1,
			    64 - 8 * ua->ua_size));
			DT_EMIT(cg, DT_BPF_ALU64_IMM(ua->ua_signed ? BPF_ARSH :
			    BPF_RSH, DT_R1, 64 - 8 * ua->ua_size));
		}
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
		    (int16_t) (DT_SC_ARGS + 8 * i)));
	}
}

/*
 * The arguments of a USDT probe.  When its sites pass them differently,
 * the instruction pointer (the site's address) picks the operands: one
 * decoder per distinct operand list, reached from each of its sites.
 */
static void
dt_bpf_cg_usdt(dt_bpf_cg_t *cg, const dt_bpf_progspec_t *ps)
{
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);
	bool same = true;

	for (size_t i = 1; i < ps->ps_nusites && same; i++)
		same = memcmp(&ps->ps_uargs[i], &ps->ps_uargs[0],
		    sizeof (ps->ps_uargs[0])) == 0;
	if (same) {
		dt_bpf_cg_usdt_args(cg, &ps->ps_uargs[0]);
		return;
	}
	for (size_t i = 0; i < ps->ps_nusites; i++) {
		uint32_t lthis = dt_bpf_label_new(cg->cg_b), lnext;
		bool first = true;

		/* decoded already, for an earlier site with these operands */
		for (size_t j = 0; j < i && first; j++)
			first = memcmp(&ps->ps_uargs[i], &ps->ps_uargs[j],
			    sizeof (ps->ps_uargs[0])) != 0;
		if (!first)
			continue;
		lnext = dt_bpf_label_new(cg->cg_b);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6, 128));
		for (size_t j = i; j < ps->ps_nusites; j++) {
			if (memcmp(&ps->ps_uargs[i], &ps->ps_uargs[j],
			    sizeof (ps->ps_uargs[0])) != 0)
				continue;
			dt_bpf_emit_imm64(cg->cg_b, DT_R2, ps->ps_usites[j]);
			dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JEQ,
			    DT_R1, DT_R2, 0), lthis);
		}
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lnext);
		dt_bpf_label_here(cg->cg_b, lthis);
		dt_bpf_cg_usdt_args(cg, &ps->ps_uargs[i]);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
		dt_bpf_label_here(cg->cg_b, lnext);
	}
	dt_bpf_label_here(cg->cg_b, ldone);
}
#endif

/*
 * Whether the DIF object may read the probe's arguments: args[], arg0-9,
 * or a built-in variable not known to leave them alone (so one added
 * later that reads them is safe until it is listed here).
 */
static bool
dt_bpf_difo_reads_args(const dif_object_t *difo)
{
	for (uint32_t pc = 0; difo != NULL && pc < difo->dif_len; pc++) {
		dif_instr_t in = difo->dif_buf[pc];
		uint32_t x = DIF_INSTR_VAR(in);

		if (DIF_INSTR_OP(in) == DIF_OP_LDGA)
			return true;
		if (DIF_INSTR_OP(in) != DIF_OP_LDGS ||
		    x >= DIF_VAR_OTHER_UBASE)
			continue;
		switch (x) {
		case DIF_VAR_CURTHREAD: case DIF_VAR_TIMESTAMP:
		case DIF_VAR_IPL: case DIF_VAR_EPID: case DIF_VAR_ID:
		case DIF_VAR_STACKDEPTH: case DIF_VAR_CALLER:
		case DIF_VAR_PROBEPROV: case DIF_VAR_PROBEMOD:
		case DIF_VAR_PROBEFUNC: case DIF_VAR_PROBENAME:
		case DIF_VAR_PID: case DIF_VAR_TID: case DIF_VAR_EXECNAME:
		case DIF_VAR_ZONENAME: case DIF_VAR_WALLTIMESTAMP:
		case DIF_VAR_USTACKDEPTH: case DIF_VAR_UCALLER:
		case DIF_VAR_UID: case DIF_VAR_GID: case DIF_VAR_ERRNO:
		case DIF_VAR_CURCPU: case DIF_VAR_CPU:
			break;
		default:
			return true;
		}
	}
	return false;
}

/*
 * Whether any clause of the program may read the arguments: copying and
 * clearing ten of them is a good part of a small clause's firing.  The
 * dtrace provider's programs always get them (ERROR's describe a fault).
 */
static bool
dt_bpf_prog_reads_args(const dt_bpf_progspec_t *ps)
{
	if (ps->ps_ctx == DT_BPF_CTX_RAWTP)
		return true;
	for (uint32_t j = 0; j < ps->ps_nclauses; j++) {
		const dt_stmt_t *stp = ps->ps_stmts[j];

		if (dt_bpf_difo_reads_args(stp->st_pred))
			return true;
		for (uint32_t a = 0; a < stp->st_nactions; a++) {
			const dt_action_t *ap = &stp->st_actions[a];

			for (uint32_t i = 0; i < ap->ac_nargs; i++) {
				if (dt_bpf_difo_reads_args(
				    ap->ac_args[i].aa_difo))
					return true;
			}
			for (uint32_t k = 0; k < ap->ac_nkeys; k++) {
				if (dt_bpf_difo_reads_args(ap->ac_keys[k]))
					return true;
			}
		}
	}
	return false;
}

static void
dt_bpf_cg_prologue(dt_bpf_cg_t *cg, uint32_t lexit)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	const dt_bpf_progspec_t *ps = cg->cg_ps;
	bool args;

	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R6, DT_R1));
	/*
	 * A uprobe runs for every process mapping the file that some event
	 * asked for: keep the target's firings only.
	 */
	if (ps->ps_ufollow) {
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_pid_tgid));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R0, 32));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_W, DT_FP, DT_R0, DT_FP_KEY));
		dt_bpf_cg_lookup0(cg, ps->ps_procset_fd, lexit);
	} else if (ps->ps_upid != 0) {
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_pid_tgid));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R0, 32));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R0,
		    (int32_t) ps->ps_upid, 0), lexit);
	}
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_W, DT_FP, DT_FP_KEY, 0));
	dt_bpf_cg_lookup0(cg, lay->bl_scratch_fd, lexit);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R7, DT_R0));
	dt_bpf_cg_lookup0(cg, lay->bl_state_fd, lexit);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R8, DT_R0));
	if (!ps->ps_always) {
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R8,
		    (int16_t) (lay->bl_cnt_off + 8 * DT_BPF_CNT_EXITED)));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R1, 0, 0),
		    lexit);
	}
	/* The map values' addresses as numbers: DIF addresses. */
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
	dt_bpf_cg_ptr2num(cg, DT_R1);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_SC_SBASE));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R8));
	dt_bpf_cg_ptr2num(cg, DT_R1);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_SC_GBASE));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_CCA, 0));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_CCB, 0));

	/* The probe: from the table (groups) or constants. */
	if (ps->ps_table_fd >= 0) {
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6, 8));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGE, DT_R1,
		    (int32_t) ps->ps_table_max, 0), lexit);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_W, DT_FP, DT_R1, DT_FP_KEY));
		dt_bpf_cg_lookup0(cg, ps->ps_table_fd, lexit);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R9, DT_R0));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_W, DT_R1, DT_R9, 0));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 0, 0),
		    lexit);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_SC_ID));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_W, DT_R1, DT_R9, 4));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T3));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_W, DT_R2, DT_R9, 8));
		dt_bpf_cg_gaddr(cg, DT_R1, 0);
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R2));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_SC_FUNC));
		for (uint32_t j = 0; j < ps->ps_nclauses; j++) {
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_W, DT_R1, DT_R9,
			    (int16_t) (16 + 4 * j)));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_W, DT_R7, DT_R1,
			    (int16_t) (lay->bl_epids_off + 4 * j)));
		}
	} else {
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_SC_ID,
		    (int32_t) ps->ps_id));
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_T3,
		    ps->ps_nargs));
		for (uint32_t j = 0; j < ps->ps_nclauses; j++)
			DT_EMIT(cg, DT_BPF_ST_MEM(BPF_W, DT_R7,
			    (int16_t) (lay->bl_epids_off + 4 * j),
			    (int32_t) ps->ps_epids[j]));
	}

	/* Read when first needed: see dt_bpf_cg_timestamp(). */
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_SC_TS, 0));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_SC_ERRNO, 0));

	/* Arguments, unless no clause here can read them. */
	args = dt_bpf_prog_reads_args(ps);
	switch (ps->ps_ctx) {
	case DT_BPF_CTX_RAWTP:
		for (int i = 0; i < DT_BPF_NARGS; i++) {
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6,
			    8 * i));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
			    (int16_t) (DT_SC_ARGS + 8 * i)));
		}
		break;
	case DT_BPF_CTX_SYSCALL_ENTRY:
		if (!args)
			break;
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, DT_FP_T3));
		for (int i = 0; i < DT_BPF_NARGS; i++) {
			int16_t o = (int16_t) (DT_SC_ARGS + 8 * i);

			DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, o, 0));
			if (i >= 6 ||
			    (ps->ps_table_fd < 0 && i >= ps->ps_nargs))
				continue;
			DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLE, DT_R2, i, 2));
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6,
			    16 + 8 * i));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, o));
		}
		break;
	case DT_BPF_CTX_SYSCALL_RETURN:
		/* arg0 = arg1 = the return value; errno from it. */
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6, 16));
		for (int i = 0; args && i < DT_BPF_NARGS; i++)
			DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7,
			    (int16_t) (DT_SC_ARGS + 8 * i), 0));
		if (args) {
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
			    DT_SC_ARGS));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
			    DT_SC_ARGS + 8));
		}
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R1));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, 4095));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JGT, DT_R2, 4094, 2));
		DT_EMIT(cg, DT_BPF_NEG64(DT_R1));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_SC_ERRNO));
		break;
	case DT_BPF_CTX_PERF:
		if (!args)
			break;
#if defined(__x86_64__)
		/* pt_regs: ip at 128, cs at 136; user mode when cs & 3. */
		for (int i = 0; i < DT_BPF_NARGS; i++)
			DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7,
			    (int16_t) (DT_SC_ARGS + 8 * i), 0));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6, 128));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R6, 136));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R2, 3));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JEQ, DT_R2, 3, 2));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_SC_ARGS));
		DT_EMIT(cg, DT_BPF_JA(1));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
		    DT_SC_ARGS + 8));
#else
		dt_bpf_cg_error(cg, "profile probes need this architecture's "
		    "register layout");
#endif
		break;
	case DT_BPF_CTX_UPROBE:
	case DT_BPF_CTX_URETURN: {
#if defined(__x86_64__)
		/* pt_regs offsets of rdi, rsi, rdx, rcx, r8, r9; rax, ip. */
		static const int16_t argreg[6] = { 112, 104, 96, 88, 72, 64 };
		bool ret = ps->ps_ctx == DT_BPF_CTX_URETURN;

		for (int i = 0; i < DT_BPF_NARGS; i++) {
			int16_t o = (int16_t) (DT_SC_ARGS + 8 * i);

			if (ret || i >= 6) {
				DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, o, 0));
				continue;
			}
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6,
			    argreg[i]));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, o));
		}
		if (ret) {
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6, 128));
			dt_bpf_emit_imm64(cg->cg_b, DT_R2, ps->ps_ufunc);
			DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R1, DT_R2));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
			    DT_SC_ARGS));
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6, 80));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
			    DT_SC_ARGS + 8));
		}
#else
		dt_bpf_cg_error(cg, "pid probes need this architecture's "
		    "register layout");
#endif
		break;
	}
	case DT_BPF_CTX_USDT:
		if (!args)
			break;
		for (int i = 0; i < DT_BPF_NARGS; i++)
			DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7,
			    (int16_t) (DT_SC_ARGS + 8 * i), 0));
#if defined(__x86_64__)
		dt_bpf_cg_usdt(cg, ps);
#else
		dt_bpf_cg_error(cg, "USDT probes need this architecture's "
		    "register layout");
#endif
		break;
	}

	/* Clause-locals start each firing cleared. */
	dt_bpf_cg_zero(cg, lay->bl_locals_off, lay->bl_locals_size);
}

/*
 * Copies len bytes (a multiple of 8) within scratch, from offset src to
 * offset dst, word by word or with one helper call for long runs.
 */
static void
dt_bpf_cg_scopy(dt_bpf_cg_t *cg, uint32_t dst, uint32_t src, uint32_t len)
{
	if (len <= 256) {
		for (uint32_t i = 0; i < len; i += 8) {
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7,
			    (int16_t) (src + i)));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
			    (int16_t) (dst + i)));
		}
		return;
	}
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, (int32_t) dst));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, (int32_t) len));
	dt_bpf_cg_saddr(cg, DT_R3, src);
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_kernel));
}

/*
 * The ERROR block: where a faulting clause's handler goes after its
 * fault record, as the interpreter fires ERROR from inside the firing.
 * It keeps the firing context and clause-locals aside, makes the
 * context ERROR's (arg1 EPID, arg2 action, arg3 DIF offset, arg4 fault
 * kind, arg5 address), runs the ERROR clauses with their own fresh
 * clause-locals, puts everything back and returns to the clause after
 * the one that faulted (its index in the DT_FP_ERET slot, a constant on
 * each path, so the verifier follows one return per fault site).
 */
static void
dt_bpf_cg_error_block(dt_bpf_cg_t *cg, uint32_t lexit)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	const dt_bpf_progspec_t *ps = cg->cg_ps;
	uint32_t ctxlen = DT_SC_FKIND - DT_SC_TS;
	static const int32_t fargs[] = { DT_SC_EPID, DT_SC_FACT, DT_SC_FOFF,
	    DT_SC_FKIND, DT_SC_FADDR };
	bool used = false;

	for (uint32_t j = 0; j < ps->ps_nclauses; j++)
		used |= cg->cg_eret[j] != UINT32_MAX;
	if (!used)
		return;
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lexit);
	dt_bpf_label_here(cg->cg_b, cg->cg_lerror);
	dt_bpf_cg_scopy(cg, lay->bl_esave_off, DT_SC_TS, ctxlen);
	dt_bpf_cg_scopy(cg, lay->bl_lsave_off, lay->bl_locals_off,
	    lay->bl_locals_size);
	dt_bpf_cg_zero(cg, lay->bl_locals_off, lay->bl_locals_size);

	for (int i = 0; i < DT_BPF_NARGS; i++) {
		int16_t o = (int16_t) (DT_SC_ARGS + 8 * i);

		if (i >= 1 && i <= 5) {
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7,
			    (int16_t) fargs[i - 1]));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, o));
		} else {
			DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, o, 0));
		}
	}
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_SC_ID,
	    (int32_t) ps->ps_err_id));
	/* Probe names are constants: see dt_bpf_cg_builtin(). */
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_SC_ERRNO, 0));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_ktime_get_ns));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R0, DT_SC_TS));

	cg->cg_in_error = true;
	for (uint32_t j = 0; j < ps->ps_nerr && !cg->cg_failed; j++)
		dt_bpf_cg_clause(cg, j, ps->ps_err_stmts[j]);
	cg->cg_in_error = false;

	dt_bpf_cg_scopy(cg, DT_SC_TS, lay->bl_esave_off, ctxlen);
	dt_bpf_cg_scopy(cg, lay->bl_locals_off, lay->bl_lsave_off,
	    lay->bl_locals_size);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_ERET));
	for (uint32_t j = 0; j < ps->ps_nclauses; j++) {
		if (cg->cg_eret[j] != UINT32_MAX)
			dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1,
			    (int32_t) j, 0), cg->cg_eret[j]);
	}
}

int
dt_bpf_gen(const dt_bpf_layout_t *lay, const dt_bpf_progspec_t *ps,
    dt_bpf_buf_t *b, char *errbuf, size_t errlen)
{
	dt_bpf_cg_t cg;
	uint32_t lexit;
	int err;

	memset(&cg, 0, sizeof (cg));
	cg.cg_b = b;
	cg.cg_lay = lay;
	cg.cg_ps = ps;
	cg.cg_err = errbuf;
	cg.cg_errlen = errlen;
	cg.cg_bpf_loop = dt_linux_feature(DT_LF_BPF_LOOP);
	if (ps->ps_nclauses > lay->bl_maxclauses) {
		snprintf(errbuf, errlen, "too many clauses for the layout");
		return -1;
	}
	lexit = dt_bpf_label_new(b);
	if (ps->ps_nerr > 0) {
		if ((cg.cg_eret = malloc((ps->ps_nclauses + 1) *
		    sizeof (uint32_t))) == NULL) {
			snprintf(errbuf, errlen, "out of memory");
			return -1;
		}
		for (uint32_t j = 0; j < ps->ps_nclauses; j++)
			cg.cg_eret[j] = UINT32_MAX;
		cg.cg_lerror = dt_bpf_label_new(b);
	}
	dt_bpf_cg_prologue(&cg, lexit);
	for (uint32_t j = 0; j < ps->ps_nclauses && !cg.cg_failed; j++)
		dt_bpf_cg_clause(&cg, j, ps->ps_stmts[j]);
	if (ps->ps_nerr > 0 && !cg.cg_failed)
		dt_bpf_cg_error_block(&cg, lexit);
	free(cg.cg_eret);
	dt_bpf_label_here(b, lexit);
	DT_EMIT(&cg, DT_BPF_MOV64_IMM(DT_R0, 0));
	DT_EMIT(&cg, DT_BPF_EXIT());
	if (cg.cg_failed)
		return -1;
	if ((err = dt_bpf_buf_finish(b)) != 0) {
		snprintf(errbuf, errlen, "generating BPF: %s", err == E2BIG ?
		    "program too large" : strerror(err));
		return -1;
	}
	return 0;
}
