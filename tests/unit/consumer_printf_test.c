/* SPDX-License-Identifier: MIT */
/*
 * consumer_printf_test.c: D format strings -- every conversion with flags,
 * widths and precisions, the parse errors, and the compiler's validation
 * messages, each compared with the exact text DTrace gives.
 */
#include <time.h>

#include "tests/unit/consumer_test.h"

static dtrace_hdl_t *g_dtp;
static dt_cap_t g_cap;

/* Format the records of b with fmt; returns the text. */
static const char *
pf(const char *fmt, const dt_tbuf_t *b)
{
	dt_pferr_t err;
	dt_pfargv_t *pfv = dt_printf_parse(fmt, &err);
	FILE *fp = cap_open(&g_cap);
	int rv;

	if (pfv == NULL) {
		printf("parse of \"%s\" failed: %s\n", fmt, err.pe_msg);
		return "(parse error)";
	}
	rv = dt_printf_format(dt_consumer(g_dtp), fp, pfv, b->tb_recs,
	    b->tb_nrecs, b->tb_data, sizeof(b->tb_data), NULL, 0);
	dt_printf_free(pfv);
	if (rv < 0)
		return "(format error)";
	return cap_str(&g_cap);
}

static void
test_integers(void)
{
	dt_tbuf_t b;

	tb_reset(&b);
	tb_int(&b, DT_REC_SINT, 4, (uint64_t) -1);
	CHECK_OUT(pf("%d", &b), "-1");
	CHECK_OUT(pf("%i", &b), "-1");
	CHECK_OUT(pf("%u", &b), "4294967295");
	CHECK_OUT(pf("%x", &b), "ffffffff");

	tb_reset(&b);
	tb_int(&b, DT_REC_UINT, 4, 4294967295u);
	CHECK_OUT(pf("%d", &b), "4294967295");

	tb_reset(&b);
	tb_int(&b, DT_REC_SINT, 1, (uint64_t) -1);
	CHECK_OUT(pf("%x", &b), "ff");
	CHECK_OUT(pf("%d", &b), "-1");
	CHECK_OUT(pf("%hhd", &b), "-1");
	CHECK_OUT(pf("%hhx", &b), "ff");

	tb_reset(&b);
	tb_int(&b, DT_REC_SINT, 2, (uint64_t) -2);
	CHECK_OUT(pf("%hd", &b), "-2");
	CHECK_OUT(pf("%hx", &b), "fffe");
	CHECK_OUT(pf("%hu", &b), "65534");
	CHECK_OUT(pf("%ho", &b), "177776");

	tb_reset(&b);
	tb_int(&b, DT_REC_SINT, 8, (uint64_t) INT64_MIN);
	CHECK_OUT(pf("%lld", &b), "-9223372036854775808");
	CHECK_OUT(pf("%d", &b), "-9223372036854775808");
	CHECK_OUT(pf("%ld", &b), "-9223372036854775808");

	tb_reset(&b);
	tb_int(&b, DT_REC_UINT, 8, UINT64_MAX);
	CHECK_OUT(pf("%llu", &b), "18446744073709551615");
	CHECK_OUT(pf("%d", &b), "18446744073709551615");
	CHECK_OUT(pf("%i", &b), "-1");
	CHECK_OUT(pf("%llx", &b), "ffffffffffffffff");
	CHECK_OUT(pf("%lX", &b), "FFFFFFFFFFFFFFFF");
	CHECK_OUT(pf("%lo", &b), "1777777777777777777777");

	tb_reset(&b);
	tb_int(&b, DT_REC_UINT, 8, 0xdeadbeef);
	CHECK_OUT(pf("%X", &b), "DEADBEEF");
	CHECK_OUT(pf("%#x", &b), "0xdeadbeef");
	CHECK_OUT(pf("%#o", &b), "033653337357");
	CHECK_OUT(pf("%p", &b), "deadbeef");
	CHECK_OUT(pf("%#p", &b), "0xdeadbeef");
	CHECK_OUT(pf("%?p|", &b), "        deadbeef|");
	CHECK_OUT(pf("%20p|", &b), "            deadbeef|");

	/* Flags, width and precision. */
	tb_reset(&b);
	tb_int(&b, DT_REC_SINT, 4, 42);
	CHECK_OUT(pf("[%5d]", &b), "[   42]");
	CHECK_OUT(pf("[%-5d]", &b), "[42   ]");
	CHECK_OUT(pf("[%05d]", &b), "[00042]");
	CHECK_OUT(pf("[%+d]", &b), "[+42]");
	CHECK_OUT(pf("[% d]", &b), "[ 42]");
	CHECK_OUT(pf("[%.4d]", &b), "[0042]");
	CHECK_OUT(pf("[%8.4d]", &b), "[    0042]");
	CHECK_OUT(pf("[%'d]", &b), "[42]");
	/* A '0' after '-' is DTrace's zero-pad flag, and it cancels '-'. */
	CHECK_OUT(pf("[%-05d]", &b), "[00042]");
	/* A zero precision is no precision in DTrace. */
	CHECK_OUT(pf("[%.0d]", &b), "[42]");

	tb_reset(&b);
	tb_int(&b, DT_REC_SINT, 4, 65);
	CHECK_OUT(pf("%c", &b), "A");
	CHECK_OUT(pf("[%3c]", &b), "[  A]");
	CHECK_OUT(pf("[%-3c]", &b), "[A  ]");
	CHECK_OUT(pf("%lc", &b), "A");
	CHECK_OUT(pf("%wc", &b), "A");

	tb_reset(&b);
	tb_int(&b, DT_REC_SINT, 4, 10);
	CHECK_OUT(pf("%C", &b), "\\n");
	tb_reset(&b);
	tb_int(&b, DT_REC_SINT, 1, 'q');
	CHECK_OUT(pf("%C", &b), "q");
}

