/* SPDX-License-Identifier: MIT */
/*
 * consumer_buf_test.c: whole buffers of records as dtrace(1) prints them
 * -- the "CPU ID FUNCTION:NAME" header and per-firing prefix, trace() of
 * each record type, printf(), printa() in a clause, exit(), -q, -F
 * flowindent, fault records -- and the same records as JSON.
 */
#include <stdarg.h>

#include "tests/unit/consumer_test.h"
#include "common/dt_aggfunc.h"

static dt_cap_t g_cap;
static char g_want[16384];

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

/* A buffer of records being built. */
static unsigned char g_buf[8192];
static size_t g_len;

static unsigned char *
rec_add(uint32_t epid, uint32_t size, uint64_t ts)
{
	dt_rechdr_t rh = {epid, size, ts};
	unsigned char *data;

	memcpy(g_buf + g_len, &rh, sizeof(rh));
	data = g_buf + g_len + sizeof(rh);
	memset(data, 0, size);
	g_len += sizeof(rh) + ((size + 7) & ~7u);
	return data;
}

static dt_recdesc_t
rd(dt_rectype_t type, uint32_t size, uint32_t off, uint64_t arg)
{
	dt_recdesc_t r;

	memset(&r, 0, sizeof(r));
	r.rd_type = type;
	r.rd_size = size;
	r.rd_offset = off;
	r.rd_align = size >= 8 ? 8 : size ? size : 1;
	r.rd_arg = arg;
	return r;
}

/* ---- the program ---- */

static dt_actarg_t a0[1], a1[1], a2[1], b0[1], b1[1], b2[1], b3[1];
static dt_actarg_t c0[1], c1[1], c2[1];
static dt_action_t acts0[3], acts1[4], acts2[3], acts3[2];
static dt_stmt_t stmts[5];
static dt_recdesc_t k_str = {DT_REC_STRING, 16, 0, 1, 0, NULL, 0};
static dt_aggdesc_t aggs[2];
static uint32_t aggid0 = 0, aggid1 = 1;
static dt_program_t prog;

static dt_action_t
act(dt_actkind_t kind, dt_actarg_t *args, uint32_t nargs, const char *fmt)
{
	dt_action_t a;

	memset(&a, 0, sizeof(a));
	a.ac_kind = kind;
	a.ac_args = args;
	a.ac_nargs = nargs;
	a.ac_format = fmt;
	return a;
}

static void
prog_init(void)
{
	/* BEGIN: trace(42); trace("hello"); printf("x=%d\n", 7); */
	a0[0].aa_rec = rd(DT_REC_SINT, 4, 0, 0);
	a1[0].aa_rec = rd(DT_REC_STRING, 16, 4, 0);
	a2[0].aa_rec = rd(DT_REC_SINT, 4, 20, 0);
	acts0[0] = act(DT_ACT_TRACE, a0, 1, NULL);
	acts0[1] = act(DT_ACT_TRACE, a1, 1, NULL);
	acts0[2] = act(DT_ACT_PRINTF, a2, 1, "x=%d\n");
	stmts[0].st_nactions = 3;
	stmts[0].st_actions = acts0;
	stmts[0].st_size = 24;

	/* tick: trace(-3LL); trace((ushort)65535); trace((uchar)200);
	 * exit(3); */
	b0[0].aa_rec = rd(DT_REC_SINT, 8, 0, 0);
	b1[0].aa_rec = rd(DT_REC_UINT, 2, 8, 0);
	b2[0].aa_rec = rd(DT_REC_UINT, 1, 10, 0);
	b3[0].aa_rec = rd(DT_REC_SINT, 4, 12, 0);
	acts1[0] = act(DT_ACT_TRACE, b0, 1, NULL);
	acts1[1] = act(DT_ACT_TRACE, b1, 1, NULL);
	acts1[2] = act(DT_ACT_TRACE, b2, 1, NULL);
	acts1[3] = act(DT_ACT_EXIT, b3, 1, NULL);
	stmts[1].st_nactions = 4;
	stmts[1].st_actions = acts1;
	stmts[1].st_size = 16;

	/* END: trace(raw 20 bytes); sym(addr); stack(3) */
	c0[0].aa_rec = rd(DT_REC_BYTES, 20, 0, 0);
	c1[0].aa_rec = rd(DT_REC_SYM, 8, 24, 0);
	c2[0].aa_rec = rd(DT_REC_STACK, 24, 32, 3);
	acts2[0] = act(DT_ACT_TRACE, c0, 1, NULL);
	acts2[1] = act(DT_ACT_SYM, c1, 1, NULL);
	acts2[2] = act(DT_ACT_STACK, c2, 1, NULL);
	stmts[2].st_nactions = 3;
	stmts[2].st_actions = acts2;
	stmts[2].st_size = 56;

	/* printa(@c); printa("%s=%@d\n", @c); */
	acts3[0] = act(DT_ACT_PRINTA, NULL, 0, NULL);
	acts3[0].ac_naggs = 1;
	acts3[0].ac_aggids = &aggid0;
	acts3[1] = act(DT_ACT_PRINTA, NULL, 0, "%s=%@d\n");
	acts3[1].ac_naggs = 1;
	acts3[1].ac_aggids = &aggid0;
	stmts[3].st_nactions = 2;
	stmts[3].st_actions = acts3;

	/* A clause with no actions (flowindent probes). */
	stmts[4].st_nactions = 0;

	aggs[0].ag_id = 0;
	aggs[0].ag_name = "c";
	aggs[0].ag_kind = DT_AGG_COUNT;
	aggs[0].ag_nvals = 1;
	aggs[0].ag_nkeys = 1;
	aggs[0].ag_keys = &k_str;
	aggs[0].ag_keysize = 16;
	aggs[1].ag_id = 1;
	aggs[1].ag_name = "q";
	aggs[1].ag_kind = DT_AGG_QUANTIZE;
	aggs[1].ag_nvals = DT_QUANTIZE_NBUCKETS;

	prog.pg_nstmts = 5;
	prog.pg_stmts = stmts;
	prog.pg_naggs = 2;
	prog.pg_aggs = aggs;
	(void) aggid1;
}

