/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_gen.c: the DIF to eBPF translator -- programs, clauses, faults
 * and DIF scratch (the layout of the maps is in dt_bpf_layout.c, DIF
 * instructions in dt_bpf_instr.c, variables in dt_bpf_var.c, built-in
 * variables in dt_bpf_builtin.c, records in dt_bpf_rec.c, subroutines in
 * dt_bpf_subr.c, stacks in dt_bpf_stack.c, the probe arguments the
 * prologue fills in dt_bpf_args.c).
 *
 * A program (see dt_bpf_gen.h for the maps) is:
 *
 *	prologue   find the scratch and state map values (r7, r8), turn
 *		   their addresses into numbers, stop if exit() has run,
 *		   fill the firing context: timestamp, probe ID and names,
 *		   the EPID of each clause, arguments, errno; clear
 *		   clause-locals
 *	clause j   skip unless it has an EPID on this probe; the predicate;
 *		   the record header; each action: its DIF inlined, its value
 *		   stored in the record or the aggregation updated; the
 *		   record to the ring buffer
 *		   stubs: one per place that can fault, noting the fault
 *		   (kind, address, DIF offset, action) for the handler
 *		   handler: a DT_EPID_FAULT record exactly as the interpreter
 *		   writes it; the errors counter; on to the next clause
 *	epilogue   return 0
 *
 * Each DIF object is inlined where it is used.  A forward pass first
 * finds which instructions are reachable (the kernel refuses unreachable
 * code) and the tuple-stack depth and entry types at each one, which are
 * static in DIF since branches only go forward: so the translator knows
 * at every call and associative-array access which arguments are strings.
 * Semantics follow common/dif/dif_interp.c instruction by instruction;
 * the comments say where BPF needs a different route to the same result.
 */
#include <errno.h>
#include <signal.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dt_aggfunc.h"
#include "common/dif/dif.h"
#include "common/dif/dif_interp.h"
#include "common/dt_os.h"
#include "isa/dt_isa.h"
#include "os/linux/bpf/dt_bpf_gen.h"
#include "os/linux/bpf/dt_bpf_impl.h"
#include "os/linux/dt_ksyms.h"
#include "os/linux/dt_linux_features.h"

/*
 * Errors.
 */

void
dt_bpf_cg_error(dt_bpf_cg_t *cg, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (cg->cg_failed)
		return;
	cg->cg_failed = 1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof (msg), fmt, ap);
	va_end(ap);
	if (cg->cg_difo != NULL)
		snprintf(cg->cg_err, cg->cg_errlen,
		    "clause %u, %s, DIF instruction %u: %s",
		    (unsigned) cg->cg_clause + 1, cg->cg_action == 0 ?
		    "predicate" : "action", (unsigned) cg->cg_pc, msg);
	else
		snprintf(cg->cg_err, cg->cg_errlen, "clause %u: %s",
		    (unsigned) cg->cg_clause + 1, msg);
}

/*
 * Small emitters.
 */

void
dt_bpf_cg_ldreg(dt_bpf_cg_t *cg, int breg, unsigned dreg)
{
	dreg &= DIF_DIR_NREGS - 1;
	if (dreg == 0)
		DT_EMIT(cg, DT_BPF_MOV64_IMM(breg, 0));
	else
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, breg, DT_FP,
		    DT_FP_REG(dreg)));
}

void
dt_bpf_cg_streg(dt_bpf_cg_t *cg, unsigned dreg, int breg)
{
	dreg &= DIF_DIR_NREGS - 1;
	if (dreg != 0)
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, breg,
		    DT_FP_REG(dreg)));
}

void
dt_bpf_cg_saddr(dt_bpf_cg_t *cg, int breg, uint32_t off)
{
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, breg, DT_R7, DT_SC_SBASE));
	if (off != 0)
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, breg, (int32_t) off));
}

void
dt_bpf_cg_gaddr(dt_bpf_cg_t *cg, int breg, uint32_t off)
{
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, breg, DT_R7, DT_SC_GBASE));
	if (off != 0)
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, breg, (int32_t) off));
}

/* breg = the address of the string at offset off of consts. */
void
dt_bpf_cg_caddr(dt_bpf_cg_t *cg, int breg, uint32_t off)
{
	dt_bpf_cg_gaddr(cg, breg, cg->cg_lay->bl_consts_off + off);
}

void
dt_bpf_cg_ptr2num(dt_bpf_cg_t *cg, int breg)
{
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, breg, DT_SC_LEAK));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, breg, DT_R7, DT_SC_LEAK));
}

/*
 * r1 = the firing's timestamp, read from the clock the first time a
 * firing needs it (a record header, a fault, timestamp): most clauses
 * that only aggregate never pay for the clock.  Clobbers r0-r5.
 */
void
dt_bpf_cg_timestamp(dt_bpf_cg_t *cg)
{
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_TS));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JNE, DT_R1, 0, 3));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_ktime_get_ns));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R0, DT_SC_TS));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
}

void
dt_bpf_cg_map_update(dt_bpf_cg_t *cg, int fd, uint32_t keyoff,
    uint32_t valoff, int32_t flags)
{
	dt_bpf_emit_map_fd(cg->cg_b, DT_R1, fd);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, (int32_t) keyoff));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R3, (int32_t) valoff));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, flags));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_map_update_elem));
}

void
dt_bpf_cg_counter(dt_bpf_cg_t *cg, int which)
{
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 1));
	DT_EMIT(cg, DT_BPF_INSN(BPF_STX | BPF_DW | DT_BPF_ATOMIC, DT_R8, DT_R1,
	    (int16_t) (cg->cg_lay->bl_cnt_off + 8 * which), BPF_ADD));
}

