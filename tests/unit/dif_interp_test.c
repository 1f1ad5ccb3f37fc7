/* SPDX-License-Identifier: MIT */
/*
 * dif_interp_test.c: the interpreter, instruction by instruction, written
 * in the assembler's syntax with exact expected results; then variables of
 * every scope, dynamic-variable limits, built-ins, faults and DTrace's
 * wording of them.
 */
#include "common/dif/dif_asm.h"
#include "common/dif/dif_interp.h"
#include "common/dif/dif_verify.h"
#include "tests/unit/unit.h"

#define FAKE_BASE 0x7f0000000000ULL

static unsigned char fake[4096];

static int
fake_read(void *arg, dif_as_t as, uint64_t addr, void *buf, size_t size)
{
	/* User memory only: no kernel here, as for unprivileged runs. */
	if (as != DIF_AS_USER || addr < FAKE_BASE || size > sizeof (fake) ||
	    addr - FAKE_BASE > sizeof (fake) - size)
		return -1;
	memcpy(buf, fake + (addr - FAKE_BASE), size);
	return 0;
}

static int
fake_var(void *arg, uint32_t id, uint64_t ndx, uint64_t *valp)
{
	switch (id) {
	case DIF_VAR_PID:
		*valp = 4242;
		return 0;
	case DIF_VAR_TID:
		*valp = 4243;
		return 0;
	case DIF_VAR_UREGS:
		*valp = 1000 + ndx;
		return 0;
	case DIF_VAR_ARGS:
		*valp = 500 + ndx;
		return 0;
	default:
		return -1;
	}
}

static int
fake_varstr(void *arg, uint32_t id, char *buf, size_t size)
{
	if (id != DIF_VAR_EXECNAME)
		return -1;
	snprintf(buf, size, "fakeexec");
	return 0;
}

static const dif_ops_t ops = {
	.do_read = fake_read,
	.do_var = fake_var,
	.do_varstr = fake_varstr,
};

static dif_state_t *st;
static dif_mstate_t *ms;
static uint64_t args[DIF_NARGS] = { 10, 20, 30, 40, 50, 60, 70, 80, 90,
	(uint64_t) -1 };

static void
setup(uint64_t dynvarsize, uint64_t strsize)
{
	dif_options_t o;

	if (ms != NULL) {
		dif_mstate_destroy(ms);
		dif_state_destroy(st);
	}
	memset(&o, 0, sizeof (o));
	o.dio_ops = &ops;
	o.dio_dynvarsize = dynvarsize;
	o.dio_strsize = strsize;
	st = dif_state_create(&o);
	ms = dif_mstate_create(st, 0);
	dif_mstate_firing(ms, 3, 7, "syscall", "vmlinux", "read", "entry",
	    args, DIF_NARGS, 123456789, 1);
}

static dif_object_t *
build(const char *src)
{
	char err[256];
	dif_object_t *d;

	if ((d = dif_asm(src, err, sizeof (err))) == NULL) {
		printf("assembly failed: %s\n%s", err, src);
		return NULL;
	}
	if (dif_verify(d, err, sizeof (err)) != 0) {
		printf("verification failed: %s\n%s", err, src);
		dif_object_free(d);
		return NULL;
	}
	return d;
}

/* Runs src; returns its fault, the result in *rp. */
static int
run(const char *src, uint64_t *rp)
{
	dif_object_t *d = build(src);
	int flt;

	if (d == NULL)
		return -1;
	flt = dif_exec(st, ms, d, rp);
	dif_object_free(d);
	return flt;
}

/* Runs src and returns its integer result (-999 on a fault). */
static int64_t
R(const char *src)
{
	uint64_t r = 0;

	return run(src, &r) == 0 ? (int64_t) r : -999;
}

static char sbuf[512];

