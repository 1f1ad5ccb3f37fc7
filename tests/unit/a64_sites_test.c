/* SPDX-License-Identifier: MIT */
/*
 * a64_sites_test.c: probe sites of AArch64 functions (isa/aarch64,
 * a64_sites_scan()) and the rest of AArch64's isa/dt_isa.h member:
 * the sites as the pid provider gets them, the register layout, the
 * uregs[] names, conditions on NZCV and on one register (the
 * conditional tail calls cbz/cbnz, tbz/tbnz) and USDT operands.  The function
 * below was assembled by GNU as for aarch64. Pure functions: runs on any host.
 */

#include <string.h>

#include "isa/dt_isa.h"
#include "isa/aarch64/a64_decode.h"
#include "isa/aarch64/a64_emulate.h"
#include "isa/aarch64/a64_sites.h"
#include "tests/unit/unit.h"

#define BASE 0x400000

static const uint32_t func[] = {
    0xd503233f, /* 0: paciasp   */
    0xa9bf7bfd, /* 4: stp x29, x30, */
    0x94000011, /* 8: bl 4c <out> */
    0x580001a1, /* c: ldr x1, 40 */
    0x885ffc02, /* 10: ldaxr w2, [x0] */
    0x6b03005f, /* 14: cmp w2, w3 */
    0x54000061, /* 18: b.ne 24 <f+0x24> */
    0x8804fc05, /* 1c: stlxr w4, w5, */
    0x35ffff84, /* 20: cbnz w4, 10 */
    0xb4000141, /* 24: cbz x1, 4c */
    0xa8c17bfd, /* 28: ldp x29, x30, */
    0xd50323bf, /* 2c: autiasp   */
    0x540000e0, /* 30: b.eq 4c <out> */
    0xd65f03c0, /* 34: ret   */
    0x14000005, /* 38: b 4c <out> */
    0xd4200020, /* 3c: brk #0x1  */
    0xd65f03c0, /* 40: .word 0xd65f03c0  */
    0xd65f03c0, /* 44: .word 0xd65f03c0  */
    0xd65f03c0, /* 48: ret   */
};

static uint8_t code[sizeof(func)];

static void
load(void)
{
	for (size_t i = 0; i < sizeof(func) / 4; i++)
		for (int b = 0; b < 4; b++)
			code[4 * i + b] = (uint8_t) (func[i] >> (8 * b));
}

static int
is_site(const a64_sites_t *s, a64_site_kind_t k, size_t off)
{
	return a64_sites_find(s, k, off) != NULL;
}

static void
test_scan(void)
{
	a64_sites_t s;
	const a64_site_t *p;

	CHECK_INT(a64_sites_scan(code, sizeof(code), BASE, &s), A64_SITES_OK);
	CHECK_INT(s.ninsns, 17);
	CHECK_INT(s.ndata, 2);
	CHECK(is_site(&s, A64_SITE_ENTRY, 0));
	CHECK(!is_site(&s, A64_SITE_ENTRY, 4));
	for (size_t off = 0; off < sizeof(code); off += 4)
		CHECK_INT(is_site(&s, A64_SITE_OFFSET, off),
		    off != 0x40 && off != 0x44);

	/* returns: ret, b out, and the two conditional exits */
	for (size_t off = 0; off < sizeof(code); off += 4)
		CHECK_INT(is_site(&s, A64_SITE_RETURN, off),
		    off == 0x24 || off == 0x30 || off == 0x34 || off == 0x38 ||
			off == 0x48);
	p = a64_sites_find(&s, A64_SITE_RETURN, 0x34);
	CHECK(p != NULL && !p->tailcall && !p->cond);
	p = a64_sites_find(&s, A64_SITE_RETURN, 0x38);
	CHECK(p != NULL && p->tailcall && !p->cond);
	p = a64_sites_find(&s, A64_SITE_RETURN, 0x30);
	CHECK(p != NULL && p->tailcall && p->cond);
	p = a64_sites_find(&s, A64_SITE_RETURN, 0x24);
	CHECK(p != NULL && p->tailcall && p->cond);

	/* the exclusive sequence ldaxr .. stlxr, and brk, are refused */
	for (size_t off = 0; off < sizeof(code); off += 4) {
		int refused = (off >= 0x10 && off <= 0x1c) || off == 0x3c;

		if ((p = a64_sites_find(&s, A64_SITE_OFFSET, off)) == NULL)
			continue;
		CHECK_INT(!p->probeable, refused);
		CHECK_INT(p->reason != NULL, refused);
	}
	p = a64_sites_find(&s, A64_SITE_OFFSET, 0x14);
	CHECK(p != NULL && p->reason != NULL &&
	    strstr(p->reason, "exclusive") != NULL);
	p = a64_sites_find(&s, A64_SITE_OFFSET, 0x0c);
	CHECK(p != NULL && p->cls == A64_C_LDR_LIT &&
	    p->strategy == A64_STRAT_EMULATE);

	/* sorted, entry before offset before return at one offset */
	for (size_t i = 1; i < s.nsites; i++)
		CHECK(s.sites[i - 1].off < s.sites[i].off ||
		    (s.sites[i - 1].off == s.sites[i].off &&
			s.sites[i - 1].kind < s.sites[i].kind));
	a64_sites_free(&s);

	/* a size or address off the 4-byte grid: refused whole */
	CHECK_INT(a64_sites_scan(code, 10, BASE, &s), A64_SITES_REFUSED);
	CHECK(s.refused != NULL && s.nsites == 0);
	CHECK_INT(a64_sites_scan(code, 8, BASE + 2, &s), A64_SITES_REFUSED);
	CHECK_INT(a64_sites_scan(code, 0, BASE, &s), A64_SITES_REFUSED);
}

