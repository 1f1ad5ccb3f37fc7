/* SPDX-License-Identifier: MIT */
/*
 * dt_aggprint.c: aggregations as text -- DTrace's default layout, the
 * quantize family's tables, and printa() with and without a format.
 *
 * The default layout prints each entry on one line: the keys as trace()
 * would print them (integers right-aligned in 3/5/8/16 columns, strings
 * left-aligned in 50), then the value right-aligned in 16 columns.  The
 * distributions print a table instead of the value:
 *
 *	           value  ------------- Distribution ------------- count
 *	               0 |                                         0
 *	               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@ 3
 *	               2 |                                         0
 *
 * showing the buckets from one below the first non-zero bucket to one past
 * the last (or the three around zero when all are zero), the bar scaled to
 * 40 '@' for the total of the shown buckets.  With negative counts the bar
 * grows left of the '|'; with both signs each side gets 20 columns.
 *
 * printa() with several aggregations joins them on their keys: every key
 * any of them has gets a line, with 0 for the aggregations that lack it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/consumer/dt_cons_impl.h"
#include "common/dt_aggfunc.h"

/* DTrace's aggzoom: the tallest bar fills about 95% of the width. */
#define DT_AGGZOOM_MAX 0.95L

static const char dt_ats[] = "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@";
static const char dt_spaces[] = "                                        ";

static void
dt_quant_total(dt_consumer_t *dc, int64_t v, long double *total)
{
	long double a = fabsl((long double) v);

	if (dc->dc_dtp->dt_options[DT_OPT_AGGZOOM] == DTRACEOPT_UNSET) {
		*total += a;
		return;
	}
	a *= 1 / DT_AGGZOOM_MAX;
	if (*total < a)
		*total = a;
}

/*
 * Bars in Unicode block elements, as DTrace draws them with the utf8
 * encoding: whole blocks, then one partial block of eighths.
 */
#define DT_UTF8_FULL 0x2588 /* U+2588, a full block */
#define DT_UTF8_BASE 0x258f /* U+258F, the narrowest partial block */

static int
dt_put_utf8(FILE *fp, unsigned int cp)
{
	return fprintf(fp, "%c%c%c", 0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f),
		   0x80 | (cp & 0x3f)) < 0
	    ? -1
	    : 0;
}

static int
dt_quant_line_utf8(
    FILE *fp, int64_t val, uint64_t normal, long double total)
{
	long double f = fabsl((long double) val) * 40 / total;
	unsigned int whole = (unsigned int) f, i;
	unsigned int part = (unsigned int) ((f - (long double) whole) * 8);

	if (fputc('|', fp) == EOF)
		return -1;
	for (i = 0; i < whole; i++) {
		if (dt_put_utf8(fp, DT_UTF8_FULL) != 0)
			return -1;
	}
	if (part != 0) {
		if (dt_put_utf8(fp, DT_UTF8_BASE - (part - 1)) != 0)
			return -1;
		i++;
	}
	return fprintf(fp, "%s %-9lld\n", dt_spaces + i,
		   (long long) (val / (int64_t) normal)) < 0
	    ? -1
	    : 0;
}

static bool
dt_encoding_utf8(const dt_consumer_t *dc)
{
	return dc->dc_dtp->dt_options[DT_OPT_ENCODING] == DT_ENCODING_UTF8;
}

static int
dt_quant_line(dt_consumer_t *dc, FILE *fp, int64_t val, uint64_t normal,
    long double total, bool positives, bool negatives)
{
	unsigned int len = 40, depth;
	long long shown = (long long) (val / (int64_t) normal);

	if (!negatives && positives && dt_encoding_utf8(dc))
		return dt_quant_line_utf8(fp, val, normal, total);
	if (!negatives) {
		depth = positives
		    ? (unsigned int) (fabsl((long double) val) * len / total +
			  0.5L)
		    : 0;
		return fprintf(fp, "|%s%s %-9lld\n", dt_ats + len - depth,
			   dt_spaces + depth, shown) < 0
		    ? -1
		    : 0;
	}
	if (!positives) {
		depth = (unsigned int) (fabsl((long double) val) * len / total +
		    0.5L);
		return fprintf(fp, "%s%s| %-9lld\n", dt_spaces + depth,
			   dt_ats + len - depth, shown) < 0
		    ? -1
		    : 0;
	}

	/* Both signs: half-width bars either side of the centre line. */
	len /= 2;
	depth = (unsigned int) (fabsl((long double) val) * len / total + 0.5L);
	if (val <= 0)
		return fprintf(fp, "%s%s|%*s %-9lld\n", dt_spaces + 20 + depth,
			   dt_ats + 20 + len - depth, (int) len, "", shown) < 0
		    ? -1
		    : 0;
	return fprintf(fp, "%20s|%s%s %-9lld\n", "", dt_ats + 20 + len - depth,
		   dt_spaces + 20 + depth, shown) < 0
	    ? -1
	    : 0;
}