static void
test_dynamic(void)
{
	dt_tbuf_t b;

	tb_reset(&b);
	tb_int(&b, DT_REC_SINT, 4, 6);
	tb_int(&b, DT_REC_SINT, 4, 42);
	CHECK_OUT(pf("[%*d]", &b), "[    42]");
	CHECK_OUT(pf("[%-*d]", &b), "[42    ]");

	tb_reset(&b);
	tb_int(&b, DT_REC_SINT, 4, (uint64_t) -6);
	tb_int(&b, DT_REC_SINT, 4, 42);
	CHECK_OUT(pf("[%*d]", &b), "[42    ]");

	tb_reset(&b);
	tb_int(&b, DT_REC_SINT, 8, 3);
	tb_str(&b, "hello", 32);
	CHECK_OUT(pf("[%.*s]", &b), "[hel]");

	tb_reset(&b);
	tb_int(&b, DT_REC_SINT, 4, 8);
	tb_int(&b, DT_REC_SINT, 4, 3);
	tb_str(&b, "hello", 32);
	CHECK_OUT(pf("[%*.*s]", &b), "[     hel]");
}

static void
test_strings(void)
{
	dt_tbuf_t b;

	tb_reset(&b);
	tb_str(&b, "hello", 16);
	CHECK_OUT(pf("%s", &b), "hello");
	CHECK_OUT(pf("[%10s]", &b), "[     hello]");
	CHECK_OUT(pf("[%-10s]", &b), "[hello     ]");
	CHECK_OUT(pf("[%.2s]", &b), "[he]");
	CHECK_OUT(pf("%I", &b), "hello");

	/* A string filling its record has no NUL. */
	tb_reset(&b);
	tb_str(&b, "abcdefgh", 8);
	CHECK_OUT(pf("%s|", &b), "abcdefgh|");

	/* %S escapes, and shows the terminating NUL as DTrace does. */
	tb_reset(&b);
	tb_str(&b, "a\tb\"c\\ d\n\x01\xff", 32);
	CHECK_OUT(pf("%S", &b), "a\\tb\\\"c\\\\ d\\n\\001\\377\\0");
	tb_reset(&b);
	tb_str(&b, "xyz", 3);
	CHECK_OUT(pf("[%S]", &b), "[xyz]");
	CHECK_OUT(pf("[%6S]", &b), "[   xyz]");

	/* %%, literal text, an empty format. */
	tb_reset(&b);
	tb_int(&b, DT_REC_SINT, 4, 5);
	CHECK_OUT(pf("100%% of %d%%\n", &b), "100% of 5%\n");
	CHECK_OUT(pf("", &b), "");
	CHECK_OUT(pf("no conversions", &b), "no conversions");

	/* Several conversions. */
	tb_reset(&b);
	tb_str(&b, "bash", 16);
	tb_int(&b, DT_REC_SINT, 4, 1234);
	tb_int(&b, DT_REC_UINT, 8, 0x7fff0000);
	CHECK_OUT(pf("%s[%d] at 0x%x\n", &b), "bash[1234] at 0x7fff0000\n");
	CHECK_OUT(pf("%-8s|%6d|%#10x|\n", &b), "bash    |  1234|0x7fff0000|\n");
}