/* The same function through the ISA interface the pid provider uses. */
static void
test_isa_sites(void)
{
	dt_isa_sites_t s;
	size_t nret = 0, nalways = 0;
	const dt_isa_site_t *q;

	CHECK_INT(
	    dt_isa_sites_scan(code, sizeof(code), BASE, &s), DT_ISA_SITES_OK);
	for (size_t i = 0; i < s.nsites; i++) {
		const dt_isa_site_t *p = &s.sites[i];

		if (p->kind != DT_ISA_SITE_RETURN)
			continue;
		nret++;
		if (p->cond == DT_ISA_COND_ALWAYS)
			nalways++;
	}
	CHECK_INT(nret, 5);
	CHECK_INT(nalways, 3);
	/*
	 * It makes a frame (stp x29, x30; bl): the caller is where the call
	 * left it at the entry, at offset 0 and at return sites only.
	 */
	for (size_t i = 0; i < s.nsites; i++) {
		q = &s.sites[i];
		CHECK_INT(
		    q->atcall, q->kind != DT_ISA_SITE_OFFSET || q->off == 0);
	}
	/* b.eq: its condition (eq is 0) on the flags; cbz: on x1 */
	for (size_t i = 0; i < s.nsites; i++) {
		dt_isa_regcond_t rc;

		q = &s.sites[i];
		if (q->kind == DT_ISA_SITE_RETURN && q->off == 0x30) {
			CHECK_INT(q->cond, 0 + 1);
			CHECK(!dt_isa_cond_reg(q->cond - 1u, &rc));
		}
		if (q->kind == DT_ISA_SITE_RETURN && q->off == 0x24) {
			CHECK(q->cond != DT_ISA_COND_ALWAYS &&
			    q->cond != DT_ISA_COND_UNTESTED);
			CHECK(dt_isa_cond_reg(q->cond - 1u, &rc));
			CHECK_INT(rc.dr_reg, 1);
		}
	}
	dt_isa_sites_free(&s);
	CHECK_INT(dt_isa_sites_scan(code, 6, BASE, &s), DT_ISA_SITES_REFUSED);
	CHECK(s.refused != NULL);
	dt_isa_sites_free(&s);
	CHECK_STR(dt_isa_name, "aarch64");
	CHECK(!dt_isa_uprobe_unsafe(code, sizeof(code)));
	/* svc #0 and ldxr x1, [x0] are refused; nop and ret are not */
	CHECK(dt_isa_uprobe_doubtful((const uint8_t *) "\x01\x00\x00\xd4", 4));
	CHECK(dt_isa_uprobe_doubtful((const uint8_t *) "\x01\x7c\x5f\xc8", 4));
	CHECK(!dt_isa_uprobe_doubtful((const uint8_t *) "\x1f\x20\x03\xd5", 4));
	CHECK(!dt_isa_uprobe_doubtful((const uint8_t *) "\xc0\x03\x5f\xd6", 4));
	CHECK(dt_isa_uprobe_doubtful((const uint8_t *) "\x1f", 1));
}

static void
test_layout(void)
{
	const dt_isa_layout_t *il = &dt_isa_layout;

	/* struct user_pt_regs: regs[31], sp, pc, pstate */
	CHECK_INT(il->il_sp, 248);
	CHECK_INT(il->il_pc, 256);
	CHECK_INT(il->il_flags, 264);
	CHECK_INT(il->il_ret, 0);
	CHECK_INT(il->il_nargs, 8);
	for (int i = 0; i < 8; i++)
		CHECK_INT(il->il_args[i], 8 * i);
	CHECK_INT(il->il_nuregs, 34);
	CHECK_INT(il->il_uregs[30], 240); /* R_X30, the link */
	CHECK_INT(il->il_uregs[33], 264); /* R_PSTATE */
	CHECK_INT(il->il_fp, 232);	  /* x29 */
	CHECK_INT(il->il_lr, 240);	  /* x30 */
	CHECK_INT(il->il_mode, 264);
	CHECK_INT(il->il_modemask, 0xf); /* EL0t is 0 */
	CHECK_INT(il->il_modeuser, 0);
}

