/* SPDX-License-Identifier: MIT */
/*
 * probe_args_test.c: probe argument descriptions, stability attributes,
 * and how the compiler types args[N] from them.
 *
 * A test provider ("argtest") registers probes whose arguments are given
 * at creation or described on first use, with types the compiler knows,
 * types it does not, and translated types, so each rule is checked
 * without a kernel: laziness, DTrace's attribute arithmetic, DTrace's
 * choice of the probe a description's clauses are typed by, and the
 * errors of args[] (out of range, unstable set, unresolvable type).
 */
#include "common/dt_impl.h"
#include "common/probe/dt_probe.h"
#include "tests/unit/unit.h"

static dtrace_hdl_t *dtp;
static int nlazy;	/* calls of the provider's po_probe_args */

/* Probe data: what the lazy description gives, or NULL to fail. */
static const char *const lazy_types[] = { "int", "char *" };

static int
argtest_probe_args(dtrace_hdl_t *hdl, dt_probe_t *prp)
{
	nlazy++;
	if (prp->pr_data == NULL)
		return dt_set_errno(hdl, EDT_NOTSUP);
	return dt_probe_set_args(hdl, prp, 2, lazy_types, NULL);
}


/* Evolving names and arguments, a Private module, an ISA-bound function. */
static const dt_provattr_t argtest_attr = {
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_COMMON },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
	{ DT_STAB_UNSTABLE, DT_STAB_STABLE, DT_CLASS_ISA },
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_COMMON },
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_COMMON },
};

/* The same provider with Private arguments. */
static const dt_provattr_t privtest_attr = {
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_COMMON },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_ISA },
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_COMMON },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_ISA },
};

static dt_probe_t *p_lazy, *p_lazy2, *p_fail, *p_typed, *p_xlate, *p_badxl, *p_unres;
static dt_probe_t *p_xlint;	/* int, translated to struct xout */
static dt_probe_t *p_xlnone;	/* int, to struct xnone: no translator */

static int
argtest_populate(dtrace_hdl_t *hdl, dt_provider_t *pvp)
{
	static const char *const typed[] = { "int", "unsigned char",
		"no_such_type_t" };
	static const char *const native[] = { "no_such_type_t" };
	static const char *const xlate[] = { "long" };
	static const char *const badxl[] = { "no_such_xlate_t" };
	static const char *const xlnative[] = { "int" };
	static const char *const xlout[] = { "struct xout" };
	static const char *const xlnone[] = { "struct xnone" };

	p_lazy = dt_probe_create(hdl, pvp, "m", "f", "lazy", -1, NULL,
	    (void *) lazy_types);
	p_lazy2 = dt_probe_create(hdl, pvp, "m", "g", "lazy", -1, NULL,
	    (void *) lazy_types);
	p_fail = dt_probe_create(hdl, pvp, "m", "f", "fail", -1, NULL, NULL);
	p_typed = dt_probe_create(hdl, pvp, "", "f", "typed", 3, typed, NULL);
	p_xlate = dt_probe_create(hdl, pvp, "", "", "xlate", 0, NULL, NULL);
	p_badxl = dt_probe_create(hdl, pvp, "", "", "badxl", 0, NULL, NULL);
	p_unres = dt_probe_create(hdl, pvp, "", "", "unres", 1, native, NULL);
	p_xlint = dt_probe_create(hdl, pvp, "", "", "xlint", 0, NULL, NULL);
	p_xlnone = dt_probe_create(hdl, pvp, "", "", "xlnone", 0, NULL, NULL);
	if (p_lazy == NULL || p_lazy2 == NULL || p_fail == NULL || p_typed == NULL ||
	    p_xlate == NULL || p_badxl == NULL || p_unres == NULL ||
	    p_xlint == NULL || p_xlnone == NULL ||
	    dt_probe_set_args(hdl, p_xlint, 1, xlnative, xlout) != 0 ||
	    dt_probe_set_args(hdl, p_xlnone, 1, xlnative, xlnone) != 0 ||
	    dt_probe_set_args(hdl, p_xlate, 1, native, xlate) != 0 ||
	    dt_probe_set_args(hdl, p_badxl, 1, native, badxl) != 0)
		return -1;
	return 0;
}

static const dt_provops_t argtest_ops = {
	.po_populate = argtest_populate,
	.po_probe_args = argtest_probe_args,
};

static int
privtest_populate(dtrace_hdl_t *hdl, dt_provider_t *pvp)
{
	static const char *const a[] = { "int" };

	if (dt_probe_create(hdl, pvp, "", "one", "entry", 1, a, NULL) == NULL ||
	    dt_probe_create(hdl, pvp, "", "two", "entry", 1, a, NULL) == NULL)
		return -1;
	return 0;
}

