/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_spec.c: speculations and per-CPU drop counts in generated BPF.
 *
 * The speculations live in the state map at bl_spec_off: bl_nspec pairs
 * of 64-bit words (state, bytes), encoded as common/engine/dt_spec.h
 * says, so that the consumer process can clean busy ones through the
 * mmap'ed map with dt_spec_clean().  The code here is that file's state
 * machine written in BPF, with compare-and-exchange where CPUs race:
 *
 *	speculation()	CAS each INACTIVE word to ACTIVE, first wins;
 *			unrolled over nspec (at most DT_BPF_MAXSPEC)
 *	speculate(id)	ID 0 or not active: drop the clause; above nspec:
 *			"illegal operation"; ACTIVE becomes ACTIVEONE of
 *			this CPU, ACTIVEONE of another CPU ACTIVEMANY; then
 *			the clause's bytes are added and checked against
 *			specsize (a speculative drop)
 *	commit/discard	the next state by the same rules as dt_spec_end(),
 *			with one retry when another CPU changed the word
 *
 * Principal buffer and aggregation drops are also counted per CPU, in
 * 2 * bl_ncpus words at bl_cpudrops_off, for "N drops on CPU M".
 */
#include "common/engine/dt_spec.h"
#include "os/linux/bpf/dt_bpf_impl.h"

/*
 * r4 = this CPU's ACTIVEONE word; r2 = the address of the speculation
 * whose ID (1..nspec, checked before) is in stack slot DT_FP_T0.  The
 * bound is checked again for the verifier, which may not carry it
 * through the stack; lout is where an impossible ID goes.
 */
static void
dt_bpf_cg_spec_addr(dt_bpf_cg_t *cg, uint32_t lout)
{
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_smp_processor_id));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R0, DT_SPEC_CPUSHIFT));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_OR, DT_R0, DT_SPEC_ACTIVEONE));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R4, DT_R0));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_T0));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_SUB, DT_R1, 1));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGE, DT_R1,
	    (int32_t) cg->cg_lay->bl_nspec, 0), lout);
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R1, 4));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R8));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R2, DT_R1));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2,
	    (int32_t) cg->cg_lay->bl_spec_off));
}

/*
 * The state machine needs compare-and-exchange, which BPF programs have
 * from Linux 5.12; before, a program with speculations is refused in one
 * line that says so.
 */
static bool
dt_bpf_cg_spec_can(dt_bpf_cg_t *cg)
{
	if (cg->cg_fetch)
		return true;
	dt_bpf_cg_error(cg, "speculations need atomic compare-and-exchange "
	    "in BPF programs (Linux 5.12), which this kernel lacks");
	return false;
}

void
dt_bpf_cg_speculation(dt_bpf_cg_t *cg, unsigned rd)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);
	uint32_t lunavail = dt_bpf_label_new(cg->cg_b);
	uint32_t lzero = dt_bpf_label_new(cg->cg_b);

	if (!dt_bpf_cg_spec_can(cg))
		return;

	if (lay->bl_nspec > DT_BPF_MAXSPEC) {
		dt_bpf_cg_error(cg, "nspec above %u is not supported by the "
		    "bpf engine", DT_BPF_MAXSPEC);
		return;
	}
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_T1, 0));
	for (uint32_t i = 0; i < lay->bl_nspec; i++) {
		uint32_t lnext = dt_bpf_label_new(cg->cg_b);

		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R8));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2,
		    (int32_t) (lay->bl_spec_off + 16 * i)));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R0, DT_SPEC_INACTIVE));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R3, DT_SPEC_ACTIVE));
		DT_BPF_CG_CMPXCHG(cg, DT_R2, DT_R3);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R0,
		    DT_SPEC_INACTIVE, 0), lnext);
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R2, 8, 0));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, (int32_t) i + 1));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
		dt_bpf_label_here(cg->cg_b, lnext);
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R0,
		    DT_SPEC_STATEMASK));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JNE, DT_R0, DT_SPEC_BUSY, 1));
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_T1, 1));
	}
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_T1));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 0, 0),
	    lunavail);
	dt_bpf_cg_counter(cg, DT_BPF_CNT_SPECBUSY);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lzero);
	dt_bpf_label_here(cg->cg_b, lunavail);
	dt_bpf_cg_counter(cg, DT_BPF_CNT_SPECUNAVAIL);
	dt_bpf_label_here(cg->cg_b, lzero);
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
	dt_bpf_label_here(cg->cg_b, ldone);
	dt_bpf_cg_streg(cg, rd, DT_R1);
}