void
dt_bpf_cg_zero(dt_bpf_cg_t *cg, uint32_t off, uint32_t len)
{
	len = (len + 7) & ~7U;
	if (len <= 128) {
		for (uint32_t i = 0; i < len; i += 8)
			DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7,
			    (int16_t) (off + i), 0));
		return;
	}
	/* One copy from the zero block of the state map. */
	while (len > 0) {
		uint32_t n = len > cg->cg_lay->bl_zero_size ?
		    cg->cg_lay->bl_zero_size : len;

		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, (int32_t) off));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, (int32_t) n));
		dt_bpf_cg_gaddr(cg, DT_R3, cg->cg_lay->bl_zero_off);
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_kernel));
		off += n;
		len -= n;
	}
}

/*
 * Faults.  Each place that can fault jumps to a stub placed after the
 * clause's code; the stub notes the fault and goes to the handler.
 */

typedef struct dt_bpf_cg_stub {
	uint32_t st_label;
	int st_kind;
	int st_addr_dreg;	/* DIF register with the address, or -1 */
	int st_addr_slot;	/* stack slot with it, or 0 */
	int32_t st_offset;	/* DIF offset, or -1 */
	uint32_t st_action;
} dt_bpf_cg_stub_t;

typedef struct dt_bpf_cg_stubs {
	dt_bpf_cg_stub_t *ss_v;
	uint32_t ss_n;
	uint32_t ss_cap;
} dt_bpf_cg_stubs_t;

static void
dt_bpf_cg_add_stub(dt_bpf_cg_t *cg, uint32_t label, int kind, int dreg, int slot,
    int32_t offset)
{
	dt_bpf_cg_stubs_t *ss = cg->cg_stubs;
	dt_bpf_cg_stub_t *st;

	if (ss->ss_n == ss->ss_cap) {
		uint32_t cap = ss->ss_cap ? ss->ss_cap * 2 : 32;

		if ((st = realloc(ss->ss_v, cap * sizeof (*st))) == NULL) {
			dt_bpf_cg_error(cg, "out of memory");
			return;
		}
		ss->ss_v = st;
		ss->ss_cap = cap;
	}
	st = &ss->ss_v[ss->ss_n++];
	st->st_label = label;
	st->st_kind = kind;
	st->st_addr_dreg = dreg;
	st->st_addr_slot = slot;
	st->st_offset = offset;
	st->st_action = cg->cg_action;
}

static int32_t
dt_bpf_cg_offset(const dt_bpf_cg_t *cg)
{
	return cg->cg_difo != NULL ? (int32_t) (cg->cg_pc * 4) : -1;
}

void
dt_bpf_cg_fault_if(dt_bpf_cg_t *cg, int op, int breg, int32_t imm, int kind,
    int addr_dreg)
{
	uint32_t l = dt_bpf_label_new(cg->cg_b);

	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(op, breg, imm, 0), l);
	dt_bpf_cg_add_stub(cg, l, kind, addr_dreg, 0, dt_bpf_cg_offset(cg));
}

void
dt_bpf_cg_fault_if_slot(dt_bpf_cg_t *cg, int op, int breg, int32_t imm, int kind,
    int addr_slot)
{
	uint32_t l = dt_bpf_label_new(cg->cg_b);

	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(op, breg, imm, 0), l);
	dt_bpf_cg_add_stub(cg, l, kind, -1, addr_slot, dt_bpf_cg_offset(cg));
}

void
dt_bpf_cg_fault(dt_bpf_cg_t *cg, int kind, int addr_slot)
{
	uint32_t l = dt_bpf_label_new(cg->cg_b);

	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), l);
	dt_bpf_cg_add_stub(cg, l, kind, -1, addr_slot, dt_bpf_cg_offset(cg));
}

void
dt_bpf_cg_fault_reg(dt_bpf_cg_t *cg, int kind, int addr_dreg)
{
	uint32_t l = dt_bpf_label_new(cg->cg_b);

	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), l);
	dt_bpf_cg_add_stub(cg, l, kind, addr_dreg, 0, dt_bpf_cg_offset(cg));
}

static void
dt_bpf_cg_emit_stubs(dt_bpf_cg_t *cg)
{
	dt_bpf_cg_stubs_t *ss = cg->cg_stubs;

	for (uint32_t i = 0; i < ss->ss_n; i++) {
		const dt_bpf_cg_stub_t *st = &ss->ss_v[i];

		dt_bpf_label_here(cg->cg_b, st->st_label);
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_SC_FKIND,
		    st->st_kind));
		if (st->st_addr_dreg >= 0) {
			dt_bpf_cg_ldreg(cg, DT_R1, (unsigned) st->st_addr_dreg);
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
			    DT_SC_FADDR));
		} else if (st->st_addr_slot != 0) {
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP,
			    st->st_addr_slot));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
			    DT_SC_FADDR));
		} else {
			DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_SC_FADDR,
			    0));
		}
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_SC_FOFF,
		    st->st_offset));
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_SC_FACT,
		    (int32_t) st->st_action));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), cg->cg_lfault);
	}
	ss->ss_n = 0;
}

/*
 * DIF scratch.
 */

void
dt_bpf_cg_dsptr(dt_bpf_cg_t *cg, int breg, int offslot)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;

	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, breg, DT_FP, offslot));
	/* Re-bound it: the verifier must see offset <= dscratch size. */
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLE, breg,
	    (int32_t) lay->bl_dscratch_size, 1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(breg, 0));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, breg, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, breg,
	    (int32_t) lay->bl_dscratch_off));
}

