/*
 * x86_isa_test.c: x86-64's member of isa/dt_isa.h as the pid provider
 * and the BPF engine use it: return sites with the condition the engine
 * tests, the pt_regs layout, and USDT operands.
 */

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

int
main(void)
{
	test_uprobe_unsafe();
	test_sites();
	test_layout();
	test_usdt();
	return unit_done();
}
