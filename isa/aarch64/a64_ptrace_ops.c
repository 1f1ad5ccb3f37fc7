/* SPDX-License-Identifier: MIT */
/*
 * a64_ptrace_ops.c: AArch64's part of the ptrace engine that needs no
 * ptrace(2) (isa/dt_isa.h, "Linux, for the ptrace engine"): the
 * breakpoint, injected system calls, the register set's words, and the
 * displaced instruction -- emulated on the register set with
 * a64_emulate() when it reads its own address, or copied out of line.
 * Built for an arm64 host (isa/dt_isa.h's instruction-level types are
 * arm64's there); a64_ptrace.c has ptrace(2) and the breakpoint
 * handler's code.
 *
 * The breakpoint is brk #0: the kernel stops the thread with SIGTRAP
 * (TRAP_BRKPT) and the pc at the brk, not past it, as x86-64's 0xce does.
 *
 * An out-of-line copy cannot branch back: a b reaches 128 MiB, and the
 * scratch area is wherever mmap put it, and no register is free to
 * branch through.  So the copy ends in a trap of its own, with the
 * address to go on at beside it:
 *
 *	+0	the instruction
 *	+4	brk #A64_OOL_BRK		(the return trap)
 *	+8	A64_OOL_MAGIC			(so a stray brk is not taken
 *	+12	A64_OOL_MAGIC2			 for one)
 *	+16	the address to go on at (the site + 4)
 *	+24	a literal load's data, if it is one into a vector
 *		register (the load at +0 rewritten to read it here)
 *
 * and the engine, stopped at that trap, sends the thread on
 * (dt_isa_ptrace_ool_return()); so does the handler when the tracer has
 * died.  Exclusive loads and stores are never copied (a64_strategy()
 * refuses them, and the sites between them: the trap in between would
 * clear the exclusive monitor).
 */

#include <linux/audit.h>
#include <signal.h>
#include <string.h>

#include "isa/dt_isa.h"
#include "isa/aarch64/a64_decode.h"
#include "isa/aarch64/a64_emulate.h"

#define A64_W(i)      (8 * (i))
#define A64_SYSCALLNO A64_NREGS /* the word after user_pt_regs */

#define A64_BRK(imm)   (0xd4200000u | ((uint32_t) (imm) << 5))
#define A64_OOL_BRK    0x7d7
#define A64_OOL_MAGIC  0x6f6f6c64u /* "dloo" */
#define A64_OOL_MAGIC2 0x6b637274u /* "trck" */
#define A64_OOL_LEN    24

/* The bytes of a little-endian word. */
#define A64_LE(w)                                                              \
	(uint8_t)((w) &0xff), (uint8_t) (((w) >> 8) & 0xff),                   \
	    (uint8_t) (((w) >> 16) & 0xff), (uint8_t) (((w) >> 24) & 0xff)

const dt_isa_ptrace_t dt_isa_ptrace = {
    .ip_brk = {A64_LE(A64_BRK(0))},
    .ip_brklen = 4,
    .ip_brksig = SIGTRAP,
    .ip_brkcode = TRAP_BRKPT,
    /* svc #0; b . -- and svc #0; brk #0 */
    .ip_injspin = {A64_LE(0xd4000001u), A64_LE(0x14000000u)},
    .ip_injtrap = {A64_LE(0xd4000001u), A64_LE(A64_BRK(0))},
    .ip_sysdone = 4,
    .ip_sysnr = A64_W(8),
    .ip_sysargs = {A64_W(0), A64_W(1), A64_W(2), A64_W(3), A64_W(4), A64_W(5)},
    .ip_sysret = A64_W(0),
    /* NT_ARM_SYSTEM_CALL: -1 is no system call, nothing to restart */
    .ip_norestart = A64_W(A64_SYSCALLNO),
    /* x8: the number as the caller put it, at entry and exit stops */
    .ip_stopnr = A64_W(8),
    .ip_auditarch = AUDIT_ARCH_AARCH64,
    .ip_jmplen = 4, /* b imm26: the top six bits 000101 */
    .ip_jmpop = 0x14,
    .ip_jmpop_at = 3,
    .ip_jmpop_mask = 0xfc,
};

/*
 * None on arm64: going back needs every register loaded and a branch to
 * an address that may be out of reach of b, through a register that
 * would then not be the thread's.  An injected call ends in b . (with a
 * guard to take the thread back) or brk #0.
 */
size_t
dt_isa_ptrace_injback(const dt_isa_ptregs_t *saved, dt_isa_ptregs_t *r,
    uint8_t *code, uint8_t *blk, size_t *blklen, uint64_t *blkaddr)
{
	(void) saved;
	(void) r;
	(void) code;
	(void) blk;
	*blklen = 0;
	*blkaddr = 0;
	return 0;
}