/* The bucket range shown, and the totals the bars scale to. */
static void
dt_quant_range(dt_consumer_t *dc, const int64_t *v, uint32_t n,
    uint32_t empty_first, uint32_t empty_last, uint32_t *firstp,
    uint32_t *lastp, long double *totalp, bool *posp, bool *negp)
{
	uint32_t first = 0, last = n - 1;

	while (first < n && v[first] == 0)
		first++;
	if (first == n) {
		first = empty_first;
		last = empty_last;
	} else {
		if (first > 0)
			first--;
		while (last > 0 && v[last] == 0)
			last--;
		if (last < n - 1)
			last++;
	}
	*totalp = 0;
	*posp = *negp = false;
	for (uint32_t i = first; i <= last && i < n; i++) {
		*posp |= v[i] > 0;
		*negp |= v[i] < 0;
		dt_quant_total(dc, v[i], totalp);
	}
	*firstp = first;
	*lastp = last < n ? last : n - 1;
}

static int
dt_quant_header(FILE *fp)
{
	return fprintf(fp, "\n%16s %41s %-9s\n", "value",
		   "------------- Distribution -------------", "count") < 0
	    ? -1
	    : 0;
}

static int64_t
dt_ipow64(int64_t b, int64_t e)
{
	int64_t r = 1;

	/* Saturated as the buckets are (common/dt_aggfunc.c). */
	while (e-- > 0) {
		if (r > INT64_MAX / b)
			return INT64_MAX;
		r *= b;
	}
	return r;
}

int
dt_print_quantize(dt_consumer_t *dc, FILE *fp, const dt_aggdesc_t *agg,
    const int64_t *v, uint64_t normal)
{
	uint32_t n = agg->ag_nvals, first, last;
	long double total;
	bool pos, neg;
	char label[64];

	if (normal == 0)
		normal = 1;
	if (n == 0)
		return 0;
	switch (agg->ag_kind) {
	case DT_AGG_QUANTIZE:
		dt_quant_range(dc, v, n, DT_QUANTIZE_ZERO - 1,
		    DT_QUANTIZE_ZERO + 1, &first, &last, &total, &pos, &neg);
		break;
	case DT_AGG_LQUANTIZE:
		dt_quant_range(
		    dc, v, n, 0, 2, &first, &last, &total, &pos, &neg);
		break;
	default:
		dt_quant_range(
		    dc, v, n, 0, 1, &first, &last, &total, &pos, &neg);
		break;
	}
	if (dt_quant_header(fp) != 0)
		return -1;

	for (uint32_t i = first; i <= last; i++) {
		switch (agg->ag_kind) {
		case DT_AGG_QUANTIZE:
			(void) fprintf(fp, "%16lld ",
			    (long long) dt_quantize_bucket_value((int) i));
			break;
		case DT_AGG_LQUANTIZE: {
			int64_t base = agg->ag_params[0];
			int64_t step = agg->ag_params[2];

			if (i == 0) {
				(void) snprintf(label, sizeof(label), "< %lld",
				    (long long) base);
				(void) fprintf(fp, "%16s ", label);
			} else if (i == n - 1) {
				(void) snprintf(label, sizeof(label), ">= %lld",
				    (long long) (base +
					(int64_t) (n - 2) * step));
				(void) fprintf(fp, "%16s ", label);
			} else {
				(void) fprintf(fp, "%16lld ",
				    (long long) (base +
					(int64_t) (i - 1) * step));
			}
			break;
		}
		default: {
			const int64_t *p = agg->ag_params;

			if (i == 0) {
				(void) snprintf(label, sizeof(label), "< %lld",
				    (long long) dt_ipow64(p[0], p[1]));
				(void) fprintf(fp, "%16s ", label);
			} else if (i == n - 1) {
				(void) snprintf(label, sizeof(label), ">= %lld",
				    (long long) dt_ipow64(p[0], p[2] + 1));
				(void) fprintf(fp, "%16s ", label);
			} else {
				(void) fprintf(fp, "%16lld ",
				    (long long) dt_llquantize_bucket_value(
					i, p[0], p[1], p[2], p[3]));
			}
			break;
		}
		}
		if (dt_quant_line(dc, fp, v[i], normal, total, pos, neg) != 0)
			return -1;
	}
	return 0;
}

/*
 * The value of a count(), sum(), min(), max(), avg() or stddev() entry as
 * the default layout prints it, into dst (room for DT_FMT_INT_MAX bytes);
 * 0 for the distributions, which print a table.
 */
static size_t
dt_fmt_aggval(
    char *dst, const dt_aggdesc_t *agg, const int64_t *vals, uint64_t normal)
{
	if (normal == 0)
		normal = 1;
	switch (agg->ag_kind) {
	case DT_AGG_QUANTIZE:
	case DT_AGG_LQUANTIZE:
	case DT_AGG_LLQUANTIZE:
		return 0;
	case DT_AGG_AVG:
		return dt_fmt_int(
		    dst, 16, (uint64_t) dt_agg_avg(vals, normal), true);
	case DT_AGG_STDDEV:
		return dt_fmt_int(dst, 16, dt_agg_stddev(vals, normal), false);
	default:
		return dt_fmt_int(
		    dst, 16, (uint64_t) (vals[0] / (int64_t) normal), true);
	}
}

