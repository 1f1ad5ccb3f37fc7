/* SPDX-License-Identifier: MIT */
/*
 * dt_metrics_fmt.c: the consumer's aggregations as text for the metrics
 * endpoint (-x metrics, common/dt_metrics.c), in both formats Prometheus
 * reads -- OpenMetrics 1.0.0 and the Prometheus text format 0.0.4 --
 * made together in one pass, so that a scrape of either sees the same
 * snapshot and the endpoint answers each client in the format it asks for.
 *
 * Each aggregation @name is one metric family dtrace_name (dtrace__ for
 * the anonymous @, whose name is _), its keys labels key1..keyN unless -x
 * metricslabels names them:
 *
 *	count()				counter: dtrace_name_total
 *	sum() of unsigned values	counter: dtrace_name_total
 *	sum() of signed values, min(),	gauge: dtrace_name
 *	max(), avg(), stddev()
 *	quantize(), lquantize(),	histogram: dtrace_name_bucket with
 *	llquantize()			le, the inclusive upper bound of
 *					each bucket (cumulative counts, the
 *					open top bucket is le="+Inf"),
 *					dtrace_name_sum, dtrace_name_count
 *
 * A counter must never fall, and a sum() of signed values can; whether
 * every value a sum() adds is unsigned is known when the program is
 * compiled (ag_nonneg), so a family keeps its type for its whole life.
 *
 * One series per label set.  Entries whose keys print the same -- a stack
 * prints without offsets, usym() and umod() without the process -- would
 * otherwise repeat a label set, and Prometheus keeps one sample of each,
 * losing the others: they are merged first, as dt_agg_merge() merges
 * per-CPU values (counts, sums and buckets added, min and max combined,
 * avg and stddev from the merged count and sums).
 *
 * A distribution keeps its buckets' counts, not the sum of its values, so
 * _sum is made from the buckets: each value counts as the value of its
 * bucket nearest zero (the value printa() shows on a quantize() row; 0
 * for a bucket that holds 0).  It is exact when every value is a bucket's
 * bound, and never further from zero than the true sum.
 *
 * The formats differ in four ways: 0.0.4 names a counter's family with
 * its _total, OpenMetrics without it; OpenMetrics ends with # EOF;
 * OpenMetrics forbids a _sum in a histogram with a bucket below zero (a
 * sum that can fall is no counter) and allows _count only beside _sum,
 * so such a series there is its buckets alone, the +Inf one its count,
 * where 0.0.4 has both; and the content types (common/dt_metrics.c).
 *
 * Values are those printa() prints: normalize() applies, trunc() hides
 * entries, clear() zeroes them.  The text is made from the consumer's
 * copy of the aggregations in one go, so a scrape sees one snapshot.
 */
#include <stdlib.h>
#include <string.h>

#include "common/consumer/dt_cons_impl.h"
#include "common/dt_aggfunc.h"
#include "common/dt_metrics.h"

/* An entry's label set, and where it came in printa()'s order. */
typedef struct dt_mentry {
	char *me_labels;
	uint32_t me_index;
} dt_mentry_t;

/* One series: a label set and its entries' values merged. */
typedef struct dt_mseries {
	const char *ms_labels;
	uint32_t ms_first; /* the index of its first entry */
	int64_t *ms_vals;
} dt_mseries_t;

/* The text being made in each format. */
typedef struct dt_mout {
	FILE *mo_om; /* OpenMetrics 1.0.0 */
	FILE *mo_pt; /* Prometheus text 0.0.4 */
} dt_mout_t;

/* A label value: both formats escape \, " and newline. */
static void
dt_metrics_escape(FILE *fp, const char *s, size_t maxlen)
{
	for (size_t i = 0; i < maxlen && s[i] != '\0'; i++) {
		if (s[i] == '\\' || s[i] == '"')
			(void) fputc('\\', fp);
		if (s[i] == '\n')
			(void) fputs("\\n", fp);
		else
			(void) fputc(s[i], fp);
	}
}

