/*
 * dt_bpf_stack.c: stacks and user registers in the BPF engine's programs
 * (dt_bpf_gen.c calls these for stack(), ustack(), ustackdepth and
 * uregs[]): which leading kernel frames belong to the tracing machinery
 * and are skipped, the user stack walked by frame pointers, and the
 * user registers of the probe's context.
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
 * words zeroed), r5 = its address; r4 = 0 (r0-r3 clobbered).
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
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, 0));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R5, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R5,
	    (int32_t) lay->bl_kstack_off));
}

/*
 * r4 = the number of leading frames that are the tracing machinery's: up
 * to the deepest glue frame among the first few, event's being the
 * tracepoint's name when it has one (r0-r5 clobbered).
 */
static void
dt_bpf_cg_glue_skip(dt_bpf_cg_t *cg, const char *event)
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
		return;
	dt_bpf_cg_topframes(cg, DT_BPF_GLUE_FRAMES);
	for (int i = 0; i < DT_BPF_GLUE_FRAMES; i++) {
		uint32_t lglue = dt_bpf_label_new(cg->cg_b);
		uint32_t lnext = dt_bpf_label_new(cg->cg_b);

		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R5,
		    (int16_t) (8 * i)));
		for (uint32_t g = 0; g < n; g++) {
			dt_bpf_emit_imm64(cg->cg_b, DT_R2, glue[g].start);
			DT_EMIT(cg, DT_BPF_JMP_REG(BPF_JLT, DT_R1, DT_R2, 3));
			dt_bpf_emit_imm64(cg->cg_b, DT_R2, glue[g].end);
			dt_bpf_jmp_label(cg->cg_b,
			    DT_BPF_JMP_REG(BPF_JLT, DT_R1, DT_R2, 0), lglue);
		}
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lnext);
		dt_bpf_label_here(cg->cg_b, lglue);
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, i + 1));
		dt_bpf_label_here(cg->cg_b, lnext);
	}
}

/*
 * At an fbt probe, DTrace's stack starts at the function's caller.  The
 * walk starts inside the program: under fentry/fexit, the program's and
 * the BPF trampoline's frames come first, then the return address of the
 * trampoline's call in the function's first instruction; under a kprobe,
 * the function's own address.  Either way the frames up to and including
 * the first one inside the function are skipped; a kretprobe has none
 * there (its first frame is already the caller).  r4 = how many (r0-r5
 * clobbered).
 */
#define DT_BPF_FUNC_FRAMES 8 /* leading frames that may be ours */

static void
dt_bpf_cg_func_skip(dt_bpf_cg_t *cg)
{
	const dt_ksyms_t *ks = dt_linux_ksyms();
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);
	uint64_t start, end;

	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, 0));
	if (ks == NULL || dt_ksyms_range(ks, cg->cg_ps->ps_kevent->ke_event,
	    &start, &end) != 0)
		return;
	dt_bpf_cg_topframes(cg, DT_BPF_FUNC_FRAMES);
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
 * r0 = bytes of frames written to r7 + off (size bytes, the rest zeroed
 * by the kernel); a context without a kernel stack writes nothing and
 * gives 0.
 */
void
dt_bpf_cg_getstack(dt_bpf_cg_t *cg, uint32_t off, uint32_t size, bool user)
{
	dt_bpf_ctxkind_t ctx = cg->cg_ps->ps_ctx;

	if (!user && !dt_bpf_cg_has_kstack(cg)) {
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R0, 0));
		return;
	}
	if (user) {
		dt_bpf_cg_getustack(cg, off, size);
		return;
	}
	if (ctx == DT_BPF_CTX_SYSCALL_ENTRY ||
	    ctx == DT_BPF_CTX_SYSCALL_RETURN)
		dt_bpf_cg_glue_skip(cg, NULL);
	else if (ctx == DT_BPF_CTX_KTP || ctx == DT_BPF_CTX_KRAWTP)
		dt_bpf_cg_glue_skip(cg, cg->cg_ps->ps_kevent->ke_event);
	else if (ctx == DT_BPF_CTX_FBT)
		dt_bpf_cg_func_skip(cg);
	else
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, 0));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R6));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, (int32_t) off));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R3, (int32_t) size));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_stack));
}

