/* SPDX-License-Identifier: MIT */
/*
 * dt_aggfunc.c: the arithmetic of the aggregating functions.
 *
 * See dt_aggfunc.h.  The llquantize layout deserves a word: an order of
 * magnitude o covers [factor^o, factor^(o+1)).  DTrace divides [0,
 * factor^(o+1)) into nsteps equal buckets (or factor^(o+1) buckets of
 * width 1 when that is fewer) and keeps only those at or above factor^o,
 * since the lower ones belong to earlier orders.  So order o contributes
 * nb - nb / factor buckets, nb = min(nsteps, factor^(o+1)).
 */
#include <limits.h>
#include <string.h>

#include "common/dt_aggfunc.h"

int64_t
dt_quantize_bucket_value(int bucket)
{
	if (bucket < DT_QUANTIZE_ZERO)
		return -(int64_t) (1ULL << (DT_QUANTIZE_ZERO - 1 - bucket));
	if (bucket == DT_QUANTIZE_ZERO)
		return 0;
	return (int64_t) (1ULL << (bucket - DT_QUANTIZE_ZERO - 1));
}

int
dt_quantize_bucket(int64_t v)
{
	int log2 = 0;
	uint64_t u;

	if (v == 0)
		return DT_QUANTIZE_ZERO;
	if (v > 0) {
		for (u = (uint64_t) v; u > 1; u >>= 1)
			log2++;
		/* 2^62 and above share the last bucket. */
		return DT_QUANTIZE_ZERO + 1 + (log2 > 62 ? 62 : log2);
	}
	/*
	 * Negative: bucket i holds values in (value(i-1), value(i)], so -1
	 * is bucket 62, -2 and -3 bucket 61, ...  Everything at or below
	 * -2^62 is bucket 0.
	 */
	u = v == INT64_MIN ? (1ULL << 63) : (uint64_t) -v;
	for (; u > 1; u >>= 1)
		log2++;
	return log2 >= 62 ? 0 : DT_QUANTIZE_ZERO - 1 - log2;
}

uint32_t
dt_lquantize_nbuckets(int64_t base, int64_t limit, int64_t step)
{
	return (uint32_t) ((limit - base) / step) + 2;
}

uint32_t
dt_lquantize_bucket(int64_t v, int64_t base, int64_t limit, int64_t step)
{
	uint32_t levels = (uint32_t) ((limit - base) / step);

	if (v < base)
		return 0;
	if (v >= base + (int64_t) levels * step)
		return levels + 1;
	return (uint32_t) ((v - base) / step) + 1;
}

/* factor^n, or INT64_MAX when it does not fit. */
static int64_t
dt_ipow(int64_t factor, int64_t n)
{
	int64_t r = 1;

	while (n-- > 0) {
		if (r > INT64_MAX / factor)
			return INT64_MAX;
		r *= factor;
	}
	return r;
}

/* Buckets an order contributes, given this = factor^(o+1). */
static int64_t
dt_llq_order_buckets(int64_t this, int64_t factor, int64_t nsteps)
{
	int64_t nb = this < nsteps ? this : nsteps;

	return nb - nb / factor;
}

uint32_t
dt_llquantize_nbuckets(int64_t factor, int64_t low, int64_t high,
    int64_t nsteps)
{
	int64_t n = 2; /* below factor^low, and at or above factor^(high+1) */

	for (int64_t o = low; o <= high; o++)
		n += dt_llq_order_buckets(dt_ipow(factor, o + 1), factor,
		    nsteps);
	return (uint32_t) n;
}

uint32_t
dt_llquantize_bucket(int64_t v, int64_t factor, int64_t low, int64_t high,
    int64_t nsteps)
{
	int64_t last = dt_ipow(factor, low), base = 1;

	if (v < last)
		return 0;
	for (int64_t o = low; o <= high; o++) {
		int64_t this = dt_ipow(factor, o + 1);
		int64_t nb = this < nsteps ? this : nsteps;

		if (v < this || this == INT64_MAX)
			return (uint32_t) (base + (v - last) / (this / nb));
		base += nb - nb / factor;
		last = this;
	}
	return (uint32_t) base;
}

int64_t
dt_llquantize_bucket_value(uint32_t bucket, int64_t factor, int64_t low,
    int64_t high, int64_t nsteps)
{
	int64_t last = dt_ipow(factor, low), base = 1;

	if (bucket == 0)
		return 0;
	for (int64_t o = low; o <= high; o++) {
		int64_t this = dt_ipow(factor, o + 1);
		int64_t nb = this < nsteps ? this : nsteps;
		int64_t n = nb - nb / factor;

		if ((int64_t) bucket < base + n)
			return last + ((int64_t) bucket - base) * (this / nb);
		base += n;
		last = this;
	}
	return last;
}

uint64_t
dt_agg_entsize(const dt_aggdesc_t *agg)
{
	return 8 + (((uint64_t) agg->ag_keysize + 7) & ~7ULL) +
	    (uint64_t) agg->ag_nvals * 8;
}

