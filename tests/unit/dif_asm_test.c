/* SPDX-License-Identifier: MIT */
/*
 * dif_asm_test.c: the disassembler's exact output, the assembler's
 * errors, and round trips (text -> object -> text -> object) over a
 * program that uses every instruction format.
 */
#include "common/dif/dif_asm.h"
#include "common/dif/dif_verify.h"
#include "tests/unit/unit.h"

/* Disassembles d into a static buffer. */
static const char *
dis(const dif_object_t *d)
{
	static char buf[16384];
	FILE *fp = fmemopen(buf, sizeof (buf), "w");

	if (fp == NULL)
		return "(fmemopen failed)";
	dif_disasm(fp, d);
	fclose(fp);
	return buf;
}

static bool
same(const dif_object_t *a, const dif_object_t *b)
{
	uint32_t i;

	if (a->dif_len != b->dif_len || a->dif_intlen != b->dif_intlen ||
	    a->dif_strlen != b->dif_strlen || a->dif_varlen != b->dif_varlen)
		return false;
	if (memcmp(a->dif_buf, b->dif_buf, a->dif_len * 4) != 0 ||
	    (a->dif_intlen && memcmp(a->dif_inttab, b->dif_inttab,
	    a->dif_intlen * 8) != 0) ||
	    (a->dif_strlen && memcmp(a->dif_strtab, b->dif_strtab,
	    a->dif_strlen) != 0))
		return false;
	for (i = 0; i < a->dif_varlen; i++) {
		const dif_var_t *v = &a->dif_vartab[i], *w = &b->dif_vartab[i];

		if (v->dv_name != w->dv_name || v->dv_id != w->dv_id ||
		    v->dv_kind != w->dv_kind || v->dv_scope != w->dv_scope ||
		    v->dv_flags != w->dv_flags ||
		    v->dv_type.dt_kind != w->dv_type.dt_kind ||
		    v->dv_type.dt_flags != w->dv_type.dt_flags ||
		    v->dv_type.dt_size != w->dv_type.dt_size)
			return false;
	}
	return a->dif_rtype.dt_kind == b->dif_rtype.dt_kind &&
	    a->dif_rtype.dt_flags == b->dif_rtype.dt_flags &&
	    a->dif_rtype.dt_size == b->dif_rtype.dt_size;
}

/* Every opcode, in the hand-writing syntax (labels, literals, names). */
static const char every[] =
    "setx 42, %r1\n"
    "setx -1, %r2\n"
    "or %r1, %r2, %r3\n"
    "xor %r1, %r2, %r3\n"
    "and %r1, %r2, %r3\n"
    "sll %r1, %r2, %r3\n"
    "srl %r1, %r2, %r3\n"
    "sra %r1, %r2, %r3\n"
    "sub %r1, %r2, %r3\n"
    "add %r1, %r2, %r3\n"
    "mul %r1, %r2, %r3\n"
    "sdiv %r1, %r2, %r3\n"
    "udiv %r1, %r2, %r3\n"
    "srem %r1, %r2, %r3\n"
    "urem %r1, %r2, %r3\n"
    "not %r1, %r3\n"
    "mov %r1, %r3\n"
    "cmp %r1, %r2\n"
    "ba L1\n"
    "L1:\n"
    "be L2\n"
    "bne L2\n"
    "bg L2\n"
    "bgu L2\n"
    "bge L2\n"
    "bgeu L2\n"
    "bl L2\n"
    "blu L2\n"
    "ble L2\n"
    "bleu L2\n"
    "L2:\n"
    "tst %r1\n"
    "sets \"a \\\"quoted\\\"\\tstring\\n\", %r4\n"
    "scmp %r4, %r4\n"
    "ldsb [%r4], %r5\n"
    "ldsh [%r4], %r5\n"
    "ldsw [%r4], %r5\n"
    "ldub [%r4], %r5\n"
    "lduh [%r4], %r5\n"
    "lduw [%r4], %r5\n"
    "ldx [%r4], %r5\n"
    "uldsb [%r4], %r5\n"
    "uldsh [%r4], %r5\n"
    "uldsw [%r4], %r5\n"
    "uldub [%r4], %r5\n"
    "ulduh [%r4], %r5\n"
    "ulduw [%r4], %r5\n"
    "uldx [%r4], %r5\n"
    "rldsb [%r4], %r5\n"
    "rldsh [%r4], %r5\n"
    "rldsw [%r4], %r5\n"
    "rldub [%r4], %r5\n"
    "rlduh [%r4], %r5\n"
    "rlduw [%r4], %r5\n"
    "rldx [%r4], %r5\n"
    "allocs %r1, %r6\n"
    "stb %r1, [%r6]\n"
    "sth %r1, [%r6]\n"
    "stw %r1, [%r6]\n"
    "stx %r1, [%r6]\n"
    "copys %r4, %r1, %r6\n"
    "ldga args, %r1, %r5\n"
    "ldta DT_VAR(0), %r1, %r5\n"
    "ldgs g, %r5\n"
    "stgs %r5, g\n"
    "ldts t, %r5\n"
    "stts %r5, t\n"
    "ldls l, %r5\n"
    "stls %r5, l\n"
    "pushtv ctf, %r1\n"
    "pushtr string, %r4, %r0\n"
    "ldgaa a, %r5\n"
    "stgaa %r5, a\n"
    "ldtaa ta, %r5\n"
    "sttaa %r5, ta\n"
    "popts\n"
    "call strlen, %r7\n"
    "flushts\n"
    "xlate DT_XLREF[3], %r5\n"
    "xlarg DT_XLREF[4], %r5\n"
    "nop\n"
    "ret %r7\n"
    "\n"
    "VARIABLE TABLE\n"
    "g 1280 scalar global rw ctf signed 8\n"
    "t 1281 scalar thread r- ctf 4\n"
    "l 1282 scalar local -w string byref 256\n"
    "a 1283 array global -- ctf pointer 8\n"
    "ta 1284 array thread rw ctf byref 24\n"
    "RETURN ctf signed 8\n";

