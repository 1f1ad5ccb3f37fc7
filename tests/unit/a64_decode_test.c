/* SPDX-License-Identifier: MIT */
/*
 * a64_decode_test.c: the AArch64 decoder and emulator (isa/aarch64) on
 * encodings and targets produced by GNU as and objdump for aarch64, and
 * the emulated effect of every emulated class as the Arm architecture
 * defines it.  Pure functions: runs on any host.
 */

#include "isa/aarch64/a64_decode.h"
#include "isa/aarch64/a64_emulate.h"
#include "tests/unit/unit.h"

#define BASE 0x400000

/* Assembled at BASE; the targets are objdump's. */
static const struct {
	uint32_t word;
	uint32_t off;
	a64_class_t cls;
	uint64_t target;
} rows[] = {
    {0x10000aa0, 0x0, A64_C_ADR, 0x400000 + 0x154},	 /* adr x0, 154 */
    {0x90000001, 0x4, A64_C_ADRP, 0x400000 + 0x0},	 /* adrp x1, 0 */
    {0x10ffffde, 0x8, A64_C_ADR, 0x400000 + 0x0},	 /* adr x30, 0 */
    {0x18000a42, 0xc, A64_C_LDR_LIT, 0x400000 + 0x154},	 /* ldr w2, 154 */
    {0x58ffff83, 0x10, A64_C_LDR_LIT, 0x400000 + 0x0},	 /* ldr x3, 0 */
    {0x98000a04, 0x14, A64_C_LDR_LIT, 0x400000 + 0x154}, /* ldrsw x4, 154 */
    {0x1c0009e5, 0x18, A64_C_LDR_LIT, 0x400000 + 0x154}, /* ldr s5, 154 */
    {0x5cffff26, 0x1c, A64_C_LDR_LIT, 0x400000 + 0x0},	 /* ldr d6, 0 */
    {0x9c0009a7, 0x20, A64_C_LDR_LIT, 0x400000 + 0x154}, /* ldr q7, 154 */
    {0xd8000980, 0x24, A64_C_PRFM_LIT,
	0x400000 + 0x154},			       /* prfm pldl1keep, 154 */
    {0x17fffff6, 0x28, A64_C_B, 0x400000 + 0x0},       /* b 0 */
    {0x9400004a, 0x2c, A64_C_BL, 0x400000 + 0x154},    /* bl 154 */
    {0x54fffe80, 0x30, A64_C_BCOND, 0x400000 + 0x0},   /* b.eq 0 */
    {0x54000901, 0x34, A64_C_BCOND, 0x400000 + 0x154}, /* b.ne 154 */
    {0x540008e8, 0x38, A64_C_BCOND, 0x400000 + 0x154}, /* b.hi 154 */
    {0x540008ce, 0x3c, A64_C_BCOND, 0x400000 + 0x154}, /* b.al 154 */
    {0x34fffe05, 0x40, A64_C_CBZ, 0x400000 + 0x0},     /* cbz w5, 0 */
    {0xb5000886, 0x44, A64_C_CBNZ, 0x400000 + 0x154},  /* cbnz x6, 154 */
    {0x361ffdc7, 0x48, A64_C_TBZ, 0x400000 + 0x0},     /* tbz w7, #3, 0 */
    {0xb7400848, 0x4c, A64_C_TBNZ, 0x400000 + 0x154},  /* tbnz x8, #40, 154 */
    {0xb6fffd89, 0x50, A64_C_TBZ, 0x400000 + 0x0},     /* tbz x9, #63, 0 */
    {0xd65f03c0, 0x54, A64_C_RET, 0},		       /* ret  */
    {0xd65f0020, 0x58, A64_C_RET, 0},		       /* ret x1 */
    {0xd61f0040, 0x5c, A64_C_BR, 0},		       /* br x2 */
    {0xd63f0060, 0x60, A64_C_BLR, 0},		       /* blr x3 */
    {0xd63f03c0, 0x64, A64_C_BLR, 0},		       /* blr x30 */
    {0xd65f0bff, 0x68, A64_C_RET_PAC, 0},	       /* retaa  */
    {0xd65f0fff, 0x6c, A64_C_RET_PAC, 0},	       /* retab  */
    {0xd71f0822, 0x70, A64_C_BR_PAC, 0},	       /* braa x1, x2 */
    {0xd71f0c7f, 0x74, A64_C_BR_PAC, 0},	       /* brab x3, sp */
    {0xd61f089f, 0x78, A64_C_BR_PAC, 0},	       /* braaz x4 */
    {0xd61f0cbf, 0x7c, A64_C_BR_PAC, 0},	       /* brabz x5 */
    {0xd73f08c7, 0x80, A64_C_BLR_PAC, 0},	       /* blraa x6, x7 */
    {0xd73f0d09, 0x84, A64_C_BLR_PAC, 0},	       /* blrab x8, x9 */
    {0xd63f087f, 0x88, A64_C_BLR_PAC, 0},	       /* blraaz x3 */
    {0xd63f0d5f, 0x8c, A64_C_BLR_PAC, 0},	       /* blrabz x10 */
    {0xd503233f, 0x90, A64_C_PAC_HINT, 0},	       /* paciasp  */
    {0xd50323bf, 0x94, A64_C_PAC_HINT, 0},	       /* autiasp  */
    {0xd503237f, 0x98, A64_C_PAC_HINT, 0},	       /* pacibsp  */
    {0xd50323ff, 0x9c, A64_C_PAC_HINT, 0},	       /* autibsp  */
    {0xd503231f, 0xa0, A64_C_PAC_HINT, 0},	       /* paciaz  */
    {0xd503219f, 0xa4, A64_C_PAC_HINT, 0},	       /* autia1716  */
    {0xd50320ff, 0xa8, A64_C_PAC_HINT, 0},	       /* xpaclri  */
    {0xd503241f, 0xac, A64_C_BTI, 0},		       /* bti  */
    {0xd503245f, 0xb0, A64_C_BTI, 0},		       /* bti c */
    {0xd503249f, 0xb4, A64_C_BTI, 0},		       /* bti j */
    {0xd50324df, 0xb8, A64_C_BTI, 0},		       /* bti jc */
    {0xc85f7c20, 0xbc, A64_C_LDEX, 0},		       /* ldxr x0, [x1] */
    {0x085f7c20, 0xc0, A64_C_LDEX, 0},		       /* ldxrb w0, [x1] */
    {0x485f7c20, 0xc4, A64_C_LDEX, 0},		       /* ldxrh w0, [x1] */
    {0x885ffc62, 0xc8, A64_C_LDEX, 0},		       /* ldaxr w2, [x3] */
    {0xc87f0440, 0xcc, A64_C_LDEX, 0},		       /* ldxp x0, x1, [x2] */
    {0x887f8440, 0xd0, A64_C_LDEX, 0},		       /* ldaxp w0, w1, [x2] */
    {0xc8007c41, 0xd4, A64_C_STEX, 0},		       /* stxr w0, x1, [x2] */
    {0x08007c41, 0xd8, A64_C_STEX, 0},		       /* stxrb w0, w1, [x2] */
    {0x8804fcc5, 0xdc, A64_C_STEX, 0},		       /* stlxr w4, w5, [x6] */
    {0xc8200861, 0xe0, A64_C_STEX, 0},	 /* stxp w0, x1, x2, [x3] */
    {0xc82290a3, 0xe4, A64_C_STEX, 0},	 /* stlxp w2, x3, x4, [x5] */
    {0xc8dffc20, 0xe8, A64_C_OTHER, 0},	 /* ldar x0, [x1] */
    {0x889ffc20, 0xec, A64_C_OTHER, 0},	 /* stlr w0, [x1] */
    {0xf8bfc020, 0xf0, A64_C_OTHER, 0},	 /* ldapr x0, [x1] */
    {0xc8e0fc41, 0xf4, A64_C_OTHER, 0},	 /* casal x0, x1, [x2] */
    {0x48207c82, 0xf8, A64_C_OTHER, 0},	 /* casp x0, x1, x2, x3, [x4] */
    {0xf8200041, 0xfc, A64_C_OTHER, 0},	 /* ldadd x0, x1, [x2] */
    {0xb8208041, 0x100, A64_C_OTHER, 0}, /* swp w0, w1, [x2] */
    {0xd5033f5f, 0x104, A64_C_CLREX, 0}, /* clrex  */
    {0xd503355f, 0x108, A64_C_CLREX, 0}, /* clrex #0x5 */
    {0xd4000001, 0x10c, A64_C_SVC, 0},	 /* svc #0x0 */
    {0xd4001001, 0x110, A64_C_SVC, 0},	 /* svc #0x80 */
    {0xd4000022, 0x114, A64_C_HVC, 0},	 /* hvc #0x1 */
    {0xd4000043, 0x118, A64_C_SMC, 0},	 /* smc #0x2 */
    {0xd4207d00, 0x11c, A64_C_BRK, 0},	 /* brk #0x3e8 */
    {0xd4400020, 0x120, A64_C_HLT, 0},	 /* hlt #0x1 */
    {0x00000003, 0x124, A64_C_UDF, 0},	 /* udf #3 */
    {0xd503201f, 0x128, A64_C_OTHER, 0}, /* nop  */
    {0xd503203f, 0x12c, A64_C_OTHER, 0}, /* yield  */
    {0x8b020020, 0x130, A64_C_OTHER, 0}, /* add x0, x1, x2 */
    {0xf9400420, 0x134, A64_C_OTHER, 0}, /* ldr x0, [x1, #8] */
    {0xf84107e0, 0x138, A64_C_OTHER, 0}, /* ldr x0, [sp], #16 */
    {0xa9bf7bfd, 0x13c, A64_C_OTHER, 0}, /* stp x29, x30, [sp, #-16]! */
    {0x910003fd, 0x140, A64_C_OTHER, 0}, /* mov x29, sp */
    {0xd53bd040, 0x144, A64_C_OTHER, 0}, /* mrs x0, tpidr_el0 */
    {0xd69f03e0, 0x148, A64_C_ERET, 0},	 /* eret  */
    {0xd6bf03e0, 0x14c, A64_C_ERET, 0},	 /* drps  */
    {0xd503213f, 0x150, A64_C_OTHER, 0}, /* hint #0x9 */
    {0xd503201f, 0x154, A64_C_OTHER, 0}, /* nop  */
};

