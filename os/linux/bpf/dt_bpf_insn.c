/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_insn.c: the instruction buffer and its labels (see dt_bpf_insn.h).
 *
 * The buffer grows by doubling; a label is an index into b_labels, bound
 * once to an instruction index.  Jumps to labels are patched at the end,
 * which keeps the code generator single-pass even though almost every
 * jump it emits goes forward to code not yet written.
 *
 * Subprograms are emitted in the middle of the code that calls them (a
 * loop body where the loop is) and moved after the main program at the
 * end; each label remembers which function it was bound in, so a label
 * at a function's first instruction and one at the caller's next
 * instruction (the same index while emitting) move apart correctly.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "os/linux/bpf/dt_bpf_insn.h"

void
dt_bpf_buf_init(dt_bpf_buf_t *b)
{
	memset(b, 0, sizeof (*b));
	b->b_curfunc = -1;
}

void
dt_bpf_buf_fini(dt_bpf_buf_t *b)
{
	free(b->b_insns);
	free(b->b_labels);
	free(b->b_fixups);
	free(b->b_labfunc);
	free(b->b_funcs);
	memset(b, 0, sizeof (*b));
	b->b_curfunc = -1;
}

static int
dt_bpf_grow(void **p, uint32_t *cap, uint32_t need, size_t sz)
{
	uint32_t n = *cap ? *cap : 256;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	if ((q = realloc(*p, (size_t) n * sz)) == NULL)
		return ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

void
dt_bpf_emit(dt_bpf_buf_t *b, struct bpf_insn insn)
{
	if (b->b_err != 0)
		return;
	if (b->b_len >= DT_BPF_MAXPROG) {
		b->b_err = E2BIG;
		return;
	}
	if ((b->b_err = dt_bpf_grow((void **) &b->b_insns, &b->b_cap,
	    b->b_len + 1, sizeof (struct bpf_insn))) != 0)
		return;
	b->b_insns[b->b_len++] = insn;
}

void
dt_bpf_emit_imm64(dt_bpf_buf_t *b, int d, uint64_t v)
{
	dt_bpf_emit(b, DT_BPF_LD_IMM64_LO(d, 0, v));
	dt_bpf_emit(b, DT_BPF_LD_IMM64_HI(v));
}

void
dt_bpf_emit_map_fd(dt_bpf_buf_t *b, int d, int fd)
{
	dt_bpf_emit(b, DT_BPF_LD_IMM64_LO(d, BPF_PSEUDO_MAP_FD, fd));
	dt_bpf_emit(b, DT_BPF_LD_IMM64_HI(0));
}

uint32_t
dt_bpf_label_new(dt_bpf_buf_t *b)
{
	uint32_t cap = b->b_labcap;

	if (b->b_err == 0)
		b->b_err = dt_bpf_grow((void **) &b->b_labels, &b->b_labcap,
		    b->b_nlabels + 1, sizeof (int32_t));
	if (b->b_err == 0)
		b->b_err = dt_bpf_grow((void **) &b->b_labfunc, &cap,
		    b->b_nlabels + 1, sizeof (int32_t));
	if (b->b_err != 0)
		return 0;
	b->b_labels[b->b_nlabels] = -1;
	b->b_labfunc[b->b_nlabels] = -1;
	return b->b_nlabels++;
}

void
dt_bpf_label_here(dt_bpf_buf_t *b, uint32_t label)
{
	if (b->b_err != 0)
		return;
	if (label >= b->b_nlabels || b->b_labels[label] != -1) {
		b->b_err = EINVAL;
		return;
	}
	b->b_labels[label] = (int32_t) b->b_len;
	b->b_labfunc[label] = b->b_curfunc;
}

static void
dt_bpf_fixup(dt_bpf_buf_t *b, struct bpf_insn insn, uint32_t label, bool imm)
{
	if (b->b_err == 0)
		b->b_err = dt_bpf_grow((void **) &b->b_fixups, &b->b_fixcap,
		    b->b_nfixups + 1, sizeof (dt_bpf_fixup_t));
	if (b->b_err != 0)
		return;
	b->b_fixups[b->b_nfixups].fx_insn = b->b_len;
	b->b_fixups[b->b_nfixups].fx_label = label;
	b->b_fixups[b->b_nfixups].fx_imm = imm;
	b->b_nfixups++;
	dt_bpf_emit(b, insn);
}

void
dt_bpf_jmp_label(dt_bpf_buf_t *b, struct bpf_insn jmp, uint32_t label)
{
	dt_bpf_fixup(b, jmp, label, false);
}

void
dt_bpf_emit_func_addr(dt_bpf_buf_t *b, int d, uint32_t label)
{
	dt_bpf_fixup(b, DT_BPF_LD_IMM64_LO(d, BPF_PSEUDO_FUNC, 0), label, true);
	dt_bpf_emit(b, DT_BPF_LD_IMM64_HI(0));
}

void
dt_bpf_func_begin(dt_bpf_buf_t *b)
{
	if (b->b_err == 0 && b->b_curfunc >= 0)
		b->b_err = EINVAL;
	if (b->b_err == 0)
		b->b_err = dt_bpf_grow((void **) &b->b_funcs, &b->b_funccap,
		    b->b_nfuncs + 1, sizeof (dt_bpf_func_t));
	if (b->b_err != 0)
		return;
	b->b_funcs[b->b_nfuncs].fn_start = b->b_len;
	b->b_funcs[b->b_nfuncs].fn_end = b->b_len;
	b->b_curfunc = (int32_t) b->b_nfuncs++;
}

void
dt_bpf_func_end(dt_bpf_buf_t *b)
{
	if (b->b_err != 0)
		return;
	if (b->b_curfunc < 0) {
		b->b_err = EINVAL;
		return;
	}
	b->b_funcs[b->b_curfunc].fn_end = b->b_len;
	b->b_curfunc = -1;
}

/*
 * Moves the functions after the main program, keeping their order, and
 * renumbers labels and fixups to match.
 */
static int
dt_bpf_buf_relocate(dt_bpf_buf_t *b)
{
	uint32_t n = b->b_len, j = 0;
	uint32_t *ipos = malloc(((size_t) n + 1) * sizeof (uint32_t));
	uint32_t *mpos = malloc(((size_t) n + 1) * sizeof (uint32_t));
	bool *infn = calloc((size_t) n + 1, sizeof (bool));
	struct bpf_insn *ni = malloc(((size_t) n + 1) * sizeof (*ni));

	if (ipos == NULL || mpos == NULL || infn == NULL || ni == NULL) {
		free(ipos);
		free(mpos);
		free(infn);
		free(ni);
		return ENOMEM;
	}
	for (uint32_t f = 0; f < b->b_nfuncs; f++) {
		for (uint32_t i = b->b_funcs[f].fn_start;
		    i < b->b_funcs[f].fn_end; i++)
			infn[i] = true;
	}
	/* mpos[i]: where main-program index i goes */
	for (uint32_t i = 0; i <= n; i++) {
		mpos[i] = j;
		if (i < n && !infn[i]) {
			ipos[i] = j;
			ni[j++] = b->b_insns[i];
		}
	}
	for (uint32_t f = 0; f < b->b_nfuncs; f++) {
		dt_bpf_func_t *fn = &b->b_funcs[f];
		uint32_t start = j;

		for (uint32_t i = fn->fn_start; i < fn->fn_end; i++) {
			ipos[i] = j;
			ni[j++] = b->b_insns[i];
		}
		for (uint32_t l = 0; l < b->b_nlabels; l++) {
			if (b->b_labfunc[l] == (int32_t) f && b->b_labels[l] >= 0)
				b->b_labels[l] = (int32_t) (start +
				    ((uint32_t) b->b_labels[l] - fn->fn_start));
		}
		fn->fn_end = j;
		fn->fn_start = start;
	}
	for (uint32_t l = 0; l < b->b_nlabels; l++) {
		if (b->b_labfunc[l] < 0 && b->b_labels[l] >= 0)
			b->b_labels[l] = (int32_t) mpos[b->b_labels[l]];
	}
	for (uint32_t x = 0; x < b->b_nfixups; x++)
		b->b_fixups[x].fx_insn = ipos[b->b_fixups[x].fx_insn];
	memcpy(b->b_insns, ni, (size_t) n * sizeof (*ni));
	free(ipos);
	free(mpos);
	free(infn);
	free(ni);
	return 0;
}

int
dt_bpf_buf_finish(dt_bpf_buf_t *b)
{
	if (b->b_err == 0 && b->b_curfunc >= 0)
		b->b_err = EINVAL;
	if (b->b_err == 0 && b->b_nfuncs > 0)
		b->b_err = dt_bpf_buf_relocate(b);
	if (b->b_err == 0)
		b->b_err = dt_bpf_buf_relax(b);
	return b->b_err;
}