static int
regname(const char *name)
{
	for (const dt_isa_regname_t *r = dt_isa_regnames; r->ri_name; r++)
		if (strcmp(r->ri_name, name) == 0)
			return r->ri_index;
	return -1;
}

/* R_X0..R_X30, R_SP, R_PC, R_PSTATE and the common aliases. */
static void
test_regnames(void)
{
	const int16_t *u = dt_isa_layout.il_uregs;

	CHECK_INT(regname("R_X0"), 0);
	CHECK_INT(regname("R_X30"), 30);
	CHECK_INT(regname("R_SP"), 31);
	CHECK_INT(regname("R_PC"), 32);
	CHECK_INT(regname("R_PSTATE"), 33);
	CHECK_INT(regname("R_RIP"), -1);
	CHECK_INT(u[regname("R_PC")], dt_isa_layout.il_pc);
	CHECK_INT(u[regname("R_SP")], dt_isa_layout.il_sp);
	CHECK_INT(u[regname("R_FP")], dt_isa_layout.il_fp);
	CHECK_INT(u[regname("R_R0")], dt_isa_layout.il_ret);
	CHECK_INT(u[regname("R_PS")], dt_isa_layout.il_flags);
	for (const dt_isa_regname_t *r = dt_isa_regnames; r->ri_name; r++)
		CHECK(
		    r->ri_index >= 0 && r->ri_index < dt_isa_layout.il_nuregs);
	/* brk #0 */
	CHECK_INT(dt_isa_trap.it_len, 4);
	CHECK_INT(dt_isa_trap.it_insn[3], 0xd4);
	CHECK_INT(dt_isa_trap.it_pcadj, 0);
	CHECK_STR(dt_isa_linux_sysnr_member, "pt_regs.syscallno");
	CHECK(dt_isa_linux_syscalls[0].is_name == NULL);
}

/* Conditions over NZCV, the bits il_condbits[] names. */
static void
test_cond(void)
{
	const uint64_t n = 1ULL << 31, z = 1ULL << 30, c = 1ULL << 29,
		       v = 1ULL << 28;

	CHECK(dt_isa_cond_holds(0x0, z));  /* eq */
	CHECK(!dt_isa_cond_holds(0x1, z)); /* ne */
	CHECK(dt_isa_cond_holds(0x8, c));  /* hi: C and not Z */
	CHECK(!dt_isa_cond_holds(0x8, c | z));
	CHECK(dt_isa_cond_holds(0xa, n | v)); /* ge: N == V */
	CHECK(!dt_isa_cond_holds(0xc, z));    /* gt */
	CHECK(dt_isa_cond_holds(0xe, 0));     /* al */
	for (unsigned cc = 0; cc < 16; cc++) {
		uint64_t known = 0;

		for (int k = 0; k < dt_isa_layout.il_ncondbits; k++)
			known |= 1ULL << dt_isa_layout.il_condbits[k];
		for (uint64_t f = 0; f < 16; f++) {
			uint64_t flags = (f << 28) | 0x3c5;

			CHECK_INT(dt_isa_cond_holds(cc, flags),
			    dt_isa_cond_holds(cc, flags & known));
		}
	}
}

/*
 * Conditional tail calls on a register: each of these branches out of
 * the function (to f+0x40) is a return site whose condition
 * dt_isa_cond_reg() gives as the register, the bits it tests and
 * whether they must be zero; no flags make it hold.  Assembled by GNU as.
 */
static const uint32_t regbr[] = {
    0xb4000201, /* 0: cbz x1, 40 */
    0x350001e2, /* 4: cbnz w2, 40 */
    0xb64001c3, /* 8: tbz x3, #40, 40 */
    0x370001a4, /* c: tbnz w4, #0, 40 */
    0xb400019f, /* 10: cbz xzr, 40 */
    0x3728017f, /* 14: tbnz wzr, #5, 40 */
    0xd65f03c0, /* 18: ret */
};

/* Whether the branch of condition rc is taken with value v in its reg. */
static int
regcond_taken(const dt_isa_regcond_t *rc, uint64_t v)
{
	return ((v & rc->dr_mask) == 0) == (rc->dr_zero != 0);
}

