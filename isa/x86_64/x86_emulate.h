/* SPDX-License-Identifier: MIT */
/*
 * x86_emulate.h: running a displaced x86-64 instruction for a probe.
 *
 * When a breakpoint replaces the first byte of an instruction, the
 * instruction must still take effect when the traced thread continues.
 * Two ways, as the fasttrap provider did:
 *
 *  - Emulate it: instructions whose effect depends on their own address
 *    (call, jmp, jcc, loop, jrcxz, ret, and indirect call/jmp through any
 *    ModRM/SIB/REX form such as "call *(%r12,%rax,8)") are cheap to
 *    perform on a copy of the thread's registers, reading and writing the
 *    target's memory through caller-supplied callbacks.  push/pop of a
 *    register are emulated too, since they are common at function entry.
 *
 *  - Run it out of line: copy it to a scratch area of the target mapped
 *    executable, followed by a jump back to the next instruction.  A
 *    RIP-relative operand is rewritten to address the same location from
 *    the scratch copy, or, when the scratch area is too far away for a
 *    32-bit displacement, to address it through a scratch register that
 *    the copied code itself saves, loads and restores (so no tracer help
 *    and no stack -- the red zone below %rsp may be live -- is needed).
 *
 * x86_strategy() says which applies, or that the site must be refused.
 * Everything here is pure C11 with no OS headers.
 */

#ifndef	ISA_X86_64_X86_EMULATE_H
#define	ISA_X86_64_X86_EMULATE_H

#include <stddef.h>
#include <stdint.h>

#include "isa/x86_64/x86_decode.h"

#ifdef	__cplusplus
extern "C" {
#endif

/* A thread's integer state; r[] is indexed by X86_RAX .. X86_R15. */
typedef struct x86_regs {
	uint64_t	r[16];
	uint64_t	rip;
	uint64_t	rflags;
	uint64_t	fs_base;
	uint64_t	gs_base;
} x86_regs_t;

/*
 * Access to the traced process's memory.  Each returns 0 on success and
 * nonzero if any byte of the range is inaccessible.
 */
typedef struct x86_memops {
	int	(*read)(void *arg, uint64_t addr, void *buf, size_t len);
	int	(*write)(void *arg, uint64_t addr, const void *buf, size_t len);
	void	*arg;
} x86_memops_t;

typedef enum x86_strategy {
	X86_STRAT_EMULATE,	/* x86_emulate() handles it */
	X86_STRAT_OOL,		/* x86_ool_build() handles it */
	X86_STRAT_REFUSE	/* neither is safe: do not probe here */
} x86_strategy_t;

/* How a probe at this (successfully decoded) instruction is run. */
extern x86_strategy_t x86_strategy(const x86_insn_t *in);

/* x86_emulate() results. */
#define	X86_EMU_OK		0	/* done; regs->rip is the next pc */
#define	X86_EMU_UNSUPPORTED	1	/* not emulated; regs unchanged */
#define	X86_EMU_FAULT		2	/* memory access failed; regs */
					/* unchanged, *faultp = address */

/*
 * Emulate in (decoded at in->pc, which must equal regs->rip, else
 * X86_EMU_UNSUPPORTED) on regs, accessing memory through mem.  On
 * X86_EMU_FAULT the caller should deliver SIGSEGV as the processor would
 * have; nothing was modified.
 */
extern int x86_emulate(const x86_insn_t *in, x86_regs_t *regs,
    const x86_memops_t *mem, uint64_t *faultp);

/*
 * The linear address of in's ModRM memory operand (in->has_mem) under
 * regs: segment base (FS and GS only, as in 64-bit mode) + base +
 * index * scale + displacement, truncated to 32 bits for a 67 prefix.
 * Not meaningful for VSIB or EVEX compressed displacements.
 */
extern uint64_t x86_mem_addr(const x86_insn_t *in, const x86_regs_t *regs);

/* Whether condition code cc (the low nibble of jcc/setcc) holds. */
extern int x86_cond(unsigned int cc, uint64_t rflags);

/* Out-of-line copies. */
#define	X86_OOL_MAX	80	/* bytes x86_ool_build() may write */

typedef struct x86_ool {
	size_t		len;		/* bytes of code and data written */
	size_t		insn_off;	/* offset of the copied instruction */
	int		scratch_reg;	/* register borrowed, or X86_REG_NONE */
	uint64_t	resume;		/* where the code jumps back to */
} x86_ool_t;

/*
 * Build in buf (at least X86_OOL_MAX bytes) the code that, placed at
 * address scratch in the target and jumped to with the thread's
 * registers as they were at the probe site, performs the instruction
 * whose bytes are insn[0 .. in->len - 1] and continues at in->pc +
 * in->len.  The copy must be private to the thread while it runs (it
 * holds a save slot when a scratch register is borrowed).  Returns 0, or
 * -1 if the instruction cannot run out of line (see x86_strategy()).
 */
extern int x86_ool_build(const x86_insn_t *in, const uint8_t *insn,
    uint64_t scratch, uint8_t *buf, size_t bufsz, x86_ool_t *out);

#ifdef	__cplusplus
}
#endif

#endif	/* ISA_X86_64_X86_EMULATE_H */
