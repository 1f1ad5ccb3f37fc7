/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_agg.c: translating an aggregating action, @a[keys] = f(args):
 * the key built in the aggregation key buffer (in the map's layout, see
 * dt_bpf_layout.c), the per-CPU map entry found or made, and the value
 * words updated with dt_aggfunc.c's arithmetic -- quantize's bucket by a
 * binary-search bit scan, lquantize's by compare and divide, llquantize's
 * by a chain of compares unrolled from its constant parameters, stddev's
 * 128-bit sum of squares from 32-bit halves.
 */
#include <stdint.h>
#include <string.h>

#include "common/dt_aggfunc.h"
#include "common/dif/dif.h"
#include "os/linux/bpf/dt_bpf_gen.h"
#include "os/linux/bpf/dt_bpf_impl.h"

/* Count leading bits: r1 = floor(log2(r1)) for r1 > 0 (r2 clobbered). */
static void
dt_bpf_cg_log2(dt_bpf_cg_t *cg)
{
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, 0));
	for (int s = 32; s > 0; s /= 2) {
		/* if (r1 >> s) { r1 >>= s; r2 += s; } */
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R1));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R3, s));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3, 0, 2));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R3));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, s));
	}
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R2));
}

/*
 * The bucket of the value in r1 for the quantize family, into r1; r9 is
 * the value words.  Same arithmetic as common/dt_aggfunc.c.
 */
static void
dt_bpf_cg_bucket(dt_bpf_cg_t *cg, const dt_aggdesc_t *agg)
{
	const int64_t *p = agg->ag_params;
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);

	if (agg->ag_kind == DT_AGG_QUANTIZE) {
		uint32_t lneg = dt_bpf_label_new(cg->cg_b);

		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R4, DT_R1));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R5, DT_QUANTIZE_ZERO));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R4, 0, 0),
		    ldone);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JSLT, DT_R4, 0,
		    0), lneg);
		dt_bpf_cg_log2(cg);
		/* ZERO + 1 + min(log2, 62) */
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLE, DT_R1, 62, 1));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 62));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1,
		    DT_QUANTIZE_ZERO + 1));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R5, DT_R1));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
		dt_bpf_label_here(cg->cg_b, lneg);
		/* -v as unsigned (INT64_MIN gives 2^63); log2 >= 62: 0 */
		DT_EMIT(cg, DT_BPF_NEG64(DT_R1));
		dt_bpf_cg_log2(cg);
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R5, 0));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JGE, DT_R1, 62, 2));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R5, DT_QUANTIZE_ZERO - 1));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R5, DT_R1));
		dt_bpf_label_here(cg->cg_b, ldone);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R5));
		return;
	}
	if (agg->ag_kind == DT_AGG_LQUANTIZE) {
		int64_t base = p[0], step = p[2];
		uint32_t levels = (uint32_t) ((p[1] - p[0]) / step);
		int64_t top = base + (int64_t) levels * step;
		uint32_t labove = dt_bpf_label_new(cg->cg_b);

		dt_bpf_emit_imm64(cg->cg_b, DT_R2, (uint64_t) base);
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R5, 0));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JSLT, DT_R1,
		    DT_R2, 0), ldone);
		dt_bpf_emit_imm64(cg->cg_b, DT_R3, (uint64_t) top);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JSGE, DT_R1,
		    DT_R3, 0), labove);
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R1, DT_R2));
		dt_bpf_emit_imm64(cg->cg_b, DT_R3, (uint64_t) step);
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_DIV, DT_R1, DT_R3));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 1));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R5, DT_R1));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
		dt_bpf_label_here(cg->cg_b, labove);
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R5, (int32_t) levels + 1));
		dt_bpf_label_here(cg->cg_b, ldone);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R5));
		return;
	}
	/*
	 * llquantize: the orders are constants, so the walk of
	 * dt_llquantize_bucket() unrolls into a chain of compares.
	 */
	{
		int64_t factor = p[0], low = p[1], high = p[2], nsteps = p[3];
		int64_t last = 1, base = 1;
		bool capped = false;

		for (int64_t i = 0; i < low; i++)
			last = last > INT64_MAX / factor ? INT64_MAX :
			    last * factor;
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R5, 0));
		dt_bpf_emit_imm64(cg->cg_b, DT_R2, (uint64_t) last);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JSLT, DT_R1,
		    DT_R2, 0), ldone);
		for (int64_t o = low; o <= high; o++) {
			int64_t this = last > INT64_MAX / factor ? INT64_MAX :
			    last * factor;
			int64_t nb = this < nsteps ? this : nsteps;
			uint32_t lnext = dt_bpf_label_new(cg->cg_b);

			if (this != INT64_MAX) {
				dt_bpf_emit_imm64(cg->cg_b, DT_R2,
				    (uint64_t) this);
				dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(
				    BPF_JSGE, DT_R1, DT_R2, 0), lnext);
			}
			/* base + (v - last) / (this / nb) */
			DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R5, DT_R1));
			dt_bpf_emit_imm64(cg->cg_b, DT_R2, (uint64_t) last);
			DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R5, DT_R2));
			dt_bpf_emit_imm64(cg->cg_b, DT_R2,
			    (uint64_t) (this / nb));
			DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_DIV, DT_R5, DT_R2));
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R5,
			    (int32_t) base));
			dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
			dt_bpf_label_here(cg->cg_b, lnext);
			base += nb - nb / factor;
			last = this;
			if (this == INT64_MAX) {
				capped = true;
				break;
			}
		}
		/*
		 * The overflow bucket; none when the last order reaches
		 * INT64_MAX, as every value left falls in it (and the
		 * verifier refuses unreachable code).
		 */
		if (!capped)
			DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R5, (int32_t) base));
		dt_bpf_label_here(cg->cg_b, ldone);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R5));
	}
}