static void
test_table(void)
{
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		a64_insn_t in;

		a64_decode(rows[i].word, BASE + rows[i].off, &in);
		if (in.cls != rows[i].cls)
			printf("word %08x: class %s, want %s\n", rows[i].word,
			    a64_class_name(in.cls),
			    a64_class_name(rows[i].cls));
		CHECK_INT(in.cls, rows[i].cls);
		if (a64_class_pcrel(rows[i].cls))
			CHECK_INT(in.target, rows[i].target);
	}
}

/* Operand fields, from the same encodings. */
static void
test_fields(void)
{
	a64_insn_t in;

	a64_decode(0x18000a42, BASE, &in); /* ldr w2, lit */
	CHECK_INT(in.rt, 2);
	CHECK_INT(in.size, 4);
	CHECK(!in.sign && !in.simd);
	a64_decode(0x98000a04, BASE, &in); /* ldrsw x4, lit */
	CHECK_INT(in.size, 4);
	CHECK(in.sign);
	a64_decode(0x9c0009a7, BASE, &in); /* ldr q7, lit */
	CHECK_INT(in.size, 16);
	CHECK(in.simd);
	CHECK_INT(in.rt, 7);
	a64_decode(0x5cffff26, BASE, &in); /* ldr d6, lit */
	CHECK_INT(in.size, 8);
	a64_decode(0x540008e8, BASE, &in); /* b.hi */
	CHECK_INT(in.cond, 8);
	a64_decode(0xb7400848, BASE, &in); /* tbnz x8, #40 */
	CHECK_INT(in.bit, 40);
	CHECK_INT(in.rt, 8);
	a64_decode(0xb6fffd89, BASE, &in); /* tbz x9, #63 */
	CHECK_INT(in.bit, 63);
	a64_decode(0x34fffe05, BASE, &in); /* cbz w5 */
	CHECK_INT(in.size, 4);
	a64_decode(0xb5000886, BASE, &in); /* cbnz x6 */
	CHECK_INT(in.size, 8);
	a64_decode(0xd65f0020, BASE, &in); /* ret x1 */
	CHECK_INT(in.rn, 1);
	a64_decode(0xd4001001, BASE, &in); /* svc #0x80 */
	CHECK_INT(in.imm, 0x80);
	/* adrp back from a high, unaligned pc (objdump --adjust-vma) */
	a64_decode(0xf0fffd80, UINT64_C(0x7ffff7b12344), &in);
	CHECK_INT(in.cls, A64_C_ADRP);
	CHECK_INT(in.target, UINT64_C(0x7ffff7ac5000));
	/* b to -128 MiB, the farthest back */
	a64_decode(0x16000000, UINT64_C(0x10000000), &in);
	CHECK_INT(in.target, UINT64_C(0x08000000));
	/* unallocated ldr literal (opc 11, V 1): not a literal load */
	a64_decode(0xdc000000, BASE, &in);
	CHECK_INT(in.cls, A64_C_OTHER);
}