static void
test_floats(void)
{
	dt_tbuf_t b;

	tb_reset(&b);
	tb_dbl(&b, 3.14159);
	CHECK_OUT(pf("%.2f", &b), "3.14");
	CHECK_OUT(pf("%f", &b), "3.141590");
	CHECK_OUT(pf("[%10.3f]", &b), "[     3.142]");
	CHECK_OUT(pf("%e", &b), "3.141590e+00");
	CHECK_OUT(pf("%E", &b), "3.141590E+00");
	CHECK_OUT(pf("%g", &b), "3.14159");
	tb_reset(&b);
	tb_dbl(&b, 1.5);
	/* "%.0f" is "%f" in DTrace. */
	CHECK_OUT(pf("%.0f", &b), "1.500000");
	tb_reset(&b);
	tb_dbl(&b, 1e-10);
	CHECK_OUT(pf("%G", &b), "1E-10");
}

static void
test_symbols(void)
{
	dt_tbuf_t b;
	uint64_t st[4] = {0xffffffff81000010ULL, 0xffffffffc0000000ULL,
	    0xffffffffc1000020ULL, 0};
	uint64_t ust[4] = {42, 0x7f0000001004ULL, 0x400000ULL, 0};
	uint64_t ua[2] = {42, 0x7f0000001008ULL};

	/* Without a symbol table: hex, as DTrace prints what it cannot
	 * resolve. */
	dt_consume_setsymops(g_dtp, NULL);
	tb_reset(&b);
	tb_int(&b, DT_REC_UINT, 8, 0xffffffff81000010ULL);
	CHECK_OUT(pf("%a", &b), "0xffffffff81000010");

	dt_consume_setsymops(g_dtp, &dt_tsym_ops);
	CHECK_OUT(pf("%a", &b), "vmlinux`do_thing+0x10");
	CHECK_OUT(pf("[%-30a]", &b), "[vmlinux`do_thing+0x10         ]");
	tb_reset(&b);
	tb_int(&b, DT_REC_SYM, 8, 0xffffffffc0000000ULL);
	CHECK_OUT(pf("%a", &b), "ext4`ext4_read");
	/* Known only by module: %a prints hex. */
	tb_reset(&b);
	tb_int(&b, DT_REC_UINT, 8, 0xffffffffc1000020ULL);
	CHECK_OUT(pf("%a", &b), "0xffffffffc1000020");

	tb_reset(&b);
	tb_add(&b, DT_REC_UADDR, 16, ua, 8);
	CHECK_OUT(pf("%A", &b), "libc.so.6`malloc+0x8");

	/* %k: one frame per line after a newline, no indent by default. */
	tb_reset(&b);
	tb_add(&b, DT_REC_STACK, 32, st, 8)->rd_arg = 4;
	CHECK_OUT(pf("%k", &b),
	    "\nvmlinux`do_thing+0x10\next4`ext4_read\nnosym`0xffffffffc1000020"
	    "\n");
	/* A left-aligned width is the indent. */
	CHECK_OUT(pf("%-4k", &b),
	    "\n    vmlinux`do_thing+0x10\n    ext4`ext4_read\n"
	    "    nosym`0xffffffffc1000020\n");
	tb_reset(&b);
	tb_add(&b, DT_REC_USTACK, 32, ust, 8)->rd_arg = 3;
	CHECK_OUT(pf("%k", &b), "\nlibc.so.6`malloc+0x4\n0x400000\n");
	dt_consume_setsymops(g_dtp, NULL);
}

static void
test_times(void)
{
	dt_tbuf_t b;

	setenv("TZ", "UTC", 1);
	tzset();
	tb_reset(&b);
	tb_int(&b, DT_REC_UINT, 8, 1795365912ULL * 1000000000ULL + 123);
	CHECK_OUT(pf("%Y", &b), "2026 Nov 22 16:45:12");
	CHECK_OUT(pf("%T", &b), "Sun, 22 Nov 2026 16:45:12 UTC");
	CHECK_OUT(pf("[%22Y]", &b), "[  2026 Nov 22 16:45:12]");
	tb_reset(&b);
	tb_int(&b, DT_REC_UINT, 8, 1767582245ULL * 1000000000ULL);
	CHECK_OUT(pf("%Y", &b), "2026 Jan  5 03:04:05");

	tb_reset(&b);
	tb_int(&b, DT_REC_UINT, 2, 65001);
	CHECK_OUT(pf("%P", &b), "65001");
}

static void
check_parse_error(const char *fmt, const char *msg)
{
	dt_pferr_t err;
	dt_pfargv_t *pfv = dt_printf_parse(fmt, &err);

	CHECK(pfv == NULL);
	if (pfv != NULL) {
		dt_printf_free(pfv);
		return;
	}
	CHECK_STR(err.pe_tag, "D_SYNTAX");
	CHECK_STR(err.pe_msg, msg);
}

