/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_stack.c: every stack walk of the BPF engine's programs, and the
 * user registers (dt_bpf_gen.c calls these for stack(), ustack(),
 * stackdepth, caller, ustackdepth, ucaller and uregs[]): which leading
 * kernel frames belong to the tracing machinery and are skipped, the
 * user stack walked by frame pointers or, with the process's unwind
 * rows, by CFI, and the user registers of the probe's context.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dif/dif.h"
#include "common/dt_os.h"
#include "isa/dt_isa.h"
#include "os/linux/bpf/dt_bpf_gen.h"
#include "os/linux/bpf/dt_bpf_impl.h"
#include "os/linux/dt_cfi.h"
#include "os/linux/dt_ksyms.h"
#include "os/linux/dt_linux_features.h"

/*
 * Stacks.  bpf_get_stack() walks from the registers of the program's
 * context: for a profile probe, those of the interrupted code, so the
 * first frame is arg0; at a tracepoint (a syscall, an sdt, sched, proc,
 * io or net probe), registers taken inside the tracing machinery, whose
 * frames are ours rather than the traced code's: under a raw tracepoint
 * the program's own frame and bpf_trace_run<N>, under a perf tracepoint
 * the tracepoint's iterator (__traceiter_<event>) or its perf handler.
 * Which of them show depends on the kernel and even on the moment: a
 * tracepoint with one callback makes a static call straight to it, with
 * more it goes through its iterator, and a call in tail position leaves
 * no frame.  So the leading frames are compared at run time with those
 * functions' address ranges, read from kallsyms, and everything up to
 * the deepest one found is skipped: the first frame is then the function
 * that fired the probe (__schedule at sched:::on-cpu, syscall_trace_enter
 * at a syscall), where DTrace's stack of a statically defined probe
 * starts.  BEGIN, END and ERROR run in a test run on our own behalf: like
 * DTrace's probes fired from its own process, they have no kernel stack.
 */
static const char *const dt_bpf_glue_names[] = {
	"__traceiter_sys_enter", "__traceiter_sys_exit",
	"perf_syscall_enter", "perf_syscall_exit",
	"perf_trace_sys_enter", "perf_trace_sys_exit",
	"perf_trace_run_bpf_submit", "trace_call_bpf", "perf_tp_event",
	"__bpf_trace_sys_enter", "__bpf_trace_sys_exit", "bpf_trace_run1",
	"bpf_trace_run2", "bpf_trace_run3", "bpf_trace_run4", "bpf_trace_run5",
	"bpf_trace_run6", "bpf_trace_run7", "bpf_trace_run8", "bpf_trace_run9",
	"bpf_trace_run10", "bpf_trace_run11", "bpf_trace_run12",
};
#define DT_BPF_NGLUE (sizeof (dt_bpf_glue_names) / sizeof (char *))
/* An event's own: its iterator, and its handlers when named after it. */
static const char *const dt_bpf_glue_event[] = {
	"__traceiter_%s", "__bpf_trace_%s", "perf_trace_%s",
	"trace_event_raw_event_%s",
};
#define DT_BPF_NGLUE_EVENT (sizeof (dt_bpf_glue_event) / sizeof (char *))
#define DT_BPF_GLUE_FRAMES 6 /* leading frames that may be glue */
/* Frames the kernel stack copies inline rather than by a helper call */
#define DT_BPF_KSTACK_INLINE 32

typedef struct dt_bpf_range {
	uint64_t start, end;
} dt_bpf_range_t;

static dt_bpf_range_t dt_bpf_glue[DT_BPF_NGLUE];
static uint32_t dt_bpf_nglue;
static pthread_once_t dt_bpf_glue_once = PTHREAD_ONCE_INIT;

static int
dt_bpf_range_cmp(const void *a, const void *b)
{
	const dt_bpf_range_t *ra = a, *rb = b;

	return ra->start < rb->start ? -1 : ra->start > rb->start;
}

/*
 * Sort ranges and join neighbours (bpf_trace_run2..12 are one run of
 * text, apart by a function's 16 bytes of padding at most), so fewer
 * compares are emitted.  Returns how many remain.
 */
static uint32_t
dt_bpf_ranges_join(dt_bpf_range_t *r, uint32_t n)
{
	uint32_t k = 0;

	qsort(r, n, sizeof (*r), dt_bpf_range_cmp);
	for (uint32_t i = 0; i < n; i++) {
		if (k > 0 && r[i].start <= r[k - 1].end + 16) {
			if (r[i].end > r[k - 1].end)
				r[k - 1].end = r[i].end;
			continue;
		}
		r[k++] = r[i];
	}
	return k;
}

static void
dt_bpf_glue_init(void)
{
	const dt_ksyms_t *ks = dt_linux_ksyms();

	for (size_t i = 0; ks != NULL && i < DT_BPF_NGLUE; i++) {
		if (dt_ksyms_range(ks, dt_bpf_glue_names[i],
			&dt_bpf_glue[dt_bpf_nglue].start,
			&dt_bpf_glue[dt_bpf_nglue].end) == 0)
			dt_bpf_nglue++;
	}
	dt_bpf_nglue = dt_bpf_ranges_join(dt_bpf_glue, dt_bpf_nglue);
}

bool
dt_bpf_cg_has_kstack(const dt_bpf_cg_t *cg)
{
	return cg->cg_ps->ps_ctx != DT_BPF_CTX_RAWTP;
}

/*
 * The top n kernel frames into the stack scratch (the rest of those
 * words zeroed), r5 = its address, slot T4 = the bytes written (as
 * bpf_get_stack() answers); r4 = 0 (r0-r3 clobbered).
 */