/* speculate(id) with the ID in r0, for a clause of size record bytes. */
static void
dt_bpf_cg_speculate(dt_bpf_cg_t *cg, uint32_t size, uint32_t ldrop)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	uint32_t lone = dt_bpf_label_new(cg->cg_b);
	uint32_t lok = dt_bpf_label_new(cg->cg_b);

	if (!dt_bpf_cg_spec_can(cg))
		return;
	uint32_t lfits = dt_bpf_label_new(cg->cg_b);

	dt_bpf_cg_spec_addr(cg, ldrop);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R0, DT_R2, 0));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R0));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R3, DT_SPEC_STATEMASK));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3,
	    DT_SPEC_ACTIVEMANY, 0), lok);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3,
	    DT_SPEC_ACTIVEONE, 0), lone);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R3,
	    DT_SPEC_ACTIVE, 0), ldrop);
	/* ACTIVE: now ours; if another CPU was first, then "many". */
	DT_BPF_CG_CMPXCHG(cg, DT_R2, DT_R4);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R0,
	    DT_SPEC_ACTIVE, 0), lok);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R0));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R3, DT_SPEC_STATEMASK));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R3,
	    DT_SPEC_ACTIVEONE, 0), lok);
	dt_bpf_label_here(cg->cg_b, lone);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JEQ, DT_R0, DT_R4, 0),
	    lok);
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R5, DT_SPEC_ACTIVEMANY));
	DT_BPF_CG_CMPXCHG(cg, DT_R2, DT_R5);
	dt_bpf_label_here(cg->cg_b, lok);

	/* The bytes speculated so far, this clause's included. */
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, (int32_t) size));
	DT_EMIT(cg, DT_BPF_INSN(BPF_STX | BPF_DW | DT_BPF_ATOMIC, DT_R2, DT_R1,
	    8, BPF_ADD | 0x01 /* BPF_FETCH */));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, (int32_t) size));
	dt_bpf_emit_imm64(cg->cg_b, DT_R3, lay->bl_specsize);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JLE, DT_R1, DT_R3, 0),
	    lfits);
	dt_bpf_cg_counter(cg, DT_BPF_CNT_SPECDROPS);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldrop);
	dt_bpf_label_here(cg->cg_b, lfits);
}

/* commit(id) or discard(id) with the ID's speculation at r2, r4 mine. */
static void
dt_bpf_cg_spec_end(dt_bpf_cg_t *cg, bool commit, uint32_t ldone)
{
	if (!dt_bpf_cg_spec_can(cg))
		return;
	for (int attempt = 0; attempt < 2; attempt++) {
		uint32_t lone = dt_bpf_label_new(cg->cg_b);
		uint32_t lbusy = dt_bpf_label_new(cg->cg_b);
		uint32_t lcas = dt_bpf_label_new(cg->cg_b);

		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R0, DT_R2, 0));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R0));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R3,
		    DT_SPEC_STATEMASK));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3,
		    DT_SPEC_ACTIVEMANY, 0), lbusy);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3,
		    DT_SPEC_ACTIVEONE, 0), lone);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R3,
		    DT_SPEC_ACTIVE, 0), ldone);
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R5, commit ? DT_SPEC_INACTIVE :
		    DT_SPEC_BUSY));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lcas);
		dt_bpf_label_here(cg->cg_b, lone);
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R5, DT_SPEC_INACTIVE));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JEQ, DT_R0, DT_R4,
		    0), lcas);
		dt_bpf_label_here(cg->cg_b, lbusy);
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R5, DT_SPEC_BUSY));
		dt_bpf_label_here(cg->cg_b, lcas);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
		DT_BPF_CG_CMPXCHG(cg, DT_R2, DT_R5);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JEQ, DT_R0, DT_R1,
		    0), ldone);
	}
}

void
dt_bpf_cg_spec_action(dt_bpf_cg_t *cg, dt_actkind_t kind, uint32_t size,
    uint32_t ldrop)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);

	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R0, DT_FP_T0));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 0, 0),
	    kind == DT_ACT_SPECULATE ? ldrop : ldone);
	if (lay->bl_nspec > DT_BPF_MAXSPEC) {
		dt_bpf_cg_error(cg, "nspec above %u is not supported by the "
		    "bpf engine", DT_BPF_MAXSPEC);
		return;
	}
	dt_bpf_cg_fault_if_slot(cg, BPF_JGT, DT_R1, (int32_t) lay->bl_nspec,
	    DIF_FLT_ILLOP, 0);
	if (kind == DT_ACT_SPECULATE) {
		dt_bpf_cg_speculate(cg, size, ldrop);
	} else {
		dt_bpf_cg_spec_addr(cg, ldone);
		dt_bpf_cg_spec_end(cg, kind == DT_ACT_COMMIT, ldone);
	}
	dt_bpf_label_here(cg->cg_b, ldone);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R0, DT_FP, DT_FP_T0));
}

void
dt_bpf_cg_cpudrop(dt_bpf_cg_t *cg, int which)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	uint32_t lskip = dt_bpf_label_new(cg->cg_b);
	uint32_t off = lay->bl_cpudrops_off +
	    (which == DT_BPF_CNT_AGGDROPS ? 8 * lay->bl_ncpus : 0);

	dt_bpf_cg_counter(cg, which);
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_smp_processor_id));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGE, DT_R0,
	    (int32_t) lay->bl_ncpus, 0), lskip);
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R0, 3));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R8));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R0));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, (int32_t) off));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, 1));
	DT_EMIT(cg, DT_BPF_INSN(BPF_STX | BPF_DW | DT_BPF_ATOMIC, DT_R1, DT_R2,
	    0, BPF_ADD));
	dt_bpf_label_here(cg->cg_b, lskip);
}