void
dt_bpf_cg_alloc(dt_bpf_cg_t *cg, int sizeslot, uint32_t size, int offslot)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	uint32_t ds = lay->bl_dscratch_size;

	/* used = (used + 7) & ~7; size <= ds && used <= ds - size */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_USED));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R1, -8));
	if (sizeslot != 0)
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, sizeslot));
	else
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, (int32_t) size));
	dt_bpf_cg_fault_if(cg, BPF_JGT, DT_R2, (int32_t) ds, DIF_FLT_NOSCRATCH,
	    -1);
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R3, (int32_t) ds));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R3, DT_R2));
	{
		uint32_t l = dt_bpf_label_new(cg->cg_b);

		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JGT, DT_R1,
		    DT_R3, 0), l);
		dt_bpf_cg_add_stub(cg, l, DIF_FLT_NOSCRATCH, -1, 0,
		    dt_bpf_cg_offset(cg));
	}
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, offslot));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R1));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R3, DT_R2));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R3, DT_SC_USED));
	/* Zero it: copy size bytes of the state map's zero block. */
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R2, DT_FP_T4));
	dt_bpf_cg_dsptr(cg, DT_R1, offslot);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, DT_FP_T4));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLE, DT_R2, (int32_t) ds, 1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, 0));
	dt_bpf_cg_gaddr(cg, DT_R3, lay->bl_zero_off);
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_kernel));
}

/*
 * Clauses and programs.
 */

/*
 * Whether every clause's EPID is a constant of the program: a program of
 * one probe, each of whose clauses is enabled.  (A group program's come
 * from its table, per probe.)
 */
static bool
dt_bpf_epids_const(const dt_bpf_progspec_t *ps)
{
	if (ps->ps_table_fd >= 0)
		return false;
	for (uint32_t j = 0; j < ps->ps_nclauses; j++) {
		if (ps->ps_epids[j] == 0)
			return false;
	}
	return true;
}

/*
 * Sends the size bytes of the record buffer to the consumer: into the
 * ring buffer, or without one (DT_LF_RINGBUF) into this CPU's perf
 * buffer, with the program's context (r6) as bpf_perf_event_output()
 * wants it.  Either way a full buffer is a drop on this CPU.
 */
static void
dt_bpf_cg_output(dt_bpf_cg_t *cg, uint32_t size)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	uint32_t lok = dt_bpf_label_new(cg->cg_b);

	if (lay->bl_perfbuf) {
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R6));
		dt_bpf_emit_map_fd(cg->cg_b, DT_R2, lay->bl_rb_fd);
		/* BPF_F_CURRENT_CPU, zero-extended: no other flag bits */
		DT_EMIT(cg, DT_BPF_MOV32_IMM(DT_R3, -1));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R4, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R4,
		    (int32_t) lay->bl_rec_off));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R5, (int32_t) size));
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_perf_event_output));
	} else {
		dt_bpf_emit_map_fd(cg->cg_b, DT_R1, lay->bl_rb_fd);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2,
		    (int32_t) lay->bl_rec_off));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R3, (int32_t) size));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, 0));
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_ringbuf_output));
	}
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R0, 0, 0), lok);
	dt_bpf_cg_cpudrop(cg, DT_BPF_CNT_DROPS);
	dt_bpf_label_here(cg->cg_b, lok);
}

static void
dt_bpf_cg_fault_handler(dt_bpf_cg_t *cg, uint32_t lnext)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	uint32_t r = lay->bl_rec_off;
	uint32_t size = DT_BPF_RECPREFIX + sizeof (dt_rechdr_t) +
	    sizeof (dt_faultrec_t);

	dt_bpf_label_here(cg->cg_b, cg->cg_lfault);
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_smp_processor_id));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R0, (int16_t) r));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_W, DT_R7, (int16_t) (r + 8),
	    (int32_t) DT_EPID_FAULT));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_W, DT_R7, (int16_t) (r + 12),
	    sizeof (dt_faultrec_t)));
	dt_bpf_cg_timestamp(cg);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, (int16_t) (r + 16)));
	r += DT_BPF_RECPREFIX + sizeof (dt_rechdr_t);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_EPID));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_W, DT_R7, DT_R1, (int16_t) r));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_FACT));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_W, DT_R7, DT_R1, (int16_t) (r + 4)));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_FOFF));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_W, DT_R7, DT_R1, (int16_t) (r + 8)));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_FKIND));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_W, DT_R7, DT_R1, (int16_t) (r + 12)));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_FADDR));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, (int16_t) (r + 16)));
	dt_bpf_cg_counter(cg, DT_BPF_CNT_ERRORS);
	dt_bpf_cg_output(cg, size);
	/*
	 * Then the ERROR probe fires in this context, unless the fault was
	 * in an ERROR clause: DTrace drops those silently.
	 */
	if (!cg->cg_in_error && cg->cg_ps->ps_nerr > 0) {
		cg->cg_eret[cg->cg_clause] = lnext;
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_ERET,
		    (int32_t) cg->cg_clause));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), cg->cg_lerror);
		return;
	}
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lnext);
}

/*
 * stop(), raise(sig), chill(ns), in the probe context.  The argument of
 * raise() and chill() was stored in its record and is still in slot T0.
 *
 *	stop()		bpf_send_signal(SIGSTOP): the current process stops
 *			as it returns to user space
 *	raise(sig)	bpf_send_signal(sig), to the current process
 *	chill(ns)	a bpf_loop() whose callback returns once
 *			bpf_ktime_get_ns() has passed the deadline: at most
 *			500 ms per call (DTrace's bound, checked per call
 *			here, not per second), and at most bpf_loop()'s
 *			2^23 iterations
 *
 * An invalid signal or a chill() over the bound is an illegal operation,
 * as in DTrace; a signal the kernel cannot send from this context (an
 * error from the helper) likewise.
 */
