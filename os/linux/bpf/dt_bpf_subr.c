/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_subr.c: D's subroutines as generated BPF code, and the string
 * compare of SCMP.
 *
 * As in the interpreter (common/dif/dif_subr.c), string arguments are
 * first copied into work buffers in scratch, bounded by strsize: one
 * bpf_probe_read_kernel_str() call, whose return value is also the
 * string's length plus one.  The code then works on the buffers with
 * bounded loops (the verifier walks each loop once per iteration, so a
 * loop costs strsize times its body in verification, not at run time),
 * and strings it returns are new strsize-byte allocations in DIF scratch.
 *
 * The argument checks are the interpreter's: too few tuple entries is an
 * "illegal operation" fault, a string past strsize from strjoin() is "out
 * of scratch space", and so on.  Subroutines not translated yet are
 * refused when the program is generated, with the subroutine's name.
 * What is read of the current process (execargs, cwd, progenyof()) is
 * in dt_bpf_proc.c.
 */
#include <string.h>

#include "common/dif/dif.h"
#include "common/dif/dif_interp.h"
#include "common/dif/dif_verify.h"
#include "isa/dt_isa.h"
#include "os/linux/bpf/dt_bpf_impl.h"
#include "os/linux/dt_linux_features.h"

/* breg = the byte at work buffer w + the index in ireg (<= strsize). */
static void
dt_bpf_cg_wbyte(dt_bpf_cg_t *cg, int breg, int w, int ireg)
{
	DT_EMIT(cg, DT_BPF_MOV64_REG(breg, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, breg, ireg));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_B, breg, breg,
	    (int16_t) DT_WORK(cg, w)));
}

/*
 * breg = loop variable v, bounded to [0, strsize] (else jump to lbad,
 * leaving the loop lp when in one).
 */
static void
dt_bpf_cg_ldvar(dt_bpf_cg_t *cg, dt_bpf_loop_t *lp, int breg, int v,
    uint32_t lbad)
{
	struct bpf_insn jmp = DT_BPF_JMP_IMM(BPF_JGT, breg,
	    (int32_t) cg->cg_lay->bl_strsize, 0);

	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, breg, DT_R7, DT_VAR(cg, v)));
	if (lp != NULL)
		dt_bpf_loop_exit(cg, lp, jmp, lbad);
	else
		dt_bpf_jmp_label(cg->cg_b, jmp, lbad);
}

void
dt_bpf_cg_sarg(dt_bpf_cg_t *cg, int i, int w, int lenslot)
{
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R7, DT_TUP(cg, i)));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R3, DT_FP_T4));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, (int32_t) DT_WORK(cg, w)));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, (int32_t) cg->cg_lay->bl_strsize));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_kernel_str));
	dt_bpf_cg_fault_if_slot(cg, BPF_JSLT, DT_R0, 0, DIF_FLT_BADADDR, DT_FP_T4);
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_SUB, DT_R0, 1));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JSGE, DT_R0, 0, 1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R0, 0));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R0, lenslot));
}

/* Loads a length from a slot into breg, bounded by max for the verifier. */
static void
dt_bpf_cg_ldlen(dt_bpf_cg_t *cg, int breg, int slot, uint32_t max)
{
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, breg, DT_FP, slot));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLE, breg, (int32_t) max, 1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(breg, 0));
}

/* rd = the address of the allocation at the dscratch offset in slot. */
static void
dt_bpf_cg_dsaddr(dt_bpf_cg_t *cg, unsigned rd, int offslot)
{
	dt_bpf_cg_saddr(cg, DT_R1, cg->cg_lay->bl_dscratch_off);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, offslot));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R2));
	dt_bpf_cg_streg(cg, rd, DT_R1);
}

/*
 * Copies len bytes (slot lenslot, <= strsize) from the number address in
 * srcslot + the offset in offslot2 (or 0) to the allocation at offslot
 * plus dstadd bytes (slot, or 0).
 */
static void
dt_bpf_cg_copy(dt_bpf_cg_t *cg, int offslot, int dstaddslot, int lenslot,
    uint32_t src, int srcaddslot)
{
	uint32_t ss = cg->cg_lay->bl_strsize;

	dt_bpf_cg_dsptr(cg, DT_R1, offslot);
	if (dstaddslot != 0) {
		dt_bpf_cg_ldlen(cg, DT_R2, dstaddslot, ss);
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R2));
	}
	dt_bpf_cg_ldlen(cg, DT_R2, lenslot, ss);
	dt_bpf_cg_saddr(cg, DT_R3, src);
	if (srcaddslot != 0) {
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R4, DT_FP, srcaddslot));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R3, DT_R4));
	}
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_kernel));
}

/*
 * rd = a new string: the lenslot bytes (clamped to strsize - 1) of work
 * buffer w from the offset in startslot (or 0), as dif_sret() returns.
 */
static void
dt_bpf_cg_sret(dt_bpf_cg_t *cg, unsigned rd, int w, int startslot,
    int lenslot)
{
	uint32_t ss = cg->cg_lay->bl_strsize;

	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, lenslot));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JSGE, DT_R1, 0, 1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JSLE, DT_R1, (int32_t) ss - 1, 1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, (int32_t) ss - 1));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, lenslot));
	dt_bpf_cg_alloc(cg, 0, ss, DT_FP_T2);
	dt_bpf_cg_copy(cg, DT_FP_T2, 0, lenslot, DT_WORK(cg, w), startslot);
	dt_bpf_cg_dsaddr(cg, rd, DT_FP_T2);
}

/* rd = a new string of one character (basename(), dirname()). */
static void
dt_bpf_cg_schar(dt_bpf_cg_t *cg, unsigned rd, char c)
{
	dt_bpf_cg_alloc(cg, 0, cg->cg_lay->bl_strsize, DT_FP_T2);
	dt_bpf_cg_dsptr(cg, DT_R1, DT_FP_T2);
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_B, DT_R1, 0, c));
	dt_bpf_cg_dsaddr(cg, rd, DT_FP_T2);
}

/*
 * SCMP: the strings at r1 and r2 compared as strcmp() compares,
 * bounded by strsize; NULL reads as "".  The result (-1, 0, 1) goes to
 * the condition-code slots against 0, as the interpreter's codes are.
 */
void
dt_bpf_cg_scmp(dt_bpf_cg_t *cg, unsigned r1, unsigned r2)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	uint32_t ss = lay->bl_strsize;
	dt_bpf_loop_t lp;
	uint32_t lsame = dt_bpf_label_new(cg->cg_b);
	uint32_t leq = dt_bpf_label_new(cg->cg_b);
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);
	unsigned r[2] = { r1, r2 };

	/* The same address compares equal without reading it. */
	dt_bpf_cg_ldreg(cg, DT_R1, r1);
	dt_bpf_cg_ldreg(cg, DT_R2, r2);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JEQ, DT_R1, DT_R2, 0),
	    leq);
	for (int i = 0; i < 2; i++) {
		uint32_t w = DT_WORK(cg, i);

		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_B, DT_R7, (int16_t) w, 0));
		dt_bpf_cg_ldreg(cg, DT_R3, r[i]);
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3, 0, 4 + 2));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, (int32_t) w));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, (int32_t) ss));
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_kernel_str));
		/* (two instructions of fault test) */
		dt_bpf_cg_fault_if(cg, BPF_JSLT, DT_R0, 0, DIF_FLT_BADADDR,
		    (int) r[i]);
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R0, 0));
	}
	/* loop variable 0: the result, set where the strings differ */
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, 0), 0));
	dt_bpf_loop_begin(cg, &lp, DT_R1, ss, 1);
	dt_bpf_cg_wbyte(cg, DT_R3, 0, DT_R1);
	dt_bpf_cg_wbyte(cg, DT_R4, 1, DT_R1);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JEQ, DT_R3, DT_R4, 0),
	    lsame);
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R0, 1));
	DT_EMIT(cg, DT_BPF_JMP_REG(BPF_JGT, DT_R3, DT_R4, 1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R0, -1));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R0, DT_VAR(cg, 0)));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lp.lp_done);
	dt_bpf_label_here(cg->cg_b, lsame);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3, 0, 0),
	    lp.lp_done);
	dt_bpf_loop_end(cg, &lp);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R0, DT_R7, DT_VAR(cg, 0)));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
	dt_bpf_label_here(cg->cg_b, leq);
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R0, 0));
	dt_bpf_label_here(cg->cg_b, ldone);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R0, DT_FP_CCA));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_CCB, 0));
}

