/* SPDX-License-Identifier: MIT */
/*
 * dif_subr_test.c: every D subroutine the interpreter runs, with DTrace's
 * edge cases, each as a small assembled DIF program.
 *
 * call_subr() assembles "push the arguments, call, ret" for one call; the
 * engine callbacks below give the programs a fake target process: 64 KiB
 * of memory at FAKE_BASE readable in both address spaces, pid 4242, and
 * execname "fake".
 */
#include <stdarg.h>

#include "common/dif/dif_asm.h"
#include "common/dif/dif_interp.h"
#include "common/dif/dif_verify.h"
#include "tests/unit/unit.h"

#define FAKE_BASE 0x7f0000000000ULL
#define FAKE_SIZE 65536

static unsigned char fake[FAKE_SIZE];
static unsigned char written[64];
static uint64_t written_addr;
static size_t written_size;

static int
fake_read(void *arg, dif_as_t as, uint64_t addr, void *buf, size_t size)
{
	if (addr < FAKE_BASE || size > FAKE_SIZE ||
	    addr - FAKE_BASE > FAKE_SIZE - size)
		return -1;
	memcpy(buf, fake + (addr - FAKE_BASE), size);
	return 0;
}

static int
fake_write(void *arg, uint64_t addr, const void *buf, size_t size)
{
	if (addr < FAKE_BASE || size > sizeof (written))
		return -1;
	written_addr = addr;
	written_size = size;
	memcpy(written, buf, size);
	return 0;
}

static int
fake_var(void *arg, uint32_t id, uint64_t ndx, uint64_t *valp)
{
	if (id != DIF_VAR_PID)
		return -1;
	*valp = 4242;
	return 0;
}

static int
fake_subr(void *arg, uint32_t subr, const uint64_t *args, int nargs,
    uint64_t *valp)
{
	if (subr == DIF_SUBR_SPECULATION) {
		*valp = 3;
		return 0;
	}
	if (subr == DIF_SUBR_GETF)
		return DIF_FLT_KPRIV;
	return -1;
}

static const dif_ops_t fake_ops = {
	.do_read = fake_read,
	.do_write = fake_write,
	.do_var = fake_var,
};

static const dif_ops_t engine_ops = {
	.do_read = fake_read,
	.do_var = fake_var,
	.do_subr = fake_subr,
};

static dif_state_t *st;
static dif_mstate_t *ms;
static char strbuf[1024];

static void
setup(const dif_ops_t *ops, uint64_t strsize, size_t scratch)
{
	dif_options_t o;

	if (ms != NULL) {
		dif_mstate_destroy(ms);
		dif_state_destroy(st);
	}
	memset(&o, 0, sizeof (o));
	o.dio_ops = ops;
	o.dio_strsize = strsize;
	o.dio_seed = 12345;
	st = dif_state_create(&o);
	ms = dif_mstate_create(st, scratch);
	dif_mstate_firing(ms, 1, 1, "dtrace", "", "", "BEGIN", NULL, 0, 0, 1);
}

/* Appends s as a quoted literal. */
static void
quote(char *buf, size_t size, const char *s)
{
	size_t n = strlen(buf);

	buf[n++] = '"';
	for (; *s != '\0' && n + 5 < size; s++) {
		if (*s == '"' || *s == '\\')
			buf[n++] = '\\';
		buf[n++] = *s;
	}
	buf[n++] = '"';
	buf[n] = '\0';
}

/*
 * Builds and runs a call of subr with arguments described by spec: one
 * letter per argument, 's' a string (const char *), 'i' an integer
 * (int64_t), 'n' a NULL string.  Returns the fault (0 when none, -1 when
 * the program does not build) and the result in *rp.
 */
