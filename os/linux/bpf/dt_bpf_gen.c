/*
 * dt_bpf_gen.c: the DIF to eBPF translator -- programs, clauses and DIF
 * instructions (the layout of the maps is in dt_bpf_layout.c, subroutines
 * in dt_bpf_subr.c, the probe arguments the prologue fills in
 * dt_bpf_args.c).
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
 * Memory access.
 */

/* Loads size bytes at the address in breg (r3) into T0 via a helper. */
static void
dt_bpf_cg_load(dt_bpf_cg_t *cg, unsigned r1, unsigned rd, int size, bool sgn,
    bool user)
{
	static const int bsz[] = { 0, BPF_B, BPF_H, 0, BPF_W, 0, 0, 0, BPF_DW };

	dt_bpf_cg_ldreg(cg, DT_R3, r1);
	if (size > 1) {
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R3));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R1, size - 1));
		dt_bpf_cg_fault_if(cg, BPF_JNE, DT_R1, 0, DIF_FLT_BADALIGN,
		    (int) r1);
	}
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_T0, 0));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_FP));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, DT_FP_T0));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, size));
	DT_EMIT(cg, DT_BPF_CALL(user ? BPF_FUNC_probe_read_user :
	    BPF_FUNC_probe_read_kernel));
	dt_bpf_cg_fault_if(cg, BPF_JNE, DT_R0, 0, DIF_FLT_BADADDR, (int) r1);
	DT_EMIT(cg, DT_BPF_LDX_MEM(bsz[size], DT_R1, DT_FP, DT_FP_T0));
	if (sgn && size < 8) {
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R1, 64 - 8 * size));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ARSH, DT_R1, 64 - 8 * size));
	}
	dt_bpf_cg_streg(cg, rd, DT_R1);
}

/*
 * A pointer (into r5) to len writable bytes at the address in r3, or a
 * fault: DIF may write to what its clause allocated of scratch, to
 * clause-locals (in the scratch map) and to global variables (in the
 * state map), as in the interpreter.
 * len is a constant, or a bounded register (lenreg >= 0, value <= maxlen).
 * r4 is clobbered; r3 and lenreg are kept.
 */
static void
dt_bpf_cg_wptr(dt_bpf_cg_t *cg, int lenreg, uint32_t len, uint32_t maxlen,
    int fault_dreg, int fault_slot)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	uint32_t lglob = dt_bpf_label_new(cg->cg_b);
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);
	uint32_t lbad = dt_bpf_label_new(cg->cg_b);
	uint32_t span = lay->bl_locals_size + lay->bl_dscratch_size;
	uint32_t gspan = lay->bl_globals_size;

	if (lenreg < 0)
		maxlen = len;
	/* off = addr - (scratch base + locals); off + len <= span */
	dt_bpf_cg_saddr(cg, DT_R4, lay->bl_locals_off);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R5, DT_R3));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R5, DT_R4));
	if (maxlen > span) {
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lglob);
	} else {
		/*
		 * With the length in a register, checked below against what
		 * is left, the start may lie anywhere in the span: the guard
		 * after DIF scratch (dt_bpf_layout.c) keeps start + maxlen
		 * inside the value for the verifier.
		 */
		uint32_t lim = lenreg >= 0 && maxlen <= lay->bl_dscratch_size ?
		    span : span - maxlen;

		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGT, DT_R5,
		    (int32_t) lim, 0), lglob);
		if (lenreg >= 0) {
			DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R4, DT_R5));
			DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R4, lenreg));
			dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGT,
			    DT_R4, (int32_t) span, 0), lbad);
		}
		/* In DIF scratch, only below DT_SC_USED (r4: the room). */
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLT, DT_R5,
		    (int32_t) lay->bl_locals_size, 4));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R4, DT_R7, DT_SC_USED));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R4,
		    (int32_t) lay->bl_locals_size));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R4, DT_R5));
		if (lenreg >= 0)
			dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JSGT,
			    lenreg, DT_R4, 0), lbad);
		else
			dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JSLT,
			    DT_R4, (int32_t) len, 0), lbad);
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R5, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R5,
		    (int32_t) lay->bl_locals_off));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
	}
	dt_bpf_label_here(cg->cg_b, lglob);
	if (maxlen > gspan || gspan == 0) {
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lbad);
	} else {
		dt_bpf_cg_gaddr(cg, DT_R4, lay->bl_globals_off);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R5, DT_R3));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R5, DT_R4));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGT, DT_R5,
		    (int32_t) (gspan - maxlen), 0), lbad);
		if (lenreg >= 0) {
			DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R4, DT_R5));
			DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R4, lenreg));
			dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JGT,
			    DT_R4, (int32_t) gspan, 0), lbad);
		}
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R5, DT_R8));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R5,
		    (int32_t) lay->bl_globals_off));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
	}
	dt_bpf_label_here(cg->cg_b, lbad);
	if (fault_dreg >= 0) {
		uint32_t l = dt_bpf_label_new(cg->cg_b);

		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), l);
		dt_bpf_cg_add_stub(cg, l, DIF_FLT_BADADDR, fault_dreg, 0,
		    dt_bpf_cg_offset(cg));
	} else {
		dt_bpf_cg_fault(cg, DIF_FLT_BADADDR, fault_slot);
	}
	dt_bpf_label_here(cg->cg_b, ldone);
}

static void
dt_bpf_cg_store(dt_bpf_cg_t *cg, unsigned r1, unsigned rd, int size)
{
	static const int bsz[] = { 0, BPF_B, BPF_H, 0, BPF_W, 0, 0, 0, BPF_DW };

	dt_bpf_cg_ldreg(cg, DT_R3, rd);
	if (size > 1) {
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R3));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R1, size - 1));
		dt_bpf_cg_fault_if(cg, BPF_JNE, DT_R1, 0, DIF_FLT_BADALIGN,
		    (int) rd);
	}
	dt_bpf_cg_wptr(cg, -1, (uint32_t) size, 0, (int) rd, 0);
	dt_bpf_cg_ldreg(cg, DT_R1, r1);
	DT_EMIT(cg, DT_BPF_STX_MEM(bsz[size], DT_R5, DT_R1, 0));
}

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
 * Variables.
 */