int
dt_isa_ptrace_decode(const uint8_t *code, size_t n, uint64_t addr,
    dt_isa_insn_t *in, dt_isa_strategy_t *strat)
{
	if (n < 4 || (addr & 3) != 0)
		return -1;
	a64_decode(a64_word(code), addr, in);
	*strat = a64_strategy(in);
	/* Its register is a vector one: see dt_isa_ptrace_ool(). */
	if (in->cls == A64_C_LDR_LIT && in->simd)
		*strat = A64_STRAT_OOL;
	return 0;
}

static void
a64_pt_to_regs(const dt_isa_ptregs_t *r, a64_regs_t *a)
{
	memset(a, 0, sizeof(*a));
	memcpy(a->x, r->pr_w, sizeof(a->x));
	a->sp = r->pr_w[A64_REG_SP];
	a->pc = r->pr_w[A64_REG_PC];
	a->pstate = r->pr_w[A64_REG_PSTATE];
}

int
dt_isa_ptrace_emulate(
    const dt_isa_insn_t *in, dt_isa_ptregs_t *r, const dt_isa_memops_t *mem)
{
	a64_regs_t a;
	uint64_t fault;

	if (in->cls == A64_C_LDR_LIT && in->simd)
		return -1;
	a64_pt_to_regs(r, &a);
	if (a64_emulate(in, &a, mem, &fault) != A64_EMU_OK)
		return -1;
	memcpy(r->pr_w, a.x, sizeof(a.x));
	r->pr_w[A64_REG_SP] = a.sp;
	r->pr_w[A64_REG_PC] = a.pc;
	r->pr_w[A64_REG_PSTATE] = a.pstate;
	return 0;
}

static void
a64_put32(uint8_t *p, uint32_t w)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t) (w >> (8 * i));
}

static void
a64_put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t) (v >> (8 * i));
}

static uint64_t
a64_get64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v |= (uint64_t) p[i] << (8 * i);
	return v;
}

/*
 * Only what runs the same anywhere is copied; the rest is emulated --
 * but for a literal load into a vector register, whose register the
 * emulator cannot hand back through the general registers: it is
 * copied as a literal load of a copy of its data, placed after the
 * return trap, read at each hit (the copy is the thread's own).
 */
int
dt_isa_ptrace_ool(const dt_isa_insn_t *in, const uint8_t *insn, uint64_t at,
    const dt_isa_memops_t *mem, uint8_t *buf, size_t size, size_t *lenp,
    int *privatep)
{
	int lit = in->cls == A64_C_LDR_LIT && in->simd;
	uint32_t w = a64_word(insn);

	(void) at;
	if ((!lit && a64_strategy(in) != A64_STRAT_OOL) ||
	    size < A64_OOL_LEN + 16)
		return -1;
	if (lit) {
		if (mem == NULL || mem->read == NULL || in->size > 16 ||
		    mem->read(
			mem->arg, in->target, buf + A64_OOL_LEN, in->size) != 0)
			return -1;
		/* imm19: the data's distance from the load, in words */
		w = (w & ~(0x7ffffu << 5)) | ((A64_OOL_LEN / 4) << 5);
	}
	a64_put32(buf, w);
	a64_put32(buf + 4, A64_BRK(A64_OOL_BRK));
	a64_put32(buf + 8, A64_OOL_MAGIC);
	a64_put32(buf + 12, A64_OOL_MAGIC2);
	a64_put64(buf + 16, in->pc + 4);
	*lenp = A64_OOL_LEN + (lit ? in->size : 0);
	*privatep = lit;
	return 0;
}

int
dt_isa_ptrace_ool_return(const uint8_t *code, size_t n, uint64_t *resumep)
{
	if (n < A64_OOL_LEN - 4 || a64_word(code) != A64_BRK(A64_OOL_BRK) ||
	    a64_word(code + 4) != A64_OOL_MAGIC ||
	    a64_word(code + 8) != A64_OOL_MAGIC2)
		return 0;
	*resumep = a64_get64(code + 12);
	return 1;
}

int
dt_isa_ptrace_ool_leave(const uint8_t *code, size_t n, uint64_t *pcp)
{
	uint64_t resume;

	if (dt_isa_ptrace_ool_return(code, n, &resume)) {
		*pcp = resume;
		return 1;
	}
	if (n >= 4 && dt_isa_ptrace_ool_return(code + 4, n - 4, &resume)) {
		*pcp = resume - 4;
		return 1;
	}
	return 0;
}