static void
test_roundtrip(void)
{
	char err[256];
	dif_object_t *a, *b;
	const char *text;
	char *copy;
	uint32_t op;
	bool seen[DIF_OP_MAX + 1] = { false };

	a = dif_asm(every, err, sizeof (err));
	CHECK(a != NULL);
	if (a == NULL) {
		printf("%s\n", err);
		return;
	}
	/* Every opcode appears. */
	for (op = 0; op < a->dif_len; op++)
		seen[DIF_INSTR_OP(a->dif_buf[op])] = true;
	for (op = 1; op <= DIF_OP_MAX; op++)
		if (!seen[op])
			printf("opcode %s not in the round trip\n",
			    dif_op_name(op));
	for (op = 1; op <= DIF_OP_MAX; op++)
		CHECK(seen[op]);

	text = dis(a);
	copy = strdup(text);
	b = dif_asm(copy, err, sizeof (err));
	CHECK(b != NULL);
	if (b != NULL) {
		CHECK(same(a, b));
		CHECK_STR(dis(b), copy);
		dif_object_free(b);
	} else {
		printf("%s\n%s\n", err, copy);
	}
	free(copy);
	dif_object_free(a);
}

static void
test_format(void)
{
	char err[256];
	dif_object_t *d;
	const char *src =
	    "ldgs probefunc, %r1\n"
	    "sets \"read\", %r2\n"
	    "scmp %r1, %r2\n"
	    "bne F\n"
	    "setx 0x10, %r3\n"
	    "ldgs x, %r4\n"
	    "add %r3, %r4, %r4\n"
	    "stgs %r4, x\n"
	    "pushtr string, %r1, %r0\n"
	    "call strlen, %r5\n"
	    "flushts\n"
	    "ret %r5\n"
	    "F:\n"
	    "ret %r0\n"
	    "VARIABLE TABLE\n"
	    "x 1280 scalar global rw ctf signed 8\n"
	    "RETURN ctf 8\n";
	d = dif_asm(src, err, sizeof (err));
	CHECK(d != NULL);
	if (d == NULL)
		return;
	CHECK_INT(dif_verify(d, err, sizeof (err)), 0);
	CHECK_STR(dis(d),
	    "OFF OPCODE      INSTRUCTION\n"
	    "00: 29011401    ldgs DT_VAR(276), %r1            ! probefunc\n"
	    "01: 26000202    sets DT_STRING[2], %r2           ! \"read\"\n"
	    "02: 27010200    scmp %r1, %r2\n"
	    "03: 1300000c    bne  12\n"
	    "04: 25000003    setx DT_INTEGER[0], %r3          ! 0x10\n"
	    "05: 29050004    ldgs DT_VAR(1280), %r4           ! x\n"
	    "06: 07030404    add  %r3, %r4, %r4\n"
	    "07: 2a050004    stgs %r4, DT_VAR(1280)           ! x\n"
	    "08: 30010001    pushtr DT_TYPE(1), %r1, %r0      ! string\n"
	    "09: 2f000c05    call DIF_SUBR(12), %r5           ! strlen\n"
	    "10: 33000000    flushts\n"
	    "11: 23000005    ret  %r5\n"
	    "12: 23000000    ret  %r0\n"
	    "\n"
	    "INTEGER TABLE\n"
	    "[0] 16\n"
	    "\n"
	    "STRING TABLE\n"
	    "[0] \"x\"\n"
	    "[2] \"read\"\n"
	    "\n"
	    "VARIABLE TABLE\n"
	    "NAME             ID     KIND   SCOPE  FLAG TYPE\n"
	    "x                1280   scalar global rw   ctf signed 8\n"
	    "\n"
	    "RETURN ctf 8\n");
	{
		char line[128];

		dif_disasm_instr(d, 3, line, sizeof (line));
		CHECK_STR(line, "bne  12");
	}
	dif_object_free(d);
}