static void
test_regcond(void)
{
	static const struct {
		unsigned reg;
		uint64_t mask;
		int zero;
		uint64_t taken, not_taken;
	} want[] = {
	    {1, UINT64_MAX, 1, 0, 1ULL << 40},
	    {2, UINT32_MAX, 0, 1, 1ULL << 32}, /* w2: low half */
	    {3, 1ULL << 40, 1, ~(1ULL << 40), 1ULL << 40}, {4, 1, 0, 1, 2},
	    {0, 0, 1, 0, 0}, /* xzr: always taken */
	    {0, 0, 0, 0, 0}, /* never taken */
	};
	uint8_t b[sizeof(regbr)];
	dt_isa_sites_t s;
	size_t n = 0;

	for (size_t i = 0; i < sizeof(regbr) / 4; i++)
		for (int k = 0; k < 4; k++)
			b[4 * i + k] = (uint8_t) (regbr[i] >> (8 * k));
	CHECK_INT(dt_isa_sites_scan(b, sizeof(b), BASE, &s), DT_ISA_SITES_OK);
	for (size_t i = 0; i < s.nsites; i++) {
		const dt_isa_site_t *q = &s.sites[i];
		dt_isa_regcond_t rc;
		size_t k = q->off / 4;

		/* A leaf that leaves x29 and x30 alone: no frame anywhere. */
		CHECK(q->atcall);
		if (q->kind != DT_ISA_SITE_RETURN || q->off == 0x18)
			continue;
		n++;
		CHECK(q->cond != DT_ISA_COND_ALWAYS &&
		    q->cond != DT_ISA_COND_UNTESTED);
		CHECK(dt_isa_cond_reg(q->cond - 1u, &rc));
		CHECK_INT(rc.dr_reg, want[k].reg);
		CHECK(rc.dr_mask == want[k].mask);
		CHECK_INT(rc.dr_zero, want[k].zero);
		CHECK(!dt_isa_cond_holds(q->cond - 1u, 0));
		CHECK(!dt_isa_cond_holds(q->cond - 1u, 0xfULL << 28));
		if (k < 5)
			CHECK(regcond_taken(&rc, want[k].taken));
		if (k != 4)
			CHECK(!regcond_taken(&rc, want[k].not_taken));
	}
	CHECK_INT(n, 6);
	dt_isa_sites_free(&s);
}

static void
op(const char *s, int kind, int reg, int size, long long val)
{
	dt_isa_operand_t o;

	dt_isa_usdt_operand(s, &o);
	if (o.io_kind != kind)
		printf("operand \"%s\"\n", s);
	CHECK_INT(o.io_kind, kind);
	if (kind == DT_ISA_OP_NONE)
		return;
	if (kind != DT_ISA_OP_CONST)
		CHECK_INT(o.io_reg, reg);
	if (kind == DT_ISA_OP_REG)
		CHECK_INT(o.io_regsize, size);
	else
		CHECK_INT(o.io_val, val);
}

static void
test_usdt(void)
{
	op("x0", DT_ISA_OP_REG, 0, 8, 0);
	op("x1", DT_ISA_OP_REG, 8, 8, 0);
	op("w19", DT_ISA_OP_REG, 152, 4, 0);
	op("x30", DT_ISA_OP_REG, 240, 8, 0);
	op("sp", DT_ISA_OP_REG, 248, 8, 0);
	op("xzr", DT_ISA_OP_CONST, 0, 0, 0);
	op("[x0, 8]", DT_ISA_OP_MEM, 0, 0, 8);
	op("[sp, 12]", DT_ISA_OP_MEM, 248, 0, 12);
	op("[x29, -4]", DT_ISA_OP_MEM, 232, 0, -4);
	op("[x29, #-16]", DT_ISA_OP_MEM, 232, 0, -16);
	op("[x2]", DT_ISA_OP_MEM, 16, 0, 0);
	op("#5", DT_ISA_OP_CONST, 0, 0, 5);
	op("#-1", DT_ISA_OP_CONST, 0, 0, -1);
	op("42", DT_ISA_OP_CONST, 0, 0, 42);
	/* what is not understood reads as 0 */
	op("x31", DT_ISA_OP_NONE, 0, 0, 0);
	op("[w0, 8]", DT_ISA_OP_NONE, 0, 0, 0);
	op("[x0, x1]", DT_ISA_OP_NONE, 0, 0, 0);
	op("[x0, 8", DT_ISA_OP_NONE, 0, 0, 0);
	op("x0,", DT_ISA_OP_NONE, 0, 0, 0);
	op("%rdi", DT_ISA_OP_NONE, 0, 0, 0);
	op("sym", DT_ISA_OP_NONE, 0, 0, 0);
	op("", DT_ISA_OP_NONE, 0, 0, 0);
}

int
main(void)
{
	load();
	test_scan();
	test_isa_sites();
	test_layout();
	test_regnames();
	test_cond();
	test_regcond();
	test_usdt();
	return unit_done();
}