/* rd = address of a by-reference static (r8 or r7 + off), or NULL. */
static void
dt_bpf_cg_ldsvar(dt_bpf_cg_t *cg, const dt_bpf_var_t *bv, unsigned rd)
{
	int base = bv->bv_scope == DIFV_SCOPE_LOCAL ? DT_R7 : DT_R8;

	if (!bv->bv_byref) {
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, base,
		    (int16_t) bv->bv_off));
		dt_bpf_cg_streg(cg, rd, DT_R1);
		return;
	}
	/* The flag word says NULL; the bytes follow it. */
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, base, (int16_t) bv->bv_off));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JNE, DT_R2, 0, 2));
	if (base == DT_R7)
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_SBASE));
	else
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_GBASE));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, (int32_t) bv->bv_off +
	    8));
	dt_bpf_cg_streg(cg, rd, DT_R1);
}

/* Copies the value at the address in slot T0 into size bytes at
 * base + off (a string when str). */
static void
dt_bpf_cg_copyval(dt_bpf_cg_t *cg, int base, uint32_t off, uint32_t size,
    bool str)
{
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, base));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, (int32_t) off));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, (int32_t) size));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_FP, DT_FP_T0));
	DT_EMIT(cg, DT_BPF_CALL(str ? BPF_FUNC_probe_read_kernel_str :
	    BPF_FUNC_probe_read_kernel));
	dt_bpf_cg_fault_if_slot(cg, BPF_JSLT, DT_R0, 0, DIF_FLT_BADADDR, DT_FP_T0);
}

static void
dt_bpf_cg_stsvar(dt_bpf_cg_t *cg, const dt_bpf_var_t *bv, unsigned rs)
{
	int base = bv->bv_scope == DIFV_SCOPE_LOCAL ? DT_R7 : DT_R8;
	uint32_t lnull = dt_bpf_label_new(cg->cg_b);
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);

	dt_bpf_cg_ldreg(cg, DT_R1, rs);
	if (!bv->bv_byref) {
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, base, DT_R1,
		    (int16_t) bv->bv_off));
		return;
	}
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 0, 0),
	    lnull);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T0));
	dt_bpf_cg_copyval(cg, base, bv->bv_off + 8, bv->bv_size, bv->bv_string);
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, base, (int16_t) bv->bv_off, 0));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
	dt_bpf_label_here(cg->cg_b, lnull);
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, base, (int16_t) bv->bv_off, 1));
	dt_bpf_label_here(cg->cg_b, ldone);
}

/*
 * The key of a dynamic variable in the dynkey buffer: the thread key
 * (tid for self->, 0 for global arrays) and the tuple entries, strings
 * and other by-reference values copied in at strsize bytes each.
 */
static void
dt_bpf_cg_dynkey(dt_bpf_cg_t *cg, const dt_bpf_var_t *bv, bool array)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	const dt_bpf_tstate_t *ts = &cg->cg_tstate[cg->cg_pc];
	uint32_t off = 8;

	dt_bpf_cg_zero(cg, lay->bl_dynkey_off, bv->bv_keysize);
	if (bv->bv_scope == DIFV_SCOPE_THREAD) {
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_pid_tgid));
		DT_EMIT(cg, DT_BPF_INSN(BPF_ALU | BPF_MOV | BPF_X, DT_R0,
		    DT_R0, 0, 0));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R0,
		    (int16_t) lay->bl_dynkey_off));
	}
	for (int i = 0; array && i < ts->ts_depth; i++) {
		uint32_t w = dt_bpf_tupwidth(lay, ts->ts_type[i]);

		if (off + w > bv->bv_keysize) {
			dt_bpf_cg_error(cg, "associative array key larger than "
			    "planned");
			return;
		}
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R7,
		    (int16_t) (lay->bl_tuple_off + DT_TUP_VAL(i))));
		if (ts->ts_type[i] == DT_TT_VALUE) {
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R3,
			    (int16_t) (lay->bl_dynkey_off + off)));
			off += w;
			continue;
		}
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R3, DT_FP_T4));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1,
		    (int32_t) (lay->bl_dynkey_off + off)));
		if (ts->ts_type[i] == DT_TT_STRING) {
			DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2,
			    (int32_t) lay->bl_strsize));
			DT_EMIT(cg,
			    DT_BPF_CALL(BPF_FUNC_probe_read_kernel_str));
		} else {
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7,
			    (int16_t) (lay->bl_tuple_off + DT_TUP_SIZE(i))));
			dt_bpf_cg_fault_if(cg, BPF_JGT, DT_R2,
			    (int32_t) lay->bl_strsize, DIF_FLT_ILLOP, -1);
			DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_kernel));
		}
		dt_bpf_cg_fault_if_slot(cg, BPF_JSLT, DT_R0, 0, DIF_FLT_BADADDR,
		    DT_FP_T4);
		off += w;
	}
}

/* r0 = lookup(map, dynkey) */
static void
dt_bpf_cg_dynlookup(dt_bpf_cg_t *cg, const dt_bpf_var_t *bv)
{
	dt_bpf_emit_map_fd(cg->cg_b, DT_R1, bv->bv_fd);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2,
	    (int32_t) cg->cg_lay->bl_dynkey_off));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_map_lookup_elem));
}