static int
vcall(const char *subr, uint64_t *rp, const char *spec, va_list ap,
    bool str)
{
	char src[4096], err[256];
	dif_object_t *d;
	int i, flt;

	src[0] = '\0';
	for (i = 0; spec[i] != '\0'; i++) {
		size_t n = strlen(src);

		if (spec[i] == 's') {
			snprintf(src + n, sizeof (src) - n, "sets ");
			quote(src, sizeof (src), va_arg(ap, const char *));
			n = strlen(src);
			snprintf(src + n, sizeof (src) - n,
			    ", %%r%d\npushtr string, %%r%d, %%r0\n", i + 1,
			    i + 1);
		} else if (spec[i] == 'n') {
			snprintf(src + n, sizeof (src) - n,
			    "pushtr string, %%r0, %%r0\n");
		} else {
			snprintf(src + n, sizeof (src) - n,
			    "setx %lld, %%r%d\npushtv ctf, %%r%d\n",
			    (long long) va_arg(ap, int64_t), i + 1, i + 1);
		}
	}
	snprintf(src + strlen(src), sizeof (src) - strlen(src),
	    "call %s, %%r7\nflushts\nret %%r7\n", subr);
	if ((d = dif_asm(src, err, sizeof (err))) == NULL ||
	    dif_verify(d, err, sizeof (err)) != 0) {
		printf("cannot build a call of %s: %s\n", subr, err);
		dif_object_free(d);
		return -1;
	}
	flt = dif_exec(st, ms, d, rp);
	/* Read a string result while the object (its strings) exists. */
	if (str) {
		if (flt != 0)
			snprintf(strbuf, sizeof (strbuf), "(fault %d)", flt);
		else if (*rp == 0)
			snprintf(strbuf, sizeof (strbuf), "(null)");
		else if (dif_readstr(ms, *rp, strbuf, sizeof (strbuf)) != 0)
			snprintf(strbuf, sizeof (strbuf), "(unreadable)");
	}
	dif_object_free(d);
	return flt;
}

static int
call_subr(const char *subr, uint64_t *rp, const char *spec, ...)
{
	va_list ap;
	int flt;

	va_start(ap, spec);
	flt = vcall(subr, rp, spec, ap, false);
	va_end(ap);
	return flt;
}

/* The string result of a call: "(null)" for NULL, "(fault N)". */
static const char *
S(const char *subr, const char *spec, ...)
{
	va_list ap;
	uint64_t r = 0;

	va_start(ap, spec);
	if (vcall(subr, &r, spec, ap, true) < 0)
		snprintf(strbuf, sizeof (strbuf), "(cannot build)");
	va_end(ap);
	return strbuf;
}

/* The integer result of a one-integer call, -999999 on a fault. */
static int64_t
I1(const char *subr, int64_t a)
{
	uint64_t r = 0;

	return call_subr(subr, &r, "i", a) ? -999999 : (int64_t) r;
}

static int64_t
I(const char *subr, const char *spec, const char *s1, const char *s2,
    int64_t n)
{
	uint64_t r = 0;
	int f;

	if (strcmp(spec, "ss") == 0)
		f = call_subr(subr, &r, spec, s1, s2);
	else if (strcmp(spec, "ssi") == 0)
		f = call_subr(subr, &r, spec, s1, s2, n);
	else if (strcmp(spec, "s") == 0)
		f = call_subr(subr, &r, spec, s1);
	else
		f = call_subr(subr, &r, spec, s1, n);
	return f ? -999999 : (int64_t) r;
}

