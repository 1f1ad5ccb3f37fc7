/* SPDX-License-Identifier: MIT */
/*
 * consumer_agg_test.c: aggregations -- every aggregating function with
 * known data printed in DTrace's default layout, the distributions'
 * tables (negative values, empty tables, the rows shown around the data),
 * the aggsort* options, normalize(), trunc(), clear() and printa().
 *
 * The expected text is spelled out with a few helpers that follow
 * DTrace's layout: a key column "  %-50s" for strings, right-aligned
 * integers, values in 16 columns, and distribution rows of a 16-column
 * value, a bar of 40 and a left-aligned count.
 */
#include <stdarg.h>

#include "tests/unit/consumer_test.h"
#include "common/consumer/dt_cons_impl.h"
#include "common/dt_aggfunc.h"

static dtrace_hdl_t *g_dtp;
static dt_cap_t g_cap;

/* ---- building a program with aggregations and snapshots ---- */

static dt_recdesc_t k_str[1] = {{DT_REC_STRING, 16, 0, 1, 0, NULL, 0}};
static dt_recdesc_t k_int[1] = {{DT_REC_SINT, 4, 0, 4, 0, NULL, 0}};
static dt_recdesc_t k_int_str[2] = {
    {DT_REC_SINT, 4, 0, 4, 0, NULL, 0},
    {DT_REC_STRING, 16, 4, 1, 0, NULL, 0},
};

static dt_aggdesc_t g_aggs[16];
static dt_program_t g_prog;

static uint32_t
agg_add(const char *name, dt_aggkind_t kind, int64_t p0, int64_t p1, int64_t p2,
    int64_t p3, dt_recdesc_t *keys, uint32_t nkeys, uint32_t keysize)
{
	dt_aggdesc_t *agg = &g_aggs[g_prog.pg_naggs];

	memset(agg, 0, sizeof(*agg));
	agg->ag_id = g_prog.pg_naggs;
	agg->ag_name = name;
	agg->ag_kind = kind;
	agg->ag_params[0] = p0;
	agg->ag_params[1] = p1;
	agg->ag_params[2] = p2;
	agg->ag_params[3] = p3;
	agg->ag_nvals = dt_agg_nvals(kind, agg->ag_params);
	agg->ag_keys = keys;
	agg->ag_nkeys = nkeys;
	agg->ag_keysize = keysize;
	return g_prog.pg_naggs++;
}

static void
prog_reset(void)
{
	memset(&g_prog, 0, sizeof(g_prog));
	g_prog.pg_aggs = g_aggs;
}

static void
prog_setup(void)
{
	CHECK_INT(dt_consume_setup(g_dtp, &g_prog, NULL, 0), 0);
}

/* The engine side: a table of entries, updated and snapshotted. */
typedef struct tent {
	uint32_t id;
	unsigned char key[64];
	int64_t vals[160];
} tent_t;

static tent_t g_ents[64];
static int g_nents;

static void
eng_reset(void)
{
	g_nents = 0;
}

static tent_t *
eng_entry(uint32_t id, const void *key)
{
	const dt_aggdesc_t *agg = &g_aggs[id];

	for (int i = 0; i < g_nents; i++) {
		if (g_ents[i].id == id &&
		    memcmp(g_ents[i].key, key, agg->ag_keysize) == 0)
			return &g_ents[i];
	}
	memset(&g_ents[g_nents], 0, sizeof(g_ents[0]));
	g_ents[g_nents].id = id;
	memcpy(g_ents[g_nents].key, key, agg->ag_keysize);
	dt_agg_init(agg->ag_kind, g_ents[g_nents].vals, agg->ag_nvals);
	return &g_ents[g_nents++];
}

static void
eng_update(uint32_t id, const void *key, int64_t v, int64_t incr)
{
	dt_agg_update(&g_aggs[id], eng_entry(id, key)->vals, v, incr);
}

static unsigned char *
key_s(const char *s)
{
	static unsigned char k[64];

	memset(k, 0, sizeof(k));
	strcpy((char *) k, s);
	return k;
}

static unsigned char *
key_i(int32_t v)
{
	static unsigned char k[64];

	memset(k, 0, sizeof(k));
	memcpy(k, &v, 4);
	return k;
}

static unsigned char *
key_is(int32_t v, const char *s)
{
	static unsigned char k[64];

	memset(k, 0, sizeof(k));
	memcpy(k, &v, 4);
	strcpy((char *) k + 4, s);
	return k;
}

/* Hand the consumer a cumulative snapshot of the engine's table. */
static void
eng_snap(void)
{
	static unsigned char buf[65536];
	size_t off = 0;
	dt_aggsnap_t snap;

	for (int i = 0; i < g_nents; i++) {
		const dt_aggdesc_t *agg = &g_aggs[g_ents[i].id];
		size_t ksz = (agg->ag_keysize + 7) & ~(size_t) 7;
		uint64_t id = g_ents[i].id;

		memset(buf + off, 0, 8 + ksz);
		memcpy(buf + off, &id, 8);
		memcpy(buf + off + 8, g_ents[i].key, agg->ag_keysize);
		memcpy(buf + off + 8 + ksz, g_ents[i].vals, agg->ag_nvals * 8);
		off += 8 + ksz + agg->ag_nvals * 8;
	}
	snap.as_cpu = 0;
	snap.as_nentries = (uint32_t) g_nents;
	snap.as_size = off;
	snap.as_data = buf;
	CHECK_INT(dt_consume_aggsnap(g_dtp, &snap, 1, true), 0);
}