static void
dt_bpf_cg_lddvar(dt_bpf_cg_t *cg, uint8_t scope, uint32_t id, bool array,
    unsigned rd)
{
	const dt_bpf_var_t *bv = dt_bpf_layout_var(cg->cg_lay, scope, id);
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);

	if (bv == NULL || bv->bv_fd < 0) {
		dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
		return;
	}
	dt_bpf_cg_dynkey(cg, bv, array);
	dt_bpf_cg_dynlookup(cg, bv);
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R0, 0, 0),
	    ldone);
	if (bv->bv_byref) {
		dt_bpf_cg_ptr2num(cg, DT_R0);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
	} else {
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R0, 0));
	}
	dt_bpf_label_here(cg->cg_b, ldone);
	dt_bpf_cg_streg(cg, rd, DT_R1);
}

static void
dt_bpf_cg_stdvar(dt_bpf_cg_t *cg, uint8_t scope, uint32_t id, bool array,
    unsigned rs)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	const dt_bpf_var_t *bv = dt_bpf_layout_var(lay, scope, id);
	uint32_t ldel = dt_bpf_label_new(cg->cg_b);
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);

	if (bv == NULL || bv->bv_fd < 0) {
		dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
		return;
	}
	dt_bpf_cg_dynkey(cg, bv, array);
	dt_bpf_cg_ldreg(cg, DT_R1, rs);
	/* Assigning zero deletes the variable. */
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 0, 0), ldel);
	if (bv->bv_byref) {
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T0));
		dt_bpf_cg_zero(cg, lay->bl_dynval_off, bv->bv_size);
		dt_bpf_cg_copyval(cg, DT_R7, lay->bl_dynval_off, bv->bv_size,
		    bv->bv_string);
	} else {
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
		    (int16_t) lay->bl_dynval_off));
	}
	dt_bpf_emit_map_fd(cg->cg_b, DT_R1, bv->bv_fd);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2,
	    (int32_t) lay->bl_dynkey_off));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R3,
	    (int32_t) lay->bl_dynval_off));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R4, BPF_ANY));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_map_update_elem));
	/* A full map drops the store, counted as DTrace's dynvar drops. */
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R0, 0, 0), ldone);
	dt_bpf_cg_counter(cg, DT_BPF_CNT_DYNDROPS);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
	dt_bpf_label_here(cg->cg_b, ldel);
	dt_bpf_emit_map_fd(cg->cg_b, DT_R1, bv->bv_fd);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2,
	    (int32_t) lay->bl_dynkey_off));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_map_delete_elem));
	dt_bpf_label_here(cg->cg_b, ldone);
}

/*
 * Built-in variables.
 */

/* r1 = size bytes read at (r3 + off); 0 when the read fails. */
void
dt_bpf_cg_kread(dt_bpf_cg_t *cg, uint32_t off, int size)
{
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R3, (int32_t) off));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_T0, 0));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_FP));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, DT_FP_T0));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, size));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_kernel));
	DT_EMIT(cg, DT_BPF_LDX_MEM(size == 4 ? BPF_W : BPF_DW, DT_R1, DT_FP,
	    DT_FP_T0));
}

/*
 * ppid (curthread->real_parent->tgid) and vtimestamp (the thread's
 * on-CPU time as the scheduler accounts it, se.sum_exec_runtime), at
 * offsets from the kernel's BTF.  Returns -1 after an error.
 */
static int
dt_bpf_cg_task(dt_bpf_cg_t *cg, uint32_t id)
{
	const dt_linux_task_offs_t *lt = dt_linux_task_offs();

	if (!lt->lt_ok) {
		dt_bpf_cg_error(cg, "built-in variable %s is not supported by "
		    "the bpf engine here: %s", dif_var_name(id), lt->lt_why);
		return -1;
	}
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_task));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R0));
	if (id == DIF_VAR_VTIMESTAMP) {
		dt_bpf_cg_kread(cg, lt->lt_exec_runtime, 8);
		return 0;
	}
	dt_bpf_cg_kread(cg, lt->lt_real_parent, 8);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R1));
	dt_bpf_cg_kread(cg, lt->lt_tgid, 4);
	return 0;
}

