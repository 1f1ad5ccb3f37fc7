/* SPDX-License-Identifier: MIT */
/*
 * dt_folded.c: aggregations as folded stacks (-x oformat=folded), the
 * one-line-per-stack text that flame-graph tools read:
 *
 *	key;outermost-frame;...;innermost-frame value
 *
 * A stack key (stack(), ustack()) becomes its frames, outermost first
 * and without offsets, so that every sample in one function folds into
 * one frame; any other key becomes a frame of its own, in key order, so
 * @[execname, ustack()] gives one tower per program.  Lines that fold to
 * the same text are one line, their count()s or sum()s added.  Only
 * aggregations are affected: records of trace(), printf() and the like
 * print as text, so with -q the output is the folded lines alone.
 * Distributions have no single value to fold: they are left out with a
 * note on stderr.
 */
#include <stdlib.h>
#include <string.h>

#include "common/consumer/dt_cons_impl.h"
#include "common/dt_aggfunc.h"

typedef struct dt_fline {
	char *fl_text;
	int64_t fl_val;
} dt_fline_t;

/*
 * One frame.  ';' separates frames, so a ';' in a key becomes ':'; a
 * newline would end the line, so it becomes a space.  Spaces stay
 * ("operator new(unsigned long)"): the tools split the value off at the
 * last one.
 */
static void
dt_folded_frame(FILE *fp, const char *s, size_t maxlen)
{
	for (size_t i = 0; i < maxlen && s[i] != '\0'; i++) {
		char c = s[i];

		(void) fputc(c == ';' ? ':' : c == '\n' ? ' ' : c, fp);
	}
}

static void
dt_folded_stack(dt_consumer_t *dc, FILE *fp, const dt_recdesc_t *rd,
    const unsigned char *addr, bool *first)
{
	bool user = rd->rd_type == DT_REC_USTACK;
	const unsigned char *pcs = addr + (user ? 8 : 0);
	uint64_t pid = 0, n = 0;
	char buf[1024];

	if (user)
		memcpy(&pid, addr, 8);
	while (n < rd->rd_arg) {
		uint64_t pc;

		memcpy(&pc, pcs + n * 8, 8);
		if (pc == 0)
			break;
		n++;
	}
	/* Records hold the innermost frame first; flame graphs the root. */
	while (n-- > 0) {
		uint64_t pc;

		memcpy(&pc, pcs + n * 8, 8);
		if (user)
			dt_uaddr2str(dc, pid, pc, false, buf, sizeof(buf));
		else
			dt_addr2str(dc, pc, false, buf, sizeof(buf));
		if (!*first)
			(void) fputc(';', fp);
		*first = false;
		dt_folded_frame(fp, buf, SIZE_MAX);
	}
}

/* A key that is not a stack, as one frame. */
static void
dt_folded_key(
    dt_consumer_t *dc, FILE *fp, const dt_recdesc_t *rd, const unsigned char *p)
{
	char buf[1024];

	switch (rd->rd_type) {
	case DT_REC_SINT:
		if (rd->rd_size <= 8) {
			(void) fprintf(
			    fp, "%lld", (long long) dt_rec_sint(rd, p));
			return;
		}
		break;
	case DT_REC_UINT:
		if (rd->rd_size <= 8) {
			(void) fprintf(fp, "%llu",
			    (unsigned long long) dt_rec_uint(rd, p));
			return;
		}
		break;
	case DT_REC_PTR:
		(void) fprintf(
		    fp, "0x%llx", (unsigned long long) dt_rec_uint(rd, p));
		return;
	case DT_REC_STRING:
		dt_folded_frame(fp, (const char *) p, rd->rd_size);
		return;
	case DT_REC_SYM:
	case DT_REC_MOD:
	case DT_REC_USYM:
	case DT_REC_UMOD:
	case DT_REC_UADDR:
		dt_sym2str(dc, rd, p, buf, sizeof(buf));
		dt_folded_frame(fp, buf, SIZE_MAX);
		return;
	default:
		break;
	}
	for (uint32_t i = 0; i < rd->rd_size; i++)
		(void) fprintf(fp, "%02x", p[i]);
}

/*
 * One key as text, as a folded line shows it: a stack's frames joined by
 * ';', anything else as one frame (the metrics' label values too).
 */
void
dt_folded_keytext(
    dt_consumer_t *dc, FILE *fp, const dt_recdesc_t *rd, const unsigned char *p)
{
	bool first = true;

	if (rd->rd_type == DT_REC_STACK || rd->rd_type == DT_REC_USTACK)
		dt_folded_stack(dc, fp, rd, p, &first);
	else
		dt_folded_key(dc, fp, rd, p);
}

