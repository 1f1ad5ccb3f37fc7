/* SPDX-License-Identifier: MIT */
/*
 * x86_isa_test.c: x86-64's member of isa/dt_isa.h as the pid provider
 * and the BPF engine use it: return sites with the condition the engine
 * tests, the conditions themselves, the pt_regs layout, the uregs[]
 * names of the D prelude, the calling thread's registers, and USDT
 * operands.
 */

#include <string.h>

#include "isa/dt_isa.h"
#include "tests/unit/unit.h"

static const dt_isa_site_t *
find(const dt_isa_sites_t *s, dt_isa_site_kind_t k, uint32_t off)
{
	for (size_t i = 0; i < s->nsites; i++)
		if (s->sites[i].kind == k && s->sites[i].off == off)
			return &s->sites[i];
	return NULL;
}

static void
test_sites(void)
{
	static const uint8_t code[] = {
	    0x75, 0x10,			  /* 0: jne out */
	    0xc3,			  /* 2: ret */
	    0xe9, 0x00, 0x01, 0x00, 0x00, /* 3: jmp out */
	    0xe2, 0xf0,			  /* 8: loop out */
	    0xc3,			  /* a: ret */
	};
	dt_isa_sites_t s;
	const dt_isa_site_t *p;

	CHECK_INT(
	    dt_isa_sites_scan(code, sizeof(code), 0x1000, &s), DT_ISA_SITES_OK);
	CHECK(find(&s, DT_ISA_SITE_ENTRY, 0) != NULL);
	CHECK(find(&s, DT_ISA_SITE_OFFSET, 3) != NULL);
	CHECK(find(&s, DT_ISA_SITE_OFFSET, 4) == NULL);
	p = find(&s, DT_ISA_SITE_RETURN, 0);
	CHECK(p != NULL && p->tailcall && p->cond == 5 + 1); /* ne */
	p = find(&s, DT_ISA_SITE_RETURN, 2);
	CHECK(p != NULL && !p->tailcall && p->cond == DT_ISA_COND_ALWAYS);
	p = find(&s, DT_ISA_SITE_RETURN, 3);
	CHECK(p != NULL && p->tailcall && p->cond == DT_ISA_COND_ALWAYS);
	p = find(&s, DT_ISA_SITE_RETURN, 8);
	CHECK(p != NULL && p->cond == DT_ISA_COND_UNTESTED);
	/* the return address on top of the stack: offset 0, returns */
	CHECK(find(&s, DT_ISA_SITE_OFFSET, 0)->atcall);
	CHECK(!find(&s, DT_ISA_SITE_OFFSET, 3)->atcall);
	CHECK(find(&s, DT_ISA_SITE_RETURN, 3)->atcall);
	dt_isa_sites_free(&s);

	/* bytes that do not decode: refused, with a reason */
	CHECK_INT(
	    dt_isa_sites_scan((const uint8_t *) "\x0f\x0b\x0f", 3, 0x1000, &s),
	    DT_ISA_SITES_REFUSED);
	CHECK(s.refused != NULL && s.nsites == 0);
	dt_isa_sites_free(&s);
}

static void
test_layout(void)
{
	const dt_isa_layout_t *il = &dt_isa_layout;

	CHECK_STR(dt_isa_name, "x86_64");
	CHECK_INT(il->il_pc, 128); /* pt_regs.ip */
	CHECK_INT(il->il_sp, 152);
	CHECK_INT(il->il_ret, 80); /* ax */
	CHECK_INT(il->il_nargs, 6);
	CHECK_INT(il->il_args[0], 112); /* di */
	CHECK_INT(il->il_args[5], 64);	/* r9 */
	CHECK_INT(il->il_nuregs, 47);
	CHECK_INT(il->il_uregs[11], 80); /* R_EAX */
	CHECK_INT(il->il_uregs[0], -1);	 /* R_GS: not kept */
	CHECK_INT(il->il_fp, 32);	 /* bp */
	CHECK_INT(il->il_lr, -1);	 /* the return address is at sp */
	CHECK_INT(il->il_mode, 136);	 /* cs */
	CHECK_INT(il->il_modemask & 3, 3);
}