/* Runs src and returns its string result. */
static const char *
RS(const char *src)
{
	dif_object_t *d = build(src);
	uint64_t r = 0;

	snprintf(sbuf, sizeof (sbuf), "(fault)");
	if (d == NULL)
		return "(build failed)";
	if (dif_exec(st, ms, d, &r) == 0) {
		if (r == 0)
			snprintf(sbuf, sizeof (sbuf), "(null)");
		else if (dif_readstr(ms, r, sbuf, sizeof (sbuf)) != 0)
			snprintf(sbuf, sizeof (sbuf), "(unreadable)");
	}
	dif_object_free(d);
	return sbuf;
}

/* A binary operation on two integer literals. */
static int64_t
binop(const char *op, int64_t a, int64_t b)
{
	char src[256];

	snprintf(src, sizeof (src), "setx %lld, %%r1\nsetx %lld, %%r2\n"
	    "%s %%r1, %%r2, %%r3\nret %%r3\n", (long long) a, (long long) b,
	    op);
	return R(src);
}

/* 1 if the branch op is taken after cmp a, b. */
static int64_t
branch(const char *op, int64_t a, int64_t b)
{
	char src[256];

	snprintf(src, sizeof (src),
	    "setx %lld, %%r1\nsetx %lld, %%r2\ncmp %%r1, %%r2\n%s T\n"
	    "ret %%r0\nT:\nsetx 1, %%r3\nret %%r3\n", (long long) a,
	    (long long) b, op);
	return R(src);
}

static void
test_arith(void)
{
	setup(0, 0);
	CHECK_INT(binop("or", 0x0f, 0xf0), 0xff);
	CHECK_INT(binop("xor", 0xff, 0x0f), 0xf0);
	CHECK_INT(binop("and", 0xff, 0x3c), 0x3c);
	CHECK_INT(binop("sll", 1, 63), INT64_MIN);
	CHECK_INT(binop("sll", 1, 64), 1);	/* count modulo 64 */
	CHECK_INT(binop("srl", -1, 60), 0xf);
	CHECK_INT(binop("sra", -16, 2), -4);
	CHECK_INT(binop("sra", 16, 2), 4);
	CHECK_INT(binop("sra", INT64_MIN, 63), -1);
	CHECK_INT(binop("sub", 5, 7), -2);
	CHECK_INT(binop("add", INT64_MAX, 1), INT64_MIN);
	CHECK_INT(binop("mul", -3, 7), -21);
	CHECK_INT(binop("sdiv", -7, 2), -3);
	CHECK_INT(binop("sdiv", INT64_MIN, -1), INT64_MIN);
	CHECK_INT(binop("udiv", -1, 2), INT64_MAX);
	CHECK_INT(binop("srem", -7, 2), -1);
	CHECK_INT(binop("srem", INT64_MIN, -1), 0);
	CHECK_INT(binop("urem", 7, 4), 3);
	CHECK_INT(binop("sdiv", 1, 0), -999);
	CHECK_INT(binop("udiv", 1, 0), -999);
	CHECK_INT(binop("srem", 1, 0), -999);
	CHECK_INT(binop("urem", 1, 0), -999);
	CHECK_INT(dif_mstate_fault(ms)->df_kind, DIF_FLT_DIVZERO);
	CHECK_INT(dif_mstate_fault(ms)->df_offset, 8);
	CHECK_INT(R("setx 0x5a, %r1\nnot %r1, %r2\nret %r2\n"), ~0x5aLL);
	CHECK_INT(R("setx 77, %r1\nmov %r1, %r2\nret %r2\n"), 77);
	CHECK_INT(R("nop\nret %r0\n"), 0);
}