static void
dt_bpf_cg_topframes(dt_bpf_cg_t *cg, int n)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;

	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R6));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2,
	    (int32_t) lay->bl_kstack_off));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R3, 8 * n));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_stack));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R0, DT_FP_T4));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, 0));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R5, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R5,
	    (int32_t) lay->bl_kstack_off));
}

/*
 * Jumps to lin when r1 lies in one of the sorted, disjoint ranges r[lo,
 * hi), else to lout: a binary search, a few compares whatever the
 * number of ranges (r2 clobbered).
 */
static void
dt_bpf_cg_in_ranges(dt_bpf_cg_t *cg, const dt_bpf_range_t *r, uint32_t lo,
    uint32_t hi, uint32_t lin, uint32_t lout)
{
	uint32_t mid = lo + (hi - lo) / 2, lright;

	if (hi - lo == 1) {
		dt_bpf_emit_imm64(cg->cg_b, DT_R2, r[lo].start);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JLT, DT_R1, DT_R2,
		    0), lout);
		dt_bpf_emit_imm64(cg->cg_b, DT_R2, r[lo].end);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JLT, DT_R1, DT_R2,
		    0), lin);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lout);
		return;
	}
	lright = dt_bpf_label_new(cg->cg_b);
	dt_bpf_emit_imm64(cg->cg_b, DT_R2, r[mid].start);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JGE, DT_R1, DT_R2, 0),
	    lright);
	dt_bpf_cg_in_ranges(cg, r, lo, mid, lin, lout);
	dt_bpf_label_here(cg->cg_b, lright);
	dt_bpf_cg_in_ranges(cg, r, mid, hi, lin, lout);
}

/*
 * r4 = the number of leading frames that are the tracing machinery's: up
 * to the deepest glue frame among the first few, event's being the
 * tracepoint's name when it has one (r0-r5 clobbered).  The top nwalk
 * frames (at least DT_BPF_GLUE_FRAMES) are walked into the stack scratch
 * for it, as dt_bpf_cg_topframes() does; false when there was nothing to
 * compare them with, and no walk.
 */
static bool
dt_bpf_cg_glue_skip(dt_bpf_cg_t *cg, const char *event, int nwalk)
{
	const dt_ksyms_t *ks = dt_linux_ksyms();
	dt_bpf_range_t glue[DT_BPF_NGLUE + DT_BPF_NGLUE_EVENT];
	uint32_t n;

	(void) pthread_once(&dt_bpf_glue_once, dt_bpf_glue_init);
	memcpy(glue, dt_bpf_glue, dt_bpf_nglue * sizeof (glue[0]));
	n = dt_bpf_nglue;
	for (size_t i = 0; ks != NULL && event != NULL &&
	    i < DT_BPF_NGLUE_EVENT; i++) {
		char name[256];

		(void) snprintf(name, sizeof (name), dt_bpf_glue_event[i],
		    event);
		if (dt_ksyms_range(ks, name, &glue[n].start, &glue[n].end) ==
		    0)
			n++;
	}
	n = dt_bpf_ranges_join(glue, n);
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, 0));
	if (n == 0)
		return false;
	dt_bpf_cg_topframes(cg, nwalk > DT_BPF_GLUE_FRAMES ? nwalk :
	    DT_BPF_GLUE_FRAMES);
	for (int i = 0; i < DT_BPF_GLUE_FRAMES; i++) {
		uint32_t lglue = dt_bpf_label_new(cg->cg_b);
		uint32_t lnext = dt_bpf_label_new(cg->cg_b);

		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R5,
		    (int16_t) (8 * i)));
		dt_bpf_cg_in_ranges(cg, glue, 0, n, lglue, lnext);
		dt_bpf_label_here(cg->cg_b, lglue);
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, i + 1));
		dt_bpf_label_here(cg->cg_b, lnext);
	}
	return true;
}

/*
 * At an fbt probe, DTrace's stack starts at the function's caller.  The
 * walk starts inside the program: under fentry/fexit, the program's and
 * the BPF trampoline's frames come first, then the return address of the
 * trampoline's call in the function's first instruction; under a kprobe,
 * the function's own address.  Either way the frames up to and including
 * the first one inside the function are skipped; a kretprobe has none
 * there (its first frame is already the caller).  r4 = how many (r0-r5
 * clobbered); the walk and the answer as for dt_bpf_cg_glue_skip().
 */
#define DT_BPF_FUNC_FRAMES 8 /* leading frames that may be ours */

static bool
dt_bpf_cg_func_skip(dt_bpf_cg_t *cg, int nwalk)
{
	const dt_ksyms_t *ks = dt_linux_ksyms();
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);
	uint64_t start, end;

	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, 0));
	if (ks == NULL || dt_ksyms_range(ks, cg->cg_ps->ps_kevent->ke_event,
	    &start, &end) != 0)
		return false;
	dt_bpf_cg_topframes(cg, nwalk > DT_BPF_FUNC_FRAMES ? nwalk :
	    DT_BPF_FUNC_FRAMES);
	for (int i = 0; i < DT_BPF_FUNC_FRAMES; i++) {
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R5,
		    (int16_t) (8 * i)));
		dt_bpf_emit_imm64(cg->cg_b, DT_R2, start);
		DT_EMIT(cg, DT_BPF_JMP_REG(BPF_JLT, DT_R1, DT_R2, 5));
		dt_bpf_emit_imm64(cg->cg_b, DT_R2, end);
		DT_EMIT(cg, DT_BPF_JMP_REG(BPF_JGE, DT_R1, DT_R2, 2));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, i + 1));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
	}
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, 0));
	dt_bpf_label_here(cg->cg_b, ldone);
	return true;
}