static void
test_strings(void)
{
	setup(&fake_ops, 256, 0);
	CHECK_INT(I("strlen", "s", "", NULL, 0), 0);
	CHECK_INT(I("strlen", "s", "hello", NULL, 0), 5);
	CHECK_STR(S("strjoin", "ss", "foo", "bar"), "foobar");
	CHECK_STR(S("strjoin", "ss", "", ""), "");
	CHECK_STR(S("toupper", "s", "Hello, World 1"), "HELLO, WORLD 1");
	CHECK_STR(S("tolower", "s", "Hello, World 1"), "hello, world 1");

	/* substr(), DTrace's rules for negative index and length. */
	CHECK_STR(S("substr", "si", "foobarbazbop", (int64_t) 3),
	    "barbazbop");
	CHECK_STR(S("substr", "sii", "foobarbazbop", (int64_t) 3,
	    (int64_t) 3), "bar");
	CHECK_STR(S("substr", "si", "foobarbazbop", (int64_t) -3), "bop");
	CHECK_STR(S("substr", "sii", "foobarbazbop", (int64_t) -6,
	    (int64_t) 3), "baz");
	CHECK_STR(S("substr", "sii", "foobarbazbop", (int64_t) 0,
	    (int64_t) -3), "foobarbaz");
	CHECK_STR(S("substr", "sii", "foobarbazbop", (int64_t) 3,
	    (int64_t) -20), "");
	CHECK_STR(S("substr", "sii", "foobarbazbop", (int64_t) -14,
	    (int64_t) 5), "foo");
	CHECK_STR(S("substr", "si", "foobarbazbop", (int64_t) 300), "");
	CHECK_STR(S("substr", "si", "foobarbazbop", (int64_t) -300), "");
	CHECK_STR(S("substr", "sii", "foobarbazbop", (int64_t) 11,
	    (int64_t) 100), "p");

	/* index() and rindex(), Perl's position rules. */
	CHECK_INT(I("index", "ss", "foobarbar", "bar", 0), 3);
	CHECK_INT(I("index", "ss", "foobarbar", "baz", 0), -1);
	CHECK_INT(I("index", "ssi", "foobarbar", "bar", 4), 6);
	CHECK_INT(I("index", "ssi", "foobarbar", "bar", -5), 3);
	CHECK_INT(I("index", "ssi", "foobarbar", "", 100), 9);
	CHECK_INT(I("index", "ss", "foobarbar", "", 0), 0);
	CHECK_INT(I("index", "ss", "", "", 0), 0);
	CHECK_INT(I("rindex", "ss", "foobarbar", "bar", 0), 6);
	CHECK_INT(I("rindex", "ssi", "foobarbar", "bar", 5), 3);
	CHECK_INT(I("rindex", "ssi", "foobarbar", "bar", 100), 6);
	CHECK_INT(I("rindex", "ssi", "foobarbar", "bar", -1), -1);
	CHECK_INT(I("rindex", "ssi", "foobarbar", "", -1), 0);
	CHECK_INT(I("rindex", "ss", "foobarbar", "", 0), 9);
	CHECK_INT(I("rindex", "ss", "foo", "foobar", 0), -1);

	/* strchr(), strrchr(), strstr() point into their argument. */
	CHECK_STR(S("strchr", "si", "foo.bar.baz", (int64_t) '.'),
	    ".bar.baz");
	CHECK_STR(S("strrchr", "si", "foo.bar.baz", (int64_t) '.'), ".baz");
	CHECK_STR(S("strchr", "si", "foo", (int64_t) 'x'), "(null)");
	CHECK_STR(S("strrchr", "si", "foo", (int64_t) 'x'), "(null)");
	CHECK_STR(S("strchr", "si", "foo", (int64_t) 0), "");
	CHECK_STR(S("strstr", "ss", "foobarbaz", "bar"), "barbaz");
	CHECK_STR(S("strstr", "ss", "foobarbaz", "qux"), "(null)");
	CHECK_STR(S("strstr", "ss", "foo", ""), "foo");

	/* lltostr() with bases and DTrace's prefixes. */
	CHECK_STR(S("lltostr", "i", (int64_t) 0), "0");
	CHECK_STR(S("lltostr", "i", (int64_t) 12345), "12345");
	CHECK_STR(S("lltostr", "i", (int64_t) -42), "-42");
	CHECK_STR(S("lltostr", "i", (int64_t) INT64_MIN),
	    "-9223372036854775808");
	CHECK_STR(S("lltostr", "ii", (int64_t) 255, (int64_t) 16), "0xff");
	CHECK_STR(S("lltostr", "ii", (int64_t) 0, (int64_t) 16), "0x0");
	CHECK_STR(S("lltostr", "ii", (int64_t) -1, (int64_t) 16),
	    "0xffffffffffffffff");
	CHECK_STR(S("lltostr", "ii", (int64_t) 8, (int64_t) 8), "010");
	CHECK_STR(S("lltostr", "ii", (int64_t) 0, (int64_t) 8), "0");
	CHECK_STR(S("lltostr", "ii", (int64_t) 5, (int64_t) 2), "101");
	CHECK_STR(S("lltostr", "ii", (int64_t) 35, (int64_t) 36), "z");
	CHECK_STR(S("lltostr", "ii", (int64_t) 5, (int64_t) 1), "(fault 3)");
	CHECK_STR(S("lltostr", "ii", (int64_t) 5, (int64_t) 37),
	    "(fault 3)");

	/* strtoll(). */
	CHECK_INT(I("strtoll", "s", "  -123xyz", NULL, 0), -123);
	CHECK_INT(I("strtoll", "s", "+77", NULL, 0), 77);
	CHECK_INT(I("strtoll", "si", "0x1F", NULL, 16), 31);
	CHECK_INT(I("strtoll", "si", "777", NULL, 8), 511);
	CHECK_INT(I("strtoll", "si", "zz", NULL, 36), 1295);
	CHECK_INT(I("strtoll", "s", "abc", NULL, 0), 0);
	CHECK_INT(I("strtoll", "si", "1", NULL, 99), -999999);
}

