/* SPDX-License-Identifier: MIT */
/*
 * consumer_spec_test.c: speculations end to end at the consumer and in
 * the engines' shared state machine (common/engine/dt_spec.c) -- records
 * held per ID until commit or discard, records of other CPUs arriving
 * after the commit that settles them, the reuse of an ID in one drain --
 * JSON output of a commit, and DTrace's drop and failed-speculation
 * messages.
 */
#include <stdarg.h>

#include "tests/unit/consumer_test.h"
#include "common/engine/dt_spec.h"

static dt_cap_t g_cap, g_errcap;

/* Records of one CPU being built. */
static unsigned char g_buf[4096];
static size_t g_len;

static void
rec_add(uint32_t epid, int32_t id, int32_t value, uint64_t ts)
{
	dt_rechdr_t rh = {epid, 8, ts};

	memcpy(g_buf + g_len, &rh, sizeof(rh));
	memcpy(g_buf + g_len + sizeof(rh), &id, 4);
	memcpy(g_buf + g_len + sizeof(rh) + 4, &value, 4);
	g_len += sizeof(rh) + 8;
}

/*
 * EPID 1: speculate(id); trace(value)	(speculative)
 * EPID 2: commit(id)
 * EPID 3: discard(id); trace(value)
 */
static dt_actarg_t s_id[1], s_val[1], c_id[1], d_id[1], d_val[1];
static dt_action_t acts_s[2], acts_c[1], acts_d[2];
static dt_stmt_t stmts[3];
static dt_program_t prog;

static dt_recdesc_t
rd_int(uint32_t off)
{
	dt_recdesc_t r;

	memset(&r, 0, sizeof(r));
	r.rd_type = DT_REC_SINT;
	r.rd_size = 4;
	r.rd_offset = off;
	r.rd_align = 4;
	return r;
}

static dt_action_t
act(dt_actkind_t kind, dt_actarg_t *args)
{
	dt_action_t a;

	memset(&a, 0, sizeof(a));
	a.ac_kind = kind;
	a.ac_args = args;
	a.ac_nargs = 1;
	return a;
}

static void
prog_init(void)
{
	s_id[0].aa_rec = c_id[0].aa_rec = d_id[0].aa_rec = rd_int(0);
	s_val[0].aa_rec = d_val[0].aa_rec = rd_int(4);
	acts_s[0] = act(DT_ACT_SPECULATE, s_id);
	acts_s[1] = act(DT_ACT_TRACE, s_val);
	acts_c[0] = act(DT_ACT_COMMIT, c_id);
	acts_d[0] = act(DT_ACT_DISCARD, d_id);
	acts_d[1] = act(DT_ACT_TRACE, d_val);
	stmts[0].st_nactions = 2;
	stmts[0].st_actions = acts_s;
	stmts[0].st_size = 8;
	stmts[0].st_speculative = true;
	stmts[1].st_nactions = 1;
	stmts[1].st_actions = acts_c;
	stmts[1].st_size = 8;
	stmts[2].st_nactions = 2;
	stmts[2].st_actions = acts_d;
	stmts[2].st_size = 8;
	prog.pg_nstmts = 3;
	prog.pg_stmts = stmts;
}

static const dt_cprobe_t probes[] = {
    {1, 1, &stmts[0], "dtrace", "", "", "BEGIN"},
    {2, 1, &stmts[1], "dtrace", "", "", "BEGIN"},
    {3, 1, &stmts[2], "dtrace", "", "", "BEGIN"},
};

static dtrace_hdl_t *
spec_open(void)
{
	dtrace_hdl_t *dtp = t_open();

	CHECK_INT(dtrace_setopt(dtp, "quiet", NULL), 0);
	CHECK_INT(dtrace_setopt(dtp, "nspec", "2"), 0);
	CHECK_INT(dt_consume_setup(dtp, &prog, probes, 3), 0);
	return dtp;
}

