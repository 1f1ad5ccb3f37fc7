/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_instr.c: DIF instructions in the translator -- loads and stores
 * of memory (with the checks the interpreter makes, as faults), and each
 * instruction of a DIF object inlined, instruction by instruction as
 * common/dif/dif_interp.c runs it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/dif/dif.h"
#include "common/dif/dif_interp.h"
#include "os/linux/bpf/dt_bpf_gen.h"
#include "os/linux/bpf/dt_bpf_impl.h"

/*
 * Memory access.
 */

/* Loads size bytes at the address in breg (r3) into T0 via a helper. */
static void
dt_bpf_cg_load(dt_bpf_cg_t *cg, unsigned r1, unsigned rd, int size, bool sgn,
    bool user)
{
	static const int bsz[] = { 0, BPF_B, BPF_H, 0, BPF_W, 0, 0, 0, BPF_DW };

	dt_bpf_cg_ldreg(cg, DT_R3, r1);
	if (size > 1) {
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R3));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R1, size - 1));
		dt_bpf_cg_fault_if(cg, BPF_JNE, DT_R1, 0, DIF_FLT_BADALIGN,
		    (int) r1);
	}
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_T0, 0));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_FP));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, DT_FP_T0));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, size));
	DT_EMIT(cg, DT_BPF_CALL(user ? BPF_FUNC_probe_read_user :
	    BPF_FUNC_probe_read_kernel));
	dt_bpf_cg_fault_if(cg, BPF_JNE, DT_R0, 0, DIF_FLT_BADADDR, (int) r1);
	DT_EMIT(cg, DT_BPF_LDX_MEM(bsz[size], DT_R1, DT_FP, DT_FP_T0));
	if (sgn && size < 8) {
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R1, 64 - 8 * size));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ARSH, DT_R1, 64 - 8 * size));
	}
	dt_bpf_cg_streg(cg, rd, DT_R1);
}

/*
 * A pointer (into r5) to len writable bytes at the address in r3, or a
 * fault: DIF may write to what its clause allocated of scratch, to
 * clause-locals (in the scratch map) and to global variables (in the
 * state map), as in the interpreter.
 * len is a constant, or a bounded register (lenreg >= 0, value <= maxlen).
 * r4 is clobbered; r3 and lenreg are kept.
 */
static void
dt_bpf_cg_wptr(dt_bpf_cg_t *cg, int lenreg, uint32_t len, uint32_t maxlen,
    int fault_dreg, int fault_slot)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	uint32_t lglob = dt_bpf_label_new(cg->cg_b);
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);
	uint32_t lbad = dt_bpf_label_new(cg->cg_b);
	uint32_t span = lay->bl_locals_size + lay->bl_dscratch_size;
	uint32_t gspan = lay->bl_globals_size;

	if (lenreg < 0)
		maxlen = len;
	/* off = addr - (scratch base + locals); off + len <= span */
	dt_bpf_cg_saddr(cg, DT_R4, lay->bl_locals_off);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R5, DT_R3));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R5, DT_R4));
	if (maxlen > span) {
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lglob);
	} else {
		/*
		 * With the length in a register, checked below against what
		 * is left, the start may lie anywhere in the span: the guard
		 * after DIF scratch (dt_bpf_layout.c) keeps start + maxlen
		 * inside the value for the verifier.
		 */
		uint32_t lim = lenreg >= 0 && maxlen <= lay->bl_dscratch_size ?
		    span : span - maxlen;

		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGT, DT_R5,
		    (int32_t) lim, 0), lglob);
		if (lenreg >= 0) {
			DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R4, DT_R5));
			DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R4, lenreg));
			dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGT,
			    DT_R4, (int32_t) span, 0), lbad);
		}
		/* In DIF scratch, only below DT_SC_USED (r4: the room). */
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLT, DT_R5,
		    (int32_t) lay->bl_locals_size, 4));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R4, DT_R7, DT_SC_USED));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R4,
		    (int32_t) lay->bl_locals_size));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R4, DT_R5));
		if (lenreg >= 0)
			dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JSGT,
			    lenreg, DT_R4, 0), lbad);
		else
			dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JSLT,
			    DT_R4, (int32_t) len, 0), lbad);
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R5, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R5,
		    (int32_t) lay->bl_locals_off));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
	}
	dt_bpf_label_here(cg->cg_b, lglob);
	if (maxlen > gspan || gspan == 0) {
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lbad);
	} else {
		dt_bpf_cg_gaddr(cg, DT_R4, lay->bl_globals_off);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R5, DT_R3));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R5, DT_R4));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGT, DT_R5,
		    (int32_t) (gspan - maxlen), 0), lbad);
		if (lenreg >= 0) {
			DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R4, DT_R5));
			DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R4, lenreg));
			dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGT,
			    DT_R4, (int32_t) gspan, 0), lbad);
		}
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R5, DT_R8));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R5,
		    (int32_t) lay->bl_globals_off));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
	}
	dt_bpf_label_here(cg->cg_b, lbad);
	if (fault_dreg >= 0)
		dt_bpf_cg_fault_reg(cg, DIF_FLT_BADADDR, fault_dreg);
	else
		dt_bpf_cg_fault(cg, DIF_FLT_BADADDR, fault_slot);
	dt_bpf_label_here(cg->cg_b, ldone);
}