static void
test_branches(void)
{
	setup(0, 0);
	CHECK_INT(R("ba L\nsetx 5, %r1\nret %r1\nL:\nret %r0\n"), 0);
	CHECK_INT(branch("be", 3, 3), 1);
	CHECK_INT(branch("be", 3, 4), 0);
	CHECK_INT(branch("bne", 3, 4), 1);
	CHECK_INT(branch("bne", 3, 3), 0);
	CHECK_INT(branch("bg", 4, 3), 1);
	CHECK_INT(branch("bg", -1, 3), 0);
	CHECK_INT(branch("bg", INT64_MAX, INT64_MIN), 1);	/* overflow */
	CHECK_INT(branch("bgu", -1, 3), 1);
	CHECK_INT(branch("bgu", 3, 3), 0);
	CHECK_INT(branch("bge", 3, 3), 1);
	CHECK_INT(branch("bge", INT64_MIN, 1), 0);
	CHECK_INT(branch("bgeu", 3, 3), 1);
	CHECK_INT(branch("bgeu", 2, -1), 0);
	CHECK_INT(branch("bl", -1, 3), 1);
	CHECK_INT(branch("bl", INT64_MIN, INT64_MAX), 1);
	CHECK_INT(branch("bl", 3, 3), 0);
	CHECK_INT(branch("blu", 3, -1), 1);
	CHECK_INT(branch("blu", -1, 3), 0);
	CHECK_INT(branch("ble", 3, 3), 1);
	CHECK_INT(branch("ble", 4, 3), 0);
	CHECK_INT(branch("bleu", 3, 3), 1);
	CHECK_INT(branch("bleu", -1, 3), 0);
	/* tst compares with zero. */
	CHECK_INT(R("setx -5, %r1\ntst %r1\nbl T\nret %r0\nT:\n"
	    "setx 1, %r2\nret %r2\n"), 1);
	CHECK_INT(R("tst %r0\nbne T\nsetx 2, %r2\nret %r2\nT:\nret %r0\n"),
	    2);
	/* scmp compares strings; NULL reads as "". */
	CHECK_INT(R("sets \"abc\", %r1\nsets \"abd\", %r2\nscmp %r1, %r2\n"
	    "bl T\nret %r0\nT:\nsetx 1, %r3\nret %r3\n"), 1);
	CHECK_INT(R("sets \"abc\", %r1\nsets \"abc\", %r2\nscmp %r1, %r2\n"
	    "be T\nret %r0\nT:\nsetx 1, %r3\nret %r3\n"), 1);
	CHECK_INT(R("sets \"\", %r1\nscmp %r1, %r0\n"
	    "be T\nret %r0\nT:\nsetx 1, %r3\nret %r3\n"), 1);
}