int
dt_print_aggval(dt_consumer_t *dc, FILE *fp, const dt_aggdesc_t *agg,
    const int64_t *vals, uint64_t normal)
{
	char buf[DT_FMT_INT_MAX];
	size_t len = dt_fmt_aggval(buf, agg, vals, normal);

	if (len == 0)
		return dt_print_quantize(
		    dc, fp, agg, vals, normal ? normal : 1);
	return fwrite(buf, 1, len, fp) == len ? 0 : -1;
}

static int
dt_print_keys(dt_consumer_t *dc, FILE *fp, const dt_aggdesc_t *agg,
    const unsigned char *key)
{
	for (uint32_t k = 0; k < agg->ag_nkeys; k++) {
		const dt_recdesc_t *rd = &agg->ag_keys[k];

		if (dt_print_datum(
			dc, fp, rd, key + rd->rd_offset, false, true) != 0)
			return -1;
	}
	return 0;
}

/*
 * agghist and aggpack, DTrace's other layouts of the default output.
 *
 * With agghist, count() and sum() entries become one histogram: a header
 * naming the key columns, then per entry its keys and a bar scaled to the
 * aggregation's total.  With aggpack, each quantize() or lquantize() entry
 * is one line: the lowest bucket shown, a character per bucket (' ', then
 * '_' to 'X' by height, 'v' and 'V' for negative counts, or Unicode blocks
 * with the utf8 encoding), the highest bucket and the count.  Every entry
 * of an aggregation shows the same buckets.  Keys print as in the default
 * layout but for strings, which take 16 columns, right-aligned.
 */
typedef struct dt_aggview {
	uint32_t vw_aggid;	 /* the aggregation whose header is out */
	long double vw_total;	 /* agghist: what a full bar stands for */
	bool vw_pos, vw_neg;	 /* agghist: signs of the values */
	uint32_t vw_min, vw_max; /* aggpack: the buckets shown */
} dt_aggview_t;

static bool
dt_agg_hist(const dt_consumer_t *dc, const dt_aggdesc_t *agg)
{
	return dc->dc_dtp->dt_options[DT_OPT_AGGHIST] != DTRACEOPT_UNSET &&
	    (agg->ag_kind == DT_AGG_COUNT || agg->ag_kind == DT_AGG_SUM);
}

static bool
dt_agg_pack(const dt_consumer_t *dc, const dt_aggdesc_t *agg)
{
	return dc->dc_dtp->dt_options[DT_OPT_AGGPACK] != DTRACEOPT_UNSET &&
	    (agg->ag_kind == DT_AGG_QUANTIZE ||
		agg->ag_kind == DT_AGG_LQUANTIZE);
}

/* Characters a value needs, sign included; at least 4. */
static int
dt_ndigits(long long v)
{
	long long cmp = 10;
	int n = 1;

	if (v < 0) {
		v = v == INT64_MIN ? INT64_MAX : -v;
		n++;
	}
	while (v > cmp && cmp > 0) {
		n++;
		cmp *= 10;
	}
	return n < 4 ? 4 : n;
}

/* The columns of the keys in these layouts. */
static int
dt_view_keywidth(const dt_aggdesc_t *agg)
{
	int w = 0;

	for (uint32_t k = 0; k < agg->ag_nkeys; k++) {
		switch (agg->ag_keys[k].rd_size) {
		case 1:
			w += 3 + 1;
			break;
		case 2:
			w += 5 + 1;
			break;
		case 4:
			w += 8 + 1;
			break;
		default:
			w += 16 + 1;
			break;
		}
	}
	return w;
}

static int
dt_view_keys(dt_consumer_t *dc, FILE *fp, const dt_aggdesc_t *agg,
    const unsigned char *key)
{
	for (uint32_t k = 0; k < agg->ag_nkeys; k++) {
		const dt_recdesc_t *rd = &agg->ag_keys[k];
		int rc;

		if (rd->rd_type == DT_REC_STRING || rd->rd_type == DT_REC_BYTES)
			rc = dt_print_bytes(dc, fp, key + rd->rd_offset,
			    rd->rd_size, 16, false, false);
		else
			rc = dt_print_datum(
			    dc, fp, rd, key + rd->rd_offset, false, true);
		if (rc != 0)
			return -1;
	}
	return 0;
}

/* The bucket range of an aggregation's packed lines (before widening). */
static void
dt_view_bins(dt_consumer_t *dc, const dt_aggdesc_t *agg, uint32_t *minp,
    uint32_t *maxp)
{
	uint32_t min = UINT32_MAX, max = 0;

	if (agg->ag_kind == DT_AGG_LQUANTIZE) {
		*minp = 0;
		*maxp = agg->ag_nvals - 1;
		return;
	}
	for (uint32_t e = 0; e < dc->dc_naggents; e++) {
		const dt_aggent_t *ae = dc->dc_aggents[e];

		if (ae->ae_aggid != agg->ag_id)
			continue;
		for (uint32_t i = 0; i < agg->ag_nvals; i++) {
			if (ae->ae_vals[i] == 0)
				continue;
			if (i < min)
				min = i;
			if (i > max)
				max = i;
		}
	}
	if (min == UINT32_MAX)
		min = max = DT_QUANTIZE_ZERO;
	/* One bucket more each side, but none below zero's own. */
	if (min != 0 && min != DT_QUANTIZE_ZERO)
		min--;
	if (max < DT_QUANTIZE_NBUCKETS - 1)
		max++;
	*minp = min;
	*maxp = max;
}