static const dt_cprobe_t probes[] = {
    {1, 1, &stmts[0], "dtrace", "", "", "BEGIN"},
    {2, 5, &stmts[1], "profile", "", "", "tick-1s"},
    {3, 2, &stmts[2], "dtrace", "", "", "END"},
    {4, 2, &stmts[3], "dtrace", "", "", "END"},
    {10, 100, &stmts[4], "syscall", "vmlinux", "open", "entry"},
    {11, 101, &stmts[4], "fbt", "vmlinux", "foo", "entry"},
    {12, 102, &stmts[4], "fbt", "vmlinux", "foo", "return"},
    {13, 103, &stmts[4], "syscall", "vmlinux", "open", "return"},
    {14, 104, &stmts[4], "profile", "", "", "tick-1s"},
};

static void
fill_records(void)
{
	unsigned char *d;
	int32_t i32;
	int64_t i64;
	uint16_t u16 = 65535;
	uint64_t sym = 0xffffffff81000010ULL;
	uint64_t st[3] = {0xffffffff81000010ULL, 0xffffffffc0000000ULL, 0};

	g_len = 0;
	d = rec_add(1, 24, 1000);
	i32 = 42;
	memcpy(d, &i32, 4);
	strcpy((char *) d + 4, "hello");
	i32 = 7;
	memcpy(d + 20, &i32, 4);

	d = rec_add(2, 16, 2000);
	i64 = -3;
	memcpy(d, &i64, 8);
	memcpy(d + 8, &u16, 2);
	d[10] = 200;
	i32 = 3;
	memcpy(d + 12, &i32, 4);

	/* Padding between records: a zero header. */
	memset(g_buf + g_len, 0, 16);
	g_len += 16;

	d = rec_add(3, 56, 3000);
	for (int i = 0; i < 20; i++)
		d[i] = (unsigned char) i;
	memcpy(d + 24, &sym, 8);
	memcpy(d + 32, st, 24);
}

static int
consume(dtrace_hdl_t *dtp, const char *const *opts, const char **outp)
{
	FILE *fp = cap_open(&g_cap);
	int rv;

	for (; opts != NULL && *opts != NULL; opts++)
		CHECK_INT(dtrace_setopt(dtp, *opts, NULL), 0);
	CHECK_INT(dt_consume_setup(
		      dtp, &prog, probes, sizeof(probes) / sizeof(probes[0])),
	    0);
	dt_consume_setsymops(dtp, &dt_tsym_ops);
	rv = dt_consume_buf(dtp, fp, 0, g_buf, g_len);
	*outp = cap_str(&g_cap);
	return rv;
}

