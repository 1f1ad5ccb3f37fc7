/* SPDX-License-Identifier: MIT */
/*
 * metrics_fmt_test.c: the text of the metrics endpoint, both formats,
 * for known aggregations (common/consumer/dt_metrics_fmt.c).
 *
 * Entries whose keys print the same -- kernel stacks at other offsets in
 * the same functions, user stacks, usym() and umod() of other processes --
 * must be one series, their values merged as each function merges
 * (counts and sums added, min and max combined, avg and stddev from the
 * merged sums, buckets added); a histogram has _bucket, _sum and _count,
 * _sum made from the buckets; count() and a sum() of unsigned values are
 * counters, everything else that can fall a gauge; every family has HELP
 * and TYPE, under the name each format gives it.  The fake symbol table
 * of consumer_test.h names the addresses.
 */
#include "tests/unit/consumer_test.h"
#include "common/consumer/dt_cons_impl.h"
#include "common/dt_aggfunc.h"
#include "common/dt_metrics.h"

static dtrace_hdl_t *g_dtp;

static dt_aggdesc_t g_aggs[16];
static dt_program_t g_prog;

/* The engine side: a table of (aggregation, key) entries. */
typedef struct tent {
	uint32_t id;
	unsigned char key[64];
	int64_t vals[160];
} tent_t;

static tent_t g_ents[64];
static int g_nents;

static uint32_t
agg_add(const char *name, dt_aggkind_t kind, const int64_t *params,
    dt_recdesc_t *keys, uint32_t nkeys, uint32_t keysize)
{
	dt_aggdesc_t *agg = &g_aggs[g_prog.pg_naggs];

	memset(agg, 0, sizeof(*agg));
	agg->ag_id = g_prog.pg_naggs;
	agg->ag_name = name;
	agg->ag_kind = kind;
	if (params != NULL)
		memcpy(agg->ag_params, params, sizeof(agg->ag_params));
	agg->ag_nvals = dt_agg_nvals(kind, agg->ag_params);
	agg->ag_keys = keys;
	agg->ag_nkeys = nkeys;
	agg->ag_keysize = keysize;
	return g_prog.pg_naggs++;
}

static void
upd(uint32_t id, const void *key, int64_t v)
{
	static const unsigned char nokey[1];
	const dt_aggdesc_t *agg = &g_aggs[id];
	int i;

	/* memcmp() and memcpy() take no NULL, even for 0 bytes. */
	if (key == NULL)
		key = nokey;
	for (i = 0; i < g_nents; i++) {
		if (g_ents[i].id == id &&
		    memcmp(g_ents[i].key, key, agg->ag_keysize) == 0)
			break;
	}
	if (i == g_nents) {
		memset(&g_ents[i], 0, sizeof(g_ents[i]));
		g_ents[i].id = id;
		memcpy(g_ents[i].key, key, agg->ag_keysize);
		dt_agg_init(agg->ag_kind, g_ents[i].vals, agg->ag_nvals);
		g_nents++;
	}
	dt_agg_update(agg, g_ents[i].vals, v, 1);
}

/* Hand the consumer a cumulative snapshot of the table. */
static void
snap(void)
{
	static unsigned char buf[65536];
	size_t off = 0;
	dt_aggsnap_t s;

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
	s.as_cpu = 0;
	s.as_nentries = (uint32_t) g_nents;
	s.as_size = off;
	s.as_data = buf;
	CHECK_INT(dt_consume_aggsnap(g_dtp, &s, 1, true), 0);
}

/* Keys: a stack of up to four frames; a (pid, address) pair. */
static const void *
kstack(uint64_t f0, uint64_t f1)
{
	static uint64_t k[4];

	k[0] = f0;
	k[1] = f1;
	k[2] = k[3] = 0;
	return k;
}

static const void *
upair(uint64_t pid, uint64_t addr)
{
	static uint64_t k[2];

	k[0] = pid;
	k[1] = addr;
	return k;
}

#define DO_THING  0xffffffff81000000ULL /* vmlinux`do_thing */
#define EXT4_READ 0xffffffffc0000000ULL /* ext4`ext4_read */
#define MALLOC	  0x7f0000001000ULL	/* libc.so.6`malloc */