static void
dt_bpf_cg_builtin(dt_bpf_cg_t *cg, uint32_t id, unsigned rd)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;

	switch (id) {
	case DIF_VAR_ARG0: case DIF_VAR_ARG1: case DIF_VAR_ARG2:
	case DIF_VAR_ARG3: case DIF_VAR_ARG4: case DIF_VAR_ARG5:
	case DIF_VAR_ARG6: case DIF_VAR_ARG7: case DIF_VAR_ARG8:
	case DIF_VAR_ARG9:
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7,
		    (int16_t) (DT_SC_ARGS + 8 * (id - DIF_VAR_ARG0))));
		break;
	case DIF_VAR_EPID:
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_EPID));
		break;
	case DIF_VAR_ID:
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_ID));
		break;
	case DIF_VAR_TIMESTAMP:
		dt_bpf_cg_timestamp(cg);
		break;
	case DIF_VAR_WALLTIMESTAMP:
		dt_bpf_cg_timestamp(cg);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R8,
		    (int16_t) (lay->bl_cnt_off + 8 * DT_BPF_CNT_WALLOFF)));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R2));
		break;
	/*
	 * Constants of the program's probe, or of ERROR in its clauses; a
	 * group's probe's module, function and name come from its table.
	 */
	case DIF_VAR_PROBEPROV:
		dt_bpf_cg_caddr(cg, DT_R1, cg->cg_in_error ?
		    cg->cg_ps->ps_err_prov : cg->cg_ps->ps_prov);
		break;
	case DIF_VAR_PROBEMOD:
		if (cg->cg_in_error)
			dt_bpf_cg_caddr(cg, DT_R1, cg->cg_ps->ps_err_mod);
		else if (cg->cg_ps->ps_table_fd >= 0)
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7,
			    DT_SC_MOD));
		else
			dt_bpf_cg_caddr(cg, DT_R1, cg->cg_ps->ps_mod);
		break;
	case DIF_VAR_PROBEFUNC:
		if (cg->cg_in_error)
			dt_bpf_cg_caddr(cg, DT_R1, cg->cg_ps->ps_err_func);
		else if (cg->cg_ps->ps_table_fd >= 0)
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7,
			    DT_SC_FUNC));
		else
			dt_bpf_cg_caddr(cg, DT_R1, cg->cg_ps->ps_func);
		break;
	case DIF_VAR_PROBENAME:
		if (cg->cg_in_error)
			dt_bpf_cg_caddr(cg, DT_R1, cg->cg_ps->ps_err_name);
		else if (cg->cg_ps->ps_table_fd >= 0)
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7,
			    DT_SC_NAME));
		else
			dt_bpf_cg_caddr(cg, DT_R1, cg->cg_ps->ps_name);
		break;
	case DIF_VAR_ZONENAME:
		dt_bpf_cg_caddr(cg, DT_R1, lay->bl_zonename);
		break;
	case DIF_VAR_ERRNO:
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, DT_SC_ERRNO));
		break;
	case DIF_VAR_PID:
	case DIF_VAR_TID:
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_pid_tgid));
		if (id == DIF_VAR_PID)
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R0, 32));
		else
			DT_EMIT(cg, DT_BPF_INSN(BPF_ALU | BPF_MOV | BPF_X,
			    DT_R0, DT_R0, 0, 0));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
		break;
	case DIF_VAR_UID:
	case DIF_VAR_GID:
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_uid_gid));
		if (id == DIF_VAR_GID)
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R0, 32));
		else
			DT_EMIT(cg, DT_BPF_INSN(BPF_ALU | BPF_MOV | BPF_X,
			    DT_R0, DT_R0, 0, 0));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
		break;
	case DIF_VAR_CPU:
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_smp_processor_id));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
		break;
	case DIF_VAR_CURTHREAD:
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_task));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
		break;
	case DIF_VAR_EXECNAME:
		/* comm, zero-padded to its 16 bytes, in the strbuf slot */
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1,
		    (int32_t) lay->bl_strbuf_off));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, lay->bl_strsize < 16 ?
		    (int32_t) lay->bl_strsize : 16));
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_comm));
		dt_bpf_cg_saddr(cg, DT_R1, lay->bl_strbuf_off);
		break;
	case DIF_VAR_EXECARGS:
		dt_bpf_cg_execargs(cg);
		break;
	case DIF_VAR_CWD:
		dt_bpf_cg_cwd(cg);
		break;
	case DIF_VAR_PPID:
	case DIF_VAR_VTIMESTAMP:
		if (dt_bpf_cg_task(cg, id) != 0)
			return;
		break;
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
	case DIF_VAR_CURCPU:
		/* This CPU's entry in the table the engine filled. */
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_smp_processor_id));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLT, DT_R0,
		    (int32_t) lay->bl_ncpus, 1));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R0, 0));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_MUL, DT_R0,
		    (int32_t) sizeof (dt_cpuinfo_t)));
		dt_bpf_cg_gaddr(cg, DT_R1, lay->bl_cpuinfo_off);
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R0));
		break;
	case DIF_VAR_IPL:
		/* What the interpreter engine answers for this. */
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
		break;
	default:
		dt_bpf_cg_error(cg, "built-in variable %s is not supported by "
		    "the bpf engine", dif_var_name(id) ? dif_var_name(id) :
		    "?");
		return;
	}
	dt_bpf_cg_streg(cg, rd, DT_R1);
}

/*
 * Instructions.
 */

static uint32_t
dt_bpf_cg_plabel(dt_bpf_cg_t *cg, uint32_t pc)
{
	if (cg->cg_plabels[pc] == UINT32_MAX)
		cg->cg_plabels[pc] = dt_bpf_label_new(cg->cg_b);
	return cg->cg_plabels[pc];
}

static void
dt_bpf_cg_divide(dt_bpf_cg_t *cg, uint32_t op, unsigned r1, unsigned r2,
    unsigned rd)
{
	bool sgn = op == DIF_OP_SDIV || op == DIF_OP_SREM;
	bool rem = op == DIF_OP_SREM || op == DIF_OP_UREM;

	dt_bpf_cg_ldreg(cg, DT_R1, r1);
	dt_bpf_cg_ldreg(cg, DT_R2, r2);
	dt_bpf_cg_fault_if(cg, BPF_JEQ, DT_R2, 0, DIF_FLT_DIVZERO, -1);
	if (!sgn) {
		DT_EMIT(cg, DT_BPF_ALU64_REG(rem ? BPF_MOD : BPF_DIV, DT_R1,
		    DT_R2));
		dt_bpf_cg_streg(cg, rd, DT_R1);
		return;
	}
	/*
	 * Signed division from unsigned: divide the magnitudes, then fix
	 * the sign (the quotient's is the XOR of the operands', the
	 * remainder's the dividend's).  INT64_MIN / -1 comes out as
	 * INT64_MIN with remainder 0, as the interpreter defines it.
	 */
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R5, 0));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JSGE, DT_R1, 0, 2));
	DT_EMIT(cg, DT_BPF_NEG64(DT_R1));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R5, 1));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JSGE, DT_R2, 0, 2));
	DT_EMIT(cg, DT_BPF_NEG64(DT_R2));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_XOR, DT_R5, rem ? 0 : 1));
	DT_EMIT(cg, DT_BPF_ALU64_REG(rem ? BPF_MOD : BPF_DIV, DT_R1, DT_R2));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JEQ, DT_R5, 0, 1));
	DT_EMIT(cg, DT_BPF_NEG64(DT_R1));
	dt_bpf_cg_streg(cg, rd, DT_R1);
}

