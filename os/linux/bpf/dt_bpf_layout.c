/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_layout.c: the layout of an enabling's maps, built before any
 * program is generated (see dt_bpf_gen.h): the constants (DIF string
 * tables, probe names), the variables and their maps, the aggregation
 * key layouts (string keys shrunk to the longest value any clause can
 * store), and the offsets of every buffer in the scratch and state maps,
 * sized to the largest need over all statements.  It also holds the
 * tuple-stack analysis of a DIF object, which the layout uses to size
 * keys and the translator to know which call arguments are strings.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dt_aggfunc.h"
#include "common/dif/dif.h"
#include "common/dif/dif_interp.h"
#include "common/dt_os.h"
#include "os/linux/bpf/dt_bpf_gen.h"
#include "os/linux/bpf/dt_bpf_impl.h"
#include "os/linux/dt_linux_features.h"

#define DT_BPF_DSCRATCH_MIN 8192

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

int
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
	free(lay->bl_chash);
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

static uint32_t
dt_bpf_const_hash(const char *s)
{
	uint32_t h = 2166136261U;	/* FNV-1a */

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char) *s) * 16777619U;
	return h;
}

/* Remember that string s lies at off; false when out of memory. */
static bool
dt_bpf_const_remember(dt_bpf_layout_t *lay, const char *s, uint32_t off)
{
	if ((lay->bl_nchash + 1) * 2 > lay->bl_chashcap) {
		uint32_t cap = lay->bl_chashcap ? lay->bl_chashcap * 2 : 256;
		uint32_t *t = calloc(cap, sizeof (*t));

		if (t == NULL)
			return false;
		for (uint32_t i = 0; i < lay->bl_chashcap; i++) {
			uint32_t o = lay->bl_chash[i], j;

			if (o == 0)
				continue;
			j = dt_bpf_const_hash(lay->bl_consts + o - 1);
			while (t[j & (cap - 1)] != 0)
				j++;
			t[j & (cap - 1)] = o;
		}
		free(lay->bl_chash);
		lay->bl_chash = t;
		lay->bl_chashcap = cap;
	}
	for (uint32_t j = dt_bpf_const_hash(s);; j++) {
		if (lay->bl_chash[j & (lay->bl_chashcap - 1)] == 0) {
			lay->bl_chash[j & (lay->bl_chashcap - 1)] = off + 1;
			lay->bl_nchash++;
			return true;
		}
	}
}

uint32_t
dt_bpf_layout_const(dt_bpf_layout_t *lay, const char *s)
{
	/* Share identical strings (probe names repeat a lot). */
	size_t n = strlen(s) + 1;
	uint32_t off;

	for (uint32_t j = dt_bpf_const_hash(s); lay->bl_chashcap > 0; j++) {
		uint32_t o = lay->bl_chash[j & (lay->bl_chashcap - 1)];

		if (o == 0)
			break;
		if (strcmp(lay->bl_consts + o - 1, s) == 0)
			return o - 1;
	}
	if (lay->bl_live != NULL) {
		off = lay->bl_spare;
		if (n > lay->bl_spare_end - off)
			return UINT32_MAX;
		memcpy(lay->bl_consts + off, s, n);
		memcpy(lay->bl_live + off, s, n);
		lay->bl_spare += (uint32_t) n;
	} else {
		off = dt_bpf_layout_bytes(lay, s, (uint32_t) n);
	}
	/* Unremembered, it is only laid out twice if asked for again. */
	(void) dt_bpf_const_remember(lay, s, off);
	return off;
}

