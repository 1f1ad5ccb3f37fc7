/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_impl.h: the translator's private state, shared by dt_bpf_gen.c
 * (programs, clauses, instructions) and dt_bpf_subr.c (subroutines).
 *
 * Registers of generated code:
 *
 *	r6	the program's context (saved at entry)
 *	r7	the scratch map value of this CPU (a map value pointer, so
 *		constant offsets from it need no run-time checks)
 *	r8	the state map value
 *	r9	free across helper calls (aggregation value, loop counters)
 *	r0-r5	temporaries, clobbered by every helper call
 *
 * The BPF stack holds the DIF registers and the condition codes of the
 * last cmp/scmp/tst (its two operands, so each branch is one BPF compare
 * of the right signedness), plus a few temporaries.  The firing context
 * lives in scratch at the DT_SC_* offsets.
 */
#ifndef DT_BPF_IMPL_H
#define DT_BPF_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "common/dif/dif.h"
#include "common/dif/dif_interp.h"
#include "os/linux/bpf/dt_bpf_gen.h"

/* Stack slots (offsets from r10). */
/* %r0..%r7 at -8..-64 */
#define DT_FP_REG(r)	(-8 * ((int) (r) + 1))
#define DT_FP_CCA	(-72)
#define DT_FP_CCB	(-80)
#define DT_FP_KEY	(-88)	/* u32 map keys */
#define DT_FP_T0	(-96)	/* temporaries */
#define DT_FP_T1	(-104)
#define DT_FP_T2	(-112)
#define DT_FP_T3	(-120)
#define DT_FP_T4	(-128)
#define DT_FP_ERET	(-136)	/* clause to return to after ERROR */
#define DT_FP_LOOP	(-144)	/* r7 for a bpf_loop() callback (its ctx) */
#define DT_FP_UCFI	(-152)	/* the user stack walk's rows map */
#define DT_FP_UCACHE	(-160)	/* and its cache of rows found */

/* The firing context in scratch. */
#define DT_SC_LEAK	0	/* where pointers become numbers */
#define DT_SC_SBASE	8	/* scratch's address, as a number */
#define DT_SC_GBASE	16	/* the state map's address */
#define DT_SC_TS	24	/* 0 until first read */
#define DT_SC_ERRNO	32
#define DT_SC_ID	40
#define DT_SC_EPID	48
#define DT_SC_AUSED	56	/* of DT_SC_USED, bytes alloca() took */
/* A group program's probe names (addresses), from its table. */
#define DT_SC_MOD	64
#define DT_SC_FUNC	72
#define DT_SC_NAME	80
#define DT_SC_ARGS	88	/* DT_BPF_NARGS words */
#define DT_SC_FKIND	168	/* the last fault */
#define DT_SC_FADDR	176
#define DT_SC_FOFF	184
#define DT_SC_FACT	192
#define DT_SC_USED	200	/* bytes of DIF scratch in use */
#define DT_SC_UFUNC	208	/* a pid group's probe: its function */
#define DT_SC_HDRSIZE	216

/* A tuple-stack entry: value and size, 16 bytes in scratch. */
#define DT_TUP_VAL(i)	(16 * (i))
#define DT_TUP_SIZE(i)	(16 * (i) + 8)
/* Tuple entry i's offset in scratch; breg = its value. */
#define DT_TUP(cg, i)                                                        \
	((int16_t) ((cg)->cg_lay->bl_tuple_off + DT_TUP_VAL(i)))
#define DT_LDTUP(cg, breg, i)                                                \
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, breg, DT_R7, DT_TUP(cg, i)))

/* What the translator knows about each tuple entry at a DIF pc. */
#define DT_TT_VALUE	0	/* by value: 8 bytes */
#define DT_TT_STRING	1	/* string by reference */
#define DT_TT_REF	2	/* other by reference: size at run time */

typedef struct dt_bpf_tstate {
	int8_t ts_depth;	/* -1: not reached yet */
	uint8_t ts_type[DIF_DTR_NREGS];
} dt_bpf_tstate_t;

