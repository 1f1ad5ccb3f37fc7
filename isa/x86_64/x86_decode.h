/* SPDX-License-Identifier: MIT */
/*
 * x86_decode.h: an exact decoder for x86-64 (64-bit mode) user instructions.
 *
 * The pid provider puts probes on arbitrary instruction boundaries of a
 * running process and must run or emulate the instruction it displaced.
 * Both need to know, for the bytes at a probe site: how long the instruction
 * is, whether and where it addresses memory relative to its own %rip, where
 * its immediate lives, whether it transfers control (and where to, for
 * relative branches), and how its ModRM memory operand decomposes into
 * base + index * scale + displacement.  A wrong length corrupts the traced
 * program, so the decoder is checked against an independent disassembler
 * over whole binaries (tests/isa/).
 *
 * The decoder is pure C11 and uses no OS headers: it only looks at bytes.
 * It does not produce mnemonics; it is a length and operand-shape decoder,
 * which is what instrumentation needs.
 *
 * Usage:
 *
 *	x86_insn_t in;
 *	if (x86_decode(bytes, nbytes, pc, 0, &in) != 0)
 *		... not a valid instruction (in.len is 0) ...
 *
 * x86_insn_t records the offsets of every part of the encoding (prefixes,
 * opcode, ModRM, SIB, displacement, immediates) so that callers can patch
 * them, e.g. rewrite a RIP-relative disp32 when copying the instruction
 * elsewhere.  All offsets are from the first byte of the instruction.
 */

#ifndef	ISA_X86_64_X86_DECODE_H
#define	ISA_X86_64_X86_DECODE_H

#include <stddef.h>
#include <stdint.h>

