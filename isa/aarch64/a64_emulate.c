/* SPDX-License-Identifier: MIT */
/*
 * a64_emulate.c: emulation of the A64 instructions that read their own
 * address (see a64_emulate.h), as the architecture defines them.
 */

#include <string.h>

#include "isa/aarch64/a64_emulate.h"

a64_strategy_t
a64_strategy(const a64_insn_t *in)
{
	switch ((a64_class_t) in->cls) {
	case A64_C_ADR:
	case A64_C_ADRP:
	case A64_C_LDR_LIT:
	case A64_C_PRFM_LIT:
	case A64_C_B:
	case A64_C_BL:
	case A64_C_BCOND:
	case A64_C_CBZ:
	case A64_C_CBNZ:
	case A64_C_TBZ:
	case A64_C_TBNZ:
	case A64_C_RET:
	case A64_C_BR:
	case A64_C_BLR:
		return A64_STRAT_EMULATE;
	case A64_C_OTHER:
	case A64_C_RET_PAC: /* authenticate x30 against sp: same */
	case A64_C_BR_PAC:  /* anywhere; they write no link */
	case A64_C_PAC_HINT:
	case A64_C_BTI:
	case A64_C_CLREX:
	case A64_C_SVC:
		return A64_STRAT_OOL;
	default:
		return A64_STRAT_REFUSE;
	}
}

const char *
a64_refusal(const a64_insn_t *in)
{
	switch ((a64_class_t) in->cls) {
	case A64_C_LDEX:
	case A64_C_STEX:
		return "exclusive load/store: a trap clears the exclusive "
		       "monitor";
	case A64_C_BLR_PAC:
		return "authenticated call: its link and key are the thread's";
	case A64_C_BRK:
	case A64_C_HLT:
	case A64_C_UDF:
		return "instruction traps on purpose";
	case A64_C_ERET:
	case A64_C_HVC:
	case A64_C_SMC:
		return "instruction is not for user space";
	default:
		return NULL;
	}
}

int
a64_cond(unsigned cc, uint64_t pstate)
{
	int n = (pstate >> 31) & 1, z = (pstate >> 30) & 1;
	int c = (pstate >> 29) & 1, v = (pstate >> 28) & 1;
	int r;

	switch ((cc >> 1) & 7) {
	case 0: /* eq / ne */
		r = z;
		break;
	case 1: /* cs / cc */
		r = c;
		break;
	case 2: /* mi / pl */
		r = n;
		break;
	case 3: /* vs / vc */
		r = v;
		break;
	case 4: /* hi / ls */
		r = c && !z;
		break;
	case 5: /* ge / lt */
		r = n == v;
		break;
	case 6: /* gt / le */
		r = n == v && !z;
		break;
	default: /* al, nv: always */
		return 1;
	}
	return (cc & 1) ? !r : r;
}

/* Register n as a source where 31 is the zero register. */
static uint64_t
a64_xr(const a64_regs_t *r, unsigned n)
{
	return n == A64_ZR ? 0 : r->x[n];
}

static void
a64_xw(a64_regs_t *r, unsigned n, uint64_t v)
{
	if (n != A64_ZR)
		r->x[n] = v;
}

/* A literal load: the value into regs, or a fault. */
static int
a64_emulate_ldr(const a64_insn_t *in, a64_regs_t *r, const a64_memops_t *mem,
    uint64_t *faultp)
{
	uint8_t buf[16];
	uint64_t lo = 0, hi = 0;

	if (mem == NULL || mem->read == NULL ||
	    mem->read(mem->arg, in->target, buf, in->size) != 0) {
		if (faultp != NULL)
			*faultp = in->target;
		return A64_EMU_FAULT;
	}
	/* Little-endian data, as Linux runs user space on arm64. */
	for (unsigned i = 0; i < in->size && i < 8; i++)
		lo |= (uint64_t) buf[i] << (8 * i);
	for (unsigned i = 8; i < in->size; i++)
		hi |= (uint64_t) buf[i] << (8 * (i - 8));
	if (in->simd) {
		/* a write to s/d/q clears the rest of the vector */
		r->v[in->rt][0] = lo;
		r->v[in->rt][1] = hi;
	} else if (in->sign) {
		a64_xw(r, in->rt, (uint64_t) (int64_t) (int32_t) lo);
	} else {
		a64_xw(r, in->rt, lo); /* a w register: zero-extended */
	}
	return A64_EMU_OK;
}

int
a64_emulate(const a64_insn_t *in, a64_regs_t *regs, const a64_memops_t *mem,
    uint64_t *faultp)
{
	uint64_t next = in->pc + 4, v;
	a64_regs_t r;

	if (regs->pc != in->pc || a64_strategy(in) != A64_STRAT_EMULATE)
		return A64_EMU_UNSUPPORTED;
	r = *regs;
	r.pc = next;
	switch ((a64_class_t) in->cls) {
	case A64_C_ADR:
	case A64_C_ADRP:
		a64_xw(&r, in->rt, in->target);
		break;
	case A64_C_LDR_LIT:
		if (a64_emulate_ldr(in, &r, mem, faultp) != A64_EMU_OK)
			return A64_EMU_FAULT;
		break;
	case A64_C_PRFM_LIT:
		break; /* a hint: nothing to do */
	case A64_C_BL:
		r.x[30] = next;
		/* FALLTHROUGH */
	case A64_C_B:
		r.pc = in->target;
		break;
	case A64_C_BCOND:
		if (a64_cond(in->cond, r.pstate))
			r.pc = in->target;
		break;
	case A64_C_CBZ:
	case A64_C_CBNZ:
		v = a64_xr(&r, in->rt);
		if (in->size == 4)
			v &= 0xffffffffu;
		if ((v == 0) == (in->cls == A64_C_CBZ))
			r.pc = in->target;
		break;
	case A64_C_TBZ:
	case A64_C_TBNZ:
		v = (a64_xr(&r, in->rt) >> in->bit) & 1;
		if ((v == 0) == (in->cls == A64_C_TBZ))
			r.pc = in->target;
		break;
	case A64_C_BLR:
		v = a64_xr(&r, in->rn); /* blr x30 reads it first */
		r.x[30] = next;
		r.pc = v;
		break;
	case A64_C_RET:
	case A64_C_BR:
		r.pc = a64_xr(&r, in->rn);
		break;
	default:
		return A64_EMU_UNSUPPORTED;
	}
	*regs = r;
	return A64_EMU_OK;
}