static void
test_memory(void)
{
	const char *src;
	uint64_t r;

	setup(0, 0);
	memcpy(fake, "\x81\x82\x83\x84\x85\x86\x87\x88", 8);
	/* User loads through the engine: each width and signedness. */
	CHECK_INT(R("setx 0x7f0000000000, %r1\nuldsb [%r1], %r2\nret %r2\n"),
	    (int8_t) 0x81);
	CHECK_INT(R("setx 0x7f0000000000, %r1\nuldub [%r1], %r2\nret %r2\n"),
	    0x81);
	CHECK_INT(R("setx 0x7f0000000000, %r1\nuldsh [%r1], %r2\nret %r2\n"),
	    (int16_t) 0x8281);
	CHECK_INT(R("setx 0x7f0000000000, %r1\nulduh [%r1], %r2\nret %r2\n"),
	    0x8281);
	CHECK_INT(R("setx 0x7f0000000000, %r1\nuldsw [%r1], %r2\nret %r2\n"),
	    (int32_t) 0x84838281);
	CHECK_INT(R("setx 0x7f0000000000, %r1\nulduw [%r1], %r2\nret %r2\n"),
	    0x84838281);
	CHECK_INT(R("setx 0x7f0000000000, %r1\nuldx [%r1], %r2\nret %r2\n"),
	    (int64_t) 0x8887868584838281ULL);
	/* Kernel loads of user addresses fail here ("no kernel"). */
	CHECK_INT(run("setx 0x7f0000000000, %r1\nldx [%r1], %r2\nret %r2\n",
	    &r), DIF_FLT_BADADDR);
	CHECK_INT(dif_mstate_fault(ms)->df_addr, FAKE_BASE);
	CHECK_INT(run("ldsb [%r0], %r2\nret %r2\n", &r), DIF_FLT_BADADDR);
	CHECK_INT(dif_mstate_fault(ms)->df_addr, 0);
	CHECK_INT(run("setx 0x7f0000000001, %r1\nuldx [%r1], %r2\nret %r2\n",
	    &r), DIF_FLT_BADALIGN);
	CHECK_INT(dif_mstate_fault(ms)->df_addr, FAKE_BASE + 1);

	/* Stores into scratch, loads back with every kernel load. */
	src = "setx 8, %r1\n"
	    "allocs %r1, %r2\n"
	    "setx 0x8182838485868788, %r3\n"
	    "stx %r3, [%r2]\n"
	    "ldx [%r2], %r4\n"
	    "ldsb [%r2], %r5\n"
	    "add %r4, %r5, %r4\n"	/* 0x...88 + (-0x78) */
	    "ldub [%r2], %r5\n"
	    "add %r4, %r5, %r4\n"
	    "ldsh [%r2], %r5\n"
	    "add %r4, %r5, %r4\n"
	    "lduh [%r2], %r5\n"
	    "add %r4, %r5, %r4\n"
	    "ldsw [%r2], %r5\n"
	    "add %r4, %r5, %r4\n"
	    "lduw [%r2], %r5\n"
	    "add %r4, %r5, %r4\n"
	    "ret %r4\n";
	CHECK_INT(R(src), (int64_t) (0x8182838485868788ULL +
	    (uint64_t) (int64_t) (int8_t) 0x88 + 0x88 +
	    (uint64_t) (int64_t) (int16_t) 0x8788 + 0x8788 +
	    (uint64_t) (int64_t) (int32_t) 0x85868788 + 0x85868788ULL));
	/* The restricted loads behave as the kernel ones. */
	src = "setx 8, %r1\n"
	    "allocs %r1, %r2\n"
	    "setx -2, %r3\n"
	    "stw %r3, [%r2]\n"
	    "rldsb [%r2], %r4\n"
	    "rldub [%r2], %r5\n"
	    "add %r4, %r5, %r4\n"
	    "rldsh [%r2], %r5\n"
	    "add %r4, %r5, %r4\n"
	    "rlduh [%r2], %r5\n"
	    "add %r4, %r5, %r4\n"
	    "rldsw [%r2], %r5\n"
	    "add %r4, %r5, %r4\n"
	    "rlduw [%r2], %r5\n"
	    "add %r4, %r5, %r4\n"
	    "rldx [%r2], %r5\n"
	    "add %r4, %r5, %r4\n"
	    "ret %r4\n";
	CHECK_INT(R(src), -2 + 0xfe - 2 + 0xfffe - 2 + 0xfffffffeLL +
	    0xfffffffeLL);
	src = "setx 8, %r1\n"
	    "allocs %r1, %r2\n"
	    "setx 0x41, %r3\n"
	    "stb %r3, [%r2]\n"
	    "setx 1, %r4\n"
	    "add %r2, %r4, %r5\n"
	    "stb %r4, [%r5]\n"
	    "setx 0x4342, %r3\n"
	    "setx 2, %r4\n"
	    "add %r2, %r4, %r4\n"
	    "sth %r3, [%r4]\n"
	    "ret %r2\n";
	CHECK_STR(RS(src), "A\001BC");
	/* A store outside scratch and variables, a misaligned store. */
	CHECK_INT(run("setx 0x7f0000000000, %r1\nstb %r1, [%r1]\nret %r0\n",
	    &r), DIF_FLT_BADADDR);
	CHECK_INT(run("sets \"abcd\", %r1\nstb %r0, [%r1]\nret %r0\n", &r),
	    DIF_FLT_BADADDR);
	CHECK_INT(run("setx 8, %r1\nallocs %r1, %r2\nsetx 1, %r3\n"
	    "add %r2, %r3, %r2\nsth %r3, [%r2]\nret %r0\n", &r),
	    DIF_FLT_BADALIGN);
	/* allocs beyond scratch. */
	CHECK_INT(run("setx 0x100000000, %r1\nallocs %r1, %r2\nret %r2\n",
	    &r), DIF_FLT_NOSCRATCH);
	/* copys copies a string literal into scratch. */
	CHECK_STR(RS("setx 6, %r1\nallocs %r1, %r2\nsets \"hello\", %r3\n"
	    "copys %r3, %r1, %r2\nret %r2\n"), "hello");
	CHECK_INT(run("setx 6, %r1\nsets \"hello\", %r3\n"
	    "copys %r3, %r1, %r3\nret %r3\n", &r), DIF_FLT_BADADDR);
}