static void
test_parse_errors(void)
{
	check_parse_error("%5",
	    "format conversion #1 name expected before end "
	    "of format string");
	check_parse_error("%d %y", "format conversion #2 is undefined: %y");
	check_parse_error("%d %1$d",
	    "format conversion #2 uses unsupported "
	    "positional format (%n$)");
	check_parse_error("%**d",
	    "format conversion #1 has more than one '*' "
	    "specified for the output precision");
	check_parse_error("%1.2.3d",
	    "format conversion #1 has more than one "
	    "'.' specified");
	/* DTrace has no z or j size prefix: the z is the conversion. */
	check_parse_error("%zu", "format conversion #1 is undefined: %z");
	check_parse_error("%-%",
	    "format conversion #1 cannot be combined "
	    "with other format flags: %%");
}

static const dt_pfargtype_t t_int = {DT_PFARG_INT, 4, true, "int", false};
static const dt_pfargtype_t t_uint = {DT_PFARG_INT, 4, false, "uint_t", false};
static const dt_pfargtype_t t_short = {DT_PFARG_INT, 2, true, "short", false};
static const dt_pfargtype_t t_long = {DT_PFARG_INT, 8, true, "long", false};
static const dt_pfargtype_t t_str = {
    DT_PFARG_STRING, 256, false, "string", false};
static const dt_pfargtype_t t_ptr = {
    DT_PFARG_POINTER, 8, false, "void *", false};
static const dt_pfargtype_t t_stack = {
    DT_PFARG_STACK, 160, false, "stack", false};
static const dt_pfargtype_t t_agg = {
    DT_PFARG_OTHER, 8, false, "aggregation", false};

/* Validate; returns the message ("" when valid). */
static const char *
val(const char *func, const char *fmt, const dt_pfargtype_t *args, uint32_t n,
    uint32_t flags, const char **tagp)
{
	static dt_pferr_t err;
	dt_pfargv_t *pfv = dt_printf_parse(fmt, &err);
	int rv;

	if (pfv == NULL)
		return err.pe_msg;
	rv = dt_printf_validate(pfv, func, 1, args, n, flags, true, &err);
	dt_printf_free(pfv);
	if (tagp != NULL)
		*tagp = rv == 0 ? "" : err.pe_tag;
	return rv == 0 ? "" : err.pe_msg;
}