/* substr(s, index [, length]), with dif_substr()'s arithmetic. */
static void
dt_bpf_cg_substr(dt_bpf_cg_t *cg, int nargs, unsigned rd)
{
	uint32_t ss = cg->cg_lay->bl_strsize;
	const int64_t big = (int64_t) 1 << 40;
	uint32_t l1 = dt_bpf_label_new(cg->cg_b);
	uint32_t l2 = dt_bpf_label_new(cg->cg_b);
	uint32_t lzero = dt_bpf_label_new(cg->cg_b);
	uint32_t l3 = dt_bpf_label_new(cg->cg_b);
	uint32_t l4 = dt_bpf_label_new(cg->cg_b);

	dt_bpf_cg_sarg(cg, 0, 0, DT_FP_T0);		/* len */
	/* r1 = idx, r2 = rem, r3 = len; clamped to +-2^40 */
	DT_LDTUP(cg, DT_R1, 1);
	if (nargs > 2)
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7,
		    DT_TUP(cg, 2)));
	else
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, (int32_t) ss));
	dt_bpf_emit_imm64(cg->cg_b, DT_R4, (uint64_t) big);
	for (int r = DT_R1; r <= DT_R2; r++) {
		DT_EMIT(cg, DT_BPF_JMP_REG(BPF_JSLE, r, DT_R4, 1));
		DT_EMIT(cg, DT_BPF_MOV64_REG(r, DT_R4));
		DT_EMIT(cg, DT_BPF_NEG64(DT_R4));
		DT_EMIT(cg, DT_BPF_JMP_REG(BPF_JSGE, r, DT_R4, 1));
		DT_EMIT(cg, DT_BPF_MOV64_REG(r, DT_R4));
		DT_EMIT(cg, DT_BPF_NEG64(DT_R4));
	}
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_FP, DT_FP_T0));
	/* if (idx < 0) { idx += len; if (idx < 0 && idx + rem > 0)
	 *	{ rem += idx; idx = 0; } } */
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JSGE, DT_R1, 0, 0), l1);
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R3));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JSGE, DT_R1, 0, 0), l1);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R4, DT_R1));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R4, DT_R2));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JSLE, DT_R4, 0, 0), l1);
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R2, DT_R1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
	dt_bpf_label_here(cg->cg_b, l1);
	/* if (idx >= len || idx < 0) rem = 0 */
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JSGE, DT_R1, DT_R3, 0),
	    lzero);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JSLT, DT_R1, 0, 0),
	    lzero);
	/* else if (rem < 0) rem += len - idx */
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JSGE, DT_R2, 0, 0), l2);
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R2, DT_R3));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R2, DT_R1));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), l3);
	dt_bpf_label_here(cg->cg_b, l2);
	/* else if (idx + rem > size) rem = size - idx */
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R4, DT_R1));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R4, DT_R2));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JSLE, DT_R4, (int32_t) ss,
	    0), l3);
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, (int32_t) ss));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R2, DT_R1));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), l3);
	dt_bpf_label_here(cg->cg_b, lzero);
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, 0));
	dt_bpf_label_here(cg->cg_b, l3);
	/* rem = max(rem, 0); rem = min(rem, max(len - idx, 0)) */
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JSGE, DT_R2, 0, 1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, 0));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R4, DT_R3));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R4, DT_R1));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JSGE, DT_R4, 0, 1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, 0));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JSLE, DT_R2, DT_R4, 0),
	    l4);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R4));
	dt_bpf_label_here(cg->cg_b, l4);
	/* the copy starts at max(idx, 0); at most strsize - 1 bytes */
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JSGE, DT_R1, 0, 1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JSLE, DT_R2, (int32_t) ss - 1, 1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, (int32_t) ss - 1));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T3));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R2, DT_FP_T1));
	dt_bpf_cg_sret(cg, rd, 0, DT_FP_T3, DT_FP_T1);
}

/* strchr(), strrchr(): the address of the first (last) c in s, or 0. */
static void
dt_bpf_cg_strchr(dt_bpf_cg_t *cg, uint32_t subr, unsigned rd)
{
	uint32_t ss = cg->cg_lay->bl_strsize;
	uint32_t lnot = dt_bpf_label_new(cg->cg_b);
	dt_bpf_loop_t lp;

	/*
	 * The index found is kept in scratch memory, not a register: the
	 * verifier does not track map memory, so paths that matched at
	 * different places stay one state instead of doubling each time.
	 */
	dt_bpf_cg_sarg(cg, 0, 0, DT_FP_T0);
	DT_LDTUP(cg, DT_R4, 1);
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R4, 0xff));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R4, DT_FP_T1));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, (int16_t) DT_WORK(cg, 2), -1));
	dt_bpf_loop_begin(cg, &lp, DT_R1, ss, 1);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R4, DT_FP, DT_FP_T1));
	dt_bpf_cg_wbyte(cg, DT_R3, 0, DT_R1);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JNE, DT_R3, DT_R4, 0),
	    lnot);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
	    (int16_t) DT_WORK(cg, 2)));
	if (subr == DIF_SUBR_STRCHR)
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lp.lp_done);
	dt_bpf_label_here(cg->cg_b, lnot);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3, 0, 0),
	    lp.lp_done);
	dt_bpf_loop_end(cg, &lp);
	/* s + index, from the argument's own address */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R5, DT_R7,
	    (int16_t) DT_WORK(cg, 2)));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JSLT, DT_R5, 0, 2));
	DT_LDTUP(cg, DT_R1, 0);
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R5));
	dt_bpf_cg_streg(cg, rd, DT_R1);
}

/* toupper(), tolower(): a converted copy. */
static void
dt_bpf_cg_case(dt_bpf_cg_t *cg, bool upper, unsigned rd)
{
	uint32_t ss = cg->cg_lay->bl_strsize;
	dt_bpf_loop_t lp;
	int lo = upper ? 'a' : 'A', hi = upper ? 'z' : 'Z';

	dt_bpf_cg_sarg(cg, 0, 0, DT_FP_T0);
	dt_bpf_loop_begin(cg, &lp, DT_R1, ss, 1);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R2, DT_R1));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_B, DT_R3, DT_R2,
	    (int16_t) DT_WORK(cg, 0)));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3, 0, 0),
	    lp.lp_done);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JLT, DT_R3, lo, 0),
	    lp.lp_next);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGT, DT_R3, hi, 0),
	    lp.lp_next);
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_XOR, DT_R3, 0x20));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_B, DT_R2, DT_R3,
	    (int16_t) DT_WORK(cg, 0)));
	dt_bpf_loop_end(cg, &lp);
	dt_bpf_cg_sret(cg, rd, 0, 0, DT_FP_T0);
}

/*
 * index(s, sub [, start]), rindex(s, sub [, start]) and strstr(s, sub),
 * as dif_index(): candidate positions one by one (the position in loop
 * variable 0), each compared with sub eight bytes at a time, so the
 * verifier walks strsize * strsize / 8 iterations, not strsize squared.
 */
static void
dt_bpf_cg_index(dt_bpf_cg_t *cg, uint32_t subr, int nargs, unsigned rd)
{
	uint32_t ss = cg->cg_lay->bl_strsize;
	bool rev = subr == DIF_SUBR_RINDEX, str = subr == DIF_SUBR_STRSTR;
	uint32_t lnotfound = dt_bpf_label_new(cg->cg_b);
	uint32_t lfound = dt_bpf_label_new(cg->cg_b);
	uint32_t lret = dt_bpf_label_new(cg->cg_b);
	uint32_t lstart = dt_bpf_label_new(cg->cg_b);
	uint32_t lsublen = 0, p2 = 8;
	dt_bpf_loop_t outer, inner;

	while (p2 <= ss)
		p2 *= 2;

	dt_bpf_cg_sarg(cg, 0, 0, DT_FP_T0);
	dt_bpf_cg_sarg(cg, 1, 1, DT_FP_T1);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, DT_FP_T0));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_FP, DT_FP_T1));
	/* both empty: strstr() gives s, index() and rindex() 0 */
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R4, DT_R2));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_OR, DT_R4, DT_R3));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R4, 0, 0),
	    lstart);
	if (str)
		DT_LDTUP(cg, DT_R1, 0);
	else
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lret);

	/* r1 = the first position: 0, len (rindex), or from start */
	dt_bpf_label_here(cg->cg_b, lstart);
	DT_EMIT(cg, rev ? DT_BPF_MOV64_REG(DT_R1, DT_R2) :
	    DT_BPF_MOV64_IMM(DT_R1, 0));
	if (!str && nargs == 3) {
		lsublen = dt_bpf_label_new(cg->cg_b);
		DT_LDTUP(cg, DT_R4, 2);
		if (rev) {
			/* p < 0: sublen == 0 ? 0 : -1; else min(p, len) */
			dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JSLT,
			    DT_R4, 0, 0), lsublen);
			DT_EMIT(cg, DT_BPF_JMP_REG(BPF_JSGT, DT_R4, DT_R2, 1));
			DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R4));
		} else {
			/* p >= len: sublen == 0 ? len : -1 */
			DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JSGE, DT_R4, 0, 1));
			DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, 0));
			dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JSGE,
			    DT_R4, DT_R2, 0), lsublen);
			DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R4));
		}
	}
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_VAR(cg, 0)));

	dt_bpf_loop_begin(cg, &outer, DT_R9, ss + 1, 1);
	/* r1 = pos; done when it leaves [0, len) ([0, len] for rindex) */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, 0)));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, DT_FP_T0));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_FP, DT_FP_T1));
	dt_bpf_loop_exit(cg, &outer, DT_BPF_JMP_IMM(BPF_JSLT, DT_R1, 0, 0),
	    lnotfound);
	dt_bpf_loop_exit(cg, &outer, DT_BPF_JMP_REG(rev ? BPF_JSGT : BPF_JSGE,
	    DT_R1, DT_R2, 0), lnotfound);
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, rev ? -1 : 1));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_VAR(cg, 0)));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, rev ? 1 : -1));
	/* pos + sublen <= len, or on to the next */
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R4, DT_R1));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R4, DT_R3));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JSGT, DT_R4, DT_R2, 0),
	    outer.lp_next);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_VAR(cg, 1)));

	/*
	 * The compare has no branch but the loop's own, so the verifier
	 * keeps no state per byte: r0 collects the differing bits of each
	 * eight bytes, masked to the bytes of sub that are left (clamped
	 * to 0..8 by arithmetic), and the index into s is masked to a
	 * power of two, which scratch has room for.
	 */
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R0, 0));
	dt_bpf_loop_begin(cg, &inner, DT_R5, ss, 8);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R4, DT_R7, DT_VAR(cg, 1)));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R4, DT_R5));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R4, (int32_t) (p2 - 1)));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R4, DT_R7));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R4, DT_R4,
	    (int16_t) DT_WORK(cg, 0)));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R2, DT_R5));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R2,
	    (int16_t) DT_WORK(cg, 1)));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_XOR, DT_R4, DT_R2));
	/* r2 = min(max(sublen - k, 0), 8) */
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R3));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R2, DT_R5));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R2));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ARSH, DT_R1, 63));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_XOR, DT_R1, -1));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_AND, DT_R2, DT_R1));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_SUB, DT_R2, 8));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R2));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ARSH, DT_R1, 63));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_AND, DT_R2, DT_R1));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, 8));
	/* mask = (1 << 4r2 << 4r2) - 1: all ones for 8 bytes */
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R2, 2));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 1));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_LSH, DT_R1, DT_R2));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_LSH, DT_R1, DT_R2));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_SUB, DT_R1, 1));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_AND, DT_R4, DT_R1));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_OR, DT_R0, DT_R4));
	dt_bpf_loop_end(cg, &inner);
	dt_bpf_loop_exit(cg, &outer, DT_BPF_JMP_IMM(BPF_JEQ, DT_R0, 0, 0),
	    lfound);
	dt_bpf_loop_end(cg, &outer);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lnotfound);

	if (!str && nargs == 3) {
		dt_bpf_label_here(cg->cg_b, lsublen);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_FP, DT_FP_T1));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R3, 0, 0),
		    lnotfound);
		if (rev)
			DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
		else
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP,
			    DT_FP_T0));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lret);
	}
	dt_bpf_label_here(cg->cg_b, lfound);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, 1)));
	if (str) {
		DT_LDTUP(cg, DT_R2, 0);
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R2));
	}
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lret);
	dt_bpf_label_here(cg->cg_b, lnotfound);
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, str ? 0 : -1));
	dt_bpf_label_here(cg->cg_b, lret);
	dt_bpf_cg_streg(cg, rd, DT_R1);
}