static void
dt_bpf_cg_destructive(dt_bpf_cg_t *cg, const dt_action_t *ap, bool rec)
{
	uint32_t lcb, ldone;

	if (ap->ac_kind != DT_ACT_STOP && !rec) {
		dt_bpf_cg_error(cg, "internal error: %s( ) without a record",
		    ap->ac_kind == DT_ACT_RAISE ? "raise" : "chill");
		return;
	}
	switch (ap->ac_kind) {
	case DT_ACT_STOP:
	case DT_ACT_RAISE:
		if (ap->ac_kind == DT_ACT_STOP) {
			DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, SIGSTOP));
		} else {
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP,
			    DT_FP_T0));
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R1, 32));
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ARSH, DT_R1, 32));
			dt_bpf_cg_fault_if(cg, BPF_JSLE, DT_R1, 0,
			    DIF_FLT_ILLOP, -1);
			dt_bpf_cg_fault_if(cg, BPF_JSGT, DT_R1, 64,
			    DIF_FLT_ILLOP, -1);
		}
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_send_signal));
		dt_bpf_cg_fault_if(cg, BPF_JNE, DT_R0, 0, DIF_FLT_ILLOP, -1);
		return;
	default:
		break;
	}
	if (!cg->cg_bpf_loop) {
		dt_bpf_cg_error(cg, "chill() is unavailable: this kernel has "
		    "no bpf_loop() helper to spin with");
		return;
	}
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_T0));
	dt_bpf_cg_fault_if(cg, BPF_JGT, DT_R1, 500000000, DIF_FLT_ILLOP, -1);
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_ktime_get_ns));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_T0));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R0, DT_R1));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R0, DT_FP_T1));
	lcb = dt_bpf_label_new(cg->cg_b);
	ldone = dt_bpf_label_new(cg->cg_b);
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 1 << 23));
	dt_bpf_emit_func_addr(cg->cg_b, DT_R2, lcb);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_FP));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R3, DT_FP_T1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, 0));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_loop));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);

	/* The callback: r2 is the deadline's address; 1 stops the loop. */
	dt_bpf_func_begin(cg->cg_b);
	dt_bpf_label_here(cg->cg_b, lcb);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R6, DT_R2));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_ktime_get_ns));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6, 0));
	DT_EMIT(cg, DT_BPF_JMP_REG(BPF_JGE, DT_R0, DT_R1, 2));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R0, 0));
	DT_EMIT(cg, DT_BPF_EXIT());
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R0, 1));
	DT_EMIT(cg, DT_BPF_EXIT());
	dt_bpf_func_end(cg->cg_b);
	dt_bpf_label_here(cg->cg_b, ldone);
}

static void
dt_bpf_cg_clause(dt_bpf_cg_t *cg, uint32_t j, const dt_stmt_t *stp)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	uint32_t lnext = dt_bpf_label_new(cg->cg_b);
	uint32_t data = lay->bl_rec_off + DT_BPF_RECPREFIX +
	    sizeof (dt_rechdr_t);
	bool rec = stp->st_nactions == 0 || stp->st_size > 0;
	dt_bpf_cg_stubs_t stubs = { NULL, 0, 0 };

	cg->cg_stubs = &stubs;
	cg->cg_clause = j;
	cg->cg_lfault = dt_bpf_label_new(cg->cg_b);
	cg->cg_lnext = lnext;
	cg->cg_has_lnext = true;

	if (cg->cg_in_error) {
		/* The ERROR probe's clauses all run: EPIDs are constants. */
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_SC_EPID,
		    (int32_t) cg->cg_ps->ps_err_epids[j]));
	} else if (dt_bpf_epids_const(cg->cg_ps)) {
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_SC_EPID,
		    (int32_t) cg->cg_ps->ps_epids[j]));
	} else {
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_W, DT_R1, DT_R7,
		    (int16_t) (lay->bl_epids_off + 4 * j)));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 0,
		    0), lnext);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_SC_EPID));
	}
	if (!cg->cg_ps->ps_always && !cg->cg_in_error && j > 0) {
		/* exit() in an earlier clause stops this one. */
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R8,
		    (int16_t) (lay->bl_cnt_off + 8 * DT_BPF_CNT_EXITED)));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R1, 0, 0),
		    lnext);
	}
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_SC_USED, 0));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_SC_AUSED, 0));

	cg->cg_action = 0;
	if (stp->st_pred != NULL) {
		dt_bpf_cg_difo(cg, stp->st_pred);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R0, 0, 0),
		    lnext);
	}
	if (rec) {
		uint32_t r = lay->bl_rec_off;

		dt_bpf_cg_zero(cg, data, stp->st_size);
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_smp_processor_id));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R0, (int16_t) r));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_EPID));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_W, DT_R7, DT_R1,
		    (int16_t) (r + 8)));
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_W, DT_R7, (int16_t) (r + 12),
		    (int32_t) stp->st_size));
		dt_bpf_cg_timestamp(cg);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
		    (int16_t) (r + 16)));
	}
	for (uint32_t a = 0; a < stp->st_nactions && !cg->cg_failed; a++) {
		const dt_action_t *ap = &stp->st_actions[a];

		cg->cg_action = a + 1;
		if (ap->ac_kind == DT_ACT_AGGREGATE) {
			dt_bpf_cg_aggregate(cg, ap);
			continue;
		}
		for (uint32_t i = 0; i < ap->ac_nargs; i++) {
			const dt_actarg_t *aa = &ap->ac_args[i];

			if (aa->aa_difo == NULL)
				continue;
			bool spec = ap->ac_kind == DT_ACT_SPECULATE ||
			    ap->ac_kind == DT_ACT_COMMIT ||
			    ap->ac_kind == DT_ACT_DISCARD;

			if (aa->aa_rec.rd_type == DT_REC_NONE || !rec) {
				dt_bpf_cg_difo(cg, aa->aa_difo);
				if (spec)
					dt_bpf_cg_spec_action(cg, ap->ac_kind,
					    sizeof (dt_rechdr_t) + stp->st_size,
					    lnext);
				continue;
			}
			if (aa->aa_rec.rd_offset + aa->aa_rec.rd_size >
			    stp->st_size) {
				dt_bpf_cg_error(cg, "record outside the clause's "
				    "data");
				break;
			}
			if (!spec) {
				dt_bpf_cg_difo_rec(cg, aa->aa_difo, &aa->aa_rec,
				    data);
				continue;
			}
			/* The ID decides where the record goes, then is kept. */
			dt_bpf_cg_difo(cg, aa->aa_difo);
			dt_bpf_cg_spec_action(cg, ap->ac_kind,
			    sizeof (dt_rechdr_t) + stp->st_size, lnext);
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R0, DT_FP_T0));
			dt_bpf_cg_store_rec(cg, &aa->aa_rec, data);
		}
		if (ap->ac_kind == DT_ACT_EXIT)
			DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R8,
			    (int16_t) (lay->bl_cnt_off + 8 * DT_BPF_CNT_EXITED),
			    1));
		if (ap->ac_kind == DT_ACT_STOP || ap->ac_kind == DT_ACT_RAISE ||
		    ap->ac_kind == DT_ACT_CHILL)
			dt_bpf_cg_destructive(cg, ap, rec);
	}
	if (rec)
		dt_bpf_cg_output(cg, DT_BPF_RECPREFIX + sizeof (dt_rechdr_t) +
		    stp->st_size);
	if (stubs.ss_n > 0) {
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lnext);
		dt_bpf_cg_emit_stubs(cg);
		dt_bpf_cg_fault_handler(cg, lnext);
	}
	dt_bpf_label_here(cg->cg_b, lnext);
	free(stubs.ss_v);
	cg->cg_stubs = NULL;
	cg->cg_has_lnext = false;
}

