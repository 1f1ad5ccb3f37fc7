/* SPDX-License-Identifier: MIT */
/*
 * bpf_relax_test.c: jumps too far for BPF's 16-bit offset
 * (os/linux/bpf/dt_bpf_relax.c).
 *
 * Builds programs whose jumps span more than 32767 instructions, with
 * every kind of relative instruction the translator emits (conditional
 * jumps to labels, jset, unconditional jumps, jumps written with a
 * constant offset across the jumps that grow, a function's address), and
 * runs them, relaxed, on a small interpreter of the instructions used:
 * each input must end where the program as written says.  Without gotol
 * the same programs are refused with ERANGE, and programs that fit are
 * left as they are.  Needs neither root nor BPF.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "os/linux/bpf/dt_bpf_insn.h"
#include "tests/unit/unit.h"

#define NCASE 40
#define PAD 40000	/* instructions between the jumps and targets */

/*
 * Runs b from instruction 0 with r1 = in; returns r0 at the exit, or -1
 * for an instruction it does not know or a jump out of the program.
 */
static int64_t
run(const dt_bpf_buf_t *b, uint64_t in)
{
	uint64_t r[11] = { 0 };
	uint32_t pc = 0;

	r[1] = in;
	for (uint32_t steps = 0; steps < 10 * b->b_len; steps++) {
		const struct bpf_insn *i;
		uint64_t src;
		bool taken;

		if (pc >= b->b_len)
			return -1;
		i = &b->b_insns[pc];
		src = BPF_SRC(i->code) == BPF_X ? r[i->src_reg] :
						  (uint64_t) (int64_t) i->imm;
		if (i->code == (BPF_LD | BPF_DW | BPF_IMM)) {
			r[i->dst_reg] = (uint32_t) i->imm;
			pc += 2;
			continue;
		}
		if (BPF_CLASS(i->code) == BPF_ALU64) {
			if (BPF_OP(i->code) == BPF_MOV)
				r[i->dst_reg] = src;
			else if (BPF_OP(i->code) == BPF_ADD)
				r[i->dst_reg] += src;
			else
				return -1;
			pc++;
			continue;
		}
		if (i->code == (BPF_JMP | BPF_EXIT))
			return (int64_t) r[0];
		if (i->code == (BPF_JMP32 | BPF_JA)) {
			pc = (uint32_t) ((int64_t) pc + 1 + i->imm);
			continue;
		}
		if (BPF_CLASS(i->code) != BPF_JMP)
			return -1;
		switch (BPF_OP(i->code)) {
		case BPF_JA: taken = true; break;
		case BPF_JEQ: taken = r[i->dst_reg] == src; break;
		case BPF_JNE: taken = r[i->dst_reg] != src; break;
		case BPF_JGT: taken = r[i->dst_reg] > src; break;
		case BPF_JSET: taken = (r[i->dst_reg] & src) != 0; break;
		default: return -1;
		}
		pc = (uint32_t) ((int64_t) pc + 1 + (taken ? i->off : 0));
	}
	return -1;
}

static void
pad(dt_bpf_buf_t *b, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		dt_bpf_emit(b, DT_BPF_ALU64_IMM(BPF_ADD, DT_R0, 0));
}

/*
 * r1 == k (k < NCASE): r0 = 100 + k, each by a jump to its own label
 * past PAD instructions; r1 & 0x10000: r0 = 7 (jset); r1 == 5000: a jump
 * with a constant offset over all the far jumps, r0 = 9; r1 > 1000000:
 * r0 = 8 by a far unconditional jump; otherwise r0 = 1.  Far decides
 * whether the padding is there.
 */