static void
test_paths(void)
{
	setup(&fake_ops, 256, 0);
	CHECK_STR(S("basename", "s", "/foo/bar/baz"), "baz");
	CHECK_STR(S("basename", "s", "/foo/bar///"), "bar");
	CHECK_STR(S("basename", "s", ""), ".");
	CHECK_STR(S("basename", "s", "/"), "/");
	CHECK_STR(S("basename", "s", "///"), "/");
	CHECK_STR(S("basename", "s", "a/"), "a");
	CHECK_STR(S("basename", "s", "a"), "a");
	CHECK_STR(S("dirname", "s", "/foo/bar/baz"), "/foo/bar");
	CHECK_STR(S("dirname", "s", "/foo/bar///"), "/foo");
	CHECK_STR(S("dirname", "s", ""), ".");
	CHECK_STR(S("dirname", "s", "/"), "/");
	CHECK_STR(S("dirname", "s", "a/"), ".");
	CHECK_STR(S("dirname", "s", "a"), ".");
	CHECK_STR(S("dirname", "s", "/a"), "/");
	CHECK_STR(S("dirname", "s", "//a"), "/");
	CHECK_STR(S("dirname", "s", "a//b"), "a");

	CHECK_STR(S("cleanpath", "s", "/foo/bar/../baz"), "/foo/baz");
	CHECK_STR(S("cleanpath", "s", "/foo//bar/./baz/"), "/foo/bar/baz/");
	CHECK_STR(S("cleanpath", "s", "/foo/."), "/foo/.");
	CHECK_STR(S("cleanpath", "s", "/foo/.."), "/");
	CHECK_STR(S("cleanpath", "s", "/../a"), "/a");
	CHECK_STR(S("cleanpath", "s", "/a/b/../../c"), "/c");
	CHECK_STR(S("cleanpath", "s", "/a/.b/..c/...d"), "/a/.b/..c/...d");
	CHECK_STR(S("cleanpath", "s", "a/b"), "a/b");
	CHECK_STR(S("cleanpath", "s", ""), "");
}

static void
test_strtok(void)
{
	uint64_t r;
	char src[] =
	    "sets \",,a,b,,c\", %r1\n"
	    "pushtr string, %r1, %r0\n"
	    "sets \",\", %r2\n"
	    "pushtr string, %r2, %r0\n"
	    "call strtok, %r3\n"
	    "flushts\n"
	    "ret %r3\n";
	char next[] =
	    "pushtr string, %r0, %r0\n"
	    "sets \",\", %r2\n"
	    "pushtr string, %r2, %r0\n"
	    "call strtok, %r3\n"
	    "flushts\n"
	    "ret %r3\n";
	char err[256], out[64];
	dif_object_t *first, *rest;

	setup(&fake_ops, 256, 0);
	first = dif_asm(src, err, sizeof (err));
	rest = dif_asm(next, err, sizeof (err));
	CHECK(first != NULL && rest != NULL);
	if (first == NULL || rest == NULL)
		return;
	CHECK_INT(dif_verify(first, err, sizeof (err)), 0);
	CHECK_INT(dif_verify(rest, err, sizeof (err)), 0);

	/* The state survives clauses of one firing, not the firing. */
	CHECK_INT(dif_exec(st, ms, first, &r), 0);
	CHECK_INT(dif_readstr(ms, r, out, sizeof (out)), 0);
	CHECK_STR(out, "a");
	dif_mstate_clause(ms, 2);
	CHECK_INT(dif_exec(st, ms, rest, &r), 0);
	CHECK_INT(dif_readstr(ms, r, out, sizeof (out)), 0);
	CHECK_STR(out, "b");
	CHECK_INT(dif_exec(st, ms, rest, &r), 0);
	CHECK_INT(dif_readstr(ms, r, out, sizeof (out)), 0);
	CHECK_STR(out, "c");
	CHECK_INT(dif_exec(st, ms, rest, &r), 0);
	CHECK_INT(r, 0);
	CHECK_INT(dif_exec(st, ms, rest, &r), 0);
	CHECK_INT(r, 0);
	dif_mstate_firing(ms, 1, 1, "dtrace", "", "", "BEGIN", NULL, 0, 0, 1);
	CHECK_INT(dif_exec(st, ms, rest, &r), 0);
	CHECK_INT(r, 0);
	/* A string of delimiters only has no token. */
	CHECK_STR(S("strtok", "ss", ",,,", ","), "(null)");
	dif_object_free(first);
	dif_object_free(rest);
}