/* Memory for literal loads: 64 bytes at 0x1000, the rest faults. */
static uint8_t mem_bytes[64];

static int
mem_read(void *arg, uint64_t addr, void *buf, size_t len)
{
	(void) arg;
	if (addr < 0x1000 || addr + len > 0x1000 + sizeof(mem_bytes))
		return -1;
	memcpy(buf, mem_bytes + (addr - 0x1000), len);
	return 0;
}

static const a64_memops_t mops = {mem_read, NULL, NULL};

/* Emulate one word at pc on a register file; the result. */
static int
emu(uint32_t w, uint64_t pc, a64_regs_t *r, uint64_t *fault)
{
	a64_insn_t in;

	a64_decode(w, pc, &in);
	r->pc = pc;
	return a64_emulate(&in, r, &mops, fault);
}

static void
test_emulate_data(void)
{
	a64_regs_t r, before;
	uint64_t fault = 0;

	memset(&r, 0xa5, sizeof(r));
	for (unsigned i = 0; i < sizeof(mem_bytes); i++)
		mem_bytes[i] = (uint8_t) (0xf0 + i);

	/* adr x0, +0x154 */
	CHECK_INT(emu(0x10000aa0, BASE, &r, NULL), A64_EMU_OK);
	CHECK_INT(r.x[0], BASE + 0x154);
	CHECK_INT(r.pc, BASE + 4);
	/* adrp x1, page of 0x400000 from 0x400ffc */
	CHECK_INT(emu(0x90000001, BASE + 0xffc, &r, NULL), A64_EMU_OK);
	CHECK_INT(r.x[1], BASE);
	/* adr xzr-numbered destination is discarded: adr with rd 31 */
	before = r;
	CHECK_INT(emu(0x1000001f, BASE, &r, NULL), A64_EMU_OK);
	CHECK(memcmp(r.x, before.x, sizeof(r.x)) == 0);
	CHECK_INT(r.sp, before.sp);

	/* ldr w2, [pc + 0x10] at 0xff0: zero-extended 32 bits */
	r.x[2] = ~UINT64_C(0);
	CHECK_INT(emu(0x18000082, 0xff0, &r, NULL), A64_EMU_OK);
	CHECK_INT(r.x[2], UINT64_C(0xf3f2f1f0));
	/* ldrsw x4 of a negative word */
	CHECK_INT(emu(0x98000084, 0xff0, &r, NULL), A64_EMU_OK);
	CHECK_INT(r.x[4], UINT64_C(0xfffffffff3f2f1f0));
	/* ldr x3: 8 bytes */
	CHECK_INT(emu(0x58000083, 0xff0, &r, NULL), A64_EMU_OK);
	CHECK_INT(r.x[3], UINT64_C(0xf7f6f5f4f3f2f1f0));
	/* ldr q7: 16 bytes */
	CHECK_INT(emu(0x9c000087, 0xff0, &r, NULL), A64_EMU_OK);
	CHECK_INT(r.v[7][0], UINT64_C(0xf7f6f5f4f3f2f1f0));
	CHECK_INT(r.v[7][1], UINT64_C(0xfffefdfcfbfaf9f8));
	/* ldr s5: the rest of v5 cleared */
	r.v[5][1] = 1;
	CHECK_INT(emu(0x1c000085, 0xff0, &r, NULL), A64_EMU_OK);
	CHECK_INT(r.v[5][0], UINT64_C(0xf3f2f1f0));
	CHECK_INT(r.v[5][1], 0);
	/* ldr x3 from an unreadable literal: fault, nothing changed */
	r.pc = 0xff0;
	before = r;
	CHECK_INT(emu(0x58ffff83, 0xff0, &r, &fault), A64_EMU_FAULT);
	CHECK_INT(fault, 0xff0 - 0x10);
	CHECK(memcmp(&r, &before, sizeof(r)) == 0);
	/* prfm: only the pc moves */
	before = r;
	CHECK_INT(emu(0xd8000980, BASE, &r, NULL), A64_EMU_OK);
	CHECK_INT(r.pc, BASE + 4);
	CHECK(memcmp(r.x, before.x, sizeof(r.x)) == 0);
	/* pc not the instruction's: refused, untouched */
	{
		a64_insn_t in;

		a64_decode(0x14000010, BASE, &in);
		r.pc = BASE + 8;
		CHECK_INT(
		    a64_emulate(&in, &r, &mops, NULL), A64_EMU_UNSUPPORTED);
		CHECK_INT(r.pc, BASE + 8);
	}
}

