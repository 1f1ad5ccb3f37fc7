/* SPDX-License-Identifier: MIT */
/*
 * options_test.c: option parsing (sizes, times, kinds) and the defaults.
 */
#include "common/dt_impl.h"
#include "common/dt_os.h"
#include "common/probe/dt_probe.h"
#include "tests/unit/unit.h"

static void
test_sizes(void)
{
	int64_t v;

	CHECK_INT(dt_parse_size("0", &v), 0);
	CHECK_INT(v, 0);
	CHECK_INT(dt_parse_size("4096", &v), 0);
	CHECK_INT(v, 4096);
	CHECK_INT(dt_parse_size("4k", &v), 0);
	CHECK_INT(v, 4096);
	CHECK_INT(dt_parse_size("4K", &v), 0);
	CHECK_INT(v, 4096);
	CHECK_INT(dt_parse_size("2m", &v), 0);
	CHECK_INT(v, 2 << 20);
	CHECK_INT(dt_parse_size("3g", &v), 0);
	CHECK_INT(v, 3LL << 30);
	CHECK_INT(dt_parse_size("1t", &v), 0);
	CHECK_INT(v, 1LL << 40);
	CHECK_INT(dt_parse_size("0x10", &v), 0);
	CHECK_INT(v, 16);
	CHECK_INT(dt_parse_size("", &v), -1);
	CHECK_INT(dt_parse_size("k", &v), -1);
	CHECK_INT(dt_parse_size("4q", &v), -1);
	CHECK_INT(dt_parse_size("4kb", &v), -1);
	CHECK_INT(dt_parse_size("-4", &v), -1);
	CHECK_INT(dt_parse_size("9999999999t", &v), -1);
	CHECK_INT(dt_parse_size("99999999999999999999", &v), -1);
}

static void
test_times(void)
{
	int64_t v;

	CHECK_INT(dt_parse_time("10", &v), 0);
	CHECK_INT(v, 10);
	CHECK_INT(dt_parse_time("10ns", &v), 0);
	CHECK_INT(v, 10);
	CHECK_INT(dt_parse_time("5us", &v), 0);
	CHECK_INT(v, 5000);
	CHECK_INT(dt_parse_time("5ms", &v), 0);
	CHECK_INT(v, 5000000);
	CHECK_INT(dt_parse_time("2s", &v), 0);
	CHECK_INT(v, 2000000000);
	CHECK_INT(dt_parse_time("2sec", &v), 0);
	CHECK_INT(v, 2000000000);
	CHECK_INT(dt_parse_time("1min", &v), 0);
	CHECK_INT(v, 60000000000LL);
	CHECK_INT(dt_parse_time("10hz", &v), 0);
	CHECK_INT(v, 100000000);
	CHECK_INT(dt_parse_time("101Hz", &v), 0);
	CHECK_INT(v, 1000000000 / 101);
	CHECK_INT(dt_parse_time("0hz", &v), -1);
	CHECK_INT(dt_parse_time("1fortnight", &v), -1);
	CHECK_INT(dt_parse_time("s", &v), -1);
}