static void
build(dt_bpf_buf_t *b, bool far, bool gotol, uint32_t *lfn)
{
	uint32_t lcase[NCASE], lset, lbig, lend, skip;

	dt_bpf_buf_init(b);
	b->b_gotol = gotol;
	for (int k = 0; k < NCASE; k++)
		lcase[k] = dt_bpf_label_new(b);
	lset = dt_bpf_label_new(b);
	lbig = dt_bpf_label_new(b);
	lend = dt_bpf_label_new(b);
	*lfn = dt_bpf_label_new(b);

	dt_bpf_emit(b, DT_BPF_MOV64_IMM(DT_R0, 1));
	/* over the chain below: 2 * NCASE + 5 instructions */
	skip = 2 * NCASE + 5;
	dt_bpf_emit(b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 5000, (int16_t) skip));
	for (int k = 0; k < NCASE; k++) {
		dt_bpf_jmp_label(b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, k, 0),
		    lcase[k]);
		dt_bpf_emit(b, DT_BPF_ALU64_IMM(BPF_ADD, DT_R0, 0));
	}
	dt_bpf_jmp_label(b, DT_BPF_JMP_IMM(BPF_JSET, DT_R1, 0x10000, 0), lset);
	dt_bpf_jmp_label(b, DT_BPF_JMP_IMM(BPF_JGT, DT_R1, 1000000, 0), lbig);
	dt_bpf_jmp_label(b, DT_BPF_JA(0), lend);
	dt_bpf_emit_func_addr(b, DT_R2, *lfn);
	/* the target of the constant offset */
	dt_bpf_emit(b, DT_BPF_MOV64_IMM(DT_R0, 9));
	dt_bpf_jmp_label(b, DT_BPF_JA(0), lend);
	if (far)
		pad(b, PAD);
	for (int k = 0; k < NCASE; k++) {
		dt_bpf_label_here(b, lcase[k]);
		dt_bpf_emit(b, DT_BPF_MOV64_IMM(DT_R0, 100 + k));
		dt_bpf_jmp_label(b, DT_BPF_JA(0), lend);
	}
	dt_bpf_label_here(b, lset);
	dt_bpf_emit(b, DT_BPF_MOV64_IMM(DT_R0, 7));
	dt_bpf_jmp_label(b, DT_BPF_JA(0), lend);
	dt_bpf_label_here(b, lbig);
	dt_bpf_emit(b, DT_BPF_MOV64_IMM(DT_R0, 8));
	dt_bpf_label_here(b, lend);
	dt_bpf_emit(b, DT_BPF_EXIT());
	/* a function, moved after the main program */
	dt_bpf_func_begin(b);
	dt_bpf_label_here(b, *lfn);
	dt_bpf_emit(b, DT_BPF_MOV64_IMM(DT_R0, 0));
	if (far)
		pad(b, 10);
	dt_bpf_emit(b, DT_BPF_EXIT());
	dt_bpf_func_end(b);
}

static void
check_runs(const dt_bpf_buf_t *b)
{
	for (int k = 0; k < NCASE; k++)
		CHECK_INT(run(b, (uint64_t) k), 100 + k);
	CHECK_INT(run(b, 0x10000), 7);
	CHECK_INT(run(b, 0x10000 | 3), 7);
	CHECK_INT(run(b, 5000), 9);
	CHECK_INT(run(b, 2000000), 8);
	CHECK_INT(run(b, 777), 1);
}

/* The function's address, its label and b_funcs agree. */
static void
check_func(const dt_bpf_buf_t *b, uint32_t lfn)
{
	for (uint32_t i = 0; i < b->b_len; i++) {
		const struct bpf_insn *in = &b->b_insns[i];

		if (in->code == (BPF_LD | BPF_DW | BPF_IMM) &&
		    in->src_reg == BPF_PSEUDO_FUNC) {
			CHECK_INT((int64_t) i + 1 + in->imm,
			    b->b_funcs[0].fn_start);
			CHECK_INT(b->b_labels[lfn], b->b_funcs[0].fn_start);
		}
	}
	CHECK_INT(b->b_funcs[0].fn_end, b->b_len);
	CHECK_INT(b->b_insns[b->b_funcs[0].fn_start].code,
	    BPF_ALU64 | BPF_MOV | BPF_K);
}

static uint32_t
count_gotol(const dt_bpf_buf_t *b)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < b->b_len; i++)
		n += b->b_insns[i].code == (BPF_JMP32 | BPF_JA);
	return n;
}

int
main(void)
{
	dt_bpf_buf_t b;
	uint32_t lfn, len;

	/* Near: nothing moves, no gotol. */
	build(&b, false, true, &lfn);
	len = b.b_len;
	CHECK_INT(dt_bpf_buf_finish(&b), 0);
	CHECK_INT(b.b_len, len);
	CHECK_INT(count_gotol(&b), 0);
	check_runs(&b);
	check_func(&b, lfn);
	dt_bpf_buf_fini(&b);

	/*
	 * Far: the NCASE + 2 conditional jumps grow by two instructions
	 * each, the far unconditional jump becomes a gotol in place.
	 */
	build(&b, true, true, &lfn);
	len = b.b_len;
	CHECK_INT(dt_bpf_buf_finish(&b), 0);
	CHECK_INT(b.b_len, len + 2 * (NCASE + 2));
	CHECK(count_gotol(&b) >= NCASE + 3);
	check_runs(&b);
	check_func(&b, lfn);
	dt_bpf_buf_fini(&b);

	/* Far without gotol: refused, as the kernel would. */
	build(&b, true, false, &lfn);
	CHECK_INT(dt_bpf_buf_finish(&b), ERANGE);
	dt_bpf_buf_fini(&b);

	/* Past the kernel's limit on a program's length. */
	dt_bpf_buf_init(&b);
	pad(&b, DT_BPF_MAXPROG + 1);
	CHECK_INT(b.b_err, E2BIG);
	dt_bpf_buf_fini(&b);
	return unit_done();
}