/*
 * The user stack by frame pointers: bpf_get_stack() walks them from the
 * current one, so at a function's first instruction (a pid entry probe,
 * before the function has pushed a frame) it misses the caller, whose
 * return address is still on top of the stack; so it does at a return
 * site, where the frame is gone again.  There, as DTrace does at entry,
 * the frames are the probe site, the caller's return address (the word
 * at the stack pointer, or the link register: the ISA's layout says),
 * then the walk from the caller's frame.  r0 as for dt_bpf_cg_getstack().
 */
static void
dt_bpf_cg_getustack_fp(dt_bpf_cg_t *cg, uint32_t off, uint32_t size)
{
	bool entry = cg->cg_ps->ps_uatret && size >= 16;

	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R6));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2,
	    (int32_t) (entry ? off + 8 : off)));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R3, (int32_t) (entry ? size - 8 :
	    size)));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, BPF_F_USER_STACK));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_stack));
	if (!entry)
		return;
	uint32_t lbad = dt_bpf_label_new(cg->cg_b);
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);
	const dt_isa_layout_t *il = &dt_isa_layout;

	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JSLE, DT_R0, 0, 0),
	    lbad);
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R0, 8));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R0, DT_FP_T4));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, (int32_t) off));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R1, 8));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R1, DT_R2, 0));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 8));
	if (il->il_lr >= 0) {
		/* The caller's return address: the link register */
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R6, il->il_lr));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R1, DT_R2, 0));
	} else {
		/* The word at the stack pointer */
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R6, il->il_sp));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, 8));
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_user));
	}
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R0, DT_FP, DT_FP_T4));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
	/* No stack at all: the kernel zeroed all but the first slot. */
	dt_bpf_label_here(cg->cg_b, lbad);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, (int32_t) off));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R1, 0, 0));
	dt_bpf_label_here(cg->cg_b, ldone);
}

/*
 * The user stack.  When the engine has unwind rows for the process, the
 * walk follows them (dt_bpf_cg_ustack_cfi()) and needs no frame pointers:
 * a uprobe's program has its process's, every other program looks the
 * current process's up (ps_ustk), and without them follows frame
 * pointers.
 */
static void
dt_bpf_cg_getustack(dt_bpf_cg_t *cg, uint32_t off, uint32_t size)
{
	uint32_t lnorows, ldone;

	if (cg->cg_ps->ps_ucfi_n > 0) {
		dt_bpf_cg_ustack_cfi(cg, off, size / 8, 0);
		return;
	}
	if (!cg->cg_ps->ps_ustk || size < 8) {
		dt_bpf_cg_getustack_fp(cg, off, size);
		return;
	}
	lnorows = dt_bpf_label_new(cg->cg_b);
	ldone = dt_bpf_label_new(cg->cg_b);
	dt_bpf_cg_ustack_cfi(cg, off, size / 8, lnorows);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
	dt_bpf_label_here(cg->cg_b, lnorows);
	dt_bpf_cg_getustack_fp(cg, off, size);
	dt_bpf_label_here(cg->cg_b, ldone);
}

/*
 * uregs[r2] into rd.  The user registers are the uprobe's context, or
 * elsewhere the current task's saved ones (task_pt_regs()); an index
 * past the table faults as an illegal operation, as in DTrace.
 */
void
dt_bpf_cg_uregs(dt_bpf_cg_t *cg, unsigned r2, unsigned rd)
{
	dt_bpf_ctxkind_t ctx = cg->cg_ps->ps_ctx;
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);
	size_t n = (size_t) dt_isa_layout.il_nuregs;

	if (ctx == DT_BPF_CTX_UPROBE || ctx == DT_BPF_CTX_URETURN) {
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R6));
	} else if (!dt_linux_feature(DT_LF_TASK_PT_REGS)) {
		dt_bpf_cg_error(cg, "uregs[] outside pid probes needs %s",
		    dt_linux_feature_why(DT_LF_TASK_PT_REGS));
		return;
	} else {
		dt_bpf_cg_task_regs(cg);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R0));
	}
	dt_bpf_cg_ldreg(cg, DT_R2, r2);
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
	for (size_t i = 0; i < n; i++) {
		int16_t o = dt_isa_layout.il_uregs[i];

		if (o < 0)
			continue;
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JNE, DT_R2, (int32_t) i, 2));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R3, o));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
	}
	dt_bpf_cg_fault_if(cg, BPF_JGE, DT_R2, (int32_t) n, DIF_FLT_ILLOP,
	    -1);
	dt_bpf_label_here(cg->cg_b, ldone);
	dt_bpf_cg_streg(cg, rd, DT_R1);
}

/*
 * The kernel stack less the r4 leading frames that are ours, from the
 * walk of dt_bpf_cg_topframes() (slot T4, r5) into size bytes at r7 +
 * off: the walk went skip frames deeper than size asks, so nothing is
 * walked twice.  r0 as for dt_bpf_cg_getstack().
 */