/* Hand the records built so far to the consumer as CPU cpu's. */
static void
drain_cpu(dtrace_hdl_t *dtp, FILE *fp, uint32_t cpu)
{
	CHECK_INT(dt_consume_buf(dtp, fp, cpu, g_buf, g_len), 0);
	g_len = 0;
}

static void
test_same_cpu(void)
{
	dtrace_hdl_t *dtp = spec_open();
	FILE *fp = cap_open(&g_cap);

	/* Held until the commit, then in order; ID 2 is discarded. */
	g_len = 0;
	rec_add(1, 1, 10, 100);
	rec_add(1, 2, 20, 110);
	rec_add(1, 1, 11, 120);
	rec_add(3, 2, 99, 130);	/* discard(2) itself prints its trace */
	drain_cpu(dtp, fp, 0);
	CHECK_OUT(cap_str(&g_cap), "99");
	fp = cap_open(&g_cap);
	rec_add(2, 1, 0, 140);
	/* ID 1 used again after the commit, in the same drain. */
	rec_add(1, 1, 12, 150);
	drain_cpu(dtp, fp, 0);
	dt_consume_drained(dtp);
	CHECK_OUT(cap_str(&g_cap), "1011");
	fp = cap_open(&g_cap);
	rec_add(2, 1, 0, 160);
	/* ID 0 and IDs above nspec are never held. */
	rec_add(1, 0, 1, 170);
	rec_add(1, 3, 1, 170);
	rec_add(2, 0, 0, 180);
	rec_add(2, 3, 0, 180);
	drain_cpu(dtp, fp, 0);
	CHECK_OUT(cap_str(&g_cap), "12");
	dtrace_close(dtp);
}

/* As JSON: the committed record is printed, commit() has no line. */
static void
test_json(void)
{
	dtrace_hdl_t *dtp = spec_open();
	FILE *fp;

	CHECK_INT(dtrace_setopt(dtp, "oformat", "json"), 0);
	fp = cap_open(&g_cap);
	g_len = 0;
	rec_add(1, 1, 42, 100);
	rec_add(2, 1, 0, 200);
	drain_cpu(dtp, fp, 3);
	CHECK_OUT(cap_str(&g_cap),
	    "{\"type\":\"probe\",\"cpu\":3,\"id\":1,\"epid\":1,"
	    "\"provider\":\"dtrace\",\"module\":\"\",\"function\":\"\","
	    "\"name\":\"BEGIN\",\"timestamp\":100,"
	    "\"records\":[{\"action\":\"trace\",\"value\":42}]}\n");
	dtrace_close(dtp);
}

static void
test_cross_cpu(void)
{
	dtrace_hdl_t *dtp = spec_open();
	FILE *fp = cap_open(&g_cap);

	/*
	 * CPU 0 commits at 200 and discards at 400; CPU 1 speculated at
	 * 100 (committed), 300 (discarded) and 500 (the next use).  CPU 0
	 * is drained first, so CPU 1's records arrive after both.
	 */
	g_len = 0;
	rec_add(2, 1, 0, 200);
	rec_add(3, 1, -1, 400);
	drain_cpu(dtp, fp, 0);
	rec_add(1, 1, 1, 100);
	rec_add(1, 1, 3, 300);
	rec_add(1, 1, 5, 500);
	drain_cpu(dtp, fp, 1);
	dt_consume_drained(dtp);
	CHECK_OUT(cap_str(&g_cap), "-11");
	fp = cap_open(&g_cap);
	rec_add(2, 1, 0, 600);
	drain_cpu(dtp, fp, 0);
	CHECK_OUT(cap_str(&g_cap), "5");

	/* CPU 1 first: a commit on CPU 0 takes only what came before it. */
	fp = cap_open(&g_cap);
	rec_add(1, 2, 21, 700);
	rec_add(1, 2, 22, 900);
	drain_cpu(dtp, fp, 1);
	rec_add(2, 2, 0, 800);
	drain_cpu(dtp, fp, 0);
	dt_consume_drained(dtp);
	CHECK_OUT(cap_str(&g_cap), "21");
	fp = cap_open(&g_cap);
	rec_add(2, 2, 0, 1000);
	drain_cpu(dtp, fp, 1);
	CHECK_OUT(cap_str(&g_cap), "22");

	/*
	 * Ends arriving out of time order: CPU 1 discarded at 1300 and
	 * CPU 0 committed at 1200; CPU 2 wrote at 1150 (committed) and
	 * 1250 (discarded).
	 */
	dt_consume_drained(dtp);
	fp = cap_open(&g_cap);
	rec_add(3, 1, 7, 1300);
	drain_cpu(dtp, fp, 1);
	rec_add(2, 1, 0, 1200);
	drain_cpu(dtp, fp, 0);
	rec_add(1, 1, 31, 1150);
	rec_add(1, 1, 32, 1250);
	drain_cpu(dtp, fp, 2);
	CHECK_OUT(cap_str(&g_cap), "731");
	dtrace_close(dtp);
}