void
dt_bpf_layout_spare(dt_bpf_layout_t *lay, uint32_t len)
{
	uint32_t off = lay->bl_conslen;

	/* One byte at a time keeps dt_bpf_layout_bytes() simple. */
	for (uint32_t i = 0; i < len; i++)
		(void) dt_bpf_layout_bytes(lay, "", 1);
	if (lay->bl_conslen == off + len) {
		lay->bl_spare = off;
		lay->bl_spare_end = off + len;
	}
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
	for (uint32_t pc = 0; pc < difo->dif_len; pc++) {
		dif_instr_t in = difo->dif_buf[pc];

		if (DIF_INSTR_OP(in) == DIF_OP_LDGS &&
		    DIF_INSTR_VAR(in) == DIF_VAR_CURCPU)
			lay->bl_curcpu = true;
		/* d_path() walks a path with cwd's state. */
		if ((DIF_INSTR_OP(in) == DIF_OP_LDGS &&
		    DIF_INSTR_VAR(in) == DIF_VAR_CWD) ||
		    (DIF_INSTR_OP(in) == DIF_OP_CALL &&
		    DIF_INSTR_SUBR(in) == DIF_SUBR_D_PATH))
			lay->bl_cwd = true;
		if (DIF_INSTR_OP(in) == DIF_OP_CALL &&
		    DIF_INSTR_SUBR(in) == DIF_SUBR_STRTOK)
			lay->bl_strtok = true;
		if (DIF_INSTR_OP(in) == DIF_OP_LDGS &&
		    DIF_INSTR_VAR(in) >= DIF_VAR_ARG0 &&
		    DIF_INSTR_VAR(in) <= DIF_VAR_ARG9 &&
		    DIF_INSTR_VAR(in) - DIF_VAR_ARG0 + 1 > lay->bl_nargs)
			lay->bl_nargs = DIF_INSTR_VAR(in) - DIF_VAR_ARG0 + 1;
		if (DIF_INSTR_OP(in) == DIF_OP_LDGA &&
		    DIF_INSTR_R1(in) == DIF_VAR_ARGS)
			lay->bl_nargs = DT_BPF_NARGS;
	}
	/* A trailing NUL so a string at the very end still terminates. */
	dc->dc_off = dt_bpf_layout_bytes(lay, difo->dif_strtab,
	    difo->dif_strlen);
	(void) dt_bpf_layout_bytes(lay, "", 1);
	return 0;
}