/* key1="..",key2=".." of an entry, names from -x metricslabels. */
static int
dt_metrics_labels(dt_consumer_t *dc, FILE *fp, const dt_aggdesc_t *agg,
    const unsigned char *key)
{
	const char *spec = dc->dc_dtp->dt_optstr[DT_OPT_METRICSLABELS];

	for (uint32_t k = 0; k < agg->ag_nkeys; k++) {
		const dt_recdesc_t *rd = &agg->ag_keys[k];
		const unsigned char *p = key + rd->rd_offset;
		char name[DT_METRICS_LABEL_MAX];
		char *text = NULL;
		size_t len;
		FILE *mf;

		if (!dt_metrics_label_name(
			spec, agg->ag_name, k, name, sizeof(name)))
			(void) snprintf(name, sizeof(name), "key%u", k + 1);
		(void) fprintf(fp, "%s%s=\"", k ? "," : "", name);
		if (rd->rd_type == DT_REC_STRING) {
			dt_metrics_escape(fp, (const char *) p, rd->rd_size);
		} else {
			if ((mf = open_memstream(&text, &len)) == NULL)
				return -1;
			dt_folded_keytext(dc, mf, rd, p);
			if (fclose(mf) != 0) {
				free(text);
				return -1;
			}
			dt_metrics_escape(fp, text, len);
			free(text);
		}
		(void) fputc('"', fp);
	}
	return 0;
}

/* A value in decimal: a histogram's _sum can pass 64 bits. */
static void
dt_metrics_value(FILE *fp, __int128 v)
{
	unsigned __int128 u = v < 0 ? -(unsigned __int128) v : v;
	char buf[48], *p = buf + sizeof(buf);

	*--p = '\0';
	do {
		*--p = (char) ('0' + (int) (u % 10));
		u /= 10;
	} while (u != 0);
	if (v < 0)
		*--p = '-';
	(void) fputs(p, fp);
}

static void
dt_metrics_sample(FILE *fp, const char *family, const char *suffix,
    const char *labels, const char *le, __int128 value)
{
	(void) fprintf(fp, "%s%s", family, suffix);
	if (labels[0] != '\0' || le != NULL) {
		(void) fprintf(fp, "{%s%s", labels, labels[0] && le ? "," : "");
		if (le != NULL)
			(void) fprintf(fp, "le=\"%s\"", le);
		(void) fputc('}', fp);
	}
	(void) fputc(' ', fp);
	dt_metrics_value(fp, value);
	(void) fputc('\n', fp);
}

/* A sample the same in both formats. */
static void
dt_metrics_both(const dt_mout_t *mo, const char *family, const char *suffix,
    const char *labels, const char *le, __int128 value)
{
	dt_metrics_sample(mo->mo_om, family, suffix, labels, le, value);
	dt_metrics_sample(mo->mo_pt, family, suffix, labels, le, value);
}

/*
 * What one value in bucket i counts for in _sum: the value of the bucket
 * nearest zero, 0 when the bucket holds 0 (the open buckets included).
 */
static int64_t
dt_metrics_bucket_weight(const dt_aggdesc_t *agg, uint32_t i)
{
	bool hasmin, hasmax;
	int64_t lo, hi;

	dt_agg_bucket_range(agg, i, &hasmin, &lo, &hasmax, &hi);
	if (hasmin && lo > 0)
		return lo;
	if (hasmax && hi < 0)
		return hi;
	return 0;
}

/* One series of a distribution: cumulative buckets, +Inf, sum, count. */
static void
dt_metrics_histogram(const dt_mout_t *mo, const char *family,
    const dt_aggdesc_t *agg, const char *labels, const int64_t *v,
    int64_t normal)
{
	uint32_t n = agg->ag_nvals, first = n, last = 0;
	__int128 run = 0, cum = 0, sum = 0;
	bool negle = false;
	char le[32];

	for (uint32_t i = 0; i < n; i++) {
		int64_t c = v[i] / normal;

		if (v[i] != 0) {
			if (first == n)
				first = i;
			last = i;
		}
		cum += c;
		sum += (__int128) c * dt_metrics_bucket_weight(agg, i);
	}
	/* The buckets from the lowest used to the highest used. */
	for (uint32_t i = first; i < n && i <= last; i++) {
		bool hasmin, hasmax;
		int64_t lo, hi;

		dt_agg_bucket_range(agg, i, &hasmin, &lo, &hasmax, &hi);
		if (!hasmax)
			break;
		run += v[i] / normal;
		(void) snprintf(le, sizeof(le), "%lld", (long long) hi);
		negle = negle || hi < 0;
		dt_metrics_both(mo, family, "_bucket", labels, le, run);
	}
	dt_metrics_both(mo, family, "_bucket", labels, "+Inf", cum);
	dt_metrics_sample(mo->mo_pt, family, "_sum", labels, NULL, sum);
	dt_metrics_sample(mo->mo_pt, family, "_count", labels, NULL, cum);
	if (!negle && sum >= 0) {
		dt_metrics_sample(mo->mo_om, family, "_sum", labels, NULL, sum);
		dt_metrics_sample(
		    mo->mo_om, family, "_count", labels, NULL, cum);
	}
}