static void
w_dump20(void)
{
	w("\n%11s", "");
	for (int i = 0; i < 16; i++)
		w("  %x", i);
	w("  0123456789abcdef\n");
	w("         0:");
	for (int i = 0; i < 16; i++)
		w(" %02x", i);
	w("  ................\n");
	w("        10: 10 11 12 13");
	for (int i = 0; i < 12; i++)
		w("   ");
	w("  ....\n");
}

static void
test_default_output(void)
{
	dtrace_hdl_t *dtp = t_open();
	const char *out;

	fill_records();
	CHECK_INT(consume(dtp, NULL, &out), DT_CONSUME_EXIT);
	CHECK_INT(dt_consume_exitstatus(dtp), 3);

	w_reset();
	w("CPU     ID                    FUNCTION:NAME\n");
	w("%3d %6d %32s ", 0, 1, ":BEGIN");
	w("       42");
	w("  hello                            ");
	w("x=7\n");
	w("\n");
	w("%3d %6d %32s ", 0, 5, ":tick-1s");
	w(" %16d %5d %3d\n", -3, 65535, 200);
	w("%3d %6d %32s ", 0, 2, ":END");
	w_dump20();
	w("  %-50s", "vmlinux`do_thing");
	w("\n              vmlinux`do_thing+0x10\n");
	w("              ext4`ext4_read\n");
	w("\n");
	CHECK_OUT(out, g_want);
	dtrace_close(dtp);

	/* The same records with -q. */
	dtp = t_open();
	{
		static const char *const q[] = {"quiet", NULL};

		CHECK_INT(consume(dtp, q, &out), DT_CONSUME_EXIT);
	}
	w_reset();
	w("42hellox=7\n");
	w("-365535200");
	w_dump20();
	w("  %-50s", "vmlinux`do_thing");
	w("\n              vmlinux`do_thing+0x10\n");
	w("              ext4`ext4_read\n");
	CHECK_OUT(out, g_want);

	/* rawbytes: strings print as dumps too; stackindent moves frames. */
	CHECK_INT(dtrace_setopt(dtp, "rawbytes", NULL), 0);
	CHECK_INT(dtrace_setopt(dtp, "stackindent", "2"), 0);
	g_len = 0;
	{
		unsigned char *d = rec_add(1, 24, 1000);

		strcpy((char *) d + 4, "hi");
	}
	{
		FILE *fp = cap_open(&g_cap);

		/* exit() was seen earlier: the status stays EXIT. */
		CHECK_INT(
		    dt_consume_buf(dtp, fp, 0, g_buf, g_len), DT_CONSUME_EXIT);
		out = cap_str(&g_cap);
	}
	w_reset();
	w("0");
	w("\n%11s", "");
	for (int i = 0; i < 16; i++)
		w("  %x", i);
	w("  0123456789abcdef\n");
	w("         0: 68 69 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
	  "  hi..............\n");
	w("x=0\n");
	CHECK_OUT(out, g_want);
	dtrace_close(dtp);
}

static void
test_empty_string(void)
{
	dtrace_hdl_t *dtp = t_open();
	FILE *fp;

	/* An empty string is not a string to trace(): it dumps. */
	CHECK_INT(dt_consume_setup(dtp, &prog, probes, 1), 0);
	g_len = 0;
	(void) rec_add(1, 24, 0);
	fp = cap_open(&g_cap);
	CHECK_INT(dt_consume_buf(dtp, fp, 0, g_buf, g_len), 0);
	w_reset();
	w("CPU     ID                    FUNCTION:NAME\n");
	w("%3d %6d %32s ", 0, 1, ":BEGIN");
	w("        0");
	w("\n%11s", "");
	for (int i = 0; i < 16; i++)
		w("  %x", i);
	w("  0123456789abcdef\n");
	w("         0: 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
	  "  ................\n");
	w("x=0\n\n");
	CHECK_OUT(cap_str(&g_cap), g_want);

	dtrace_close(dtp);
}