/* r0 = lookup(fd, key 0) with the key on the stack; exit when NULL. */
static void
dt_bpf_cg_lookup0(dt_bpf_cg_t *cg, int fd, uint32_t lexit)
{
	dt_bpf_emit_map_fd(cg->cg_b, DT_R1, fd);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_FP));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, DT_FP_KEY));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_map_lookup_elem));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R0, 0, 0), lexit);
}


/*
 * tick-N, on each CPU its event runs on: go on only if this firing takes
 * the period.  The due time keeps the cadence (next = due + period) while
 * firings come in time, and starts again from now after a period with
 * none at all; it is set an eighth of a period early, so that timer
 * jitter does not make a firing early.  The first CPU's timer fires the
 * probe; the others' (DT_BPF_TICK_STANDBY_EVERY) only once the period is
 * DT_BPF_TICK_STANDBY overdue, a quarter period within 200-500 ms (that
 * CPU skipped its events): so the firings, and what they record, come
 * from one CPU and in order while it keeps up, and another takes over
 * when it has fallen well behind.  The consumer's stand-in (a raw_tp
 * program) fires whenever it finds the period due: it runs only when the
 * period is long overdue.
 */
static void
dt_bpf_cg_tick_due(dt_bpf_cg_t *cg, uint32_t lexit)
{
	const dt_bpf_progspec_t *ps = cg->cg_ps;
	uint64_t period = ps->ps_tick_period;
	uint32_t lfirst = dt_bpf_label_new(cg->cg_b);
	uint32_t llate = dt_bpf_label_new(cg->cg_b);
	uint32_t lswap = dt_bpf_label_new(cg->cg_b);

	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_smp_processor_id));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R9, DT_R0));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_ktime_get_ns));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R0));
	DT_EMIT(cg, DT_BPF_LD_IMM64_LO(DT_R1, BPF_PSEUDO_MAP_VALUE,
	    ps->ps_tick_fd));
	DT_EMIT(cg, DT_BPF_LD_IMM64_HI(0));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R0, DT_R1, 0));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JLT, DT_R3, DT_R0, 0),
	    lexit);
	dt_bpf_emit_imm64(cg->cg_b, DT_R5, period);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R3));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R2, DT_R0));
	/*
	 * Without compare-and-exchange (before 5.12) two CPUs could both
	 * take a period: only the first CPU's timer fires the probe, and
	 * the stand-in when it is long due.
	 */
	if (ps->ps_ctx != DT_BPF_CTX_RAWTP && !cg->cg_fetch)
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R9,
		    (int32_t) ps->ps_tick_cpu, 0), lexit);
	if (ps->ps_ctx != DT_BPF_CTX_RAWTP && cg->cg_fetch) {
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R9,
		    (int32_t) ps->ps_tick_cpu, 0), lfirst);
		/* Before the first firing, the stand-in stands in. */
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R0, 0,
		    0), lexit);
		dt_bpf_emit_imm64(cg->cg_b, DT_R4, DT_BPF_TICK_STANDBY(period));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JLT, DT_R2,
		    DT_R4, 0), lexit);
	}
	dt_bpf_label_here(cg->cg_b, lfirst);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JGE, DT_R2, DT_R5, 0),
	    llate);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R0));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R2, DT_R5));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lswap);
	dt_bpf_label_here(cg->cg_b, llate);
	dt_bpf_emit_imm64(cg->cg_b, DT_R2, period - period / 8);
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R2, DT_R3));
	dt_bpf_label_here(cg->cg_b, lswap);
	if (!cg->cg_fetch) {
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R1, DT_R2, 0));
		return;
	}
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R4, DT_R0));
	DT_BPF_CG_CMPXCHG(cg, DT_R1, DT_R2);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JNE, DT_R0, DT_R4, 0),
	    lexit);
}