/*
 * A CPU's own discard, later in its buffer than another CPU's commit of
 * the reused ID: known ahead only because the drain is scanned first.
 */
static void
test_scan_ahead(void)
{
	dtrace_hdl_t *dtp = spec_open();
	FILE *fp = cap_open(&g_cap);
	unsigned char cpu0[256];
	size_t len0;

	/*
	 * CPU 1 speculated at 100 and discarded at 200; CPU 0 reused the
	 * ID at 300 and committed at 400.  CPU 0 is drained first.
	 */
	g_len = 0;
	rec_add(1, 1, 3, 300);
	rec_add(2, 1, 0, 400);
	memcpy(cpu0, g_buf, g_len);
	len0 = g_len;
	g_len = 0;
	rec_add(1, 1, 5, 100);
	rec_add(3, 1, 9, 200);
	CHECK_INT(dt_consume_spec_scan(dtp, 0, cpu0, len0), 0);
	CHECK_INT(dt_consume_spec_scan(dtp, 1, g_buf, g_len), 0);
	CHECK_INT(dt_consume_buf(dtp, fp, 0, cpu0, len0), 0);
	drain_cpu(dtp, fp, 1);
	dt_consume_drained(dtp);
	/* 3 committed, 5 discarded (9 is the discard's own trace). */
	CHECK_OUT(cap_str(&g_cap), "39");
	dtrace_close(dtp);
}

static void
test_status(void)
{
	dtrace_hdl_t *dtp = spec_open();
	dt_engine_status_t st;
	uint64_t drops[3] = {0, 5, 1}, none[3] = {0, 0, 0};

	dt_consume_seterrfp(dtp, cap_open(&g_errcap));
	memset(&st, 0, sizeof(st));
	st.es_dyndrops = 3;
	st.es_specdrops = 1;
	st.es_specbusy = 2;
	st.es_specunavail = 1;
	CHECK_INT(dt_consume_status(dtp, &st), 0);
	/* Nothing grew: nothing to say. */
	CHECK_INT(dt_consume_status(dtp, &st), 0);
	st.es_specunavail = 3;
	CHECK_INT(dt_consume_status(dtp, &st), 0);
	CHECK_INT(dt_consume_cpudrops(dtp, drops, 3, false), 0);
	CHECK_INT(dt_consume_cpudrops(dtp, none, 3, true), 0);
	drops[1] = 6;
	CHECK_INT(dt_consume_cpudrops(dtp, drops, 3, true), 0);
	CHECK_INT(dt_consume_cpudrops(dtp, drops, 3, false), 0);
	CHECK_OUT(cap_str(&g_errcap),
	    "dtrace: 3 dynamic variable drops\n"
	    "dtrace: 1 speculative drop\n"
	    "dtrace: 2 failed speculations (available buffer(s) still busy)\n"
	    "dtrace: 1 failed speculation (no speculative buffer available)\n"
	    "dtrace: 2 failed speculations (no speculative buffer available)\n"
	    "dtrace: 5 drops on CPU 1\n"
	    "dtrace: 1 drop on CPU 2\n"
	    "dtrace: 6 aggregation drops on CPU 1\n"
	    "dtrace: 1 aggregation drop on CPU 2\n"
	    "dtrace: 1 drop on CPU 1\n");
	dt_consume_seterrfp(dtp, NULL);
	dtrace_close(dtp);
}

