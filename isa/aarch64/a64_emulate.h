/* SPDX-License-Identifier: MIT */
/*
 * a64_emulate.h: running a displaced A64 instruction for a probe.
 *
 * A breakpoint (brk) replaces the word at a probe site; when the traced
 * thread goes on, that instruction must still take effect.  An A64
 * instruction either does not care where it runs, and is executed out
 * of line (a copy on a scratch page, the thread's pc moved back to the
 * next instruction afterwards), or reads its own address -- adr, adrp,
 * literal loads, every direct branch, and the calls that write the
 * return address -- and is emulated here on a copy of the registers.
 * ret, br and blr are emulated too: it is cheaper than a round trip
 * through a scratch page.
 *
 * Refused: exclusive loads and stores (the trap in between clears the
 * exclusive monitor, so a store-exclusive would fail for ever), blraa and
 * its kind (they write the return address from their own pc and
 * authenticate with a key only the thread has), brk/hlt/udf (they trap on
 * purpose), and what user space cannot run (eret, drps, hvc, smc).
 *
 * Pure C11, no OS headers: the register file is this file's own struct,
 * memory is reached through callbacks.
 */

#ifndef ISA_AARCH64_A64_EMULATE_H
#define ISA_AARCH64_A64_EMULATE_H

#include <stddef.h>
#include <stdint.h>

#include "isa/aarch64/a64_decode.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Linux's user_pt_regs order, so that index * 8 is the pt_regs offset. */
#define A64_REG_SP     31
#define A64_REG_PC     32
#define A64_REG_PSTATE 33
#define A64_NREGS      34

typedef struct a64_regs {
	uint64_t x[31]; /* x0 .. x30 (x30 is the link register) */
	uint64_t sp;
	uint64_t pc;
	uint64_t pstate;   /* NZCV in bits 31..28 */
	uint64_t v[32][2]; /* SIMD&FP registers, low half first */
} a64_regs_t;

typedef struct a64_memops {
	int (*read)(void *arg, uint64_t addr, void *buf, size_t len);
	int (*write)(void *arg, uint64_t addr, const void *buf, size_t len);
	void *arg;
} a64_memops_t;

typedef enum a64_strategy {
	A64_STRAT_EMULATE, /* a64_emulate() handles it */
	A64_STRAT_OOL,	   /* the same word runs anywhere */
	A64_STRAT_REFUSE   /* do not probe here */
} a64_strategy_t;

extern a64_strategy_t a64_strategy(const a64_insn_t *in);

/* Why a64_strategy() refuses in, or NULL. */
extern const char *a64_refusal(const a64_insn_t *in);

#define A64_EMU_OK	    0 /* done; regs->pc is the next pc */
#define A64_EMU_UNSUPPORTED 1 /* not emulated; regs unchanged */
#define A64_EMU_FAULT	    2 /* memory read failed at *faultp; */
			      /* regs unchanged */

/*
 * Emulate in (decoded at in->pc, which must equal regs->pc) on regs,
 * reading memory through mem (only literal loads read).
 */
extern int a64_emulate(const a64_insn_t *in, a64_regs_t *regs,
    const a64_memops_t *mem, uint64_t *faultp);

/* Whether condition code cc (of b.cond) holds under pstate's NZCV. */
extern int a64_cond(unsigned cc, uint64_t pstate);

#ifdef __cplusplus
}
#endif

#endif /* ISA_AARCH64_A64_EMULATE_H */