static void
dt_bpf_cg_kstack_shift(dt_bpf_cg_t *cg, uint32_t off, uint32_t size,
    int maxskip)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;

	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R4));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R1, 3));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLE, DT_R1, 8 * maxskip, 1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
	/* r0 = the bytes walked less those skipped, 0 to size */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R0, DT_FP, DT_FP_T4));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R0, DT_R1));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JSGE, DT_R0, 0, 1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R0, 0));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLE, DT_R0, (int32_t) size, 1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R0, (int32_t) size));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R7));
	if (size > 8 * DT_BPF_KSTACK_INLINE) {
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R0, DT_FP_T4));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R1));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R3,
		    (int32_t) lay->bl_kstack_off));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, (int32_t) off));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, (int32_t) size));
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_kernel));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R0, DT_FP, DT_FP_T4));
		return;
	}
	/* The walk zeroed the words past its frames: they are copied too. */
	for (uint32_t i = 0; i < size; i += 8) {
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R1,
		    (int16_t) (lay->bl_kstack_off + i)));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R2,
		    (int16_t) (off + i)));
	}
}

/*
 * r0 = bytes of frames written to r7 + off (size bytes, the rest zeroed
 * by the kernel); a context without a kernel stack writes nothing and
 * gives 0.
 */
void
dt_bpf_cg_getstack(dt_bpf_cg_t *cg, uint32_t off, uint32_t size, bool user)
{
	dt_bpf_ctxkind_t ctx = cg->cg_ps->ps_ctx;
	const char *event = NULL;
	int maxskip = 0, nwalk = 0;
	bool walked = false;

	if (!user && !dt_bpf_cg_has_kstack(cg)) {
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R0, 0));
		return;
	}
	if (user) {
		dt_bpf_cg_getustack(cg, off, size);
		return;
	}
	if (ctx == DT_BPF_CTX_SYSCALL_ENTRY ||
	    ctx == DT_BPF_CTX_SYSCALL_RETURN || ctx == DT_BPF_CTX_KTP ||
	    ctx == DT_BPF_CTX_KRAWTP)
		maxskip = DT_BPF_GLUE_FRAMES;
	else if (ctx == DT_BPF_CTX_FBT)
		maxskip = DT_BPF_FUNC_FRAMES;
	if (ctx == DT_BPF_CTX_KTP || ctx == DT_BPF_CTX_KRAWTP)
		event = cg->cg_ps->ps_kevent->ke_event;
	/*
	 * One walk, of the frames to skip and those wanted, where it fits
	 * in the stack scratch and that is not where the frames go.
	 */
	if (maxskip > 0 && size % 8 == 0 && off != cg->cg_lay->bl_kstack_off &&
	    size / 8 + (uint32_t) maxskip <= DT_BPF_KSTACK_MAX)
		nwalk = (int) (size / 8) + maxskip;
	if (maxskip == DT_BPF_GLUE_FRAMES)
		walked = dt_bpf_cg_glue_skip(cg, event, nwalk);
	else if (maxskip == DT_BPF_FUNC_FRAMES)
		walked = dt_bpf_cg_func_skip(cg, nwalk);
	else
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, 0));
	if (walked && nwalk > 0) {
		dt_bpf_cg_kstack_shift(cg, off, size, maxskip);
		return;
	}
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R6));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, (int32_t) off));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R3, (int32_t) size));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_stack));
}

/*
 * ustack(), ustackdepth and ucaller through CFI (os/linux/dt_cfi.h): the
 * frames walked from the user registers with the unwind rows of the
 * process (dt_cfi_row_t, sorted, row 0 at address 0), written as up to
 * nframes words at r7 + off.  r0 = the bytes written, as bpf_get_stack()
 * answers.
 *
 * The rows are found one of two ways.  A uprobe's program knows its
 * process: the array map ps_ucfi_fd of ps_ucfi_n rows, a constant of the
 * program, and the uprobe's context holds the registers.  Any other
 * program finds the current process's rows at run time: its image in the
 * process set (followfork children share their parent's address space,
 * so its rows), whose low word keys the hash of maps ps_ustk_fd; the
 * registers are the task's saved user ones (task_pt_regs(): where a
 * system call entered, or where an interrupt took the CPU from user
 * code).  The rows map may be replaced while a walk runs (the process
 * loaded a library), so each frame looks it up again.
 *
 * Each frame is one iteration: store the PC, find its row by a binary
 * search unrolled over the row count (ps_ucfi_n, or DT_CFI_MAXROWS with
 * a row past the end reading as above every address; the last row at or
 * below the PC; below the first frame at the return address minus one,
 * the call), compute the CFA, read the return address below it and the
 * saved frame pointer if the row says where it is.  On arm64 the row may
 * put the return address deeper in the frame, or still in x30 (the first
 * frame's link register, kept from the registers), and say that it is
 * signed.  The walk is dt_cfi_unwind()'s, step for step, so the ptrace
 * engine's stacks are the same.  Everything that lasts between
 * iterations is a loop variable in scratch:
 */
/* Frames a walk goes without bpf_loop() (see dt_bpf_cg_ustack_cfi()). */
#define DT_BPF_UCFI_NOLOOP 64

#define DT_UV_BP  0	/* the frame's frame pointer (%rbp, x29) */
#define DT_UV_PC  1	/* its PC (after BP: they are read together) */
#define DT_UV_SP  2	/* its %rsp */
#define DT_UV_GEN 3	/* run-time rows: owner | generation << 32 */
#define DT_UV_X	  4	/* the address looked up */
#define DT_UV_LO  5	/* the search's base row, then the CFA */
#define DT_UV_RBP 6	/* the row's cr_fp_off */
#define DT_UV_OWN 7	/* run-time rows: their key in ps_ustk_fd */
#define DT_UV_N	  8	/* frames written */
/* 9 is DT_VAR_EXIT */
#define DT_UV_WB  10	/* the window's user address */
#define DT_UV_WL  11	/* its bytes read; 0: none */
#define DT_UV_ROW 12	/* the row's rule: bytes 8-15 of a dt_cfi_row_t */
#define DT_UV_LR  13	/* the first frame's link register (arm64) */

