/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_loop.c: the bounded loops of generated code (string subroutines,
 * the user stack walk), as bpf_loop() callbacks where the kernel has the
 * helper; dt_bpf_impl.h describes them.
 */
#include <stdbool.h>
#include <stdint.h>

#include "os/linux/bpf/dt_bpf_impl.h"

void
dt_bpf_loop_begin(dt_bpf_cg_t *cg, dt_bpf_loop_t *lp, int reg, uint32_t max,
    int32_t step)
{
	static const int16_t slots[] = { DT_FP_T0, DT_FP_T1 };
	int32_t count = (int32_t) ((max + (uint32_t) step - 1) /
	    (uint32_t) step);

	lp->lp_top = dt_bpf_label_new(cg->cg_b);
	lp->lp_next = dt_bpf_label_new(cg->cg_b);
	lp->lp_done = dt_bpf_label_new(cg->cg_b);
	lp->lp_reg = reg;
	lp->lp_step = step;
	lp->lp_nexits = 0;
	lp->lp_call = cg->cg_bpf_loop && cg->cg_loopdepth == 0;
	cg->cg_loopdepth++;
	if (!lp->lp_call) {
		DT_EMIT(cg, DT_BPF_MOV64_IMM(reg, 0));
		dt_bpf_label_here(cg->cg_b, lp->lp_top);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGE, reg,
		    (int32_t) max, 0), lp->lp_done);
		return;
	}
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R7, DT_FP_LOOP));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, DT_VAR_EXIT), 0));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, count));
	dt_bpf_emit_func_addr(cg->cg_b, DT_R2, lp->lp_top);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_FP));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R3, DT_FP_LOOP));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, 0));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_loop));

	dt_bpf_func_begin(cg->cg_b);
	dt_bpf_label_here(cg->cg_b, lp->lp_top);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGE, DT_R1, count, 0),
	    lp->lp_done);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R7, DT_R2, 0));
	for (size_t i = 0; i < sizeof (slots) / sizeof (slots[0]); i++) {
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R0, DT_R2,
		    slots[i] - DT_FP_LOOP));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R0, slots[i]));
	}
	if (reg != DT_R1)
		DT_EMIT(cg, DT_BPF_MOV64_REG(reg, DT_R1));
	if (step != 1)
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_MUL, reg, step));
}

/* Leaves the loop for label (outside it) when jmp's condition holds. */
void
dt_bpf_loop_exit(dt_bpf_cg_t *cg, dt_bpf_loop_t *lp, struct bpf_insn jmp,
    uint32_t label)
{
	uint32_t k = lp->lp_nexits;

	if (!lp->lp_call) {
		dt_bpf_jmp_label(cg->cg_b, jmp, label);
		return;
	}
	if (k >= DT_BPF_LOOP_EXITS) {
		dt_bpf_cg_error(cg, "internal error: too many loop exits");
		return;
	}
	lp->lp_exit[k] = label;
	lp->lp_xstub[k] = dt_bpf_label_new(cg->cg_b);
	lp->lp_nexits++;
	dt_bpf_jmp_label(cg->cg_b, jmp, lp->lp_xstub[k]);
}

void
dt_bpf_loop_end(dt_bpf_cg_t *cg, dt_bpf_loop_t *lp)
{
	cg->cg_loopdepth--;
	if (!lp->lp_call) {
		dt_bpf_label_here(cg->cg_b, lp->lp_next);
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, lp->lp_reg,
		    lp->lp_step));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lp->lp_top);
		dt_bpf_label_here(cg->cg_b, lp->lp_done);
		return;
	}
	dt_bpf_label_here(cg->cg_b, lp->lp_next);
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R0, 0));
	DT_EMIT(cg, DT_BPF_EXIT());
	for (uint32_t k = 0; k < lp->lp_nexits; k++) {
		dt_bpf_label_here(cg->cg_b, lp->lp_xstub[k]);
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7,
		    DT_VAR(cg, DT_VAR_EXIT), (int32_t) k + 1));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R0, 1));
		DT_EMIT(cg, DT_BPF_EXIT());
	}
	dt_bpf_label_here(cg->cg_b, lp->lp_done);
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R0, 1));
	DT_EMIT(cg, DT_BPF_EXIT());
	dt_bpf_func_end(cg->cg_b);

	if (lp->lp_nexits == 0)
		return;
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7,
	    DT_VAR(cg, DT_VAR_EXIT)));
	for (uint32_t k = 0; k < lp->lp_nexits; k++)
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1,
		    (int32_t) k + 1, 0), lp->lp_exit[k]);
}