static char *g_text[DT_METRICS_NFMT];

static void
render(void)
{
	size_t len[DT_METRICS_NFMT];

	for (int f = 0; f < DT_METRICS_NFMT; f++)
		free(g_text[f]);
	CHECK_INT(dt_consume_metrics(g_dtp, g_text, len), 0);
	for (int f = 0; f < DT_METRICS_NFMT; f++)
		CHECK(g_text[f] != NULL && strlen(g_text[f]) == len[f]);
}

/*
 * Keys that print the same, from stacks, usym(), umod() and ustack(), are
 * one series of each kind of aggregation, their values merged.
 */
static void
test_merge(void)
{
	static dt_recdesc_t k_stack[1] = {{DT_REC_STACK, 32, 0, 8, 4, NULL, 0}};
	static dt_recdesc_t k_ustack[1] = {
	    {DT_REC_USTACK, 40, 0, 8, 4, NULL, 0}};
	static dt_recdesc_t k_usym[1] = {{DT_REC_USYM, 16, 0, 8, 0, NULL, 0}};
	static dt_recdesc_t k_umod[1] = {{DT_REC_UMOD, 16, 0, 8, 0, NULL, 0}};
	static const int64_t lq[4] = {0, 100, 10, 0};
	uint32_t k, u, s, us, mn, mx, av, sd, q, nq, l;
	uint64_t ust[5];

	memset(&g_prog, 0, sizeof(g_prog));
	g_prog.pg_aggs = g_aggs;
	g_nents = 0;
	dt_consume_setsymops(g_dtp, &dt_tsym_ops);
	k = agg_add("k", DT_AGG_COUNT, NULL, k_stack, 1, 32);
	u = agg_add("u", DT_AGG_COUNT, NULL, k_ustack, 1, 40);
	s = agg_add("s", DT_AGG_SUM, NULL, k_usym, 1, 16);
	us = agg_add("us", DT_AGG_SUM, NULL, k_usym, 1, 16);
	g_aggs[us].ag_nonneg = true;
	mn = agg_add("mn", DT_AGG_MIN, NULL, k_umod, 1, 16);
	mx = agg_add("mx", DT_AGG_MAX, NULL, k_umod, 1, 16);
	av = agg_add("av", DT_AGG_AVG, NULL, k_usym, 1, 16);
	sd = agg_add("sd", DT_AGG_STDDEV, NULL, k_umod, 1, 16);
	q = agg_add("q", DT_AGG_QUANTIZE, NULL, k_umod, 1, 16);
	nq = agg_add("nq", DT_AGG_QUANTIZE, NULL, NULL, 0, 0);
	l = agg_add("l", DT_AGG_LQUANTIZE, lq, NULL, 0, 0);
	/* No entries: the family, HELP and TYPE, and nothing else. */
	(void) agg_add("e", DT_AGG_COUNT, NULL, k_umod, 1, 16);
	CHECK_INT(dt_consume_setup(g_dtp, &g_prog, NULL, 0), 0);

	/* Two call sites in do_thing under one in ext4_read: one stack. */
	for (int i = 0; i < 3; i++)
		upd(k, kstack(DO_THING + 0x10, EXT4_READ + 4), 0);
	upd(k, kstack(DO_THING + 0x20, EXT4_READ + 8), 0);
	upd(k, kstack(DO_THING + 0x30, 0), 0);
	/* malloc in three processes. */
	for (uint64_t pid = 10; pid < 13; pid++) {
		memset(ust, 0, sizeof(ust));
		ust[0] = pid;
		ust[1] = MALLOC + 4 * pid;
		upd(u, ust, 0);
	}
	upd(s, upair(10, MALLOC + 4), 7);
	upd(s, upair(11, MALLOC + 8), -3);
	upd(us, upair(10, MALLOC + 4), 7);
	upd(us, upair(11, MALLOC + 8), 3);
	upd(mn, upair(10, MALLOC), 5);
	upd(mn, upair(11, MALLOC), 2);
	upd(mx, upair(10, MALLOC), 5);
	upd(mx, upair(11, MALLOC), 2);
	/* avg 3 and 9, but 5 of all three values, not 6. */
	upd(av, upair(10, MALLOC + 1), 2);
	upd(av, upair(10, MALLOC + 2), 4);
	upd(av, upair(11, MALLOC + 1), 9);
	/* stddev 1 and 0, but 3 of 2, 4 and 10. */
	upd(sd, upair(10, MALLOC), 2);
	upd(sd, upair(10, MALLOC), 4);
	upd(sd, upair(11, MALLOC), 10);
	upd(q, upair(10, MALLOC), 1);
	upd(q, upair(10, MALLOC), 5);
	upd(q, upair(11, MALLOC), 5);
	upd(q, upair(11, MALLOC), 100);
	upd(nq, NULL, -3);
	upd(nq, NULL, 9);
	upd(l, NULL, 15);
	upd(l, NULL, 250);
	snap();
	render();

	CHECK_OUT(g_text[DT_METRICS_OPENMETRICS],
	    "# HELP dtrace_k D aggregation @k, count()\n"
	    "# TYPE dtrace_k counter\n"
	    "dtrace_k_total{key1=\"ext4`ext4_read;vmlinux`do_thing\"} 4\n"
	    "dtrace_k_total{key1=\"vmlinux`do_thing\"} 1\n"
	    "# HELP dtrace_u D aggregation @u, count()\n"
	    "# TYPE dtrace_u counter\n"
	    "dtrace_u_total{key1=\"libc.so.6`malloc\"} 3\n"
	    "# HELP dtrace_s D aggregation @s, sum()\n"
	    "# TYPE dtrace_s gauge\n"
	    "dtrace_s{key1=\"libc.so.6`malloc\"} 4\n"
	    "# HELP dtrace_us D aggregation @us, sum()\n"
	    "# TYPE dtrace_us counter\n"
	    "dtrace_us_total{key1=\"libc.so.6`malloc\"} 10\n"
	    "# HELP dtrace_mn D aggregation @mn, min()\n"
	    "# TYPE dtrace_mn gauge\n"
	    "dtrace_mn{key1=\"libc.so.6\"} 2\n"
	    "# HELP dtrace_mx D aggregation @mx, max()\n"
	    "# TYPE dtrace_mx gauge\n"
	    "dtrace_mx{key1=\"libc.so.6\"} 5\n"
	    "# HELP dtrace_av D aggregation @av, avg()\n"
	    "# TYPE dtrace_av gauge\n"
	    "dtrace_av{key1=\"libc.so.6`malloc\"} 5\n"
	    "# HELP dtrace_sd D aggregation @sd, stddev()\n"
	    "# TYPE dtrace_sd gauge\n"
	    "dtrace_sd{key1=\"libc.so.6\"} 3\n"
	    "# HELP dtrace_q D aggregation @q, quantize()\n"
	    "# TYPE dtrace_q histogram\n"
	    "dtrace_q_bucket{key1=\"libc.so.6\",le=\"1\"} 1\n"
	    "dtrace_q_bucket{key1=\"libc.so.6\",le=\"3\"} 1\n"
	    "dtrace_q_bucket{key1=\"libc.so.6\",le=\"7\"} 3\n"
	    "dtrace_q_bucket{key1=\"libc.so.6\",le=\"15\"} 3\n"
	    "dtrace_q_bucket{key1=\"libc.so.6\",le=\"31\"} 3\n"
	    "dtrace_q_bucket{key1=\"libc.so.6\",le=\"63\"} 3\n"
	    "dtrace_q_bucket{key1=\"libc.so.6\",le=\"127\"} 4\n"
	    "dtrace_q_bucket{key1=\"libc.so.6\",le=\"+Inf\"} 4\n"
	    "dtrace_q_sum{key1=\"libc.so.6\"} 73\n"
	    "dtrace_q_count{key1=\"libc.so.6\"} 4\n"
	    "# HELP dtrace_nq D aggregation @nq, quantize()\n"
	    "# TYPE dtrace_nq histogram\n"
	    "dtrace_nq_bucket{le=\"-2\"} 1\n"
	    "dtrace_nq_bucket{le=\"-1\"} 1\n"
	    "dtrace_nq_bucket{le=\"0\"} 1\n"
	    "dtrace_nq_bucket{le=\"1\"} 1\n"
	    "dtrace_nq_bucket{le=\"3\"} 1\n"
	    "dtrace_nq_bucket{le=\"7\"} 1\n"
	    "dtrace_nq_bucket{le=\"15\"} 2\n"
	    "dtrace_nq_bucket{le=\"+Inf\"} 2\n"
	    "# HELP dtrace_l D aggregation @l, lquantize()\n"
	    "# TYPE dtrace_l histogram\n"
	    "dtrace_l_bucket{le=\"19\"} 1\n"
	    "dtrace_l_bucket{le=\"29\"} 1\n"
	    "dtrace_l_bucket{le=\"39\"} 1\n"
	    "dtrace_l_bucket{le=\"49\"} 1\n"
	    "dtrace_l_bucket{le=\"59\"} 1\n"
	    "dtrace_l_bucket{le=\"69\"} 1\n"
	    "dtrace_l_bucket{le=\"79\"} 1\n"
	    "dtrace_l_bucket{le=\"89\"} 1\n"
	    "dtrace_l_bucket{le=\"99\"} 1\n"
	    "dtrace_l_bucket{le=\"+Inf\"} 2\n"
	    "dtrace_l_sum 110\n"
	    "dtrace_l_count 2\n"
	    "# HELP dtrace_e D aggregation @e, count()\n"
	    "# TYPE dtrace_e counter\n"
	    "# EOF\n");
	CHECK_OUT(g_text[DT_METRICS_PROMTEXT],
	    "# HELP dtrace_k_total D aggregation @k, count()\n"
	    "# TYPE dtrace_k_total counter\n"
	    "dtrace_k_total{key1=\"ext4`ext4_read;vmlinux`do_thing\"} 4\n"
	    "dtrace_k_total{key1=\"vmlinux`do_thing\"} 1\n"
	    "# HELP dtrace_u_total D aggregation @u, count()\n"
	    "# TYPE dtrace_u_total counter\n"
	    "dtrace_u_total{key1=\"libc.so.6`malloc\"} 3\n"
	    "# HELP dtrace_s D aggregation @s, sum()\n"
	    "# TYPE dtrace_s gauge\n"
	    "dtrace_s{key1=\"libc.so.6`malloc\"} 4\n"
	    "# HELP dtrace_us_total D aggregation @us, sum()\n"
	    "# TYPE dtrace_us_total counter\n"
	    "dtrace_us_total{key1=\"libc.so.6`malloc\"} 10\n"
	    "# HELP dtrace_mn D aggregation @mn, min()\n"
	    "# TYPE dtrace_mn gauge\n"
	    "dtrace_mn{key1=\"libc.so.6\"} 2\n"
	    "# HELP dtrace_mx D aggregation @mx, max()\n"
	    "# TYPE dtrace_mx gauge\n"
	    "dtrace_mx{key1=\"libc.so.6\"} 5\n"
	    "# HELP dtrace_av D aggregation @av, avg()\n"
	    "# TYPE dtrace_av gauge\n"
	    "dtrace_av{key1=\"libc.so.6`malloc\"} 5\n"
	    "# HELP dtrace_sd D aggregation @sd, stddev()\n"
	    "# TYPE dtrace_sd gauge\n"
	    "dtrace_sd{key1=\"libc.so.6\"} 3\n"
	    "# HELP dtrace_q D aggregation @q, quantize()\n"
	    "# TYPE dtrace_q histogram\n"
	    "dtrace_q_bucket{key1=\"libc.so.6\",le=\"1\"} 1\n"
	    "dtrace_q_bucket{key1=\"libc.so.6\",le=\"3\"} 1\n"
	    "dtrace_q_bucket{key1=\"libc.so.6\",le=\"7\"} 3\n"
	    "dtrace_q_bucket{key1=\"libc.so.6\",le=\"15\"} 3\n"
	    "dtrace_q_bucket{key1=\"libc.so.6\",le=\"31\"} 3\n"
	    "dtrace_q_bucket{key1=\"libc.so.6\",le=\"63\"} 3\n"
	    "dtrace_q_bucket{key1=\"libc.so.6\",le=\"127\"} 4\n"
	    "dtrace_q_bucket{key1=\"libc.so.6\",le=\"+Inf\"} 4\n"
	    "dtrace_q_sum{key1=\"libc.so.6\"} 73\n"
	    "dtrace_q_count{key1=\"libc.so.6\"} 4\n"
	    "# HELP dtrace_nq D aggregation @nq, quantize()\n"
	    "# TYPE dtrace_nq histogram\n"
	    "dtrace_nq_bucket{le=\"-2\"} 1\n"
	    "dtrace_nq_bucket{le=\"-1\"} 1\n"
	    "dtrace_nq_bucket{le=\"0\"} 1\n"
	    "dtrace_nq_bucket{le=\"1\"} 1\n"
	    "dtrace_nq_bucket{le=\"3\"} 1\n"
	    "dtrace_nq_bucket{le=\"7\"} 1\n"
	    "dtrace_nq_bucket{le=\"15\"} 2\n"
	    "dtrace_nq_bucket{le=\"+Inf\"} 2\n"
	    "dtrace_nq_sum 6\n"
	    "dtrace_nq_count 2\n"
	    "# HELP dtrace_l D aggregation @l, lquantize()\n"
	    "# TYPE dtrace_l histogram\n"
	    "dtrace_l_bucket{le=\"19\"} 1\n"
	    "dtrace_l_bucket{le=\"29\"} 1\n"
	    "dtrace_l_bucket{le=\"39\"} 1\n"
	    "dtrace_l_bucket{le=\"49\"} 1\n"
	    "dtrace_l_bucket{le=\"59\"} 1\n"
	    "dtrace_l_bucket{le=\"69\"} 1\n"
	    "dtrace_l_bucket{le=\"79\"} 1\n"
	    "dtrace_l_bucket{le=\"89\"} 1\n"
	    "dtrace_l_bucket{le=\"99\"} 1\n"
	    "dtrace_l_bucket{le=\"+Inf\"} 2\n"
	    "dtrace_l_sum 110\n"
	    "dtrace_l_count 2\n"
	    "# HELP dtrace_e_total D aggregation @e, count()\n"
	    "# TYPE dtrace_e_total counter\n");
	dt_consume_setsymops(g_dtp, NULL);
}