typedef struct dt_bpf_cg {
	dt_bpf_buf_t *cg_b;
	const dt_bpf_layout_t *cg_lay;
	const dt_bpf_progspec_t *cg_ps;
	char *cg_err;
	size_t cg_errlen;
	int cg_failed;

	uint32_t cg_clause;	/* index in the program */
	uint32_t cg_action;	/* 1-based; 0: the predicate */
	uint32_t cg_lfault;	/* the clause's fault handler */
	uint32_t cg_lnext;	/* the clause's end: a dropped store ends it */
	bool cg_has_lnext;	/* in a clause: cg_lnext is set */
	void *cg_stubs;		/* the clause's fault stubs */
	bool cg_in_error;	/* generating the ERROR clauses */
	uint32_t cg_lerror;	/* the ERROR block */
	uint32_t *cg_eret;	/* per clause: its next label, or UINT32_MAX
				 * when it never goes to the ERROR block */

	const dif_object_t *cg_difo;
	uint32_t cg_strtab;	/* the object's string table in consts */
	uint32_t cg_pc;		/* instruction being translated */
	dt_bpf_tstate_t *cg_tstate; /* per pc */
	uint32_t *cg_plabels;	/* per pc, UINT32_MAX when none */
	bool cg_bpf_loop;	/* outermost loops through bpf_loop() */
	bool cg_fetch;		/* atomic fetch-add, xchg, cmpxchg (5.12) */
	int cg_loopdepth;	/* loops being emitted */
} dt_bpf_cg_t;

/* dt_bpf_layout.c */
/*
 * The tuple stack's depth and entry types at each pc of a DIF object,
 * -1 depth where unreachable.  Returns 0, or -1 with errbuf set.
 */
extern int dt_bpf_tuples(const dif_object_t *difo, dt_bpf_tstate_t *ts,
    char *errbuf, size_t errlen);
/* Bytes one tuple entry of a DIF type takes in a key. */
extern uint32_t dt_bpf_tupwidth(const dt_bpf_layout_t *lay, uint8_t type);

#define DT_EMIT(cg, insn) dt_bpf_emit((cg)->cg_b, (insn))

