/* SPDX-License-Identifier: MIT */
/*
 * a64_decode.c: sorting A64 instruction words into the classes of
 * a64_decode.h.
 *
 * Only the encoding groups holding a class other than A64_C_OTHER are
 * looked at; the field names follow the Arm Architecture Reference
 * Manual's encoding index.  An unallocated encoding inside one of those
 * groups is A64_C_OTHER, like every instruction that does not care where
 * it runs: executed anywhere, it raises the same undefined-instruction
 * exception it would have raised in place.
 */

#include "isa/aarch64/a64_decode.h"

static const char *const a64_names[A64_C_NCLASS] = {
    [A64_C_OTHER] = "other",
    [A64_C_ADR] = "adr",
    [A64_C_ADRP] = "adrp",
    [A64_C_LDR_LIT] = "ldr-literal",
    [A64_C_PRFM_LIT] = "prfm-literal",
    [A64_C_B] = "b",
    [A64_C_BL] = "bl",
    [A64_C_BCOND] = "b.cond",
    [A64_C_CBZ] = "cbz",
    [A64_C_CBNZ] = "cbnz",
    [A64_C_TBZ] = "tbz",
    [A64_C_TBNZ] = "tbnz",
    [A64_C_RET] = "ret",
    [A64_C_BR] = "br",
    [A64_C_BLR] = "blr",
    [A64_C_RET_PAC] = "ret-pac",
    [A64_C_BR_PAC] = "br-pac",
    [A64_C_BLR_PAC] = "blr-pac",
    [A64_C_ERET] = "eret",
    [A64_C_PAC_HINT] = "pac-hint",
    [A64_C_BTI] = "bti",
    [A64_C_LDEX] = "ldex",
    [A64_C_STEX] = "stex",
    [A64_C_CLREX] = "clrex",
    [A64_C_SVC] = "svc",
    [A64_C_HVC] = "hvc",
    [A64_C_SMC] = "smc",
    [A64_C_BRK] = "brk",
    [A64_C_HLT] = "hlt",
    [A64_C_UDF] = "udf",
};

const char *
a64_class_name(a64_class_t cls)
{
	return (unsigned) cls < A64_C_NCLASS ? a64_names[cls] : "?";
}

int
a64_class_pcrel(a64_class_t cls)
{
	return cls >= A64_C_ADR && cls <= A64_C_TBNZ;
}

uint32_t
a64_word(const uint8_t *p)
{
	return (uint32_t) p[0] | (uint32_t) p[1] << 8 | (uint32_t) p[2] << 16 |
	    (uint32_t) p[3] << 24;
}

/* Bits hi..lo of w, sign-extended, as a 64-bit value. */
static int64_t
a64_sbits(uint32_t w, unsigned hi, unsigned lo)
{
	unsigned n = hi - lo + 1;
	uint64_t v = (w >> lo) & ((UINT64_C(1) << n) - 1);

	if (v & (UINT64_C(1) << (n - 1)))
		v |= ~UINT64_C(0) << n;
	return (int64_t) v;
}

/* Unconditional branch (register): br, blr, ret and their forms. */
static void
a64_decode_brreg(uint32_t w, a64_insn_t *in)
{
	unsigned opc = (w >> 21) & 0xf, op2 = (w >> 16) & 0x1f;
	unsigned op3 = (w >> 10) & 0x3f, rn = (w >> 5) & 0x1f, op4 = w & 0x1f;
	int pac = op3 == 2 || op3 == 3; /* key A or B */

	if (op2 != 0x1f)
		return;
	in->rn = (uint8_t) rn;
	switch (opc) {
	case 0: /* br, braaz, brabz */
	case 1: /* blr, blraaz, blrabz */
		if (op3 == 0 && op4 == 0)
			in->cls = opc == 0 ? A64_C_BR : A64_C_BLR;
		else if (pac && op4 == 0x1f)
			in->cls = opc == 0 ? A64_C_BR_PAC : A64_C_BLR_PAC;
		break;
	case 2: /* ret, retaa, retab */
		if (op3 == 0 && op4 == 0)
			in->cls = A64_C_RET;
		else if (pac && rn == 0x1f && op4 == 0x1f)
			in->cls = A64_C_RET_PAC;
		break;
	case 4: /* eret, eretaa, eretab */
		if (rn == 0x1f && (op3 == 0 ? op4 == 0 : pac && op4 == 0x1f))
			in->cls = A64_C_ERET;
		break;
	case 5: /* drps */
		if (op3 == 0 && rn == 0x1f && op4 == 0)
			in->cls = A64_C_ERET;
		break;
	case 8: /* braa, brab: op4 is the modifier register */
	case 9: /* blraa, blrab */
		if (pac)
			in->cls = opc == 8 ? A64_C_BR_PAC : A64_C_BLR_PAC;
		break;
	default:
		break;
	}
}