int64_t
dt_folded_value(const dt_aggdesc_t *agg, const int64_t *v, uint64_t normal)
{
	if (normal == 0)
		normal = 1;
	switch (agg->ag_kind) {
	case DT_AGG_AVG:
		return dt_agg_avg(v, normal);
	case DT_AGG_STDDEV:
		return (int64_t) dt_agg_stddev(v, normal);
	case DT_AGG_COUNT:
		return (int64_t) ((uint64_t) v[0] / normal);
	default:
		return v[0] / (int64_t) normal;
	}
}

static int
dt_fline_cmp(const void *l, const void *r)
{
	return strcmp(((const dt_fline_t *) l)->fl_text,
	    ((const dt_fline_t *) r)->fl_text);
}

static int
dt_folded_agg(dt_consumer_t *dc, FILE *fp, uint32_t aggid)
{
	const dt_aggdesc_t *agg = dt_agg_desc(dc, aggid);
	uint64_t normal = dc->dc_aggstate[aggid].as_normal;
	bool additive =
	    agg->ag_kind == DT_AGG_COUNT || agg->ag_kind == DT_AGG_SUM;
	dt_fline_t *lines;
	dt_aggent_t **v;
	uint32_t n, nl = 0;
	int rv = 0;

	if (agg->ag_kind == DT_AGG_QUANTIZE ||
	    agg->ag_kind == DT_AGG_LQUANTIZE ||
	    agg->ag_kind == DT_AGG_LLQUANTIZE) {
		(void) fprintf(dc->dc_errfp,
		    "dtrace: @%s not printed: a %s() has no folded form\n",
		    agg->ag_name, dt_aggkind_name(agg->ag_kind));
		return 0;
	}
	if ((v = dt_agg_sorted(dc, aggid, &n)) == NULL)
		return dt_cons_nomem(dc);
	if ((lines = calloc(n ? n : 1, sizeof(dt_fline_t))) == NULL) {
		free(v);
		return dt_cons_nomem(dc);
	}
	for (uint32_t i = 0; i < n; i++) {
		size_t len;
		FILE *mf = open_memstream(&lines[i].fl_text, &len);
		bool first = true;

		if (mf == NULL) {
			rv = dt_cons_nomem(dc);
			break;
		}
		for (uint32_t k = 0; k < agg->ag_nkeys; k++) {
			const dt_recdesc_t *rd = &agg->ag_keys[k];
			const unsigned char *p = v[i]->ae_key + rd->rd_offset;

			if (rd->rd_type == DT_REC_STACK ||
			    rd->rd_type == DT_REC_USTACK) {
				dt_folded_stack(dc, mf, rd, p, &first);
				continue;
			}
			if (!first)
				(void) fputc(';', mf);
			first = false;
			dt_folded_key(dc, mf, rd, p);
		}
		/* A key of nothing but empty stacks still needs a frame. */
		if (first)
			(void) fputs(agg->ag_name[0] ? agg->ag_name : "-", mf);
		if (fclose(mf) != 0) {
			rv = dt_cons_nomem(dc);
			break;
		}
		lines[i].fl_val = dt_folded_value(agg, v[i]->ae_vals, normal);
		nl = i + 1;
	}
	free(v);
	if (rv == 0 && additive)
		qsort(lines, nl, sizeof(dt_fline_t), dt_fline_cmp);
	for (uint32_t i = 0; rv == 0 && i < nl; i++) {
		int64_t val = lines[i].fl_val;

		while (additive && i + 1 < nl &&
		    strcmp(lines[i].fl_text, lines[i + 1].fl_text) == 0)
			val += lines[++i].fl_val;
		(void) fprintf(
		    fp, "%s %lld\n", lines[i].fl_text, (long long) val);
	}
	for (uint32_t i = 0; i < n; i++)
		free(lines[i].fl_text);
	free(lines);
	if (rv == 0 && ferror(fp))
		rv = dt_cons_ioerr(dc->dc_dtp);
	return rv;
}

int
dt_folded_aggs(dt_consumer_t *dc, FILE *fp, const uint32_t *aggids,
    uint32_t naggs, bool unprinted)
{
	uint32_t total = dc->dc_pgp ? dc->dc_pgp->pg_naggs : 0;

	if (aggids == NULL) {
		for (uint32_t id = 0; id < total; id++) {
			if (unprinted && dc->dc_aggstate[id].as_printed)
				continue;
			if (dt_folded_agg(dc, fp, id) != 0)
				return -1;
		}
		return 0;
	}
	for (uint32_t i = 0; i < naggs; i++) {
		if (dt_folded_agg(dc, fp, aggids[i]) != 0)
			return -1;
		dc->dc_aggstate[aggids[i]].as_printed = true;
	}
	return 0;
}