uint32_t
dt_agg_nvals(dt_aggkind_t kind, const int64_t params[4])
{
	switch (kind) {
	case DT_AGG_AVG:
		return 2;
	case DT_AGG_STDDEV:
		return 4;
	case DT_AGG_QUANTIZE:
		return DT_QUANTIZE_NBUCKETS;
	case DT_AGG_LQUANTIZE:
		return dt_lquantize_nbuckets(params[0], params[1], params[2]);
	case DT_AGG_LLQUANTIZE:
		return dt_llquantize_nbuckets(params[0], params[1], params[2],
		    params[3]);
	default:
		return 1;
	}
}

void
dt_agg_init(dt_aggkind_t kind, int64_t *vals, uint32_t nvals)
{
	memset(vals, 0, nvals * sizeof (int64_t));
	if (kind == DT_AGG_MIN)
		vals[0] = INT64_MAX;
	else if (kind == DT_AGG_MAX)
		vals[0] = INT64_MIN;
}

/* Add the square of v to the 128-bit sum held in vals[2] (lo), vals[3]. */
static void
dt_agg_add_square(int64_t *vals, int64_t v)
{
	unsigned __int128 sum = ((unsigned __int128) (uint64_t) vals[3] << 64) |
	    (uint64_t) vals[2];
	unsigned __int128 mag = (unsigned __int128) (v < 0 ?
		(uint64_t) 0 - (uint64_t) v : (uint64_t) v);

	sum += mag * mag;
	vals[2] = (int64_t) (uint64_t) sum;
	vals[3] = (int64_t) (uint64_t) (sum >> 64);
}

/* *dst += v, wrapping as the kernel's 64-bit counters do. */
static inline void
dt_agg_wrapadd(int64_t *dst, int64_t v)
{
	*dst = (int64_t) ((uint64_t) *dst + (uint64_t) v);
}

void
dt_agg_update(const dt_aggdesc_t *agg, int64_t *vals, int64_t v,
    int64_t incr)
{
	const int64_t *p = agg->ag_params;

	switch (agg->ag_kind) {
	case DT_AGG_COUNT:
		vals[0]++;
		break;
	case DT_AGG_SUM:
		dt_agg_wrapadd(&vals[0], v);
		break;
	case DT_AGG_AVG:
		vals[0]++;
		dt_agg_wrapadd(&vals[1], v);
		break;
	case DT_AGG_MIN:
		if (v < vals[0])
			vals[0] = v;
		break;
	case DT_AGG_MAX:
		if (v > vals[0])
			vals[0] = v;
		break;
	case DT_AGG_STDDEV:
		vals[0]++;
		dt_agg_wrapadd(&vals[1], v);
		dt_agg_add_square(vals, v);
		break;
	case DT_AGG_QUANTIZE:
		dt_agg_wrapadd(&vals[dt_quantize_bucket(v)], incr);
		break;
	case DT_AGG_LQUANTIZE:
		dt_agg_wrapadd(&vals[dt_lquantize_bucket(v, p[0], p[1], p[2])],
		    incr);
		break;
	case DT_AGG_LLQUANTIZE:
		dt_agg_wrapadd(
		    &vals[dt_llquantize_bucket(v, p[0], p[1], p[2], p[3])], incr);
		break;
	}
}

/* stddev()'s 128-bit sum of squares, in words 2 (low) and 3. */
static unsigned __int128
dt_agg_sq(const int64_t *vals)
{
	return ((unsigned __int128) (uint64_t) vals[3] << 64) |
	    (uint64_t) vals[2];
}

static void
dt_agg_sq_set(int64_t *vals, unsigned __int128 sq)
{
	vals[2] = (int64_t) (uint64_t) sq;
	vals[3] = (int64_t) (uint64_t) (sq >> 64);
}

void
dt_agg_merge(dt_aggkind_t kind, int64_t *dst, const int64_t *src,
    uint32_t nvals)
{
	switch (kind) {
	case DT_AGG_MIN:
		if (src[0] < dst[0])
			dst[0] = src[0];
		break;
	case DT_AGG_MAX:
		if (src[0] > dst[0])
			dst[0] = src[0];
		break;
	case DT_AGG_STDDEV:
		dt_agg_wrapadd(&dst[0], src[0]);
		dt_agg_wrapadd(&dst[1], src[1]);
		dt_agg_sq_set(dst, dt_agg_sq(dst) + dt_agg_sq(src));
		break;
	default:
		for (uint32_t i = 0; i < nvals; i++)
			dt_agg_wrapadd(&dst[i], src[i]);
		break;
	}
}

bool
dt_agg_since(dt_aggkind_t kind, int64_t *taken, const int64_t *seen,
    uint32_t nvals)
{
	bool any = false;

	switch (kind) {
	case DT_AGG_MIN:
		return taken[0] < seen[0];
	case DT_AGG_MAX:
		return taken[0] > seen[0];
	case DT_AGG_STDDEV:
		dt_agg_wrapadd(&taken[0], (int64_t) (0 - (uint64_t) seen[0]));
		dt_agg_wrapadd(&taken[1], (int64_t) (0 - (uint64_t) seen[1]));
		dt_agg_sq_set(taken, dt_agg_sq(taken) - dt_agg_sq(seen));
		/* The count says whether any value came. */
		return taken[0] != 0;
	default:
		for (uint32_t i = 0; i < nvals; i++) {
			dt_agg_wrapadd(&taken[i],
			    (int64_t) (0 - (uint64_t) seen[i]));
			any = any || taken[i] != 0;
		}
		return any;
	}
}

