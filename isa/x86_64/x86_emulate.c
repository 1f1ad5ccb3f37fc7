/* SPDX-License-Identifier: MIT */
/*
 * x86_emulate.c: emulation and out-of-line copies of probed x86-64
 * instructions (see x86_emulate.h for the two techniques).
 *
 * Emulation works on an x86_regs_t snapshot.  Every memory access is done
 * before any register is changed, so a failed access leaves the snapshot
 * exactly as it was and the caller can deliver the fault at the probe
 * site.  Near branches with a 66 prefix are refused rather than emulated:
 * Intel processors ignore the prefix and AMD ones truncate %rip to 16
 * bits, so no single emulation is right for both.  LOOP with a 67 prefix
 * (count in %ecx) is refused for the same reason: what happens to the
 * upper half of %rcx is not architecturally pinned down.
 *
 * An out-of-line copy is laid out as
 *
 *	[save scratch reg; load it with the next pc]	far RIP-relative only
 *	instruction (displacement or ModRM rewritten)
 *	[movabs $next, %rcx]				syscall only
 *	[restore scratch reg]				far RIP-relative only
 *	jmp next					rel32, or jmp *0(%rip)
 *	[save slot]					far RIP-relative only
 *
 * After syscall, %rcx holds the address following the syscall instruction;
 * the copy reloads it with the original next address so the thread's
 * state is the same as if it had not been probed.
 */

#include <string.h>

#include "isa/x86_64/x86_emulate.h"

#define	RF_CF	0x0001
#define	RF_PF	0x0004
#define	RF_ZF	0x0040
#define	RF_SF	0x0080
#define	RF_OF	0x0800

int
x86_cond(unsigned int cc, uint64_t f)
{
	int r;

	switch ((cc >> 1) & 7) {
	case 0:
		r = (f & RF_OF) != 0;
		break;
	case 1:
		r = (f & RF_CF) != 0;
		break;
	case 2:
		r = (f & RF_ZF) != 0;
		break;
	case 3:
		r = (f & (RF_CF | RF_ZF)) != 0;
		break;
	case 4:
		r = (f & RF_SF) != 0;
		break;
	case 5:
		r = (f & RF_PF) != 0;
		break;
	case 6:
		r = ((f & RF_SF) != 0) != ((f & RF_OF) != 0);
		break;
	default:
		r = (f & RF_ZF) != 0 ||
		    ((f & RF_SF) != 0) != ((f & RF_OF) != 0);
		break;
	}
	return ((cc & 1) ? !r : r);
}

/* push/pop of a general register: 50+r, 58+r (REX.B selects r8-r15). */
static int
is_push_pop_reg(const x86_insn_t *in)
{
	return (in->map == X86_MAP_1B && in->vex == X86_VEX_NONE &&
	    in->opcode >= 0x50 && in->opcode <= 0x5f);
}

x86_strategy_t
x86_strategy(const x86_insn_t *in)
{
	if (in->len == 0)
		return (X86_STRAT_REFUSE);
	switch ((x86_cf_t)in->cf) {
	case X86_CF_CALL:
	case X86_CF_JMP:
	case X86_CF_JCC:
	case X86_CF_JRCXZ:
	case X86_CF_RET:
	case X86_CF_CALL_IND:
	case X86_CF_JMP_IND:
		if (in->prefixes & X86_PFX_OPSIZE)
			return (X86_STRAT_REFUSE);
		return (X86_STRAT_EMULATE);
	case X86_CF_LOOP:
		if (in->prefixes & (X86_PFX_OPSIZE | X86_PFX_ADSIZE))
			return (X86_STRAT_REFUSE);
		return (X86_STRAT_EMULATE);
	case X86_CF_SYSCALL:
		/* sysenter is not usable from 64-bit user code */
		return (in->opcode == 0x05 ? X86_STRAT_OOL : X86_STRAT_REFUSE);
	case X86_CF_INT:
	case X86_CF_NONE:
		if (is_push_pop_reg(in))
			return ((in->prefixes & X86_PFX_OPSIZE) ?
			    X86_STRAT_OOL : X86_STRAT_EMULATE);
		return (X86_STRAT_OOL);
	default:
		/*
		 * int3 (someone else's breakpoint), ud*, far transfers,
		 * iret, sysret, xbegin (its abort path is relative to the
		 * instruction): refuse.
		 */
		return (X86_STRAT_REFUSE);
	}
}

uint64_t
x86_mem_addr(const x86_insn_t *in, const x86_regs_t *regs)
{
	const x86_mem_t *m = &in->mem;
	uint64_t ea = (uint64_t)(int64_t)m->disp;

	if (m->base == X86_RIP)
		ea += in->pc + in->len;
	else if (m->base != X86_REG_NONE)
		ea += regs->r[m->base & 15];
	if (m->index != X86_REG_NONE && !m->vsib)
		ea += regs->r[m->index & 15] * m->scale;
	if (m->addr32)
		ea &= 0xffffffffULL;
	if (m->seg == X86_SEG_FS)
		ea += regs->fs_base;
	else if (m->seg == X86_SEG_GS)
		ea += regs->gs_base;
	return (ea);
}