static void
dt_bpf_cg_prologue(dt_bpf_cg_t *cg, uint32_t lexit)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	const dt_bpf_progspec_t *ps = cg->cg_ps;
	bool args;

	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R6, DT_R1));
	/*
	 * A uprobe runs for every process mapping the file that some event
	 * asked for: keep the target's firings only -- with followfork, those
	 * of the processes running the image the probe was resolved in.
	 */
	if (ps->ps_ufollow) {
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_pid_tgid));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R0, 32));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_W, DT_FP, DT_R0, DT_FP_KEY));
		dt_bpf_cg_lookup0(cg, ps->ps_procset_fd, lexit);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R0, 0));
		dt_bpf_emit_imm64(cg->cg_b, DT_R2, (uint64_t) ps->ps_ugen <<
		    32 | ps->ps_upid);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JNE, DT_R1,
		    DT_R2, 0), lexit);
	} else if (ps->ps_upid != 0) {
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_pid_tgid));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R0, 32));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R0,
		    (int32_t) ps->ps_upid, 0), lexit);
	}
	if (ps->ps_nuconds > 0)
		dt_bpf_cg_ucond(cg, lexit);
	if (lay->bl_scratch_shared) {
		/* A firing stays on its CPU: the entry is its own. */
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_smp_processor_id));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_W, DT_FP, DT_R0, DT_FP_KEY));
	} else {
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_W, DT_FP, DT_FP_KEY, 0));
	}
	dt_bpf_cg_lookup0(cg, lay->bl_scratch_fd, lexit);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R7, DT_R0));
	/* The state map's one value, by address: no lookup (kernel 5.2). */
	DT_EMIT(cg, DT_BPF_LD_IMM64_LO(DT_R8, BPF_PSEUDO_MAP_VALUE,
	    lay->bl_state_fd));
	DT_EMIT(cg, DT_BPF_LD_IMM64_HI(0));
	if (!ps->ps_always) {
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R8,
		    (int16_t) (lay->bl_cnt_off + 8 * DT_BPF_CNT_EXITED)));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JNE, DT_R1, 0, 0),
		    lexit);
	}
	/* No probe before BEGIN, nor before every probe is attached. */
	if (!ps->ps_always && !ps->ps_begin) {
		DT_EMIT(cg,
		    DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R8,
			(int16_t) (lay->bl_cnt_off + 8 * DT_BPF_CNT_STARTED)));
		dt_bpf_jmp_label(
		    cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 0, 0), lexit);
	}
	if (ps->ps_tick_fd >= 0)
		dt_bpf_cg_tick_due(cg, lexit);
	/*
	 * The map values' addresses as numbers: DIF addresses.  They never
	 * change while the maps live, so each CPU's scratch (zeroed when
	 * the map was made) keeps them from its first firing on.
	 */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_SBASE));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JNE, DT_R1, 0, 8));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
	dt_bpf_cg_ptr2num(cg, DT_R1);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_SC_SBASE));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R8));
	dt_bpf_cg_ptr2num(cg, DT_R1);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_SC_GBASE));
	/* strtok(NULL, ...) continues only within one firing. */
	if (lay->bl_strtok)
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7,
		    (int16_t) lay->bl_strtok_off, 0));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_CCA, 0));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_CCB, 0));

	/* The probe: from the table (groups) or constants. */
	if (ps->ps_table_fd >= 0) {
		static const int16_t names[][2] = {
			{ offsetof(dt_bpf_ptab_t, pt_mod), DT_SC_MOD },
			{ offsetof(dt_bpf_ptab_t, pt_func), DT_SC_FUNC },
			{ offsetof(dt_bpf_ptab_t, pt_name), DT_SC_NAME },
		};

		if (ps->ps_table_cookie) {
			DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R6));
			DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_attach_cookie));
			DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
			if (ps->ps_ucookieoff) {
				/* The site's offset above, the index below */
				DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R1,
				    32));
				DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
				    DT_SC_UFUNC));
				DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
				DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R1,
				    32));
				DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R1,
				    32));
			}
		} else {
			/* raw_syscalls: the system call's number */
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6,
			    ps->ps_sys_nroff));
		}
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGE, DT_R1,
		    (int32_t) ps->ps_table_max, 0), lexit);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_W, DT_FP, DT_R1, DT_FP_KEY));
		dt_bpf_cg_lookup0(cg, ps->ps_table_fd, lexit);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R9, DT_R0));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_W, DT_R1, DT_R9, 0));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 0, 0),
		    lexit);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_SC_ID));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_W, DT_R1, DT_R9, 4));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T3));
		for (size_t k = 0; k < sizeof (names) / sizeof (names[0]); k++) {
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_W, DT_R2, DT_R9,
			    names[k][0]));
			dt_bpf_cg_caddr(cg, DT_R1, 0);
			DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R2));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
			    names[k][1]));
		}
		if (!ps->ps_ucookieoff) {
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R9,
			    offsetof(dt_bpf_ptab_t, pt_ufunc)));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
			    DT_SC_UFUNC));
		}
		for (uint32_t j = 0; j < ps->ps_nclauses; j++) {
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_W, DT_R1, DT_R9,
			    (int16_t) (offsetof(dt_bpf_ptab_t, pt_epids) +
				4 * j)));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_W, DT_R7, DT_R1,
			    (int16_t) (lay->bl_epids_off + 4 * j)));
		}
	} else {
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_SC_ID,
		    (int32_t) ps->ps_id));
		if (dt_bpf_prog_reads_args(ps))
			DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_T3,
			    ps->ps_nargs));
		/* (constants in each clause, unless one is 0) */
		for (uint32_t j = 0; !dt_bpf_epids_const(ps) &&
		    j < ps->ps_nclauses; j++)
			DT_EMIT(cg, DT_BPF_ST_MEM(BPF_W, DT_R7,
			    (int16_t) (lay->bl_epids_off + 4 * j),
			    (int32_t) ps->ps_epids[j]));
	}

	/* Read when first needed: see dt_bpf_cg_timestamp(). */
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_SC_TS, 0));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_SC_ERRNO, 0));

	/* Arguments, unless no clause here can read them. */
	args = dt_bpf_prog_reads_args(ps);
	switch (ps->ps_ctx) {
	case DT_BPF_CTX_RAWTP:
		for (int i = 0; i < DT_BPF_NARGS; i++) {
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6,
			    8 * i));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
			    (int16_t) (DT_SC_ARGS + 8 * i)));
		}
		break;
	case DT_BPF_CTX_SYSCALL_ENTRY:
		if (!args)
			break;
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, DT_FP_T3));
		for (int i = 0; i < DT_BPF_NARGS; i++) {
			int16_t o = (int16_t) (DT_SC_ARGS + 8 * i);

			DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, o, 0));
			if (i >= 6 ||
			    (ps->ps_table_fd < 0 && i >= ps->ps_nargs))
				continue;
			DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLE, DT_R2, i, 2));
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6,
			    (int16_t) (ps->ps_sys_argoff + 8 * i)));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, o));
		}
		break;
	case DT_BPF_CTX_SYSCALL_RETURN:
		/*
		 * arg0 = arg1 = the return value; a failure (-4095..-1, the
		 * kernel's -errno) is -1 with errno set, as in DTrace.
		 */
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6,
		    ps->ps_sys_argoff));
		for (int i = 0; args && i < DT_BPF_NARGS; i++)
			DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7,
			    (int16_t) (DT_SC_ARGS + 8 * i), 0));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R1));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, 4095));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JGT, DT_R2, 4094, 3));
		DT_EMIT(cg, DT_BPF_NEG64(DT_R1));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_SC_ERRNO));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, -1));
		if (args) {
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
			    DT_SC_ARGS));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
			    DT_SC_ARGS + 8));
		}
		break;
	case DT_BPF_CTX_PERF:
		if (!args)
			break;
		/* arg0 the kernel's pc, arg1 the user's: pt_regs says which. */
		for (int i = 0; i < DT_BPF_NARGS; i++)
			DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7,
			    (int16_t) (DT_SC_ARGS + 8 * i), 0));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6,
		    dt_isa_layout.il_pc));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R6,
		    dt_isa_layout.il_mode));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R2,
		    dt_isa_layout.il_modemask));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JEQ, DT_R2,
		    dt_isa_layout.il_modeuser, 2));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_SC_ARGS));
		DT_EMIT(cg, DT_BPF_JA(1));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
		    DT_SC_ARGS + 8));
		break;
	case DT_BPF_CTX_UPROBE:
	case DT_BPF_CTX_URETURN: {
		const dt_isa_layout_t *il = &dt_isa_layout;
		bool ret = ps->ps_ctx == DT_BPF_CTX_URETURN;

		for (int i = 0; i < DT_BPF_NARGS; i++) {
			int16_t o = (int16_t) (DT_SC_ARGS + 8 * i);

			/*
			 * An argument no clause reads is neither read nor
			 * zeroed: a pid probe counting calls copies no
			 * register (a return's arg0 and arg1 are set below).
			 */
			if (i >= (int) cg->cg_lay->bl_nargs)
				continue;
			if (ret || i >= il->il_nargs) {
				DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, o, 0));
				if (ret)
					continue;
				/*
				 * Past the argument registers, as DTrace
				 * reads them: the stack words the ISA's
				 * calling convention puts them in, from the
				 * stack pointer (0 if unreadable).
				 */
				DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
				DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, o));
				DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, 8));
				DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R6,
				    il->il_sp));
				DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R3,
				    il->il_stackargs +
				    8 * (i - il->il_nargs)));
				DT_EMIT(cg, DT_BPF_CALL(
				    BPF_FUNC_probe_read_user));
				continue;
			}
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6,
			    il->il_args[i]));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, o));
		}
		if (ret && ps->ps_ucookieoff) {
			/* The site's offset in the function, from the cookie */
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7,
			    DT_SC_UFUNC));
		} else if (ret) {
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6,
			    il->il_pc));
			if (ps->ps_table_fd >= 0)
				DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7,
				    DT_SC_UFUNC));
			else
				dt_bpf_emit_imm64(cg->cg_b, DT_R2,
				    ps->ps_ufunc);
			DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R1, DT_R2));
		}
		if (ret) {
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
			    DT_SC_ARGS));
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6,
			    il->il_ret));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
			    DT_SC_ARGS + 8));
		}
		break;
	}
	case DT_BPF_CTX_KTP:
	case DT_BPF_CTX_KRAWTP:
	case DT_BPF_CTX_FBT:
		if (!args && !dt_kevent_filtered(ps->ps_kevent))
			break;
		dt_bpf_cg_kevent_args(cg, ps->ps_kevent);
		dt_bpf_cg_kevent_filter(cg, ps->ps_kevent, lexit);
		break;
	case DT_BPF_CTX_USDT:
		if (!args)
			break;
		for (int i = 0; i < DT_BPF_NARGS; i++)
			DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7,
			    (int16_t) (DT_SC_ARGS + 8 * i), 0));
		dt_bpf_cg_usdt(cg, ps);
		break;
	}

	/* Clause-locals start each firing cleared. */
	dt_bpf_cg_zero(cg, lay->bl_locals_off, lay->bl_locals_size);
}