/*
 * clear() and trunc(): hand the consumer the table's entries of aggid and
 * delete them, as an engine gives their space back.
 */
static int
eng_take(dtrace_hdl_t *dtp, uint32_t aggid, void *arg)
{
	static unsigned char buf[65536];
	const dt_aggdesc_t *agg = &g_aggs[aggid];
	size_t ksz = (agg->ag_keysize + 7) & ~(size_t) 7;
	dt_aggsnap_t snap = {0, 0, 0, buf};
	int n = 0;

	(void) arg;
	for (int i = 0; i < g_nents; i++) {
		uint64_t id = aggid;

		if (g_ents[i].id != aggid) {
			g_ents[n++] = g_ents[i];
			continue;
		}
		memset(buf + snap.as_size, 0, 8 + ksz);
		memcpy(buf + snap.as_size, &id, 8);
		memcpy(buf + snap.as_size + 8, g_ents[i].key, agg->ag_keysize);
		memcpy(buf + snap.as_size + 8 + ksz, g_ents[i].vals,
		    agg->ag_nvals * 8);
		snap.as_size += 8 + ksz + agg->ag_nvals * 8;
		snap.as_nentries++;
	}
	g_nents = n;
	return dt_consume_aggtaken(dtp, &snap, 1);
}

/* ---- the expected text ---- */

static char g_want[65536];

static void
w_reset(void)
{
	g_want[0] = '\0';
}

static void
w(const char *fmt, ...)
{
	size_t n = strlen(g_want);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(g_want + n, sizeof(g_want) - n, fmt, ap);
	va_end(ap);
}

/* A distribution row: label, bar of depth '@' (one sign only), count. */
static void
w_row(const char *label, int depth, long long count)
{
	w("%16s |", label);
	for (int i = 0; i < 40; i++)
		w("%c", i < depth ? '@' : ' ');
	w(" %-9lld\n", count);
}

static void
w_rowi(long long value, int depth, long long count)
{
	char label[32];

	snprintf(label, sizeof(label), "%lld", value);
	w_row(label, depth, count);
}

/* A row when the table has both signs: 20 columns either side. */
static void
w_row2(long long value, int depth, long long count)
{
	w("%16lld ", value);
	if (count <= 0) {
		for (int i = 0; i < 20; i++)
			w("%c", i < 20 - depth ? ' ' : '@');
		w("|%20s", "");
	} else {
		w("%20s|", "");
		for (int i = 0; i < 20; i++)
			w("%c", i < depth ? '@' : ' ');
	}
	w(" %-9lld\n", count);
}

static void
w_header(void)
{
	w("\n           value  ------------- Distribution ------------- "
	  "count    \n");
}

static const char *
end_output(void)
{
	FILE *fp = cap_open(&g_cap);

	CHECK_INT(dt_consume_end(g_dtp, fp), 0);
	return cap_str(&g_cap);
}

/*
 * Every aggregating function with known data, in one default end-of-run
 * output: the whole text compared at once.
 */