static const char vars[] =
    "VARIABLE TABLE\n"
    "g                1280   scalar global rw   ctf signed 8\n"
    "s                1281   scalar global rw   string byref 256\n"
    "t                1282   scalar thread rw   ctf signed 8\n"
    "ts               1283   scalar thread rw   string byref 256\n"
    "l                1284   scalar local  rw   ctf signed 8\n"
    "ls               1285   scalar local  rw   string byref 256\n"
    "a                1286   array  global rw   ctf signed 8\n"
    "as               1287   array  global rw   string byref 256\n"
    "ta               1288   array  thread rw   ctf signed 8\n";

static int64_t
RV(const char *code)
{
	char src[4096];

	snprintf(src, sizeof (src), "%s%s", code, vars);
	return R(src);
}

static const char *
RVS(const char *code)
{
	char src[4096];

	snprintf(src, sizeof (src), "%s%s", code, vars);
	return RS(src);
}

static void
test_variables(void)
{
	setup(0, 0);
	/* Globals: by value and by reference (copied in, NULL kept). */
	CHECK_INT(RV("ldgs g, %r1\nret %r1\n"), 0);
	CHECK_INT(RV("setx 41, %r1\nstgs %r1, g\nret %r0\n"), 0);
	CHECK_INT(RV("ldgs g, %r1\nsetx 1, %r2\nadd %r1, %r2, %r1\n"
	    "stgs %r1, g\nldgs g, %r3\nret %r3\n"), 42);
	CHECK_STR(RVS("ldgs s, %r1\nret %r1\n"), "");
	CHECK_STR(RVS("sets \"kept\", %r1\nstgs %r1, s\nret %r0\n"),
	    "(null)");
	CHECK_STR(RVS("ldgs s, %r1\nret %r1\n"), "kept");
	CHECK_STR(RVS("stgs %r0, s\nldgs s, %r1\nret %r1\n"), "(null)");

	/* Thread-locals: per thread key, 0 when unset, freed by 0. */
	CHECK_INT(RV("ldts t, %r1\nret %r1\n"), 0);
	CHECK_INT(RV("setx 7, %r1\nstts %r1, t\nldts t, %r2\nret %r2\n"), 7);
	dif_mstate_firing(ms, 3, 7, "p", "m", "f", "n", args, 0, 0, 2);
	CHECK_INT(RV("ldts t, %r1\nret %r1\n"), 0);
	dif_mstate_firing(ms, 3, 7, "p", "m", "f", "n", args, 0, 0, 1);
	CHECK_INT(RV("ldts t, %r1\nret %r1\n"), 7);
	CHECK_STR(RVS("sets \"mine\", %r1\nstts %r1, ts\nldts ts, %r2\n"
	    "ret %r2\n"), "mine");
	CHECK_STR(RVS("ldts ts, %r2\nret %r2\n"), "mine");
	dif_state_thread_exit(st, 1);
	CHECK_INT(RV("ldts t, %r1\nret %r1\n"), 0);
	CHECK_STR(RVS("ldts ts, %r2\nret %r2\n"), "(null)");

	/* Clause-locals: shared by the clauses of a firing only. */
	CHECK_INT(RV("setx 9, %r1\nstls %r1, l\nret %r0\n"), 0);
	dif_mstate_clause(ms, 4);
	CHECK_INT(RV("ldls l, %r1\nret %r1\n"), 9);
	CHECK_STR(RVS("sets \"here\", %r1\nstls %r1, ls\nldls ls, %r2\n"
	    "ret %r2\n"), "here");
	dif_mstate_firing(ms, 3, 7, "p", "m", "f", "n", args, 0, 0, 1);
	CHECK_INT(RV("ldls l, %r1\nret %r1\n"), 0);
	CHECK_STR(RVS("ldls ls, %r2\nret %r2\n"), "");

	/* Associative arrays, keyed by tuples of values and strings. */
	CHECK_INT(RV("setx 1, %r1\npushtv ctf, %r1\nsets \"k\", %r2\n"
	    "pushtr string, %r2, %r0\nsetx 100, %r3\nstgaa %r3, a\n"
	    "flushts\nret %r0\n"), 0);
	CHECK_INT(RV("setx 1, %r1\npushtv ctf, %r1\nsets \"k\", %r2\n"
	    "pushtr string, %r2, %r0\nldgaa a, %r3\nret %r3\n"), 100);
	CHECK_INT(RV("setx 1, %r1\npushtv ctf, %r1\nsets \"j\", %r2\n"
	    "pushtr string, %r2, %r0\nldgaa a, %r3\nret %r3\n"), 0);
	CHECK_INT(RV("setx 2, %r1\npushtv ctf, %r1\nsets \"k\", %r2\n"
	    "pushtr string, %r2, %r0\nldgaa a, %r3\nret %r3\n"), 0);
	/* popts leaves the first key element. */
	CHECK_INT(RV("setx 5, %r1\npushtv ctf, %r1\nstgaa %r1, a\n"
	    "pushtv ctf, %r1\npopts\nldgaa a, %r3\nret %r3\n"), 5);
	/* A by-reference key of a fixed size (a struct) with pushtr ctf. */
	CHECK_INT(RV("setx 16, %r1\nallocs %r1, %r2\nsetx 3, %r3\n"
	    "stx %r3, [%r2]\npushtr ctf, %r2, %r1\nstgaa %r3, a\n"
	    "flushts\nsetx 16, %r1\nallocs %r1, %r4\nstx %r3, [%r4]\n"
	    "pushtr ctf, %r4, %r1\nldgaa a, %r5\nret %r5\n"), 3);
	CHECK_STR(RVS("pushtv ctf, %r0\nsets \"val\", %r1\nstgaa %r1, as\n"
	    "ldgaa as, %r2\nret %r2\n"), "val");
	/* Thread-local arrays. */
	CHECK_INT(RV("setx 4, %r1\npushtv ctf, %r1\nstgaa %r1, a\n"
	    "sttaa %r1, ta\nsetx 6, %r2\nstgaa %r2, a\nldtaa ta, %r3\n"
	    "ret %r3\n"), 4);
	dif_mstate_firing(ms, 3, 7, "p", "m", "f", "n", args, 0, 0, 9);
	CHECK_INT(RV("setx 4, %r1\npushtv ctf, %r1\nldtaa ta, %r3\n"
	    "ret %r3\n"), 0);
	CHECK_INT(dif_state_dyndrops(st), 0);
}