/* v in slot T1, incr in slot T2; r9 = the value words. */
static void
dt_bpf_cg_aggupdate(dt_bpf_cg_t *cg, const dt_aggdesc_t *agg)
{
	switch (agg->ag_kind) {
	case DT_AGG_COUNT:
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R9, 0));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 1));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R9, DT_R1, 0));
		break;
	case DT_AGG_SUM:
	case DT_AGG_AVG:
	case DT_AGG_STDDEV: {
		int sumw = agg->ag_kind == DT_AGG_SUM ? 0 : 8;

		if (agg->ag_kind != DT_AGG_SUM) {
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R9, 0));
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 1));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R9, DT_R1, 0));
		}
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, DT_FP_T1));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R9, sumw));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R2));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R9, DT_R1, sumw));
		if (agg->ag_kind != DT_AGG_STDDEV)
			break;
		/*
		 * Add v*v to the 128-bit sum in words 2 (low) and 3: with
		 * m = |v| = hi:lo in 32-bit halves, m*m = hi*hi << 64 +
		 * lo*hi << 33 + lo*lo.
		 */
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JSGE, DT_R2, 0, 1));
		DT_EMIT(cg, DT_BPF_NEG64(DT_R2));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R2));
		/* r3 = hi, r2 = lo */
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R3, 32));
		DT_EMIT(cg, DT_BPF_INSN(BPF_ALU | BPF_MOV | BPF_X, DT_R2,
		    DT_R2, 0, 0));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R4, DT_R2));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_MUL, DT_R4, DT_R2)); /* ll */
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_MUL, DT_R2, DT_R3)); /* lh */
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_MUL, DT_R3, DT_R3)); /* hh */
		/* lo64 = ll + (lh << 33), carry; hi64 = hh + lh >> 31 */
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R5, DT_R2));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R5, 33));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R5, DT_R4));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R2, 31));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R3, DT_R2));
		DT_EMIT(cg, DT_BPF_JMP_REG(BPF_JGE, DT_R5, DT_R4, 1));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R3, 1));
		/* words[2] += lo64 (carry into words[3]); words[3] += hi64 */
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R9, 16));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R5));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R9, DT_R1, 16));
		DT_EMIT(cg, DT_BPF_JMP_REG(BPF_JGE, DT_R1, DT_R5, 1));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R3, 1));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R9, 24));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R3));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R9, DT_R1, 24));
		break;
	}
	case DT_AGG_MIN:
	case DT_AGG_MAX:
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, DT_FP_T1));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R9, 0));
		DT_EMIT(cg, DT_BPF_JMP_REG(agg->ag_kind == DT_AGG_MIN ?
		    BPF_JSGE : BPF_JSLE, DT_R2, DT_R1, 1));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R9, DT_R2, 0));
		break;
	case DT_AGG_QUANTIZE:
	case DT_AGG_LQUANTIZE:
	case DT_AGG_LLQUANTIZE:
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_T1));
		dt_bpf_cg_bucket(cg, agg);
		/* Bound it for the verifier; the arithmetic keeps it so. */
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLT, DT_R1,
		    (int32_t) agg->ag_nvals, 1));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R1, 3));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R9));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R1, 0));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_FP, DT_FP_T2));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R2, DT_R3));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R1, DT_R2, 0));
		break;
	}
}