/*
 * The base of lltostr()/strtoll() into stack slot T1 (and r2): argument 1,
 * or 10; outside [2, 36] an illegal operation, as in the interpreter.
 */
static void
dt_bpf_cg_base(dt_bpf_cg_t *cg, int nargs)
{
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, 10));
	if (nargs > 1) {
		DT_LDTUP(cg, DT_R2, 1);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R2));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_SUB, DT_R1, 2));
		dt_bpf_cg_fault_if(cg, BPF_JGT, DT_R1, 34, DIF_FLT_ILLOP, -1);
	}
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R2, DT_FP_T1));
}

/*
 * lltostr(v [, base]), as dif_lltostr(): digits from the end of a
 * 72-byte area at the start of work buffer 0, then the prefixes.
 */
static void
dt_bpf_cg_lltostr(dt_bpf_cg_t *cg, int nargs, unsigned rd)
{
	uint32_t lbad = dt_bpf_label_new(cg->cg_b);
	uint32_t lok = dt_bpf_label_new(cg->cg_b);
	dt_bpf_loop_t lp;

	/* T1 = base, T3 = v, T4 = the magnitude */
	dt_bpf_cg_base(cg, nargs);
	DT_LDTUP(cg, DT_R1, 0);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T3));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JNE, DT_R2, 10, 2));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JSGE, DT_R1, 0, 1));
	DT_EMIT(cg, DT_BPF_NEG64(DT_R1));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_VAR(cg, 0)));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_B, DT_R7, (int16_t) DT_WORK(cg, 0) + 71,
	    0));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, 1), 71));
	dt_bpf_loop_begin(cg, &lp, DT_R5, 64, 1);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, 0)));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 0, 0),
	    lp.lp_done);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, DT_FP_T1));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R1));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_MOD, DT_R3, DT_R2));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_DIV, DT_R1, DT_R2));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_VAR(cg, 0)));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R3, '0'));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLE, DT_R3, '9', 1));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R3, 'a' - '0' - 10));
	/* (the index first: a pointer less a variable is unbounded) */
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, 70));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R4, DT_R5));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R4, DT_R7));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_B, DT_R4, DT_R3,
	    (int16_t) DT_WORK(cg, 0)));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, 70));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R4, DT_R5));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R4, DT_VAR(cg, 1)));
	dt_bpf_loop_end(cg, &lp);

	/*
	 * The prefixes, each one byte before the position p (>= 7 here):
	 * "0" for 0 with base 16, "x" for base 16, "0" for 0 or base 8 or
	 * 16, "-" for a negative decimal.
	 */
	{
		struct {
			int op; int32_t a; int op2; int32_t b; char c;
		} pre[] = {
			{ BPF_JNE, 0, BPF_JNE, 16, '0' },
			{ -1, 0, BPF_JNE, 16, 'x' },
			{ -2, 0, 0, 0, '0' },
			{ BPF_JSGE, 0, BPF_JNE, 10, '-' },
		};

		for (size_t i = 0; i < sizeof (pre) / sizeof (pre[0]); i++) {
			uint32_t lskip = dt_bpf_label_new(cg->cg_b);
			uint32_t lput = dt_bpf_label_new(cg->cg_b);

			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP,
			    DT_FP_T3));
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP,
			    DT_FP_T1));
			if (pre[i].op == -2) {
				/* v == 0 || base == 8 || base == 16 */
				dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(
				    BPF_JEQ, DT_R1, 0, 0), lput);
				dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(
				    BPF_JEQ, DT_R2, 8, 0), lput);
				dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(
				    BPF_JNE, DT_R2, 16, 0), lskip);
			} else {
				if (pre[i].op >= 0)
					dt_bpf_jmp_label(cg->cg_b,
					    DT_BPF_JMP_IMM(pre[i].op, DT_R1,
					    pre[i].a, 0), lskip);
				dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(
				    pre[i].op2, DT_R2, pre[i].b, 0), lskip);
			}
			dt_bpf_label_here(cg->cg_b, lput);
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7,
			    DT_VAR(cg, 1)));
			dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGT,
			    DT_R1, 71, 0), lbad);
			dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JLT,
			    DT_R1, 1, 0), lbad);
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_SUB, DT_R1, 1));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
			    DT_VAR(cg, 1)));
			DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R7));
			DT_EMIT(cg, DT_BPF_ST_MEM(BPF_B, DT_R1,
			    (int16_t) DT_WORK(cg, 0), pre[i].c));
			dt_bpf_label_here(cg->cg_b, lskip);
		}
	}
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lok);
	dt_bpf_label_here(cg->cg_b, lbad);
	dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
	dt_bpf_label_here(cg->cg_b, lok);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, 1)));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T3));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, 71));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R2, DT_R1));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R2, DT_FP_T1));
	dt_bpf_cg_sret(cg, rd, 0, DT_FP_T3, DT_FP_T1);
}

/*
 * One backward scan of basename()/dirname(): loop variable 0 (the index
 * i) moves down while i >= 0 and (s[i] == '/') == slash.
 */
static void
dt_bpf_cg_bscan(dt_bpf_cg_t *cg, bool slash)
{
	dt_bpf_loop_t lp;

	dt_bpf_loop_begin(cg, &lp, DT_R5, cg->cg_lay->bl_strsize + 1, 1);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, 0)));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JSLT, DT_R1, 0, 0),
	    lp.lp_done);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGT, DT_R1,
	    (int32_t) cg->cg_lay->bl_strsize, 0), lp.lp_done);
	dt_bpf_cg_wbyte(cg, DT_R2, 0, DT_R1);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(slash ? BPF_JNE : BPF_JEQ,
	    DT_R2, '/', 0), lp.lp_done);
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_SUB, DT_R1, 1));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_VAR(cg, 0)));
	dt_bpf_loop_end(cg, &lp);
}

