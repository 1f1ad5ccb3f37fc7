/* SPDX-License-Identifier: MIT */
/*
 * x86_decode.c: x86-64 instruction length and operand-shape decoder.
 *
 * An x86-64 instruction is
 *
 *	[legacy prefixes] [REX] opcode [ModRM [SIB] [disp]] [imm [imm]]
 *
 * or, for vector instructions, a VEX (C4/C5), EVEX (62) or XOP (8F)
 * escape that carries the REX bits, the opcode map and the mandatory
 * prefix, followed by opcode, ModRM, SIB, displacement and immediate.
 *
 * The decoder walks those parts in order.  What is not derivable from the
 * bytes themselves -- whether an opcode takes a ModRM byte, what immediate
 * it takes, whether it exists at all in 64-bit mode -- comes from one small
 * attribute byte per opcode (op1[] for the one-byte map, op0f[] for the
 * 0F map) and from tables of opcode ranges, by mandatory prefix, for the
 * three-byte and vector maps (vrange_t).  Opcodes whose shape depends on
 * ModRM.reg or on the mandatory prefix (the F6/F7 test immediate, C6/C7
 * xabort/xbegin, 8F pop versus XOP, 0F 78 extrq/insertq, ...) are marked
 * A_SPEC and finished by hand after the ModRM byte is read.
 *
 * Decisions where processors or references differ are documented where
 * they are made: see X86_DF_AMD in x86_decode.h for 66-prefixed near
 * branches.
 *
 * Validity ("is this a 64-bit-mode instruction at all") is checked for
 * legacy encodings down to the mandatory prefix and the register/memory
 * form, and for VEX and XOP encodings down to opcode and mandatory prefix
 * (vex_map*[], xop_map*[]).  Not checked, since the length never depends
 * on them: per-instruction reservations of VEX.W, VEX.L and VEX.vvvv, and
 * which opcodes of the EVEX maps are assigned, and whether a LOCK prefix
 * is allowed on the instruction.  Such encodings are accepted with their
 * correct length.
 */

#include <string.h>

#include "isa/x86_64/x86_decode.h"

/*
 * Opcode attributes.  The low nibble is the immediate kind; the high bits
 * say whether a ModRM byte follows, whether the opcode is undefined in
 * 64-bit mode, and whether it needs opcode-specific handling.
 */
enum {
	I_NONE = 0,
	I_B,		/* imm8 */
	I_W,		/* imm16 */
	I_Z,		/* imm16 with operand size 16, else imm32 */
	I_V,		/* imm16/32/64 by operand size (mov r, imm) */
	I_WB,		/* imm16 + imm8 (enter) */
	I_MOFFS,	/* 64-bit address, 32-bit with 67 */
	I_JB,		/* rel8 */
	I_JZ		/* rel32 (rel16 with 66 on AMD) */
};

#define	A_IMM	0x0f
#define	A_M	0x10		/* ModRM follows */
#define	A_X	0x20		/* invalid in 64-bit mode */
#define	A_SPEC	0x40		/* finished in decode_special() */
#define	A_PFX	0x80		/* prefix or escape, handled before lookup */

#define	M	A_M
#define	X	A_X
#define	P	A_PFX
#define	MB	(A_M | I_B)
#define	MZ	(A_M | I_Z)
#define	B	I_B
#define	Z	I_Z
#define	JB	I_JB
#define	JZ	I_JZ

/* One-byte opcode map, 64-bit mode. */
static const uint8_t op1[256] = {
	/* 00 */ M, M, M, M, B, Z, X, X, M, M, M, M, B, Z, X, P,
	/* 10 */ M, M, M, M, B, Z, X, X, M, M, M, M, B, Z, X, X,
	/* 20 */ M, M, M, M, B, Z, P, X, M, M, M, M, B, Z, P, X,
	/* 30 */ M, M, M, M, B, Z, P, X, M, M, M, M, B, Z, P, X,
	/* 40: REX, consumed with the prefixes */
	P, P, P, P, P, P, P, P, P, P, P, P, P, P, P, P,
	/* 50 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	/* 60 */ X, X, P, M, P, P, P, P, Z, MZ, B, MB, 0, 0, 0, 0,
	/* 70 */ JB, JB, JB, JB, JB, JB, JB, JB,
		 JB, JB, JB, JB, JB, JB, JB, JB,
	/* 80 */ MB, MZ, X, MB, M, M, M, M,
		 M, M, M, M, M | A_SPEC, M | A_SPEC, M | A_SPEC, M | A_SPEC,
	/* 90 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, X, 0, 0, 0, 0, 0,
	/* A0 */ I_MOFFS, I_MOFFS, I_MOFFS, I_MOFFS, 0, 0, 0, 0,
		 B, Z, 0, 0, 0, 0, 0, 0,
	/* B0 */ B, B, B, B, B, B, B, B, I_V, I_V, I_V, I_V, I_V, I_V, I_V, I_V,
	/* C0 */ MB, MB, I_W, 0, P, P, MB | A_SPEC, MZ | A_SPEC,
		 I_WB, 0, I_W, 0, 0, B, X, 0,
	/* D0 */ M, M, M, M, X, X, X, 0,
		 M | A_SPEC, M | A_SPEC, M | A_SPEC, M | A_SPEC,
		 M | A_SPEC, M | A_SPEC, M | A_SPEC, M | A_SPEC,
	/* E0 */ JB, JB, JB, JB, B, B, B, B, JZ, JZ, X, JB, 0, 0, 0, 0,
	/* F0 */ P, 0, P, P, 0, 0, M | A_SPEC, M | A_SPEC,
		 0, 0, 0, 0, 0, 0, M | A_SPEC, M | A_SPEC,
};

