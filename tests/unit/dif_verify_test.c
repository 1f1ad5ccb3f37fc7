/* SPDX-License-Identifier: MIT */
/*
 * dif_verify_test.c: one hand-written bad object for each rule of the
 * verifier, with the exact message it must give, and good objects that
 * must pass.
 */
#include "common/dif/dif_asm.h"
#include "common/dif/dif_verify.h"
#include "tests/unit/unit.h"

static char msg[512];

/* Assembles src and returns the verifier's message ("" when valid). */
static const char *
verify(const char *src)
{
	char err[256];
	dif_object_t *d;

	if ((d = dif_asm(src, err, sizeof (err))) == NULL) {
		snprintf(msg, sizeof (msg), "(assembly: %s)", err);
		return msg;
	}
	if (dif_verify(d, msg, sizeof (msg)) == 0)
		msg[0] = '\0';
	dif_object_free(d);
	return msg;
}

/* Verifies an object built from raw parts. */
static const char *
verify_raw(const dif_instr_t *buf, uint32_t len, const char *strs,
    uint32_t strlen_, const dif_var_t *vars, uint32_t nvars,
    const dif_type_t *rtype)
{
	dif_object_t *d = dif_object_create(buf, len, NULL, 0, strs, strlen_,
	    vars, nvars, rtype);

	if (d == NULL)
		return "(no memory)";
	if (dif_verify(d, msg, sizeof (msg)) == 0)
		msg[0] = '\0';
	dif_object_free(d);
	return msg;
}

static const char vars[] =
    "VARIABLE TABLE\n"
    "g                1280   scalar global rw   ctf signed 8\n"
    "a                1281   array  global rw   ctf signed 8\n"
    "t                1282   scalar thread rw   ctf 4\n";

static const char *
verify_v(const char *code)
{
	static char src[2048];

	snprintf(src, sizeof (src), "%s%s", code, vars);
	return verify(src);
}

static void
test_good(void)
{
	CHECK_STR(verify("ret %r0\n"), "");
	CHECK_STR(verify_v("ldgs g, %r1\nsetx 1, %r2\ncmp %r1, %r2\nbe L\n"
	    "mov %r2, %r1\nL:\nstgs %r1, g\nret %r1\n"), "");
	CHECK_STR(verify_v("pushtv ctf, %r0\nldgaa a, %r1\nstgaa %r1, a\n"
	    "flushts\nldts t, %r2\nstts %r2, t\nret %r2\n"), "");
	CHECK_STR(verify("sets \"x\", %r1\npushtr string, %r1, %r0\n"
	    "call strlen, %r2\npopts\nret %r2\nRETURN ctf 8\n"), "");
	CHECK_STR(verify("setx 1, %r1\npushtv ctf, %r1\npushtv ctf, %r1\n"
	    "pushtv ctf, %r1\ncall substr, %r2\nflushts\nret %r2\n"), "");
	CHECK_STR(verify("ldga args, %r0, %r1\nldgs pid, %r2\nret %r2\n"),
	    "");
	/* A path through either arm writes %r1 before the merge. */
	CHECK_STR(verify("tst %r0\nbe A\nsetx 1, %r1\nba B\nA:\n"
	    "setx 2, %r1\nB:\nret %r1\n"), "");
	/* Dead code is checked for encoding only. */
	CHECK_STR(verify("ret %r0\nret %r5\n"), "");
}

static void
test_encoding(void)
{
	dif_instr_t bad_op[] = { 0xff000000, DIF_INSTR_RET(0) };
	dif_instr_t zero_op[] = { 0x00000000, DIF_INSTR_RET(0) };
	dif_instr_t ret9[] = { DIF_INSTR_RET(9) };
	dif_instr_t add9[] = { DIF_INSTR_FMT(DIF_OP_ADD, 0, 12, 1),
		DIF_INSTR_RET(1) };

	CHECK_STR(verify_raw(bad_op, 2, NULL, 0, NULL, 0, NULL),
	    "DIF instruction 00: invalid opcode 255");
	CHECK_STR(verify_raw(zero_op, 2, NULL, 0, NULL, 0, NULL),
	    "DIF instruction 00: invalid opcode 0");
	CHECK_STR(verify_raw(ret9, 1, NULL, 0, NULL, 0, NULL),
	    "DIF instruction 00: invalid register %r9");
	CHECK_STR(verify_raw(add9, 2, NULL, 0, NULL, 0, NULL),
	    "DIF instruction 00: invalid register %r12");
	CHECK_STR(verify_raw(NULL, 0, NULL, 0, NULL, 0, NULL),
	    "invalid DIF: the object has no instructions");
	{
		static dif_instr_t big[DIF_INSTR_MAX + 1];
		int i;

		for (i = 0; i <= DIF_INSTR_MAX; i++)
			big[i] = DIF_INSTR_RET(0);
		CHECK_STR(verify_raw(big, DIF_INSTR_MAX + 1, NULL, 0, NULL, 0,
		    NULL), "invalid DIF: 65537 instructions exceed the limit "
		    "of 65536");
	}
}