static void
test_all_kinds(void)
{
	uint32_t c, s, a, mn, mx, sd, q, l, ll;
	static const int64_t sdv[] = {2, 4, 4, 4, 5, 5, 7, 9};

	prog_reset();
	c = agg_add("c", DT_AGG_COUNT, 0, 0, 0, 0, NULL, 0, 0);
	s = agg_add("s", DT_AGG_SUM, 0, 0, 0, 0, k_str, 1, 16);
	a = agg_add("a", DT_AGG_AVG, 0, 0, 0, 0, NULL, 0, 0);
	mn = agg_add("mn", DT_AGG_MIN, 0, 0, 0, 0, NULL, 0, 0);
	mx = agg_add("mx", DT_AGG_MAX, 0, 0, 0, 0, NULL, 0, 0);
	sd = agg_add("sd", DT_AGG_STDDEV, 0, 0, 0, 0, NULL, 0, 0);
	q = agg_add("q", DT_AGG_QUANTIZE, 0, 0, 0, 0, NULL, 0, 0);
	l = agg_add("l", DT_AGG_LQUANTIZE, 0, 10, 2, 0, NULL, 0, 0);
	ll = agg_add("ll", DT_AGG_LLQUANTIZE, 10, 0, 2, 10, NULL, 0, 0);
	prog_setup();
	eng_reset();

	for (int i = 0; i < 7; i++)
		eng_update(c, "", 0, 1);
	eng_update(s, key_s("foo"), 10, 1);
	eng_update(s, key_s("bar"), 30, 1);
	eng_update(a, "", 1, 1);
	eng_update(a, "", 2, 1);
	eng_update(a, "", 4, 1);
	eng_update(mn, "", 3, 1);
	eng_update(mn, "", -5, 1);
	eng_update(mx, "", 12, 1);
	eng_update(mx, "", -1, 1);
	for (int i = 0; i < 8; i++)
		eng_update(sd, "", sdv[i], 1);
	eng_update(q, "", 1, 1);
	eng_update(q, "", 2, 1);
	eng_update(q, "", 2, 1);
	eng_update(q, "", 3, 1);
	eng_update(q, "", 8, 4);
	eng_update(l, "", -1, 1);
	eng_update(l, "", 3, 2);
	eng_update(l, "", 11, 1);
	eng_update(ll, "", 0, 1);
	eng_update(ll, "", 5, 1);
	eng_update(ll, "", 50, 3);
	eng_update(ll, "", 1500, 1);
	eng_snap();

	w_reset();
	w("\n");
	w("                7\n");
	w("  %-50s %16d\n", "foo", 10);
	w("  %-50s %16d\n", "bar", 30);
	w("                2\n");
	w("               -5\n");
	w("               12\n");
	w("                2\n");
	/* quantize: 1, 2, 2, 3 and 8 four times; total 8. */
	w_header();
	w_rowi(0, 0, 0);
	w_rowi(1, 5, 1);
	w_rowi(2, 15, 3);
	w_rowi(4, 0, 0);
	w_rowi(8, 20, 4);
	w_rowi(16, 0, 0);
	w("\n");
	/* lquantize(x, 0, 10, 2): -1, 3 twice, 11; total 4. */
	w_header();
	w_row("< 0", 10, 1);
	w_rowi(0, 0, 0);
	w_rowi(2, 20, 2);
	w_rowi(4, 0, 0);
	w_rowi(6, 0, 0);
	w_rowi(8, 0, 0);
	w_row(">= 10", 10, 1);
	w("\n");
	/* llquantize(x, 10, 0, 2, 10): 0, 5, 50 three times, 1500. */
	w_header();
	w_row("< 1", 7, 1);
	for (int v = 1; v < 10; v++)
		w_rowi(v, v == 5 ? 7 : 0, v == 5 ? 1 : 0);
	for (int v = 10; v < 100; v += 10)
		w_rowi(v, v == 50 ? 20 : 0, v == 50 ? 3 : 0);
	for (int v = 100; v < 1000; v += 100)
		w_rowi(v, 0, 0);
	w_row(">= 1000", 7, 1);
	w("\n");
	CHECK_OUT(end_output(), g_want);

	/* The first lines spelled out, as DTrace prints them. */
	CHECK(strncmp(g_want,
		  "\n                7\n  foo                              "
		  "                                10\n",
		  89) == 0);
}

static void
test_quantize_signs(void)
{
	uint32_t q, q2, l;

	prog_reset();
	q = agg_add("q", DT_AGG_QUANTIZE, 0, 0, 0, 0, NULL, 0, 0);
	q2 = agg_add("q2", DT_AGG_QUANTIZE, 0, 0, 0, 0, NULL, 0, 0);
	l = agg_add("l", DT_AGG_LQUANTIZE, 0, 10, 2, 0, NULL, 0, 0);
	prog_setup();
	eng_reset();
	/* Positive and negative counts (quantize's increment argument). */
	eng_update(q, "", -4, 1);
	eng_update(q, "", -1, 1);
	eng_update(q, "", 2, 2);
	eng_update(q, "", 2, -4);
	/* All negative. */
	eng_update(q2, "", 3, -3);
	eng_update(q2, "", 16, -1);
	/* An entry whose buckets are all zero: the rows around the
	 * first bucket. */
	eng_update(l, "", 5, 1);
	eng_update(l, "", 5, -1);
	eng_snap();

	w_reset();
	w("\n");
	/* -4: 1, -1: 1, 2: -2; total 4, bars of 20 either side. */
	w_header();
	w_row2(-8, 0, 0);
	w_row2(-4, 5, 1);
	w_row2(-2, 0, 0);
	w_row2(-1, 5, 1);
	w_row2(0, 0, 0);
	w_row2(1, 0, 0);
	w_row2(2, 10, -2);
	w_row2(4, 0, 0);
	w("\n");
	/* 2: -3, 16: -1; total 4; bars grow left of '|'. */
	w_header();
	{
		static const struct {
			long long v;
			int depth;
			long long n;
		} rows[] = {{1, 0, 0}, {2, 30, -3}, {4, 0, 0}, {8, 0, 0},
		    {16, 10, -1}, {32, 0, 0}};

		for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
			w("%16lld ", rows[i].v);
			for (int j = 0; j < 40; j++)
				w("%c", j < 40 - rows[i].depth ? ' ' : '@');
			w("| %-9lld\n", rows[i].n);
		}
	}
	w("\n");
	w_header();
	w_row("< 0", 0, 0);
	w_rowi(0, 0, 0);
	w_rowi(2, 0, 0);
	w("\n");
	CHECK_OUT(end_output(), g_want);

	/* An empty quantize: the three rows around zero. */
	prog_reset();
	q = agg_add("q", DT_AGG_QUANTIZE, 0, 0, 0, 0, NULL, 0, 0);
	prog_setup();
	eng_reset();
	eng_update(q, "", 7, 0);
	eng_snap();
	w_reset();
	w("\n");
	w_header();
	w_rowi(-1, 0, 0);
	w_rowi(0, 0, 0);
	w_rowi(1, 0, 0);
	w("\n");
	CHECK_OUT(end_output(), g_want);
}