/*
 * Whether the key's one record writes every byte of it, so that it needs
 * no zeroing first: @[execname]'s key is all dt_bpf_cg_comm() writes
 * when it loads comm itself (bpf_get_current_comm() does not clear the
 * bytes after the NUL on every kernel -- 6.1 -- and a shorter name would
 * keep a longer one's tail in the key, making another), and
 * @[stack()]'s all the kernel stack's words (its frames, then zeros)
 * where the context has a kernel stack.
 */
static bool
dt_bpf_key_whole(dt_bpf_cg_t *cg, const dt_action_t *ap,
    const dt_bpf_aggmap_t *ba)
{
	const dt_recdesc_t *rd = &ba->ba_keys[0];

	if (ap->ac_nkeys != 1 || ba->ba_agg->ag_nkeys != 1 ||
	    rd->rd_offset != 0 || rd->rd_size != ba->ba_keysize)
		return false;
	if (rd->rd_type == DT_REC_STACK)
		return dt_bpf_cg_has_kstack(cg);
	return ba->ba_keysize == 16 &&
	    dt_bpf_difo_rec_comm(ap->ac_keys[0], rd) &&
	    dt_bpf_comm_direct(cg->cg_lay->bl_aggkey_off, ba->ba_keysize);
}

/* r1 = the map of ba's values: its hash, or the flipped one in use. */
static void
dt_bpf_cg_aggmap(dt_bpf_cg_t *cg, const dt_bpf_aggmap_t *ba)
{
	if (ba->ba_flip != NULL)
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_T3));
	else
		dt_bpf_emit_map_fd(cg->cg_b, DT_R1, ba->ba_fd);
}

/* r0 = map_fd's element at the key r7 + keyoff (a call: r1-r5 lost). */
static void
dt_bpf_cg_agglookup(dt_bpf_cg_t *cg, int map_fd, uint32_t keyoff)
{
	dt_bpf_emit_map_fd(cg->cg_b, DT_R1, map_fd);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, (int32_t) keyoff));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_map_lookup_elem));
}

/*
 * A keyed aggregation in slots (dt_bpf_gen.h): r9 = this CPU's values in
 * the key's slot, then on to lvals; to ldrop where there is no slot for
 * a new key.  The key is at r7 + aggkey_off; the slot number goes
 * through the first word at r7 + aggval_off.
 *
 * A new key takes a slot given back (the queue) or, failing that, the
 * next never used (the header's count, by an atomic add), copies the key
 * in and enters key -> slot in the hash.  A CPU that another beat to the
 * same new key gives its slot back and uses the winner's.  The slot is
 * marked live last, by an atomic exchange, which orders the key's bytes
 * before it for the consumer reading the slots in place.
 */