/* basename(), dirname(), as dif_basename(). */
static void
dt_bpf_cg_basename(dt_bpf_cg_t *cg, uint32_t subr, unsigned rd)
{
	uint32_t ldot = dt_bpf_label_new(cg->cg_b);
	uint32_t lslash = dt_bpf_label_new(cg->cg_b);
	uint32_t lcopy = dt_bpf_label_new(cg->cg_b);
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);

	dt_bpf_cg_sarg(cg, 0, 0, DT_FP_T0);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_T0));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 0, 0), ldot);
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_SUB, DT_R1, 1));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_VAR(cg, 0)));
	dt_bpf_cg_bscan(cg, true);
	/* lastbase in T1 (< 0: all slashes) */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, 0)));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T1));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JSLT, DT_R1, 0, 0),
	    lslash);
	dt_bpf_cg_bscan(cg, false);
	/* firstbase = i + 1 in T3 */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, 0)));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 1));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T3));
	if (subr == DIF_SUBR_BASENAME) {
		/* length = lastbase - firstbase + 1 */
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, DT_FP_T1));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R2, DT_R1));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, 1));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R2, DT_FP_T1));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lcopy);
	} else {
		dt_bpf_cg_bscan(cg, true);
		/* lastdir < 0: "/" when s starts with one, else "." */
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7,
		    DT_VAR(cg, 0)));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 1));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T1));
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_T3, 0));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JSGT, DT_R1, 0,
		    0), lcopy);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_B, DT_R1, DT_R7,
		    (int16_t) DT_WORK(cg, 0)));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, '/',
		    0), lslash);
	}
	dt_bpf_label_here(cg->cg_b, ldot);
	dt_bpf_cg_schar(cg, rd, '.');
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
	dt_bpf_label_here(cg->cg_b, lslash);
	dt_bpf_cg_schar(cg, rd, '/');
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
	dt_bpf_label_here(cg->cg_b, lcopy);
	dt_bpf_cg_sret(cg, rd, 0, DT_FP_T3, DT_FP_T1);
	dt_bpf_label_here(cg->cg_b, ldone);
}

/* strtoll(s [, base]), as dif_strtoll(). */
static void
dt_bpf_cg_strtoll(dt_bpf_cg_t *cg, int nargs, unsigned rd)
{
	uint32_t ss = cg->cg_lay->bl_strsize;
	uint32_t lbad = dt_bpf_label_new(cg->cg_b);
	uint32_t lsign = dt_bpf_label_new(cg->cg_b);
	uint32_t lhex = dt_bpf_label_new(cg->cg_b);
	uint32_t lret = dt_bpf_label_new(cg->cg_b);
	dt_bpf_loop_t lp;

	/* T1 = base */
	dt_bpf_cg_base(cg, nargs);
	dt_bpf_cg_sarg(cg, 0, 0, DT_FP_T0);
	/* var 0: index, var 1: value, var 2: negative */
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, 0), 0));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, 1), 0));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, 2), 0));
	dt_bpf_loop_begin(cg, &lp, DT_R5, ss, 1);
	dt_bpf_cg_ldvar(cg, &lp, DT_R1, 0, lbad);
	dt_bpf_cg_wbyte(cg, DT_R2, 0, DT_R1);
	/* ' ' or '\t' .. '\r' */
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JEQ, DT_R2, ' ', 2));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_SUB, DT_R2, '\t'));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGT, DT_R2, '\r' - '\t',
	    0), lp.lp_done);
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 1));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_VAR(cg, 0)));
	dt_bpf_loop_end(cg, &lp);
	/* a sign */
	dt_bpf_cg_ldvar(cg, NULL, DT_R1, 0, lbad);
	dt_bpf_cg_wbyte(cg, DT_R2, 0, DT_R1);
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JEQ, DT_R2, '+', 2));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R2, '-', 0),
	    lsign);
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, 2), 1));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 1));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_VAR(cg, 0)));
	dt_bpf_label_here(cg->cg_b, lsign);
	/* base 16: a "0x" or "0X" prefix */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_FP, DT_FP_T1));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R3, 16, 0), lhex);
	dt_bpf_cg_ldvar(cg, NULL, DT_R1, 0, lbad);
	dt_bpf_cg_wbyte(cg, DT_R2, 0, DT_R1);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R2, '0', 0), lhex);
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 1));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGT, DT_R1, (int32_t) ss,
	    0), lhex);
	dt_bpf_cg_wbyte(cg, DT_R2, 0, DT_R1);
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_OR, DT_R2, 0x20));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R2, 'x', 0), lhex);
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 1));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_VAR(cg, 0)));
	dt_bpf_label_here(cg->cg_b, lhex);
	/* the digits */
	dt_bpf_loop_begin(cg, &lp, DT_R5, ss, 1);
	dt_bpf_cg_ldvar(cg, &lp, DT_R1, 0, lbad);
	dt_bpf_cg_wbyte(cg, DT_R2, 0, DT_R1);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R2));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_SUB, DT_R3, '0'));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLE, DT_R3, 9, 5));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_OR, DT_R2, 0x20));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R2));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_SUB, DT_R3, 'a'));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGT, DT_R3, 'z' - 'a',
	    0), lp.lp_done);
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R3, 10));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R4, DT_FP, DT_FP_T1));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JGE, DT_R3, DT_R4, 0),
	    lp.lp_done);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7, DT_VAR(cg, 1)));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_MUL, DT_R2, DT_R4));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R2, DT_R3));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R2, DT_VAR(cg, 1)));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 1));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_VAR(cg, 0)));
	dt_bpf_loop_end(cg, &lp);
	dt_bpf_label_here(cg->cg_b, lbad);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, 1)));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7, DT_VAR(cg, 2)));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R2, 0, 0), lret);
	DT_EMIT(cg, DT_BPF_NEG64(DT_R1));
	dt_bpf_label_here(cg->cg_b, lret);
	dt_bpf_cg_streg(cg, rd, DT_R1);
}

static void
dt_bpf_cg_kword(dt_bpf_cg_t *cg)
{
	DT_LDTUP(cg, DT_R3, 0);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R3, DT_FP_T4));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R3));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R1, 7));
	dt_bpf_cg_fault_if_slot(cg, BPF_JNE, DT_R1, 0, DIF_FLT_BADALIGN, DT_FP_T4);
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_T0, 0));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_FP));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, DT_FP_T0));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, 8));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_kernel));
	dt_bpf_cg_fault_if_slot(cg, BPF_JNE, DT_R0, 0, DIF_FLT_BADADDR, DT_FP_T4);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_T0));
}

/*
 * Text built byte by byte (inet_ntoa(), inet_ntop(), cleanpath()): into
 * work buffer 1, at the position in loop variable DT_VAR_POS.  A byte
 * at or past limit is dropped, as dif_cleanpath() drops what does not
 * fit.  Uses r1 and r2; the byte is creg's, or c when creg < 0.
 */
#define DT_VAR_POS 0

static void
dt_bpf_cg_put(dt_bpf_cg_t *cg, int creg, char c, uint32_t limit)
{
	uint32_t lskip = dt_bpf_label_new(cg->cg_b);

	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg,
	    DT_VAR_POS)));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGE, DT_R1,
	    (int32_t) limit, 0), lskip);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R2, DT_R1));
	if (creg >= 0)
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_B, DT_R2, creg,
		    (int16_t) DT_WORK(cg, 1)));
	else
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_B, DT_R2,
		    (int16_t) DT_WORK(cg, 1), c));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 1));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_VAR(cg,
	    DT_VAR_POS)));
	dt_bpf_label_here(cg->cg_b, lskip);
}

/* Loop variable v += n (r1). */
static void
dt_bpf_cg_addvar(dt_bpf_cg_t *cg, int v, int32_t n)
{
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, v)));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, n));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_VAR(cg, v)));
}

/* rd = a new string of the text built in work buffer 1. */
static void
dt_bpf_cg_put_ret(dt_bpf_cg_t *cg, unsigned rd)
{
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg,
	    DT_VAR_POS)));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T0));
	dt_bpf_cg_sret(cg, rd, 1, 0, DT_FP_T0);
}

#define DT_INET_LIMIT 64	/* the longest address text is 45 bytes */

/* The decimal digits of the byte in r3 (kept), without leading zeros. */
static void
dt_bpf_cg_put_dec(dt_bpf_cg_t *cg)
{
	static const int32_t div[] = { 100, 10 };

	for (size_t i = 0; i < sizeof (div) / sizeof (div[0]); i++) {
		uint32_t lskip = dt_bpf_label_new(cg->cg_b);

		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JLT, DT_R3,
		    div[i], 0), lskip);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R4, DT_R3));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_DIV, DT_R4, div[i]));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_MOD, DT_R4, 10));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R4, '0'));
		dt_bpf_cg_put(cg, DT_R4, 0, DT_INET_LIMIT);
		dt_bpf_label_here(cg->cg_b, lskip);
	}
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R4, DT_R3));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_MOD, DT_R4, 10));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R4, '0'));
	dt_bpf_cg_put(cg, DT_R4, 0, DT_INET_LIMIT);
}

/*
 * "a.b.c.d" of the four bytes at work buffer 0 + loop variable 5 (0 or
 * 12): one loop, so an inet subroutine has one copy of it.
 */
static void
dt_bpf_cg_put_dotted(dt_bpf_cg_t *cg)
{
	uint32_t lfirst = dt_bpf_label_new(cg->cg_b);
	dt_bpf_loop_t lp;

	dt_bpf_loop_begin(cg, &lp, DT_R5, 4, 1);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R5, 0, 0),
	    lfirst);
	dt_bpf_cg_put(cg, -1, '.', DT_INET_LIMIT);
	dt_bpf_label_here(cg->cg_b, lfirst);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7, DT_VAR(cg, 5)));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R2, 15));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R2, DT_R5));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLE, DT_R2, 15, 1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, 0));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R2, DT_R7));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_B, DT_R3, DT_R2,
	    (int16_t) DT_WORK(cg, 0)));
	dt_bpf_cg_put_dec(cg);
	dt_bpf_loop_end(cg, &lp);
}