static void
test_control(void)
{
	CHECK_STR(verify("setx 1, %r1\nmov %r1, %r2\n"),
	    "DIF instruction 01: the last instruction must be ret");
	CHECK_STR(verify("tst %r0\nbe 0\nret %r0\n"),
	    "DIF instruction 01: branch to 00 does not go forward");
	CHECK_STR(verify("tst %r0\nbe 1\nret %r0\n"),
	    "DIF instruction 01: branch to 01 does not go forward");
	CHECK_STR(verify("tst %r0\nbne 9\nret %r0\n"),
	    "DIF instruction 01: branch to 09 is past the last instruction");
	CHECK_STR(verify("be L\nL:\nret %r0\n"),
	    "DIF instruction 00: be with no comparison before it");
	/* A branch into straight-line code is fine. */
	CHECK_STR(verify("tst %r0\nbe L\nnop\nL:\nnop\nret %r0\n"), "");
}

static void
test_registers(void)
{
	CHECK_STR(verify("ret %r3\n"),
	    "DIF instruction 00: %r3 is read before it is written");
	CHECK_STR(verify("tst %r0\nbe A\nsetx 1, %r1\nA:\nret %r1\n"),
	    "DIF instruction 03: %r1 is read before it is written");
	CHECK_STR(verify("setx 1, %r0\nret %r0\n"),
	    "DIF instruction 00: %r0 cannot be written");
	CHECK_STR(verify("mov %r0, %r0\nret %r0\n"),
	    "DIF instruction 00: %r0 cannot be written");
	CHECK_STR(verify("setx 8, %r1\nstx %r1, [%r2]\nret %r0\n"),
	    "DIF instruction 01: %r2 is read before it is written");
	CHECK_STR(verify("setx 8, %r1\ncopys %r1, %r1, %r3\nret %r0\n"),
	    "DIF instruction 01: %r3 is read before it is written");
}

static void
test_tables(void)
{
	dif_instr_t setx5[] = { DIF_INSTR_SETX(5, 1), DIF_INSTR_RET(1) };
	dif_instr_t sets9[] = { DIF_INSTR_SETS(9, 1), DIF_INSTR_RET(1) };
	dif_instr_t ret0[] = { DIF_INSTR_RET(0) };
	dif_type_t badref = { DIF_TYPE_STRING, 0, 256, NULL, 0 };
	dif_type_t badsize = { DIF_TYPE_CTF, 0, 3, NULL, 0 };
	dif_var_t v = { 0, 0x500, DIFV_KIND_SCALAR, DIFV_SCOPE_GLOBAL, 0,
		{ DIF_TYPE_CTF, 0, 8, NULL, 0 }, DIFV_OFFSET_NONE };
	dif_var_t two[2];

	CHECK_STR(verify_raw(setx5, 2, NULL, 0, NULL, 0, NULL),
	    "DIF instruction 00: integer table index 5 out of range "
	    "(table has 0)");
	CHECK_STR(verify_raw(sets9, 2, "ab", 3, NULL, 0, NULL),
	    "DIF instruction 00: string table offset 9 out of range "
	    "(table has 3 bytes)");
	CHECK_STR(verify_raw(ret0, 1, "ab", 2, NULL, 0, NULL),
	    "invalid DIF: the string table does not end in NUL");
	CHECK_STR(verify_raw(ret0, 1, NULL, 0, NULL, 0, &badref),
	    "invalid DIF: the return value is a string not by reference");
	CHECK_STR(verify_raw(ret0, 1, NULL, 0, NULL, 0, &badsize),
	    "invalid DIF: the return value has by-value size 3 (0, 1, 2, 4 "
	    "or 8 allowed)");
	v.dv_name = 7;
	CHECK_STR(verify_raw(ret0, 1, "x", 2, &v, 1, NULL),
	    "invalid DIF: variable 0 (ID 1280) has a name outside the "
	    "string table");
	v.dv_name = 0;
	v.dv_id = 0x120;
	CHECK_STR(verify_raw(ret0, 1, "x", 2, &v, 1, NULL),
	    "invalid DIF: variable 0 (ID 288): user scalars start at ID "
	    "1280");
	v.dv_id = 0x500;
	v.dv_scope = 7;
	CHECK_STR(verify_raw(ret0, 1, "x", 2, &v, 1, NULL),
	    "invalid DIF: variable 0 (ID 1280) has unknown scope 7");
	v.dv_scope = DIFV_SCOPE_LOCAL;
	v.dv_kind = DIFV_KIND_ARRAY;
	CHECK_STR(verify_raw(ret0, 1, "x", 2, &v, 1, NULL),
	    "invalid DIF: variable 0 (ID 1280): clause-local variables "
	    "cannot be arrays");
	v.dv_scope = DIFV_SCOPE_GLOBAL;
	v.dv_kind = DIFV_KIND_SCALAR;
	two[0] = two[1] = v;
	CHECK_STR(verify_raw(ret0, 1, "x", 2, two, 2, NULL),
	    "invalid DIF: variable 1 (ID 1280) appears twice in the "
	    "variable table");
}