static const char *
asm_err(const char *src)
{
	static char err[256];
	dif_object_t *d = dif_asm(src, err, sizeof (err));

	if (d != NULL) {
		dif_object_free(d);
		return "(assembled)";
	}
	return err;
}

static void
test_errors(void)
{
	CHECK_STR(asm_err("frob %r1\n"), "line 1: unknown opcode \"frob\"");
	CHECK_STR(asm_err("nop\nadd %r1, %r2\n"), "line 2: expected ','");
	CHECK_STR(asm_err("mov %x1, %r2\n"),
	    "line 1: expected a register (%r0..%r7)");
	CHECK_STR(asm_err("mov %r300, %r2\n"),
	    "line 1: register %r300 does not fit an instruction");
	CHECK_STR(asm_err("ba nowhere\nret %r0\n"),
	    "line 1: undefined label \"nowhere\"");
	CHECK_STR(asm_err("ldgs nosuch, %r1\n"),
	    "line 1: unknown variable \"nosuch\"");
	CHECK_STR(asm_err("call nosuch, %r1\n"),
	    "line 1: unknown subroutine \"nosuch\"");
	CHECK_STR(asm_err("sets \"abc, %r1\n"),
	    "line 1: unterminated string literal");
	CHECK_STR(asm_err("ret %r0 %r1\n"), "line 1: unexpected \"%r1\"");
	CHECK_STR(asm_err("ret %r0\nINTEGER TABLE\n[1] 5\n"),
	    "line 3: expected [0] in the integer table");
	CHECK_STR(asm_err("ret %r0\nVARIABLE TABLE\nx 1280 scalar world rw "
	    "ctf 8\n"), "line 3: expected global, thread or local");
	CHECK_STR(asm_err("ret %r0\nRETURN float 8\n"),
	    "line 2: unknown type kind \"float\"");
	CHECK_STR(asm_err("ldx [%r1, %r2\n"), "line 1: expected ']'");
	CHECK_STR(asm_err("setx DT_INTEGER[70000], %r1\n"),
	    "line 1: integer index 70000 does not fit an instruction");
}

static void
test_names(void)
{
	dif_type_t t = { DIF_TYPE_STRING, DIF_TF_BYREF, 256, NULL, 0 };
	char buf[64];

	CHECK_STR(dif_op_name(DIF_OP_LDGAA), "ldgaa");
	CHECK(dif_op_name(0) == NULL);
	CHECK(dif_op_name(DIF_OP_MAX + 1) == NULL);
	CHECK_STR(dif_subr_name(DIF_SUBR_INET_NTOA6), "inet_ntoa6");
	CHECK_INT(dif_subr_lookup("cleanpath"), DIF_SUBR_CLEANPATH);
	CHECK_INT(dif_subr_lookup("nosuch"), -1);
	CHECK_STR(dif_var_name(DIF_VAR_WALLTIMESTAMP), "walltimestamp");
	CHECK_INT(dif_var_lookup("ustackdepth"), DIF_VAR_USTACKDEPTH);
	CHECK_INT(dif_var_lookup("nosuch"), -1);
	CHECK_INT(dif_op_format(DIF_OP_COPYS), DIF_FMT_COPYS);
	CHECK_INT(dif_op_format(0), DIF_FMT_INVALID);
	dif_type_format(&t, buf, sizeof (buf));
	CHECK_STR(buf, "string byref 256");
}

int
main(void)
{
	test_roundtrip();
	test_format();
	test_errors();
	test_names();
	return unit_done();
}