static int
dt_view_header(dt_consumer_t *dc, FILE *fp, const dt_aggdesc_t *agg,
    dt_aggview_t *vw)
{
	int width = dt_view_keywidth(agg), minw, maxw;

	vw->vw_aggid = agg->ag_id;
	if (dt_agg_hist(dc, agg)) {
		vw->vw_total = 0;
		vw->vw_pos = vw->vw_neg = false;
		for (uint32_t e = 0; e < dc->dc_naggents; e++) {
			const dt_aggent_t *ae = dc->dc_aggents[e];

			if (ae->ae_aggid != agg->ag_id)
				continue;
			vw->vw_pos |= ae->ae_vals[0] > 0;
			vw->vw_neg |= ae->ae_vals[0] < 0;
			dt_quant_total(dc, ae->ae_vals[0], &vw->vw_total);
		}
		return fprintf(fp, "\n%*s %41s %-9s\n", width ? width : 16,
			   width ? "key" : "value",
			   "------------- Distribution -------------",
			   "count") < 0
		    ? -1
		    : 0;
	}
	dt_view_bins(dc, agg, &vw->vw_min, &vw->vw_max);
	if (agg->ag_kind == DT_AGG_QUANTIZE) {
		minw = dt_ndigits(dt_quantize_bucket_value((int) vw->vw_min));
		maxw = dt_ndigits(dt_quantize_bucket_value((int) vw->vw_max));
	} else {
		maxw = 8;
		minw = maxw - 1;
	}
	if (fprintf(fp, "\n%*s %*s .", width, width > 0 ? "key" : "", minw,
		"min") < 0)
		return -1;
	for (uint32_t i = vw->vw_min; i <= vw->vw_max; i++) {
		if (fputc('-', fp) == EOF)
			return -1;
	}
	return fprintf(fp, ". %*s | count\n", -maxw, "max") < 0 ? -1 : 0;
}

/* Unicode blocks for packed lines unless told or the terminal says not. */
static bool
dt_view_utf8(const dt_consumer_t *dc)
{
	dtrace_optval_t enc = dc->dc_dtp->dt_options[DT_OPT_ENCODING];
	const char *term;

	if (enc != DTRACEOPT_UNSET)
		return enc == DT_ENCODING_UTF8;
	term = getenv("TERM");
	return term == NULL ||
	    (strcmp(term, "sun") != 0 && strcmp(term, "sun-color") != 0 &&
		strcmp(term, "dumb") != 0);
}

static int
dt_view_packed(dt_consumer_t *dc, FILE *fp, long double v, long double total)
{
	static const char ascii[] = "__xxxxXX", neg[] = "vvvvVV";

	if (v == 0)
		return fputc(' ', fp) == EOF ? -1 : 0;
	if (v < 0)
		return fputc(neg[(unsigned int) (fabsl(v * (sizeof(neg) - 2)) /
				     total +
				 0.5L)],
			   fp) == EOF
		    ? -1
		    : 0;
	if (dt_view_utf8(dc))
		return dt_put_utf8(fp,
		    0x2581 + (unsigned int) (v * 7 / total + 0.5L));
	return fputc(ascii[(unsigned int) (v * (sizeof(ascii) - 2) / total +
			 0.5L)],
		   fp) == EOF
	    ? -1
	    : 0;
}

static int
dt_view_entry(dt_consumer_t *dc, FILE *fp, const dt_aggdesc_t *agg,
    const dt_aggent_t *ae, uint64_t normal, dt_aggview_t *vw)
{
	const int64_t *v = ae->ae_vals;
	long double total = 0, count = 0;
	char lo[32], hi[32];

	if (vw->vw_aggid != agg->ag_id &&
	    dt_view_header(dc, fp, agg, vw) != 0)
		return -1;
	if (dt_view_keys(dc, fp, agg, ae->ae_key) != 0)
		return -1;
	if (dt_agg_hist(dc, agg))
		return fputc(' ', fp) == EOF ||
			dt_quant_line(dc, fp, v[0], normal ? normal : 1,
			    vw->vw_total, vw->vw_pos, vw->vw_neg) != 0
		    ? -1
		    : 0;
	for (uint32_t i = vw->vw_min; i <= vw->vw_max; i++) {
		dt_quant_total(dc, v[i], &total);
		count += (long double) v[i];
	}
	if (agg->ag_kind == DT_AGG_QUANTIZE) {
		long long minv = dt_quantize_bucket_value((int) vw->vw_min);

		if (fprintf(fp, " %*lld :", dt_ndigits(minv), minv) < 0)
			return -1;
	} else {
		(void) snprintf(lo, sizeof(lo), "< %lld",
		    (long long) agg->ag_params[0]);
		if (fprintf(fp, "%8s :", lo) < 0)
			return -1;
	}
	for (uint32_t i = vw->vw_min; i <= vw->vw_max; i++) {
		if (dt_view_packed(dc, fp, (long double) v[i], total) != 0)
			return -1;
	}
	if (agg->ag_kind == DT_AGG_QUANTIZE) {
		long long maxv = dt_quantize_bucket_value((int) vw->vw_max);

		return fprintf(fp, ": %*lld | %lld\n", -dt_ndigits(maxv), maxv,
			   (long long) count) < 0
		    ? -1
		    : 0;
	}
	(void) snprintf(hi, sizeof(hi), ">= %lld",
	    (long long) (agg->ag_params[0] +
		(int64_t) (agg->ag_nvals - 2) * agg->ag_params[2]));
	return fprintf(fp, ": %-8s | %lld\n", hi, (long long) count) < 0 ? -1
									 : 0;
}