/* Two-byte opcode map (0F xx), legacy encoding. */
static const uint8_t op0f[256] = {
	/* 00 */ M | A_SPEC, M, M, M, X, 0, 0, 0, 0, 0, X, 0, X, M | A_SPEC,
		 0, P,
	/* 10 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* 20 */ M | A_SPEC, M | A_SPEC, M | A_SPEC, M | A_SPEC, X, X, X, X,
		 M, M, M, M, M, M, M, M,
	/* 30 */ 0, 0, 0, 0, 0, 0, X, 0, P, X, P, X, X, X, X, X,
	/* 40 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* 50 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* 60 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* 70 */ MB, MB, MB, MB, M, M, M, 0,
		 M | A_SPEC, M | A_SPEC, X, X, M, M, M, M,
	/* 80 */ JZ, JZ, JZ, JZ, JZ, JZ, JZ, JZ,
		 JZ, JZ, JZ, JZ, JZ, JZ, JZ, JZ,
	/* 90 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* A0 */ 0, 0, 0, M, MB, M, M | A_SPEC, M | A_SPEC,
		 0, 0, 0, M, MB, M, M, M,
	/* B0 */ M, M, M | A_SPEC, M, M | A_SPEC, M | A_SPEC, M, M,
		 M | A_SPEC, M, MB | A_SPEC, M, M, M, M, M,
	/* C0 */ M, M, MB, M, MB, MB, MB, M | A_SPEC, 0, 0, 0, 0, 0, 0, 0, 0,
	/* D0 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* E0 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
	/* F0 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
};

#undef	M
#undef	X
#undef	P
#undef	MB
#undef	MZ
#undef	B
#undef	Z
#undef	JB
#undef	JZ

#define	BIT(n)		((uint32_t)1 << ((n) & 31))
#define	RANGE(lo, hi)	((uint32_t)(((uint64_t)2 << ((hi) & 31)) - \
			    ((uint64_t)1 << ((lo) & 31))))

/* 3DNow! operations, selected by the trailing imm8 of 0F 0F. */
static const uint32_t amd3dnow_valid[8] = {
	RANGE(0x0c, 0x0d) | RANGE(0x1c, 0x1d),
	0,
	0,
	0,
	BIT(0x8a) | BIT(0x8e) | BIT(0x90) | BIT(0x94) | RANGE(0x96, 0x97) |
	    BIT(0x9a) | BIT(0x9e),
	BIT(0xa0) | BIT(0xa4) | RANGE(0xa6, 0xa7) | BIT(0xaa) | BIT(0xae) |
	    BIT(0xb0) | BIT(0xb4) | RANGE(0xb6, 0xb7) | BIT(0xbb) | BIT(0xbf),
	0,
	0,
};

#define	INSET(map, n)	(((map)[(n) >> 5] >> ((n) & 31)) & 1)

/*
 * x87 register forms (mod == 3) that are reserved, as bitmaps over the 64
 * possible ModRM bytes C0..FF for each of D8..DF.  These are the cells the
 * opcode map leaves empty; some of them execute as undocumented aliases
 * (fstp1, fxch4, fcomp5, ...) on some processors, but no compiler or
 * assembler emits them, and a probe on one is refused rather than risked.
 * ffreep (DF C0+i) is documented by AMD and accepted.
 */
static const uint64_t x87_reg_invalid[8] = {
	/* D8 */ 0,
	/* D9: D1-DF, E2, E3, E6, E7, EF */
	(0x7fffULL << 0x11) | (0x3ULL << 0x22) | (0x3ULL << 0x26) |
	    (1ULL << 0x2f),
	/* DA: E0-E8, EA-FF (only fcmov* and fucompp) */
	(0x1ffULL << 0x20) | (0x3fffffULL << 0x2a),
	/* DB: E6, E7, F8-FF */
	(0x3ULL << 0x26) | (0xffULL << 0x38),
	/* DC: D0-DF */
	(0xffffULL << 0x10),
	/* DD: C8-CF, F0-FF */
	(0xffULL << 0x08) | (0xffffULL << 0x30),
	/* DE: D0-D8, DA-DF (only fcompp at D9) */
	(0x1ffULL << 0x10) | (0x3fULL << 0x1a),
	/* DF: C8-DF, E1-E7, F8-FF */
	(0xffffffULL << 0x08) | (0x7fULL << 0x21) | (0xffULL << 0x38),
};

/* x87 memory forms (mod != 3) that are undefined: bit reg of [op - D8]. */
static const uint8_t x87_mem_invalid[8] = {
	0, 1 << 1, 0, (1 << 4) | (1 << 6), 0, 1 << 5, 0, 0
};

/*
 * Assigned VEX opcodes by map and mandatory prefix.  Each entry covers an
 * opcode range and the implied prefixes (pp) that make it an instruction:
 * bit 0 none, bit 1 66, bit 2 F3, bit 3 F2.  Constraints on VEX.W and
 * VEX.L are not checked; they never change the length.
 */
#define	PN	0x1
#define	P66	0x2
#define	PF3	0x4
#define	PF2	0x8
#define	PALL	0xf

typedef struct vrange {
	uint8_t		lo, hi, pp;
} vrange_t;

static const vrange_t vex_map1[] = {
	{ 0x10, 0x11, PALL }, { 0x12, 0x12, PALL }, { 0x13, 0x15, PN | P66 },
	{ 0x16, 0x16, PN | P66 | PF3 }, { 0x17, 0x17, PN | P66 },
	{ 0x28, 0x29, PN | P66 }, { 0x2a, 0x2a, PF3 | PF2 },
	{ 0x2b, 0x2b, PN | P66 }, { 0x2c, 0x2d, PF3 | PF2 },
	{ 0x2e, 0x2f, PN | P66 },
	/* AVX-512 mask-register operations */
	{ 0x41, 0x42, PN | P66 }, { 0x44, 0x47, PN | P66 },
	{ 0x4a, 0x4b, PN | P66 },
	{ 0x50, 0x50, PN | P66 }, { 0x51, 0x51, PALL },
	{ 0x52, 0x53, PN | PF3 }, { 0x54, 0x57, PN | P66 },
	{ 0x58, 0x5a, PALL }, { 0x5b, 0x5b, PN | P66 | PF3 },
	{ 0x5c, 0x5f, PALL },
	{ 0x60, 0x6e, P66 }, { 0x6f, 0x6f, P66 | PF3 },
	{ 0x70, 0x70, P66 | PF3 | PF2 }, { 0x71, 0x76, P66 },
	{ 0x77, 0x77, PN }, { 0x7c, 0x7d, P66 | PF2 },
	{ 0x7e, 0x7f, P66 | PF3 },
	{ 0x90, 0x91, PN | P66 }, { 0x92, 0x93, PN | P66 | PF2 },
	{ 0x98, 0x99, PN | P66 },
	{ 0xae, 0xae, PN },
	{ 0xc2, 0xc2, PALL }, { 0xc4, 0xc5, P66 }, { 0xc6, 0xc6, PN | P66 },
	{ 0xd0, 0xd0, P66 | PF2 }, { 0xd1, 0xe5, P66 },
	{ 0xe6, 0xe6, P66 | PF3 | PF2 }, { 0xe7, 0xef, P66 },
	{ 0xf0, 0xf0, PF2 }, { 0xf1, 0xfe, P66 },
	{ 0, 0, 0 }
};

static const vrange_t vex_map2[] = {
	{ 0x00, 0x0f, P66 }, { 0x13, 0x13, P66 }, { 0x16, 0x1a, P66 },
	{ 0x1c, 0x1e, P66 }, { 0x20, 0x25, P66 }, { 0x28, 0x41, P66 },
	{ 0x45, 0x47, P66 },
	/* AMX */
	{ 0x49, 0x49, PN | P66 | PF2 }, { 0x4b, 0x4b, P66 | PF3 | PF2 },
	/* AVX-VNNI, AVX-VNNI-INT8 */
	{ 0x50, 0x51, PALL }, { 0x52, 0x53, P66 },
	{ 0x58, 0x5a, P66 }, { 0x5c, 0x5c, PF3 | PF2 }, { 0x5e, 0x5e, PALL },
	/* AVX-NE-CONVERT */
	{ 0x72, 0x72, PF3 },
	{ 0x78, 0x79, P66 }, { 0x8c, 0x8c, P66 }, { 0x8e, 0x8e, P66 },
	{ 0x90, 0x93, P66 }, { 0x96, 0x9f, P66 }, { 0xa6, 0xaf, P66 },
	{ 0xb0, 0xb0, PALL }, { 0xb1, 0xb1, P66 | PF3 },
	{ 0xb4, 0xb5, P66 }, { 0xb6, 0xbf, P66 },
	{ 0xcf, 0xcf, P66 }, { 0xdb, 0xdf, P66 },
	/* CMPccXADD */
	{ 0xe0, 0xef, P66 },
	/* BMI1, BMI2 */
	{ 0xf2, 0xf3, PN }, { 0xf5, 0xf5, PN | PF3 | PF2 },
	{ 0xf6, 0xf6, PF2 }, { 0xf7, 0xf7, PALL },
	{ 0, 0, 0 }
};

static const vrange_t vex_map3[] = {
	{ 0x00, 0x02, P66 }, { 0x04, 0x06, P66 }, { 0x08, 0x0f, P66 },
	{ 0x14, 0x19, P66 }, { 0x1d, 0x1d, P66 }, { 0x20, 0x22, P66 },
	{ 0x30, 0x33, P66 }, { 0x38, 0x39, P66 }, { 0x40, 0x42, P66 },
	{ 0x44, 0x44, P66 }, { 0x46, 0x46, P66 }, { 0x48, 0x4c, P66 },
	/* FMA4 */
	{ 0x5c, 0x5f, P66 }, { 0x60, 0x63, P66 }, { 0x68, 0x6f, P66 },
	{ 0x78, 0x7f, P66 },
	{ 0xce, 0xcf, P66 }, { 0xdf, 0xdf, P66 }, { 0xf0, 0xf0, PF2 },
	{ 0, 0, 0 }
};

/* AMD XOP maps 8, 9 and 0A (no mandatory prefix). */
static const vrange_t xop_map8[] = {
	{ 0x85, 0x87, PN }, { 0x8e, 0x8f, PN }, { 0x95, 0x97, PN },
	{ 0x9e, 0x9f, PN }, { 0xa2, 0xa3, PN }, { 0xa6, 0xa6, PN },
	{ 0xb6, 0xb6, PN }, { 0xc0, 0xc3, PN }, { 0xcc, 0xcf, PN },
	{ 0xec, 0xef, PN },
	{ 0, 0, 0 }
};

static const vrange_t xop_map9[] = {
	{ 0x01, 0x02, PN }, { 0x12, 0x12, PN }, { 0x80, 0x83, PN },
	{ 0x90, 0x9b, PN }, { 0xc1, 0xc3, PN }, { 0xc6, 0xc7, PN },
	{ 0xcb, 0xcb, PN }, { 0xd1, 0xd3, PN }, { 0xd6, 0xd7, PN },
	{ 0xdb, 0xdb, PN }, { 0xe1, 0xe3, PN },
	{ 0, 0, 0 }
};

static const vrange_t xop_mapa[] = {
	{ 0x10, 0x10, PN }, { 0x12, 0x12, PN },
	{ 0, 0, 0 }
};

static int
vex_assigned(const vrange_t *t, uint8_t op, unsigned int ppbit)
{
	for (; t->pp != 0; t++)
		if (op >= t->lo && op <= t->hi)
			return ((t->pp & ppbit) != 0);
	return (0);
}

/*
 * Legacy-encoded SSE/MMX opcodes of the 0F map whose meaning depends on
 * the mandatory prefix (66, F3, F2 or none); a prefix not listed makes
 * the instruction undefined.  Opcodes outside these ranges ignore F2/F3.
 */
static const vrange_t sse_map1[] = {
	{ 0x10, 0x12, PALL }, { 0x13, 0x15, PN | P66 },
	{ 0x16, 0x16, PN | P66 | PF3 }, { 0x17, 0x17, PN | P66 },
	{ 0x28, 0x29, PN | P66 }, { 0x2a, 0x2a, PALL },
	{ 0x2b, 0x2b, PALL },		/* F2/F3: SSE4a movntsd/movntss */
	{ 0x2c, 0x2d, PALL }, { 0x2e, 0x2f, PN | P66 },
	{ 0x50, 0x50, PN | P66 }, { 0x51, 0x51, PALL },
	{ 0x52, 0x53, PN | PF3 }, { 0x54, 0x57, PN | P66 },
	{ 0x58, 0x5a, PALL }, { 0x5b, 0x5b, PN | P66 | PF3 },
	{ 0x5c, 0x5f, PALL },
	{ 0x60, 0x6b, PN | P66 }, { 0x6c, 0x6d, P66 },
	{ 0x6e, 0x6e, PN | P66 }, { 0x6f, 0x6f, PN | P66 | PF3 },
	{ 0x70, 0x70, PALL }, { 0x71, 0x76, PN | P66 },
	{ 0x7c, 0x7d, P66 | PF2 }, { 0x7e, 0x7f, PN | P66 | PF3 },
	{ 0xc2, 0xc2, PALL }, { 0xc3, 0xc3, PN }, { 0xc4, 0xc6, PN | P66 },
	{ 0xd0, 0xd0, P66 | PF2 }, { 0xd1, 0xd5, PN | P66 },
	{ 0xd6, 0xd6, P66 | PF3 | PF2 }, { 0xd7, 0xe5, PN | P66 },
	{ 0xe6, 0xe6, P66 | PF3 | PF2 }, { 0xe7, 0xef, PN | P66 },
	{ 0xf0, 0xf0, PF2 }, { 0xf1, 0xfe, PN | P66 },
	{ 0, 0, 0 }
};

/* Legacy-encoded 0F 38 and 0F 3A maps, by mandatory prefix. */
static const vrange_t legacy_map2[] = {
	{ 0x00, 0x0b, PN | P66 }, { 0x10, 0x10, P66 }, { 0x14, 0x15, P66 },
	{ 0x17, 0x17, P66 }, { 0x1c, 0x1e, PN | P66 }, { 0x20, 0x25, P66 },
	{ 0x28, 0x2b, P66 }, { 0x30, 0x35, P66 }, { 0x37, 0x41, P66 },
	{ 0x80, 0x82, P66 },
	/* SHA, GFNI, Key Locker, AES-NI */
	{ 0xc8, 0xcd, PN }, { 0xcf, 0xcf, P66 }, { 0xd8, 0xd8, PF3 },
	{ 0xdb, 0xdb, P66 }, { 0xdc, 0xdf, P66 | PF3 },
	/* movbe, crc32 */
	{ 0xf0, 0xf1, PN | P66 | PF2 },
	/* wruss, wrss/adcx/adox, movdir64b/enqcmd(s), movdiri */
	{ 0xf5, 0xf5, P66 }, { 0xf6, 0xf6, PN | P66 | PF3 },
	{ 0xf8, 0xf8, P66 | PF3 | PF2 }, { 0xf9, 0xf9, PN },
	/* encodekey128/256, RAO-INT */
	{ 0xfa, 0xfb, PF3 }, { 0xfc, 0xfc, PALL },
	{ 0, 0, 0 }
};

static const vrange_t legacy_map3[] = {
	{ 0x08, 0x0e, P66 }, { 0x0f, 0x0f, PN | P66 }, { 0x14, 0x17, P66 },
	{ 0x20, 0x22, P66 }, { 0x40, 0x42, P66 }, { 0x44, 0x44, P66 },
	{ 0x60, 0x63, P66 }, { 0xcc, 0xcc, PN }, { 0xce, 0xcf, P66 },
	{ 0xdf, 0xdf, P66 }, { 0xf0, 0xf0, PF3 },
	{ 0, 0, 0 }
};

/* The vrange_t prefix bit of a mandatory prefix byte. */
static unsigned int
mp_bit(uint8_t mp)
{
	return (mp == 0x66 ? P66 : mp == 0xf3 ? PF3 : mp == 0xf2 ? PF2 : PN);
}

/* Working state while decoding one instruction. */
typedef struct dstate {
	const uint8_t	*buf;
	size_t		avail;
	size_t		i;		/* next byte to consume */
	int		err;		/* first error seen */
	uint8_t		mp;		/* mandatory prefix: 0, 66, F2, F3 */
	uint8_t		rex_r, rex_x, rex_b, rex_w;
	uint8_t		evex_vx;	/* EVEX.V' (high bit of VSIB index) */
} dstate_t;

/*
 * Legacy 0F 38 instructions that exist only with a memory operand (or
 * only with registers): movbe, wruss/wrss, movdir64b, enqcmd(s), movdiri,
 * RAO-INT, invept/invvpid/invpcid, Key Locker; encodekey is register-only.
 */
static int
map0f38_form_ok(const dstate_t *d, const x86_insn_t *in)
{
	int reg = in->mod == 3;

	switch (in->opcode) {
	case 0xf0:
	case 0xf1:
		return (d->mp == 0xf2 || !reg);		/* crc32 or movbe */
	case 0xf6:
		return (d->mp != 0 || !reg);		/* adcx/adox or wrss */
	case 0x80: case 0x81: case 0x82: case 0xd8:
	case 0xf5: case 0xf8: case 0xf9: case 0xfc:
		return (!reg);
	case 0xdc: case 0xdd: case 0xde: case 0xdf:
		return (d->mp != 0xf3 || !reg);		/* aes or aes*kl */
	case 0xfa: case 0xfb:
		return (reg);
	}
	return (1);
}

/*
 * Make sure n more bytes can be read.  Past byte 15 the instruction is
 * invalid whatever the buffer holds; before that, running out of buffer
 * only means the caller must supply more.
 */
static int
need(dstate_t *d, size_t n)
{
	if (d->err != 0)
		return (0);
	if (d->i + n > X86_MAX_INSN_LEN) {
		d->err = X86_DEC_INVALID;
		return (0);
	}
	if (d->i + n > d->avail) {
		d->err = X86_DEC_SHORT;
		return (0);
	}
	return (1);
}

static uint64_t
fetch(dstate_t *d, size_t n)
{
	uint64_t v = 0;
	size_t k;

	if (!need(d, n))
		return (0);
	for (k = 0; k < n; k++)
		v |= (uint64_t)d->buf[d->i + k] << (8 * k);
	d->i += n;
	return (v);
}

static int64_t
sext(uint64_t v, size_t n)
{
	if (n == 0 || n >= 8)
		return ((int64_t)v);
	if (v & ((uint64_t)1 << (8 * n - 1)))
		v |= ~(uint64_t)0 << (8 * n);
	return ((int64_t)v);
}

/*
 * Read ModRM, SIB and displacement, and decompose the memory operand.
 * force_reg: the mod bits are ignored and the operand is a register
 * (mov to/from control and debug registers).
 */
static void
decode_modrm(dstate_t *d, x86_insn_t *in, int force_reg)
{
	uint8_t m, rmf;
	size_t dsz = 0;

	if (!need(d, 1))
		return;
	in->has_modrm = 1;
	in->modrm_off = (uint8_t)d->i;
	m = d->buf[d->i++];
	in->modrm = m;
	in->mod = m >> 6;
	in->reg = (uint8_t)(((m >> 3) & 7) | (d->rex_r << 3));
	rmf = m & 7;
	in->rm = (uint8_t)(rmf | (d->rex_b << 3));

	if (force_reg)
		in->mod = 3;
	if (in->mod == 3)
		return;

	in->has_mem = 1;
	in->mem.scale = 1;
	in->mem.index = X86_REG_NONE;
	in->mem.seg = in->seg;
	in->mem.addr32 = (in->prefixes & X86_PFX_ADSIZE) != 0;

	if (rmf == 4) {
		uint8_t s, base, idx;

		if (!need(d, 1))
			return;
		in->has_sib = 1;
		s = d->buf[d->i++];
		in->sib = s;
		base = s & 7;
		idx = (uint8_t)(((s >> 3) & 7) | (d->rex_x << 3));
		in->mem.scale = (uint8_t)(1 << (s >> 6));
		/*
		 * Index 100 without REX.X means "no index" (there is no
		 * %rsp index); with REX.X it is %r12.
		 */
		if (idx != X86_RSP)
			in->mem.index = (int8_t)idx;
		else
			in->mem.scale = 1;	/* scale bits are ignored */
		/* Base 101 with mod 00 means disp32 and no base, r13 too. */
		if (base == 5 && in->mod == 0) {
			in->mem.base = X86_REG_NONE;
			dsz = 4;
		} else {
			in->mem.base = (int8_t)(base | (d->rex_b << 3));
		}
	} else if (rmf == 5 && in->mod == 0) {
		/* RIP-relative; REX.B does not turn it into r13. */
		in->mem.base = X86_RIP;
		in->rip_rel = 1;
		dsz = 4;
	} else {
		in->mem.base = (int8_t)in->rm;
	}
	if (in->mod == 1)
		dsz = 1;
	else if (in->mod == 2)
		dsz = 4;
	if (dsz != 0) {
		in->disp_off = (uint8_t)d->i;
		in->disp_size = (uint8_t)dsz;
		in->disp = sext(fetch(d, dsz), dsz);
		in->mem.disp = (int32_t)in->disp;
	}
}

static void
read_imm(dstate_t *d, x86_insn_t *in, size_t n)
{
	if (n == 0)
		return;
	if (in->imm_size == 0) {
		in->imm_off = (uint8_t)d->i;
		in->imm_size = (uint8_t)n;
		in->imm = sext(fetch(d, n), n);
	} else {
		in->imm2_off = (uint8_t)d->i;
		in->imm2_size = (uint8_t)n;
		in->imm2 = sext(fetch(d, n), n);
	}
}

/*
 * Immediate of the one-byte and 0F maps.  For near relative branches
 * with a 66 prefix, Intel processors ignore the prefix and AMD ones take
 * a 16-bit displacement (and truncate the target to 16 bits).
 */
static void
decode_imm(dstate_t *d, x86_insn_t *in, unsigned int kind, unsigned int flags)
{
	switch (kind) {
	case I_NONE:
		break;
	case I_B:
		read_imm(d, in, 1);
		break;
	case I_W:
		read_imm(d, in, 2);
		break;
	case I_Z:
		read_imm(d, in, in->opsize == 2 ? 2 : 4);
		break;
	case I_V:
		read_imm(d, in, in->opsize);
		break;
	case I_WB:
		read_imm(d, in, 2);
		read_imm(d, in, 1);
		break;
	case I_MOFFS:
		/* The offset is an address, sized by the address size. */
		in->disp_off = (uint8_t)d->i;
		in->disp_size = (in->prefixes & X86_PFX_ADSIZE) ? 4 : 8;
		in->disp = (int64_t)fetch(d, in->disp_size);
		break;
	case I_JB:
		read_imm(d, in, 1);
		in->is_rel = 1;
		break;
	case I_JZ:
		if ((flags & X86_DF_AMD) && (in->prefixes & X86_PFX_OPSIZE) &&
		    !d->rex_w)
			read_imm(d, in, 2);
		else
			read_imm(d, in, 4);
		in->is_rel = 1;
		break;
	}
}

/*
 * Opcodes whose validity or immediate depends on ModRM or on the
 * mandatory prefix.  Returns the immediate kind to read, or -1 if invalid.
 */
static int
decode_special(dstate_t *d, x86_insn_t *in, unsigned int attr)
{
	unsigned int r = (in->modrm >> 3) & 7;
	unsigned int kind = attr & A_IMM;

	if (in->map == X86_MAP_1B) {
		switch (in->opcode) {
		case 0x8c:	/* mov Ev, Sreg: only es cs ss ds fs gs */
			return (r > 5 ? -1 : (int)kind);
		case 0x8e:	/* mov Sreg, Ew: cs cannot be loaded */
			return (r > 5 || r == 1 ? -1 : (int)kind);
		case 0x8d:	/* lea needs a memory operand */
			return (in->mod == 3 ? -1 : (int)kind);
		case 0x8f:	/* pop Ev (other reg values are XOP) */
			return (r != 0 ? -1 : (int)kind);
		case 0xc6:	/* mov Eb, Ib; C6 F8 ib is xabort */
			if (r == 0 || in->modrm == 0xf8)
				return ((int)kind);
			return (-1);
		case 0xc7:	/* mov Ev, Iz; C7 F8 is xbegin rel16/32 */
			if (r == 0)
				return ((int)kind);
			if (in->modrm == 0xf8) {
				in->cf = X86_CF_XBEGIN;
				in->is_rel = 1;
				read_imm(d, in, in->opsize == 2 ? 2 : 4);
				return (I_NONE);
			}
			return (-1);
		case 0xf6:	/* test Eb, Ib is /0 and its alias /1 */
			return (r <= 1 ? I_B : I_NONE);
		case 0xf7:
			return (r <= 1 ? I_Z : I_NONE);
		case 0xfe:	/* inc/dec Eb */
			return (r <= 1 ? (int)kind : -1);
		case 0xff:
			switch (r) {
			case 2:
				in->cf = X86_CF_CALL_IND;
				break;
			case 3:
				in->cf = X86_CF_CALL_FAR;
				break;
			case 4:
				in->cf = X86_CF_JMP_IND;
				break;
			case 5:
				in->cf = X86_CF_JMP_FAR;
				break;
			case 7:
				return (-1);
			}
			/* far forms take an m16:64 pointer in memory */
			if ((r == 3 || r == 5) && in->mod == 3)
				return (-1);
			return ((int)kind);
		default:
			/* D8-DF: x87 */
			if (in->mod == 3) {
				if ((x87_reg_invalid[in->opcode - 0xd8] >>
				    (in->modrm - 0xc0)) & 1)
					return (-1);
			} else if ((x87_mem_invalid[in->opcode - 0xd8] >> r) &
			    1) {
				return (-1);
			}
			return ((int)kind);
		}
	}

	/* 0F map */
	switch (in->opcode) {
	case 0x00: /* group 6: sldt str lldt ltr verr verw; /6 /7 unassigned */
		return (r >= 6 ? -1 : (int)kind);
	case 0xa6:
		/*
		 * VIA PadLock: F3 0F A6 C0/C8/D0 (montmul, xsha1, xsha256)
		 * and 0F A7 C0 (xstore), F3 0F A7 C8..E8 (xcrypt*).  The
		 * "ModRM" byte selects the operation.
		 */
		if (in->modrm == 0xc0 || in->modrm == 0xc8 ||
		    in->modrm == 0xd0)
			return ((int)kind);
		return (-1);
	case 0xa7:
		if (in->mod == 3 && (in->modrm & 7) == 0 && in->modrm <= 0xe8)
			return ((int)kind);
		return (-1);
	case 0x78:
		/*
		 * No prefix: vmread.  66: extrq xmm, imm8, imm8 (/0).
		 * F2: insertq xmm, xmm, imm8, imm8.  Both SSE4a forms
		 * are register-only.
		 */
		if (d->mp == 0)
			return ((int)kind);
		if (d->mp == 0x66 && in->mod == 3 && r == 0) {
			read_imm(d, in, 1);
			return (I_B);
		}
		if (d->mp == 0xf2 && in->mod == 3) {
			read_imm(d, in, 1);
			return (I_B);
		}
		return (-1);
	case 0x79:	/* vmwrite; 66: extrq xmm, xmm; F2: insertq */
		if (d->mp == 0)
			return ((int)kind);
		if ((d->mp == 0x66 || d->mp == 0xf2) && in->mod == 3)
			return ((int)kind);
		return (-1);
	case 0xba:	/* group 8: bt, bts, btr, btc are /4../7 */
		return (r < 4 ? -1 : (int)kind);
	case 0x0d:	/* prefetch, prefetchw: memory only */
		return (in->mod == 3 ? -1 : (int)kind);
	case 0xb8:	/* popcnt needs F3; plain 0F B8 is IA-64's jmpe */
		return (d->mp == 0xf3 ? (int)kind : -1);
	case 0xb2:	/* lss, lfs, lgs: far pointer in memory */
	case 0xb4:
	case 0xb5:
		return (in->mod == 3 ? -1 : (int)kind);
	case 0xc7:	/* group 9: /0 and /2 are unassigned */
		if (r == 0 || r == 2)
			return (-1);
		/* cmpxchg8b/16b, xrstors, xsavec, xsaves need memory */
		if (r >= 1 && r <= 5 && in->mod == 3)
			return (-1);
		return ((int)kind);
	default:
		/* 0F 20-23: mov to/from cr/dr, handled in decode_modrm */
		return ((int)kind);
	}
}

/*
 * Mandatory-prefix and operand-form constraints of legacy SSE/MMX
 * opcodes in the 0F map: which prefixes define an instruction, which
 * forms exist only with a register (mod == 3) or only with memory.
 */
static int
sse_valid(const dstate_t *d, const x86_insn_t *in)
{
	uint8_t o = in->opcode;
	unsigned int r = (in->modrm >> 3) & 7;
	int reg = in->mod == 3;

	if (o == 0xae)		/* group 15: only [lms]fence as registers */
		return (!reg || d->mp != 0 || r >= 5);
	if (!((o >= 0x10 && o <= 0x17) || (o >= 0x28 && o <= 0x2f) ||
	    (o >= 0x50 && o <= 0x76) || (o >= 0x7c && o <= 0x7f) ||
	    (o >= 0xc2 && o <= 0xc6) || (o >= 0xd0 && o <= 0xfe)))
		return (1);
	if (!vex_assigned(sse_map1, o, mp_bit(d->mp)))
		return (0);
	switch (o) {
	case 0x50: case 0xc5: case 0xd7: case 0xf7:
		return (reg);
	case 0x71: case 0x72:
		return (reg && (r == 2 || r == 4 || r == 6));
	case 0x73:
		return (reg && (r == 2 || r == 6 ||
		    ((r == 3 || r == 7) && d->mp == 0x66)));
	case 0xd6:
		return (d->mp == 0x66 || reg);
	case 0x12: case 0x16:
		return (!reg || d->mp != 0x66);
	case 0x13: case 0x17: case 0x2b: case 0xc3: case 0xe7: case 0xf0:
		return (!reg);
	}
	return (1);
}

/* Control-flow kind of legacy-encoded opcodes not set elsewhere. */
static void
classify(x86_insn_t *in)
{
	if (in->cf != X86_CF_NONE)
		return;
	if (in->map == X86_MAP_1B) {
		uint8_t o = in->opcode;

		if (o >= 0x70 && o <= 0x7f)
			in->cf = X86_CF_JCC;
		else if (o >= 0xe0 && o <= 0xe2)
			in->cf = X86_CF_LOOP;
		else if (o == 0xe3)
			in->cf = X86_CF_JRCXZ;
		else if (o == 0xe8)
			in->cf = X86_CF_CALL;
		else if (o == 0xe9 || o == 0xeb)
			in->cf = X86_CF_JMP;
		else if (o == 0xc2 || o == 0xc3)
			in->cf = X86_CF_RET;
		else if (o == 0xca || o == 0xcb)
			in->cf = X86_CF_RET_FAR;
		else if (o == 0xcf)
			in->cf = X86_CF_IRET;
		else if (o == 0xcc)
			in->cf = X86_CF_INT3;
		else if (o == 0xcd || o == 0xf1)
			in->cf = X86_CF_INT;
	} else if (in->map == X86_MAP_0F) {
		uint8_t o = in->opcode;

		if (o >= 0x80 && o <= 0x8f)
			in->cf = X86_CF_JCC;
		else if (o == 0x05 || o == 0x34)
			in->cf = X86_CF_SYSCALL;
		else if (o == 0x07 || o == 0x35)
			in->cf = X86_CF_SYSRET;
		else if (o == 0x0b || o == 0xb9 || o == 0xff)
			in->cf = X86_CF_UD;
	}
}

/*
 * VEX, EVEX and XOP.  The escape byte is at d->i - 1.  These encodings
 * carry the REX bits, the map and the mandatory prefix themselves, so a
 * preceding 66, F2, F3, F0 or REX makes the instruction invalid (#UD).
 */
static int
decode_vex(dstate_t *d, x86_insn_t *in, uint8_t esc, const x86_insn_t *pre)
{
	uint8_t p0, p1, p2, mmmmm, pp;
	int imm8 = 0;

	if (pre->rex != 0 || (pre->prefixes & (X86_PFX_OPSIZE | X86_PFX_REP |
	    X86_PFX_REPNE | X86_PFX_LOCK)))
		return (-1);
	in->vex_off = (uint8_t)(d->i - 1);

	if (esc == 0xc5) {
		if (!need(d, 1))
			return (0);
		p0 = d->buf[d->i++];
		in->vex = X86_VEX_VEX2;
		d->rex_r = !(p0 & 0x80);
		in->vvvv = (~p0 >> 3) & 0xf;
		in->vex_l = (p0 >> 2) & 1;
		pp = p0 & 3;
		in->map = X86_MAP_0F;
		mmmmm = 1;
	} else if (esc == 0xc4 || esc == 0x8f) {
		if (!need(d, 2))
			return (0);
		p0 = d->buf[d->i++];
		p1 = d->buf[d->i++];
		d->rex_r = !(p0 & 0x80);
		d->rex_x = !(p0 & 0x40);
		d->rex_b = !(p0 & 0x20);
		mmmmm = p0 & 0x1f;
		in->vex_w = p1 >> 7;
		d->rex_w = in->vex_w;
		in->vvvv = (~p1 >> 3) & 0xf;
		in->vex_l = (p1 >> 2) & 1;
		pp = p1 & 3;
		if (esc == 0xc4) {
			in->vex = X86_VEX_VEX3;
			if (mmmmm < 1 || mmmmm > 3)
				return (-1);
			in->map = (uint8_t)(X86_MAP_1B + mmmmm);
		} else {
			in->vex = X86_VEX_XOP;
			if (mmmmm < 8 || mmmmm > 10 || pp != 0)
				return (-1);
			in->map = (uint8_t)(X86_MAP_XOP8 + (mmmmm - 8));
		}
	} else {
		/* EVEX: 62 P0 P1 P2 */
		if (!need(d, 3))
			return (0);
		p0 = d->buf[d->i++];
		p1 = d->buf[d->i++];
		p2 = d->buf[d->i++];
		in->vex = X86_VEX_EVEX;
		/* P0 bit 3 must be 0 and P1 bit 2 must be 1. */
		if ((p0 & 0x08) != 0 || (p1 & 0x04) == 0)
			return (-1);
		d->rex_r = !(p0 & 0x80);
		d->rex_x = !(p0 & 0x40);
		d->rex_b = !(p0 & 0x20);
		mmmmm = p0 & 0x07;
		in->vex_w = p1 >> 7;
		d->rex_w = in->vex_w;
		in->vvvv = (uint8_t)(((~p1 >> 3) & 0xf) |
		    ((p2 & 0x08) ? 0 : 0x10));
		in->vex_l = (p2 >> 5) & 3;
		d->evex_vx = !(p2 & 0x08);
		pp = p1 & 3;
		switch (mmmmm) {
		case 1:
		case 2:
		case 3:
			in->map = (uint8_t)(X86_MAP_1B + mmmmm);
			break;
		case 5:
			in->map = X86_MAP_EVEX5;
			break;
		case 6:
			in->map = X86_MAP_EVEX6;
			break;
		default:
			return (-1);
		}
	}
	d->mp = pp == 1 ? 0x66 : pp == 2 ? 0xf3 : pp == 3 ? 0xf2 : 0;
	in->opsize = d->rex_w ? 8 : 4;
	in->rex = 0;

	if (!need(d, 1))
		return (0);
	in->opc_off = (uint8_t)d->i;
	in->opcode = d->buf[d->i++];

	if (in->vex != X86_VEX_EVEX) {
		static const vrange_t *const tabs[] = {
			NULL, vex_map1, vex_map2, vex_map3, NULL, NULL, NULL,
			xop_map8, xop_map9, xop_mapa
		};

		if (!vex_assigned(tabs[in->map], in->opcode, 1u << pp))
			return (-1);
	}

	/* vzeroupper / vzeroall are the only VEX opcodes without ModRM. */
	if (in->vex == X86_VEX_VEX2 || in->vex == X86_VEX_VEX3) {
		if (in->map == X86_MAP_0F && in->opcode == 0x77)
			return (0);
	}
	decode_modrm(d, in, 0);
	if (d->err != 0)
		return (0);
	/*
	 * VSIB: gathers (map 2, 90-93) and EVEX scatters (A0-A3) and
	 * gather/scatter prefetches (C6, C7) index with a vector register.
	 */
	if (in->map == X86_MAP_0F38 && in->has_sib && in->has_mem &&
	    ((in->opcode >= 0x90 && in->opcode <= 0x93) ||
	    (in->vex == X86_VEX_EVEX && ((in->opcode >= 0xa0 &&
	    in->opcode <= 0xa3) || in->opcode == 0xc6 ||
	    in->opcode == 0xc7)))) {
		in->mem.vsib = 1;
		in->mem.index = (int8_t)(((in->sib >> 3) & 7) |
		    (d->rex_x << 3) | (d->evex_vx << 4));
	}
	if (in->vex == X86_VEX_EVEX && in->disp_size == 1)
		in->mem.disp8n = 1;
	/* VEX forms that exist only with a register or only with memory. */
	if (in->map == X86_MAP_0F && in->vex != X86_VEX_EVEX) {
		switch (in->opcode) {
		case 0x50: case 0xc5: case 0xd7: case 0xf7:
			if (in->mod != 3)
				return (-1);
			break;
		case 0x13: case 0x17: case 0x2b: case 0xe7: case 0xf0:
			if (in->mod == 3)
				return (-1);
			break;
		}
	}

	switch (in->map) {
	case X86_MAP_0F:
		imm8 = (in->opcode >= 0x70 && in->opcode <= 0x73) ||
		    in->opcode == 0xc2 || in->opcode == 0xc4 ||
		    in->opcode == 0xc5 || in->opcode == 0xc6;
		break;
	case X86_MAP_0F3A:
	case X86_MAP_XOP8:
		imm8 = 1;
		break;
	case X86_MAP_XOPA:
		/* bextr, lwpins, lwpval: imm32 */
		read_imm(d, in, 4);
		break;
	default:
		break;
	}
	if (imm8)
		read_imm(d, in, 1);
	return (0);
}

int
x86_decode(const uint8_t *buf, size_t avail, uint64_t pc, unsigned int flags,
    x86_insn_t *in)
{
	dstate_t d;
	unsigned int attr;
	int kind;
	uint8_t b, last_rep = 0;

	memset(in, 0, sizeof (*in));
	memset(&d, 0, sizeof (d));
	in->pc = pc;
	in->mem.base = X86_REG_NONE;
	in->mem.index = X86_REG_NONE;
	d.buf = buf;
	d.avail = avail;

	/*
	 * Legacy prefixes in any order and number, then REX.  A REX that
	 * is followed by a legacy prefix is ignored by the processor, and
	 * of several REX bytes only the last counts.
	 */
	for (;;) {
		if (!need(&d, 1))
			goto fail;
		b = buf[d.i];
		switch (b) {
		case 0xf0:
			in->prefixes |= X86_PFX_LOCK;
			break;
		case 0xf2:
			in->prefixes |= X86_PFX_REPNE;
			last_rep = b;
			break;
		case 0xf3:
			in->prefixes |= X86_PFX_REP;
			last_rep = b;
			break;
		case 0x66:
			in->prefixes |= X86_PFX_OPSIZE;
			break;
		case 0x67:
			in->prefixes |= X86_PFX_ADSIZE;
			break;
		case 0x26:
			in->prefixes |= X86_PFX_SEG;
			in->seg = X86_SEG_ES;
			break;
		case 0x2e:
			in->prefixes |= X86_PFX_SEG;
			in->seg = X86_SEG_CS;
			break;
		case 0x36:
			in->prefixes |= X86_PFX_SEG;
			in->seg = X86_SEG_SS;
			break;
		case 0x3e:
			in->prefixes |= X86_PFX_SEG;
			in->seg = X86_SEG_DS;
			break;
		case 0x64:
			in->prefixes |= X86_PFX_SEG;
			in->seg = X86_SEG_FS;
			break;
		case 0x65:
			in->prefixes |= X86_PFX_SEG;
			in->seg = X86_SEG_GS;
			break;
		default:
			if ((b & 0xf0) == 0x40) {
				in->rex = b;
				in->rex_off = (uint8_t)d.i;
				d.i++;
				continue;
			}
			goto prefixes_done;
		}
		in->rex = 0;
		d.i++;
		in->npfx = (uint8_t)d.i;
	}
prefixes_done:
	if (in->rex != 0) {
		d.rex_w = (in->rex >> 3) & 1;
		d.rex_r = (in->rex >> 2) & 1;
		d.rex_x = (in->rex >> 1) & 1;
		d.rex_b = in->rex & 1;
	}
	/* F2/F3 (the last one given) take precedence over 66. */
	if (last_rep != 0)
		d.mp = last_rep;
	else if (in->prefixes & X86_PFX_OPSIZE)
		d.mp = 0x66;
	in->opsize = d.rex_w ? 8 : (in->prefixes & X86_PFX_OPSIZE) ? 2 : 4;

	in->opc_off = (uint8_t)d.i;
	b = buf[d.i++];
	in->opcode = b;
	in->map = X86_MAP_1B;

	switch (b) {
	case 0xc4:
	case 0xc5:
	case 0x62:
		goto vex;
	case 0x8f:
		/* XOP when ModRM.reg would be nonzero, i.e. map >= 8. */
		if (!need(&d, 1))
			goto fail;
		if ((buf[d.i] & 0x18) != 0)
			goto vex;
		break;
	case 0x0f:
		if (!need(&d, 1))
			goto fail;
		b = buf[d.i++];
		in->opc_off = (uint8_t)(d.i - 1);
		if (b == 0x38 || b == 0x3a) {
			if (!need(&d, 1))
				goto fail;
			in->map = b == 0x38 ? X86_MAP_0F38 : X86_MAP_0F3A;
			in->opc_off = (uint8_t)d.i;
			in->opcode = buf[d.i++];
			decode_modrm(&d, in, 0);
			if (b == 0x3a)
				read_imm(&d, in, 1);
			if (d.err != 0)
				goto fail;
			if (!vex_assigned(b == 0x38 ? legacy_map2 :
			    legacy_map3, in->opcode, mp_bit(d.mp)))
				goto invalid;
			if (b == 0x38 && !map0f38_form_ok(&d, in))
				goto invalid;
			goto done;
		}
		if (b == 0x0f) {
			/* 3DNow!: 0F 0F ModRM [SIB] [disp] opcode */
			in->map = X86_MAP_3DNOW;
			decode_modrm(&d, in, 0);
			read_imm(&d, in, 1);
			if (d.err != 0)
				goto fail;
			in->opcode = (uint8_t)in->imm;
			if (!INSET(amd3dnow_valid, in->opcode))
				goto invalid;
			goto done;
		}
		in->map = X86_MAP_0F;
		in->opcode = b;
		break;
	}

	attr = in->map == X86_MAP_1B ? op1[in->opcode] : op0f[in->opcode];
	if (attr & A_X)
		goto invalid;
	if (attr & A_M) {
		/* 0F 20-23 ignore mod: always register operands */
		decode_modrm(&d, in, in->map == X86_MAP_0F &&
		    in->opcode >= 0x20 && in->opcode <= 0x23);
		if (d.err != 0)
			goto fail;
	}
	kind = (int)(attr & A_IMM);
	if (in->map == X86_MAP_0F && !sse_valid(&d, in))
		goto invalid;
	if (attr & A_SPEC) {
		kind = decode_special(&d, in, attr);
		if (kind < 0)
			goto invalid;
	}
	decode_imm(&d, in, (unsigned int)kind, flags);
	if (d.err != 0)
		goto fail;
	classify(in);
	goto done;

vex:
	{
		x86_insn_t pre = *in;

		if (decode_vex(&d, in, b, &pre) != 0)
			goto invalid;
		if (d.err != 0)
			goto fail;
	}

done:
	in->len = (uint8_t)d.i;
	if (in->is_rel) {
		uint64_t next = pc + in->len;

		in->target = next + (uint64_t)in->imm;
		if (in->imm_size == 2)
			in->target &= 0xffff;
	} else if (in->rip_rel) {
		in->target = pc + in->len + (uint64_t)in->disp;
		if (in->prefixes & X86_PFX_ADSIZE)
			in->target &= 0xffffffffULL;
	}
	return (0);

invalid:
	d.err = X86_DEC_INVALID;
fail:
	{
		int err = d.err != 0 ? d.err : X86_DEC_INVALID;

		memset(in, 0, sizeof (*in));
		in->pc = pc;
		return (err);
	}
}

const char *
x86_cf_name(x86_cf_t cf)
{
	static const char *const names[] = {
		"none", "call", "jmp", "jcc", "loop", "jrcxz", "xbegin",
		"ret", "call-indirect", "jmp-indirect", "call-far",
		"jmp-far", "ret-far", "iret", "syscall", "sysret", "int3",
		"int", "ud"
	};

	if ((unsigned int)cf < sizeof (names) / sizeof (names[0]))
		return (names[cf]);
	return ("?");
}
