/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_args.c: where a probe's arguments come from, in the program's
 * prologue (dt_bpf_gen.c calls these before the clauses): a kernel
 * event's recipes and filters (dt_kevent.h: tracepoint record fields,
 * raw tracepoint words, kernel and user memory, sums and dereferences in
 * dependency order), USDT arguments decoded from their notes' operands,
 * the conditions of a return probe at a conditional tail call, and
 * whether any clause reads the arguments at all (when none does, none
 * are computed).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "common/dif/dif.h"
#include "isa/dt_isa.h"
#include "os/linux/bpf/dt_bpf_gen.h"
#include "os/linux/bpf/dt_bpf_impl.h"
#include "os/linux/dt_linux_features.h"

/*
 * The two arguments a MINIF or SELECT recipe chooses between, the lowest
 * two bits of ka_val (x the lower), with its guard in ka_index; false if
 * any of them is not an argument the prologue has.
 */
static bool
dt_bpf_arg_pair(const dt_kevent_arg_t *ka, int *x, int *y)
{
	uint64_t m = (uint64_t) ka->ka_val;

	if (m == 0 || ka->ka_index >= DT_BPF_NARGS)
		return false;
	*x = __builtin_ctzll(m);
	m &= m - 1;
	if (m == 0)
		return false;
	*y = __builtin_ctzll(m);
	return *x < DT_BPF_NARGS && *y < DT_BPF_NARGS;
}

/* r1 cut to its low size bytes, sign- or zero-extended. */
static void
dt_bpf_cg_extend(dt_bpf_cg_t *cg, int size, bool sgn)
{
	if (size >= 8)
		return;
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R1, 64 - 8 * size));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(sgn ? BPF_ARSH : BPF_RSH, DT_R1,
	    64 - 8 * size));
}

/*
 * r1 = size bytes (1, 2, 4, 8) of user or kernel memory at r3, not
 * extended; 0 when they cannot be read.  Clobbers r0-r5.
 */
static void
dt_bpf_cg_memarg(dt_bpf_cg_t *cg, int size, bool user)
{
	static const int bsz[] = { 0, BPF_B, BPF_H, 0, BPF_W, 0, 0, 0, BPF_DW };

	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_FP, DT_FP_T0, 0));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_FP));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, DT_FP_T0));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, size));
	DT_EMIT(cg, DT_BPF_CALL(user ? BPF_FUNC_probe_read_user :
	    BPF_FUNC_probe_read_kernel));
	DT_EMIT(cg, DT_BPF_LDX_MEM(bsz[size], DT_R1, DT_FP, DT_FP_T0));
}

/*
 * A user string (a system call's path) whose address is the 8-byte
 * record field at ka_off (USTR) or argument ka_index, already computed
 * (USTRARG), copied into the kernel event string buffer: r1 = the
 * copy's address, "" when it cannot be read.
 */
static void
dt_bpf_cg_kevent_ustr(dt_bpf_cg_t *cg, const dt_kevent_arg_t *ka)
{
	uint32_t off = cg->cg_lay->bl_kstr_off;

	if (ka->ka_kind == DT_KEVENT_ARG_USTR && ka->ka_off % 8 != 0) {
		dt_bpf_cg_error(cg, "a user string's address at record offset "
		    "%u is not aligned", ka->ka_off);
		return;
	}
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, (int32_t) off));
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R2, (int32_t) cg->cg_lay->bl_strsize));
	if (ka->ka_kind == DT_KEVENT_ARG_USTR)
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R6,
		    (int16_t) ka->ka_off));
	else
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R7,
		    (int16_t) (DT_SC_ARGS + 8 * ka->ka_index)));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_probe_read_user_str));
	DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JSGT, DT_R0, 0, 1));
	DT_EMIT(cg, DT_BPF_ST_MEM(BPF_B, DT_R7, (int16_t) off, 0));
	dt_bpf_cg_saddr(cg, DT_R1, off);
}

