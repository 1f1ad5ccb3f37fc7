/* SPDX-License-Identifier: MIT */
/*
 * probe_test.c: the probe namespace -- globs, descriptions, the portable
 * providers and on-demand profile probes.
 */
#include "common/dt_impl.h"
#include "common/probe/dt_probe.h"
#include "common/prov/dt_prov.h"
#include "tests/unit/unit.h"

static void
test_gmatch(void)
{
	CHECK(dt_gmatch("read", "read"));
	CHECK(!dt_gmatch("read", "rea"));
	CHECK(!dt_gmatch("rea", "read"));
	CHECK(dt_gmatch("read", "*"));
	CHECK(dt_gmatch("", "*"));
	CHECK(dt_gmatch("read", "r*"));
	CHECK(dt_gmatch("read", "*d"));
	CHECK(dt_gmatch("read", "*e*"));
	CHECK(!dt_gmatch("read", "*x*"));
	CHECK(dt_gmatch("pread64", "*read*"));
	CHECK(dt_gmatch("read", "r??d"));
	CHECK(!dt_gmatch("read", "r?d"));
	CHECK(dt_gmatch("read", "[rw]ead"));
	CHECK(dt_gmatch("wead", "[rw]ead"));
	CHECK(!dt_gmatch("xead", "[rw]ead"));
	CHECK(dt_gmatch("read", "[a-z]ead"));
	CHECK(!dt_gmatch("Read", "[a-z]ead"));
	CHECK(dt_gmatch("xead", "[!rw]ead"));
	CHECK(!dt_gmatch("read", "[!rw]ead"));
	CHECK(dt_gmatch("a*b", "a\\*b"));
	CHECK(!dt_gmatch("axb", "a\\*b"));
	CHECK(dt_gmatch("a:b", "a\\:b"));
	CHECK(dt_gmatch("[x", "[x"));	/* unclosed class is literal */
	CHECK(dt_gmatch("]", "[]]"));
	CHECK(dt_gmatch("abcabcabd", "*abd"));
	CHECK(dt_gmatch("sys_enter_read", "sys_*_read"));
}

static void
test_desc_parse(void)
{
	dt_probedesc_t pd;

	CHECK_INT(dt_probedesc_parse("syscall::read:entry", &pd), 0);
	CHECK_STR(pd.pd_provider, "syscall");
	CHECK_STR(pd.pd_module, "");
	CHECK_STR(pd.pd_function, "read");
	CHECK_STR(pd.pd_name, "entry");

	/* Fewer fields name the trailing ones. */
	CHECK_INT(dt_probedesc_parse("BEGIN", &pd), 0);
	CHECK_STR(pd.pd_provider, "");
	CHECK_STR(pd.pd_name, "BEGIN");
	CHECK_INT(dt_probedesc_parse("read:entry", &pd), 0);
	CHECK_STR(pd.pd_function, "read");
	CHECK_STR(pd.pd_name, "entry");
	CHECK_INT(dt_probedesc_parse("m:f:n", &pd), 0);
	CHECK_STR(pd.pd_module, "m");
	CHECK_STR(pd.pd_provider, "");

	/* An escaped colon stays in its field. */
	CHECK_INT(dt_probedesc_parse("p:m:a\\:b:n", &pd), 0);
	CHECK_STR(pd.pd_function, "a\\:b");

	CHECK_INT(dt_probedesc_parse("a:b:c:d:e", &pd), -1);
}

static int
count_cb(dtrace_hdl_t *dtp, dt_probe_t *prp, void *arg)
{
	(void) dtp;
	(void) prp;
	(*(int *) arg)++;
	return 0;
}