static void
dt_bpf_cg_store(dt_bpf_cg_t *cg, unsigned r1, unsigned rd, int size)
{
	static const int bsz[] = { 0, BPF_B, BPF_H, 0, BPF_W, 0, 0, 0, BPF_DW };

	dt_bpf_cg_ldreg(cg, DT_R3, rd);
	if (size > 1) {
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R3));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R1, size - 1));
		dt_bpf_cg_fault_if(cg, BPF_JNE, DT_R1, 0, DIF_FLT_BADALIGN,
		    (int) rd);
	}
	dt_bpf_cg_wptr(cg, -1, (uint32_t) size, 0, (int) rd, 0);
	dt_bpf_cg_ldreg(cg, DT_R1, r1);
	DT_EMIT(cg, DT_BPF_STX_MEM(bsz[size], DT_R5, DT_R1, 0));
}

/*
 * Instructions.
 */

static uint32_t
dt_bpf_cg_plabel(dt_bpf_cg_t *cg, uint32_t pc)
{
	if (cg->cg_plabels[pc] == UINT32_MAX)
		cg->cg_plabels[pc] = dt_bpf_label_new(cg->cg_b);
	return cg->cg_plabels[pc];
}

static void
dt_bpf_cg_divide(dt_bpf_cg_t *cg, uint32_t op, unsigned r1, unsigned r2,
    unsigned rd)
{
	bool sgn = op == DIF_OP_SDIV || op == DIF_OP_SREM;
	bool rem = op == DIF_OP_SREM || op == DIF_OP_UREM;

	dt_bpf_cg_ldreg(cg, DT_R1, r1);
	dt_bpf_cg_ldreg(cg, DT_R2, r2);
	dt_bpf_cg_fault_if(cg, BPF_JEQ, DT_R2, 0, DIF_FLT_DIVZERO, -1);
	if (!sgn) {
		DT_EMIT(cg, DT_BPF_ALU64_REG(rem ? BPF_MOD : BPF_DIV, DT_R1,
		    DT_R2));
		dt_bpf_cg_streg(cg, rd, DT_R1);
		return;
	}
	/*
	 * Signed division from unsigned: divide the magnitudes, then fix
	 * the sign (the quotient's is the XOR of the operands', the
	 * remainder's the dividend's).  INT64_MIN / -1 comes out as
	 * INT64_MIN with remainder 0, as the interpreter defines it.
	 */
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R5, 0));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JSGE, DT_R1, 0, 2));
	DT_EMIT(cg, DT_BPF_NEG64(DT_R1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R5, 1));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JSGE, DT_R2, 0, 2));
	DT_EMIT(cg, DT_BPF_NEG64(DT_R2));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_XOR, DT_R5, rem ? 0 : 1));
	DT_EMIT(cg, DT_BPF_ALU64_REG(rem ? BPF_MOD : BPF_DIV, DT_R1, DT_R2));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JEQ, DT_R5, 0, 1));
	DT_EMIT(cg, DT_BPF_NEG64(DT_R1));
	dt_bpf_cg_streg(cg, rd, DT_R1);
}