static const dt_provops_t privtest_ops = {
	.po_populate = privtest_populate,
};

static void
test_names(void)
{
	CHECK_STR(dt_stability_name(DT_STAB_INTERNAL), "Internal");
	CHECK_STR(dt_stability_name(DT_STAB_STANDARD), "Standard");
	CHECK(dt_stability_name((dt_stability_t) 8) == NULL);
	CHECK_STR(dt_class_name(DT_CLASS_UNKNOWN), "Unknown");
	CHECK_STR(dt_class_name(DT_CLASS_ISA), "ISA");
	CHECK(dt_class_name((dt_depclass_t) 6) == NULL);
	CHECK_INT(dt_stability_lookup("evolving"), DT_STAB_EVOLVING);
	CHECK_INT(dt_stability_lookup("Private"), DT_STAB_PRIVATE);
	CHECK_INT(dt_stability_lookup("Common"), -1);
	CHECK_INT(dt_class_lookup("common"), DT_CLASS_COMMON);
	CHECK_INT(dt_class_lookup("Stable"), -1);
	CHECK(dt_strisglob("a*"));
	CHECK(dt_strisglob("[ab]"));
	CHECK(dt_strisglob("a\\:b"));
	CHECK(!dt_strisglob("entry"));
	CHECK(!dt_strisglob(""));
}

static void
test_attr(void)
{
	dt_attr_t d, a;
	dt_attr_t x = { DT_STAB_STABLE, DT_STAB_PRIVATE, DT_CLASS_ISA };
	dt_attr_t y = { DT_STAB_EVOLVING, DT_STAB_STANDARD, DT_CLASS_CPU };

	d = dt_attr_min(x, y);
	CHECK_INT(d.at_name, DT_STAB_EVOLVING);
	CHECK_INT(d.at_data, DT_STAB_PRIVATE);
	CHECK_INT(d.at_class, DT_CLASS_CPU);

	/* Every field named: the lowest of all four parts. */
	dt_probe_attr(p_lazy, &d, &a);
	CHECK_INT(d.at_name, DT_STAB_PRIVATE);
	CHECK_INT(d.at_data, DT_STAB_PRIVATE);
	CHECK_INT(d.at_class, DT_CLASS_UNKNOWN);
	CHECK_INT(a.at_name, DT_STAB_EVOLVING);
	CHECK_INT(a.at_class, DT_CLASS_COMMON);
	/* An empty module does not count: provider, function and name. */
	dt_probe_attr(p_typed, &d, &a);
	CHECK_INT(d.at_name, DT_STAB_UNSTABLE);
	CHECK_INT(d.at_data, DT_STAB_EVOLVING);
	CHECK_INT(d.at_class, DT_CLASS_ISA);
	/* Only provider and name. */
	dt_probe_attr(p_xlate, &d, &a);
	CHECK_INT(d.at_name, DT_STAB_EVOLVING);
	CHECK_INT(d.at_class, DT_CLASS_COMMON);
}

static void
test_lazy(void)
{
	const dt_argdesc_t *args;

	CHECK_INT(p_lazy->pr_nargs, -1);
	CHECK_INT(nlazy, 0);
	CHECK_INT(dt_probe_args(dtp, p_lazy, &args), 2);
	CHECK_INT(nlazy, 1);
	CHECK_STR(dt_argdesc_type(&args[1]), "char *");
	CHECK(args[1].ad_xlate == NULL);
	CHECK_INT(dt_probe_args(dtp, p_lazy, &args), 2);
	CHECK_INT(nlazy, 1);	/* described once */

	CHECK_INT(dt_probe_args(dtp, p_fail, &args), -1);
	CHECK_INT(dtrace_errno(dtp), EDT_NOTSUP);

	CHECK_INT(dt_probe_args(dtp, p_xlate, &args), 1);
	CHECK_STR(args[0].ad_native, "no_such_type_t");
	CHECK_STR(dt_argdesc_type(&args[0]), "long");
}

static void
test_typed(void)
{
	dt_probedesc_t pd;
	int n;

	dt_probedesc_parse("argtest:m:f:lazy", &pd);
	CHECK(dt_probe_typed(dtp, &pd, &n) == p_lazy);
	CHECK_INT(n, 1);
	/* Evolving arguments, named name: the first of several. */
	dt_probedesc_parse("argtest:::lazy", &pd);
	CHECK(dt_probe_typed(dtp, &pd, &n) == p_lazy);
	CHECK_INT(n, 2);
	dt_probedesc_parse("argtest:m::", &pd);
	CHECK(dt_probe_typed(dtp, &pd, &n) == NULL);	/* name empty */
	CHECK_INT(n, 3);
	dt_probedesc_parse("argtest:::*a*", &pd);
	CHECK(dt_probe_typed(dtp, &pd, &n) == NULL);	/* name a glob */
	/* Private arguments: several probes are never one set. */
	dt_probedesc_parse("privtest:::entry", &pd);
	CHECK(dt_probe_typed(dtp, &pd, &n) == NULL);
	CHECK_INT(n, 2);
	dt_probedesc_parse("privtest::one:entry", &pd);
	CHECK(dt_probe_typed(dtp, &pd, &n) != NULL);
	dt_probedesc_parse("nosuch:::", &pd);
	CHECK(dt_probe_typed(dtp, &pd, &n) == NULL);
	CHECK_INT(n, 0);
}