static void
dt_bpf_cg_instr(dt_bpf_cg_t *cg, dif_instr_t in, uint32_t lend)
{
	const dif_object_t *difo = cg->cg_difo;
	const dt_bpf_layout_t *lay = cg->cg_lay;
	uint32_t op = DIF_INSTR_OP(in), x;
	unsigned r1 = DIF_INSTR_R1(in), r2 = DIF_INSTR_R2(in);
	unsigned rd = DIF_INSTR_RD(in);
	static const int alu[] = {
		[DIF_OP_OR] = BPF_OR, [DIF_OP_XOR] = BPF_XOR,
		[DIF_OP_AND] = BPF_AND, [DIF_OP_SLL] = BPF_LSH,
		[DIF_OP_SRL] = BPF_RSH, [DIF_OP_SUB] = BPF_SUB,
		[DIF_OP_ADD] = BPF_ADD, [DIF_OP_MUL] = BPF_MUL,
		[DIF_OP_SRA] = BPF_ARSH,
	};
	static const int jmp[] = {
		[DIF_OP_BE] = BPF_JEQ, [DIF_OP_BNE] = BPF_JNE,
		[DIF_OP_BG] = BPF_JSGT, [DIF_OP_BGU] = BPF_JGT,
		[DIF_OP_BGE] = BPF_JSGE, [DIF_OP_BGEU] = BPF_JGE,
		[DIF_OP_BL] = BPF_JSLT, [DIF_OP_BLU] = BPF_JLT,
		[DIF_OP_BLE] = BPF_JSLE, [DIF_OP_BLEU] = BPF_JLE,
	};

	switch (op) {
	case DIF_OP_OR: case DIF_OP_XOR: case DIF_OP_AND:
	case DIF_OP_SUB: case DIF_OP_ADD: case DIF_OP_MUL:
	case DIF_OP_SLL: case DIF_OP_SRL: case DIF_OP_SRA:
		dt_bpf_cg_ldreg(cg, DT_R1, r1);
		dt_bpf_cg_ldreg(cg, DT_R2, r2);
		if (op == DIF_OP_SLL || op == DIF_OP_SRL || op == DIF_OP_SRA)
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R2, 63));
		DT_EMIT(cg, DT_BPF_ALU64_REG(alu[op], DT_R1, DT_R2));
		dt_bpf_cg_streg(cg, rd, DT_R1);
		break;
	case DIF_OP_SDIV: case DIF_OP_SREM:
	case DIF_OP_UDIV: case DIF_OP_UREM:
		dt_bpf_cg_divide(cg, op, r1, r2, rd);
		break;
	case DIF_OP_NOT:
		dt_bpf_cg_ldreg(cg, DT_R1, r1);
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_XOR, DT_R1, -1));
		dt_bpf_cg_streg(cg, rd, DT_R1);
		break;
	case DIF_OP_MOV:
		dt_bpf_cg_ldreg(cg, DT_R1, r1);
		dt_bpf_cg_streg(cg, rd, DT_R1);
		break;
	case DIF_OP_CMP:
		dt_bpf_cg_ldreg(cg, DT_R1, r1);
		dt_bpf_cg_ldreg(cg, DT_R2, r2);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_CCA));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R2, DT_FP_CCB));
		break;
	case DIF_OP_TST:
		dt_bpf_cg_ldreg(cg, DT_R1, r1);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_CCA));
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_CCB, 0));
		break;
	case DIF_OP_SCMP:
		dt_bpf_cg_scmp(cg, r1, r2);
		break;
	case DIF_OP_BA:
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0),
		    dt_bpf_cg_plabel(cg, DIF_INSTR_LABEL(in)));
		break;
	case DIF_OP_BE: case DIF_OP_BNE: case DIF_OP_BG: case DIF_OP_BGU:
	case DIF_OP_BGE: case DIF_OP_BGEU: case DIF_OP_BL: case DIF_OP_BLU:
	case DIF_OP_BLE: case DIF_OP_BLEU:
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_CCA));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, DT_FP_CCB));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(jmp[op], DT_R1,
		    DT_R2, 0), dt_bpf_cg_plabel(cg, DIF_INSTR_LABEL(in)));
		break;
	case DIF_OP_LDSB: case DIF_OP_RLDSB:
		dt_bpf_cg_load(cg, r1, rd, 1, true, false);
		break;
	case DIF_OP_LDSH: case DIF_OP_RLDSH:
		dt_bpf_cg_load(cg, r1, rd, 2, true, false);
		break;
	case DIF_OP_LDSW: case DIF_OP_RLDSW:
		dt_bpf_cg_load(cg, r1, rd, 4, true, false);
		break;
	case DIF_OP_LDUB: case DIF_OP_RLDUB:
		dt_bpf_cg_load(cg, r1, rd, 1, false, false);
		break;
	case DIF_OP_LDUH: case DIF_OP_RLDUH:
		dt_bpf_cg_load(cg, r1, rd, 2, false, false);
		break;
	case DIF_OP_LDUW: case DIF_OP_RLDUW:
		dt_bpf_cg_load(cg, r1, rd, 4, false, false);
		break;
	case DIF_OP_LDX: case DIF_OP_RLDX:
		dt_bpf_cg_load(cg, r1, rd, 8, false, false);
		break;
	case DIF_OP_ULDSB:
		dt_bpf_cg_load(cg, r1, rd, 1, true, true);
		break;
	case DIF_OP_ULDSH:
		dt_bpf_cg_load(cg, r1, rd, 2, true, true);
		break;
	case DIF_OP_ULDSW:
		dt_bpf_cg_load(cg, r1, rd, 4, true, true);
		break;
	case DIF_OP_ULDUB:
		dt_bpf_cg_load(cg, r1, rd, 1, false, true);
		break;
	case DIF_OP_ULDUH:
		dt_bpf_cg_load(cg, r1, rd, 2, false, true);
		break;
	case DIF_OP_ULDUW:
		dt_bpf_cg_load(cg, r1, rd, 4, false, true);
		break;
	case DIF_OP_ULDX:
		dt_bpf_cg_load(cg, r1, rd, 8, false, true);
		break;
	case DIF_OP_STB:
		dt_bpf_cg_store(cg, r1, rd, 1);
		break;
	case DIF_OP_STH:
		dt_bpf_cg_store(cg, r1, rd, 2);
		break;
	case DIF_OP_STW:
		dt_bpf_cg_store(cg, r1, rd, 4);
		break;
	case DIF_OP_STX:
		dt_bpf_cg_store(cg, r1, rd, 8);
		break;
	case DIF_OP_RET:
		dt_bpf_cg_ldreg(cg, DT_R0, rd);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lend);
		break;
	case DIF_OP_NOP:
		break;
	case DIF_OP_SETX:
		if ((x = DIF_INSTR_INTEGER(in)) >= difo->dif_intlen) {
			dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
			break;
		}
		dt_bpf_emit_imm64(cg->cg_b, DT_R1,
		    (uint64_t) difo->dif_inttab[x]);
		dt_bpf_cg_streg(cg, rd, DT_R1);
		break;
	case DIF_OP_SETS:
		if ((x = DIF_INSTR_STRING(in)) >= difo->dif_strlen) {
			dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
			break;
		}
		dt_bpf_cg_caddr(cg, DT_R1, cg->cg_strtab + x);
		dt_bpf_cg_streg(cg, rd, DT_R1);
		break;
	case DIF_OP_LDGA:
		if (r1 == DIF_VAR_UREGS) {
			dt_bpf_cg_uregs(cg, r2, rd);
			break;
		}
		if (r1 != DIF_VAR_ARGS) {
			dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
			break;
		}
		dt_bpf_cg_ldreg(cg, DT_R1, r2);
		dt_bpf_cg_fault_if(cg, BPF_JGE, DT_R1, DT_BPF_NARGS, DIF_FLT_ILLOP,
		    -1);
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R1, 3));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R7));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R1, DT_SC_ARGS));
		dt_bpf_cg_streg(cg, rd, DT_R1);
		break;
	case DIF_OP_LDGS:
		x = DIF_INSTR_VAR(in);
		if (x < DIF_VAR_OTHER_UBASE) {
			dt_bpf_cg_builtin(cg, x, rd);
			break;
		}
		/* FALLTHROUGH */
	case DIF_OP_LDLS: {
		uint8_t scope = op == DIF_OP_LDLS ? DIFV_SCOPE_LOCAL :
		    DIFV_SCOPE_GLOBAL;
		const dt_bpf_var_t *bv = dt_bpf_layout_var(lay, scope,
		    DIF_INSTR_VAR(in));

		if (bv == NULL)
			dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
		else
			dt_bpf_cg_ldsvar(cg, bv, rd);
		break;
	}
	case DIF_OP_STGS:
	case DIF_OP_STLS: {
		uint8_t scope = op == DIF_OP_STLS ? DIFV_SCOPE_LOCAL :
		    DIFV_SCOPE_GLOBAL;
		const dt_bpf_var_t *bv;

		x = DIF_INSTR_VAR(in);
		if (op == DIF_OP_STGS && x < DIF_VAR_OTHER_UBASE) {
			dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
			break;
		}
		if ((bv = dt_bpf_layout_var(lay, scope, x)) == NULL)
			dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
		else
			dt_bpf_cg_stsvar(cg, bv, rd);
		break;
	}
	case DIF_OP_LDTS:
		dt_bpf_cg_lddvar(cg, DIFV_SCOPE_THREAD, DIF_INSTR_VAR(in), false,
		    rd);
		break;
	case DIF_OP_STTS:
		dt_bpf_cg_stdvar(cg, DIFV_SCOPE_THREAD, DIF_INSTR_VAR(in), false,
		    rd);
		break;
	case DIF_OP_LDGAA:
		dt_bpf_cg_lddvar(cg, DIFV_SCOPE_GLOBAL, DIF_INSTR_VAR(in), true,
		    rd);
		break;
	case DIF_OP_STGAA:
		dt_bpf_cg_stdvar(cg, DIFV_SCOPE_GLOBAL, DIF_INSTR_VAR(in), true,
		    rd);
		break;
	case DIF_OP_LDTAA:
		dt_bpf_cg_lddvar(cg, DIFV_SCOPE_THREAD, DIF_INSTR_VAR(in), true,
		    rd);
		break;
	case DIF_OP_STTAA:
		dt_bpf_cg_stdvar(cg, DIFV_SCOPE_THREAD, DIF_INSTR_VAR(in), true,
		    rd);
		break;
	case DIF_OP_CALL:
		dt_bpf_cg_subr(cg, DIF_INSTR_SUBR(in), rd);
		break;
	case DIF_OP_PUSHTR:
	case DIF_OP_PUSHTV: {
		int depth = cg->cg_tstate[cg->cg_pc].ts_depth;

		if (depth >= DIF_DTR_NREGS) {
			dt_bpf_cg_fault(cg, DIF_FLT_TUPOFLOW, 0);
			break;
		}
		dt_bpf_cg_ldreg(cg, DT_R1, rd);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
		    (int16_t) (lay->bl_tuple_off + DT_TUP_VAL(depth))));
		if (r1 == DIF_TYPE_STRING)
			DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1,
			    (int32_t) lay->bl_strsize));
		else
			dt_bpf_cg_ldreg(cg, DT_R1, r2);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
		    (int16_t) (lay->bl_tuple_off + DT_TUP_SIZE(depth))));
		break;
	}
	case DIF_OP_POPTS:
	case DIF_OP_FLUSHTS:
		break;		/* the depth is static */
	case DIF_OP_ALLOCS:
		dt_bpf_cg_ldreg(cg, DT_R1, r1);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T1));
		dt_bpf_cg_alloc(cg, DT_FP_T1, 0, DT_FP_T2);
		dt_bpf_cg_saddr(cg, DT_R1, lay->bl_dscratch_off);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, DT_FP_T2));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R2));
		dt_bpf_cg_streg(cg, rd, DT_R1);
		break;
	case DIF_OP_COPYS:
		/* copy r2 bytes from r1 to rd */
		dt_bpf_cg_ldreg(cg, DT_R2, r2);
		dt_bpf_cg_fault_if(cg, BPF_JGT, DT_R2,
		    (int32_t) lay->bl_dscratch_size, DIF_FLT_NOSCRATCH, -1);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R2, DT_FP_T1));
		dt_bpf_cg_ldreg(cg, DT_R3, rd);
		dt_bpf_cg_wptr(cg, DT_R2, 0, lay->bl_dscratch_size, (int) rd, 0);
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R5));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, DT_FP_T1));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JLE, DT_R2,
		    (int32_t) lay->bl_dscratch_size, 1));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, 0));
		dt_bpf_cg_ldreg(cg, DT_R3, r1);
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_kernel));
		dt_bpf_cg_fault_if(cg, BPF_JNE, DT_R0, 0, DIF_FLT_BADADDR,
		    (int) r1);
		break;
	default:
		/* ldta, xlate, xlarg and unknown opcodes, as in DIF. */
		dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
		break;
	}
}