/* r1 turned into what a stable argument means (dt_kevent_xform_t). */
static void
dt_bpf_cg_kevent_xform(dt_bpf_cg_t *cg, uint8_t xform)
{
	switch (xform) {
	case DT_KEVENT_XF_NEG:
		DT_EMIT(cg, DT_BPF_NEG64(DT_R1));
		break;
	case DT_KEVENT_XF_CLD:
		/* No signal: CLD_EXITED; else CLD_KILLED, +1 if it dumped. */
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R1));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R2, 0x7f));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JNE, DT_R2, 0, 2));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 1));
		DT_EMIT(cg, DT_BPF_JA(3));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R1, 0x80));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R1, 7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, 2));
		break;
	case DT_KEVENT_XF_SIG:
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R1, 0x7f));
		break;
	default:
		break;
	}
}

/* The arguments a kernel event recipe reads (dt_kevent.h: SUM, DEREF,
 * MINIF, SELECT). */
static uint64_t
dt_bpf_kevent_deps(const dt_kevent_arg_t *ka)
{
	uint64_t guard = 0;

	if (ka->ka_kind == DT_KEVENT_ARG_USTRARG)
		return (1ULL << ka->ka_index) & ((1ULL << DT_BPF_NARGS) - 1);
	if (ka->ka_kind == DT_KEVENT_ARG_MINIF ||
	    ka->ka_kind == DT_KEVENT_ARG_SELECT)
		guard = 1ULL << ka->ka_index;
	else if (ka->ka_kind != DT_KEVENT_ARG_SUM &&
	    ka->ka_kind != DT_KEVENT_ARG_DEREF)
		return 0;
	return ((uint64_t) ka->ka_val | guard) & ((1ULL << DT_BPF_NARGS) - 1);
}

/* r1 = one kernel event argument, from its recipe; false if unknown. */
static bool
dt_bpf_cg_kevent_arg(dt_bpf_cg_t *cg, const dt_kevent_arg_t *ka)
{
	static const int bsz[] = { 0, BPF_B, BPF_H, 0, BPF_W, 0, 0, 0, BPF_DW };
	int size = ka->ka_size ? ka->ka_size : 8;

	switch (ka->ka_kind) {
	case DT_KEVENT_ARG_CONST:
		dt_bpf_emit_imm64(cg->cg_b, DT_R1, (uint64_t) ka->ka_val);
		break;
	case DT_KEVENT_ARG_FIELD:
		if (ka->ka_off % size == 0) {
			DT_EMIT(cg, DT_BPF_LDX_MEM(bsz[size], DT_R1, DT_R6,
			    (int16_t) ka->ka_off));
		} else {
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_FP,
			    DT_FP_T2));
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R3,
			    (int32_t) ka->ka_off));
			dt_bpf_cg_memarg(cg, size, false);
		}
		dt_bpf_cg_extend(cg, size, ka->ka_signed);
		break;
	case DT_KEVENT_ARG_ADDR:
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_FP, DT_FP_T2));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1,
		    (int32_t) ka->ka_off));
		break;
	case DT_KEVENT_ARG_DATALOC:
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_W, DT_R1, DT_R6,
		    (int16_t) ka->ka_off));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R1, 0xffff));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_FP, DT_FP_T2));
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R1, DT_R2));
		break;
	case DT_KEVENT_ARG_RAW:
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6,
		    (int16_t) (8 * ka->ka_index)));
		dt_bpf_cg_extend(cg, size, ka->ka_signed);
		break;
	case DT_KEVENT_ARG_RAWMEM:
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R6,
		    (int16_t) (8 * ka->ka_index)));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R3,
		    (int32_t) ka->ka_off));
		dt_bpf_cg_memarg(cg, size, false);
		dt_bpf_cg_extend(cg, size, ka->ka_signed);
		break;
	case DT_KEVENT_ARG_CURTASK:
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_task));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
		break;
	case DT_KEVENT_ARG_CURMEM:
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_task));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, DT_R0));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R3,
		    (int32_t) ka->ka_off));
		dt_bpf_cg_memarg(cg, size, false);
		dt_bpf_cg_extend(cg, size, ka->ka_signed);
		break;
	case DT_KEVENT_ARG_USTR:
	case DT_KEVENT_ARG_USTRARG:
		dt_bpf_cg_kevent_ustr(cg, ka);
		break;
	case DT_KEVENT_ARG_SUM:
	case DT_KEVENT_ARG_DEREF: {
		uint64_t deps = dt_bpf_kevent_deps(ka);

		/* The arguments read are in the firing context already. */
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R3, (int32_t) ka->ka_off));
		for (int j = 0; j < DT_BPF_NARGS; j++) {
			if (!(deps & (1ULL << j)))
				continue;
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7,
			    (int16_t) (DT_SC_ARGS + 8 * j)));
			DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R3, DT_R2));
		}
		if (ka->ka_kind == DT_KEVENT_ARG_SUM) {
			DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R3));
			break;
		}
		dt_bpf_cg_memarg(cg, size, false);
		dt_bpf_cg_extend(cg, size, ka->ka_signed);
		break;
	}
	case DT_KEVENT_ARG_MINIF: {
		int x, y;

		if (!dt_bpf_arg_pair(ka, &x, &y))
			return false;
		/* r1 = y; x instead when the guard holds and x < y. */
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7,
		    (int16_t) (DT_SC_ARGS + 8 * y)));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7,
		    (int16_t) (DT_SC_ARGS + 8 * ka->ka_index)));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JEQ, DT_R2, 0, 3));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7,
		    (int16_t) (DT_SC_ARGS + 8 * x)));
		DT_EMIT(cg, DT_BPF_JMP_REG(BPF_JSGE, DT_R2, DT_R1, 1));
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R2));
		break;
	}
	case DT_KEVENT_ARG_SELECT: {
		int x, y;

		if (!dt_bpf_arg_pair(ka, &x, &y))
			return false;
		/* r1 = y; x instead when the guard is not 0. */
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7,
		    (int16_t) (DT_SC_ARGS + 8 * y)));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7,
		    (int16_t) (DT_SC_ARGS + 8 * ka->ka_index)));
		DT_EMIT(cg, DT_BPF_JMP_IMM(BPF_JEQ, DT_R2, 0, 1));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7,
		    (int16_t) (DT_SC_ARGS + 8 * x)));
		break;
	}
	default:
		return false;
	}
	dt_bpf_cg_kevent_xform(cg, ka->ka_xform);
	return true;
}