/*
 * The stack memory the walk reads (a frame's return address and saved
 * %rbp) comes through a window: one bpf_probe_read_user() of up to
 * DT_BPF_UWIN bytes upwards from an address, kept in work buffers 0 and
 * 1 (which only a subroutine uses, and none runs during a walk), so
 * that the next frames, a few dozen bytes further up, are read from it
 * with no helper call.  A read that fails (the window would pass the
 * stack's end) is tried again up to the page's end.  Its size is a
 * multiple of 16 no larger than both work buffers.
 */
#define DT_BPF_UWIN 512

static uint32_t
dt_bpf_uwin(const dt_bpf_cg_t *cg)
{
	uint32_t w = 2 * cg->cg_lay->bl_worksize;

	return (w < DT_BPF_UWIN ? w : DT_BPF_UWIN) & ~15U;
}

/*
 * size (8 or 16) bytes of user memory at the address in r3 into loop
 * variable dst (and the next); jumps to lfail when it is unreadable
 * (r0-r5 clobbered).
 */
static void
dt_bpf_cg_uread(dt_bpf_cg_t *cg, int32_t size, int dst, uint32_t lfail)
{
	int32_t w = (int32_t) dt_bpf_uwin(cg);
	int16_t win = (int16_t) DT_WORK(cg, 0);
	uint32_t lrefill = dt_bpf_label_new(cg->cg_b);
	uint32_t lfilled = dt_bpf_label_new(cg->cg_b);
	uint32_t lhave = dt_bpf_label_new(cg->cg_b);

	/* In the window: 0 <= address - base <= length - size */
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R3));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7, DT_VAR(cg, DT_UV_WB)));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R1, DT_R2));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7, DT_VAR(cg, DT_UV_WL)));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_SUB, DT_R2, size));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JSLT, DT_R1, 0, 0),
	    lrefill);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JSGT, DT_R1, DT_R2, 0),
	    lrefill);
	/* Always false then, but it bounds the offset for the verifier. */
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGT, DT_R1, w - size, 0),
	    lrefill);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lhave);

	dt_bpf_label_here(cg->cg_b, lrefill);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R3, DT_VAR(cg, DT_UV_WB)));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, win));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, w));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_user));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, w));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R0, 0, 0),
	    lfilled);
	/* Up to the end of the address's page, at least size, at most w */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R7, DT_VAR(cg, DT_UV_WB)));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R3));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R2, 4095));
	DT_EMIT(cg, DT_BPF_NEG64(DT_R2));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, 4096));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JGE, DT_R2, size, 1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, size));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLE, DT_R2, w, 1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, w));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R2, DT_VAR(cg, DT_UV_WL)));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, win));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_user));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7, DT_VAR(cg, DT_UV_WL)));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JEQ, DT_R0, 0, 2));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, DT_UV_WL), 0));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lfail);
	dt_bpf_label_here(cg->cg_b, lfilled);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R2, DT_VAR(cg, DT_UV_WL)));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));

	dt_bpf_label_here(cg->cg_b, lhave);
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R7));
	for (int16_t o = 0; o < size; o += 8) {
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R1,
		    (int16_t) (win + o)));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R2,
		    (int16_t) (DT_VAR(cg, dst) + o)));
	}
}

/*
 * Run-time rows go through a cache of rows found (ps_ucache_fd): per CPU
 * (an array map's entry for each, as a per-CPU array's value cannot be
 * as large), DT_BPF_UCACHE_N entries of 32 bytes, direct-mapped by a
 * hash of the address and the owner's generation -- the tag (DT_UV_GEN:
 * the owner and the generation of its rows, from ps_ugen_fd; 0, no
 * cache, when it has none), the address, the row's rule.  A frame seen
 * before then costs a few instructions, not the search's map lookup a
 * step.  The generation changes whenever an owner's rows are made again
 * (exec, dlopen), so a rule of an old image is never found.  An entry
 * is written tag last, its tag cleared first, and read tag, address,
 * rule, then tag and address again: a program that interrupts the walk
 * on this CPU and rewrites the entry is seen.
 */
static bool
dt_bpf_cg_ucache(const dt_bpf_progspec_t *ps, bool dyn)
{
	return dyn && ps->ps_ucache_fd >= 0 && ps->ps_ugen_fd >= 0;
}

/*
 * r0 = the cache entry of the address in r1 with the tag in r2: the
 * cache from slot DT_FP_UCACHE (r3, r4 clobbered).
 */
static void
dt_bpf_cg_ucache_entry(dt_bpf_cg_t *cg)
{
	int shift = 64;

	for (uint32_t n = DT_BPF_UCACHE_N; n > 1; n /= 2)
		shift--;
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R1));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R3, DT_R2));
	dt_bpf_emit_imm64(cg->cg_b, DT_R4, 0x9e3779b97f4a7c15ULL);
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_MUL, DT_R3, DT_R4));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R3, shift));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R3, 5));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R0, DT_FP, DT_FP_UCACHE));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R0, DT_R3));
}

/*
 * r0 = row (base row + add) of the rows map; jumps to lnull when there
 * is no such row.
 */