static void
test_providers(void)
{
	dtrace_hdl_t *dtp;
	dt_probedesc_t pd;
	dt_probe_t *prp;
	int err, n, seen;
	uint32_t before;
	int64_t period;

	dtp = dtrace_open(DTRACE_VERSION, DTRACE_O_NODEV, &err);
	CHECK(dtp != NULL);
	if (dtp == NULL)
		return;

	/* BEGIN, END, ERROR are always IDs 1, 2, 3. */
	prp = dt_probe_lookup_id(dtp, DT_PROBE_ID_BEGIN);
	CHECK(prp != NULL && strcmp(prp->pr_name, "BEGIN") == 0);
	prp = dt_probe_lookup_id(dtp, DT_PROBE_ID_END);
	CHECK(prp != NULL && strcmp(prp->pr_name, "END") == 0);
	prp = dt_probe_lookup_id(dtp, DT_PROBE_ID_ERROR);
	CHECK(prp != NULL && strcmp(prp->pr_name, "ERROR") == 0);
	CHECK(dt_probe_lookup_id(dtp, 0) == NULL);

	/* Thirteen profile probes always exist. */
	CHECK_INT(dt_probe_count(dtp), 16);
	dt_probedesc_parse("profile:::", &pd);
	CHECK_INT(dt_probe_iter(dtp, &pd, NULL, NULL), 13);
	dt_probedesc_parse("tick-*", &pd);
	CHECK_INT(dt_probe_iter(dtp, &pd, NULL, NULL), 6);

	/* On demand: an exact name creates its probe, once. */
	before = dt_probe_count(dtp);
	dt_probedesc_parse("tick-5ms", &pd);
	seen = 0;
	n = dt_probe_iter(dtp, &pd, count_cb, &seen);
	CHECK_INT(n, 1);
	CHECK_INT(seen, 1);
	CHECK_INT(dt_probe_count(dtp), before + 1);
	CHECK_INT(dt_probe_iter(dtp, &pd, NULL, NULL), 1);
	CHECK_INT(dt_probe_count(dtp), before + 1);
	prp = dt_probe_lookup_id(dtp, before + 1);
	CHECK(prp != NULL && dt_prov_profile_timer(prp) != NULL);
	if (prp != NULL && dt_prov_profile_timer(prp) != NULL) {
		CHECK_INT(dt_prov_profile_timer(prp)->pt_period, 5000000);
		CHECK(!dt_prov_profile_timer(prp)->pt_percpu);
	}
	dt_probedesc_parse("profile:::profile-1001", &pd);
	CHECK_INT(dt_probe_iter(dtp, &pd, NULL, NULL), 1);

	/* Globs, bad rates and too-fast timers create nothing. */
	before = dt_probe_count(dtp);
	dt_probedesc_parse("tick-7*", &pd);
	CHECK_INT(dt_probe_iter(dtp, &pd, NULL, NULL), 0);
	dt_probedesc_parse("tick-1fortnight", &pd);
	CHECK_INT(dt_probe_iter(dtp, &pd, NULL, NULL), 0);
	dt_probedesc_parse("tick-100us", &pd);
	CHECK_INT(dt_probe_iter(dtp, &pd, NULL, NULL), 0);
	dt_probedesc_parse("syscall::tick-1s:", &pd);
	CHECK_INT(dt_probe_iter(dtp, &pd, NULL, NULL), 0);
	CHECK_INT(dt_probe_count(dtp), before);

	/* Probe IDs match with -i. */
	memset(&pd, 0, sizeof (pd));
	pd.pd_id = 2;
	CHECK_INT(dt_probe_iter(dtp, &pd, NULL, NULL), 1);

	/* Rates: bare numbers are hertz. */
	CHECK_INT(dt_prov_profile_parse("97", &period), 0);
	CHECK_INT(period, 1000000000 / 97);
	CHECK_INT(dt_prov_profile_parse("10ms", &period), 0);
	CHECK_INT(period, 10000000);
	CHECK_INT(dt_prov_profile_parse("1sec", &period), 0);
	CHECK_INT(period, 1000000000);
	CHECK_INT(dt_prov_profile_parse("2min", &period), 0);
	CHECK_INT(period, 120000000000LL);
	CHECK_INT(dt_prov_profile_parse("5hz", &period), 0);
	CHECK_INT(period, 200000000);
	CHECK_INT(dt_prov_profile_parse("0", &period), -1);
	CHECK_INT(dt_prov_profile_parse("ms", &period), -1);

	dtrace_close(dtp);
}

/*
 * Lazy population: three providers of 2, 3 and 4 probes, registered after
 * the portable ones (16 probes), counting their po_populate calls.  The
 * last says it has no probe named "nope" without being populated.
 */
static const char *const lz_names[] = { "lza", "lzb", "lzc" };
static int lz_populated[3];

static int
lz_populate(dtrace_hdl_t *dtp, dt_provider_t *pvp)
{
	int i = (int) (intptr_t) pvp->pv_data;
	char name[16];

	lz_populated[i]++;
	for (int j = 0; j < i + 2; j++) {
		snprintf(name, sizeof (name), "p%d", j);
		if (dt_probe_create(dtp, pvp, "m", "f", name, 0, NULL,
		    NULL) == NULL)
			return -1;
	}
	return 0;
}

static bool
lz_maymatch(dtrace_hdl_t *dtp, dt_provider_t *pvp, const dt_probedesc_t *pdp)
{
	(void) dtp;
	return (intptr_t) pvp->pv_data != 2 ||
	    strcmp(pdp->pd_name, "nope") != 0;
}

static const dt_provops_t lz_ops = {
	.po_populate = lz_populate,
	.po_maymatch = lz_maymatch,
};