static void
test_printa_clause(void)
{
	dtrace_hdl_t *dtp = t_open();
	unsigned char snapbuf[64];
	dt_aggsnap_t snap;
	uint64_t id = 0, cnt = 2;
	const char *out;
	FILE *fp;

	CHECK_INT(dt_consume_setup(
		      dtp, &prog, probes, sizeof(probes) / sizeof(probes[0])),
	    0);
	memset(snapbuf, 0, sizeof(snapbuf));
	memcpy(snapbuf, &id, 8);
	strcpy((char *) snapbuf + 8, "k");
	memcpy(snapbuf + 24, &cnt, 8);
	snap.as_cpu = 0;
	snap.as_nentries = 1;
	snap.as_size = 32;
	snap.as_data = snapbuf;
	CHECK_INT(dt_consume_aggsnap(dtp, &snap, 1, true), 0);

	g_len = 0;
	(void) rec_add(4, 0, 0);
	fp = cap_open(&g_cap);
	CHECK_INT(dt_consume_buf(dtp, fp, 0, g_buf, g_len), 0);
	out = cap_str(&g_cap);
	w_reset();
	w("CPU     ID                    FUNCTION:NAME\n");
	w("%3d %6d %32s \n", 0, 2, ":END");
	w("  %-50s %16d\n", "k", 2);
	w("k=2\n");
	w("\n");
	CHECK_OUT(out, g_want);
	/* @c was printed by printa(); the end has nothing more. */
	fp = cap_open(&g_cap);
	CHECK_INT(dt_consume_end(dtp, fp), 0);
	CHECK_OUT(cap_str(&g_cap), "\n");
	dtrace_close(dtp);
}

static void
test_flowindent(void)
{
	dtrace_hdl_t *dtp = t_open();
	static const char *const f[] = {"flowindent", NULL};
	const char *out;

	g_len = 0;
	for (uint32_t e = 10; e <= 14; e++)
		(void) rec_add(e, 0, 0);
	CHECK_INT(consume(dtp, f, &out), 0);
	w_reset();
	w("%3s %-41s\n", "CPU", "FUNCTION");
	w("  0 %-41s \n", " => open");
	w("  0 %-41s \n", "   -> foo");
	w("  0 %-41s \n", "   <- foo");
	w("  0 %-41s \n", " <= open");
	w("  0 %-41s \n", "| :tick-1s");
	CHECK_OUT(out, g_want);
	dtrace_close(dtp);
}

static void
test_faults(void)
{
	dtrace_hdl_t *dtp = t_open();
	dt_cap_t errcap = {NULL, NULL, 0};
	dt_faultrec_t fr;
	const char *out;

	g_len = 0;
	fr.fr_epid = 1;
	fr.fr_action = 1;
	fr.fr_offset = 16;
	fr.fr_kind = 1;
	fr.fr_addr = 0;
	memcpy(rec_add(DT_EPID_FAULT, sizeof(fr), 0), &fr, sizeof(fr));
	fr.fr_action = 0;
	fr.fr_offset = -1;
	fr.fr_kind = 4;
	memcpy(rec_add(DT_EPID_FAULT, sizeof(fr), 0), &fr, sizeof(fr));
	CHECK_INT(dt_consume_setup(dtp, &prog, probes, 1), 0);
	dt_consume_seterrfp(dtp, cap_open(&errcap));
	CHECK_INT(dt_consume_buf(dtp, cap_open(&g_cap), 0, g_buf, g_len), 0);
	out = cap_str(&errcap);
	CHECK_OUT(out,
	    "dtrace: error on enabled probe ID 1 (ID 1: "
	    "dtrace:::BEGIN): invalid address (0x0) in action #1 "
	    "at DIF offset 16\n"
	    "dtrace: error on enabled probe ID 1 (ID 1: "
	    "dtrace:::BEGIN): divide-by-zero in predicate\n");
	CHECK_OUT(cap_str(&g_cap), "");
	dt_consume_seterrfp(dtp, NULL);
	cap_close(&errcap);

	/* An unknown EPID is an error, not a crash. */
	g_len = 0;
	(void) rec_add(77, 0, 0);
	CHECK_INT(dt_consume_buf(dtp, cap_open(&g_cap), 0, g_buf, g_len), -1);
	CHECK_INT(dtrace_errno(dtp), EDT_BADEPID);
	/* A record running past the buffer too. */
	g_len = 0;
	(void) rec_add(1, 24, 0);
	CHECK_INT(dt_consume_buf(dtp, cap_open(&g_cap), 0, g_buf, 30), -1);
	CHECK_INT(dtrace_errno(dtp), EDT_DOFFSET);
	dtrace_close(dtp);
}