static void
dt_bpf_cg_ucfi_row(dt_bpf_cg_t *cg, bool dyn, uint32_t add, uint32_t lnull)
{
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, DT_UV_LO)));
	if (add != 0)
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, (int32_t) add));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_W, DT_FP, DT_R1, DT_FP_KEY));
	if (dyn)
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_UCFI));
	else
		dt_bpf_emit_map_fd(cg->cg_b, DT_R1, cg->cg_ps->ps_ucfi_fd);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_FP));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, DT_FP_KEY));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_map_lookup_elem));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R0, 0, 0), lnull);
}

/* r0 = map fd's value at the u32 in loop variable v; lnull when none. */
static void
dt_bpf_cg_ucfi_lookup(dt_bpf_cg_t *cg, int fd, int v, uint32_t lnull)
{
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, v)));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_W, DT_FP, DT_R1, DT_FP_KEY));
	dt_bpf_emit_map_fd(cg->cg_b, DT_R1, fd);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_FP));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, DT_FP_KEY));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_map_lookup_elem));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R0, 0, 0), lnull);
}

void
dt_bpf_cg_task_regs(dt_bpf_cg_t *cg)
{
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_task_btf));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_task_pt_regs));
}

/*
 * The walk's set-up for run-time rows: the owner's rows (lnorows when it
 * has none) and, with the cache, the tag and the cache's address in
 * slot DT_FP_UCACHE.
 */
static void
dt_bpf_cg_ustack_dyn(dt_bpf_cg_t *cg, bool cache, uint32_t lnorows)
{
	const dt_bpf_progspec_t *ps = cg->cg_ps;
	uint32_t lnogen, lgen;

	/* owner = (u32) procset[tgid]; the rows of owner, or none */
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_pid_tgid));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R0, 32));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R0,
	    DT_VAR(cg, DT_UV_OWN)));
	dt_bpf_cg_ucfi_lookup(cg, ps->ps_procset_fd, DT_UV_OWN, lnorows);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_W, DT_R1, DT_R0, 0));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 0, 0),
	    lnorows);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
	    DT_VAR(cg, DT_UV_OWN)));
	dt_bpf_cg_ucfi_lookup(cg, ps->ps_ustk_fd, DT_UV_OWN, lnorows);
	if (!cache)
		return;
	lnogen = dt_bpf_label_new(cg->cg_b);
	lgen = dt_bpf_label_new(cg->cg_b);
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_smp_processor_id));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_W, DT_FP, DT_R0, DT_FP_KEY));
	dt_bpf_emit_map_fd(cg->cg_b, DT_R1, ps->ps_ucache_fd);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_FP));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, DT_FP_KEY));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_map_lookup_elem));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R0, 0, 0),
	    lnorows);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R0, DT_FP_UCACHE));
	dt_bpf_cg_ucfi_lookup(cg, ps->ps_ugen_fd, DT_UV_OWN, lnogen);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_W, DT_R1, DT_R0, 0));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R1, 32));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7,
	    DT_VAR(cg, DT_UV_OWN)));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_OR, DT_R1, DT_R2));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
	    DT_VAR(cg, DT_UV_GEN)));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lgen);
	dt_bpf_label_here(cg->cg_b, lnogen);
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, DT_UV_GEN), 0));
	dt_bpf_label_here(cg->cg_b, lgen);
}

/*
 * The cache entry of the address in DT_UV_X, with the tag it must carry:
 * r0 = the entry, r2 = the owner's generation word (DT_UV_GEN), r1 = the
 * address; to lnone when the owner has no generation (rows not cached).
 */
static void
dt_bpf_cg_ucache_tagged(dt_bpf_cg_t *cg, uint32_t lnone)
{
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7,
	    DT_VAR(cg, DT_UV_GEN)));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R2));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R1, 32));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 0, 0), lnone);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, DT_UV_X)));
	dt_bpf_cg_ucache_entry(cg);
}

/*
 * The frame's rule into DT_UV_ROW: from the cache when it has the
 * address, else by the search (then kept in the cache).  Jumps to ldone
 * when the address has no row.
 */
static void
dt_bpf_cg_ustack_row(dt_bpf_cg_t *cg, bool dyn, bool cache, uint32_t ldone)
{
	const dt_bpf_progspec_t *ps = cg->cg_ps;
	uint32_t nrows = dyn ? DT_CFI_MAXROWS : ps->ps_ucfi_n;
	uint32_t lsearch = dt_bpf_label_new(cg->cg_b);
	uint32_t lrow = dt_bpf_label_new(cg->cg_b);

	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, DT_UV_LO), 0));
	if (cache) {
		/* A generation (the upper word): the entry, if it is ours */
		dt_bpf_cg_ucache_tagged(cg, lsearch);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R0, 0));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JNE, DT_R3, DT_R2,
		    0), lsearch);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R0, 8));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JNE, DT_R3, DT_R1,
		    0), lsearch);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R4, DT_R0, 16));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R0, 0));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JNE, DT_R3, DT_R2,
		    0), lsearch);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R0, 8));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JNE, DT_R3, DT_R1,
		    0), lsearch);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R4,
		    DT_VAR(cg, DT_UV_ROW)));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lrow);
		dt_bpf_label_here(cg->cg_b, lsearch);
	}
	if (dyn) {
		dt_bpf_cg_ucfi_lookup(cg, ps->ps_ustk_fd, DT_UV_OWN, ldone);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R0, DT_FP_UCFI));
	}
	/*
	 * The search: the same steps as dt_cfi_find(), whose halves
	 * depend only on the row count.
	 */
	for (uint32_t len = nrows; len > 1; len -= len / 2) {
		uint32_t lkeep = dt_bpf_label_new(cg->cg_b);

		dt_bpf_cg_ucfi_row(cg, dyn, len / 2, dyn ? lkeep : ldone);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R0, 0));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7,
		    DT_VAR(cg, DT_UV_X)));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JGT, DT_R1,
		    DT_R2, 0), lkeep);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_W, DT_R1, DT_FP, DT_FP_KEY));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
		    DT_VAR(cg, DT_UV_LO)));
		dt_bpf_label_here(cg->cg_b, lkeep);
	}
	dt_bpf_cg_ucfi_row(cg, dyn, 0, ldone);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R4, DT_R0, 8));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R4, DT_VAR(cg, DT_UV_ROW)));
	if (cache) {
		/* Kept for the next walk (a generation 0 tag is never read). */
		dt_bpf_cg_ucache_tagged(cg, lrow);
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R0, 0, 0));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R0, DT_R1, 8));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R4, DT_R7,
		    DT_VAR(cg, DT_UV_ROW)));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R0, DT_R4, 16));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R0, DT_R2, 0));
	}
	dt_bpf_label_here(cg->cg_b, lrow);
}