static int
regname(const char *name)
{
	for (const dt_isa_regname_t *r = dt_isa_regnames; r->ri_name; r++)
		if (strcmp(r->ri_name, name) == 0)
			return r->ri_index;
	return -1;
}

/*
 * The prelude's names: illumos's amd64 numbers, the aliases, and each
 * naming the pt_regs word the name says.
 */
static void
test_regnames(void)
{
	const int16_t *u = dt_isa_layout.il_uregs;

	CHECK_INT(regname("R_PC"), 14);
	CHECK_INT(regname("R_SP"), 17);
	CHECK_INT(regname("R_RAX"), 33);
	CHECK_INT(regname("R_GSBASE"), 46);
	CHECK_INT(u[regname("R_PC")], dt_isa_layout.il_pc);
	CHECK_INT(u[regname("R_RIP")], dt_isa_layout.il_pc);
	CHECK_INT(u[regname("R_SP")], dt_isa_layout.il_sp);
	CHECK_INT(u[regname("R_FP")], dt_isa_layout.il_fp);
	CHECK_INT(u[regname("R_R0")], dt_isa_layout.il_ret);
	CHECK_INT(u[regname("R_PS")], dt_isa_layout.il_flags);
	CHECK_INT(u[regname("R_RDI")], dt_isa_layout.il_args[0]);
	for (const dt_isa_regname_t *r = dt_isa_regnames; r->ri_name; r++)
		CHECK(
		    r->ri_index >= 0 && r->ri_index < dt_isa_layout.il_nuregs);
	CHECK_STR(dt_isa_fputypes, "i387 compatible");
	CHECK_INT(dt_isa_trap.it_len, 1);
	CHECK_INT(dt_isa_trap.it_insn[0], 0xcc);
	CHECK_INT(dt_isa_trap.it_pcadj, 1);
}

/* Conditions over the flag bits il_condbits[] names, as the BPF engine */
/* builds its truth table. */
static void
test_cond(void)
{
	const uint64_t cf = 1, zf = 1 << 6, sf = 1 << 7, of = 1 << 11;

	CHECK(dt_isa_cond_holds(0x4, zf));  /* e */
	CHECK(!dt_isa_cond_holds(0x5, zf)); /* ne */
	CHECK(dt_isa_cond_holds(0x6, cf));  /* be */
	CHECK(dt_isa_cond_holds(0xc, sf));  /* l: SF != OF */
	CHECK(!dt_isa_cond_holds(0xc, sf | of));
	CHECK(dt_isa_cond_holds(0xe, zf | sf | of)); /* le */
	CHECK_INT(dt_isa_layout.il_ncondbits, 5);
	/* Every flag a condition reads is among il_condbits[]. */
	for (unsigned cc = 0; cc < 16; cc++) {
		uint64_t known = 0;

		for (int k = 0; k < dt_isa_layout.il_ncondbits; k++)
			known |= 1ULL << dt_isa_layout.il_condbits[k];
		for (uint64_t f = 0; f < 4096; f++)
			CHECK_INT(dt_isa_cond_holds(cc, f),
			    dt_isa_cond_holds(cc, f & known));
	}
}

/* The calling thread's registers: the pc is in this file's code. */
static void
test_uregs_self(void)
{
	uint64_t r[64];
	size_t n = dt_isa_linux_uregs_self(r, 64);

	CHECK_INT(n, dt_isa_layout.il_nuregs);
	CHECK(r[regname("R_SP")] != 0);
	CHECK(r[regname("R_SP")] == r[regname("R_RSP")]);
	CHECK((r[regname("R_CS")] & 3) == 3); /* user mode */
	CHECK_INT(r[regname("R_GS")], 0);     /* not kept */
	CHECK_INT(dt_isa_linux_uregs_self(r, 3), 3);
}