static void
test_variables(void)
{
	CHECK_STR(verify("setx 1, %r1\nstgs %r1, pid\nret %r0\n"),
	    "DIF instruction 01: stgs to read-only built-in variable pid");
	CHECK_STR(verify("setx 1, %r1\nstgs %r1, DT_VAR(0x150)\nret %r0\n"),
	    "DIF instruction 01: stgs to reserved variable ID 336");
	CHECK_STR(verify("ldgs DT_VAR(0x150), %r1\nret %r1\n"),
	    "DIF instruction 00: ldgs of unknown built-in variable 336");
	CHECK_STR(verify("ldgs DT_VAR(1300), %r1\nret %r1\n"),
	    "DIF instruction 00: ldgs of variable 1300 missing from the "
	    "variable table");
	CHECK_STR(verify_v("ldts g, %r1\nret %r1\n"),
	    "(assembly: line 1: unknown variable \"g\")");
	CHECK_STR(verify_v("ldts DT_VAR(1280), %r1\nret %r1\n"),
	    "DIF instruction 00: ldts of variable 1280 missing from the "
	    "variable table");
	CHECK_STR(verify_v("ldgaa DT_VAR(1280), %r1\nret %r1\n"),
	    "DIF instruction 00: ldgaa of g, which is a scalar");
	CHECK_STR(verify_v("ldgs DT_VAR(1281), %r1\nret %r1\n"),
	    "DIF instruction 00: ldgs of a, which is an array");
	CHECK_STR(verify("ldls DT_VAR(5), %r1\nret %r1\n"),
	    "DIF instruction 00: ldls of reserved variable ID 5");
	CHECK_STR(verify("ldga DT_VAR(9), %r0, %r1\nret %r1\n"),
	    "DIF instruction 00: ldga of unknown built-in array 9");
	CHECK_STR(verify("ldta DT_VAR(0), %r0, %r1\nret %r1\n"),
	    "DIF instruction 00: ldta: thread-local arrays are not supported");
	CHECK_STR(verify("xlate DT_XLREF[0], %r1\nret %r1\n"),
	    "DIF instruction 00: xlate: translator references must be "
	    "resolved by the compiler");
	CHECK_STR(verify("xlarg DT_XLREF[0], %r1\nret %r1\n"),
	    "DIF instruction 00: xlarg: translator references must be "
	    "resolved by the compiler");
}

static void
test_calls_and_tuples(void)
{
	char src[1024];
	int i;

	CHECK_STR(verify("call DIF_SUBR(200), %r1\nret %r1\n"),
	    "DIF instruction 00: call of unknown subroutine 200");
	CHECK_STR(verify("call strlen, %r1\nret %r1\n"),
	    "DIF instruction 00: strlen() called with 0 arguments "
	    "(takes 1 to 1)");
	CHECK_STR(verify("pushtv ctf, %r0\npushtv ctf, %r0\n"
	    "pushtv ctf, %r0\npushtv ctf, %r0\ncall substr, %r1\nret %r1\n"),
	    "DIF instruction 04: substr() called with 4 arguments "
	    "(takes 2 to 3)");
	CHECK_STR(verify("popts\nret %r0\n"),
	    "DIF instruction 00: popts on an empty tuple stack");
	CHECK_STR(verify("pushtv ctf, %r0\nflushts\npopts\nret %r0\n"),
	    "DIF instruction 02: popts on an empty tuple stack");
	CHECK_STR(verify("pushtv DT_TYPE(5), %r0\nret %r0\n"),
	    "DIF instruction 00: pushtv of unknown type 5");
	CHECK_STR(verify("pushtr string, %r1, %r0\nret %r0\n"),
	    "DIF instruction 00: %r1 is read before it is written");
	src[0] = '\0';
	for (i = 0; i < 9; i++)
		strcat(src, "pushtv ctf, %r0\n");
	strcat(src, "ret %r0\n");
	CHECK_STR(verify(src),
	    "DIF instruction 08: pushtv overflows the tuple stack (8 entries)");
	/* The argument count is only checked when the depth is certain. */
	CHECK_STR(verify("tst %r0\nbe L\npushtv ctf, %r0\nL:\n"
	    "call strlen, %r1\nret %r1\n"), "");
	CHECK_INT(dif_subr_minargs(DIF_SUBR_LLTOSTR), 1);
	CHECK_INT(dif_subr_maxargs(DIF_SUBR_LLTOSTR), 2);
	CHECK_INT(dif_subr_minargs(DIF_SUBR_MAX + 1), -1);
}

int
main(void)
{
	test_good();
	test_encoding();
	test_control();
	test_registers();
	test_tables();
	test_variables();
	test_calls_and_tuples();
	return unit_done();
}