/* r3 = 16-bit group r5 of the address in work buffer 0 (big-endian). */
static void
dt_bpf_cg_group(dt_bpf_cg_t *cg)
{
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R5));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R2, 7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R2, 1));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R2, DT_R7));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_B, DT_R3, DT_R2,
	    (int16_t) DT_WORK(cg, 0)));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_B, DT_R4, DT_R2,
	    (int16_t) (DT_WORK(cg, 0) + 1)));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R3, 8));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_OR, DT_R3, DT_R4));
}

/* The hex digits of the group in r3, without leading zeros (r0, r4). */
static void
dt_bpf_cg_put_hex(dt_bpf_cg_t *cg)
{
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R0, 0));	/* a digit put */
	for (int shift = 12; shift >= 0; shift -= 4) {
		uint32_t lskip = dt_bpf_label_new(cg->cg_b);

		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R4, DT_R3));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R4, shift));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R4, 15));
		if (shift > 0) {
			DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JNE, DT_R4, 0, 1));
			dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ,
			    DT_R0, 0, 0), lskip);
		}
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R0, 1));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R4, '0'));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLE, DT_R4, '9', 1));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R4, 'a' - '0' - 10));
		dt_bpf_cg_put(cg, DT_R4, 0, DT_INET_LIMIT);
		dt_bpf_label_here(cg->cg_b, lskip);
	}
}

/*
 * The IPv6 address in work buffer 0, as dif_ntoa6(): DTrace's choice of
 * zero run as "::", and an IPv4-mapped or
 * -compatible address with its last four bytes dotted (only those when
 * v4only, for inet_ntoa6()).  Loop variables: 1 the best run's start
 * (-1: none), 2 its length, 3 the current run, 4 the groups shown in
 * hex (8, or 6 before a dotted tail), 5 = 12 for the dotted tail; T1:
 * the address ends dotted.  Goes on at ldotted for the dotted tail,
 * else at lend.
 */
static void
dt_bpf_cg_put_ipv6(dt_bpf_cg_t *cg, bool v4only, uint32_t ldotted,
    uint32_t lend)
{
	uint32_t lplain = dt_bpf_label_new(cg->cg_b);
	uint32_t lv4 = dt_bpf_label_new(cg->cg_b);
	uint32_t lhex = dt_bpf_label_new(cg->cg_b);
	uint32_t lgroups = dt_bpf_label_new(cg->cg_b);
	uint32_t lnz = dt_bpf_label_new(cg->cg_b);
	uint32_t lbest = dt_bpf_label_new(cg->cg_b);
	uint32_t lprint = dt_bpf_label_new(cg->cg_b);
	uint32_t lcolon = dt_bpf_label_new(cg->cg_b);
	uint32_t lend6 = dt_bpf_label_new(cg->cg_b);
	uint32_t lcmp = dt_bpf_label_new(cg->cg_b);
	dt_bpf_loop_t lp;

	/* mapped: ::ffff:a.b.c.d; compatible: ::a.b.c.d but not :: or ::1 */
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_T1, 0));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7,
	    (int16_t) DT_WORK(cg, 0)));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R1, 0, 0),
	    lplain);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_W, DT_R2, DT_R7,
	    (int16_t) (DT_WORK(cg, 0) + 8)));
	DT_EMIT(cg, DT_BPF_MOV32_IMM(DT_R4, (int32_t) 0xffff0000U));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JEQ, DT_R2, DT_R4, 0),
	    lv4);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R2, 0, 0),
	    lplain);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_W, DT_R3, DT_R7,
	    (int16_t) (DT_WORK(cg, 0) + 12)));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3, 0, 0),
	    lplain);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3, 0x01000000,
	    0), lplain);
	dt_bpf_label_here(cg->cg_b, lv4);
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, 5), 12));
	if (v4only) {
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldotted);
	} else {
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_T1, 1));
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, 4), 6));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lgroups);
	}
	dt_bpf_label_here(cg->cg_b, lplain);
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, 4), 8));
	dt_bpf_label_here(cg->cg_b, lgroups);

	/*
	 * The zero run DTrace compresses (see dif_ntoa6()), measured where
	 * it ends: 2 * run - 1 bytes at the end of the address, else
	 * 2 * run, plus one when the next group's high byte is zero.
	 */
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, 1), -1));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, 2), 0));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, 3), 0));
	dt_bpf_loop_begin(cg, &lp, DT_R5, 8, 1);
	dt_bpf_cg_group(cg);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R3, 0, 0), lnz);
	dt_bpf_cg_addvar(cg, 3, 1);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R5, 7, 0),
	    lend6);
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R5, 1));
	dt_bpf_cg_group(cg);
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_SUB, DT_R5, 1));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3, 0, 0),
	    lp.lp_next);
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R0, 0));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R3, 8));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JNE, DT_R3, 0, 1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R0, 1));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, 3)));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R1, 1));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R0));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lcmp);
	dt_bpf_label_here(cg->cg_b, lend6);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, 3)));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R1, 1));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_SUB, DT_R1, 1));
	dt_bpf_label_here(cg->cg_b, lcmp);
	/* taken when longer than the bytes of the run taken (at least 1) */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7, DT_VAR(cg, 2)));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R2, 1));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JNE, DT_R2, 0, 1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, 1));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JLE, DT_R1, DT_R2, 0),
	    lp.lp_next);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, 3)));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_VAR(cg, 2)));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R5));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R2, DT_R1));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, 1));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R2, DT_VAR(cg, 1)));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lp.lp_next);
	dt_bpf_label_here(cg->cg_b, lnz);
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, 3), 0));
	dt_bpf_loop_end(cg, &lp);
	/* A run reaching into the dotted tail is not compressed. */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, 1)));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7, DT_VAR(cg, 2)));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R2));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7, DT_VAR(cg, 4)));
	DT_EMIT(cg, DT_BPF_JMP_REG(BPF_JSLE, DT_R1, DT_R2, 2));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, 1), -1));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, 2), 0));

	/* The groups: "::" for the run, ':' between the others. */
	dt_bpf_loop_begin(cg, &lp, DT_R5, 8, 1);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, 4)));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JGE, DT_R5, DT_R1, 0),
	    lp.lp_done);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, 1)));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R7, DT_VAR(cg, 2)));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R3, DT_R1));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JEQ, DT_R5, DT_R1, 0),
	    lbest);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JSLT, DT_R5, DT_R1, 0),
	    lprint);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JSLT, DT_R5, DT_R3, 0),
	    lp.lp_next);
	dt_bpf_label_here(cg->cg_b, lprint);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R5, 0, 0), lhex);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JEQ, DT_R5, DT_R3, 0),
	    lhex);
	dt_bpf_cg_put(cg, -1, ':', DT_INET_LIMIT);
	dt_bpf_label_here(cg->cg_b, lhex);
	dt_bpf_cg_group(cg);
	dt_bpf_cg_put_hex(cg);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lp.lp_next);
	dt_bpf_label_here(cg->cg_b, lbest);
	dt_bpf_cg_put(cg, -1, ':', DT_INET_LIMIT);
	dt_bpf_cg_put(cg, -1, ':', DT_INET_LIMIT);
	dt_bpf_loop_end(cg, &lp);

	/* The dotted tail, after a ':' unless the run ends the groups. */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_T1));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 0, 0), lend);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, 1)));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R7, DT_VAR(cg, 2)));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R3, DT_R1));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3, 6, 0),
	    lcolon);
	dt_bpf_cg_put(cg, -1, ':', DT_INET_LIMIT);
	dt_bpf_label_here(cg->cg_b, lcolon);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldotted);
}

/*
 * Copies n bytes at the address in tuple entry i into work buffer 0;
 * an unreadable address faults "invalid address" with it.
 */
static void
dt_bpf_cg_bytes_arg(dt_bpf_cg_t *cg, int i, int32_t n)
{
	DT_LDTUP(cg, DT_R3, i);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R3, DT_FP_T4));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, (int32_t) DT_WORK(cg, 0)));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, n));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_kernel));
	dt_bpf_cg_fault_if_slot(cg, BPF_JNE, DT_R0, 0, DIF_FLT_BADADDR,
	    DT_FP_T4);
}

/*
 * alloca() and copyin() take at most scratchsize bytes a clause, when
 * the option is set, as dif_alloca(): the size in sizeslot, counted (8
 * aligned) in DT_SC_AUSED, or "out of scratch space".
 */
static void
dt_bpf_cg_alloca_budget(dt_bpf_cg_t *cg, int sizeslot)
{
	int32_t limit = (int32_t) cg->cg_lay->bl_scratchsize;

	if (!cg->cg_lay->bl_scratchset)
		return;
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_AUSED));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R1, -8));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, sizeslot));
	dt_bpf_cg_fault_if(cg, BPF_JGT, DT_R2, limit, DIF_FLT_NOSCRATCH, -1);
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R2));
	dt_bpf_cg_fault_if(cg, BPF_JGT, DT_R1, limit, DIF_FLT_NOSCRATCH, -1);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_SC_AUSED));
}