static void
test_dynvar_limits(void)
{
	char src[1024];
	int i;

	/* Room for a few entries only: the rest are dropped, each store
	 * dropped ending its object (DIF_FLT_DROP: the clause ends, as
	 * DTrace's drop ends it), and freeing one makes room again. */
	setup(512, 0);
	{
		uint64_t ended = 0;

		for (i = 0; i < 20; i++) {
			int64_t r;

			snprintf(src, sizeof (src), "setx %d, %%r1\n"
			    "pushtv ctf, %%r1\nstgaa %%r1, a\nret %%r0\n%s",
			    i + 1, vars);
			r = R(src);
			CHECK(r == 0 || (r == -999 &&
			    dif_mstate_fault(ms)->df_kind == DIF_FLT_DROP));
			ended += r == -999;
		}
		CHECK(dif_state_dyndrops(st) > 0);
		CHECK(dif_state_dyndrops(st) < 20);
		CHECK_INT(dif_state_dyndrops(st), ended);
	}
	CHECK_INT(RV("setx 1, %r1\npushtv ctf, %r1\nldgaa a, %r2\n"
	    "ret %r2\n"), 1);
	CHECK_INT(RV("setx 20, %r1\npushtv ctf, %r1\nldgaa a, %r2\n"
	    "ret %r2\n"), 0);
	{
		uint64_t drops = dif_state_dyndrops(st);

		CHECK_INT(RV("setx 1, %r1\npushtv ctf, %r1\nstgaa %r0, a\n"
		    "flushts\nsetx 20, %r1\npushtv ctf, %r1\nstgaa %r1, a\n"
		    "ldgaa a, %r2\nret %r2\n"), 20);
		CHECK_INT(dif_state_dyndrops(st), drops);
	}
	/* Strings in dynamic variables are bounded by strsize. */
	setup(0, 8);
	CHECK_STR(RVS("sets \"truncated!\", %r1\nstts %r1, ts\nldts ts, %r2\n"
	    "ret %r2\n"), "truncat");
}