/* A conditional branch leaves when it is taken; the others always do. */
int
dt_isa_ptrace_taken(const dt_isa_insn_t *in, const dt_isa_ptregs_t *r)
{
	a64_regs_t a;

	switch ((a64_class_t) in->cls) {
	case A64_C_BCOND:
	case A64_C_CBZ:
	case A64_C_CBNZ:
	case A64_C_TBZ:
	case A64_C_TBNZ:
		a64_pt_to_regs(r, &a);
		a.pc = in->pc;
		return a64_emulate(in, &a, NULL, NULL) == A64_EMU_OK &&
		    a.pc == in->target;
	default:
		return 1;
	}
}

/*
 * Counting sites (os/linux/ptrace/dt_ptrace_fast.c): the site's first
 * instruction becomes a b to a trampoline of its own, which counts with
 * an exclusive load/store pair on three registers it saves on the stack
 * (the AAPCS64 has no red zone, and sp is 16-byte aligned at a function's
 * entry), runs the displaced instruction and branches back:
 *
 *	+0	stp x15, x16, [sp, #-32]!
 *	+4	str x17, [sp, #16]
 *	+8	ldr x16, +48			(the counter's address)
 *	+12	ldxr x17, [x16]
 *	+16	add x17, x17, #1
 *	+20	stxr w15, x17, [x16]
 *	+24	cbnz w15, +12
 *	+28	ldr x17, [sp, #16]
 *	+32	ldp x15, x16, [sp], #32
 *	+36	<the displaced instruction>
 *	+40	b site + 4
 *	+44	nop
 *	+48	the counter's address
 *
 * Only an instruction that runs the same anywhere is displaced (class
 * OTHER: no pc-relative operand, no branch, no exclusive access, no
 * system call or trap) -- and not a landing pad: bti and the pointer
 * authentication hints (paciasp) stay where an indirect call lands, or a
 * page guarded by BTI would fault at the b; such sites keep their
 * breakpoint.  One instruction is displaced, so no other instruction
 * starts inside it and no thread can be stopped within it.
 */
#define A64_TRAMP_LEN 56
#define A64_NOP	      0xd503201fu

static const uint32_t a64_tramp_count[] = {
    0xa9be43efu, /* stp x15, x16, [sp, #-32]! */
    0xf9000bf1u, /* str x17, [sp, #16] */
    0x58000150u, /* ldr x16, +40 (to +48) */
    0xc85f7e11u, /* ldxr x17, [x16] */
    0x91000631u, /* add x17, x17, #1 */
    0xc80f7e11u, /* stxr w15, x17, [x16] */
    0x35ffffafu, /* cbnz w15, -12 */
    0xf9400bf1u, /* ldr x17, [sp, #16] */
    0xa8c243efu, /* ldp x15, x16, [sp], #32 */
};

int
dt_isa_ptrace_lands(
    const uint8_t *code, uint64_t addr, uint64_t size, size_t len)
{
	(void) code;
	(void) addr;
	(void) size;
	/* Nothing starts inside one instruction. */
	return len > 4;
}

size_t
dt_isa_ptrace_tramp(uint64_t addr, const uint8_t *code, size_t avail,
    uint64_t tramp, uint64_t ctr, uint8_t *buf, size_t bufsz, size_t *lenp)
{
	size_t n = 0;
	a64_insn_t in;

	if (avail < 4 || bufsz < A64_TRAMP_LEN || (addr & 3) != 0 ||
	    (tramp & 7) != 0)
		return 0;
	a64_decode(a64_word(code), addr, &in);
	if (in.cls != A64_C_OTHER || a64_strategy(&in) != A64_STRAT_OOL)
		return 0;
	for (size_t i = 0; i < sizeof(a64_tramp_count) / 4; i++, n += 4)
		a64_put32(buf + n, a64_tramp_count[i]);
	memcpy(buf + n, code, 4);
	n += 4;
	if (dt_isa_ptrace_jmp(tramp + n, addr + 4, buf + n) != 0)
		return 0;
	n += 4;
	a64_put32(buf + n, A64_NOP);
	n += 4;
	a64_put64(buf + n, ctr);
	n += 8;
	*lenp = 4;
	return n;
}

/* b to: imm26, words from the b itself, within 128 MiB either way. */
int
dt_isa_ptrace_jmp(uint64_t from, uint64_t to, uint8_t *buf)
{
	int64_t d = (int64_t) (to - from);

	if ((d & 3) != 0 || d < -(1LL << 27) || d >= (1LL << 27))
		return -1;
	a64_put32(buf, 0x14000000u | ((uint32_t) (d >> 2) & 0x3ffffffu));
	return 0;
}