static void
test_bytes(void)
{
	setup(&fake_ops, 256, 0);
	CHECK_INT(I1("htons", 0x1234), 0x3412);
	CHECK_INT(I1("ntohs", 0x1234), 0x3412);
	CHECK_INT(I1("htonl", 0x12345678), 0x78563412);
	CHECK_INT(I1("ntohl", 0x12345678), 0x78563412);
	CHECK_INT(I1("htonll", 0x0102030405060708LL), 0x0807060504030201LL);
	CHECK_INT(I1("ntohll", 0x0102030405060708LL), 0x0807060504030201LL);
	CHECK_INT(I1("getmajor", (8 << 20) | 17), 8);
	CHECK_INT(I1("getminor", (8 << 20) | 17), 17);
}

static void
put(uint64_t off, const void *p, size_t n)
{
	memcpy(fake + off, p, n);
}

static void
test_inet(void)
{
	static const uint8_t v4[4] = { 192, 168, 1, 20 };
	static const uint8_t lo6[16] = { [15] = 1 };
	static const uint8_t ll6[16] = { 0xfe, 0x80, [8] = 0x02, 0x14, 0x4f,
		0xff, 0xfe, 0x0b, 0x76, 0xc8 };
	static const uint8_t mapped[16] = { [10] = 0xff, 0xff, 127, 0, 0, 1 };
	static const uint8_t compat[16] = { [12] = 10, 1, 2, 3 };
	static const uint8_t one0[16] = { 0, 1, 0, 0, 0, 2, 0, 3, 0, 4, 0, 5,
		0, 6, 0, 7 };
	static const uint8_t two[16] = { 0, 1, [6] = 0, 2, [14] = 0, 3 };
	static const uint8_t all0[16];
	uint64_t b = FAKE_BASE;

	setup(&fake_ops, 256, 0);
	put(0, v4, 4);
	put(16, lo6, 16);
	put(32, ll6, 16);
	put(48, mapped, 16);
	put(64, compat, 16);
	put(80, one0, 16);
	put(96, two, 16);
	put(112, all0, 16);
	CHECK_STR(S("inet_ntoa", "i", (int64_t) b), "192.168.1.20");
	CHECK_STR(S("inet_ntop", "ii", (int64_t) 2, (int64_t) b),
	    "192.168.1.20");
	CHECK_STR(S("inet_ntop", "ii", (int64_t) 10, (int64_t) (b + 16)),
	    "::1");
	CHECK_STR(S("inet_ntoa6", "i", (int64_t) (b + 16)), "::1");
	CHECK_STR(S("inet_ntoa6", "i", (int64_t) (b + 32)),
	    "fe80::214:4fff:fe0b:76c8");
	CHECK_STR(S("inet_ntop", "ii", (int64_t) 10, (int64_t) (b + 48)),
	    "::ffff:127.0.0.1");
	CHECK_STR(S("inet_ntoa6", "i", (int64_t) (b + 48)), "127.0.0.1");
	CHECK_STR(S("inet_ntop", "ii", (int64_t) 10, (int64_t) (b + 64)),
	    "::10.1.2.3");
	CHECK_STR(S("inet_ntop", "ii", (int64_t) 10, (int64_t) (b + 80)),
	    "1::2:3:4:5:6:7");
	CHECK_STR(S("inet_ntop", "ii", (int64_t) 10, (int64_t) (b + 96)),
	    "1:0:0:2::3");
	CHECK_STR(S("inet_ntop", "ii", (int64_t) 10, (int64_t) (b + 112)),
	    "::");
	CHECK_STR(S("inet_ntop", "ii", (int64_t) 99, (int64_t) b),
	    "(fault 3)");
	CHECK_STR(S("inet_ntoa", "i", (int64_t) 0x1000), "(fault 1)");
}