static int
read64(const x86_memops_t *mem, uint64_t addr, uint64_t *v, uint64_t *faultp)
{
	uint8_t b[8];
	int k;

	if (mem->read(mem->arg, addr, b, 8) != 0) {
		*faultp = addr;
		return (-1);
	}
	*v = 0;
	for (k = 7; k >= 0; k--)
		*v = (*v << 8) | b[k];
	return (0);
}

static int
write64(const x86_memops_t *mem, uint64_t addr, uint64_t v, uint64_t *faultp)
{
	uint8_t b[8];
	int k;

	for (k = 0; k < 8; k++)
		b[k] = (uint8_t)(v >> (8 * k));
	if (mem->write(mem->arg, addr, b, 8) != 0) {
		*faultp = addr;
		return (-1);
	}
	return (0);
}

int
x86_emulate(const x86_insn_t *in, x86_regs_t *regs, const x86_memops_t *mem,
    uint64_t *faultp)
{
	uint64_t next = in->pc + in->len;
	uint64_t *rsp = &regs->r[X86_RSP];
	uint64_t v, count;
	int taken;

	if (x86_strategy(in) != X86_STRAT_EMULATE || regs->rip != in->pc)
		return (X86_EMU_UNSUPPORTED);

	switch ((x86_cf_t)in->cf) {
	case X86_CF_CALL:
		if (write64(mem, *rsp - 8, next, faultp) != 0)
			return (X86_EMU_FAULT);
		*rsp -= 8;
		regs->rip = in->target;
		return (X86_EMU_OK);
	case X86_CF_JMP:
		regs->rip = in->target;
		return (X86_EMU_OK);
	case X86_CF_JCC:
		regs->rip = x86_cond(in->opcode & 0xf, regs->rflags) ?
		    in->target : next;
		return (X86_EMU_OK);
	case X86_CF_JRCXZ:
		count = regs->r[X86_RCX];
		if (in->prefixes & X86_PFX_ADSIZE)
			count &= 0xffffffffULL;
		regs->rip = count == 0 ? in->target : next;
		return (X86_EMU_OK);
	case X86_CF_LOOP:
		count = regs->r[X86_RCX] - 1;
		taken = count != 0;
		if (in->opcode == 0xe1)		/* loope */
			taken = taken && (regs->rflags & RF_ZF);
		else if (in->opcode == 0xe0)	/* loopne */
			taken = taken && !(regs->rflags & RF_ZF);
		regs->r[X86_RCX] = count;
		regs->rip = taken ? in->target : next;
		return (X86_EMU_OK);
	case X86_CF_RET:
		if (read64(mem, *rsp, &v, faultp) != 0)
			return (X86_EMU_FAULT);
		*rsp += 8;
		if (in->opcode == 0xc2)
			*rsp += (uint16_t)in->imm;
		regs->rip = v;
		return (X86_EMU_OK);
	case X86_CF_CALL_IND:
	case X86_CF_JMP_IND:
		/* The target is computed before the call's push. */
		if (in->has_mem) {
			if (read64(mem, x86_mem_addr(in, regs), &v,
			    faultp) != 0)
				return (X86_EMU_FAULT);
		} else {
			v = regs->r[in->rm & 15];
		}
		if (in->cf == X86_CF_CALL_IND) {
			if (write64(mem, *rsp - 8, next, faultp) != 0)
				return (X86_EMU_FAULT);
			*rsp -= 8;
		}
		regs->rip = v;
		return (X86_EMU_OK);
	default:
		break;
	}

	if (is_push_pop_reg(in)) {
		unsigned int r = (in->opcode & 7) | ((in->rex & 1) << 3);

		if (in->opcode < 0x58) {
			/* push %rsp pushes the value before the push */
			if (write64(mem, *rsp - 8, regs->r[r], faultp) != 0)
				return (X86_EMU_FAULT);
			*rsp -= 8;
		} else {
			if (read64(mem, *rsp, &v, faultp) != 0)
				return (X86_EMU_FAULT);
			*rsp += 8;
			regs->r[r] = v;	/* pop %rsp loads the popped value */
		}
		regs->rip = next;
		return (X86_EMU_OK);
	}
	return (X86_EMU_UNSUPPORTED);
}

static int
fits32(int64_t v)
{
	return (v >= INT32_MIN && v <= INT32_MAX);
}

static void
put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static void
put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

