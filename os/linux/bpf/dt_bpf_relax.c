/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_relax.c: the last step of dt_bpf_buf_finish(): every jump is
 * given its offset, and a jump too far for its 16-bit offset is made to
 * reach its target ("branch relaxation").
 *
 * A BPF jump's offset counts instructions in 16 bits, so a clause whose
 * predicate is a chain of thousands of comparisons (each a jump to the
 * clause's end) cannot be encoded as emitted.  Since Linux 6.4 the kernel
 * has a long unconditional jump, `gotol` (BPF_JMP32 | BPF_JA, the offset
 * in the 32-bit imm).  A far unconditional jump becomes a gotol, and a far
 * conditional jump a short one to a gotol that the path not taken steps
 * over:
 *
 *	if r1 == r2 goto far	=>	if r1 == r2 goto +1
 *					goto +1
 *					gotol far
 *					...
 *
 * The opposite condition jumping over the gotol would be one instruction
 * shorter, but the verifier explores the path not taken first and queues
 * the other: keeping the branches as they were keeps that order, and
 * with it the verifier's work linear in the chain's length (a predicate
 * of 7,000 comparisons: 1 s of verification against 10 s the other way,
 * on Linux 6.18).
 * Growing one jump moves others apart, which may push them out of range
 * in turn, so the sizes are found again until nothing changes; jumps only
 * ever grow, so this ends.  Every relative offset in the program (jumps
 * written with a constant offset, calls of subprograms and addresses of
 * functions included) is then computed again from where each instruction
 * and its target end up, and the labels and functions follow.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "os/linux/bpf/dt_bpf_insn.h"

#define DT_BPF_NOTARGET INT64_MIN

/* How a relative instruction holds its offset. */
typedef enum dt_bpf_rel {
	DT_REL_NONE,	/* not relative */
	DT_REL_OFF,	/* 16-bit off: a jump */
	DT_REL_IMM,	/* 32-bit imm: gotol, a call, a function address */
} dt_bpf_rel_t;

static dt_bpf_rel_t
dt_bpf_rel(const struct bpf_insn *in)
{
	uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);

	if (in->code == (BPF_LD | BPF_DW | BPF_IMM))
		return in->src_reg == BPF_PSEUDO_FUNC ? DT_REL_IMM :
							DT_REL_NONE;
	if (cls != BPF_JMP && cls != BPF_JMP32)
		return DT_REL_NONE;
	if (op == BPF_CALL)
		return in->src_reg == BPF_PSEUDO_CALL ? DT_REL_IMM :
							DT_REL_NONE;
	if (op == BPF_EXIT)
		return DT_REL_NONE;
	if (op == BPF_JA && cls == BPF_JMP32)
		return DT_REL_IMM;
	return DT_REL_OFF;
}

/* The instructions a far jump takes beyond its own one. */
static uint32_t
dt_bpf_far_extra(const struct bpf_insn *in)
{
	return BPF_OP(in->code) == BPF_JA ? 0 : 2;
}

/*
 * newpos[i] = where instruction i begins once the far jumps have grown;
 * newpos[n] = the new length.  Returns false when that passes the limit.
 */
static bool
dt_bpf_layout_pos(const dt_bpf_buf_t *b, const bool *far, uint32_t *newpos)
{
	uint64_t p = 0;

	for (uint32_t i = 0; i < b->b_len; i++) {
		newpos[i] = (uint32_t) p;
		p += 1 + (far[i] ? dt_bpf_far_extra(&b->b_insns[i]) : 0);
		if (p > DT_BPF_MAXPROG)
			return false;
	}
	newpos[b->b_len] = (uint32_t) p;
	return true;
}

/* Writes the program anew at the positions found, far jumps grown. */
static void
dt_bpf_relax_emit(const dt_bpf_buf_t *b, const int64_t *tgt,
    const bool *far, const uint32_t *np, struct bpf_insn *out)
{
	for (uint32_t i = 0; i < b->b_len; i++) {
		struct bpf_insn in = b->b_insns[i];
		uint32_t p = np[i];
		int64_t t = tgt[i] == DT_BPF_NOTARGET ? 0 : np[tgt[i]];

		if (tgt[i] == DT_BPF_NOTARGET) {
			out[p] = in;
		} else if (!far[i]) {
			if (dt_bpf_rel(&in) == DT_REL_IMM)
				in.imm = (int32_t) (t - p - 1);
			else
				in.off = (int16_t) (t - p - 1);
			out[p] = in;
		} else if (BPF_OP(in.code) == BPF_JA) {
			out[p] = DT_BPF_GOTOL((int32_t) (t - p - 1));
		} else {
			in.off = 1;
			out[p] = in;
			out[p + 1] = DT_BPF_JA(1);
			out[p + 2] = DT_BPF_GOTOL((int32_t) (t - p - 3));
		}
	}
}