/* Inlines one DIF object; its value ends in r0. */
void
dt_bpf_cg_difo(dt_bpf_cg_t *cg, const dif_object_t *difo)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	uint32_t lend = dt_bpf_label_new(cg->cg_b);
	uint32_t i, used = 0;

	cg->cg_difo = difo;
	cg->cg_strtab = 0;
	for (i = 0; i < lay->bl_ndifc; i++) {
		if (lay->bl_difc[i].dc_difo == difo) {
			cg->cg_strtab = lay->bl_difc[i].dc_off;
			break;
		}
	}
	if (i == lay->bl_ndifc && difo->dif_strlen > 0) {
		dt_bpf_cg_error(cg, "DIF object not in the layout");
		return;
	}
	cg->cg_tstate = calloc(difo->dif_len, sizeof (*cg->cg_tstate));
	cg->cg_plabels = malloc(difo->dif_len * sizeof (uint32_t));
	if (cg->cg_tstate == NULL || cg->cg_plabels == NULL) {
		dt_bpf_cg_error(cg, "out of memory");
		goto out;
	}
	memset(cg->cg_plabels, 0xff, difo->dif_len * sizeof (uint32_t));
	if (dt_bpf_tuples(difo, cg->cg_tstate, cg->cg_err, cg->cg_errlen) !=
	    0) {
		cg->cg_failed = 1;
		goto out;
	}
	/* The interpreter starts every object with zeroed registers. */
	for (i = 0; i < difo->dif_len; i++) {
		dif_instr_t in = difo->dif_buf[i];

		used |= 1U << (DIF_INSTR_R1(in) & 7);
		used |= 1U << (DIF_INSTR_R2(in) & 7);
		used |= 1U << (DIF_INSTR_RD(in) & 7);
	}
	for (i = 1; i < DIF_DIR_NREGS; i++) {
		if (used & (1U << i))
			DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_REG(i),
			    0));
	}
	for (cg->cg_pc = 0; cg->cg_pc < difo->dif_len && !cg->cg_failed;
	    cg->cg_pc++) {
		if (cg->cg_plabels[cg->cg_pc] != UINT32_MAX)
			dt_bpf_label_here(cg->cg_b, cg->cg_plabels[cg->cg_pc]);
		if (cg->cg_tstate[cg->cg_pc].ts_depth < 0)
			continue;	/* unreachable */
		dt_bpf_cg_instr(cg, difo->dif_buf[cg->cg_pc], lend);
	}
	dt_bpf_label_here(cg->cg_b, lend);