static void
test_json(void)
{
	dtrace_hdl_t *dtp = t_open();
	unsigned char snapbuf[2048];
	dt_aggsnap_t snap;
	uint64_t id = 0, cnt = 2;
	int64_t q[DT_QUANTIZE_NBUCKETS];
	const char *out;
	FILE *fp;

	CHECK_INT(dtrace_setopt(dtp, "oformat", "json"), 0);
	fill_records();
	CHECK_INT(consume(dtp, NULL, &out), DT_CONSUME_EXIT);
	CHECK_OUT(out,
	    "{\"type\":\"probe\",\"cpu\":0,\"id\":1,\"epid\":1,"
	    "\"provider\":\"dtrace\",\"module\":\"\",\"function\":\"\","
	    "\"name\":\"BEGIN\",\"timestamp\":1000,\"records\":["
	    "{\"action\":\"trace\",\"value\":42},"
	    "{\"action\":\"trace\",\"value\":\"hello\"},"
	    "{\"action\":\"printf\",\"value\":\"x=7\\n\"}]}\n"
	    "{\"type\":\"probe\",\"cpu\":0,\"id\":5,\"epid\":2,"
	    "\"provider\":\"profile\",\"module\":\"\",\"function\":\"\","
	    "\"name\":\"tick-1s\",\"timestamp\":2000,\"records\":["
	    "{\"action\":\"trace\",\"value\":-3},"
	    "{\"action\":\"trace\",\"value\":65535},"
	    "{\"action\":\"trace\",\"value\":200},"
	    "{\"action\":\"exit\",\"status\":3}]}\n"
	    "{\"type\":\"probe\",\"cpu\":0,\"id\":2,\"epid\":3,"
	    "\"provider\":\"dtrace\",\"module\":\"\",\"function\":\"\","
	    "\"name\":\"END\",\"timestamp\":3000,\"records\":["
	    "{\"action\":\"trace\",\"value\":{\"hex\":"
	    "\"000102030405060708090a0b0c0d0e0f10111213\"}},"
	    "{\"action\":\"sym\",\"value\":\"vmlinux`do_thing\"},"
	    "{\"action\":\"stack\",\"value\":[\"vmlinux`do_thing+0x10\","
	    "\"ext4`ext4_read\"]}]}\n");

	/* Aggregations at the end: entries with keys and values. */
	memset(snapbuf, 0, sizeof(snapbuf));
	memcpy(snapbuf, &id, 8);
	strcpy((char *) snapbuf + 8, "k\"1");
	memcpy(snapbuf + 24, &cnt, 8);
	id = 1;
	memcpy(snapbuf + 32, &id, 8);
	memset(q, 0, sizeof(q));
	q[DT_QUANTIZE_ZERO + 1] = 1; /* 1 */
	q[DT_QUANTIZE_ZERO + 3] = 2; /* 4..7 */
	q[DT_QUANTIZE_ZERO - 2] = 1; /* -3..-2 */
	memcpy(snapbuf + 40, q, sizeof(q));
	snap.as_cpu = 0;
	snap.as_nentries = 2;
	snap.as_size = 40 + sizeof(q);
	snap.as_data = snapbuf;
	CHECK_INT(dt_consume_aggsnap(dtp, &snap, 1, true), 0);
	fp = cap_open(&g_cap);
	CHECK_INT(dt_consume_end(dtp, fp), 0);
	CHECK_OUT(cap_str(&g_cap),
	    "{\"type\":\"aggregation\",\"name\":\"c\",\"id\":0,"
	    "\"function\":\"count\",\"entries\":[{\"keys\":[\"k\\\"1\"],"
	    "\"value\":2}]}\n"
	    "{\"type\":\"aggregation\",\"name\":\"q\",\"id\":1,"
	    "\"function\":\"quantize\",\"entries\":[{\"keys\":[],"
	    "\"value\":{\"buckets\":[{\"min\":-3,\"max\":-2,\"count\":1},"
	    "{\"min\":1,\"max\":1,\"count\":1},"
	    "{\"min\":4,\"max\":7,\"count\":2}]}}]}\n");
	dtrace_close(dtp);
}

int
main(void)
{
	prog_init();
	test_default_output();
	test_empty_string();
	test_printa_clause();
	test_flowindent();
	test_faults();
	test_json();
	cap_close(&g_cap);
	return unit_done();
}