/*
 * _sum of a quantize(): each value as its bucket's bound nearest zero,
 * in 128 bits, so that counts of huge buckets do not wrap.
 */
static void
test_bigsum(void)
{
	uint32_t q;

	memset(&g_prog, 0, sizeof(g_prog));
	g_prog.pg_aggs = g_aggs;
	g_nents = 0;
	q = agg_add("q", DT_AGG_QUANTIZE, NULL, NULL, 0, 0);
	CHECK_INT(dt_consume_setup(g_dtp, &g_prog, NULL, 0), 0);
	/* 2^62 ten times: 10 * 2^62 = 46116860184273879040. */
	for (int i = 0; i < 10; i++)
		upd(q, NULL, INT64_MAX);
	snap();
	render();
	CHECK(strstr(g_text[DT_METRICS_PROMTEXT],
		  "\ndtrace_q_sum 46116860184273879040\n") != NULL);
	CHECK(strstr(g_text[DT_METRICS_OPENMETRICS],
		  "\ndtrace_q_bucket{le=\"+Inf\"} 10\n"
		  "dtrace_q_sum 46116860184273879040\n"
		  "dtrace_q_count 10\n# EOF\n") != NULL);
}

int
main(void)
{
	g_dtp = t_open();
	test_merge();
	test_bigsum();
	for (int f = 0; f < DT_METRICS_NFMT; f++)
		free(g_text[f]);
	dtrace_close(g_dtp);
	return unit_done();
}
