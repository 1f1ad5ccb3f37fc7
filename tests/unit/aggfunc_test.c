/* SPDX-License-Identifier: MIT */
/*
 * aggfunc_test.c: bucket arithmetic of quantize, lquantize, llquantize and
 * the update/merge rules of every aggregating function.
 */
#include <limits.h>

#include "common/dt_aggfunc.h"
#include "tests/unit/unit.h"

static void
test_quantize(void)
{
	CHECK_INT(dt_quantize_bucket(0), 63);
	CHECK_INT(dt_quantize_bucket(1), 64);
	CHECK_INT(dt_quantize_bucket(2), 65);
	CHECK_INT(dt_quantize_bucket(3), 65);
	CHECK_INT(dt_quantize_bucket(4), 66);
	CHECK_INT(dt_quantize_bucket(1023), 73);
	CHECK_INT(dt_quantize_bucket(1024), 74);
	CHECK_INT(dt_quantize_bucket(INT64_MAX), 126);
	CHECK_INT(dt_quantize_bucket(-1), 62);
	CHECK_INT(dt_quantize_bucket(-2), 61);
	CHECK_INT(dt_quantize_bucket(-3), 61);
	CHECK_INT(dt_quantize_bucket(-4), 60);
	CHECK_INT(dt_quantize_bucket(INT64_MIN), 0);
	CHECK_INT(dt_quantize_bucket_value(63), 0);
	CHECK_INT(dt_quantize_bucket_value(64), 1);
	CHECK_INT(dt_quantize_bucket_value(74), 1024);
	CHECK_INT(dt_quantize_bucket_value(62), -1);
	CHECK_INT(dt_quantize_bucket_value(61), -2);
	CHECK_INT(dt_quantize_bucket_value(0), -(1LL << 62));
	CHECK_INT(dt_quantize_bucket_value(126), 1LL << 62);
	/* Every bucket's lowest value lands in that bucket. */
	for (int b = 0; b < DT_QUANTIZE_NBUCKETS; b++)
		CHECK_INT(dt_quantize_bucket(dt_quantize_bucket_value(b)), b);
}

static void
test_lquantize(void)
{
	/* lquantize(v, 0, 100, 10): 10 levels + under + over. */
	CHECK_INT(dt_lquantize_nbuckets(0, 100, 10), 12);
	CHECK_INT(dt_lquantize_bucket(-1, 0, 100, 10), 0);
	CHECK_INT(dt_lquantize_bucket(0, 0, 100, 10), 1);
	CHECK_INT(dt_lquantize_bucket(9, 0, 100, 10), 1);
	CHECK_INT(dt_lquantize_bucket(10, 0, 100, 10), 2);
	CHECK_INT(dt_lquantize_bucket(99, 0, 100, 10), 10);
	CHECK_INT(dt_lquantize_bucket(100, 0, 100, 10), 11);
	CHECK_INT(dt_lquantize_bucket(INT64_MAX, 0, 100, 10), 11);
	CHECK_INT(dt_lquantize_bucket(-5, -10, 10, 5), 2);
}

static void
test_llquantize(void)
{
	/*
	 * llquantize(v, 10, 0, 2, 10): order 0 is 1..9 in steps of 1 (9
	 * buckets), order 1 is 10..99 in steps of 10 (9), order 2 is
	 * 100..999 in steps of 100 (9); plus under and over.
	 */
	CHECK_INT(dt_llquantize_nbuckets(10, 0, 2, 10), 29);
	CHECK_INT(dt_llquantize_bucket(0, 10, 0, 2, 10), 0);
	CHECK_INT(dt_llquantize_bucket(1, 10, 0, 2, 10), 1);
	CHECK_INT(dt_llquantize_bucket(9, 10, 0, 2, 10), 9);
	CHECK_INT(dt_llquantize_bucket(10, 10, 0, 2, 10), 10);
	CHECK_INT(dt_llquantize_bucket(19, 10, 0, 2, 10), 10);
	CHECK_INT(dt_llquantize_bucket(20, 10, 0, 2, 10), 11);
	CHECK_INT(dt_llquantize_bucket(99, 10, 0, 2, 10), 18);
	CHECK_INT(dt_llquantize_bucket(100, 10, 0, 2, 10), 19);
	CHECK_INT(dt_llquantize_bucket(999, 10, 0, 2, 10), 27);
	CHECK_INT(dt_llquantize_bucket(1000, 10, 0, 2, 10), 28);
	CHECK_INT(dt_llquantize_bucket_value(1, 10, 0, 2, 10), 1);
	CHECK_INT(dt_llquantize_bucket_value(10, 10, 0, 2, 10), 10);
	CHECK_INT(dt_llquantize_bucket_value(11, 10, 0, 2, 10), 20);
	CHECK_INT(dt_llquantize_bucket_value(19, 10, 0, 2, 10), 100);
	CHECK_INT(dt_llquantize_bucket_value(28, 10, 0, 2, 10), 1000);
	/* Every bucket's lowest value lands in that bucket. */
	for (uint32_t b = 1; b < 29; b++)
		CHECK_INT(dt_llquantize_bucket(dt_llquantize_bucket_value(b,
			      10, 0, 2, 10), 10, 0, 2, 10), b);

	/*
	 * llquantize(v, 2, 2, 4, 4): order 2 (4..7) has min(4, 8) = 4
	 * steps of width 2 over [0, 8): buckets 4 and 6 -> 2; order 3
	 * (8..15): 4 steps of 4 over [0, 16) -> 8, 12; order 4: 16, 24.
	 */
	CHECK_INT(dt_llquantize_nbuckets(2, 2, 4, 4), 8);
	CHECK_INT(dt_llquantize_bucket(3, 2, 2, 4, 4), 0);
	CHECK_INT(dt_llquantize_bucket(4, 2, 2, 4, 4), 1);
	CHECK_INT(dt_llquantize_bucket(6, 2, 2, 4, 4), 2);
	CHECK_INT(dt_llquantize_bucket(8, 2, 2, 4, 4), 3);
	CHECK_INT(dt_llquantize_bucket(12, 2, 2, 4, 4), 4);
	CHECK_INT(dt_llquantize_bucket(16, 2, 2, 4, 4), 5);
	CHECK_INT(dt_llquantize_bucket(31, 2, 2, 4, 4), 6);
	CHECK_INT(dt_llquantize_bucket(32, 2, 2, 4, 4), 7);
}