static void
test_usdt(void)
{
	dt_isa_operand_t o;

	dt_isa_usdt_operand("%ah", &o);
	CHECK_INT(o.io_kind, DT_ISA_OP_REG);
	CHECK_INT(o.io_shift, 8);
	CHECK_INT(o.io_regsize, 1);
	dt_isa_usdt_operand("-16(%rbp)", &o);
	CHECK_INT(o.io_kind, DT_ISA_OP_MEM);
	CHECK_INT(o.io_reg, 32);
	CHECK_INT(o.io_val, -16);
	dt_isa_usdt_operand("8(%rip)", &o);
	CHECK_INT(o.io_kind, DT_ISA_OP_NONE);
	dt_isa_usdt_operand("[x0, 8]", &o);
	CHECK_INT(o.io_kind, DT_ISA_OP_NONE);
}

/* Where the kernel's uprobe is not trusted: EVEX (AVX-512) only. */
static void
test_uprobe_unsafe(void)
{
	/* vmovdqa32 (%rdi), %zmm0; with a segment prefix; vmovdqa (VEX) */
	CHECK(dt_isa_uprobe_unsafe(
	    (const uint8_t *) "\x62\xf1\x7d\x48\x6f\x07", 6));
	CHECK(dt_isa_uprobe_unsafe(
	    (const uint8_t *) "\x64\x62\xf1\x7d\x48\x6f\x07", 7));
	CHECK(!dt_isa_uprobe_unsafe((const uint8_t *) "\xc5\xfd\x6f\x07", 4));
	CHECK(!dt_isa_uprobe_unsafe((const uint8_t *) "\x48\x89\xe5", 3));
	CHECK(!dt_isa_uprobe_unsafe((const uint8_t *) "\x62", 1)); /* cut */
}

/*
 * What the kernel's uprobes are expected to refuse: each refused case was
 * seen refused (ENOTSUPP) by Linux 6.18, each accepted one seen traced.
 */
static void
test_uprobe_doubtful(void)
{
	static const struct {
		const char *bytes;
		size_t len;
		int doubtful;
	} c[] = {
	    {"\xf0\xff\x0f", 3, 1},		 /* lock decl (%rdi) */
	    {"\xf0\x0f\xba\xaf\x08\x03\x00\x00\x05", 9, 1}, /* lock bts */
	    {"\xc5\xf9\x6e\xc6", 4, 1},	 /* vmovd %esi,%xmm0 */
	    {"\xc4\x41\x01\xef\xff", 5, 1},	 /* vpxor: EF is out */
	    {"\xc5\xfe\x6f\x04\x24", 5, 1},	 /* vmovdqu (%rsp),%ymm0 */
	    {"\x3e\xff\xe0", 3, 1},		 /* notrack jmp *%rax */
	    {"\x0f\x05", 2, 1},		 /* syscall */
	    {"\xcc", 1, 1},			 /* int3 */
	    {"\xf4", 1, 1},			 /* hlt */
	    {"\x0f", 1, 1},			 /* cut: not decodable */
	    {"\xf3\x0f\x1e\xfa", 4, 0},	 /* endbr64 */
	    {"\x55", 1, 0},			 /* push %rbp */
	    {"\x64\x48\x8b\x04\x25\x28\x00\x00\x00", 9, 0}, /* fs: mov */
	    {"\x66\x0f\x38\x00\xc1", 5, 0},	 /* pshufb */
	    {"\x66\x0f\x3a\x0f\xc1\x01", 6, 0}, /* palignr */
	    {"\xf3\x0f\xb8\xc0", 4, 0},	 /* popcnt */
	    {"\xc5\xf8\x77", 3, 0},		 /* vzeroupper */
	    {"\x0f\x31", 2, 0},		 /* rdtsc */
	    {"\xe8\x00\x00\x00\x00", 5, 0},	 /* call */
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		CHECK_INT(dt_isa_uprobe_doubtful(
			      (const uint8_t *) c[i].bytes, c[i].len),
		    c[i].doubtful);
}

int
main(void)
{
	test_uprobe_unsafe();
	test_uprobe_doubtful();
	test_sites();
	test_layout();
	test_regnames();
	test_cond();
	test_uregs_self();
	test_usdt();
	return unit_done();
}