/*
 * A kernel event's arguments, from its recipes (dt_kevent.h): the
 * tracepoint's record or the raw tracepoint's u64 arguments in r6.
 * Fields a direct load cannot read (misaligned) are copied with
 * bpf_probe_read_kernel() from the record's address.  Arguments are
 * computed after those their recipes read (SUM, DEREF), so in index
 * order but for those.
 */
void
dt_bpf_cg_kevent_args(dt_bpf_cg_t *cg, const dt_kevent_t *ke)
{
	int nargs = ke->ke_nargs < DT_BPF_NARGS ? ke->ke_nargs : DT_BPF_NARGS;
	uint64_t done = 0;
	bool ctxnum = false;

	for (int i = 0; i < nargs; i++) {
		uint8_t k = ke->ke_args[i].ka_kind;

		ctxnum |= k == DT_KEVENT_ARG_ADDR ||
		    k == DT_KEVENT_ARG_DATALOC ||
		    (k == DT_KEVENT_ARG_FIELD && ke->ke_args[i].ka_off %
		    ke->ke_args[i].ka_size != 0);
	}
	/* The record's address as a number, in T2. */
	if (ctxnum) {
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R6));
		dt_bpf_cg_ptr2num(cg, DT_R1);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R1, DT_FP_T2));
	}
	/* Those without a recipe are 0, first: a recipe may read them. */
	for (int i = 0; i < DT_BPF_NARGS; i++) {
		if (i < nargs && ke->ke_args[i].ka_kind != DT_KEVENT_ARG_ZERO)
			continue;
		DT_EMIT(cg, DT_BPF_ST_MEM(BPF_DW, DT_R7,
		    (int16_t) (DT_SC_ARGS + 8 * i), 0));
		done |= 1ULL << i;
	}
	while (done != (1ULL << DT_BPF_NARGS) - 1) {
		bool progress = false;

		for (int i = 0; i < nargs; i++) {
			const dt_kevent_arg_t *ka = &ke->ke_args[i];

			if ((done & (1ULL << i)) ||
			    (dt_bpf_kevent_deps(ka) & ~done) != 0)
				continue;
			if (!dt_bpf_cg_kevent_arg(cg, ka)) {
				dt_bpf_cg_error(cg, "argument %d of %s:%s: "
				    "unknown recipe %u", i, ke->ke_group,
				    ke->ke_event, ka->ka_kind);
				return;
			}
			DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
			    (int16_t) (DT_SC_ARGS + 8 * i)));
			done |= 1ULL << i;
			progress = true;
		}
		if (!progress) {
			dt_bpf_cg_error(cg, "arguments of %s:%s read each "
			    "other in a cycle", ke->ke_group, ke->ke_event);
			return;
		}
	}
}