static void
test_builtins(void)
{
	uint64_t r;

	setup(0, 0);
	CHECK_INT(R("ldgs arg0, %r1\nldgs arg9, %r2\nadd %r1, %r2, %r1\n"
	    "ret %r1\n"), 9);
	CHECK_INT(R("ldgs arg4, %r1\nret %r1\n"), 50);
	CHECK_INT(R("setx 3, %r1\nldga args, %r1, %r2\nret %r2\n"), 40);
	CHECK_INT(R("setx 12, %r1\nldga args, %r1, %r2\nret %r2\n"), 512);
	CHECK_INT(R("setx 2, %r1\nldga uregs, %r1, %r2\nret %r2\n"), 1002);
	CHECK_INT(run("ldga regs, %r0, %r2\nret %r2\n", &r), DIF_FLT_ILLOP);
	CHECK_INT(R("ldgs epid, %r1\nret %r1\n"), 3);
	CHECK_INT(R("ldgs id, %r1\nret %r1\n"), 7);
	CHECK_INT(R("ldgs timestamp, %r1\nret %r1\n"), 123456789);
	CHECK_INT(R("ldgs pid, %r1\nret %r1\n"), 4242);
	CHECK_INT(R("ldgs tid, %r1\nret %r1\n"), 4243);
	CHECK_STR(RS("ldgs probeprov, %r1\nret %r1\n"), "syscall");
	CHECK_STR(RS("ldgs probemod, %r1\nret %r1\n"), "vmlinux");
	CHECK_STR(RS("ldgs probefunc, %r1\nret %r1\n"), "read");
	CHECK_STR(RS("ldgs probename, %r1\nret %r1\n"), "entry");
	CHECK_STR(RS("ldgs execname, %r1\nret %r1\n"), "fakeexec");
	CHECK_STR(RS("ldgs zonename, %r1\nret %r1\n"), "global");
	CHECK_INT(run("ldgs cwd, %r1\nret %r1\n", &r), DIF_FLT_ILLOP);
	CHECK_INT(run("ldgs uid, %r1\nret %r1\n", &r), DIF_FLT_ILLOP);
	/* Probe names are strings like any other. */
	CHECK_INT(R("ldgs probefunc, %r1\nsets \"read\", %r2\n"
	    "scmp %r1, %r2\nbne F\nsetx 1, %r3\nret %r3\nF:\nret %r0\n"), 1);
	dif_mstate_clause(ms, 11);
	CHECK_INT(R("ldgs epid, %r1\nret %r1\n"), 11);
}