static void
dt_bpf_cg_instr(dt_bpf_cg_t *cg, dif_instr_t in, uint32_t lend)
{
	const dif_object_t *difo = cg->cg_difo;
	const dt_bpf_layout_t *lay = cg->cg_lay;
	uint32_t op = DIF_INSTR_OP(in), x;
	unsigned r1 = DIF_INSTR_R1(in), r2 = DIF_INSTR_R2(in);
	unsigned rd = DIF_INSTR_RD(in);
	static const int alu[] = {
		[DIF_OP_OR] = BPF_OR, [DIF_OP_XOR] = BPF_XOR,
		[DIF_OP_AND] = BPF_AND, [DIF_OP_SLL] = BPF_LSH,
		[DIF_OP_SRL] = BPF_RSH, [DIF_OP_SUB] = BPF_SUB,
		[DIF_OP_ADD] = BPF_ADD, [DIF_OP_MUL] = BPF_MUL,
		[DIF_OP_SRA] = BPF_ARSH,
	};
	static const int jmp[] = {
		[DIF_OP_BE] = BPF_JEQ, [DIF_OP_BNE] = BPF_JNE,
		[DIF_OP_BG] = BPF_JSGT, [DIF_OP_BGU] = BPF_JGT,
		[DIF_OP_BGE] = BPF_JSGE, [DIF_OP_BGEU] = BPF_JGE,
		[DIF_OP_BL] = BPF_JSLT, [DIF_OP_BLU] = BPF_JLT,
		[DIF_OP_BLE] = BPF_JSLE, [DIF_OP_BLEU] = BPF_JLE,
	};

	switch (op) {
	case DIF_OP_OR: case DIF_OP_XOR: case DIF_OP_AND:
	case DIF_OP_SUB: case DIF_OP_ADD: case DIF_OP_MUL:
	case DIF_OP_SLL: case DIF_OP_SRL: case DIF_OP_SRA:
		dt_bpf_cg_ldreg(cg, DT_R1, r1);
		dt_bpf_cg_ldreg(cg, DT_R2, r2);
		if (op == DIF_OP_SLL || op == DIF_OP_SRL || op == DIF_OP_SRA)
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R2, 63));
		DT_EMIT(cg, DT_BPF_ALU64_REG(alu[op], DT_R1, DT_R2));
		dt_bpf_cg_streg(cg, rd, DT_R1);
		break;
	case DIF_OP_SDIV: case DIF_OP_SREM:
	case DIF_OP_UDIV: case DIF_OP_UREM:
		dt_bpf_cg_divide(cg, op, r1, r2, rd);
		break;
	case DIF_OP_NOT:
		dt_bpf_cg_ldreg(cg, DT_R1, r1);
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_XOR, DT_R1, -1));
		dt_bpf_cg_streg(cg, rd, DT_R1);
		break;
	case DIF_OP_MOV:
		dt_bpf_cg_ldreg(cg, DT_R1, r1);
		dt_bpf_cg_streg(cg, rd, DT_R1);
		break;
	case DIF_OP_CMP:
		dt_bpf_cg_ldreg(cg, DT_R1, r1);
		dt_bpf_cg_ldreg(cg, DT_R2, r2);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_CCA));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R2, DT_FP_CCB));
		break;
	case DIF_OP_TST:
		dt_bpf_cg_ldreg(cg, DT_R1, r1);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_CCA));
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_CCB, 0));
		break;
	case DIF_OP_SCMP:
		dt_bpf_cg_scmp(cg, r1, r2);
		break;
	case DIF_OP_BA:
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0),
		    dt_bpf_cg_plabel(cg, DIF_INSTR_LABEL(in)));
		break;
	case DIF_OP_BE: case DIF_OP_BNE: case DIF_OP_BG: case DIF_OP_BGU:
	case DIF_OP_BGE: case DIF_OP_BGEU: case DIF_OP_BL: case DIF_OP_BLU:
	case DIF_OP_BLE: case DIF_OP_BLEU:
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_CCA));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, DT_FP_CCB));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(jmp[op], DT_R1,
		    DT_R2, 0), dt_bpf_cg_plabel(cg, DIF_INSTR_LABEL(in)));
		break;
	case DIF_OP_LDSB: case DIF_OP_RLDSB:
		dt_bpf_cg_load(cg, r1, rd, 1, true, false);
		break;
	case DIF_OP_LDSH: case DIF_OP_RLDSH:
		dt_bpf_cg_load(cg, r1, rd, 2, true, false);
		break;
	case DIF_OP_LDSW: case DIF_OP_RLDSW:
		dt_bpf_cg_load(cg, r1, rd, 4, true, false);
		break;
	case DIF_OP_LDUB: case DIF_OP_RLDUB:
		dt_bpf_cg_load(cg, r1, rd, 1, false, false);
		break;
	case DIF_OP_LDUH: case DIF_OP_RLDUH:
		dt_bpf_cg_load(cg, r1, rd, 2, false, false);
		break;
	case DIF_OP_LDUW: case DIF_OP_RLDUW:
		dt_bpf_cg_load(cg, r1, rd, 4, false, false);
		break;
	case DIF_OP_LDX: case DIF_OP_RLDX:
		dt_bpf_cg_load(cg, r1, rd, 8, false, false);
		break;
	case DIF_OP_ULDSB:
		dt_bpf_cg_load(cg, r1, rd, 1, true, true);
		break;
	case DIF_OP_ULDSH:
		dt_bpf_cg_load(cg, r1, rd, 2, true, true);
		break;
	case DIF_OP_ULDSW:
		dt_bpf_cg_load(cg, r1, rd, 4, true, true);
		break;
	case DIF_OP_ULDUB:
		dt_bpf_cg_load(cg, r1, rd, 1, false, true);
		break;
	case DIF_OP_ULDUH:
		dt_bpf_cg_load(cg, r1, rd, 2, false, true);
		break;
	case DIF_OP_ULDUW:
		dt_bpf_cg_load(cg, r1, rd, 4, false, true);
		break;
	case DIF_OP_ULDX:
		dt_bpf_cg_load(cg, r1, rd, 8, false, true);
		break;
	case DIF_OP_STB:
		dt_bpf_cg_store(cg, r1, rd, 1);
		break;
	case DIF_OP_STH:
		dt_bpf_cg_store(cg, r1, rd, 2);
		break;
	case DIF_OP_STW:
		dt_bpf_cg_store(cg, r1, rd, 4);
		break;
	case DIF_OP_STX:
		dt_bpf_cg_store(cg, r1, rd, 8);
		break;
	case DIF_OP_RET:
		dt_bpf_cg_ldreg(cg, DT_R0, rd);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lend);
		break;
	case DIF_OP_NOP:
		break;
	case DIF_OP_SETX:
		if ((x = DIF_INSTR_INTEGER(in)) >= difo->dif_intlen) {
			dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
			break;
		}
		dt_bpf_emit_imm64(cg->cg_b, DT_R1,
		    (uint64_t) difo->dif_inttab[x]);
		dt_bpf_cg_streg(cg, rd, DT_R1);
		break;
	case DIF_OP_SETS:
		if ((x = DIF_INSTR_STRING(in)) >= difo->dif_strlen) {
			dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
			break;
		}
		dt_bpf_cg_caddr(cg, DT_R1, cg->cg_strtab + x);
		dt_bpf_cg_streg(cg, rd, DT_R1);
		break;
	case DIF_OP_LDGA:
		if (r1 == DIF_VAR_UREGS) {
			dt_bpf_cg_uregs(cg, r2, rd);
			break;
		}
		if (r1 != DIF_VAR_ARGS) {
			dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
			break;
		}
		dt_bpf_cg_ldreg(cg, DT_R1, r2);
		dt_bpf_cg_fault_if(cg, BPF_JGE, DT_R1, DT_BPF_NARGS, DIF_FLT_ILLOP,
		    -1);
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R1, 3));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R7));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R1, DT_SC_ARGS));
		dt_bpf_cg_streg(cg, rd, DT_R1);
		break;
	case DIF_OP_LDGS:
		x = DIF_INSTR_VAR(in);
		if (x < DIF_VAR_OTHER_UBASE) {
			dt_bpf_cg_builtin(cg, x, rd);
			break;
		}
		/* FALLTHROUGH */
	case DIF_OP_LDLS: {
		uint8_t scope = op == DIF_OP_LDLS ? DIFV_SCOPE_LOCAL :
		    DIFV_SCOPE_GLOBAL;
		const dt_bpf_var_t *bv = dt_bpf_layout_var(lay, scope,
		    DIF_INSTR_VAR(in));

		if (bv == NULL)
			dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
		else
			dt_bpf_cg_ldsvar(cg, bv, rd);
		break;
	}
	case DIF_OP_STGS:
	case DIF_OP_STLS: {
		uint8_t scope = op == DIF_OP_STLS ? DIFV_SCOPE_LOCAL :
		    DIFV_SCOPE_GLOBAL;
		const dt_bpf_var_t *bv;

		x = DIF_INSTR_VAR(in);
		if (op == DIF_OP_STGS && x < DIF_VAR_OTHER_UBASE) {
			dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
			break;
		}
		if ((bv = dt_bpf_layout_var(lay, scope, x)) == NULL)
			dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
		else
			dt_bpf_cg_stsvar(cg, bv, rd);
		break;
	}
	case DIF_OP_LDTS:
		dt_bpf_cg_lddvar(cg, DIFV_SCOPE_THREAD, DIF_INSTR_VAR(in), false,
		    rd);
		break;
	case DIF_OP_STTS:
		dt_bpf_cg_stdvar(cg, DIFV_SCOPE_THREAD, DIF_INSTR_VAR(in), false,
		    rd);
		break;
	case DIF_OP_LDGAA:
		dt_bpf_cg_lddvar(cg, DIFV_SCOPE_GLOBAL, DIF_INSTR_VAR(in), true,
		    rd);
		break;
	case DIF_OP_STGAA:
		dt_bpf_cg_stdvar(cg, DIFV_SCOPE_GLOBAL, DIF_INSTR_VAR(in), true,
		    rd);
		break;
	case DIF_OP_LDTAA:
		dt_bpf_cg_lddvar(cg, DIFV_SCOPE_THREAD, DIF_INSTR_VAR(in), true,
		    rd);
		break;
	case DIF_OP_STTAA:
		dt_bpf_cg_stdvar(cg, DIFV_SCOPE_THREAD, DIF_INSTR_VAR(in), true,
		    rd);
		break;
	case DIF_OP_CALL:
		dt_bpf_cg_subr(cg, DIF_INSTR_SUBR(in), rd);
		break;
	case DIF_OP_PUSHTR:
	case DIF_OP_PUSHTV: {
		int depth = cg->cg_tstate[cg->cg_pc].ts_depth;

		if (depth >= DIF_DTR_NREGS) {
			dt_bpf_cg_fault(cg, DIF_FLT_TUPOFLOW, 0);
			break;
		}
		dt_bpf_cg_ldreg(cg, DT_R1, rd);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
		    (int16_t) (lay->bl_tuple_off + DT_TUP_VAL(depth))));
		if (r1 == DIF_TYPE_STRING)
			DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1,
			    (int32_t) lay->bl_strsize));
		else
			dt_bpf_cg_ldreg(cg, DT_R1, r2);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
		    (int16_t) (lay->bl_tuple_off + DT_TUP_SIZE(depth))));
		break;
	}
	case DIF_OP_POPTS:
	case DIF_OP_FLUSHTS:
		break;		/* the depth is static */
	case DIF_OP_ALLOCS:
		dt_bpf_cg_ldreg(cg, DT_R1, r1);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T1));
		dt_bpf_cg_alloc(cg, DT_FP_T1, 0, DT_FP_T2);
		dt_bpf_cg_saddr(cg, DT_R1, lay->bl_dscratch_off);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, DT_FP_T2));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R2));
		dt_bpf_cg_streg(cg, rd, DT_R1);
		break;
	case DIF_OP_COPYS:
		/* copy r2 bytes from r1 to rd */
		dt_bpf_cg_ldreg(cg, DT_R2, r2);
		dt_bpf_cg_fault_if(cg, BPF_JGT, DT_R2,
		    (int32_t) lay->bl_dscratch_size, DIF_FLT_NOSCRATCH, -1);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R2, DT_FP_T1));
		dt_bpf_cg_ldreg(cg, DT_R3, rd);
		dt_bpf_cg_wptr(cg, DT_R2, 0, lay->bl_dscratch_size, (int) rd, 0);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R5));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, DT_FP_T1));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLE, DT_R2,
		    (int32_t) lay->bl_dscratch_size, 1));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, 0));
		dt_bpf_cg_ldreg(cg, DT_R3, r1);
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_kernel));
		dt_bpf_cg_fault_if(cg, BPF_JNE, DT_R0, 0, DIF_FLT_BADADDR,
		    (int) r1);
		break;
	default:
		/* ldta, xlate, xlarg and unknown opcodes, as in DIF. */
		dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
		break;
	}
}