static void
test_validate(void)
{
	dt_pfargtype_t a[4];
	const char *tag;

	dt_pfargtype_t ok1[7] = {
	    t_int, t_int, t_uint, t_uint, t_uint, t_uint, t_int};
	dt_pfargtype_t ok2[5] = {t_short, t_long, t_str, t_ptr, t_stack};

	CHECK_STR(val("printf", "%d %i %u %x %X %o %c", ok1, 7,
		      DT_PRINTF_EXACTLEN, NULL),
	    "");
	CHECK_STR(
	    val("printf", "%hd %ld %s %p %k", ok2, 5, DT_PRINTF_EXACTLEN, NULL),
	    "");

	/* A char array is a string for %s and, as an array, an address. */
	a[0] = t_str;
	a[0].pt_name = "char [16]";
	a[0].pt_array = true;
	a[1] = a[0];
	CHECK_STR(val("printf", "%s %p", a, 2, DT_PRINTF_EXACTLEN, NULL), "");
	/* ... but the string type is no array. */
	a[0] = t_str;
	CHECK_STR(val("printf", "%p %p", a, 2, DT_PRINTF_EXACTLEN, &tag),
	    "printf( ) argument #2 is incompatible with conversion #1 "
	    "prototype:\n\tconversion: %p\n\t prototype: pointer or "
	    "integer\n\t  argument: string");

	/* Size prefixes check the type: %hd wants a short, not an int. */
	CHECK_STR(val("printf", "%hd", &t_int, 1, DT_PRINTF_EXACTLEN, &tag),
	    "printf( ) argument #2 is incompatible with conversion #1 "
	    "prototype:\n\tconversion: %hd\n\t prototype: short\n\t  "
	    "argument: int");
	CHECK_STR(tag, "D_PRINTF_ARG_TYPE");

	a[0] = t_int;
	a[1] = t_str;
	CHECK_STR(val("printf", "%d %d", a, 2, DT_PRINTF_EXACTLEN, &tag),
	    "printf( ) argument #3 is incompatible with conversion #2 "
	    "prototype:\n\tconversion: %d\n\t prototype: char, short, int, "
	    "long, or long long\n\t  argument: string");
	CHECK_STR(tag, "D_PRINTF_ARG_TYPE");

	a[0] = t_int;
	a[1] = t_agg;
	CHECK_STR(val("printf", "%d %d", a, 2, DT_PRINTF_EXACTLEN, &tag),
	    "printf( ) argument #3 is incompatible with conversion #2 "
	    "prototype:\n\tconversion: %d\n\t prototype: char, short, int, "
	    "long, or long long\n\t  argument: aggregation");

	CHECK_STR(val("printf", "%d %s", &t_int, 1, DT_PRINTF_EXACTLEN, &tag),
	    "printf( ) prototype mismatch: conversion #2 (%s) is missing a "
	    "corresponding value argument");
	CHECK_STR(tag, "D_PRINTF_ARG_PROTO");

	a[0] = t_int;
	a[1] = t_int;
	CHECK_STR(val("printf", "%d", a, 2, DT_PRINTF_EXACTLEN, &tag),
	    "printf( ) prototype mismatch: only 1 arguments required by this "
	    "format string");
	CHECK_STR(tag, "D_PRINTF_ARG_EXTRA");
	/* printa() may leave keys unused. */
	CHECK_STR(val("printa", "%d", a, 2, DT_PRINTF_PRINTA, NULL), "");

	a[0] = t_str;
	a[1] = t_int;
	CHECK_STR(val("printf", "%*d", a, 2, DT_PRINTF_EXACTLEN, &tag),
	    "printf( ) argument #2 is incompatible with conversion #1 "
	    "prototype:\n\tconversion: % * d\n\t prototype: int\n"
	    "\t  argument: string");
	CHECK_STR(tag, "D_PRINTF_DYN_TYPE");
	CHECK_STR(val("printf", "%.*s", NULL, 0, DT_PRINTF_EXACTLEN, &tag),
	    "printf( ) prototype mismatch: conversion #1 (%s) is missing a "
	    "corresponding \".*\" argument");
	CHECK_STR(tag, "D_PRINTF_DYN_PROTO");

	CHECK_STR(val("printf", "%@d", &t_int, 1, DT_PRINTF_EXACTLEN, &tag),
	    "%@ conversion requires an aggregation and is not for use with "
	    "printf( )");
	CHECK_STR(tag, "D_PRINTF_AGG_CONV");
	CHECK_STR(val("printf", "", NULL, 0, DT_PRINTF_EXACTLEN, &tag),
	    "printf( ) format string is empty");
	CHECK_STR(tag, "D_PRINTF_FMT_EMPTY");

	CHECK_STR(
	    val("printa", "%s %@d\n", &t_str, 1, DT_PRINTF_PRINTA, NULL), "");
	CHECK_STR(val("printa", "%s %@s\n", &t_str, 1, DT_PRINTF_PRINTA, &tag),
	    "printa( ) aggregating action is incompatible with conversion #2 "
	    "prototype:\n\tconversion: %s\n\t prototype: char [] or string "
	    "(or use stringof)\n\t  argument: int64_t");

	CHECK_STR(val("printf", "%hd", &t_int, 1, DT_PRINTF_EXACTLEN, NULL),
	    "printf( ) argument #2 is incompatible with conversion #1 "
	    "prototype:\n\tconversion: %hd\n\t prototype: short\n"
	    "\t  argument: int");
	CHECK_STR(val("printf", "%A", &t_ptr, 1, DT_PRINTF_EXACTLEN, NULL),
	    "printf( ) argument #2 is incompatible with conversion #1 "
	    "prototype:\n\tconversion: %A\n\t prototype: pointer or integer "
	    "(with -p/-c) or _usymaddr (without -p/-c)\n\t  argument: void *");
	CHECK_STR(val("printf", "%A", &t_ptr, 1,
		      DT_PRINTF_EXACTLEN | DT_PRINTF_TARGET, NULL),
	    "");
	CHECK_STR(val("printf", "%Y", &t_int, 1, DT_PRINTF_EXACTLEN, NULL),
	    "printf( ) argument #2 is incompatible with conversion #1 "
	    "prototype:\n\tconversion: %Y\n\t prototype: int64_t\n"
	    "\t  argument: int");
}

int
main(void)
{
	g_dtp = t_open();
	test_integers();
	test_dynamic();
	test_strings();
	test_floats();
	test_symbols();
	test_times();
	test_parse_errors();
	test_validate();
	cap_close(&g_cap);
	dtrace_close(g_dtp);
	return unit_done();
}