static void
test_memory(void)
{
	uint64_t r = 0;
	const dif_fault_t *f;
	char out[64];

	setup(&fake_ops, 256, 0);
	memcpy(fake + 1024, "user string", 12);
	CHECK_STR(S("copyinstr", "i", (int64_t) (FAKE_BASE + 1024)),
	    "user string");
	CHECK_STR(S("copyinstr", "ii", (int64_t) (FAKE_BASE + 1024),
	    (int64_t) 4), "user");
	CHECK_STR(S("copyinstr", "i", (int64_t) 16), "(fault 1)");
	f = dif_mstate_fault(ms);
	CHECK_INT(f->df_addr, 16);

	/* copyin() copies into scratch. */
	CHECK_INT(call_subr("copyin", &r, "ii", (int64_t) (FAKE_BASE + 1024),
	    (int64_t) 4), 0);
	CHECK(r != 0);
	CHECK_INT(dif_read(ms, r, out, 4), 0);
	CHECK(memcmp(out, "user", 4) == 0);
	CHECK_INT(call_subr("copyin", &r, "ii", (int64_t) 8, (int64_t) 4),
	    DIF_FLT_BADADDR);

	/* copyout()/copyoutstr() write through the engine. */
	CHECK_INT(call_subr("copyoutstr", &r, "sii", "hi there",
	    (int64_t) (FAKE_BASE + 64), (int64_t) 32), 0);
	CHECK_INT(written_addr, FAKE_BASE + 64);
	CHECK_INT(written_size, 9);
	CHECK_STR((char *) written, "hi there");
	CHECK_INT(call_subr("copyout", &r, "iii", (int64_t) (FAKE_BASE + 1024),
	    (int64_t) (FAKE_BASE + 128), (int64_t) 4), 0);
	CHECK_INT(written_size, 4);
	CHECK(memcmp(written, "user", 4) == 0);
	CHECK_INT(call_subr("copyoutstr", &r, "sii", "x", (int64_t) 4096,
	    (int64_t) 2), DIF_FLT_BADADDR);

	/* alloca(), bcopy() and copyinto() into it. */
	{
		const char *src =
		    "setx 16, %r1\n"
		    "pushtv ctf, %r1\n"
		    "call alloca, %r2\n"
		    "flushts\n"
		    "setx 0x7f0000000400, %r3\n"	/* FAKE_BASE + 1024 */
		    "pushtv ctf, %r3\n"
		    "setx 5, %r4\n"
		    "pushtv ctf, %r4\n"
		    "pushtv ctf, %r2\n"
		    "call copyinto, %r5\n"
		    "flushts\n"
		    "ret %r2\n";
		const char *bc =
		    "setx 8, %r1\n"
		    "pushtv ctf, %r1\n"
		    "call alloca, %r2\n"
		    "flushts\n"
		    "sets \"abcdefg\", %r3\n"
		    "pushtr string, %r3, %r0\n"
		    "pushtv ctf, %r2\n"
		    "setx 8, %r4\n"
		    "pushtv ctf, %r4\n"
		    "call bcopy, %r5\n"
		    "flushts\n"
		    "ret %r2\n";
		char err[256];
		dif_object_t *d = dif_asm(src, err, sizeof (err));
		dif_object_t *e = dif_asm(bc, err, sizeof (err));

		CHECK(d != NULL && e != NULL);
		if (d != NULL && e != NULL) {
			CHECK_INT(dif_verify(d, err, sizeof (err)), 0);
			CHECK_INT(dif_exec(st, ms, d, &r), 0);
			CHECK_INT(dif_readstr(ms, r, out, sizeof (out)), 0);
			CHECK_STR(out, "user ");
			CHECK_INT(dif_exec(st, ms, e, &r), 0);
			CHECK_INT(dif_readstr(ms, r, out, sizeof (out)), 0);
			CHECK_STR(out, "abcdefg");
		}
		dif_object_free(d);
		dif_object_free(e);
	}
	/* bcopy() to anywhere but scratch is refused. */
	CHECK_INT(call_subr("bcopy", &r, "sii", "abc",
	    (int64_t) (FAKE_BASE + 8), (int64_t) 3), DIF_FLT_BADADDR);
	CHECK_INT(call_subr("alloca", &r, "i", (int64_t) 1 << 40),
	    DIF_FLT_NOSCRATCH);

	/* memref() is a pair (address, length) in scratch. */
	CHECK_INT(call_subr("memref", &r, "ii", (int64_t) 0x1234,
	    (int64_t) 99), 0);
	{
		uint64_t pair[2] = { 0, 0 };

		CHECK_INT(dif_read(ms, r, pair, 16), 0);
		CHECK_INT(pair[0], 0x1234);
		CHECK_INT(pair[1], 99);
	}
}