/* dt_bpf_gen.c */
extern void dt_bpf_cg_error(dt_bpf_cg_t *cg, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
extern void dt_bpf_cg_ldreg(dt_bpf_cg_t *cg, int breg, unsigned dreg);
extern void dt_bpf_cg_streg(dt_bpf_cg_t *cg, unsigned dreg, int breg);
/* Jumps to the fault handler when (breg op imm); addr from a DIF reg. */
extern void dt_bpf_cg_fault_if(dt_bpf_cg_t *cg, int op, int breg, int32_t imm,
    int kind, int addr_dreg);
/* ... or from an absolute value in a stack slot (fp offset), or 0. */
extern void dt_bpf_cg_fault_if_slot(dt_bpf_cg_t *cg, int op, int breg,
    int32_t imm, int kind, int addr_slot);
extern void dt_bpf_cg_fault(dt_bpf_cg_t *cg, int kind, int addr_slot);
/* ... with the address in DIF register addr_dreg. */
extern void dt_bpf_cg_fault_reg(dt_bpf_cg_t *cg, int kind, int addr_dreg);
/* breg = the number of a scratch (r7) or state (r8) offset. */
extern void dt_bpf_cg_saddr(dt_bpf_cg_t *cg, int breg, uint32_t off);
extern void dt_bpf_cg_gaddr(dt_bpf_cg_t *cg, int breg, uint32_t off);
extern void dt_bpf_cg_caddr(dt_bpf_cg_t *cg, int breg, uint32_t off);
/* Turns a map value pointer in breg into a number in the same reg. */
extern void dt_bpf_cg_ptr2num(dt_bpf_cg_t *cg, int breg);
/* Zero len bytes at r7 + off (with stores or one helper call). */
extern void dt_bpf_cg_zero(dt_bpf_cg_t *cg, uint32_t off, uint32_t len);
extern void dt_bpf_cg_counter(dt_bpf_cg_t *cg, int which);
/* r0 = map_update_elem(the map fd, r7 + keyoff, r7 + valoff, flags). */
extern void dt_bpf_cg_map_update(dt_bpf_cg_t *cg, int fd, uint32_t keyoff,
    uint32_t valoff, int32_t flags);
/* r1 = size (4 or 8) bytes of kernel memory at r3 + off; 0 on failure. */
extern void dt_bpf_cg_kread(dt_bpf_cg_t *cg, uint32_t off, int size);
/* r1 = the firing's timestamp (the clock read once per firing). */
extern void dt_bpf_cg_timestamp(dt_bpf_cg_t *cg);

/*
 * Allocates size bytes of DIF scratch (size in the stack slot sizeslot,
 * bounded by the caller, or a constant when sizeslot is 0), zeroed:
 * the offset within dscratch goes to stack slot offslot.  Faults "out of
 * scratch space" as the interpreter does.
 */
extern void dt_bpf_cg_alloc(dt_bpf_cg_t *cg, int sizeslot, uint32_t size,
    int offslot);
/* breg = pointer to dscratch + the offset in slot (bounded). */
extern void dt_bpf_cg_dsptr(dt_bpf_cg_t *cg, int breg, int offslot);

#define DT_BPF_ATOMIC 0xc0 /* BPF_ATOMIC (BPF_XADD) */
#define DT_BPF_CMPXCHG (0xf0 | 0x01) /* BPF_CMPXCHG, with BPF_FETCH */

/* r0 = cmpxchg(*(u64 *) (dreg + 0), expected r0, new sreg). */
#define DT_BPF_CG_CMPXCHG(cg, dreg, sreg)                                    \
	DT_EMIT(cg, DT_BPF_INSN(BPF_STX | BPF_DW | DT_BPF_ATOMIC, dreg, sreg, \
	    0, DT_BPF_CMPXCHG))

/* dt_bpf_stack.c */
/* Whether the probe's context has a kernel stack of the traced code. */
extern bool dt_bpf_cg_has_kstack(const dt_bpf_cg_t *cg);
/* stack() or ustack(): size bytes of frames at r7 + off. */
extern void dt_bpf_cg_getstack(dt_bpf_cg_t *cg, uint32_t off, uint32_t size,
    bool user);
/* stackdepth, caller, ustackdepth, ucaller (DIF_VAR_*): r1 = its value. */
extern void dt_bpf_cg_stackvar(dt_bpf_cg_t *cg, uint32_t id);
/* uregs[]: DIF register rd = the user register whose index is in r2. */
extern void dt_bpf_cg_uregs(dt_bpf_cg_t *cg, unsigned r2, unsigned rd);
/*
 * The user stack through CFI rows: up to nframes PCs at r7 + off; r0 =
 * the bytes written.  With lnorows 0, the rows are the uprobe's process's
 * (cg_ps->ps_ucfi_fd); otherwise those of the current process, found at
 * run time (cg_ps->ps_ustk_fd), and the code jumps to lnorows, having
 * written nothing, when it has none.
 */
extern void dt_bpf_cg_ustack_cfi(dt_bpf_cg_t *cg, uint32_t off,
    uint32_t nframes, uint32_t lnorows);
/*
 * r0 = the current task's saved user registers (struct pt_regs, typed
 * by the kernel's BTF): needs DT_LF_TASK_PT_REGS.
 */
extern void dt_bpf_cg_task_regs(dt_bpf_cg_t *cg);

/* dt_bpf_spec.c */
#define DT_BPF_MAXSPEC 64 /* speculation() is unrolled over nspec */
/* speculation(): the ID, or 0, into DIF register rd. */
extern void dt_bpf_cg_speculation(dt_bpf_cg_t *cg, unsigned rd);
/*
 * speculate(), commit() or discard() of the ID in r0 (kept in r0), in a
 * clause whose record is size bytes: a speculate() that must not record
 * jumps to ldrop.
 */
extern void dt_bpf_cg_spec_action(dt_bpf_cg_t *cg, dt_actkind_t kind,
    uint32_t size, uint32_t ldrop);
/* Count a drop (DT_BPF_CNT_DROPS or _AGGDROPS), in total and per CPU. */
extern void dt_bpf_cg_cpudrop(dt_bpf_cg_t *cg, int which);

/* dt_bpf_var.c: D variables (DIF_VAR_* ids, DIFV_SCOPE_*) */
/* rd = address of a by-reference static (r8 or r7 + off), or NULL. */
extern void dt_bpf_cg_ldsvar(dt_bpf_cg_t *cg, const dt_bpf_var_t *bv,
    unsigned rd);
/* Stores DIF register rs into a static variable. */
extern void dt_bpf_cg_stsvar(dt_bpf_cg_t *cg, const dt_bpf_var_t *bv,
    unsigned rs);
/* A thread-local or associative array's value into rd; stores from rs. */
extern void dt_bpf_cg_lddvar(dt_bpf_cg_t *cg, uint8_t scope, uint32_t id,
    bool array, unsigned rd);
extern void dt_bpf_cg_stdvar(dt_bpf_cg_t *cg, uint8_t scope, uint32_t id,
    bool array, unsigned rs);

/* dt_bpf_builtin.c: built-in variable id into DIF register rd */
extern void dt_bpf_cg_builtin(dt_bpf_cg_t *cg, uint32_t id, unsigned rd);

/* dt_bpf_rec.c: stores the value in slot T0 as record rd at r7 + base. */
extern void dt_bpf_cg_store_rec(dt_bpf_cg_t *cg, const dt_recdesc_t *rd,
    uint32_t base);

/* dt_bpf_instr.c: inlines one DIF object; its value ends in r0. */
extern void dt_bpf_cg_difo(dt_bpf_cg_t *cg, const dif_object_t *difo);
/*
 * Whether the DIF object only returns execname, which a string record
 * rd then takes straight from the task (dt_bpf_cg_comm): min(rd_size,
 * 16) bytes, NUL-padded.
 */
extern bool dt_bpf_difo_rec_comm(const dif_object_t *difo,
    const dt_recdesc_t *rd);
/*
 * The current task's comm into the size bytes at r7 + off (16 at most
 * written), which the caller has zeroed unless dt_bpf_comm_direct(off,
 * size) says all 16 are written, NUL-padded; r0-r5 spent.
 */
extern bool dt_bpf_comm_direct(uint32_t off, uint32_t size);
extern void dt_bpf_cg_comm(dt_bpf_cg_t *cg, uint32_t off, uint32_t size);
/* Runs a DIF object and stores its value as record rd at r7 + base. */
extern void dt_bpf_cg_difo_rec(dt_bpf_cg_t *cg, const dif_object_t *difo,
    const dt_recdesc_t *rd, uint32_t base);

/* dt_bpf_agg.c */
extern void dt_bpf_cg_aggregate(dt_bpf_cg_t *cg, const dt_action_t *ap);

/* Work buffer w's offset in scratch. */
#define DT_WORK(cg, w)                                                       \
	((cg)->cg_lay->bl_work_off + (uint32_t) (w) * (cg)->cg_lay->bl_worksize)

/* dt_bpf_loop.c */
/*
 * Loop variables of the string subroutines, in work buffer 2: values that
 * differ between iterations' paths live in scratch memory, which the
 * verifier does not track, so that paths do not multiply.
 */
#define DT_VAR(cg, v)	((int16_t) (DT_WORK(cg, 2) + 8 * (v)))

/*
 * Every loop of the generated string code:
 *
 *	for (reg = 0; reg < max; reg += step) { body }
 *
 * The body may jump to lp_next ("continue") or lp_done ("break"), and
 * elsewhere only through dt_bpf_loop_exit(); it calls no helper, keeps
 * what must last between iterations in loop variables (scratch), and
 * reads no register set before the loop (but r7, and the stack slots
 * T0 and T1).
 *
 * Where the kernel has bpf_loop(), an outermost loop's body is its
 * callback, a subprogram the verifier walks once (or a few times, until
 * its states converge) instead of once per iteration, so the loops of a
 * program no longer add up to the verifier's limits.  The callback gets
 * the iteration in r1 and, as its context, the caller's stack at
 * DT_FP_LOOP, where r7 was put; it copies T0 and T1 into its own stack,
 * so the body reads them as it would inline.  It returns 0 to continue,
 * 1 to break; an exit to a label of the caller breaks with the exit's
 * number in loop variable DT_VAR_EXIT, and the caller then jumps there.
 * Loops inside the body, and every loop without bpf_loop(), are bounded
 * loops the verifier walks once per iteration.
 */
#define DT_BPF_LOOP_EXITS 4
#define DT_VAR_EXIT 9

typedef struct dt_bpf_loop {
	uint32_t lp_top;
	uint32_t lp_next;
	uint32_t lp_done;
	int lp_reg;
	int32_t lp_step;
	bool lp_call;		/* the body is a bpf_loop() callback */
	uint32_t lp_nexits;
	uint32_t lp_exit[DT_BPF_LOOP_EXITS];	/* the caller's labels */
	uint32_t lp_xstub[DT_BPF_LOOP_EXITS];	/* their stubs in the body */
} dt_bpf_loop_t;

extern void dt_bpf_loop_begin(dt_bpf_cg_t *cg, dt_bpf_loop_t *lp, int reg,
    uint32_t max, int32_t step);
/* Leaves the loop for label (outside it) when jmp's condition holds. */
extern void dt_bpf_loop_exit(dt_bpf_cg_t *cg, dt_bpf_loop_t *lp,
    struct bpf_insn jmp, uint32_t label);
extern void dt_bpf_loop_end(dt_bpf_cg_t *cg, dt_bpf_loop_t *lp);

/* dt_bpf_proc.c: the current process */
/* execargs, built in its scratch slot; its address in r1. */
extern void dt_bpf_cg_execargs(dt_bpf_cg_t *cg);
/* cwd, built in its scratch slot; its address in r1. */
extern void dt_bpf_cg_cwd(dt_bpf_cg_t *cg);
/* d_path() of the tuple, built in work buffer 0; its length in T3. */
extern void dt_bpf_cg_dpath(dt_bpf_cg_t *cg, int nargs);
/* progenyof() of the pid in tuple entry 0, into DIF register rd. */
extern void dt_bpf_cg_progenyof(dt_bpf_cg_t *cg, unsigned rd);

/* dt_bpf_subr.c */
extern void dt_bpf_cg_subr(dt_bpf_cg_t *cg, uint32_t subr, unsigned rd);
/*
 * Copies the string whose address is in tuple entry i into work buffer
 * w; its length goes to stack slot lenslot.  Faults "invalid address".
 */
extern void dt_bpf_cg_sarg(dt_bpf_cg_t *cg, int i, int w, int lenslot);
/*
 * The prologue's probe arguments (dt_bpf_args.c): a kernel event's
 * arguments into the firing context, then its filters (to lexit when
 * one fails); a USDT probe's arguments; the taken-branch test of a
 * return at a conditional tail call; whether any clause reads arguments.
 */
typedef struct dt_kevent dt_kevent_t;
extern void dt_bpf_cg_kevent_args(dt_bpf_cg_t *cg, const dt_kevent_t *ke);
extern void dt_bpf_cg_kevent_filter(dt_bpf_cg_t *cg, const dt_kevent_t *ke,
    uint32_t lexit);
extern void dt_bpf_cg_usdt(dt_bpf_cg_t *cg, const dt_bpf_progspec_t *ps);
extern void dt_bpf_cg_ucond(dt_bpf_cg_t *cg, uint32_t lexit);
extern bool dt_bpf_prog_reads_args(const dt_bpf_progspec_t *ps);

/* SCMP: compares the strings in DIF regs r1, r2; result in CC slots. */
extern void dt_bpf_cg_scmp(dt_bpf_cg_t *cg, unsigned r1, unsigned r2);

#endif /* DT_BPF_IMPL_H */
