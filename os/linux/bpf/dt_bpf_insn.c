/*
 * dt_bpf_insn.c: the instruction buffer and its labels (see dt_bpf_insn.h).
 *
 * The buffer grows by doubling; a label is an index into b_labels, bound
 * once to an instruction index.  Jumps to labels are patched at the end,
 * which keeps the code generator single-pass even though almost every
 * jump it emits goes forward to code not yet written.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "os/linux/bpf/dt_bpf_insn.h"

void
dt_bpf_buf_init(dt_bpf_buf_t *b)
{
	memset(b, 0, sizeof (*b));
}

void
dt_bpf_buf_fini(dt_bpf_buf_t *b)
{
	free(b->b_insns);
	free(b->b_labels);
	free(b->b_fixups);
	memset(b, 0, sizeof (*b));
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
	if (b->b_len >= BPF_MAXINSNS * 4) {
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
	if (b->b_err == 0)
		b->b_err = dt_bpf_grow((void **) &b->b_labels, &b->b_labcap,
		    b->b_nlabels + 1, sizeof (int32_t));
	if (b->b_err != 0)
		return 0;
	b->b_labels[b->b_nlabels] = -1;
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
}

void
dt_bpf_jmp_label(dt_bpf_buf_t *b, struct bpf_insn jmp, uint32_t label)
{
	if (b->b_err == 0)
		b->b_err = dt_bpf_grow((void **) &b->b_fixups, &b->b_fixcap,
		    b->b_nfixups + 1, sizeof (dt_bpf_fixup_t));
	if (b->b_err != 0)
		return;
	b->b_fixups[b->b_nfixups].fx_insn = b->b_len;
	b->b_fixups[b->b_nfixups].fx_label = label;
	b->b_nfixups++;
	dt_bpf_emit(b, jmp);
}

int
dt_bpf_buf_finish(dt_bpf_buf_t *b)
{
	for (uint32_t i = 0; b->b_err == 0 && i < b->b_nfixups; i++) {
		const dt_bpf_fixup_t *fx = &b->b_fixups[i];
		int64_t off;

		if (fx->fx_label >= b->b_nlabels ||
		    b->b_labels[fx->fx_label] < 0) {
			b->b_err = EINVAL;
			break;
		}
		off = (int64_t) b->b_labels[fx->fx_label] -
		    (int64_t) fx->fx_insn - 1;
		if (off < INT16_MIN || off > INT16_MAX) {
			b->b_err = E2BIG;
			break;
		}
		b->b_insns[fx->fx_insn].off = (int16_t) off;
	}
	return b->b_err;
}