/* A keyed quantize: the key on its line, then the table. */
static void
test_keyed_quantize(void)
{
	uint32_t q;

	prog_reset();
	q = agg_add("q", DT_AGG_QUANTIZE, 0, 0, 0, 0, k_str, 1, 16);
	prog_setup();
	eng_reset();
	eng_update(q, key_s("bash"), 100, 1);
	eng_snap();
	w_reset();
	w("\n  %-50s\n", "bash");
	w("           value  ------------- Distribution ------------- "
	  "count    \n");
	w_rowi(32, 0, 0);
	w_rowi(64, 40, 1);
	w_rowi(128, 0, 0);
	w("\n");
	CHECK_OUT(end_output(), g_want);
}

static const char *
sorted_output(const char *opt, const char *val)
{
	dtrace_hdl_t *saved = g_dtp;
	const char *out;

	(void) saved;
	if (opt != NULL)
		CHECK_INT(dtrace_setopt(g_dtp, opt, val), 0);
	out = end_output();
	return out;
}

static void
test_sorting(void)
{
	uint32_t c;

	prog_reset();
	c = agg_add("c", DT_AGG_COUNT, 0, 0, 0, 0, k_int, 1, 4);
	prog_setup();
	eng_reset();
	for (int i = 0; i < 10; i++) {
		eng_update(c, key_i(3), 0, 1);
		eng_update(c, key_i(1), 0, 1);
	}
	for (int i = 0; i < 5; i++)
		eng_update(c, key_i(2), 0, 1);
	for (int i = 0; i < 7; i++)
		eng_update(c, key_i(-1), 0, 1);
	eng_snap();

	/* By value, then key; integer keys compare unsigned. */
	w_reset();
	w("\n");
	w(" %8d %16d\n", 2, 5);
	w(" %8d %16d\n", -1, 7);
	w(" %8d %16d\n", 1, 10);
	w(" %8d %16d\n", 3, 10);
	CHECK_OUT(sorted_output(NULL, NULL), g_want);

	w_reset();
	w("\n");
	w(" %8d %16d\n", 1, 10);
	w(" %8d %16d\n", 2, 5);
	w(" %8d %16d\n", 3, 10);
	w(" %8d %16d\n", -1, 7);
	CHECK_OUT(sorted_output("aggsortkey", NULL), g_want);

	w_reset();
	w("\n");
	w(" %8d %16d\n", -1, 7);
	w(" %8d %16d\n", 3, 10);
	w(" %8d %16d\n", 2, 5);
	w(" %8d %16d\n", 1, 10);
	CHECK_OUT(sorted_output("aggsortrev", NULL), g_want);

	dtrace_close(g_dtp);
	g_dtp = t_open();
	prog_setup();
	eng_snap();
	w_reset();
	w("\n");
	w(" %8d %16d\n", 3, 10);
	w(" %8d %16d\n", 1, 10);
	w(" %8d %16d\n", -1, 7);
	w(" %8d %16d\n", 2, 5);
	CHECK_OUT(sorted_output("aggsortrev", NULL), g_want);

	/* aggsortkeypos: which key is compared first. */
	dtrace_close(g_dtp);
	g_dtp = t_open();
	prog_reset();
	c = agg_add("c", DT_AGG_COUNT, 0, 0, 0, 0, k_int_str, 2, 20);
	prog_setup();
	eng_reset();
	eng_update(c, key_is(1, "b"), 0, 1);
	eng_update(c, key_is(2, "a"), 0, 1);
	eng_snap();
	w_reset();
	w("\n");
	w(" %8d  %-50s %16d\n", 1, "b", 1);
	w(" %8d  %-50s %16d\n", 2, "a", 1);
	CHECK_OUT(sorted_output("aggsortkey", NULL), g_want);
	w_reset();
	w("\n");
	w(" %8d  %-50s %16d\n", 2, "a", 1);
	w(" %8d  %-50s %16d\n", 1, "b", 1);
	CHECK_OUT(sorted_output("aggsortkeypos", "1"), g_want);

	dtrace_close(g_dtp);
	g_dtp = t_open();
}