/* The value of a series that is not a distribution, as printa() has it. */
static __int128
dt_metrics_scalar(const dt_aggdesc_t *agg, const int64_t *vals, uint64_t normal)
{
	switch (agg->ag_kind) {
	case DT_AGG_AVG:
		return dt_agg_avg(vals, normal);
	case DT_AGG_STDDEV:
		return dt_agg_stddev(vals, normal);
	case DT_AGG_COUNT:
		return (uint64_t) vals[0] / normal;
	default:
		return vals[0] / (int64_t) normal;
	}
}

static int
dt_mentry_cmp(const void *l, const void *r)
{
	const dt_mentry_t *a = l, *b = r;
	int c = strcmp(a->me_labels, b->me_labels);

	if (c != 0)
		return c;
	return a->me_index < b->me_index ? -1 : a->me_index > b->me_index;
}

static int
dt_mseries_cmp(const void *l, const void *r)
{
	const dt_mseries_t *a = l, *b = r;

	return a->ms_first < b->ms_first ? -1 : a->ms_first > b->ms_first;
}

/*
 * The series of aggregation agg: its entries (v[0..n-1], in printa()'s
 * order) grouped by label set, each group's values merged, in the order
 * of each group's first entry.  *msp, the value words *valsp and the
 * labels in ents are the caller's to free.
 */
static int
dt_metrics_series(dt_consumer_t *dc, const dt_aggdesc_t *agg, dt_aggent_t **v,
    uint32_t n, dt_mentry_t *ents, dt_mseries_t **msp, uint32_t *nsp,
    int64_t **valsp)
{
	uint32_t nv = agg->ag_nvals, ns = 0;
	dt_mseries_t *ms;
	int64_t *vals;

	for (uint32_t i = 0; i < n; i++) {
		size_t len;
		FILE *mf = open_memstream(&ents[i].me_labels, &len);

		ents[i].me_index = i;
		if (mf == NULL)
			return -1;
		if (dt_metrics_labels(dc, mf, agg, v[i]->ae_key) != 0) {
			(void) fclose(mf);
			return -1;
		}
		if (fclose(mf) != 0)
			return -1;
	}
	qsort(ents, n, sizeof(*ents), dt_mentry_cmp);
	ms = calloc(n ? n : 1, sizeof(*ms));
	vals = calloc((size_t) (n ? n : 1) * nv, sizeof(int64_t));
	if (ms == NULL || vals == NULL) {
		free(ms);
		free(vals);
		return -1;
	}
	for (uint32_t i = 0; i < n; i++) {
		const int64_t *ev = v[ents[i].me_index]->ae_vals;

		if (ns > 0 &&
		    strcmp(ents[i].me_labels, ms[ns - 1].ms_labels) == 0) {
			dt_agg_merge(agg->ag_kind, ms[ns - 1].ms_vals, ev, nv);
			continue;
		}
		ms[ns].ms_labels = ents[i].me_labels;
		ms[ns].ms_first = ents[i].me_index;
		ms[ns].ms_vals = vals + (size_t) ns * nv;
		memcpy(ms[ns].ms_vals, ev, nv * sizeof(int64_t));
		ns++;
	}
	qsort(ms, ns, sizeof(*ms), dt_mseries_cmp);
	*msp = ms;
	*nsp = ns;
	*valsp = vals;
	return 0;
}

/* The family's HELP and TYPE, in one format. */
static void
dt_metrics_family(
    FILE *fp, const char *name, const char *type, const dt_aggdesc_t *agg)
{
	(void) fprintf(fp, "# HELP %s D aggregation @%s, %s()\n", name,
	    agg->ag_name, dt_aggkind_name(agg->ag_kind));
	(void) fprintf(fp, "# TYPE %s %s\n", name, type);
}

