/* SPDX-License-Identifier: MIT */
/*
 * a64_decode.h: the classes of AArch64 (A64) instructions that matter to
 * a probe placed on them.
 *
 * Every A64 instruction is one little-endian 32-bit word, so there is no
 * length to find: what a probe needs to know is whether the instruction
 * still does the same thing when it runs somewhere else (out of line, on
 * a scratch page) or must be emulated, or must not be probed at all.
 * a64_decode() sorts a word into one of the classes below and extracts
 * the operands the emulator (a64_emulate.h) needs.
 *
 * Pure C11, no OS headers: usable and testable on any host.
 */

#ifndef ISA_AARCH64_A64_DECODE_H
#define ISA_AARCH64_A64_DECODE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum a64_class {
	A64_C_OTHER,	/* does not depend on its own address */
	A64_C_ADR,	/* adr xd, label */
	A64_C_ADRP,	/* adrp xd, label (4 KiB page) */
	A64_C_LDR_LIT,	/* ldr w/x/s/d/q, ldrsw: pc-relative load */
	A64_C_PRFM_LIT, /* prfm op, label */
	A64_C_B,	/* b label */
	A64_C_BL,	/* bl label */
	A64_C_BCOND,	/* b.cond / bc.cond label */
	A64_C_CBZ,	/* cbz / cbnz rt, label */
	A64_C_CBNZ,
	A64_C_TBZ, /* tbz / tbnz rt, #bit, label */
	A64_C_TBNZ,
	A64_C_RET,	/* ret xn */
	A64_C_BR,	/* br xn */
	A64_C_BLR,	/* blr xn */
	A64_C_RET_PAC,	/* retaa, retab */
	A64_C_BR_PAC,	/* braa, brab, braaz, brabz */
	A64_C_BLR_PAC,	/* blraa, blrab, blraaz, blrabz */
	A64_C_ERET,	/* eret, eretaa, eretab, drps (not at EL0) */
	A64_C_PAC_HINT, /* paciasp, autiasp, ..., xpaclri (hint space) */
	A64_C_BTI,	/* bti [c|j|jc] */
	A64_C_LDEX,	/* ldxr, ldaxr, ldxp, ldaxp (b/h too) */
	A64_C_STEX,	/* stxr, stlxr, stxp, stlxp (b/h too) */
	A64_C_CLREX,	/* clrex */
	A64_C_SVC,
	A64_C_HVC,
	A64_C_SMC,
	A64_C_BRK,
	A64_C_HLT,
	A64_C_UDF, /* udf #imm16: permanently undefined */
	A64_C_NCLASS
} a64_class_t;

/* Register 31 as an operand: xzr/wzr for most, sp for some (noted). */
#define A64_ZR 31

typedef struct a64_insn {
	uint64_t pc;	 /* where it was decoded */
	uint64_t target; /* pc-relative classes: the address they name */
	uint32_t word;
	uint8_t cls;  /* a64_class_t */
	uint8_t rt;   /* destination / tested / loaded register */
	uint8_t rn;   /* ret/br/blr and pac forms: the branch register */
	uint8_t cond; /* b.cond: condition code 0..15 */
	uint8_t bit;  /* tbz/tbnz: bit number 0..63 */
	uint8_t size; /* ldr literal: bytes loaded (4, 8, 16); */
		      /* cbz/cbnz: register width (4 or 8) */
	uint8_t simd; /* ldr literal into s/d/q */
	uint8_t sign; /* ldrsw literal */
	uint16_t imm; /* svc/hvc/smc/brk/hlt/udf immediate */
} a64_insn_t;

/* Decode the instruction word at address pc; every word has a class. */
extern void a64_decode(uint32_t word, uint64_t pc, a64_insn_t *in);

/* The little-endian word at p (which need not be aligned). */
extern uint32_t a64_word(const uint8_t *p);

/* "adr", "b.cond", "ldex", ...: for messages and tests. */
extern const char *a64_class_name(a64_class_t cls);

/* Whether the class names an address relative to its own pc. */
extern int a64_class_pcrel(a64_class_t cls);

#ifdef __cplusplus
}
#endif

#endif /* ISA_AARCH64_A64_DECODE_H */