static void
test_tuples_and_faults(void)
{
	char src[2048], err[256], msg[128];
	dif_fault_t f;
	uint64_t r;
	int i;

	setup(0, 0);
	/* Nine pushes overflow the tuple stack at run time (the verifier
	 * cannot see it when a branch hides the depth). */
	snprintf(src, sizeof (src), "setx 1, %%r1\ntst %%r1\nbe L\n"
	    "pushtv ctf, %%r1\nL:\n");
	for (i = 0; i < 8; i++)
		strcat(src, "pushtv ctf, %r1\n");
	strcat(src, "ret %r0\n");
	CHECK_INT(run(src, &r), DIF_FLT_TUPOFLOW);
	CHECK_INT(dif_mstate_fault(ms)->df_offset, 4 * 11);

	/* Unverified objects fault rather than misbehave. */
	{
		dif_instr_t bad[] = {
			DIF_INSTR_BRANCH(DIF_OP_BA, 0),
			DIF_INSTR_RET(0),
		};
		dif_instr_t xl[] = { DIF_INSTR_XLATE(DIF_OP_XLATE, 0, 1),
			DIF_INSTR_RET(1) };
		dif_instr_t lt[] = { DIF_INSTR_LDA(DIF_OP_LDTA, 0, 0, 1),
			DIF_INSTR_RET(1) };
		dif_instr_t xa[] = { DIF_INSTR_XLATE(DIF_OP_XLARG, 0, 1),
			DIF_INSTR_RET(1) };
		dif_instr_t nr[] = { DIF_INSTR_NOP };
		dif_object_t *d;

		d = dif_object_create(bad, 2, NULL, 0, NULL, 0, NULL, 0, NULL);
		CHECK(dif_verify(d, err, sizeof (err)) != 0);
		CHECK_INT(dif_exec(st, ms, d, &r), DIF_FLT_ILLOP);
		dif_object_free(d);
		d = dif_object_create(xl, 2, NULL, 0, NULL, 0, NULL, 0, NULL);
		CHECK_INT(dif_exec(st, ms, d, &r), DIF_FLT_ILLOP);
		dif_object_free(d);
		d = dif_object_create(xa, 2, NULL, 0, NULL, 0, NULL, 0, NULL);
		CHECK_INT(dif_exec(st, ms, d, &r), DIF_FLT_ILLOP);
		dif_object_free(d);
		d = dif_object_create(lt, 2, NULL, 0, NULL, 0, NULL, 0, NULL);
		CHECK_INT(dif_exec(st, ms, d, &r), DIF_FLT_ILLOP);
		dif_object_free(d);
		d = dif_object_create(nr, 1, NULL, 0, NULL, 0, NULL, 0, NULL);
		CHECK_INT(dif_exec(st, ms, d, &r), DIF_FLT_ILLOP);
		dif_object_free(d);
	}

	/* DTrace's wording. */
	CHECK_INT(run("setx 0, %r1\nsetx 0, %r2\nsetx 0, %r3\n"
	    "ldsb [%r1], %r1\nret %r1\n", &r), DIF_FLT_BADADDR);
	dif_fault_format(dif_mstate_fault(ms), 1, msg, sizeof (msg));
	CHECK_STR(msg, "invalid address (0x0) in action #1 at DIF offset 12");
	f.df_kind = DIF_FLT_DIVZERO;
	f.df_addr = 0;
	f.df_offset = 20;
	dif_fault_format(&f, 0, msg, sizeof (msg));
	CHECK_STR(msg, "divide-by-zero in predicate at DIF offset 20");
	f.df_kind = DIF_FLT_BADALIGN;
	f.df_addr = 0x1001;
	f.df_offset = -1;
	dif_fault_format(&f, 2, msg, sizeof (msg));
	CHECK_STR(msg, "invalid alignment (0x1001) in action #2");
	f.df_kind = DIF_FLT_NOSCRATCH;
	f.df_offset = 4;
	dif_fault_format(&f, 3, msg, sizeof (msg));
	CHECK_STR(msg, "out of scratch space in action #3 at DIF offset 4");
	CHECK_STR(dif_fault_name(DIF_FLT_ILLOP), "illegal operation");
	CHECK_STR(dif_fault_name(DIF_FLT_KPRIV), "invalid kernel access");
	CHECK_STR(dif_fault_name(DIF_FLT_UPRIV), "invalid user access");
	CHECK_STR(dif_fault_name(DIF_FLT_TUPOFLOW), "tuple stack overflow");
	CHECK_STR(dif_fault_name(DIF_FLT_BADSTACK), "bad stack");
	CHECK_STR(dif_fault_name(DIF_FLT_LIBRARY), "library-level fault");
	CHECK_STR(dif_fault_name(99), "unknown fault");
}

int
main(void)
{
	test_arith();
	test_branches();
	test_memory();
	test_variables();
	test_dynvar_limits();
	test_builtins();
	test_tuples_and_faults();
	dif_mstate_destroy(ms);
	dif_state_destroy(st);
	return unit_done();
}