static dtrace_hdl_t *
lz_open(void)
{
	dtrace_hdl_t *dtp;
	int err;

	memset(lz_populated, 0, sizeof (lz_populated));
	if ((dtp = dtrace_open(DTRACE_VERSION, DTRACE_O_NODEV, &err)) == NULL)
		return NULL;
	for (intptr_t i = 0; i < 3; i++)
		CHECK_INT(dt_provider_register(dtp, lz_names[i], &lz_ops, NULL,
		    DT_ENGINE_F_INTERP, (void *) i), 0);
	return dtp;
}

static void
test_lazy(void)
{
	dtrace_hdl_t *dtp;
	dt_probedesc_t pd;
	dt_probe_t *prp;

	/*
	 * Registering populates nothing; naming lzb populates lza and lzb,
	 * so lzb's probes have the IDs they would have had at open.
	 */
	if ((dtp = lz_open()) == NULL)
		return;
	CHECK_INT(lz_populated[0] + lz_populated[1] + lz_populated[2], 0);
	dt_probedesc_parse("lzb:::p1", &pd);
	CHECK_INT(dt_probe_iter(dtp, &pd, NULL, NULL), 1);
	CHECK_INT(lz_populated[0], 1);
	CHECK_INT(lz_populated[1], 1);
	CHECK_INT(lz_populated[2], 0);
	prp = dt_probe_lookup_id(dtp, 16 + 2 + 2);
	CHECK(prp != NULL && strcmp(prp->pr_prov->pv_name, "lzb") == 0 &&
	    strcmp(prp->pr_name, "p1") == 0);
	/* A description its maymatch rules out leaves lzc alone... */
	dt_probedesc_parse("nope", &pd);
	CHECK_INT(dt_probe_iter(dtp, &pd, NULL, NULL), 0);
	CHECK_INT(lz_populated[2], 0);
	/* ...one naming its probes does not, and populates it once. */
	dt_probedesc_parse(":::p3", &pd);
	CHECK_INT(dt_probe_iter(dtp, &pd, NULL, NULL), 1);
	CHECK_INT(dt_probe_iter(dtp, &pd, NULL, NULL), 1);
	CHECK_INT(lz_populated[2], 1);
	CHECK_INT(lz_populated[0], 1);
	CHECK_INT(dt_probe_count(dtp), 16 + 2 + 3 + 4);
	dtrace_close(dtp);

	/* A probe made on demand comes after every static one. */
	if ((dtp = lz_open()) == NULL)
		return;
	dt_probedesc_parse("profile:::tick-5ms", &pd);
	CHECK_INT(dt_probe_iter(dtp, &pd, NULL, NULL), 1);
	CHECK_INT(lz_populated[0] + lz_populated[1] + lz_populated[2], 3);
	prp = dt_probe_lookup_id(dtp, 16 + 2 + 3 + 4 + 1);
	CHECK(prp != NULL && strcmp(prp->pr_name, "tick-5ms") == 0);
	dtrace_close(dtp);

	/* An ID beyond those populated populates the rest; so does -i. */
	if ((dtp = lz_open()) == NULL)
		return;
	prp = dt_probe_lookup_id(dtp, 16 + 2 + 3 + 1);
	CHECK(prp != NULL && strcmp(prp->pr_prov->pv_name, "lzc") == 0 &&
	    strcmp(prp->pr_name, "p0") == 0);
	dtrace_close(dtp);
	if ((dtp = lz_open()) == NULL)
		return;
	memset(&pd, 0, sizeof (pd));
	pd.pd_id = 16 + 1;
	CHECK_INT(dt_probe_iter(dtp, &pd, NULL, NULL), 1);
	CHECK_INT(lz_populated[2], 1);
	/* An empty description (dtrace -l) lists all, in ID order. */
	memset(&pd, 0, sizeof (pd));
	CHECK_INT(dt_probe_iter(dtp, &pd, NULL, NULL), 16 + 2 + 3 + 4);
	dtrace_close(dtp);
}

/*
 * The function-name index: a provider whose probes f0..f999 (every third
 * one also known as "alias") accept their other name by po_funcmatch
 * only where dt_probe_funcname_add() was told.  A description naming one
 * function finds exactly what a walk of every probe finds, in ID order,
 * once each.
 */
static bool
ix_funcmatch(const dt_probe_t *prp, const char *func)
{
	return strcmp(func, "alias") == 0 && (prp->pr_id % 3) == 0;
}

static const dt_provops_t ix_ops = {
	.po_funcmatch = ix_funcmatch,
};

static int
ids_cb(dtrace_hdl_t *dtp, dt_probe_t *prp, void *arg)
{
	uint32_t *last = arg;

	(void) dtp;
	CHECK(prp->pr_id > *last);	/* ascending, once each */
	*last = prp->pr_id;
	return 0;
}