void
dt_bpf_cg_ustack_cfi(dt_bpf_cg_t *cg, uint32_t off, uint32_t nframes,
    uint32_t lnorows)
{
	const dt_bpf_progspec_t *ps = cg->cg_ps;
	dt_bpf_ctxkind_t ctx = ps->ps_ctx;
	bool dyn = lnorows != 0, cache = dt_bpf_cg_ucache(ps, dyn);
	dt_bpf_loop_t lp;
	uint32_t lnorbp, lpair, lfp = 0;
	/* The row's fields within DT_UV_ROW (dt_cfi_row_t less 8) */
	int16_t row = DT_VAR(cg, DT_UV_ROW) - 8;
	/*
	 * A processor with a link register (arm64) has rows with the return
	 * address elsewhere than x86-64's CFA - 8 (cr_ra): only its walk
	 * reads that byte, so x86-64's program is what it was.
	 */
	bool lr = dt_isa_layout.il_lr >= 0;

	if (nframes == 0) {
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R0, 0));
		return;
	}
	if (dyn)
		dt_bpf_cg_ustack_dyn(cg, cache, lnorows);
	/* pc, sp and the frame pointer, where the ISA's pt_regs has them */
	if (ctx == DT_BPF_CTX_UPROBE || ctx == DT_BPF_CTX_URETURN ||
	    ctx == DT_BPF_CTX_USDT) {
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R6));
	} else {
		dt_bpf_cg_task_regs(cg);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R0));
	}
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R3, dt_isa_layout.il_pc));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_VAR(cg, DT_UV_PC)));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R3, dt_isa_layout.il_sp));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_VAR(cg, DT_UV_SP)));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R3, dt_isa_layout.il_fp));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_VAR(cg, DT_UV_BP)));
	if (lr) {
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R3,
		    dt_isa_layout.il_lr));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
		    DT_VAR(cg, DT_UV_LR)));
	}
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, DT_UV_N), 0));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, DT_UV_WB), 0));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_VAR(cg, DT_UV_WL), 0));

	/*
	 * Without bpf_loop() (before Linux 5.17) the walk is a loop the
	 * verifier follows frame by frame, each with its binary search, and
	 * it gives up ("the sequence of jumps is too complex") when a
	 * clause's walks (ustack(), ustackdepth) add up to a few hundred
	 * frames: 64 frames a walk leaves room for three.
	 */
	if (!(cg->cg_bpf_loop && cg->cg_loopdepth == 0) &&
	    nframes > DT_BPF_UCFI_NOLOOP)
		nframes = DT_BPF_UCFI_NOLOOP;
	dt_bpf_loop_begin(cg, &lp, DT_R9, nframes, 1);
	/* The callback's own copy of the cache's address (r2: the ctx) */
	if (cache && lp.lp_call) {
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R2,
		    DT_FP_UCACHE - DT_FP_LOOP));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1,
		    DT_FP_UCACHE));
	}
	/* pcs[n] = pc; n++ */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, DT_UV_N)));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGE, DT_R1,
	    (int32_t) nframes, 0), lp.lp_done);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R1));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R2, 3));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R2, DT_R7));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R7, DT_VAR(cg, DT_UV_PC)));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R2, DT_R3, (int16_t) off));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 1));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_VAR(cg, DT_UV_N)));
	/* x = n > 1 ? pc - 1 : pc */
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLE, DT_R1, 1, 1));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_SUB, DT_R3, 1));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R3, DT_VAR(cg, DT_UV_X)));
	dt_bpf_cg_ustack_row(cg, dyn, cache, lp.lp_done);
	/*
	 * The rule: cfa_off (s32) at 8, cfa_reg (u8) at 12, ra (u8) at 13,
	 * fp_off (s16) at 14.
	 */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_B, DT_R3, DT_R7, row + 12));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3, DT_CFI_STOP,
	    0), lp.lp_done);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_W, DT_R4, DT_R7, row + 8));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R4, 32));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ARSH, DT_R4, 32));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_H, DT_R5, DT_R7, row + 14));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R5, 48));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ARSH, DT_R5, 48));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R5, DT_VAR(cg, DT_UV_RBP)));
	/* cfa = (reg == rbp ? bp : sp) + off; it must move up the stack */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, DT_UV_SP)));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JNE, DT_R3, DT_CFI_FP, 1));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, DT_UV_BP)));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R4));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7, DT_VAR(cg, DT_UV_SP)));
	lnorbp = dt_bpf_label_new(cg->cg_b);
	lpair = dt_bpf_label_new(cg->cg_b);
	if (lr) {
		uint32_t lmem = dt_bpf_label_new(cg->cg_b);

		/*
		 * The return address still in x30: the first frame's alone
		 * (a caller made a call, so saved it), whose CFA may be its
		 * sp (a function that has not touched the stack).
		 */
		lfp = dt_bpf_label_new(cg->cg_b);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_B, DT_R3, DT_R7, row + 13));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R3, DT_CFI_RA_LR));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3, 0, 0),
		    lmem);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R7,
		    DT_VAR(cg, DT_UV_N)));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R3, 1, 0),
		    lp.lp_done);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JLT, DT_R1, DT_R2,
		    0), lp.lp_done);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
		    DT_VAR(cg, DT_UV_LO)));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R7,
		    DT_VAR(cg, DT_UV_LR)));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R3,
		    DT_VAR(cg, DT_UV_PC)));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lfp);
		dt_bpf_label_here(cg->cg_b, lmem);
	}
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JLE, DT_R1, DT_R2, 0),
	    lp.lp_done);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_VAR(cg, DT_UV_LO)));
	/*
	 * A frame that saved the frame pointer just below the return
	 * address (every frame of code with frame pointers: x86-64's
	 * fp_off -16, arm64's frame record -16 - 8 * slot): both words in
	 * one read.
	 */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R7, DT_VAR(cg, DT_UV_RBP)));
	if (lr) {
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_B, DT_R4, DT_R7, row + 13));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R4, DT_CFI_RA_SLOT));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_MUL, DT_R4, -8));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R4, -16));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JNE, DT_R3, DT_R4,
		    0), lpair);
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R3, DT_R1));
	} else {
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R3, -16,
		    0), lpair);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R1));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_SUB, DT_R3, 16));
	}
	dt_bpf_cg_uread(cg, 16, DT_UV_BP, lp.lp_done);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lnorbp);
	dt_bpf_label_here(cg->cg_b, lpair);
	/* pc = the word at cfa - 8 (- 8 * slot) */
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R1));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_SUB, DT_R3, 8));
	if (lr) {
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_B, DT_R4, DT_R7, row + 13));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R4, DT_CFI_RA_SLOT));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R4, 3));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R3, DT_R4));
	}
	dt_bpf_cg_uread(cg, 8, DT_UV_PC, lp.lp_done);
	if (lr)
		dt_bpf_label_here(cg->cg_b, lfp);
	/* bp = the word at cfa + fp_off, when the row says it was saved */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R7, DT_VAR(cg, DT_UV_RBP)));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3, 0, 0),
	    lnorbp);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, DT_UV_LO)));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R3, DT_R1));
	dt_bpf_cg_uread(cg, 8, DT_UV_BP, lp.lp_done);
	dt_bpf_label_here(cg->cg_b, lnorbp);
	if (lr) {
		/* A signed return address: its code stripped (dt_cfi.h) */
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_B, DT_R3, DT_R7, row + 13));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R3, DT_CFI_RA_PAC));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3, 0, 4));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7,
		    DT_VAR(cg, DT_UV_PC)));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R1,
		    64 - DT_CFI_VA_BITS));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R1,
		    64 - DT_CFI_VA_BITS));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
		    DT_VAR(cg, DT_UV_PC)));
	}
	/* sp = cfa; a zero return address ends the stack */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, DT_UV_LO)));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_VAR(cg, DT_UV_SP)));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_VAR(cg, DT_UV_PC)));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 0, 0),
	    lp.lp_done);
	dt_bpf_loop_end(cg, &lp);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R0, DT_R7, DT_VAR(cg, DT_UV_N)));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R0, 3));
}