/*
 * Copies len bytes (a multiple of 8) within scratch, from offset src to
 * offset dst, word by word or with one helper call for long runs.
 */
static void
dt_bpf_cg_scopy(dt_bpf_cg_t *cg, uint32_t dst, uint32_t src, uint32_t len)
{
	if (len <= 256) {
		for (uint32_t i = 0; i < len; i += 8) {
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7,
			    (int16_t) (src + i)));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
			    (int16_t) (dst + i)));
		}
		return;
	}
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, (int32_t) dst));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, (int32_t) len));
	dt_bpf_cg_saddr(cg, DT_R3, src);
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_kernel));
}

/*
 * The ERROR block: where a faulting clause's handler goes after its
 * fault record, as the interpreter fires ERROR from inside the firing.
 * It keeps the firing context and clause-locals aside, makes the
 * context ERROR's (arg1 EPID, arg2 action, arg3 DIF offset, arg4 fault
 * kind, arg5 address), runs the ERROR clauses with their own fresh
 * clause-locals, puts everything back and returns to the clause after
 * the one that faulted (its index in the DT_FP_ERET slot, a constant on
 * each path, so the verifier follows one return per fault site).
 */
static void
dt_bpf_cg_error_block(dt_bpf_cg_t *cg, uint32_t lexit)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	const dt_bpf_progspec_t *ps = cg->cg_ps;
	uint32_t ctxlen = DT_SC_FKIND - DT_SC_TS;
	static const int32_t fargs[] = { DT_SC_EPID, DT_SC_FACT, DT_SC_FOFF,
	    DT_SC_FKIND, DT_SC_FADDR };
	bool used = false;

	for (uint32_t j = 0; j < ps->ps_nclauses; j++)
		used |= cg->cg_eret[j] != UINT32_MAX;
	if (!used)
		return;
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lexit);
	dt_bpf_label_here(cg->cg_b, cg->cg_lerror);
	dt_bpf_cg_scopy(cg, lay->bl_esave_off, DT_SC_TS, ctxlen);
	dt_bpf_cg_scopy(cg, lay->bl_lsave_off, lay->bl_locals_off,
	    lay->bl_locals_size);
	dt_bpf_cg_zero(cg, lay->bl_locals_off, lay->bl_locals_size);

	for (int i = 0; i < DT_BPF_NARGS; i++) {
		int16_t o = (int16_t) (DT_SC_ARGS + 8 * i);

		if (i >= 1 && i <= 5) {
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7,
			    (int16_t) fargs[i - 1]));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, o));
		} else {
			DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, o, 0));
		}
	}
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_SC_ID,
	    (int32_t) ps->ps_err_id));
	/* Probe names are constants: see dt_bpf_cg_builtin(). */
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7, DT_SC_ERRNO, 0));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_ktime_get_ns));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R0, DT_SC_TS));

	cg->cg_in_error = true;
	for (uint32_t j = 0; j < ps->ps_nerr && !cg->cg_failed; j++)
		dt_bpf_cg_clause(cg, j, ps->ps_err_stmts[j]);
	cg->cg_in_error = false;

	dt_bpf_cg_scopy(cg, DT_SC_TS, lay->bl_esave_off, ctxlen);
	dt_bpf_cg_scopy(cg, lay->bl_locals_off, lay->bl_lsave_off,
	    lay->bl_locals_size);
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_ERET));
	for (uint32_t j = 0; j < ps->ps_nclauses; j++) {
		if (cg->cg_eret[j] != UINT32_MAX)
			dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1,
			    (int32_t) j, 0), cg->cg_eret[j]);
	}
}