uint32_t
dt_bpf_layout_dyncost(const dt_bpf_var_t *bv)
{
	return bv->bv_keysize + bv->bv_size + DT_BPF_DYNVAR_HDR;
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
uint32_t
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
 * Still too long a key for a kernel that takes at most DT_LF_SMALL_KEY
 * bytes (@[ustack()] is 808 at ustackframes=100): the stack keys keep
 * the frames that fit, shared equally; a stack deeper than that is cut,
 * said once with the strings' (ba_cutframes).
 */
static void
dt_bpf_layout_cutstacks(dt_bpf_aggmap_t *ba, uint32_t nkeys)
{
	uint32_t other = 0, nstk = 0, each;

	for (uint32_t k = 0; k < nkeys; k++) {
		const dt_recdesc_t *rd = &ba->ba_keys[k];

		if (rd->rd_type == DT_REC_STACK || rd->rd_type == DT_REC_USTACK)
			nstk++;
		else if (rd->rd_type != DT_REC_NONE)
			other += (rd->rd_size + 7) & ~7U;
	}
	if (nstk == 0 || other + 16 * nstk > DT_LF_SMALL_KEY)
		return;
	each = ((DT_LF_SMALL_KEY - other) / nstk) & ~7U;
	for (uint32_t k = 0; k < nkeys; k++) {
		dt_recdesc_t *rd = &ba->ba_keys[k];
		uint32_t hdr = rd->rd_type == DT_REC_USTACK ? 8 : 0;

		if ((rd->rd_type != DT_REC_STACK &&
		    rd->rd_type != DT_REC_USTACK) || rd->rd_size <= each)
			continue;
		rd->rd_size = each;
		rd->rd_arg = (each - hdr) / 8;
		ba->ba_compact = true;
		ba->ba_cutframes = (uint32_t) rd->rd_arg;
	}
}

/*
 * The map key layout of aggregation i: ag_keys, with each bounded string
 * key shrunk to its bound (and, on a kernel that takes no long keys, the
 * strings cut to fit) and the keys placed again at their alignment.
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
		if (kb[k] != 0 && kb[k] < agg->ag_keys[k].rd_size) {
			ba->ba_keys[k].rd_size = kb[k];
			ba->ba_compact = true;
		}
	}
	/*
	 * A kernel whose hash maps take keys of at most DT_LF_SMALL_KEY
	 * bytes (Linux 5.10): the string keys are cut, all to one width,
	 * until the key fits, rather than the aggregation refused.  The
	 * consumer reads them back into strsize-wide slots, NUL-padded.
	 */
	if (agg->ag_keysize > DT_LF_SMALL_KEY &&
	    !dt_linux_feature(DT_LF_BIG_KEYS)) {
		uint32_t fixed = 0, nstr = 0, cut;

		for (uint32_t k = 0; k < agg->ag_nkeys; k++) {
			const dt_recdesc_t *rd = &ba->ba_keys[k];

			if (rd->rd_type == DT_REC_STRING)
				nstr++;
			else if (rd->rd_type != DT_REC_NONE)
				fixed += (rd->rd_size + 7) & ~7U;
		}
		cut = nstr == 0 || fixed >= DT_LF_SMALL_KEY ? 0 :
		    ((DT_LF_SMALL_KEY - fixed) / nstr) & ~7U;
		for (uint32_t k = 0; cut >= 8 && k < agg->ag_nkeys; k++) {
			dt_recdesc_t *rd = &ba->ba_keys[k];

			if (rd->rd_type == DT_REC_STRING && rd->rd_size > cut) {
				rd->rd_size = cut;
				ba->ba_compact = true;
				ba->ba_cut = cut;
			}
		}
		dt_bpf_layout_cutstacks(ba, agg->ag_nkeys);
	}
	if (!ba->ba_compact)
		return 0;
	for (uint32_t k = 0; k < agg->ag_nkeys; k++) {
		dt_recdesc_t *rd = &ba->ba_keys[k];
		uint32_t align = rd->rd_align ? rd->rd_align : 1;

		if (rd->rd_type == DT_REC_NONE)
			continue;
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
		ba->ba_slots_fd = -1;
		ba->ba_free_fd = -1;
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
		need = dt_agg_entsize(agg);
		ba->ba_maxent = (uint32_t) (lay->bl_aggsize / need);
		if (ba->ba_maxent < 16)
			ba->ba_maxent = 16;
		if (ba->ba_maxent > (1U << 20))
			ba->ba_maxent = 1U << 20;
		/*
		 * An aggregation without keys has one entry, in a per-CPU
		 * array (dt_bpf_gen.h): a map sized for aggsize would be
		 * preallocated for nothing (a quarter of a million per-CPU
		 * entries at the default aggsize, hundreds of milliseconds of
		 * start-up).
		 */
		if (agg->ag_nkeys == 0) {
			ba->ba_kind = DT_AGGMAP_ARRAY;
			ba->ba_keysize = 4;
			ba->ba_maxent = 1;
		}
		if (ba->ba_keysize > lay->bl_maxaggkey)
			lay->bl_maxaggkey = ba->ba_keysize;
		if (ba->ba_valsize > lay->bl_maxaggval)
			lay->bl_maxaggval = ba->ba_valsize;
	}

	/* State map: zeros, counters, globals, ..., then consts. */
	off = 0;
	lay->bl_dscratch_size = DT_BPF_DSCRATCH_MIN;
	if (lay->bl_dscratch_size < 8 * ss)
		lay->bl_dscratch_size = 8 * ss;
	/* alloca() may take scratchsize bytes besides the strings. */
	lay->bl_dscratch_size += (lay->bl_scratchsize + 7) & ~7U;
	lay->bl_zero_off = off;
	lay->bl_zero_size = lay->bl_dscratch_size;
	off += lay->bl_zero_size;
	lay->bl_cnt_off = off;
	off += DT_BPF_CNT_NWORDS * 8;
	/*
	 * The bytes the dynamic variables hold, changed by every firing
	 * that adds or deletes one: in a cache line of its own, away from
	 * the words every firing reads.
	 */
	lay->bl_dynused_off = (off + 63) & ~63U;
	off = lay->bl_dynused_off + 64;
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
	lay->bl_cpuinfo_off = off;
	if (lay->bl_curcpu)
		off += (uint32_t) sizeof (dt_cpuinfo_t) * lay->bl_ncpus;
	lay->bl_consts_off = (off + 7) & ~7U;
	lay->bl_state_size = lay->bl_consts_off + lay->bl_conslen;

	/* Dynamic variables. */
	for (uint32_t i = 0; i < lay->bl_nvars; i++) {
		dt_bpf_var_t *bv = &lay->bl_vars[i];
		uint64_t n;

		if (bv->bv_scope == DIFV_SCOPE_LOCAL ||
		    (bv->bv_scope == DIFV_SCOPE_GLOBAL &&
		    bv->bv_kind == DIFV_KIND_SCALAR))
			continue;
		n = lay->bl_dynvarsize / dt_bpf_layout_dyncost(bv);
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
	/*
	 * lltostr() builds its digits in 72 bytes of work buffer 0; the
	 * loop variables (80 bytes) and strtok()'s delimiter bitmap (32)
	 * are in work buffer 2.
	 */
	lay->bl_worksize = ss + 8 < 112 ? 112 : ss + 8;
	lay->bl_work_off = off;
	off += DT_BPF_NWORK * lay->bl_worksize;
	lay->bl_strbuf_off = off;
	off += ss;
	lay->bl_argsbuf_off = off;
	off += ss;
	lay->bl_kstr_off = off;
	off += ss;
	lay->bl_strtok_off = off;
	if (lay->bl_strtok)
		off += 16 + ss + 8;
	lay->bl_cwd_off = off;
	if (lay->bl_cwd)
		off += DT_BPF_CWD_TEXT + ss + 8;
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
	off += 8 *
	    (DT_BPF_USTACK_MAX > DT_BPF_KSTACK_MAX ? DT_BPF_USTACK_MAX
						   : DT_BPF_KSTACK_MAX);
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
	/*
	 * The kernel refuses per-CPU values over 32k (PCPU_MIN_UNIT_SIZE,
	 * E2BIG), which a large strsize passes: then scratch is an array
	 * with one entry per CPU, looked up by the CPU's number.
	 */
	lay->bl_scratch_shared = lay->bl_scratch_size > 32768;
	/*
	 * BPF instructions address the maps' fields with 16-bit signed
	 * offsets: every field but the far ends of DIF scratch and of the
	 * state map's zero block must lie within them.
	 */
	/*
	 * The speculation table (16 bytes a buffer) lies before the
	 * constants: when it is what pushes them out of reach, the cause
	 * is nspec, past what speculation() handles anyway.
	 */
	if (lay->bl_consts_off > INT16_MAX &&
	    lay->bl_consts_off - 16 * lay->bl_nspec <= INT16_MAX)
		return dt_lay_error(errbuf, errlen,
		    "nspec %u is too large for the bpf engine (at most %u)",
		    (unsigned) lay->bl_nspec, DT_BPF_MAXSPEC);
	if ((lay->bl_dscratch_off > INT16_MAX || lay->bl_consts_off >
	    INT16_MAX) && lay->bl_scratchsize > 0)
		return dt_lay_error(errbuf, errlen,
		    "scratchsize %u with strsize %u is too large for the bpf "
		    "engine: its maps' fields would lie past the 32k that BPF "
		    "instructions address (lower scratchsize)",
		    (unsigned) lay->bl_scratchsize,
		    (unsigned) lay->bl_strsize);
	if (lay->bl_dscratch_off > INT16_MAX || lay->bl_consts_off >
	    INT16_MAX)
		return dt_lay_error(errbuf, errlen,
		    "strsize %u is too large for the bpf engine: its maps' "
		    "fields would lie past the 32k that BPF instructions "
		    "address (lower strsize)", (unsigned) lay->bl_strsize);
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