/* Leave unless the kernel event's filter (all its conditions) holds. */
void
dt_bpf_cg_kevent_filter(dt_bpf_cg_t *cg, const dt_kevent_t *ke,
    uint32_t lexit)
{
	static const uint8_t notop[] = {
		[DT_KEVENT_FILT_EQ] = BPF_JNE,
		[DT_KEVENT_FILT_NE] = BPF_JEQ,
		[DT_KEVENT_FILT_LT] = BPF_JSGE,
		[DT_KEVENT_FILT_GE] = BPF_JSLT,
	};
	dt_kevent_cond_t c[1 + DT_KEVENT_MAXCONDS];
	int n = 0;

	if (ke->ke_filt != DT_KEVENT_FILT_NONE) {
		memset(&c[0], 0, sizeof (c[0]));
		c[0].kc_op = (uint8_t) ke->ke_filt;
		c[0].kc_arg = ke->ke_filt_arg;
		c[0].kc_val = ke->ke_filt_val;
		n = 1;
	}
	for (int i = 0; i < DT_KEVENT_MAXCONDS &&
	    ke->ke_conds[i].kc_op != DT_KEVENT_FILT_NONE; i++)
		c[n++] = ke->ke_conds[i];
	for (int i = 0; i < n; i++) {
		if (c[i].kc_op >= sizeof (notop) || notop[c[i].kc_op] == 0) {
			dt_bpf_cg_error(cg, "%s:%s: unknown filter %u",
			    ke->ke_group, ke->ke_event, c[i].kc_op);
			return;
		}
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R7, (int16_t)
		    (DT_SC_ARGS + 8 * (c[i].kc_arg % DT_BPF_NARGS))));
		if (c[i].kc_mask != 0) {
			dt_bpf_emit_imm64(cg->cg_b, DT_R2, c[i].kc_mask);
			DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_AND, DT_R1, DT_R2));
		}
		if (c[i].kc_vsarg)
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R7,
			    (int16_t) (DT_SC_ARGS + 8 * ((uint64_t)
			    c[i].kc_val % DT_BPF_NARGS))));
		else
			dt_bpf_emit_imm64(cg->cg_b, DT_R2,
			    (uint64_t) c[i].kc_val);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(notop[c[i].kc_op],
		    DT_R1, DT_R2, 0), lexit);
	}
}

/*
 * USDT arguments as one site's operands give them: a register of pt_regs,
 * user memory at a register plus a displacement (0 if unreadable), or a
 * constant; cut to the operand's size and sign- or zero-extended.
 */
static void
dt_bpf_cg_usdt_args(dt_bpf_cg_t *cg, const dt_usdt_args_t *uas)
{
	for (int i = 0; i < uas->ua_nargs && i < DT_BPF_NARGS; i++) {
		const dt_usdt_arg_t *ua = &uas->ua_args[i];

		switch (ua->ua_kind) {
		case DT_USDT_ARG_CONST:
			dt_bpf_emit_imm64(cg->cg_b, DT_R1,
			    (uint64_t) ua->ua_val);
			break;
		case DT_USDT_ARG_REG:
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6,
			    ua->ua_reg));
			if (ua->ua_shift != 0)
				DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R1,
				    ua->ua_shift));
			break;
		case DT_USDT_ARG_MEM:
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R6,
			    ua->ua_reg));
			dt_bpf_emit_imm64(cg->cg_b, DT_R2,
			    (uint64_t) ua->ua_val);
			DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_ADD, DT_R3, DT_R2));
			dt_bpf_cg_memarg(cg, ua->ua_size, true);
			break;
		default:
			continue;
		}
		dt_bpf_cg_extend(cg, ua->ua_size, ua->ua_signed);
		DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1,
		    (int16_t) (DT_SC_ARGS + 8 * i)));
	}
}