static void
test_normalize_trunc_clear(void)
{
	uint32_t s, a, c, mn;
	const char *keys[] = {"a", "b", "c", "d", "e"};

	prog_reset();
	s = agg_add("s", DT_AGG_SUM, 0, 0, 0, 0, k_str, 1, 16);
	a = agg_add("a", DT_AGG_AVG, 0, 0, 0, 0, NULL, 0, 0);
	prog_setup();
	dt_consume_setaggtake(g_dtp, eng_take, NULL);
	eng_reset();
	eng_update(s, key_s("x"), 1000, 1);
	eng_update(s, key_s("y"), 3050, 1);
	eng_update(a, "", 100, 1);
	eng_update(a, "", 200, 1);
	eng_update(a, "", 300, 1);
	eng_snap();
	CHECK_INT(dt_agg_normalize(g_dtp, s, 100), 0);
	CHECK_INT(dt_agg_normalize(g_dtp, a, 10), 0);
	w_reset();
	w("\n");
	w("  %-50s %16d\n", "x", 10);
	w("  %-50s %16d\n", "y", 30);
	w("               20\n");
	CHECK_OUT(end_output(), g_want);
	CHECK_INT(dt_agg_denormalize(g_dtp, s), 0);
	w_reset();
	w("\n");
	w("  %-50s %16d\n", "x", 1000);
	w("  %-50s %16d\n", "y", 3050);
	w("               20\n");
	CHECK_OUT(end_output(), g_want);
	CHECK(dt_agg_normalize(g_dtp, s, 0) != 0);

	/* trunc(): the top n, the bottom n, or everything. */
	prog_reset();
	c = agg_add("c", DT_AGG_COUNT, 0, 0, 0, 0, k_str, 1, 16);
	mn = agg_add("mn", DT_AGG_MIN, 0, 0, 0, 0, NULL, 0, 0);
	prog_setup();
	eng_reset();
	for (int i = 0; i < 5; i++) {
		for (int j = 0; j <= i; j++)
			eng_update(c, key_s(keys[i]), 0, 1);
	}
	eng_update(mn, "", 42, 1);
	eng_snap();
	CHECK_INT(dt_agg_trunc(g_dtp, c, false, 2), 0);
	w_reset();
	w("\n");
	w("  %-50s %16d\n", "d", 4);
	w("  %-50s %16d\n", "e", 5);
	w("               42\n");
	CHECK_OUT(end_output(), g_want);
	/* A new snapshot of unchanged totals keeps them out... */
	eng_snap();
	CHECK_OUT(end_output(), g_want);
	/* ...and one that moves shows only what was added since. */
	eng_update(c, key_s("a"), 0, 1);
	eng_update(c, key_s("a"), 0, 1);
	eng_snap();
	w_reset();
	w("\n");
	w("  %-50s %16d\n", "a", 2);
	w("  %-50s %16d\n", "d", 4);
	w("  %-50s %16d\n", "e", 5);
	w("               42\n");
	CHECK_OUT(end_output(), g_want);

	CHECK_INT(dt_agg_trunc(g_dtp, c, false, -1), 0);
	w_reset();
	w("\n");
	w("  %-50s %16d\n", "a", 2);
	w("               42\n");
	CHECK_OUT(end_output(), g_want);
	CHECK_INT(dt_agg_trunc(g_dtp, c, true, 0), 0);
	w_reset();
	w("\n               42\n");
	CHECK_OUT(end_output(), g_want);

	/* clear(): values to their start, keys kept; min starts at
	 * INT64_MAX. */
	prog_reset();
	c = agg_add("c", DT_AGG_COUNT, 0, 0, 0, 0, k_str, 1, 16);
	mn = agg_add("mn", DT_AGG_MIN, 0, 0, 0, 0, NULL, 0, 0);
	prog_setup();
	dt_consume_setaggtake(g_dtp, eng_take, NULL);
	eng_reset();
	eng_update(c, key_s("k"), 0, 1);
	eng_update(mn, "", 42, 1);
	eng_snap();
	CHECK_INT(dt_agg_clear(g_dtp, c), 0);
	CHECK_INT(dt_agg_clear(g_dtp, mn), 0);
	eng_snap();
	w_reset();
	w("\n");
	w("  %-50s %16d\n", "k", 0);
	w(" 9223372036854775807\n");
	CHECK_OUT(end_output(), g_want);

	/*
	 * What the engine counted after the last snapshot -- not seen, not
	 * printed -- outlives clear() and trunc(): it starts the next
	 * interval, so that every count is printed once.
	 */
	prog_reset();
	c = agg_add("c", DT_AGG_COUNT, 0, 0, 0, 0, k_str, 1, 16);
	mn = agg_add("mn", DT_AGG_MIN, 0, 0, 0, 0, NULL, 0, 0);
	prog_setup();
	dt_consume_setaggtake(g_dtp, eng_take, NULL);
	eng_reset();
	for (int i = 0; i < 3; i++)
		eng_update(c, key_s("k"), 0, 1);
	eng_update(c, key_s("m"), 0, 1);
	eng_update(mn, "", 42, 1);
	eng_snap();
	/* Not yet seen: */
	eng_update(c, key_s("k"), 0, 1);
	eng_update(c, key_s("k"), 0, 1);
	eng_update(c, key_s("n"), 0, 1);
	eng_update(mn, "", 7, 1);
	CHECK_INT(dt_agg_clear(g_dtp, c), 0);
	CHECK_INT(dt_agg_clear(g_dtp, mn), 0);
	eng_snap();
	w_reset();
	w("\n");
	w("  %-50s %16d\n", "m", 0);
	w("  %-50s %16d\n", "n", 1);
	w("  %-50s %16d\n", "k", 2);
	w("                7\n");
	CHECK_OUT(end_output(), g_want);
	/* trunc(): the entries go, but for what came after the snapshot. */
	eng_update(c, key_s("m"), 0, 1);
	eng_snap();
	eng_update(c, key_s("k"), 0, 1);
	CHECK_INT(dt_agg_trunc(g_dtp, c, true, 0), 0);
	eng_snap();
	w_reset();
	w("\n");
	w("  %-50s %16d\n", "k", 1);
	w("                7\n");
	CHECK_OUT(end_output(), g_want);
	dt_consume_setaggtake(g_dtp, NULL, NULL);
}