static int
dt_metrics_agg(dt_consumer_t *dc, const dt_mout_t *mo, uint32_t aggid)
{
	const dt_aggdesc_t *agg = dt_agg_desc(dc, aggid);
	uint64_t normal = dc->dc_aggstate[aggid].as_normal;
	const char *type, *suffix = "";
	char family[256], ptname[272];
	dt_mseries_t *ms = NULL;
	dt_mentry_t *ents;
	int64_t *vals = NULL;
	dt_aggent_t **v;
	uint32_t n, ns = 0;
	int rv;

	if (normal == 0)
		normal = 1;
	(void) snprintf(family, sizeof(family), "dtrace_%s", agg->ag_name);
	switch (agg->ag_kind) {
	case DT_AGG_COUNT:
		type = "counter";
		break;
	case DT_AGG_SUM:
		type = agg->ag_nonneg ? "counter" : "gauge";
		break;
	case DT_AGG_QUANTIZE:
	case DT_AGG_LQUANTIZE:
	case DT_AGG_LLQUANTIZE:
		type = "histogram";
		break;
	default:
		type = "gauge";
		break;
	}
	/* 0.0.4 names a counter's family as its samples, with _total. */
	if (strcmp(type, "counter") == 0)
		suffix = "_total";
	(void) snprintf(ptname, sizeof(ptname), "%s%s", family, suffix);
	if ((v = dt_agg_sorted(dc, aggid, &n)) == NULL)
		return -1;
	if ((ents = calloc(n ? n : 1, sizeof(*ents))) == NULL) {
		free(v);
		return -1;
	}
	rv = dt_metrics_series(dc, agg, v, n, ents, &ms, &ns, &vals);
	dt_metrics_family(mo->mo_om, family, type, agg);
	dt_metrics_family(mo->mo_pt, ptname, type, agg);
	for (uint32_t i = 0; rv == 0 && i < ns; i++) {
		switch (agg->ag_kind) {
		case DT_AGG_QUANTIZE:
		case DT_AGG_LQUANTIZE:
		case DT_AGG_LLQUANTIZE:
			dt_metrics_histogram(mo, family, agg, ms[i].ms_labels,
			    ms[i].ms_vals, (int64_t) normal);
			break;
		default:
			dt_metrics_both(mo, family, suffix, ms[i].ms_labels,
			    NULL,
			    dt_metrics_scalar(agg, ms[i].ms_vals, normal));
			break;
		}
	}
	for (uint32_t i = 0; i < n; i++)
		free(ents[i].me_labels);
	free(ents);
	free(ms);
	free(vals);
	free(v);
	return rv;
}

int
dt_consume_metrics(dtrace_hdl_t *dtp, char **bufs, size_t *lens)
{
	dt_consumer_t *dc = dt_consumer(dtp);
	dt_mout_t mo = {NULL, NULL};
	uint32_t total;
	int rv = 0;

	bufs[DT_METRICS_OPENMETRICS] = bufs[DT_METRICS_PROMTEXT] = NULL;
	if (dc == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	mo.mo_om = open_memstream(
	    &bufs[DT_METRICS_OPENMETRICS], &lens[DT_METRICS_OPENMETRICS]);
	mo.mo_pt = open_memstream(
	    &bufs[DT_METRICS_PROMTEXT], &lens[DT_METRICS_PROMTEXT]);
	if (mo.mo_om == NULL || mo.mo_pt == NULL)
		rv = -1;
	total = dc->dc_pgp ? dc->dc_pgp->pg_naggs : 0;
	for (uint32_t id = 0; id < total && rv == 0; id++)
		rv = dt_metrics_agg(dc, &mo, id);
	if (mo.mo_om != NULL) {
		(void) fputs("# EOF\n", mo.mo_om);
		if (fclose(mo.mo_om) != 0)
			rv = -1;
	}
	if (mo.mo_pt != NULL && fclose(mo.mo_pt) != 0)
		rv = -1;
	if (rv != 0) {
		for (int f = 0; f < DT_METRICS_NFMT; f++) {
			free(bufs[f]);
			bufs[f] = NULL;
		}
		return dt_set_errno(dtp, EDT_NOMEM);
	}
	return 0;
}