/* Emit a jump from scratch + *n to dest; 5 or 14 bytes. */
static void
emit_jmp(uint8_t *buf, size_t *n, uint64_t scratch, uint64_t dest)
{
	int64_t rel = (int64_t)(dest - (scratch + *n + 5));

	if (fits32(rel)) {
		buf[(*n)++] = 0xe9;
		put32(buf + *n, (uint32_t)rel);
		*n += 4;
	} else {
		/* jmp *0(%rip); .quad dest */
		buf[(*n)++] = 0xff;
		buf[(*n)++] = 0x25;
		put32(buf + *n, 0);
		*n += 4;
		put64(buf + *n, dest);
		*n += 8;
	}
}

/*
 * A register the instruction does not use, to stand in for %rip: one of
 * %rsi, %rdi, %rbx.  No instruction with a ModRM memory operand uses
 * %rsi or %rdi implicitly; %rbx is used by cmpxchg8b/16b (0F C7).  The
 * explicit register operands are ModRM.reg and VEX.vvvv.
 */
static int
pick_scratch(const x86_insn_t *in)
{
	static const int cand[] = { X86_RSI, X86_RDI, X86_RBX };
	size_t k;

	for (k = 0; k < sizeof (cand) / sizeof (cand[0]); k++) {
		int r = cand[k];

		if (in->reg == r)
			continue;
		if (in->vex != X86_VEX_NONE && in->vvvv == r)
			continue;
		if (r == X86_RBX && in->map == X86_MAP_0F &&
		    in->opcode == 0xc7 && in->vex == X86_VEX_NONE)
			continue;
		return (r);
	}
	return (X86_REG_NONE);
}

int
x86_ool_build(const x86_insn_t *in, const uint8_t *insn, uint64_t scratch,
    uint8_t *buf, size_t bufsz, x86_ool_t *out)
{
	uint64_t next = in->pc + in->len;
	size_t n = 0, slot_ref = 0, slot_ref2 = 0, k;
	int rs = X86_REG_NONE;

	memset(out, 0, sizeof (*out));
	out->scratch_reg = X86_REG_NONE;
	if (bufsz < X86_OOL_MAX || in->len == 0 ||
	    x86_strategy(in) != X86_STRAT_OOL)
		return (-1);

	if (in->rip_rel) {
		int64_t d = (int64_t)(in->target - (scratch + in->len));

		/* With a 67 prefix the sum wraps at 32 bits: any d works. */
		if (!fits32(d) && !(in->prefixes & X86_PFX_ADSIZE)) {
			rs = pick_scratch(in);
			if (rs == X86_REG_NONE)
				return (-1);
		}
	}

	if (rs != X86_REG_NONE) {
		/* mov %rs, slot(%rip) */
		buf[n++] = 0x48;
		buf[n++] = 0x89;
		buf[n++] = (uint8_t)(0x05 | (rs << 3));
		slot_ref = n;
		n += 4;
		/* movabs $next, %rs */
		buf[n++] = 0x48;
		buf[n++] = (uint8_t)(0xb8 + rs);
		put64(buf + n, next);
		n += 8;
	}

	out->insn_off = n;
	memcpy(buf + n, insn, in->len);
	if (in->rip_rel && rs == X86_REG_NONE) {
		uint64_t d = in->target - (scratch + n + in->len);

		put32(buf + n + in->disp_off, (uint32_t)d);
	} else if (rs != X86_REG_NONE) {
		uint8_t *p = buf + n;

		/* mod 00 rm 101 (RIP) becomes mod 10 rm rs: [rs + disp32] */
		p[in->modrm_off] = (uint8_t)(0x80 | (in->modrm & 0x38) | rs);
		/* and the base must not be extended to r8-r15 */
		if (in->rex != 0)
			p[in->rex_off] &= (uint8_t)~0x01;
		if (in->vex == X86_VEX_VEX3 || in->vex == X86_VEX_XOP ||
		    in->vex == X86_VEX_EVEX)
			p[in->vex_off + 1] |= 0x20;
	}
	n += in->len;

	if (in->cf == X86_CF_SYSCALL) {
		/* movabs $next, %rcx */
		buf[n++] = 0x48;
		buf[n++] = 0xb9;
		put64(buf + n, next);
		n += 8;
	}
	if (rs != X86_REG_NONE) {
		/* mov slot(%rip), %rs */
		buf[n++] = 0x48;
		buf[n++] = 0x8b;
		buf[n++] = (uint8_t)(0x05 | (rs << 3));
		slot_ref2 = n;
		n += 4;
	}
	emit_jmp(buf, &n, scratch, next);
	if (rs != X86_REG_NONE) {
		size_t slot = (n + 7) & ~(size_t)7;

		for (k = n; k < slot + 8; k++)
			buf[k] = 0xcc;
		put32(buf + slot_ref, (uint32_t)(slot - (slot_ref + 4)));
		put32(buf + slot_ref2, (uint32_t)(slot - (slot_ref2 + 4)));
		n = slot + 8;
		out->scratch_reg = rs;
	}
	out->len = n;
	out->resume = next;
	return (0);
}