static void
test_kernel(void)
{
	uint64_t r = 0;
	uint64_t w;

	setup(&fake_ops, 256, 0);
	/* A Linux struct mutex owned by task 0x...1000 with a flag bit. */
	w = 0xffff888000001000ULL | 1;
	put(256, &w, 8);
	CHECK_INT(call_subr("mutex_owned", &r, "i", (int64_t) (FAKE_BASE +
	    256)), 0);
	CHECK_INT(r, 1);
	CHECK_INT(call_subr("mutex_owner", &r, "i", (int64_t) (FAKE_BASE +
	    256)), 0);
	CHECK_INT(r, 0xffff888000001000ULL);
	CHECK_INT(call_subr("mutex_type_adaptive", &r, "i",
	    (int64_t) (FAKE_BASE + 256)), 0);
	CHECK_INT(r, 1);
	CHECK_INT(call_subr("mutex_type_spin", &r, "i", (int64_t) (FAKE_BASE +
	    256)), 0);
	CHECK_INT(r, 0);
	/* A struct rw_semaphore with two readers, then with a writer. */
	w = 2 << 8;
	put(264, &w, 8);
	w = 1;
	put(272, &w, 8);
	CHECK_INT(call_subr("rw_read_held", &r, "i", (int64_t) (FAKE_BASE +
	    264)), 0);
	CHECK_INT(r, 1);
	CHECK_INT(call_subr("rw_write_held", &r, "i", (int64_t) (FAKE_BASE +
	    264)), 0);
	CHECK_INT(r, 0);
	CHECK_INT(call_subr("rw_iswriter", &r, "i", (int64_t) (FAKE_BASE +
	    272)), 0);
	CHECK_INT(r, 1);
	CHECK_INT(call_subr("rw_read_held", &r, "i", (int64_t) (FAKE_BASE +
	    272)), 0);
	CHECK_INT(r, 0);
	/* No kernel memory: the interpreter engine's usual case. */
	CHECK_INT(call_subr("mutex_owned", &r, "i", (int64_t) 0x1000),
	    DIF_FLT_BADADDR);
	CHECK_INT(call_subr("rw_write_held", &r, "i", (int64_t) 0x1003),
	    DIF_FLT_BADALIGN);
}