/* Compile s; return the error message, or "" if it compiled. */
static const char *
comp(const char *s)
{
	dtrace_prog_t *pgp;

	pgp = dtrace_program_strcompile(dtp, s, DTRACE_PROBESPEC_NAME, 0, 0,
	    NULL);
	if (pgp == NULL)
		return unit_noregion(dtrace_errmsg(dtp, dtrace_errno(dtp)));
	dtrace_program_destroy(dtp, pgp);
	return "";
}

static void
test_compile(void)
{
	/* Types the compiler knows: arithmetic, pointers, comparisons. */
	CHECK_STR(comp("argtest::f:typed { x = args[0] + 1; y = args[1]; }"),
	    "");
	CHECK_STR(comp("argtest:m:f:lazy { trace(*args[1]); }"), "");
	/*
	 * A translated argument is the translation of the native one: its
	 * native type must resolve, a translator must exist, and members
	 * are the translator's.
	 */
	CHECK_STR(comp("argtest:::xlate { z = args[0] * 2; }"),
	    "failed to resolve native type for args[0]");
	CHECK_STR(comp("struct xout { int doubled; int nope; };\n"
	    "translator struct xout < int x > { doubled = x * 2; };\n"
	    "argtest:::xlint { trace(args[0].doubled); }"), "");
	/* (the handle keeps the type and translator) */
	CHECK_STR(comp("argtest:::xlint { trace(args[0].nope); }"),
	    "translator does not define conversion for member: nope");
	CHECK_STR(comp("struct xnone { int doubled; };\n"
	    "argtest:::xlnone { trace(args[0].doubled); }"),
	    "cannot translate from \"int\" to \"struct xnone\"");
	CHECK_STR(comp("argtest:m:f:lazy { trace(args[0]->x); }"),
	    "operator -> must be applied to a pointer");

	CHECK_STR(comp("argtest::f:typed { trace(args[2]); }"),
	    "failed to resolve native type for args[2]");
	CHECK_STR(comp("argtest:::unres { trace(args[0]); }"),
	    "failed to resolve native type for args[0]");
	CHECK_STR(comp("argtest:::badxl { trace(args[0]); }"),
	    "failed to resolve translated type for args[0]");
	CHECK_STR(comp("argtest::f:typed { trace(args[3]); }"),
	    "index 3 is out of range for argtest::f:typed args[ ]");
	CHECK_STR(comp("argtest:m:f:fail { trace(args[0]); }"),
	    "failed to find the argument types of probe argtest:m:f:fail: "
	    "Operation not supported on this system");
	CHECK_STR(comp("privtest:::entry { trace(args[0]); }"),
	    "args[ ] may not be referenced because probe description "
	    "privtest:::entry matches an unstable set of probes");
	/* Descriptions that agree on args[0] share one clause. */
	CHECK_STR(comp("argtest:m:f:lazy, argtest::f:typed "
	    "{ trace(args[0]); }"), "");
	CHECK_STR(comp("argtest:m:f:lazy, argtest::f:typed "
	    "{ trace(args[1]); }"), "args[1] may not be referenced because "
	    "probe descriptions argtest:m:f:lazy and argtest::f:typed give it "
	    "different types: char * and unsigned char");
}

int
main(void)
{
	int err;

	if ((dtp = dtrace_open(DTRACE_VERSION, DTRACE_O_NODEV, &err)) == NULL)
		SKIP("cannot open a handle");
	if (dt_provider_register(dtp, "argtest", &argtest_ops, &argtest_attr,
	    DT_ENGINE_F_INTERP, NULL) != 0 ||
	    dt_provider_register(dtp, "privtest", &privtest_ops,
	    &privtest_attr, DT_ENGINE_F_INTERP, NULL) != 0 ||
	    dt_providers_populate(dtp) != 0) {	/* the p_* pointers */
		printf("cannot register the test providers\n");
		return 1;
	}
	test_names();
	test_attr();
	test_lazy();
	test_typed();
	test_compile();
	dtrace_close(dtp);
	return unit_done();
}