/*
 * The default layout's lines made in memory.  A big aggregation printed
 * every second is nearly always integer keys and one number per entry;
 * such a line is made here as dt_print_keys() and dt_print_aggval()
 * print it, and many lines go out in one write, rather than a stdio
 * call for each field.
 */
#define DT_LINES_KEYS 32 /* keys a line made in memory may have */
#define DT_LINES_BUF  65536

typedef struct dt_lines {
	FILE *ln_fp;
	char *ln_buf; /* NULL: out of memory, every line printed by stdio */
	size_t ln_len;
} dt_lines_t;

static void
dt_lines_init(dt_lines_t *ln, FILE *fp)
{
	ln->ln_fp = fp;
	ln->ln_buf = malloc(DT_LINES_BUF);
	ln->ln_len = 0;
}

/* Out with what is made; -1 when the write failed. */
static int
dt_lines_flush(dt_lines_t *ln)
{
	size_t len = ln->ln_len;

	ln->ln_len = 0;
	return len == 0 || fwrite(ln->ln_buf, 1, len, ln->ln_fp) == len ? 0
									: -1;
}

static int
dt_lines_fini(dt_lines_t *ln)
{
	int rc = ln->ln_buf != NULL ? dt_lines_flush(ln) : 0;

	free(ln->ln_buf);
	ln->ln_buf = NULL;
	return rc;
}

/* Does every entry of agg print as a line made in memory? */
static bool
dt_lines_fit(const dt_consumer_t *dc, const dt_aggdesc_t *agg)
{
	char tmp[DT_FMT_INT_MAX];
	uint64_t zero = 0;

	if (agg->ag_nkeys > DT_LINES_KEYS || dt_agg_hist(dc, agg) ||
	    dt_agg_pack(dc, agg) || agg->ag_kind == DT_AGG_QUANTIZE ||
	    agg->ag_kind == DT_AGG_LQUANTIZE ||
	    agg->ag_kind == DT_AGG_LLQUANTIZE)
		return false;
	for (uint32_t k = 0; k < agg->ag_nkeys; k++) {
		if (agg->ag_keys[k].rd_size > sizeof(zero) ||
		    dt_fmt_intrec(tmp, &agg->ag_keys[k], &zero) == 0)
			return false;
	}
	return true;
}

/*
 * One entry's line, of an aggregation dt_lines_fit() accepted, made in
 * memory; -1 when a write failed.
 */
static int
dt_lines_entry(dt_lines_t *ln, const dt_aggdesc_t *agg, const dt_aggent_t *ae,
    uint64_t normal)
{
	char *p;

	if (ln->ln_len + (DT_LINES_KEYS + 1) * DT_FMT_INT_MAX + 1 >
		DT_LINES_BUF &&
	    dt_lines_flush(ln) != 0)
		return -1;
	p = ln->ln_buf + ln->ln_len;
	for (uint32_t k = 0; k < agg->ag_nkeys; k++) {
		const dt_recdesc_t *rd = &agg->ag_keys[k];

		p += dt_fmt_intrec(p, rd, ae->ae_key + rd->rd_offset);
	}
	p += dt_fmt_aggval(p, agg, ae->ae_vals, normal);
	*p++ = '\n';
	ln->ln_len = (size_t) (p - ln->ln_buf);
	return 0;
}

/* One entry in the default layout, or agghist's or aggpack's. */
static int
dt_print_entry(dt_consumer_t *dc, FILE *fp, const dt_aggdesc_t *agg,
    const dt_aggent_t *ae, uint64_t normal, dt_aggview_t *vw)
{
	if (dt_agg_hist(dc, agg) || dt_agg_pack(dc, agg))
		return dt_view_entry(dc, fp, agg, ae, normal, vw);
	if (dt_print_keys(dc, fp, agg, ae->ae_key) != 0 ||
	    dt_print_aggval(dc, fp, agg, ae->ae_vals, normal) != 0 ||
	    fputc('\n', fp) == EOF)
		return -1;
	return 0;
}

/*
 * What has not been printed, at the end: aggregation by aggregation in
 * program order (the other way with aggsortrev), as one sort of every
 * entry orders them, each sorted on its own -- so an aggregation printa()
 * printed already is not sorted again, and one printed before keeps its
 * last order as a first guess.
 */
