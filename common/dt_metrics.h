/* SPDX-License-Identifier: MIT */
/*
 * dt_metrics.h: the metrics endpoint (-x metrics=ADDR:PORT): the
 * aggregations over HTTP at /metrics in the OpenMetrics or Prometheus
 * text format, while tracing runs, for Prometheus and the collectors that
 * read them.
 */
#ifndef DT_METRICS_H
#define DT_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct dtrace_hdl dtrace_hdl_t;

#define DT_METRICS_LABEL_MAX 64

/*
 * The formats the endpoint serves, each scrape the one it asks for
 * (Accept), made together from each snapshot (dt_consume_metrics()).
 */
typedef enum dt_metrics_fmt {
	DT_METRICS_OPENMETRICS, /* application/openmetrics-text 1.0.0 */
	DT_METRICS_PROMTEXT,	/* text/plain 0.0.4, Prometheus's own */
	DT_METRICS_NFMT
} dt_metrics_fmt_t;

/* dtrace_go(): listen, check -x metricslabels against the aggregations. */
extern int dt_metrics_start(dtrace_hdl_t *dtp);
/* After each drain: the text scrapes get from now on. */
extern void dt_metrics_publish(dtrace_hdl_t *dtp);
/* dtrace_close(): stop serving. */
extern void dt_metrics_stop(dtrace_hdl_t *dtp);

/* Is value a well-formed -x metricslabels ("agg:label,label;...")? */
extern bool dt_metrics_labels_valid(const char *value);
/*
 * The name -x metricslabels (spec, may be NULL) gives key k (from 0) of
 * aggregation agg ("_" for @); false when it names none.
 */
extern bool dt_metrics_label_name(
    const char *spec, const char *agg, uint32_t k, char *buf, size_t len);

#endif /* DT_METRICS_H */