/* Inlines one DIF object; its value ends in r0. */
void
dt_bpf_cg_difo(dt_bpf_cg_t *cg, const dif_object_t *difo)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	uint32_t lend = dt_bpf_label_new(cg->cg_b);
	uint32_t i, used = 0;

	cg->cg_difo = difo;
	cg->cg_strtab = 0;
	for (i = 0; i < lay->bl_ndifc; i++) {
		if (lay->bl_difc[i].dc_difo == difo) {
			cg->cg_strtab = lay->bl_difc[i].dc_off;
			break;
		}
	}
	if (i == lay->bl_ndifc && difo->dif_strlen > 0) {
		dt_bpf_cg_error(cg, "DIF object not in the layout");
		return;
	}
	cg->cg_tstate = calloc(difo->dif_len, sizeof (*cg->cg_tstate));
	cg->cg_plabels = malloc(difo->dif_len * sizeof (uint32_t));
	if (cg->cg_tstate == NULL || cg->cg_plabels == NULL) {
		dt_bpf_cg_error(cg, "out of memory");
		goto out;
	}
	memset(cg->cg_plabels, 0xff, difo->dif_len * sizeof (uint32_t));
	if (dt_bpf_tuples(difo, cg->cg_tstate, cg->cg_err, cg->cg_errlen) !=
	    0) {
		cg->cg_failed = 1;
		goto out;
	}
	/* The interpreter starts every object with zeroed registers. */
	for (i = 0; i < difo->dif_len; i++) {
		dif_instr_t in = difo->dif_buf[i];

		used |= 1U << (DIF_INSTR_R1(in) & 7);
		used |= 1U << (DIF_INSTR_R2(in) & 7);
		used |= 1U << (DIF_INSTR_RD(in) & 7);
	}
	for (i = 1; i < DIF_DIR_NREGS; i++) {
		if (used & (1U << i))
			DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_REG(i),
			    0));
	}
	for (cg->cg_pc = 0; cg->cg_pc < difo->dif_len && !cg->cg_failed;
	    cg->cg_pc++) {
		if (cg->cg_plabels[cg->cg_pc] != UINT32_MAX)
			dt_bpf_label_here(cg->cg_b, cg->cg_plabels[cg->cg_pc]);
		if (cg->cg_tstate[cg->cg_pc].ts_depth < 0)
			continue;	/* unreachable */
		dt_bpf_cg_instr(cg, difo->dif_buf[cg->cg_pc], lend);
	}
	dt_bpf_label_here(cg->cg_b, lend);
out:
	free(cg->cg_tstate);
	free(cg->cg_plabels);
	cg->cg_tstate = NULL;
	cg->cg_plabels = NULL;
	cg->cg_difo = NULL;
}