static void
test_emulate_branches(void)
{
	a64_regs_t r;

	memset(&r, 0, sizeof(r));
	/* b back 0x28, bl forward 0x128 with link */
	CHECK_INT(emu(0x17fffff6, BASE + 0x28, &r, NULL), A64_EMU_OK);
	CHECK_INT(r.pc, BASE);
	CHECK_INT(emu(0x9400004a, BASE + 0x2c, &r, NULL), A64_EMU_OK);
	CHECK_INT(r.pc, BASE + 0x154);
	CHECK_INT(r.x[30], BASE + 0x30);

	/* b.ne: taken with Z clear, not with Z set */
	r.pstate = 0;
	CHECK_INT(emu(0x54000901, BASE + 0x34, &r, NULL), A64_EMU_OK);
	CHECK_INT(r.pc, BASE + 0x154);
	r.pstate = UINT64_C(1) << 30;
	CHECK_INT(emu(0x54000901, BASE + 0x34, &r, NULL), A64_EMU_OK);
	CHECK_INT(r.pc, BASE + 0x38);

	/* cbz w5 looks at 32 bits only */
	r.x[5] = UINT64_C(0x100000000);
	CHECK_INT(emu(0x34fffe05, BASE + 0x40, &r, NULL), A64_EMU_OK);
	CHECK_INT(r.pc, BASE);
	/* cbnz x6 of 0: falls through */
	r.x[6] = 0;
	CHECK_INT(emu(0xb5000886, BASE + 0x44, &r, NULL), A64_EMU_OK);
	CHECK_INT(r.pc, BASE + 0x48);
	/* tbnz x8, #40 */
	r.x[8] = UINT64_C(1) << 40;
	CHECK_INT(emu(0xb7400848, BASE + 0x4c, &r, NULL), A64_EMU_OK);
	CHECK_INT(r.pc, BASE + 0x154);
	r.x[8] = ~(UINT64_C(1) << 40);
	CHECK_INT(emu(0xb7400848, BASE + 0x4c, &r, NULL), A64_EMU_OK);
	CHECK_INT(r.pc, BASE + 0x50);
	/* tbz w7, #3 */
	r.x[7] = 8;
	CHECK_INT(emu(0x361ffdc7, BASE + 0x48, &r, NULL), A64_EMU_OK);
	CHECK_INT(r.pc, BASE + 0x4c);

	/* ret, ret x1, br x2, blr x3, blr x30 (reads x30 before linking) */
	r.x[30] = 0x5000;
	r.x[1] = 0x6000;
	r.x[2] = 0x7000;
	r.x[3] = 0x8000;
	CHECK_INT(emu(0xd65f03c0, BASE, &r, NULL), A64_EMU_OK);
	CHECK_INT(r.pc, 0x5000);
	CHECK_INT(emu(0xd65f0020, BASE, &r, NULL), A64_EMU_OK);
	CHECK_INT(r.pc, 0x6000);
	CHECK_INT(emu(0xd61f0040, BASE, &r, NULL), A64_EMU_OK);
	CHECK_INT(r.pc, 0x7000);
	CHECK_INT(emu(0xd63f0060, BASE + 0x60, &r, NULL), A64_EMU_OK);
	CHECK_INT(r.pc, 0x8000);
	CHECK_INT(r.x[30], BASE + 0x64);
	r.x[30] = 0x9000;
	CHECK_INT(emu(0xd63f03c0, BASE + 0x64, &r, NULL), A64_EMU_OK);
	CHECK_INT(r.pc, 0x9000);
	CHECK_INT(r.x[30], BASE + 0x68);
}