/*
 * bcopy() and copyinto(): size bytes (tuple entry size) from the address
 * in entry src (user memory when user) to the one in entry dst, which, as
 * in DTrace, must lie in what the clause allocated of scratch.
 */
static void
dt_bpf_cg_to_scratch(dt_bpf_cg_t *cg, int src, int dst, int size, bool user)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	uint32_t lbad = dt_bpf_label_new(cg->cg_b);
	uint32_t lok = dt_bpf_label_new(cg->cg_b);

	DT_LDTUP(cg, DT_R2, size);
	dt_bpf_cg_fault_if(cg, BPF_JGT, DT_R2,
	    (int32_t) lay->bl_dscratch_size, DIF_FLT_BADADDR, -1);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R2, DT_FP_T1));
	DT_LDTUP(cg, DT_R3, dst);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R3, DT_FP_T4));
	dt_bpf_cg_saddr(cg, DT_R4, lay->bl_dscratch_off);
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R3, DT_R4));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R4, DT_R7, DT_SC_USED));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R4, DT_R2));
	/* offset in [0, used - size] */
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JSLT, DT_R4, 0, 0),
	    lbad);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JGT, DT_R3, DT_R4, 0),
	    lbad);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lok);
	dt_bpf_label_here(cg->cg_b, lbad);
	dt_bpf_cg_fault(cg, DIF_FLT_BADADDR, DT_FP_T4);
	dt_bpf_label_here(cg->cg_b, lok);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R3, DT_FP_T2));
	dt_bpf_cg_dsptr(cg, DT_R1, DT_FP_T2);
	dt_bpf_cg_ldlen(cg, DT_R2, DT_FP_T1, lay->bl_dscratch_size);
	DT_LDTUP(cg, DT_R3, src);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R3, DT_FP_T4));
	DT_EMIT(cg, DT_BPF_CALL(user ? BPF_FUNC_probe_read_user :
	    BPF_FUNC_probe_read_kernel));
	dt_bpf_cg_fault_if_slot(cg, BPF_JNE, DT_R0, 0, DIF_FLT_BADADDR,
	    DT_FP_T4);
}

/*
 * link_ntop(type, addr), as dif_link_ntop(): the address's bytes (6 for
 * Ethernet, 20 for InfiniBand, loop variable 5) in work buffer 0, then
 * one loop writing each as two hex digits after a ':' but the first.
 */
static void
dt_bpf_cg_link_ntop(dt_bpf_cg_t *cg, unsigned rd)
{
	uint32_t leth = dt_bpf_label_new(cg->cg_b);
	uint32_t lread = dt_bpf_label_new(cg->cg_b);
	uint32_t lfirst = dt_bpf_label_new(cg->cg_b);
	uint32_t lnosep = dt_bpf_label_new(cg->cg_b);
	dt_bpf_loop_t lp;

	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, DT_VAR_POS), 0));
	DT_LDTUP(cg, DT_R1, 0);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 1, 0), leth);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 32, 0),
	    lread);
	dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
	dt_bpf_label_here(cg->cg_b, lread);
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, 5), 20));
	dt_bpf_cg_bytes_arg(cg, 1, 20);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lfirst);
	dt_bpf_label_here(cg->cg_b, leth);
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, 5), 6));
	dt_bpf_cg_bytes_arg(cg, 1, 6);
	dt_bpf_label_here(cg->cg_b, lfirst);

	dt_bpf_loop_begin(cg, &lp, DT_R5, 20, 1);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, 5)));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JGE, DT_R5, DT_R1, 0),
	    lp.lp_done);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R5, 0, 0),
	    lnosep);
	dt_bpf_cg_put(cg, -1, ':', DT_INET_LIMIT);
	dt_bpf_label_here(cg->cg_b, lnosep);
	for (int shift = 4; shift >= 0; shift -= 4) {
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R5));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLE, DT_R2, 19, 1));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, 0));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R2, DT_R7));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_B, DT_R3, DT_R2,
		    (int16_t) DT_WORK(cg, 0)));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R3, shift));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R3, 15));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R3, '0'));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLE, DT_R3, '9', 1));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R3,
		    'a' - '0' - 10));
		dt_bpf_cg_put(cg, DT_R3, 0, DT_INET_LIMIT);
	}
	dt_bpf_loop_end(cg, &lp);
	dt_bpf_cg_put_ret(cg, rd);
}

/* inet_ntoa(), inet_ntoa6(), inet_ntop(af, addr), as dif_inet(). */
static void
dt_bpf_cg_inet(dt_bpf_cg_t *cg, uint32_t subr, unsigned rd)
{
	uint32_t lv6 = dt_bpf_label_new(cg->cg_b);
	uint32_t ldotted = dt_bpf_label_new(cg->cg_b);
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);
	int a = subr == DIF_SUBR_INET_NTOP ? 1 : 0;

	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, DT_VAR_POS), 0));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, 5), 0));
	if (subr == DIF_SUBR_INET_NTOP) {
		uint32_t lv4 = dt_bpf_label_new(cg->cg_b);

		DT_LDTUP(cg, DT_R1, 0);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 2,
		    0), lv4);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 10,
		    0), lv6);
		dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
		dt_bpf_label_here(cg->cg_b, lv4);
	}
	if (subr != DIF_SUBR_INET_NTOA6) {
		dt_bpf_cg_bytes_arg(cg, a, 4);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldotted);
	}
	dt_bpf_label_here(cg->cg_b, lv6);
	if (subr != DIF_SUBR_INET_NTOA) {
		dt_bpf_cg_bytes_arg(cg, a, 16);
		dt_bpf_cg_put_ipv6(cg, subr == DIF_SUBR_INET_NTOA6, ldotted,
		    ldone);
	}
	dt_bpf_label_here(cg->cg_b, ldotted);
	dt_bpf_cg_put_dotted(cg);
	dt_bpf_label_here(cg->cg_b, ldone);
	dt_bpf_cg_put_ret(cg, rd);
}

/*
 * The end of a cleanpath() step: text out (cut at strsize - 1), and the
 * byte in r3 after it when withc (DTrace writes "/c", "/.c" and "/..c"
 * whole, before it looks at the length again), then on at the input adv
 * bytes further, or done when adv is 0.
 */
static void
dt_bpf_cg_clean_stepc(dt_bpf_cg_t *cg, dt_bpf_loop_t *lp, const char *text,
    bool withc, int32_t adv)
{
	for (; *text != '\0'; text++)
		dt_bpf_cg_put(cg, -1, *text, cg->cg_lay->bl_strsize - 1);
	if (withc)
		dt_bpf_cg_put(cg, DT_R3, 0, cg->cg_lay->bl_strsize - 1);
	if (adv == 0) {
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lp->lp_done);
		return;
	}
	dt_bpf_cg_addvar(cg, 1, adv);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lp->lp_next);
}

static void
dt_bpf_cg_clean_step(dt_bpf_cg_t *cg, dt_bpf_loop_t *lp, const char *text,
    int32_t adv)
{
	dt_bpf_cg_clean_stepc(cg, lp, text, false, adv);
}

/*
 * cleanpath(), as dif_cleanpath(), one step of a small machine per
 * iteration: in mode 0 the step reads what follows the input position
 * (loop variable 1) and copies it, or skips "//" and "/./"; "/../"
 * (or a trailing "/..") enters mode 1, whose steps drop the output's
 * last component one byte at a time.  Each mode-0 step takes at least
 * one input byte and each mode-1 step drops one output byte, so
 * 2 * strsize + 8 steps finish any string.  Loop variables: 2 the mode,
 * 3 the byte after "/.." (0 or '/').
 */