out:
	free(cg->cg_tstate);
	free(cg->cg_plabels);
	cg->cg_tstate = NULL;
	cg->cg_plabels = NULL;
	cg->cg_difo = NULL;
}

/*
 * Records and aggregations.
 */

/* Stores the value in slot T0 as record rd at r7 + base + rd_offset. */
static void
dt_bpf_cg_store_rec(dt_bpf_cg_t *cg, const dt_recdesc_t *rd, uint32_t base)
{
	static const int bsz[] = { 0, BPF_B, BPF_H, 0, BPF_W, 0, 0, 0, BPF_DW };
	uint32_t off = base + rd->rd_offset;
	uint32_t size = rd->rd_size;

	switch (rd->rd_type) {
	case DT_REC_NONE:
		return;
	case DT_REC_STRING:
	case DT_REC_BYTES:
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, (int32_t) off));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, (int32_t) size));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_FP, DT_FP_T0));
		DT_EMIT(cg, DT_BPF_CALL(rd->rd_type == DT_REC_STRING ?
		    BPF_FUNC_probe_read_kernel_str :
		    BPF_FUNC_probe_read_kernel));
		dt_bpf_cg_fault_if_slot(cg, BPF_JSLT, DT_R0, 0, DIF_FLT_BADADDR,
		    DT_FP_T0);
		return;
	case DT_REC_STACK:
	case DT_REC_USTACK:
		if (rd->rd_type == DT_REC_USTACK) {
			DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_pid_tgid));
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R0, 32));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R0,
			    (int16_t) off));
			off += 8;
			size = size > 8 ? size - 8 : 0;
		}
		if (size == 0)
			return;
		dt_bpf_cg_getstack(cg, off, size,
		    rd->rd_type == DT_REC_USTACK);
		return;
	case DT_REC_USYM:
	case DT_REC_UMOD:
	case DT_REC_UADDR:
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_pid_tgid));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R0, 32));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R0,
		    (int16_t) off));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_T0));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
		    (int16_t) (off + 8)));
		return;
	default:
		if (size != 1 && size != 2 && size != 4 && size != 8) {
			dt_bpf_cg_error(cg, "record of %u bytes for an integer",
			    (unsigned) size);
			return;
		}
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_T0));
		DT_EMIT(cg, DT_BPF_STX_MEM(bsz[size], DT_R7, DT_R1,
		    (int16_t) off));
		return;
	}
}

