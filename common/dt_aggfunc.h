/* SPDX-License-Identifier: MIT */
/*
 * dt_aggfunc.h: the arithmetic of the aggregating functions.
 *
 * Engines update aggregation values with these functions and the consumer
 * merges and prints them with the same ones, so the bucket layout of
 * quantize, lquantize and llquantize is defined exactly once.  A value is
 * an array of int64_t words laid out as dt_program.h describes.
 */
#ifndef DT_AGGFUNC_H
#define DT_AGGFUNC_H

#include <stdbool.h>
#include <stdint.h>

#include "common/dt_program.h"

#define DT_QUANTIZE_NBUCKETS 127
#define DT_QUANTIZE_ZERO     63 /* the bucket of value 0 */

/* quantize: the bucket of a value, and the lowest value of a bucket. */
extern int dt_quantize_bucket(int64_t v);
extern int64_t dt_quantize_bucket_value(int bucket);

/*
 * lquantize(v, base, limit, step): bucket 0 holds v < base, bucket i
 * (1 .. levels) holds base + (i-1)*step <= v < base + i*step, and bucket
 * levels + 1 holds v >= limit.
 */
extern uint32_t dt_lquantize_nbuckets(int64_t base, int64_t limit,
    int64_t step);
extern uint32_t dt_lquantize_bucket(int64_t v, int64_t base, int64_t limit,
    int64_t step);

/*
 * llquantize(v, factor, low, high, nsteps): bucket 0 holds values below
 * factor^low; each order of magnitude from low to high is split into
 * nsteps linear buckets (fewer where an order has fewer integers), minus
 * the ones that overlap the previous order; the last bucket holds values
 * of factor^(high+1) and above.
 */
extern uint32_t dt_llquantize_nbuckets(int64_t factor, int64_t low,
    int64_t high, int64_t nsteps);
extern uint32_t dt_llquantize_bucket(int64_t v, int64_t factor, int64_t low,
    int64_t high, int64_t nsteps);
/* The lowest value of an llquantize bucket (bucket 0: 0). */
extern int64_t dt_llquantize_bucket_value(uint32_t bucket, int64_t factor,
    int64_t low, int64_t high, int64_t nsteps);

/* Number of value words of an aggregation of this kind and parameters. */
extern uint32_t dt_agg_nvals(dt_aggkind_t kind, const int64_t params[4]);
/*
 * Bytes one entry of an aggregation takes in its buffer, as aggsize
 * counts them: the aggregation ID, the key padded to 8, the value words.
 */
extern uint64_t dt_agg_entsize(const dt_aggdesc_t *agg);
/* Set a value to its initial state (min: INT64_MAX, max: INT64_MIN). */
extern void dt_agg_init(dt_aggkind_t kind, int64_t *vals, uint32_t nvals);
/*
 * Apply one update: v is the aggregated expression, incr the optional
 * increment of the quantize family (1 when absent).
 */
extern void dt_agg_update(const dt_aggdesc_t *agg, int64_t *vals, int64_t v,
    int64_t incr);
/* Merge src into dst (per-CPU values into one). */
extern void dt_agg_merge(dt_aggkind_t kind, int64_t *dst, const int64_t *src,
    uint32_t nvals);
/*
 * What of taken, the values an engine gave back for clear() or trunc(),
 * came after seen, the part of them the consumer had already seen (its
 * last snapshot): taken becomes taken - seen, and the result says whether
 * anything came at all.  min() and max() cannot be taken apart: taken
 * came later only if it is beyond seen, and then it is kept whole.
 */
extern bool dt_agg_since(dt_aggkind_t kind, int64_t *taken,
    const int64_t *seen, uint32_t nvals);

#endif /* DT_AGGFUNC_H */