static void
dt_bpf_cg_aggslot(dt_bpf_cg_t *cg, const dt_bpf_aggmap_t *ba, uint32_t lvals,
    uint32_t ldrop)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	uint32_t slotoff = lay->bl_aggval_off;
	uint32_t lhave = dt_bpf_label_new(cg->cg_b);
	uint32_t lgot = dt_bpf_label_new(cg->cg_b);
	uint32_t lpub = dt_bpf_label_new(cg->cg_b);
	uint32_t lcpu = dt_bpf_label_new(cg->cg_b);

	dt_bpf_cg_agglookup(cg, ba->ba_fd, lay->bl_aggkey_off);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R0, 0, 0), lhave);

	/* A new key: a slot given back, or the next never used. */
	dt_bpf_emit_map_fd(cg->cg_b, DT_R1, ba->ba_free_fd);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, (int32_t) slotoff));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_map_pop_elem));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP32_IMM(BPF_JEQ, DT_R0, 0, 0),
	    lgot);
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_W, DT_R7, (int16_t) slotoff, 0));
	dt_bpf_cg_agglookup(cg, ba->ba_slots_fd, slotoff);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R0, 0, 0), ldrop);
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 1));
	DT_EMIT(cg, DT_BPF_INSN(BPF_STX | BPF_DW | DT_BPF_ATOMIC, DT_R0, DT_R1,
	    0, BPF_ADD | 0x01 /* BPF_FETCH */));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGE, DT_R1,
	    (int32_t) ba->ba_maxent, 0), ldrop);
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 1));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_W, DT_R7, DT_R1, (int16_t) slotoff));
	dt_bpf_label_here(cg->cg_b, lgot);
	dt_bpf_cg_agglookup(cg, ba->ba_slots_fd, slotoff);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R0, 0, 0), ldrop);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R9, DT_R0));
	/* The key into the slot, then key -> slot into the hash. */
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R9));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 8));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, (int32_t) ba->ba_keysize));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R3,
	    (int32_t) lay->bl_aggkey_off));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_kernel));
	dt_bpf_cg_map_update(cg, ba->ba_fd, lay->bl_aggkey_off, slotoff,
	    BPF_NOEXIST);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP32_IMM(BPF_JEQ, DT_R0, 0, 0),
	    lpub);
	/* Beaten to it (or the hash is full): the slot back, the winner's. */
	dt_bpf_emit_map_fd(cg->cg_b, DT_R1, ba->ba_free_fd);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, (int32_t) slotoff));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R3, 0));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_map_push_elem));
	dt_bpf_cg_agglookup(cg, ba->ba_fd, lay->bl_aggkey_off);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R0, 0, 0), lhave);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldrop);
	dt_bpf_label_here(cg->cg_b, lpub);
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, DT_AGGSLOT_LIVE));
	DT_EMIT(cg, DT_BPF_INSN(BPF_STX | BPF_DW | DT_BPF_ATOMIC, DT_R9, DT_R1,
	    0, 0xe0 | 0x01 /* BPF_XCHG */));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lcpu);

	/* A known key: its slot. */
	dt_bpf_label_here(cg->cg_b, lhave);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_W, DT_R1, DT_R0, 0));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_W, DT_R7, DT_R1, (int16_t) slotoff));
	dt_bpf_cg_agglookup(cg, ba->ba_slots_fd, slotoff);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R0, 0, 0), ldrop);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R9, DT_R0));

	/* This CPU's values in it. */
	dt_bpf_label_here(cg->cg_b, lcpu);
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_smp_processor_id));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGE, DT_R0,
	    (int32_t) ba->ba_ncpus, 0), ldrop);
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_MUL, DT_R0, (int32_t) ba->ba_valsize));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R9, DT_R0));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R9, (int32_t) ba->ba_valoff));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lvals);
}