static void
dt_bpf_cg_cleanpath(dt_bpf_cg_t *cg, unsigned rd)
{
	uint32_t ss = cg->cg_lay->bl_strsize, max = ss - 1;
	uint32_t lnormal = dt_bpf_label_new(cg->cg_b);
	uint32_t lendback = dt_bpf_label_new(cg->cg_b);
	uint32_t lslash = dt_bpf_label_new(cg->cg_b);
	uint32_t l1 = dt_bpf_label_new(cg->cg_b);
	uint32_t l2 = dt_bpf_label_new(cg->cg_b);
	uint32_t l3 = dt_bpf_label_new(cg->cg_b);
	uint32_t ldot = dt_bpf_label_new(cg->cg_b);
	uint32_t ldd = dt_bpf_label_new(cg->cg_b);
	uint32_t lup = dt_bpf_label_new(cg->cg_b);
	uint32_t lre = dt_bpf_label_new(cg->cg_b);
	uint32_t lkeep = dt_bpf_label_new(cg->cg_b);
	uint32_t lslash0 = dt_bpf_label_new(cg->cg_b);
	dt_bpf_loop_t lp;

	dt_bpf_cg_sarg(cg, 0, 0, DT_FP_T0);
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, DT_VAR_POS), 0));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, 1), 0));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, 2), 0));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, 4), 0));
	dt_bpf_loop_begin(cg, &lp, DT_R5, 2 * ss + 8, 1);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, 2)));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 0, 0),
	    lnormal);
	/*
	 * while (j != 0 && d[--j] != '/'), j != 0 as j < 1: older verifiers
	 * (6.1) learn no lower bound from JEQ, and j - 1 reads before d.
	 */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg,
	    DT_VAR_POS)));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JLT, DT_R1, 1, 0),
	    lendback);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGT, DT_R1, (int32_t) ss,
	    0), lendback);
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_SUB, DT_R1, 1));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_VAR(cg,
	    DT_VAR_POS)));
	dt_bpf_cg_wbyte(cg, DT_R3, 1, DT_R1);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R3, '/', 0),
	    lp.lp_next);
	dt_bpf_label_here(cg->cg_b, lendback);
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, 2), 0));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, 3)));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R1, 0, 0), lre);
	/* trailing "/..": keep the byte stopped at, if one was written */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg,
	    DT_VAR_POS)));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7, DT_VAR(cg, 4)));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JGE, DT_R1, DT_R2, 0),
	    lkeep);
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 1));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_VAR(cg,
	    DT_VAR_POS)));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lp.lp_done);
	dt_bpf_label_here(cg->cg_b, lkeep);
	dt_bpf_cg_clean_step(cg, &lp, "/", 0);
	dt_bpf_label_here(cg->cg_b, lre);
	dt_bpf_cg_clean_step(cg, &lp, "", 3);

	/* mode 0: s[i], s[i + 1], ... (the buffer has 8 bytes past ss);
	 * r4 = &s[i] lasts as dt_bpf_cg_put() uses only r1 and r2. */
	dt_bpf_label_here(cg->cg_b, lnormal);
	/* DTrace stops while "/..c" and the NUL would still fit. */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg,
	    DT_VAR_POS)));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGE, DT_R1,
	    (int32_t) ss - 5, 0), lp.lp_done);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, 1)));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGT, DT_R1, (int32_t) ss,
	    0), lp.lp_done);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R4, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R4, DT_R1));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_B, DT_R3, DT_R4,
	    (int16_t) DT_WORK(cg, 0)));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3, 0, 0),
	    lp.lp_done);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3, '/', 0),
	    lslash);
	dt_bpf_cg_put(cg, DT_R3, 0, max);
	dt_bpf_cg_addvar(cg, 1, 1);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lp.lp_next);
	dt_bpf_label_here(cg->cg_b, lslash);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_B, DT_R3, DT_R4,
	    (int16_t) (DT_WORK(cg, 0) + 1)));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R3, '/', 0), l1);
	dt_bpf_cg_clean_step(cg, &lp, "", 1);	/* "//" */
	dt_bpf_label_here(cg->cg_b, l1);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3, '.', 0),
	    ldot);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3, 0, 0),
	    lslash0);
	dt_bpf_cg_clean_stepc(cg, &lp, "/", true, 2);
	dt_bpf_label_here(cg->cg_b, lslash0);
	dt_bpf_cg_clean_step(cg, &lp, "/", 0);
	dt_bpf_label_here(cg->cg_b, ldot);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_B, DT_R3, DT_R4,
	    (int16_t) (DT_WORK(cg, 0) + 2)));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R3, '/', 0), l2);
	dt_bpf_cg_clean_step(cg, &lp, "", 2);	/* "/./" */
	dt_bpf_label_here(cg->cg_b, l2);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R3, 0, 0), l3);
	dt_bpf_cg_clean_step(cg, &lp, "/.", 0);	/* trailing "/." */
	dt_bpf_label_here(cg->cg_b, l3);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3, '.', 0),
	    ldd);
	dt_bpf_cg_clean_stepc(cg, &lp, "/.", true, 3);
	dt_bpf_label_here(cg->cg_b, ldd);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_B, DT_R3, DT_R4,
	    (int16_t) (DT_WORK(cg, 0) + 3)));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3, '/', 0), lup);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3, 0, 0), lup);
	dt_bpf_cg_clean_stepc(cg, &lp, "/..", true, 4);
	dt_bpf_label_here(cg->cg_b, lup);
	/* loop variable 4: the most bytes written before any removal */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg,
	    DT_VAR_POS)));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7, DT_VAR(cg, 4)));
	DT_EMIT(cg, DT_BPF_JMP_REG(BPF_JLE, DT_R1, DT_R2, 1));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_VAR(cg, 4)));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R3, DT_VAR(cg, 3)));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, 2), 1));
	dt_bpf_loop_end(cg, &lp);
	dt_bpf_cg_put_ret(cg, rd);
}

/*
 * strtok(s, delim), as dif_strtok(): the string of the last non-NULL s
 * and the position reached in it are in scratch (bl_strtok_off: a valid
 * word, cleared by each firing's prologue, the position, the string).
 * The delimiters become a 256-bit map in work buffer 2 after the loop
 * variables; loop variable 0 is the index.
 */
static void
dt_bpf_cg_strtok(dt_bpf_cg_t *cg, unsigned rd)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	uint32_t ss = lay->bl_strsize;
	int16_t valid = (int16_t) lay->bl_strtok_off;
	int16_t pos = (int16_t) (lay->bl_strtok_off + 8);
	uint32_t str = lay->bl_strtok_off + 16;
	int16_t map = (int16_t) (DT_WORK(cg, 2) + 80);
	uint32_t lcont = dt_bpf_label_new(cg->cg_b);
	uint32_t lnull = dt_bpf_label_new(cg->cg_b);
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);
	dt_bpf_loop_t lp;

	DT_LDTUP(cg, DT_R3, 0);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3, 0, 0), lcont);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R3, DT_FP_T4));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, (int32_t) str));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, (int32_t) ss));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_kernel_str));
	dt_bpf_cg_fault_if_slot(cg, BPF_JSLT, DT_R0, 0, DIF_FLT_BADADDR,
	    DT_FP_T4);
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, valid, 1));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, pos, 0));
	dt_bpf_label_here(cg->cg_b, lcont);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, valid));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 0, 0), lnull);
	dt_bpf_cg_sarg(cg, 1, 1, DT_FP_T0);
	for (int16_t k = 0; k < 32; k += 8)
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, map + k, 0));
	dt_bpf_loop_begin(cg, &lp, DT_R5, ss, 1);
	dt_bpf_cg_wbyte(cg, DT_R3, 1, DT_R5);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3, 0, 0),
	    lp.lp_done);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R3));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R2, 3));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R2, DT_R7));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_B, DT_R4, DT_R2, map));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R3, 7));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 1));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_LSH, DT_R1, DT_R3));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_OR, DT_R4, DT_R1));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_B, DT_R2, DT_R4, map));
	dt_bpf_loop_end(cg, &lp);

	/*
	 * Two scans from the position: over delimiters (skip 1), then to
	 * the next delimiter or the end (skip 0); r4 = whether s[i] is one.
	 */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, pos));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_VAR(cg, 0)));
	for (int skip = 1; skip >= 0; skip--) {
		dt_bpf_loop_begin(cg, &lp, DT_R5, ss, 1);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg,
		    0)));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGE, DT_R1,
		    (int32_t) ss, 0), lp.lp_done);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R2, DT_R1));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_B, DT_R3, DT_R2, (int16_t) str));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3, 0, 0),
		    lp.lp_done);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R3));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R2, 3));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R2, DT_R7));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_B, DT_R4, DT_R2, map));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R3, 7));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_RSH, DT_R4, DT_R3));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R4, 1));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R4, skip,
		    0), lp.lp_done);
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 1));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_VAR(cg,
		    0)));
		dt_bpf_loop_end(cg, &lp);
		if (skip == 0)
			break;
		/* At the end: no token, and no more. */
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg,
		    0)));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T3));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JGE, DT_R1, (int32_t) ss, 3));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R7));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_B, DT_R3, DT_R1, (int16_t) str));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R3, 0, 0),
		    ldone);
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, valid, 0));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lnull);
		dt_bpf_label_here(cg->cg_b, ldone);
		ldone = dt_bpf_label_new(cg->cg_b);
	}
	/* The token: s[start .. i), a new string; the position is i. */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, 0)));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, pos));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, DT_FP_T3));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R1, DT_R2));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T1));
	dt_bpf_cg_alloc(cg, 0, ss, DT_FP_T2);
	dt_bpf_cg_copy(cg, DT_FP_T2, 0, DT_FP_T1, str, DT_FP_T3);
	dt_bpf_cg_dsaddr(cg, rd, DT_FP_T2);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
	dt_bpf_label_here(cg->cg_b, lnull);
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
	dt_bpf_cg_streg(cg, rd, DT_R1);
	dt_bpf_label_here(cg->cg_b, ldone);
}