/* Labels, functions and fixups move with their instructions. */
static void
dt_bpf_relax_move(dt_bpf_buf_t *b, const uint32_t *np)
{
	for (uint32_t l = 0; l < b->b_nlabels; l++) {
		if (b->b_labels[l] >= 0)
			b->b_labels[l] = (int32_t) np[b->b_labels[l]];
	}
	for (uint32_t f = 0; f < b->b_nfuncs; f++) {
		b->b_funcs[f].fn_start = np[b->b_funcs[f].fn_start];
		b->b_funcs[f].fn_end = np[b->b_funcs[f].fn_end];
	}
	for (uint32_t x = 0; x < b->b_nfixups; x++)
		b->b_fixups[x].fx_insn = np[b->b_fixups[x].fx_insn];
}

/*
 * Finds far jumps until none is left: true when the program needs no
 * change of size.  ERANGE when a jump is far and the kernel has no gotol,
 * E2BIG when the program would pass DT_BPF_MAXPROG.
 */
static int
dt_bpf_relax_find(const dt_bpf_buf_t *b, const int64_t *tgt, bool *far,
    uint32_t *np, bool *grownp)
{
	bool changed = true;

	*grownp = false;
	while (changed) {
		changed = false;
		if (!dt_bpf_layout_pos(b, far, np))
			return E2BIG;
		for (uint32_t i = 0; i < b->b_len; i++) {
			int64_t off;

			if (tgt[i] == DT_BPF_NOTARGET || far[i] ||
			    dt_bpf_rel(&b->b_insns[i]) != DT_REL_OFF)
				continue;
			off = (int64_t) np[tgt[i]] - np[i] - 1;
			if (off >= INT16_MIN && off <= INT16_MAX)
				continue;
			if (!b->b_gotol)
				return ERANGE;
			far[i] = changed = true;
			if (dt_bpf_far_extra(&b->b_insns[i]) > 0)
				*grownp = true;
		}
	}
	return 0;
}

/* The target of every relative instruction, fixups' labels included. */
static int
dt_bpf_targets(const dt_bpf_buf_t *b, int64_t *tgt)
{
	for (uint32_t i = 0; i < b->b_len; i++) {
		const struct bpf_insn *in = &b->b_insns[i];

		switch (dt_bpf_rel(in)) {
		case DT_REL_NONE:
			tgt[i] = DT_BPF_NOTARGET;
			break;
		case DT_REL_OFF:
			tgt[i] = (int64_t) i + 1 + in->off;
			break;
		case DT_REL_IMM:
			tgt[i] = (int64_t) i + 1 + in->imm;
			break;
		}
		/* The second half of a 64-bit immediate is no instruction. */
		if (in->code == (BPF_LD | BPF_DW | BPF_IMM) && i + 1 < b->b_len)
			tgt[++i] = DT_BPF_NOTARGET;
	}
	for (uint32_t x = 0; x < b->b_nfixups; x++) {
		const dt_bpf_fixup_t *fx = &b->b_fixups[x];

		if (fx->fx_label >= b->b_nlabels ||
		    b->b_labels[fx->fx_label] < 0 || fx->fx_insn >= b->b_len ||
		    tgt[fx->fx_insn] == DT_BPF_NOTARGET)
			return EINVAL;
		tgt[fx->fx_insn] = b->b_labels[fx->fx_label];
	}
	for (uint32_t i = 0; i < b->b_len; i++) {
		if (tgt[i] != DT_BPF_NOTARGET &&
		    (tgt[i] < 0 || tgt[i] > (int64_t) b->b_len))
			return EINVAL;
	}
	return 0;
}

int
dt_bpf_buf_relax(dt_bpf_buf_t *b)
{
	uint32_t n = b->b_len, cap;
	int64_t *tgt = malloc(((size_t) n + 1) * sizeof (int64_t));
	bool *far = calloc((size_t) n + 1, sizeof (bool));
	uint32_t *np = malloc(((size_t) n + 1) * sizeof (uint32_t));
	struct bpf_insn *out = NULL;
	bool grown;
	int err;

	if (tgt == NULL || far == NULL || np == NULL) {
		err = ENOMEM;
		goto out;
	}
	if ((err = dt_bpf_targets(b, tgt)) != 0 ||
	    (err = dt_bpf_relax_find(b, tgt, far, np, &grown)) != 0)
		goto out;
	if (!grown) {
		/* The same places: offsets written in place. */
		dt_bpf_relax_emit(b, tgt, far, np, b->b_insns);
		goto out;
	}
	cap = np[n];
	if ((out = calloc(cap, sizeof (*out))) == NULL) {
		err = ENOMEM;
		goto out;
	}
	dt_bpf_relax_emit(b, tgt, far, np, out);
	dt_bpf_relax_move(b, np);
	free(b->b_insns);
	b->b_insns = out;
	b->b_len = b->b_cap = cap;
out:
	free(tgt);
	free(far);
	free(np);
	return err;
}