/* Exception generation: svc, hvc, smc, brk, hlt. */
static void
a64_decode_exc(uint32_t w, a64_insn_t *in)
{
	unsigned opc = (w >> 21) & 7, op2 = (w >> 2) & 7, ll = w & 3;

	if (op2 != 0)
		return;
	in->imm = (uint16_t) (w >> 5);
	if (opc == 0 && ll == 1)
		in->cls = A64_C_SVC;
	else if (opc == 0 && ll == 2)
		in->cls = A64_C_HVC;
	else if (opc == 0 && ll == 3)
		in->cls = A64_C_SMC;
	else if (opc == 1 && ll == 0)
		in->cls = A64_C_BRK;
	else if (opc == 2 && ll == 0)
		in->cls = A64_C_HLT;
}

/*
 * The hint space (hint #0..127): the pointer-authentication hints, which
 * act on x30/x17 with sp or x16 as modifier and so run anywhere, and the
 * branch target identification landing pads.
 */
static void
a64_decode_hint(uint32_t w, a64_insn_t *in)
{
	unsigned op = (w >> 5) & 0x7f;

	switch (op) {
	case 7:	 /* xpaclri */
	case 8:	 /* pacia1716 */
	case 10: /* pacib1716 */
	case 12: /* autia1716 */
	case 14: /* autib1716 */
	case 24: /* paciaz */
	case 25: /* paciasp */
	case 26: /* pacibz */
	case 27: /* pacibsp */
	case 28: /* autiaz */
	case 29: /* autiasp */
	case 30: /* autibz */
	case 31: /* autibsp */
		in->cls = A64_C_PAC_HINT;
		break;
	case 32: /* bti */
	case 34: /* bti c */
	case 36: /* bti j */
	case 38: /* bti jc */
		in->cls = A64_C_BTI;
		break;
	default:
		break;
	}
}

void
a64_decode(uint32_t w, uint64_t pc, a64_insn_t *in)
{
	*in = (a64_insn_t){.pc = pc, .word = w, .cls = A64_C_OTHER};
	in->rt = (uint8_t) (w & 0x1f);

	if ((w & 0x1f000000) == 0x10000000) { /* adr, adrp */
		int64_t imm = a64_sbits(w, 23, 5) * 4 + ((w >> 29) & 3);

		if (w & 0x80000000) {
			in->cls = A64_C_ADRP;
			in->target =
			    (pc & ~UINT64_C(0xfff)) + (uint64_t) imm * 4096;
		} else {
			in->cls = A64_C_ADR;
			in->target = pc + (uint64_t) imm;
		}
	} else if ((w & 0x7c000000) == 0x14000000) { /* b, bl */
		in->cls = (w & 0x80000000) ? A64_C_BL : A64_C_B;
		in->target = pc + (uint64_t) (a64_sbits(w, 25, 0) * 4);
	} else if ((w & 0xff000000) == 0x54000000) { /* b.cond, bc.cond */
		in->cls = A64_C_BCOND;
		in->cond = (uint8_t) (w & 0xf);
		in->target = pc + (uint64_t) (a64_sbits(w, 23, 5) * 4);
	} else if ((w & 0x7e000000) == 0x34000000) { /* cbz, cbnz */
		in->cls = (w & 0x01000000) ? A64_C_CBNZ : A64_C_CBZ;
		in->size = (w & 0x80000000) ? 8 : 4;
		in->target = pc + (uint64_t) (a64_sbits(w, 23, 5) * 4);
	} else if ((w & 0x7e000000) == 0x36000000) { /* tbz, tbnz */
		in->cls = (w & 0x01000000) ? A64_C_TBNZ : A64_C_TBZ;
		in->bit = (uint8_t) (((w >> 26) & 0x20) | ((w >> 19) & 0x1f));
		in->target = pc + (uint64_t) (a64_sbits(w, 18, 5) * 4);
	} else if ((w & 0x3b000000) == 0x18000000) { /* load literal */
		unsigned opc = w >> 30, v = (w >> 26) & 1;

		if (v && opc == 3)
			return; /* unallocated */
		in->target = pc + (uint64_t) (a64_sbits(w, 23, 5) * 4);
		if (!v && opc == 3) {
			in->cls = A64_C_PRFM_LIT;
			return;
		}
		in->cls = A64_C_LDR_LIT;
		in->simd = (uint8_t) v;
		in->sign = !v && opc == 2;
		in->size = v ? (uint8_t) (4 << opc) : opc == 1 ? 8 : 4;
	} else if ((w & 0xfe000000) == 0xd6000000) {
		a64_decode_brreg(w, in);
	} else if ((w & 0xff000000) == 0xd4000000) {
		a64_decode_exc(w, in);
	} else if ((w & 0xffff0000) == 0) {
		in->cls = A64_C_UDF;
		in->imm = (uint16_t) w;
	} else if ((w & 0xfffff01f) == 0xd503201f) {
		a64_decode_hint(w, in);
	} else if ((w & 0xfffff0ff) == 0xd503305f) {
		in->cls = A64_C_CLREX;
	} else if ((w & 0x3f000000) == 0x08000000) {
		/*
		 * Load/store exclusive: bit 23 clear (set: load-acquire,
		 * store-release and compare-and-swap, single instructions),
		 * and bit 21 clear (register) or size 1x (pair; size 0x
		 * with bit 21 is casp).
		 */
		if ((w & 0x00800000) == 0 &&
		    ((w & 0x00200000) == 0 || (w & 0x80000000) != 0))
			in->cls = (w & 0x00400000) ? A64_C_LDEX : A64_C_STEX;
	}
}