int
dt_bpf_gen(const dt_bpf_layout_t *lay, const dt_bpf_progspec_t *ps,
    dt_bpf_buf_t *b, char *errbuf, size_t errlen)
{
	dt_bpf_cg_t cg;
	uint32_t lexit;
	int err;

	memset(&cg, 0, sizeof (cg));
	cg.cg_b = b;
	cg.cg_lay = lay;
	cg.cg_ps = ps;
	cg.cg_err = errbuf;
	cg.cg_errlen = errlen;
	cg.cg_bpf_loop = dt_linux_feature(DT_LF_BPF_LOOP);
	cg.cg_fetch = dt_linux_feature(DT_LF_ATOMIC_FETCH);
	if (ps->ps_nclauses > lay->bl_maxclauses) {
		snprintf(errbuf, errlen, "too many clauses for the layout");
		return -1;
	}
	lexit = dt_bpf_label_new(b);
	if (ps->ps_nerr > 0) {
		if ((cg.cg_eret = malloc((ps->ps_nclauses + 1) *
		    sizeof (uint32_t))) == NULL) {
			snprintf(errbuf, errlen, "out of memory");
			return -1;
		}
		for (uint32_t j = 0; j < ps->ps_nclauses; j++)
			cg.cg_eret[j] = UINT32_MAX;
		cg.cg_lerror = dt_bpf_label_new(b);
	}
	dt_bpf_cg_prologue(&cg, lexit);
	for (uint32_t j = 0; j < ps->ps_nclauses && !cg.cg_failed; j++)
		dt_bpf_cg_clause(&cg, j, ps->ps_stmts[j]);
	if (ps->ps_nerr > 0 && !cg.cg_failed)
		dt_bpf_cg_error_block(&cg, lexit);
	free(cg.cg_eret);
	dt_bpf_label_here(b, lexit);
	DT_EMIT(&cg, DT_BPF_MOV64_IMM(DT_R0, 0));
	DT_EMIT(&cg, DT_BPF_EXIT());
	if (cg.cg_failed)
		return -1;
	b->b_gotol = dt_linux_feature(DT_LF_GOTOL);
	if ((err = dt_bpf_buf_finish(b)) == ERANGE)
		snprintf(errbuf, errlen, "generating BPF: program too large "
		    "for this kernel: a jump spans more than 32767 "
		    "instructions and needs gotol (%s)",
		    dt_linux_feature_why(DT_LF_GOTOL));
	else if (err == E2BIG)
		snprintf(errbuf, errlen, "generating BPF: program too large: "
		    "more than %u instructions", DT_BPF_MAXPROG);
	else if (err != 0)
		snprintf(errbuf, errlen, "generating BPF: %s", strerror(err));
	if (err != 0)
		return -1;
	return 0;
}