static void
test_setopt(void)
{
	dtrace_hdl_t *dtp;
	dtrace_optval_t v;
	int err;

	dtp = dtrace_open(DTRACE_VERSION, DTRACE_O_NODEV, &err);
	CHECK(dtp != NULL);
	if (dtp == NULL)
		return;

	/* Defaults as DTrace documents them. */
	CHECK_INT(dtrace_getopt(dtp, "strsize", &v), 0);
	CHECK_INT(v, 256);
	CHECK_INT(dtrace_getopt(dtp, "bufsize", &v), 0);
	CHECK_INT(v, 4 << 20);
	CHECK_INT(dtrace_getopt(dtp, "quiet", &v), 0);
	CHECK_INT(v, DTRACEOPT_UNSET);

	CHECK_INT(dtrace_setopt(dtp, "quiet", NULL), 0);
	CHECK_INT(dtrace_getopt(dtp, "quiet", &v), 0);
	CHECK_INT(v, 1);
	/*
	 * The consumer's switches take DTrace's words for on and off (and
	 * a number); the other booleans take no value.
	 */
	CHECK_INT(dtrace_setopt(dtp, "quiet", "no"), 0);
	CHECK_INT(dtrace_getopt(dtp, "quiet", &v), 0);
	CHECK_INT(v, DTRACEOPT_UNSET);
	CHECK_INT(dtrace_setopt(dtp, "quiet", "YES"), 0);
	CHECK_INT(dtrace_getopt(dtp, "quiet", &v), 0);
	CHECK_INT(v, 1);
	CHECK_INT(dtrace_setopt(dtp, "aggsortkey", ""), 0);
	CHECK_INT(dtrace_getopt(dtp, "aggsortkey", &v), 0);
	CHECK_INT(v, DTRACEOPT_UNSET);
	CHECK_INT(dtrace_setopt(dtp, "aggsortrev", "maybe"), -1);
	CHECK_INT(dtrace_errno(dtp), EDT_BADOPTVAL);
	CHECK_INT(dtrace_setopt(dtp, "destructive", "yes"), -1);
	CHECK_INT(dtrace_errno(dtp), EDT_BADOPTVAL);

	CHECK_INT(dtrace_setopt(dtp, "bufsize", "16k"), 0);
	CHECK_INT(dtrace_getopt(dtp, "bufsize", &v), 0);
	CHECK_INT(v, 16384);
	CHECK_INT(dtrace_setopt(dtp, "bufsize", NULL), -1);

	CHECK_INT(dtrace_setopt(dtp, "switchrate", "10hz"), 0);
	CHECK_INT(dtrace_getopt(dtp, "switchrate", &v), 0);
	CHECK_INT(v, 100000000);

	CHECK_INT(dtrace_setopt(dtp, "bufpolicy", "ring"), 0);
	CHECK_INT(dtrace_getopt(dtp, "bufpolicy", &v), 0);
	CHECK_INT(v, DT_BUFPOLICY_RING);
	CHECK_INT(dtrace_setopt(dtp, "bufpolicy", "circle"), -1);

	CHECK_INT(dtrace_setopt(dtp, "nspec", "4"), 0);
	CHECK_INT(dtrace_setopt(dtp, "nspec", "4k"), -1);

	CHECK_INT(dtrace_setopt(dtp, "libdir", "/tmp/x"), 0);
	CHECK_STR(dtrace_getopt_string(dtp, "libdir"), "/tmp/x");
	CHECK_INT(dtrace_setopt(dtp, "libdir", "/tmp/y"), 0);
	CHECK_STR(dtrace_getopt_string(dtp, "libdir"), "/tmp/y");

	CHECK_INT(dtrace_setopt(dtp, "nosuchoption", NULL), -1);
	CHECK_INT(dtrace_errno(dtp), EDT_BADOPTNAME);
	CHECK_STR(dtrace_errmsg(dtp, EDT_BADOPTNAME), "Invalid option name");
	CHECK_STR(dtrace_errmsg(dtp, EDT_BADOPTVAL),
	    "Invalid value for specified option");

	dtrace_close(dtp);
}

/*
 * -x engine takes "auto", "interp" and the names the OS backend gives its
 * engines, whatever they are, and nothing else; each engine is of one
 * kind the core chooses by.
 */
static void
test_engine_names(void)
{
	dtrace_hdl_t *dtp;
	dtrace_optval_t v;
	int err;
	size_t i;

	if ((dtp = dtrace_open(DTRACE_VERSION, DTRACE_O_NODEV, &err)) == NULL) {
		CHECK(0);
		return;
	}
	CHECK_INT(dtrace_getopt(dtp, "engine", &v), 0);
	CHECK_INT(v, DT_ENGINE_AUTO);
	CHECK_INT(dtrace_setopt(dtp, "engine", "interp"), 0);
	CHECK_INT(dtrace_getopt(dtp, "engine", &v), 0);
	CHECK_INT(v, DT_ENGINE_INTERP);
	for (i = 0; dt_os_engines[i].oe_name != NULL; i++) {
		CHECK(dt_os_engines[i].oe_kind == DT_ENGINE_F_KERNEL ||
		    dt_os_engines[i].oe_kind == DT_ENGINE_F_USER);
		CHECK(dt_os_engines[i].oe_get != NULL);
		CHECK_INT(dtrace_setopt(dtp, "engine",
		    dt_os_engines[i].oe_name), 0);
		CHECK_INT(dtrace_getopt(dtp, "engine", &v), 0);
		CHECK_INT(v, DT_ENGINE_OS + (dtrace_optval_t) i);
	}
	CHECK_INT(dtrace_setopt(dtp, "engine", "auto"), 0);
	CHECK_INT(dtrace_getopt(dtp, "engine", &v), 0);
	CHECK_INT(v, DT_ENGINE_AUTO);
	CHECK_INT(dtrace_setopt(dtp, "engine", "nosuchengine"), -1);
	CHECK_INT(dtrace_errno(dtp), EDT_BADOPTVAL);
	CHECK_INT(dtrace_setopt(dtp, "engine", NULL), -1);
	dtrace_close(dtp);
}

int
main(void)
{
	test_sizes();
	test_times();
	test_setopt();
	test_engine_names();
	return unit_done();
}