static const char *
printa_out(const char *fmt, const uint32_t *ids, uint32_t n)
{
	FILE *fp = cap_open(&g_cap);

	CHECK_INT(dt_agg_printa(g_dtp, fp, fmt, ids, n), 0);
	return cap_str(&g_cap);
}

static void
test_printa(void)
{
	uint32_t x, y, s, q, ids[2];

	prog_reset();
	x = agg_add("x", DT_AGG_COUNT, 0, 0, 0, 0, k_str, 1, 16);
	y = agg_add("y", DT_AGG_SUM, 0, 0, 0, 0, k_str, 1, 16);
	s = agg_add("s", DT_AGG_SUM, 0, 0, 0, 0, k_str, 1, 16);
	q = agg_add("q", DT_AGG_QUANTIZE, 0, 0, 0, 0, k_str, 1, 16);
	prog_setup();
	eng_reset();
	eng_update(x, key_s("a"), 0, 1);
	eng_update(x, key_s("a"), 0, 1);
	eng_update(x, key_s("b"), 0, 1);
	eng_update(y, key_s("a"), 10, 1);
	eng_update(y, key_s("c"), 5, 1);
	eng_update(s, key_s("foo"), -10, 1);
	eng_update(s, key_s("bar"), 30, 1);
	eng_update(q, key_s("k"), 1, 1);
	eng_snap();

	CHECK_OUT(printa_out("%s %@d\n", &s, 1), "foo -10\nbar 30\n");
	CHECK_OUT(printa_out("%-6s|%@8d|\n", &s, 1),
	    "foo   |     -10|\nbar   |      30|\n");
	CHECK_OUT(printa_out("%@x %s\n", &x, 1), "1 b\n2 a\n");
	/* Keys may go unused; '@' may come first. */
	CHECK_OUT(printa_out("[%@d]", &s, 1), "[-10][30]");
	w_reset();
	w("\n  %-50s %16d\n  %-50s %16d\n", "foo", -10, "bar", 30);
	CHECK_OUT(printa_out(NULL, &s, 1), g_want);

	/* Two aggregations joined on their keys; 0 where one lacks a key. */
	ids[0] = x;
	ids[1] = y;
	CHECK_OUT(printa_out("%s %@d %@d\n", ids, 2), "c 0 5\nb 1 0\na 2 10\n");
	/* Extra '@' conversions repeat the last aggregation's value. */
	CHECK_OUT(printa_out("%s %@d %@d %@d\n", ids, 2),
	    "c 0 5 5\nb 1 0 0\na 2 10 10\n");
	w_reset();
	w("\n");
	w("  %-50s %16d %16d\n", "c", 0, 5);
	w("  %-50s %16d %16d\n", "b", 1, 0);
	w("  %-50s %16d %16d\n", "a", 2, 10);
	CHECK_OUT(printa_out(NULL, ids, 2), g_want);
	CHECK_INT(dtrace_setopt(g_dtp, "aggsortpos", "1"), 0);
	CHECK_OUT(printa_out("%s %@d %@d\n", ids, 2), "b 1 0\nc 0 5\na 2 10\n");

	/* %@d of a distribution prints its table. */
	w_reset();
	w("k:\n");
	w("           value  ------------- Distribution ------------- "
	  "count    \n");
	w_rowi(0, 0, 0);
	w_rowi(1, 40, 1);
	w_rowi(2, 0, 0);
	w("\n");
	CHECK_OUT(printa_out("%s:%@d\n", &q, 1), g_want);

	/* Every aggregation was printed: the end prints only the
	 * newline. */
	CHECK_OUT(end_output(), "\n");

	dtrace_close(g_dtp);
	g_dtp = t_open();
}

/*
 * sym()/func() keys are filed under their function's address and mod()
 * keys under their module's, so the addresses of one function (module)
 * are one entry; an address in a module without symbols stays itself.
 */