/*
 * The stack's variables into r1: stackdepth, caller, ustackdepth and
 * ucaller, each from the stack walked into the scratch of stack().
 */
void
dt_bpf_cg_stackvar(dt_bpf_cg_t *cg, uint32_t id)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;

	switch (id) {
	case DIF_VAR_STACKDEPTH:
		/* The frames stack() would record, were it unbounded. */
		dt_bpf_cg_getstack(cg, lay->bl_kstack_off,
		    8 * DT_BPF_KSTACK_MAX, false);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JSGE, DT_R1, 0, 1));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R1, 3));
		break;
	case DIF_VAR_CALLER:
		/*
		 * The frame after the probe site's; 0 when there is none.
		 * At fbt probes the stack starts at the caller already.
		 */
		if (!dt_bpf_cg_has_kstack(cg)) {
			DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
			break;
		}
		dt_bpf_cg_getstack(cg, lay->bl_kstack_off, 16, false);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1,
		    (int32_t) lay->bl_kstack_off));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R1,
		    cg->cg_ps->ps_ctx == DT_BPF_CTX_FBT ? 0 : 8));
		break;
	case DIF_VAR_USTACKDEPTH:
		/* The frames ustack() would record (the scratch is shared). */
		dt_bpf_cg_getstack(
		    cg, lay->bl_kstack_off, 8 * DT_BPF_USTACK_MAX, true);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JSGE, DT_R1, 0, 1));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R1, 3));
		break;
	case DIF_VAR_UCALLER:
		/* The user frame after the probe site's; 0 when none. */
		dt_bpf_cg_getstack(cg, lay->bl_kstack_off, 16, true);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1,
		    (int32_t) lay->bl_kstack_off));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R1, 8));
		break;
	}
}
