/* SPDX-License-Identifier: MIT */
/*
 * dt_metrics_fmt.c: the consumer's aggregations in the OpenMetrics text
 * format, for the metrics endpoint (-x metrics, common/dt_metrics.c).
 *
 * Each aggregation @name is one metric family dtrace_name (dtrace__ for
 * the anonymous @, whose name is _), its keys labels key1..keyN unless -x
 *metricslabels names them:
 *
 *	count(), sum()			counter: dtrace_name_total
 *	min(), max(), avg(), stddev()	gauge: dtrace_name
 *	quantize(), lquantize(),	histogram: dtrace_name_bucket with
 *	llquantize()			le, the inclusive upper bound of
 *					each bucket (cumulative counts, the
 *					open top bucket is le="+Inf"), and
 *					dtrace_name_count
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

/* A label value: OpenMetrics escapes \, " and newline. */
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

static void
dt_metrics_sample(FILE *fp, const char *family, const char *suffix,
    const char *labels, const char *le, long long value)
{
	bool any = labels[0] != '\0' || le != NULL;

	(void) fprintf(fp, "%s%s%s%s%s%s%s%s %lld\n", family, suffix,
	    any ? "{" : "", labels, labels[0] && le ? "," : "",
	    le ? "le=\"" : "", le ? le : "", any ? (le ? "\"}" : "}") : "",
	    value);
}

/* One entry of a distribution: cumulative buckets, +Inf, the count. */
static void
dt_metrics_histogram(FILE *fp, const char *family, const dt_aggdesc_t *agg,
    const char *labels, const int64_t *v, uint64_t normal)
{
	uint32_t n = agg->ag_nvals, first = n, last = 0;
	long long cum = 0;
	char le[32];

	for (uint32_t i = 0; i < n; i++) {
		if (v[i] != 0) {
			if (first == n)
				first = i;
			last = i;
		}
	}
	/* The buckets from the lowest used to the highest used. */
	for (uint32_t i = first; i < n && i <= last; i++) {
		bool hasmin, hasmax;
		int64_t lo, hi;

		cum += v[i] / (int64_t) normal;
		dt_agg_bucket_range(agg, i, &hasmin, &lo, &hasmax, &hi);
		if (!hasmax)
			break;
		(void) snprintf(le, sizeof(le), "%lld", (long long) hi);
		dt_metrics_sample(fp, family, "_bucket", labels, le, cum);
	}
	cum = 0;
	for (uint32_t i = 0; i < n; i++)
		cum += v[i] / (int64_t) normal;
	dt_metrics_sample(fp, family, "_bucket", labels, "+Inf", cum);
	dt_metrics_sample(fp, family, "_count", labels, NULL, cum);
}

static int
dt_metrics_agg(dt_consumer_t *dc, FILE *fp, uint32_t aggid)
{
	const dt_aggdesc_t *agg = dt_agg_desc(dc, aggid);
	uint64_t normal = dc->dc_aggstate[aggid].as_normal;
	const char *kind = dt_aggkind_name(agg->ag_kind);
	const char *type, *suffix = "";
	char family[256];
	dt_aggent_t **v;
	uint32_t n;

	if (normal == 0)
		normal = 1;
	(void) snprintf(family, sizeof(family), "dtrace_%s", agg->ag_name);
	switch (agg->ag_kind) {
	case DT_AGG_COUNT:
	case DT_AGG_SUM:
		type = "counter";
		suffix = "_total";
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
	if ((v = dt_agg_sorted(dc, aggid, &n)) == NULL)
		return -1;
	(void) fprintf(fp, "# TYPE %s %s\n# HELP %s D aggregation @%s, %s()\n",
	    family, type, family, agg->ag_name, kind);
	for (uint32_t i = 0; i < n; i++) {
		const int64_t *vals = v[i]->ae_vals;
		char *labels = NULL;
		size_t len;
		FILE *mf = open_memstream(&labels, &len);
		long long val;

		if (mf == NULL ||
		    dt_metrics_labels(dc, mf, agg, v[i]->ae_key) != 0 ||
		    fclose(mf) != 0) {
			free(labels);
			free(v);
			return -1;
		}
		switch (agg->ag_kind) {
		case DT_AGG_QUANTIZE:
		case DT_AGG_LQUANTIZE:
		case DT_AGG_LLQUANTIZE:
			dt_metrics_histogram(
			    fp, family, agg, labels, vals, normal);
			free(labels);
			continue;
		case DT_AGG_AVG:
			val = (long long) dt_agg_avg(vals, normal);
			break;
		case DT_AGG_STDDEV:
			val = (long long) dt_agg_stddev(vals, normal);
			break;
		case DT_AGG_COUNT:
			val = (long long) ((uint64_t) vals[0] / normal);
			break;
		default:
			val = (long long) (vals[0] / (int64_t) normal);
			break;
		}
		dt_metrics_sample(fp, family, suffix, labels, NULL, val);
		free(labels);
	}
	free(v);
	return 0;
}

int
dt_consume_metrics(dtrace_hdl_t *dtp, char **bufp, size_t *lenp)
{
	dt_consumer_t *dc = dt_consumer(dtp);
	uint32_t total;
	FILE *fp;
	int rv = 0;

	*bufp = NULL;
	if (dc == NULL || (fp = open_memstream(bufp, lenp)) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	total = dc->dc_pgp ? dc->dc_pgp->pg_naggs : 0;
	for (uint32_t id = 0; id < total && rv == 0; id++)
		rv = dt_metrics_agg(dc, fp, id);
	(void) fputs("# EOF\n", fp);
	if (fclose(fp) != 0 || rv != 0) {
		free(*bufp);
		*bufp = NULL;
		return dt_set_errno(dtp, EDT_NOMEM);
	}
	return 0;
}