static void
test_engine(void)
{
	uint64_t r = 0, r2 = 0;

	/* Without the engine's help. */
	setup(&fake_ops, 256, 0);
	CHECK_INT(call_subr("speculation", &r, ""), 0);
	CHECK_INT(r, 0);
	CHECK_INT(call_subr("progenyof", &r, "i", (int64_t) 4242), 0);
	CHECK_INT(r, 1);
	CHECK_INT(call_subr("progenyof", &r, "i", (int64_t) 1), 0);
	CHECK_INT(r, 0);
	CHECK_INT(call_subr("getf", &r, "i", (int64_t) 0), DIF_FLT_ILLOP);
	CHECK_INT(call_subr("ddi_pathname", &r, "ii", (int64_t) 0,
	    (int64_t) 0), DIF_FLT_ILLOP);
	CHECK_INT(call_subr("msgsize", &r, "i", (int64_t) 0), DIF_FLT_ILLOP);
	CHECK_INT(call_subr("msgdsize", &r, "i", (int64_t) 0), DIF_FLT_ILLOP);
	CHECK_INT(call_subr("copyout", &r, "iii", (int64_t) (FAKE_BASE),
	    (int64_t) 4096, (int64_t) 4), DIF_FLT_BADADDR);

	/* With it. */
	setup(&engine_ops, 256, 0);
	CHECK_INT(call_subr("speculation", &r, ""), 0);
	CHECK_INT(r, 3);
	CHECK_INT(call_subr("getf", &r, "i", (int64_t) 0), DIF_FLT_KPRIV);
	/* No do_write: copyout faults on the address. */
	CHECK_INT(call_subr("copyout", &r, "iii", (int64_t) (FAKE_BASE),
	    (int64_t) (FAKE_BASE + 8), (int64_t) 4), DIF_FLT_BADADDR);

	/*
	 * rand(): an int (sign-extended 32 bits), deterministic for a seed,
	 * its sign bit as random as the others.
	 */
	setup(&fake_ops, 256, 0);
	CHECK_INT(call_subr("rand", &r, ""), 0);
	CHECK_INT(call_subr("rand", &r2, ""), 0);
	CHECK((int64_t) r == (int32_t) r && (int64_t) r2 == (int32_t) r2 &&
	    r != r2);
	{
		int neg = 0;

		for (int i = 0; i < 64; i++) {
			uint64_t v = 0;

			CHECK_INT(call_subr("rand", &v, ""), 0);
			neg += (int64_t) v < 0;
		}
		CHECK(neg > 8 && neg < 56);
	}
	setup(&fake_ops, 256, 0);
	{
		uint64_t again = 0;

		CHECK_INT(call_subr("rand", &again, ""), 0);
		CHECK_INT(again, r);
	}
}

static void
test_json(void)
{
	const char *doc = "{\"a\": 1, \"b\": {\"c\": [10, \"x y\", true, "
	    "null, {\"d\": -2.5}]}, \"e\": \"s\\\"q\"}";

	setup(&fake_ops, 256, 0);
	CHECK_STR(S("json", "ss", doc, "a"), "1");
	CHECK_STR(S("json", "ss", doc, "b.c[0]"), "10");
	CHECK_STR(S("json", "ss", doc, "b.c[1]"), "x y");
	CHECK_STR(S("json", "ss", doc, "b.c[2]"), "true");
	CHECK_STR(S("json", "ss", doc, "b.c[3]"), "null");
	CHECK_STR(S("json", "ss", doc, "b.c[4].d"), "-2.5");
	CHECK_STR(S("json", "ss", doc, "e"), "s\\\"q");
	CHECK_STR(S("json", "ss", doc, "b"), "(null)");
	CHECK_STR(S("json", "ss", doc, "zz"), "(null)");
	CHECK_STR(S("json", "ss", doc, "b.c[9]"), "(null)");
	CHECK_STR(S("json", "ss", "{\"a\": ", "a"), "(null)");
}

static void
test_limits(void)
{
	/* strsize bounds every string; strjoin() past it is a fault. */
	setup(&fake_ops, 8, 0);
	CHECK_STR(S("strjoin", "ss", "abc", "defg"), "abcdefg");
	CHECK_STR(S("strjoin", "ss", "abcd", "efgh"), "(fault 5)");
	CHECK_INT(I("strlen", "s", "abcdefghijkl", NULL, 0), 7);
	CHECK_STR(S("toupper", "s", "abcdefghijkl"), "ABCDEFG");
	CHECK_STR(S("substr", "si", "abcdefghijkl", (int64_t) 2), "cdefg");

	/* A scratch space too small for one string. */
	setup(&fake_ops, 256, 64);
	CHECK_STR(S("toupper", "s", "abc"), "(fault 5)");

	/* NULL string arguments: invalid address 0. */
	setup(&fake_ops, 256, 0);
	CHECK_STR(S("strlen", "n"), "(fault 1)");
	CHECK_INT(dif_mstate_fault(ms)->df_addr, 0);
}

int
main(void)
{
	test_strings();
	test_paths();
	test_strtok();
	test_bytes();
	test_inet();
	test_memory();
	test_kernel();
	test_engine();
	test_json();
	test_limits();
	dif_mstate_destroy(ms);
	dif_state_destroy(st);
	return unit_done();
}