#ifdef	__cplusplus
extern "C" {
#endif

/* The architectural maximum; longer encodings raise #GP. */
#define	X86_MAX_INSN_LEN	15

/*
 * Control-flow kinds.  "Relative" kinds carry a target in x86_insn_t.target.
 */
typedef enum x86_cf {
	X86_CF_NONE = 0,	/* falls through to the next instruction */
	X86_CF_CALL,		/* call rel32 (relative) */
	X86_CF_JMP,		/* jmp rel8 / rel32 (relative) */
	X86_CF_JCC,		/* jcc rel8 / rel32 (relative) */
	X86_CF_LOOP,		/* loop, loope, loopne rel8 (relative) */
	X86_CF_JRCXZ,		/* jrcxz / jecxz rel8 (relative) */
	X86_CF_XBEGIN,		/* xbegin rel16/32: abort path (relative) */
	X86_CF_RET,		/* ret, ret imm16 */
	X86_CF_CALL_IND,	/* call *r/m64 (FF /2) */
	X86_CF_JMP_IND,		/* jmp *r/m64 (FF /4) */
	X86_CF_CALL_FAR,	/* lcall *m16:64 (FF /3) */
	X86_CF_JMP_FAR,		/* ljmp *m16:64 (FF /5) */
	X86_CF_RET_FAR,		/* lret, lret imm16 */
	X86_CF_IRET,		/* iret */
	X86_CF_SYSCALL,		/* syscall, sysenter */
	X86_CF_SYSRET,		/* sysret, sysexit (privileged) */
	X86_CF_INT3,		/* int3 (CC) */
	X86_CF_INT,		/* int imm8, int1 (F1) */
	X86_CF_UD		/* ud0, ud1, ud2: defined to raise #UD */
} x86_cf_t;

/* Opcode maps. */
typedef enum x86_map {
	X86_MAP_1B = 0,		/* one-byte opcodes */
	X86_MAP_0F,		/* 0F xx (also VEX/EVEX mmmmm=1) */
	X86_MAP_0F38,		/* 0F 38 xx (VEX/EVEX map 2) */
	X86_MAP_0F3A,		/* 0F 3A xx (VEX/EVEX map 3) */
	X86_MAP_3DNOW,		/* 0F 0F modrm imm8: opcode is the imm8 */
	X86_MAP_EVEX5,		/* EVEX map 5 (AVX512-FP16) */
	X86_MAP_EVEX6,		/* EVEX map 6 (AVX512-FP16) */
	X86_MAP_XOP8,		/* AMD XOP maps 8, 9 and 0A */
	X86_MAP_XOP9,
	X86_MAP_XOPA
} x86_map_t;

/* Vector encoding escape in use. */
typedef enum x86_vex {
	X86_VEX_NONE = 0,
	X86_VEX_VEX2,		/* C5 xx */
	X86_VEX_VEX3,		/* C4 xx xx */
	X86_VEX_EVEX,		/* 62 xx xx xx */
	X86_VEX_XOP		/* 8F xx xx */
} x86_vex_t;

/* Legacy prefixes seen (x86_insn_t.prefixes). */
#define	X86_PFX_LOCK	0x0001	/* F0 */
#define	X86_PFX_REPNE	0x0002	/* F2 */
#define	X86_PFX_REP	0x0004	/* F3 */
#define	X86_PFX_OPSIZE	0x0008	/* 66 */
#define	X86_PFX_ADSIZE	0x0010	/* 67 */
#define	X86_PFX_SEG	0x0020	/* any segment override (2E 36 3E 26 64 65) */

/* Segment override in effect (x86_insn_t.seg); the last one given wins. */
typedef enum x86_seg {
	X86_SEG_NONE = 0, X86_SEG_ES, X86_SEG_CS, X86_SEG_SS, X86_SEG_DS,
	X86_SEG_FS, X86_SEG_GS
} x86_seg_t;

/* General-purpose register numbers, as encoded with REX/VEX extensions. */
enum {
	X86_RAX = 0, X86_RCX, X86_RDX, X86_RBX, X86_RSP, X86_RBP, X86_RSI,
	X86_RDI, X86_R8, X86_R9, X86_R10, X86_R11, X86_R12, X86_R13, X86_R14,
	X86_R15,
	X86_RIP = 16,		/* base of a RIP-relative operand */
	X86_REG_NONE = -1
};

/*
 * The memory operand of a ModRM instruction with mod != 3:
 * address = seg base + base + index * scale + disp (truncated to 32 bits
 * when addr32 is set).  For RIP-relative operands base is X86_RIP and the
 * base value is the address of the next instruction.  For EVEX encodings
 * with a disp8, disp holds the raw (uncompressed) disp8 and disp8n is set:
 * the true displacement is disp8 * N, N depending on the operation.  With
 * VSIB (vector gathers/scatters), index names a vector register.
 */
typedef struct x86_mem {
	int8_t		base;		/* X86_R*, X86_RIP or X86_REG_NONE */
	int8_t		index;		/* X86_R* or X86_REG_NONE */
	uint8_t		scale;		/* 1, 2, 4 or 8 */
	uint8_t		seg;		/* x86_seg_t */
	uint8_t		addr32;		/* 67 prefix: 32-bit address */
	uint8_t		vsib;		/* index is a vector register */
	uint8_t		disp8n;		/* EVEX compressed disp8 */
	int32_t		disp;
} x86_mem_t;

typedef struct x86_insn {
	uint8_t		len;		/* total length, 0 if invalid */
	uint8_t		npfx;		/* bytes up to the last legacy */
					/*   prefix (with ignored REX) */
	uint16_t	prefixes;	/* X86_PFX_* */
	uint8_t		seg;		/* x86_seg_t of the last override */
	uint8_t		rex;		/* REX byte in effect, 0 if none */
	uint8_t		rex_off;	/* its offset (valid if rex != 0) */
	uint8_t		vex;		/* x86_vex_t */
	uint8_t		vex_off;	/* offset of C4/C5/62/8F escape */
	uint8_t		map;		/* x86_map_t */
	uint8_t		opcode;		/* opcode byte within the map */
	uint8_t		opc_off;	/* offset of the opcode byte */
	uint8_t		opsize;		/* operand size in bytes: 2, 4 or 8 */
	uint8_t		has_modrm;
	uint8_t		modrm;
	uint8_t		modrm_off;
	uint8_t		has_sib;
	uint8_t		sib;
	uint8_t		mod;		/* ModRM.mod */
	uint8_t		reg;		/* ModRM.reg with REX.R/VEX.R */
	uint8_t		rm;		/* ModRM.rm with REX.B (mod == 3) */
	uint8_t		vvvv;		/* VEX/EVEX/XOP register, 0 if none */
	uint8_t		vex_w;		/* VEX/EVEX/XOP W bit */
	uint8_t		vex_l;		/* VEX.L / EVEX.L'L */
	uint8_t		disp_off;	/* offset of displacement */
	uint8_t		disp_size;	/* 0, 1, 2, 4 or 8 (moffs) */
	uint8_t		imm_off;	/* offset of first immediate */
	uint8_t		imm_size;	/* its size: 0, 1, 2, 4 or 8 */
	uint8_t		imm2_off;	/* second immediate (enter, extrq, */
	uint8_t		imm2_size;	/*   insertq), else 0 */
	uint8_t		rip_rel;	/* memory operand is RIP-relative */
	uint8_t		cf;		/* x86_cf_t */
	uint8_t		is_rel;		/* target below is meaningful */
	uint8_t		has_mem;	/* ModRM memory operand (mod != 3) */
	int64_t		disp;		/* sign-extended displacement */
	int64_t		imm;		/* first immediate, sign-extended */
	int64_t		imm2;		/* second immediate */
	uint64_t	pc;		/* address it was decoded at */
	uint64_t	target;		/* branch target / RIP-rel address */
	x86_mem_t	mem;		/* ModRM memory operand if has_mem */
} x86_insn_t;

/*
 * Decoder options.  X86_DF_AMD: decode near relative branches (call, jmp,
 * jcc) with a 66 prefix as AMD processors do, taking a 16-bit displacement;
 * by default they are decoded as Intel processors do, ignoring the prefix.
 * Compilers never emit such instructions; the difference only matters for
 * adversarial or hand-written code, and GNU objdump decodes the AMD way.
 */
#define	X86_DF_AMD	0x1

/*
 * Decode the instruction at buf[0 .. avail-1], which lives at address pc.
 * Returns 0 and fills *insn on success.  Returns X86_DEC_INVALID for bytes
 * that are not a valid 64-bit-mode instruction (including encodings longer
 * than 15 bytes), and X86_DEC_SHORT when avail ends before the instruction
 * does (read more bytes and retry).  On failure insn->len is 0.
 */
#define	X86_DEC_INVALID	(-1)
#define	X86_DEC_SHORT	(-2)

extern int x86_decode(const uint8_t *buf, size_t avail, uint64_t pc,
    unsigned int flags, x86_insn_t *insn);

/* Name of a control-flow kind, for diagnostics. */
extern const char *x86_cf_name(x86_cf_t cf);

#ifdef	__cplusplus
}
#endif

#endif	/* ISA_X86_64_X86_DECODE_H */