static void
test_symkeys(void)
{
	static dt_recdesc_t k_sym[1] = {{DT_REC_SYM, 8, 0, 8, 0, NULL, 0}};
	static dt_recdesc_t k_mod[1] = {{DT_REC_MOD, 8, 0, 8, 0, NULL, 0}};
	static const uint64_t addrs[] = {
		0xffffffff81000010ULL, 0xffffffff81000020ULL,
		0xffffffff81000010ULL, 0xffffffffc0000004ULL,
		0xffffffffc1000010ULL, 0xffffffffc1000020ULL,
	};
	uint32_t fs, fm;

	dt_consume_setsymops(g_dtp, &dt_tsym_ops);
	prog_reset();
	fs = agg_add("fs", DT_AGG_COUNT, 0, 0, 0, 0, k_sym, 1, 8);
	fm = agg_add("fm", DT_AGG_COUNT, 0, 0, 0, 0, k_mod, 1, 8);
	prog_setup();
	eng_reset();
	for (size_t i = 0; i < sizeof(addrs) / sizeof(addrs[0]); i++) {
		eng_update(fs, &addrs[i], 0, 1);
		eng_update(fm, &addrs[i], 0, 1);
	}
	/* Twice: cumulative snapshots replace what the first one merged. */
	eng_snap();
	eng_snap();
	w_reset();
	w("\n");
	w("  %-50s %16d\n", "ext4`ext4_read", 1);
	w("  %-50s %16d\n", "nosym`0xffffffffc1000010", 1);
	w("  %-50s %16d\n", "nosym`0xffffffffc1000020", 1);
	w("  %-50s %16d\n", "vmlinux`do_thing", 3);
	w("  %-50s %16d\n", "ext4", 1);
	w("  %-50s %16d\n", "nosym", 2);
	w("  %-50s %16d\n", "vmlinux", 3);
	CHECK_OUT(end_output(), g_want);
	dt_consume_setsymops(g_dtp, NULL);
}

/*
 * Many keys, printed again and again as a printa() every second does: the
 * consumer finds each key of a snapshot where the last snapshot had it,
 * tries the last order first and writes integers itself, and none of that
 * may change a byte.  Each printa() is compared with the same entries
 * sorted and formatted here: by value, then by key (unsigned), " %8d
 * %16lld" a line.
 */
#define MANY 3000

typedef struct ment {
	int32_t key;
	int64_t val;
} ment_t;

static ment_t g_many[2 * MANY];
static int g_nmany;

static int
ment_cmp(const void *lp, const void *rp)
{
	const ment_t *l = lp, *r = rp;

	if (l->val != r->val)
		return l->val < r->val ? -1 : 1;
	if ((uint32_t) l->key != (uint32_t) r->key)
		return (uint32_t) l->key < (uint32_t) r->key ? -1 : 1;
	return 0;
}

/* The expected printa(): the entries sorted, reversed with rev. */
static const char *
many_want(bool rev)
{
	static char buf[2 * MANY * 32 + 2];
	size_t off = 1;

	qsort(g_many, (size_t) g_nmany, sizeof(g_many[0]), ment_cmp);
	buf[0] = '\n';
	for (int i = 0; i < g_nmany; i++) {
		const ment_t *m = &g_many[rev ? g_nmany - 1 - i : i];

		off += (size_t) snprintf(buf + off, sizeof(buf) - off,
		    " %8d %16lld\n", (int) m->key, (long long) m->val);
	}
	return buf;
}

/*
 * A cumulative snapshot of the entries, in the order of perm (a
 * permutation of 0..g_nmany-1), split between two "CPUs" that both
 * hold some keys, as an engine's per-CPU maps do.
 */
static void
many_snap(uint32_t id, const int *perm)
{
	static unsigned char buf[2][2 * MANY * 24];
	dt_aggsnap_t snap[2];

	memset(snap, 0, sizeof(snap));
	snap[1].as_cpu = 1;
	for (int c = 0; c < 2; c++)
		snap[c].as_data = buf[c];
	for (int i = 0; i < g_nmany; i++) {
		const ment_t *m = &g_many[perm[i]];
		/* CPU 1 has a third of each value for every third key. */
		int64_t part = perm[i] % 3 == 0 ? m->val / 3 : 0;

		for (int c = 0; c < 2; c++) {
			unsigned char *p = buf[c] + snap[c].as_size;
			uint64_t aid = id;
			int64_t v = c == 0 ? m->val - part : part;

			if (c == 1 && perm[i] % 3 != 0)
				continue;
			memset(p, 0, 24);
			memcpy(p, &aid, 8);
			memcpy(p + 8, &m->key, 4);
			memcpy(p + 16, &v, 8);
			snap[c].as_size += 24;
			snap[c].as_nentries++;
		}
	}
	CHECK_INT(dt_consume_aggsnap(g_dtp, snap, 2, true), 0);
}

static uint32_t g_rand = 12345;

static int64_t
many_rand(int64_t mod)
{
	g_rand = g_rand * 1103515245u + 12345u;
	return (int64_t) ((g_rand >> 8) % (uint32_t) mod);
}

static void
many_perm(int *perm, bool shuffle)
{
	for (int i = 0; i < g_nmany; i++)
		perm[i] = i;
	for (int i = g_nmany - 1; shuffle && i > 0; i--) {
		int j = (int) many_rand(i + 1), t = perm[i];

		perm[i] = perm[j];
		perm[j] = t;
	}
}