/*
 * The arguments of a USDT probe.  When its sites pass them differently,
 * the instruction pointer (the site's address) picks the operands: one
 * decoder per distinct operand list, reached from each of its sites.
 */
void
dt_bpf_cg_usdt(dt_bpf_cg_t *cg, const dt_bpf_progspec_t *ps)
{
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);
	bool same = true;

	for (size_t i = 1; i < ps->ps_nusites && same; i++)
		same = memcmp(&ps->ps_uargs[i], &ps->ps_uargs[0],
		    sizeof (ps->ps_uargs[0])) == 0;
	if (same) {
		dt_bpf_cg_usdt_args(cg, &ps->ps_uargs[0]);
		return;
	}
	for (size_t i = 0; i < ps->ps_nusites; i++) {
		uint32_t lthis = dt_bpf_label_new(cg->cg_b), lnext;
		bool first = true;

		/* decoded already, for an earlier site with these operands */
		for (size_t j = 0; j < i && first; j++)
			first = memcmp(&ps->ps_uargs[i], &ps->ps_uargs[j],
			    sizeof (ps->ps_uargs[0])) != 0;
		if (!first)
			continue;
		lnext = dt_bpf_label_new(cg->cg_b);
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6,
		    dt_isa_layout.il_pc));
		for (size_t j = i; j < ps->ps_nusites; j++) {
			if (memcmp(&ps->ps_uargs[i], &ps->ps_uargs[j],
			    sizeof (ps->ps_uargs[0])) != 0)
				continue;
			dt_bpf_emit_imm64(cg->cg_b, DT_R2, ps->ps_usites[j]);
			dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JEQ,
			    DT_R1, DT_R2, 0), lthis);
		}
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), lnext);
		dt_bpf_label_here(cg->cg_b, lthis);
		dt_bpf_cg_usdt_args(cg, &ps->ps_uargs[i]);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
		dt_bpf_label_here(cg->cg_b, lnext);
	}
	dt_bpf_label_here(cg->cg_b, ldone);
}

/*
 * Whether the DIF object may read the probe's arguments: args[], arg0-9,
 * or a built-in variable not known to leave them alone (so one added
 * later that reads them is safe until it is listed here).
 */
static bool
dt_bpf_difo_reads_args(const dif_object_t *difo)
{
	for (uint32_t pc = 0; difo != NULL && pc < difo->dif_len; pc++) {
		dif_instr_t in = difo->dif_buf[pc];
		uint32_t x = DIF_INSTR_VAR(in);

		if (DIF_INSTR_OP(in) == DIF_OP_LDGA)
			return true;
		if (DIF_INSTR_OP(in) != DIF_OP_LDGS ||
		    x >= DIF_VAR_OTHER_UBASE)
			continue;
		switch (x) {
		case DIF_VAR_CURTHREAD: case DIF_VAR_TIMESTAMP:
		case DIF_VAR_IPL: case DIF_VAR_EPID: case DIF_VAR_ID:
		case DIF_VAR_STACKDEPTH: case DIF_VAR_CALLER:
		case DIF_VAR_PROBEPROV: case DIF_VAR_PROBEMOD:
		case DIF_VAR_PROBEFUNC: case DIF_VAR_PROBENAME:
		case DIF_VAR_PID: case DIF_VAR_TID: case DIF_VAR_EXECNAME:
		case DIF_VAR_ZONENAME: case DIF_VAR_WALLTIMESTAMP:
		case DIF_VAR_USTACKDEPTH: case DIF_VAR_UCALLER:
		case DIF_VAR_UID: case DIF_VAR_GID: case DIF_VAR_ERRNO:
		case DIF_VAR_CURCPU: case DIF_VAR_CPU: case DIF_VAR_EXECARGS:
		case DIF_VAR_CWD:
			break;
		default:
			return true;
		}
	}
	return false;
}

/*
 * Whether any clause of the program may read the arguments: copying and
 * clearing ten of them is a good part of a small clause's firing.  The
 * dtrace provider's programs always get them (ERROR's describe a fault).
 */