/* Every condition code against every NZCV, from the Arm definitions. */
static void
test_cond(void)
{
	for (unsigned f = 0; f < 16; f++) {
		uint64_t ps = (uint64_t) f << 28;
		int n = f >> 3 & 1, z = f >> 2 & 1, c = f >> 1 & 1, v = f & 1;
		int want[16] = {
		    z,
		    !z,
		    c,
		    !c,
		    n,
		    !n,
		    v,
		    !v,
		    c && !z,
		    !(c && !z),
		    n == v,
		    n != v,
		    !z && n == v,
		    !(!z && n == v),
		    1,
		    1,
		};

		for (unsigned cc = 0; cc < 16; cc++)
			CHECK_INT(a64_cond(cc, ps), want[cc]);
	}
}

static void
test_strategy(void)
{
	static const struct {
		uint32_t word;
		a64_strategy_t want;
	} s[] = {
	    {0x8b020020, A64_STRAT_OOL},     /* add */
	    {0xa9bf7bfd, A64_STRAT_OOL},     /* stp */
	    {0xd503233f, A64_STRAT_OOL},     /* paciasp */
	    {0xd50323bf, A64_STRAT_OOL},     /* autiasp */
	    {0xd503245f, A64_STRAT_OOL},     /* bti c */
	    {0xd65f0bff, A64_STRAT_OOL},     /* retaa */
	    {0xd71f0822, A64_STRAT_OOL},     /* braa */
	    {0xd4000001, A64_STRAT_OOL},     /* svc */
	    {0xc8e0fc41, A64_STRAT_OOL},     /* casal */
	    {0xc8dffc20, A64_STRAT_OOL},     /* ldar */
	    {0x10000aa0, A64_STRAT_EMULATE}, /* adr */
	    {0x58ffff83, A64_STRAT_EMULATE}, /* ldr literal */
	    {0xd63f0060, A64_STRAT_EMULATE}, /* blr */
	    {0xd73f08c7, A64_STRAT_REFUSE},  /* blraa */
	    {0xc85f7c20, A64_STRAT_REFUSE},  /* ldxr */
	    {0xc82290a3, A64_STRAT_REFUSE},  /* stlxp */
	    {0xd4207d00, A64_STRAT_REFUSE},  /* brk */
	    {0xd4400020, A64_STRAT_REFUSE},  /* hlt */
	    {0x00000003, A64_STRAT_REFUSE},  /* udf */
	    {0xd69f03e0, A64_STRAT_REFUSE},  /* eret */
	    {0xd4000022, A64_STRAT_REFUSE},  /* hvc */
	};

	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++) {
		a64_insn_t in;

		a64_decode(s[i].word, BASE, &in);
		CHECK_INT(a64_strategy(&in), s[i].want);
		CHECK((a64_refusal(&in) != NULL) ==
		    (s[i].want == A64_STRAT_REFUSE));
	}
}

int
main(void)
{
	test_table();
	test_fields();
	test_emulate_data();
	test_emulate_branches();
	test_cond();
	test_strategy();
	return unit_done();
}