static void
test_update(void)
{
	dt_aggdesc_t agg = { 0 };
	int64_t v[4], w[4];

	agg.ag_kind = DT_AGG_COUNT;
	dt_agg_init(agg.ag_kind, v, 1);
	dt_agg_update(&agg, v, 123, 1);
	dt_agg_update(&agg, v, 0, 1);
	CHECK_INT(v[0], 2);

	agg.ag_kind = DT_AGG_SUM;
	dt_agg_init(agg.ag_kind, v, 1);
	dt_agg_update(&agg, v, 5, 1);
	dt_agg_update(&agg, v, -7, 1);
	CHECK_INT(v[0], -2);

	agg.ag_kind = DT_AGG_MIN;
	dt_agg_init(agg.ag_kind, v, 1);
	CHECK_INT(v[0], INT64_MAX);
	dt_agg_update(&agg, v, 5, 1);
	dt_agg_update(&agg, v, -7, 1);
	CHECK_INT(v[0], -7);
	dt_agg_init(agg.ag_kind, w, 1);
	dt_agg_update(&agg, w, -9, 1);
	dt_agg_merge(agg.ag_kind, v, w, 1);
	CHECK_INT(v[0], -9);

	agg.ag_kind = DT_AGG_MAX;
	dt_agg_init(agg.ag_kind, v, 1);
	CHECK_INT(v[0], INT64_MIN);
	dt_agg_update(&agg, v, -7, 1);
	dt_agg_update(&agg, v, 5, 1);
	CHECK_INT(v[0], 5);

	agg.ag_kind = DT_AGG_AVG;
	dt_agg_init(agg.ag_kind, v, 2);
	dt_agg_update(&agg, v, 10, 1);
	dt_agg_update(&agg, v, 20, 1);
	CHECK_INT(v[0], 2);
	CHECK_INT(v[1], 30);

	agg.ag_kind = DT_AGG_STDDEV;
	dt_agg_init(agg.ag_kind, v, 4);
	dt_agg_update(&agg, v, 3, 1);
	dt_agg_update(&agg, v, -4, 1);
	CHECK_INT(v[0], 2);
	CHECK_INT(v[1], -1);
	CHECK_INT(v[2], 25);
	CHECK_INT(v[3], 0);
	/* The sum of squares carries into the high word. */
	dt_agg_init(agg.ag_kind, w, 4);
	dt_agg_update(&agg, w, 1LL << 32, 1);
	dt_agg_update(&agg, w, 1LL << 32, 1);
	CHECK_INT(w[2], 0);
	CHECK_INT(w[3], 2);
	dt_agg_merge(agg.ag_kind, v, w, 4);
	CHECK_INT(v[0], 4);
	CHECK_INT(v[2], 25);
	CHECK_INT(v[3], 2);

	agg.ag_kind = DT_AGG_LQUANTIZE;
	agg.ag_params[0] = 0;
	agg.ag_params[1] = 100;
	agg.ag_params[2] = 10;
	CHECK_INT(dt_agg_nvals(agg.ag_kind, agg.ag_params), 12);
	{
		int64_t q[12];

		dt_agg_init(agg.ag_kind, q, 12);
		dt_agg_update(&agg, q, 15, 3);
		dt_agg_update(&agg, q, 500, 1);
		CHECK_INT(q[2], 3);
		CHECK_INT(q[11], 1);
	}
	CHECK_INT(dt_agg_nvals(DT_AGG_QUANTIZE, agg.ag_params), 127);
	CHECK_INT(dt_agg_nvals(DT_AGG_COUNT, agg.ag_params), 1);
}

int
main(void)
{
	test_quantize();
	test_lquantize();
	test_llquantize();
	test_update();
	return unit_done();
}