static void
test_state_machine(void)
{
	dt_spec_t specs[2];
	bool busy;

	memset(specs, 0, sizeof(specs));
	CHECK_INT(dt_spec_alloc(specs, 2, &busy), 1);
	CHECK_INT(dt_spec_alloc(specs, 2, &busy), 2);
	CHECK_INT(dt_spec_alloc(specs, 2, &busy), 0);
	CHECK(!busy);

	/* Used on CPU 3 only, committed there: free at once. */
	CHECK_INT(dt_spec_speculate(specs, 2, 1, 3, 24, 48), DT_SPEC_OK);
	CHECK_INT(dt_spec_speculate(specs, 2, 1, 3, 24, 48), DT_SPEC_OK);
	CHECK_INT(dt_spec_speculate(specs, 2, 1, 3, 24, 48), DT_SPEC_FULL);
	CHECK(dt_spec_commit(specs, 2, 1, 3));
	CHECK_INT(specs[0].sp_state, DT_SPEC_INACTIVE);
	CHECK_INT(dt_spec_speculate(specs, 2, 1, 3, 24, 48), DT_SPEC_DROP);

	/* Used on CPUs 0 and 1: busy after the commit, until cleaned. */
	CHECK_INT(dt_spec_speculate(specs, 2, 2, 0, 8, 1000), DT_SPEC_OK);
	CHECK_INT(specs[1].sp_state, (0 << 8) | DT_SPEC_ACTIVEONE);
	CHECK_INT(dt_spec_speculate(specs, 2, 2, 1, 8, 1000), DT_SPEC_OK);
	CHECK_INT(specs[1].sp_state, DT_SPEC_ACTIVEMANY);
	CHECK(dt_spec_commit(specs, 2, 2, 0));
	CHECK_INT(specs[1].sp_state, DT_SPEC_BUSY);
	CHECK_INT(dt_spec_speculate(specs, 2, 2, 0, 8, 1000), DT_SPEC_DROP);
	CHECK_INT(dt_spec_alloc(specs, 2, &busy), 1);
	CHECK_INT(dt_spec_alloc(specs, 2, &busy), 0);
	CHECK(busy);
	CHECK(dt_spec_busy(specs, 2));
	dt_spec_clean(specs, 2);
	CHECK(!dt_spec_busy(specs, 2));
	CHECK_INT(dt_spec_alloc(specs, 2, &busy), 2);

	/* A discard with nothing speculated is busy; on the CPU, free. */
	CHECK(dt_spec_discard(specs, 2, 1, 0));
	CHECK_INT(specs[0].sp_state, DT_SPEC_BUSY);
	CHECK_INT(dt_spec_speculate(specs, 2, 2, 5, 8, 1000), DT_SPEC_OK);
	CHECK(dt_spec_discard(specs, 2, 2, 5));
	CHECK_INT(specs[1].sp_state, DT_SPEC_INACTIVE);

	/* ID 0 is no-op; IDs above nspec are illegal. */
	CHECK_INT(dt_spec_speculate(specs, 2, 0, 0, 8, 1000), DT_SPEC_DROP);
	CHECK_INT(dt_spec_speculate(specs, 2, 3, 0, 8, 1000), DT_SPEC_ILLOP);
	CHECK(dt_spec_commit(specs, 2, 0, 0));
	CHECK(!dt_spec_commit(specs, 2, 3, 0));
	CHECK(!dt_spec_discard(specs, 2, (uint64_t) -1, 0));
}

int
main(void)
{
	prog_init();
	test_same_cpu();
	test_cross_cpu();
	test_scan_ahead();
	test_json();
	test_status();
	test_state_machine();
	cap_close(&g_cap);
	cap_close(&g_errcap);
	return unit_done();
}