int
dt_agg_print_all(dtrace_hdl_t *dtp, FILE *fp)
{
	dt_consumer_t *dc = dt_consumer(dtp);
	dt_aggview_t vw = { .vw_aggid = UINT32_MAX };
	dt_lines_t ln;
	uint32_t naggs;
	bool rev;
	int rv = 0;

	if (dc == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	if (dc->dc_pgp == NULL)
		return 0;
	naggs = dc->dc_pgp->pg_naggs;
	rev = dtp->dt_options[DT_OPT_AGGSORTREV] != DTRACEOPT_UNSET;
	dt_lines_init(&ln, fp);
	for (uint32_t k = 0; k < naggs && rv == 0; k++) {
		uint32_t aggid = rev ? naggs - 1 - k : k;
		const dt_aggdesc_t *agg = dt_agg_desc(dc, aggid);
		const dt_aggstate_t *as = &dc->dc_aggstate[aggid];
		bool fit;
		dt_aggent_t **v;
		uint32_t n;

		if (agg == NULL || as->as_printed)
			continue;
		if ((v = dt_agg_sorted(dc, aggid, &n)) == NULL) {
			rv = dt_set_errno(dtp, EDT_NOMEM);
			break;
		}
		fit = ln.ln_buf != NULL && dt_lines_fit(dc, agg);
		/* What stdio prints next comes after the lines made. */
		if (!fit && dt_lines_flush(&ln) != 0)
			rv = dt_cons_ioerr(dtp);
		for (uint32_t i = 0; i < n && rv == 0; i++) {
			int rc;

			if (i + 8 < n) {
				__builtin_prefetch(v[i + 8]);
				__builtin_prefetch(
				    (const char *) v[i + 8] + 64);
			}
			if (fit)
				rc = dt_lines_entry(
				    &ln, agg, v[i], as->as_normal);
			else
				rc = dt_print_entry(
				    dc, fp, agg, v[i], as->as_normal, &vw);
			if (rc != 0)
				rv = dt_cons_ioerr(dtp);
		}
		free(v);
	}
	if (dt_lines_fini(&ln) != 0 && rv == 0)
		rv = dt_cons_ioerr(dtp);
	return rv;
}

/*
 * One line of a joined printa(): a key, and for each aggregation its
 * entry with that key or NULL.
 */
typedef struct dt_aggbundle {
	const unsigned char *ab_key;
	const dt_aggdesc_t *ab_agg; /* the layout of ab_key */
	dt_aggent_t **ab_ents;	    /* naggs */
} dt_aggbundle_t;

/*
 * Do two aggregations lay out their keys alike?  The compiler lets keys
 * of compatible types be joined (an int with a long), but only keys laid
 * out alike can be compared byte for byte: as in DTrace, an entry whose
 * layout differs is a line of its own, printed with its own layout.
 */
static bool
dt_agg_samelayout(const dt_aggdesc_t *a, const dt_aggdesc_t *b)
{
	if (a == b)
		return true;
	if (a->ag_nkeys != b->ag_nkeys || a->ag_keysize != b->ag_keysize)
		return false;
	for (uint32_t i = 0; i < a->ag_nkeys; i++) {
		const dt_recdesc_t *l = &a->ag_keys[i], *r = &b->ag_keys[i];

		if (l->rd_type != r->rd_type || l->rd_size != r->rd_size ||
		    l->rd_offset != r->rd_offset)
			return false;
	}
	return true;
}

/* Keys of two bundles, which may be laid out differently. */
static int
dt_bundle_cmp_keys(const dt_aggbundle_t *l, const dt_aggbundle_t *r, int pos)
{
	if (!dt_agg_samelayout(l->ab_agg, r->ab_agg))
		return l->ab_agg->ag_id < r->ab_agg->ag_id ? -1 : 1;
	return dt_agg_cmp_keys(l->ab_agg, l->ab_key, r->ab_key, pos);
}

typedef struct dt_bundlesort {
	dt_consumer_t *bs_dc;
	const uint32_t *bs_aggids;
	uint32_t bs_naggs;
	uint32_t bs_sortpos;
	bool bs_keysort;
	bool bs_rev;
	int bs_keypos;
	const int64_t **bs_zero; /* zero values, per aggregation */
} dt_bundlesort_t;

static _Thread_local const dt_bundlesort_t *dt_bundlesort_ctx;

static const int64_t *
dt_bundle_vals(const dt_bundlesort_t *bs, const dt_aggbundle_t *b, uint32_t i)
{
	return b->ab_ents[i] != NULL ? b->ab_ents[i]->ae_vals : bs->bs_zero[i];
}

static int
dt_bundlecmp(const void *lp, const void *rp)
{
	const dt_bundlesort_t *bs = dt_bundlesort_ctx;
	const dt_aggbundle_t *l = lp, *r = rp;
	int c = 0;

	if (bs->bs_keysort)
		c = dt_bundle_cmp_keys(l, r, bs->bs_keypos);
	for (uint32_t j = 0; c == 0 && j < bs->bs_naggs; j++) {
		uint32_t i = (j + bs->bs_sortpos) % bs->bs_naggs;
		const dt_aggdesc_t *agg =
		    dt_agg_desc(bs->bs_dc, bs->bs_aggids[i]);

		c = dt_agg_cmp_vals(
		    agg, dt_bundle_vals(bs, l, i), dt_bundle_vals(bs, r, i));
	}
	if (c == 0 && !bs->bs_keysort)
		c = dt_bundle_cmp_keys(l, r, bs->bs_keypos);
	return bs->bs_rev ? -c : c;
}

/* Print one entry or bundle, default layout or formatted. */
static int
dt_printa_one(dt_consumer_t *dc, FILE *fp, const dt_pfargv_t *pfv,
    const dt_aggdesc_t *agg0, const unsigned char *key,
    const dt_pfaggval_t *avs, uint32_t naggs)
{
	if (pfv != NULL)
		return dt_printf_format(dc, fp, pfv, agg0->ag_keys,
			   agg0->ag_nkeys, key, agg0->ag_keysize, avs,
			   naggs) < 0
		    ? -1
		    : 0;
	if (dt_print_keys(dc, fp, agg0, key) != 0)
		return -1;
	for (uint32_t i = 0; i < naggs; i++) {
		if (dt_print_aggval(dc, fp, avs[i].pa_agg, avs[i].pa_vals,
			avs[i].pa_normal) != 0)
			return -1;
	}
	return fputc('\n', fp) == EOF ? -1 : 0;
}

static int
dt_printa_single(
    dt_consumer_t *dc, FILE *fp, const dt_pfargv_t *pfv, uint32_t aggid)
{
	const dt_aggdesc_t *agg = dt_agg_desc(dc, aggid);
	dt_aggview_t vw = { .vw_aggid = UINT32_MAX };
	dt_lines_t ln;
	dt_aggent_t **v;
	uint32_t n;
	int rv = 0;

	if ((v = dt_agg_sorted(dc, aggid, &n)) == NULL)
		return dt_set_errno(dc->dc_dtp, EDT_NOMEM);
	ln.ln_buf = NULL;
	if (pfv == NULL && n > 0 && dt_lines_fit(dc, agg))
		dt_lines_init(&ln, fp);
	for (uint32_t i = 0; i < n && rv == 0; i++) {
		dt_pfaggval_t av;

		/* Sorted, the entries are all over memory: ask early. */
		if (i + 8 < n) {
			__builtin_prefetch(v[i + 8]);
			__builtin_prefetch((const char *) v[i + 8] + 64);
		}
		av.pa_agg = agg;
		av.pa_vals = v[i]->ae_vals;
		av.pa_normal = dc->dc_aggstate[aggid].as_normal;
		if (ln.ln_buf != NULL)
			rv = dt_lines_entry(&ln, agg, v[i], av.pa_normal);
		else if (pfv == NULL)
			rv = dt_print_entry(dc, fp, agg, v[i], av.pa_normal,
			    &vw);
		else
			rv = dt_printa_one(
			    dc, fp, pfv, agg, v[i]->ae_key, &av, 1);
	}
	if (dt_lines_fini(&ln) != 0)
		rv = -1;
	if (n > 0)
		dc->dc_aggstate[aggid].as_printed = true;
	free(v);
	return rv;
}

static int
dt_printa_joined(dt_consumer_t *dc, FILE *fp, const dt_pfargv_t *pfv,
    const uint32_t *aggids, uint32_t naggs)
{
	const dtrace_optval_t *o = dc->dc_dtp->dt_options;
	dt_aggbundle_t *b = NULL;
	dt_pfaggval_t *avs = NULL;
	const int64_t **zero = NULL;
	dt_bundlesort_t bs;
	uint32_t nb = 0, cap = 0, nslots = 0, mask, *slots = NULL;
	int rv = -1;

	if ((avs = calloc(naggs, sizeof(*avs))) == NULL ||
	    (zero = calloc(naggs, sizeof(*zero))) == NULL)
		goto out;
	for (uint32_t i = 0; i < naggs; i++) {
		const dt_aggdesc_t *agg = dt_agg_desc(dc, aggids[i]);

		if ((zero[i] = calloc(agg->ag_nvals + 1, 8)) == NULL)
			goto out;
	}

	/*
	 * Gather the union of the keys, finding each key's line through a
	 * hash table of line indices (open addressing, at most half full).
	 */
	for (uint32_t e = 0; e < dc->dc_naggents; e++) {
		for (uint32_t i = 0; i < naggs; i++) {
			if (aggids[i] == dc->dc_aggents[e]->ae_aggid) {
				nslots++;
				break;
			}
		}
	}
	for (nslots = nslots * 2, mask = 16; mask < nslots; mask *= 2)
		continue;
	if ((slots = malloc(mask * sizeof(*slots))) == NULL)
		goto out;
	memset(slots, 0xff, mask * sizeof(*slots));
	mask--;
	for (uint32_t e = 0; e < dc->dc_naggents; e++) {
		dt_aggent_t *ae = dc->dc_aggents[e];
		const dt_aggdesc_t *agg;
		uint32_t i, k, h;

		for (i = 0; i < naggs && aggids[i] != ae->ae_aggid; i++)
			continue;
		if (i == naggs)
			continue;
		agg = dt_agg_desc(dc, ae->ae_aggid);
		for (h = dt_agg_hash(0, ae->ae_key, agg->ag_keysize) & mask;
		     (k = slots[h]) != UINT32_MAX; h = (h + 1) & mask) {
			if (dt_agg_samelayout(b[k].ab_agg, agg) &&
			    memcmp(b[k].ab_key, ae->ae_key, agg->ag_keysize) ==
				0)
				break;
		}
		if (k == UINT32_MAX) {
			if (nb == cap) {
				dt_aggbundle_t *nbp;

				cap = cap ? cap * 2 : 16;
				if ((nbp = realloc(b, cap * sizeof(*b))) ==
				    NULL)
					goto out;
				b = nbp;
			}
			k = slots[h] = nb;
			b[nb].ab_key = ae->ae_key;
			b[nb].ab_agg = agg;
			if ((b[nb].ab_ents = calloc(naggs, sizeof(void *))) ==
			    NULL)
				goto out;
			nb++;
		}
		/* An aggregation named twice fills both its columns. */
		for (uint32_t j = i; j < naggs; j++) {
			if (aggids[j] == ae->ae_aggid)
				b[k].ab_ents[j] = ae;
		}
	}

	bs.bs_dc = dc;
	bs.bs_aggids = aggids;
	bs.bs_naggs = naggs;
	bs.bs_sortpos = o[DT_OPT_AGGSORTPOS] == DTRACEOPT_UNSET ||
		o[DT_OPT_AGGSORTPOS] >= (dtrace_optval_t) naggs
	    ? 0
	    : (uint32_t) o[DT_OPT_AGGSORTPOS];
	bs.bs_keysort = o[DT_OPT_AGGSORTKEY] != DTRACEOPT_UNSET;
	bs.bs_rev = o[DT_OPT_AGGSORTREV] != DTRACEOPT_UNSET;
	bs.bs_keypos = o[DT_OPT_AGGSORTKEYPOS] == DTRACEOPT_UNSET ||
		o[DT_OPT_AGGSORTKEYPOS] > 1024
	    ? 0
	    : (int) o[DT_OPT_AGGSORTKEYPOS];
	bs.bs_zero = zero;
	{
		const dt_bundlesort_t *saved = dt_bundlesort_ctx;

		dt_bundlesort_ctx = &bs;
		/* Nothing to sort when every aggregation is empty (b NULL). */
		if (nb > 1)
			qsort(b, nb, sizeof(*b), dt_bundlecmp);
		dt_bundlesort_ctx = saved;
	}

	rv = 0;
	for (uint32_t k = 0; k < nb && rv == 0; k++) {
		for (uint32_t i = 0; i < naggs; i++) {
			avs[i].pa_agg = dt_agg_desc(dc, aggids[i]);
			avs[i].pa_vals = dt_bundle_vals(&bs, &b[k], i);
			avs[i].pa_normal = dc->dc_aggstate[aggids[i]].as_normal;
		}
		rv = dt_printa_one(
		    dc, fp, pfv, b[k].ab_agg, b[k].ab_key, avs, naggs);
	}
	if (nb > 0) {
		for (uint32_t i = 0; i < naggs; i++)
			dc->dc_aggstate[aggids[i]].as_printed = true;
	}
out:
	free(slots);
	for (uint32_t k = 0; k < nb; k++)
		free(b[k].ab_ents);
	free(b);
	for (uint32_t i = 0; zero != NULL && i < naggs; i++)
		free((void *) zero[i]);
	free(zero);
	free(avs);
	if (rv != 0 && dc->dc_dtp->dt_errno == 0)
		(void) dt_set_errno(dc->dc_dtp, EDT_NOMEM);
	return rv;
}

int
dt_agg_printa_ids(dt_consumer_t *dc, FILE *fp, const dt_pfargv_t *pfv,
    const uint32_t *aggids, uint32_t naggs)
{
	int rv;

	for (uint32_t i = 0; i < naggs; i++) {
		if (dt_agg_desc(dc, aggids[i]) == NULL)
			return dt_set_errno(dc->dc_dtp, EDT_BADAGG);
	}
	if (naggs == 0)
		return dt_set_errno(dc->dc_dtp, EDT_BADAGG);
	if (dt_agg_fresh(dc) != 0)
		return -1;
	if (dt_cons_json(dc))
		return dt_json_aggs(dc, fp, aggids, naggs, false);
	if (dt_cons_folded(dc))
		return dt_folded_aggs(dc, fp, aggids, naggs, false);
	if (dt_cons_pprof(dc))
		return dt_pprof_aggs(dc, aggids, naggs, false);
	/* Without a format, printa() starts with an empty line. */
	if (pfv == NULL && fputc('\n', fp) == EOF)
		return dt_cons_ioerr(dc->dc_dtp);
	if (naggs == 1)
		rv = dt_printa_single(dc, fp, pfv, aggids[0]);
	else
		rv = dt_printa_joined(dc, fp, pfv, aggids, naggs);
	/* An entry's line not written: the system's error, not a stale one. */
	if (rv != 0 && ferror(fp))
		return dt_cons_ioerr(dc->dc_dtp);
	return rv;
}

int
dt_agg_printa(dtrace_hdl_t *dtp, FILE *fp, const char *format,
    const uint32_t *aggids, uint32_t naggs)
{
	dt_consumer_t *dc = dt_consumer(dtp);
	dt_pfargv_t *pfv = NULL;
	int rv;

	if (dc == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	if (format != NULL && (pfv = dt_printf_parse(format, NULL)) == NULL)
		return dt_set_errno(dtp, EDT_COMPILER);
	rv = dt_agg_printa_ids(dc, fp, pfv, aggids, naggs);
	dt_printf_free(pfv);
	return rv;
}