void
dt_bpf_cg_subr(dt_bpf_cg_t *cg, uint32_t subr, unsigned rd)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	int nargs = cg->cg_tstate[cg->cg_pc].ts_depth;
	uint32_t ss = lay->bl_strsize;
	const char *name = dif_subr_name(subr);

	if (subr > DIF_SUBR_MAX || nargs < dif_subr_minargs(subr)) {
		dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
		return;
	}
	switch (subr) {
	case DIF_SUBR_STRLEN:
		dt_bpf_cg_sarg(cg, 0, 0, DT_FP_T0);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_T0));
		dt_bpf_cg_streg(cg, rd, DT_R1);
		return;
	case DIF_SUBR_STRJOIN:
		dt_bpf_cg_sarg(cg, 0, 0, DT_FP_T0);
		dt_bpf_cg_sarg(cg, 1, 1, DT_FP_T1);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_T0));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, DT_FP_T1));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R2));
		dt_bpf_cg_fault_if(cg, BPF_JGE, DT_R1, (int32_t) ss,
		    DIF_FLT_NOSCRATCH, -1);
		dt_bpf_cg_alloc(cg, 0, ss, DT_FP_T2);
		dt_bpf_cg_copy(cg, DT_FP_T2, 0, DT_FP_T0, DT_WORK(cg, 0), 0);
		dt_bpf_cg_copy(cg, DT_FP_T2, DT_FP_T0, DT_FP_T1, DT_WORK(cg, 1), 0);
		dt_bpf_cg_dsaddr(cg, rd, DT_FP_T2);
		return;
	case DIF_SUBR_SUBSTR:
		dt_bpf_cg_substr(cg, nargs, rd);
		return;
	case DIF_SUBR_STRCHR:
	case DIF_SUBR_STRRCHR:
		dt_bpf_cg_strchr(cg, subr, rd);
		return;
	case DIF_SUBR_TOUPPER:
	case DIF_SUBR_TOLOWER:
		dt_bpf_cg_case(cg, subr == DIF_SUBR_TOUPPER, rd);
		return;
	case DIF_SUBR_INDEX:
	case DIF_SUBR_RINDEX:
	case DIF_SUBR_STRSTR:
		dt_bpf_cg_index(cg, subr, nargs, rd);
		return;
	case DIF_SUBR_LLTOSTR:
		dt_bpf_cg_lltostr(cg, nargs, rd);
		return;
	case DIF_SUBR_BASENAME:
	case DIF_SUBR_DIRNAME:
		dt_bpf_cg_basename(cg, subr, rd);
		return;
	case DIF_SUBR_STRTOLL:
		dt_bpf_cg_strtoll(cg, nargs, rd);
		return;
	case DIF_SUBR_STRTOK:
		dt_bpf_cg_strtok(cg, rd);
		return;
	case DIF_SUBR_CLEANPATH:
		dt_bpf_cg_cleanpath(cg, rd);
		return;
	case DIF_SUBR_INET_NTOA:
	case DIF_SUBR_INET_NTOA6:
	case DIF_SUBR_INET_NTOP:
		dt_bpf_cg_inet(cg, subr, rd);
		return;
	case DIF_SUBR_LINK_NTOP:
		dt_bpf_cg_link_ntop(cg, rd);
		return;
	case DIF_SUBR_D_PATH:
		dt_bpf_cg_dpath(cg, nargs);
		dt_bpf_cg_sret(cg, rd, 0, 0, DT_FP_T3);
		return;
	case DIF_SUBR_ALLOCA:
		DT_LDTUP(cg, DT_R1, 0);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T1));
		dt_bpf_cg_alloca_budget(cg, DT_FP_T1);
		dt_bpf_cg_alloc(cg, DT_FP_T1, 0, DT_FP_T2);
		dt_bpf_cg_dsaddr(cg, rd, DT_FP_T2);
		return;
	case DIF_SUBR_COPYIN:
		DT_LDTUP(cg, DT_R1, 1);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T1));
		dt_bpf_cg_alloca_budget(cg, DT_FP_T1);
		dt_bpf_cg_alloc(cg, DT_FP_T1, 0, DT_FP_T2);
		dt_bpf_cg_dsptr(cg, DT_R1, DT_FP_T2);
		dt_bpf_cg_ldlen(cg, DT_R2, DT_FP_T1, lay->bl_dscratch_size);
		DT_LDTUP(cg, DT_R3, 0);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R3, DT_FP_T4));
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_user));
		dt_bpf_cg_fault_if_slot(cg, BPF_JNE, DT_R0, 0, DIF_FLT_BADADDR,
		    DT_FP_T4);
		dt_bpf_cg_dsaddr(cg, rd, DT_FP_T2);
		return;
	case DIF_SUBR_COPYINSTR:
		/* size = strsize, or max + 1 when max < strsize */
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, (int32_t) ss));
		if (nargs > 1) {
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7,
			    DT_TUP(cg, 1)));
			DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JGE, DT_R2,
			    (int32_t) ss, 2));
			DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R2));
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 1));
		}
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T1));
		dt_bpf_cg_alloc(cg, 0, ss, DT_FP_T2);
		dt_bpf_cg_dsptr(cg, DT_R1, DT_FP_T2);
		dt_bpf_cg_ldlen(cg, DT_R2, DT_FP_T1, ss);
		DT_LDTUP(cg, DT_R3, 0);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R3, DT_FP_T4));
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_user_str));
		dt_bpf_cg_fault_if_slot(cg, BPF_JSLT, DT_R0, 0, DIF_FLT_BADADDR,
		    DT_FP_T4);
		dt_bpf_cg_dsaddr(cg, rd, DT_FP_T2);
		return;
	case DIF_SUBR_BCOPY:
		dt_bpf_cg_to_scratch(cg, 0, 1, 2, false);
		return;
	case DIF_SUBR_COPYINTO:
		dt_bpf_cg_to_scratch(cg, 0, 2, 1, true);
		return;
	case DIF_SUBR_HTONS:
	case DIF_SUBR_NTOHS:
	case DIF_SUBR_HTONL:
	case DIF_SUBR_NTOHL:
	case DIF_SUBR_HTONLL:
	case DIF_SUBR_NTOHLL: {
		int bits = subr == DIF_SUBR_HTONS || subr == DIF_SUBR_NTOHS ?
		    16 : subr == DIF_SUBR_HTONL || subr == DIF_SUBR_NTOHL ?
		    32 : 64;

		DT_LDTUP(cg, DT_R1, 0);
		DT_EMIT(cg, DT_BPF_INSN(BPF_ALU | BPF_END | BPF_TO_BE, DT_R1,
		    0, 0, bits));
		dt_bpf_cg_streg(cg, rd, DT_R1);
		return;
	}
	case DIF_SUBR_GETMAJOR:
		DT_LDTUP(cg, DT_R1, 0);
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R1, 20));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R1, 0xfff));
		dt_bpf_cg_streg(cg, rd, DT_R1);
		return;
	case DIF_SUBR_GETMINOR:
		DT_LDTUP(cg, DT_R1, 0);
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R1, 0xfffff));
		dt_bpf_cg_streg(cg, rd, DT_R1);
		return;
	case DIF_SUBR_RAND:
		/* 32 random bits, an int as dif_rand()'s */
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_prandom_u32));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R0, 32));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ARSH, DT_R0, 32));
		dt_bpf_cg_streg(cg, rd, DT_R0);
		return;
	case DIF_SUBR_SPECULATION:
		dt_bpf_cg_speculation(cg, rd);
		return;
	case DIF_SUBR_PROGENYOF:
		dt_bpf_cg_progenyof(cg, rd);
		return;
	case DIF_SUBR_MEMREF:
		dt_bpf_cg_alloc(cg, 0, 16, DT_FP_T2);
		dt_bpf_cg_dsptr(cg, DT_R1, DT_FP_T2);
		DT_LDTUP(cg, DT_R2, 0);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R1, DT_R2, 0));
		DT_LDTUP(cg, DT_R2, 1);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R1, DT_R2, 8));
		dt_bpf_cg_dsaddr(cg, rd, DT_FP_T2);
		return;
	case DIF_SUBR_MUTEX_OWNED:
	case DIF_SUBR_MUTEX_OWNER:
	case DIF_SUBR_MUTEX_TYPE_ADAPTIVE:
	case DIF_SUBR_MUTEX_TYPE_SPIN:
	case DIF_SUBR_RW_READ_HELD:
	case DIF_SUBR_RW_WRITE_HELD:
	case DIF_SUBR_RW_ISWRITER:
		dt_bpf_cg_kword(cg);
		switch (subr) {
		case DIF_SUBR_MUTEX_OWNED:
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R1, -8));
			DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 0, 1));
			DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 1));
			break;
		case DIF_SUBR_MUTEX_OWNER:
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R1, -8));
			break;
		case DIF_SUBR_MUTEX_TYPE_ADAPTIVE:
		case DIF_SUBR_MUTEX_TYPE_SPIN:
			DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1,
			    subr == DIF_SUBR_MUTEX_TYPE_ADAPTIVE));
			break;
		case DIF_SUBR_RW_READ_HELD:
			/* !(w & 1) && (w >> 8) != 0 */
			DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R1));
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R2, 8));
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R1, 1));
			DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JNE, DT_R1, 0, 3));
			DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JEQ, DT_R2, 0, 2));
			DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 1));
			DT_EMIT(cg, DT_BPF_JA(1));
			DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
			break;
		default:
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R1, 1));
			break;
		}
		dt_bpf_cg_streg(cg, rd, DT_R1);
		return;
	case DIF_SUBR_COPYOUT:
	case DIF_SUBR_COPYOUTSTR:
		dt_bpf_cg_error(cg, "%s() is unavailable: this kernel does not "
		    "let BPF programs write user memory", name);
		return;
	default:
		dt_bpf_cg_error(cg, "subroutine %s() is not supported by the bpf "
		    "engine yet", name != NULL ? name : "?");
		return;
	}
}