static void
test_funcname_index(void)
{
	dtrace_hdl_t *dtp;
	dt_provider_t *pvp;
	dt_probedesc_t pd;
	uint32_t last = 0;
	int err, n3 = 0;
	char f[16];

	if ((dtp = dtrace_open(DTRACE_VERSION, DTRACE_O_NODEV, &err)) == NULL)
		return;
	CHECK_INT(dt_provider_register(dtp, "ix", &ix_ops, NULL,
	    DT_ENGINE_F_INTERP, NULL), 0);
	CHECK((pvp = dt_provider_lookup(dtp, "ix")) != NULL);
	for (int i = 0; pvp != NULL && i < 1000; i++) {
		dt_probe_t *prp;

		snprintf(f, sizeof (f), "f%d", i % 500);
		prp = dt_probe_create(dtp, pvp, "m", f, i < 500 ? "entry" :
		    "return", 0, NULL, NULL);
		CHECK(prp != NULL);
		if (prp != NULL && prp->pr_id % 3 == 0) {
			n3++;
			/* twice: still found once */
			CHECK_INT(dt_probe_funcname_add(dtp, prp, "alias"), 0);
			CHECK_INT(dt_probe_funcname_add(dtp, prp, "alias"), 0);
		}
		/* a name po_funcmatch refuses: not found by it */
		if (prp != NULL && prp->pr_id % 3 == 1)
			CHECK_INT(dt_probe_funcname_add(dtp, prp, "alias"), 0);
	}
	dt_probedesc_parse("ix::f7:", &pd);
	CHECK_INT(dt_probe_iter(dtp, &pd, ids_cb, &last), 2);
	dt_probedesc_parse("ix::f7:return", &pd);
	CHECK_INT(dt_probe_iter(dtp, &pd, NULL, NULL), 1);
	dt_probedesc_parse("ix::f7*:", &pd);	/* a pattern: every probe */
	CHECK_INT(dt_probe_iter(dtp, &pd, NULL, NULL), 2 * 11);
	last = 0;
	dt_probedesc_parse("ix::alias:", &pd);
	CHECK_INT(dt_probe_iter(dtp, &pd, ids_cb, &last), n3);
	dt_probedesc_parse("ix::nothing:", &pd);
	CHECK_INT(dt_probe_iter(dtp, &pd, NULL, NULL), 0);
	dtrace_close(dtp);
}

/*
 * A provider that, as fbt, makes its probes on demand and all of them
 * when asked for everything (dtrace -l): an ID that listing gave one of
 * them is found by a fresh handle too.
 */
static int
od_provide(dtrace_hdl_t *dtp, dt_provider_t *pvp, const dt_probedesc_t *pdp)
{
	static const char *const fn[] = { "a", "b", "c" };
	uintptr_t made = (uintptr_t) pvp->pv_data;	/* a bit a probe */

	for (int i = 0; i < 3; i++) {
		if ((pdp->pd_function[0] != '\0' &&
		    strcmp(pdp->pd_function, fn[i]) != 0) ||
		    (made & (1U << i)) != 0)
			continue;
		if (dt_probe_create(dtp, pvp, "m", fn[i], "entry", 0, NULL,
		    NULL) == NULL)
			return -1;
		made |= 1U << i;
	}
	pvp->pv_data = (void *) made;
	return 0;
}

static const dt_provops_t od_ops = {
	.po_provide = od_provide,
};

static void
test_ondemand_ids(void)
{
	dtrace_hdl_t *dtp;
	dt_probedesc_t pd;
	dt_probe_t *prp;
	uint32_t id = 0;
	int err;

	for (int round = 0; round < 2; round++) {
		if ((dtp = dtrace_open(DTRACE_VERSION, DTRACE_O_NODEV,
		    &err)) == NULL)
			return;
		CHECK_INT(dt_provider_register(dtp, "od", &od_ops, NULL,
		    DT_ENGINE_F_INTERP, NULL), 0);
		if (round == 0) {
			/* the listing: c is the last probe */
			memset(&pd, 0, sizeof (pd));
			CHECK(dt_probe_iter(dtp, &pd, NULL, NULL) > 3);
			id = dt_probe_count(dtp);
			prp = dt_probe_lookup_id(dtp, id);
		} else {
			prp = dt_probe_lookup_id(dtp, id);	/* -i */
		}
		CHECK(prp != NULL && strcmp(prp->pr_func, "c") == 0);
		dtrace_close(dtp);
	}
}

int
main(void)
{
	test_gmatch();
	test_desc_parse();
	test_providers();
	test_lazy();
	test_funcname_index();
	test_ondemand_ids();
	return unit_done();
}