static void
test_many_keys(void)
{
	static ment_t saved[2 * MANY];
	static int perm[2 * MANY];
	uint32_t id;
	int n;

	prog_reset();
	id = agg_add("m", DT_AGG_SUM, 0, 0, 0, 0, k_int, 1, 4);
	prog_setup();
	dt_consume_setaggtake(g_dtp, NULL, NULL);
	g_nmany = MANY;
	for (int i = 0; i < MANY; i++) {
		/* Extremes too: the integers are formatted without printf. */
		g_many[i].key = i == 0 ? INT32_MIN
		    : i == 1	       ? -1
				       : (int32_t) (i * 7919);
		g_many[i].val = i == 2 ? INT64_MIN
		    : i == 3	       ? INT64_MAX
				       : many_rand(20000) - 10000;
	}
	many_perm(perm, true);
	many_snap(id, perm);
	CHECK_OUT(printa_out(NULL, &id, 1), many_want(false));

	/* The same snapshot order, new values: another order to print. */
	for (int i = 4; i < MANY; i++)
		g_many[i].val = many_rand(20000) - 10000;
	many_perm(perm, true);
	many_snap(id, perm);
	CHECK_OUT(printa_out(NULL, &id, 1), many_want(false));
	/* Nothing changed: the last order is right as it stands. */
	many_snap(id, perm);
	CHECK_OUT(printa_out(NULL, &id, 1), many_want(false));

	/* New keys among the old, in another order. */
	for (int i = MANY; i < 2 * MANY; i++) {
		g_many[i].key = (int32_t) (i * 7919 + 1);
		g_many[i].val = many_rand(100);
	}
	g_nmany = 2 * MANY;
	many_perm(perm, true);
	many_snap(id, perm);
	CHECK_OUT(printa_out(NULL, &id, 1), many_want(false));

	/*
	 * trunc() frees entries the last snapshot's places named; the keys
	 * come back in the next snapshot.  With no engine to take them,
	 * the kept entries hold their values, and the engine's cumulative
	 * values add to them.
	 */
	CHECK_INT(dt_agg_trunc(g_dtp, id, false, 100), 0);
	(void) many_want(false);
	memcpy(saved, g_many, sizeof(saved));
	memmove(g_many, g_many + g_nmany - 100, 100 * sizeof(g_many[0]));
	n = g_nmany;
	g_nmany = 100;
	CHECK_OUT(printa_out(NULL, &id, 1), many_want(false));
	memcpy(g_many, saved, sizeof(saved));
	g_nmany = n;
	many_perm(perm, false);
	many_snap(id, perm);
	for (int i = n - 100; i < n; i++)
		g_many[i].val *= 2;
	CHECK_OUT(printa_out(NULL, &id, 1), many_want(false));
	/* Another option, another order. */
	CHECK_INT(dtrace_setopt(g_dtp, "aggsortrev", NULL), 0);
	CHECK_OUT(printa_out(NULL, &id, 1), many_want(true));
	dtrace_close(g_dtp);
	g_dtp = t_open();
}

/*
 * dt_fmt_int(), which makes every integer of the default layouts two
 * digits a division, against printf(): around each power of ten, the
 * extremes, negatives, and widths the number fills, overflows or is
 * padded to.
 */
static void
test_fmt_int(void)
{
	static const int widths[] = {0, 1, 3, 5, 8, 16, 20, 21, 47};
	uint64_t vals[64];
	uint32_t n = 0;

	for (uint64_t p = 1; n < 57; p *= 10) {
		vals[n++] = p - 1;
		vals[n++] = p;
		vals[n++] = p + 1;
		if (p > UINT64_MAX / 10)
			break;
	}
	vals[n++] = UINT64_MAX;
	vals[n++] = (uint64_t) INT64_MIN;
	vals[n++] = (uint64_t) INT64_MAX;
	vals[n++] = (uint64_t) -1;
	vals[n++] = (uint64_t) -99;
	vals[n++] = (uint64_t) -100;
	for (uint32_t i = 0; i < n; i++) {
		for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]);
		     w++) {
			for (int sign = 0; sign < 2; sign++) {
				char got[DT_FMT_INT_MAX + 1], want[64];
				size_t len = dt_fmt_int(
				    got, widths[w], vals[i], sign != 0);

				got[len] = '\0';
				if (sign)
					snprintf(want, sizeof(want), " %*lld",
					    widths[w], (long long) vals[i]);
				else
					snprintf(want, sizeof(want), " %*llu",
					    widths[w],
					    (unsigned long long) vals[i]);
				CHECK_STR(got, want);
			}
		}
	}
}

int
main(void)
{
	g_dtp = t_open();
	test_fmt_int();
	test_all_kinds();
	test_quantize_signs();
	test_keyed_quantize();
	test_sorting();
	test_normalize_trunc_clear();
	test_printa();
	test_symkeys();
	test_many_keys();
	cap_close(&g_cap);
	dtrace_close(g_dtp);
	return unit_done();
}