bool
dt_bpf_prog_reads_args(const dt_bpf_progspec_t *ps)
{
	if (ps->ps_ctx == DT_BPF_CTX_RAWTP)
		return true;
	for (uint32_t j = 0; j < ps->ps_nclauses; j++) {
		const dt_stmt_t *stp = ps->ps_stmts[j];

		if (dt_bpf_difo_reads_args(stp->st_pred))
			return true;
		for (uint32_t a = 0; a < stp->st_nactions; a++) {
			const dt_action_t *ap = &stp->st_actions[a];

			for (uint32_t i = 0; i < ap->ac_nargs; i++) {
				if (dt_bpf_difo_reads_args(
				    ap->ac_args[i].aa_difo))
					return true;
			}
			for (uint32_t k = 0; k < ap->ac_nkeys; k++) {
				if (dt_bpf_difo_reads_args(ap->ac_keys[k]))
					return true;
			}
		}
	}
	return false;
}

/*
 * A return probe at a conditional tail call (a conditional branch out of
 * the function) fires only when the branch is taken: at such a site, the
 * registers the uprobe saw are tested as the branch tests them, and the
 * program goes to lexit when it falls through.  A condition on the flags
 * is the ISA's truth table of it over the flag bits it reads
 * (dt_isa_cond_holds(), il_condbits[]): r1 gathers those bits into an
 * index, and the table's bit at that index decides.  A condition on one
 * register (dt_isa_cond_reg(): arm64's cbz, tbnz, ...) masks it and
 * compares with zero.
 */
void
dt_bpf_cg_ucond(dt_bpf_cg_t *cg, uint32_t lexit)
{
	const dt_bpf_progspec_t *ps = cg->cg_ps;
	const dt_isa_layout_t *il = &dt_isa_layout;
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);

	for (size_t i = 0; i < ps->ps_nuconds; i++) {
		uint32_t lnext = dt_bpf_label_new(cg->cg_b);
		unsigned cc = (unsigned) ps->ps_uconds[i] - 1;
		uint64_t table = 0;
		dt_isa_regcond_t rc;

		if (ps->ps_ucookieoff) {
			/* pid*: the site by its offset, from the cookie */
			DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R6));
			DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_attach_cookie));
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R0, 32));
			DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R0));
		} else {
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6,
			    il->il_pc));
		}
		dt_bpf_emit_imm64(cg->cg_b, DT_R2, ps->ps_ucondpc[i]);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JNE, DT_R1,
		    DT_R2, 0), lnext);
		if (dt_isa_cond_reg(cc, &rc)) {
			DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R6,
			    il->il_uregs[rc.dr_reg]));
			dt_bpf_emit_imm64(cg->cg_b, DT_R2, rc.dr_mask);
			DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_AND, DT_R1, DT_R2));
			dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(
			    rc.dr_zero ? BPF_JNE : BPF_JEQ, DT_R1, 0, 0), lexit);
			dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
			dt_bpf_label_here(cg->cg_b, lnext);
			continue;
		}
		for (unsigned x = 0; x < (1U << il->il_ncondbits); x++) {
			uint64_t flags = 0;

			for (unsigned k = 0; k < il->il_ncondbits; k++) {
				if (x & (1U << k))
					flags |= 1ULL << il->il_condbits[k];
			}
			if (dt_isa_cond_holds(cc, flags))
				table |= 1ULL << x;
		}
		/* r3 = flags; r1 = the index of their combination */
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R3, DT_R6, il->il_flags));
		DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, 0));
		for (unsigned k = 0; k < il->il_ncondbits; k++) {
			DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R3));
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R2,
			    il->il_condbits[k]));
			DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R2, 1));
			if (k > 0)
				DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_LSH, DT_R2,
				    (int32_t) k));
			DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_OR, DT_R1, DT_R2));
		}
		dt_bpf_emit_imm64(cg->cg_b, DT_R2, table);
		DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_RSH, DT_R2, DT_R1));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_AND, DT_R2, 1));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R2, 0, 0),
		    lexit);
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
		dt_bpf_label_here(cg->cg_b, lnext);
	}
	dt_bpf_label_here(cg->cg_b, ldone);
}