void
dt_bpf_cg_aggregate(dt_bpf_cg_t *cg, const dt_action_t *ap)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	const dt_bpf_aggmap_t *ba;
	const dt_aggdesc_t *agg;
	uint32_t lfound = dt_bpf_label_new(cg->cg_b);
	uint32_t linit = dt_bpf_label_new(cg->cg_b);
	uint32_t lskip = dt_bpf_label_new(cg->cg_b);
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);
	uint32_t lvals = dt_bpf_label_new(cg->cg_b);
	uint32_t ldrop = dt_bpf_label_new(cg->cg_b);
	uint32_t flag;

	if (ap->ac_aggid >= lay->bl_naggs) {
		dt_bpf_cg_error(cg, "aggregation %u not in the program",
		    (unsigned) ap->ac_aggid);
		return;
	}
	ba = &lay->bl_aggs[ap->ac_aggid];
	agg = ba->ba_agg;
	flag = agg->ag_nvals * 8;
	if (ba->ba_kind == DT_AGGMAP_ARRAY)
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_W, DT_R7,
		    (int16_t) lay->bl_aggkey_off, 0));
	else if (!dt_bpf_key_whole(cg, ap, ba))
		dt_bpf_cg_zero(cg, lay->bl_aggkey_off, ba->ba_keysize);
	for (uint32_t k = 0; k < ap->ac_nkeys && k < agg->ag_nkeys; k++)
		dt_bpf_cg_difo_rec(cg, ap->ac_keys[k], &ba->ba_keys[k],
		    lay->bl_aggkey_off);
	/* count() reads neither the value nor the increment. */
	if (agg->ag_kind != DT_AGG_COUNT) {
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_T1, 0));
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_T2, 1));
	}
	if (ap->ac_nargs > 0 && ap->ac_args[0].aa_difo != NULL) {
		dt_bpf_cg_difo(cg, ap->ac_args[0].aa_difo);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R0, DT_FP_T1));
	}
	if (ap->ac_nargs > 1 && ap->ac_args[1].aa_difo != NULL) {
		dt_bpf_cg_difo(cg, ap->ac_args[1].aa_difo);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R0, DT_FP_T2));
	}

	if (ba->ba_kind == DT_AGGMAP_SLOTS)
		dt_bpf_cg_aggslot(cg, ba, lvals, ldrop);
	/*
	 * A flipped hash (dt_bpf_gen.h): the one in use, from the array of
	 * maps, kept in T3 for the calls below.
	 */
	if (ba->ba_flip != NULL) {
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_W, DT_FP, DT_FP_KEY, 0));
		dt_bpf_emit_map_fd(cg->cg_b, DT_R1, ba->ba_flip->af_outer);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_FP));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, DT_FP_KEY));
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_map_lookup_elem));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R0, 0, 0),
		    ldrop);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R0, DT_FP_T3));
	}
	/*
	 * r9 = lookup, or insert this CPU's initial value and look up.  An
	 * array's entry exists from the start, zero with its flag clear.
	 */
	for (int pass = 0; ba->ba_kind != DT_AGGMAP_SLOTS && pass < 2;
	    pass++) {
		dt_bpf_cg_aggmap(cg, ba);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2,
		    (int32_t) lay->bl_aggkey_off));
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_map_lookup_elem));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R0, 0, 0),
		    lfound);
		/* An array's one entry is always there. */
		if (pass == 1 || ba->ba_kind == DT_AGGMAP_ARRAY)
			break;
		dt_bpf_cg_zero(cg, lay->bl_aggval_off, ba->ba_valsize);
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7,
		    (int16_t) (lay->bl_aggval_off + flag), 1));
		if (agg->ag_kind == DT_AGG_MIN || agg->ag_kind == DT_AGG_MAX) {
			dt_bpf_emit_imm64(cg->cg_b, DT_R1,
			    agg->ag_kind == DT_AGG_MIN ? (uint64_t) INT64_MAX :
			    (uint64_t) INT64_MIN);
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
			    (int16_t) lay->bl_aggval_off));
		}
		dt_bpf_cg_aggmap(cg, ba);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2,
		    (int32_t) lay->bl_aggkey_off));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R3,
		    (int32_t) lay->bl_aggval_off));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, BPF_NOEXIST));
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_map_update_elem));
	}
	dt_bpf_label_here(cg->cg_b, ldrop);
	dt_bpf_cg_cpudrop(cg, DT_BPF_CNT_AGGDROPS);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lskip);
	/* (Nothing else comes to lfound from the slots: no dead code.) */
	dt_bpf_label_here(cg->cg_b, lfound);
	if (ba->ba_kind != DT_AGGMAP_SLOTS)
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R9, DT_R0));
	dt_bpf_label_here(cg->cg_b, lvals);
	/*
	 * Another CPU inserted the key: this CPU's words are zero and its
	 * flag clear, so give them their initial value first.  An array's
	 * flag word counts the updates instead: its entry is never taken
	 * away, and the consumer tells what came since its last clear() or
	 * trunc() by the difference (dt_bpf_aggread.c).
	 */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R9, (int16_t) flag));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R1, 0, 0),
	    linit);
	if (ba->ba_kind != DT_AGGMAP_ARRAY)
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R9, (int16_t) flag, 1));
	if (agg->ag_kind == DT_AGG_MIN || agg->ag_kind == DT_AGG_MAX) {
		dt_bpf_emit_imm64(cg->cg_b, DT_R2, agg->ag_kind == DT_AGG_MIN ?
		    (uint64_t) INT64_MAX : (uint64_t) INT64_MIN);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R9, DT_R2, 0));
	}
	dt_bpf_label_here(cg->cg_b, linit);
	if (ba->ba_kind == DT_AGGMAP_ARRAY) {
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 1));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R9, DT_R1, (int16_t) flag));
	}
	dt_bpf_cg_aggupdate(cg, agg);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
	dt_bpf_label_here(cg->cg_b, lskip);
	dt_bpf_label_here(cg->cg_b, ldone);
}