/*
 * Runs a DIF object and stores its value as record rd at r7 + base +
 * rd_offset (which the caller has zeroed).  An object that only returns
 * execname -- the key of the most common aggregation, @[execname] --
 * becomes one bpf_get_current_comm() straight into the record: the
 * helper pads with NULs to the size it is given, as a string record is
 * padded, and the object has nothing else to do.
 */
bool
dt_bpf_difo_rec_comm(const dif_object_t *difo, const dt_recdesc_t *rd)
{
	return rd->rd_type == DT_REC_STRING && rd->rd_size > 0 &&
	    difo->dif_len == 2 &&
	    DIF_INSTR_OP(difo->dif_buf[0]) == DIF_OP_LDGS &&
	    DIF_INSTR_VAR(difo->dif_buf[0]) == DIF_VAR_EXECNAME &&
	    DIF_INSTR_OP(difo->dif_buf[1]) == DIF_OP_RET &&
	    (DIF_INSTR_RD(difo->dif_buf[0]) & (DIF_DIR_NREGS - 1)) != 0 &&
	    DIF_INSTR_RD(difo->dif_buf[1]) == DIF_INSTR_RD(difo->dif_buf[0]);
}

void
dt_bpf_cg_difo_rec(dt_bpf_cg_t *cg, const dif_object_t *difo,
    const dt_recdesc_t *rd, uint32_t base)
{
	if (dt_bpf_difo_rec_comm(difo, rd)) {
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1,
		    (int32_t) (base + rd->rd_offset)));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, rd->rd_size < 16 ?
		    (int32_t) rd->rd_size : 16));
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_comm));
		return;
	}
	dt_bpf_cg_difo(cg, difo);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R0, DT_FP_T0));
	dt_bpf_cg_store_rec(cg, rd, base);
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
 * probe; the others', which expire twice a period, only once the period
 * is a quarter overdue (that CPU skipped its event): so the firings, and
 * what they record, come from one CPU and in order while it keeps up,
 * and another takes over half a period later when it does not.  The
 * consumer's stand-in (a raw_tp program) fires whenever it finds the
 * period due: it runs only when the period is long overdue.
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
	if (ps->ps_ctx != DT_BPF_CTX_RAWTP) {
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R9,
		    (int32_t) ps->ps_tick_cpu, 0), lfirst);
		/* Before the first firing, the stand-in stands in. */
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R0, 0,
		    0), lexit);
		dt_bpf_emit_imm64(cg->cg_b, DT_R4, period / 4);
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
		} else {
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6, 8));
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
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R9,
		    offsetof(dt_bpf_ptab_t, pt_ufunc)));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_SC_UFUNC));
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
			    16 + 8 * i));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, o));
		}
		break;
	case DT_BPF_CTX_SYSCALL_RETURN:
		/* arg0 = arg1 = the return value; errno from it. */
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6, 16));
		for (int i = 0; args && i < DT_BPF_NARGS; i++)
			DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7,
			    (int16_t) (DT_SC_ARGS + 8 * i), 0));
		if (args) {
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
			    DT_SC_ARGS));
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
			    DT_SC_ARGS + 8));
		}
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R1));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2, 4095));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JGT, DT_R2, 4094, 2));
		DT_EMIT(cg, DT_BPF_NEG64(DT_R1));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_SC_ERRNO));
		break;
	case DT_BPF_CTX_PERF:
		if (!args)
			break;
#if defined(__x86_64__)
		/* pt_regs: ip at 128, cs at 136; user mode when cs & 3. */
		for (int i = 0; i < DT_BPF_NARGS; i++)
			DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7,
			    (int16_t) (DT_SC_ARGS + 8 * i), 0));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6, 128));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R6, 136));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R2, 3));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JEQ, DT_R2, 3, 2));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, DT_SC_ARGS));
		DT_EMIT(cg, DT_BPF_JA(1));
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
		    DT_SC_ARGS + 8));
#else
		dt_bpf_cg_error(cg, "profile probes need this architecture's "
		    "register layout");
#endif
		break;
	case DT_BPF_CTX_UPROBE:
	case DT_BPF_CTX_URETURN: {
		const dt_isa_layout_t *il = &dt_isa_layout;
		bool ret = ps->ps_ctx == DT_BPF_CTX_URETURN;

		for (int i = 0; i < DT_BPF_NARGS; i++) {
			int16_t o = (int16_t) (DT_SC_ARGS + 8 * i);

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
		if (ret) {
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6,
			    il->il_pc));
			if (ps->ps_table_fd >= 0)
				DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7,
				    DT_SC_UFUNC));
			else
				dt_bpf_emit_imm64(cg->cg_b, DT_R2,
				    ps->ps_ufunc);
			DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R1, DT_R2));
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
	if ((err = dt_bpf_buf_finish(b)) != 0) {
		snprintf(errbuf, errlen, "generating BPF: %s", err == E2BIG ?
		    "program too large" : strerror(err));
		return -1;
	}
	return 0;
}
