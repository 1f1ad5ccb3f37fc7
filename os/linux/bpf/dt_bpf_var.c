/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_var.c: D variables in the translator -- globals and
 * clause-locals in the state and scratch maps, thread-locals and
 * associative arrays in a hash map each (their keys built from the
 * tuple stack), loaded and stored as dif_interp.c does.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "common/dif/dif.h"
#include "common/dif/dif_interp.h"
#include "os/linux/bpf/dt_bpf_gen.h"
#include "os/linux/bpf/dt_bpf_impl.h"

/*
 * Variables.
 */

/* rd = address of a by-reference static (r8 or r7 + off), or NULL. */
void
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

void
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

void
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

/* Adds delta (an int32) to the bytes the dynamic variables hold. */
static void
dt_bpf_cg_dynused_add(dt_bpf_cg_t *cg, int32_t delta)
{
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, delta));
	DT_EMIT(cg, DT_BPF_INSN(BPF_STX | BPF_DW | DT_BPF_ATOMIC, DT_R8, DT_R1,
	    (int16_t) cg->cg_lay->bl_dynused_off, BPF_ADD));
}

/*
 * Stores DIF register rs into a dynamic variable.  As in DTrace, where
 * they come from one pool, all dynamic variables share dynvarsize bytes:
 * a new element is charged dt_bpf_layout_dyncost() bytes (the first
 * always fits, as DTrace raises a dynvarsize too small for one element
 * to one element), a deleted one gives them back, and a store that does
 * not fit is dropped and counted as DTrace's dynamic variable drops,
 * and ends the clause, its record unwritten, as DTrace's drop does
 * (dt_bpf_cg_dyndrop()).
 * The element is added first and charged after, so that adding one, the
 * usual store (self->ts = timestamp), costs one map call and one atomic
 * add; replacing a value charges nothing.
 */
/*
 * Delete the element keyed at r7 + dynkey_off, and give its cost back;
 * to lnone where there was none.
 */
static void
dt_bpf_cg_dyndel(dt_bpf_cg_t *cg, const dt_bpf_var_t *bv, int32_t cost,
    uint32_t lnone)
{
	dt_bpf_emit_map_fd(cg->cg_b, DT_R1, bv->bv_fd);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R2, DT_R7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R2,
	    (int32_t) cg->cg_lay->bl_dynkey_off));
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_map_delete_elem));
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP32_IMM(BPF_JNE, DT_R0, 0, 0),
	    lnone);
	dt_bpf_cg_dynused_add(cg, -cost);
}

/*
 * A dropped store: counted, and, as in DTrace (whose drop is one of the
 * conditions that end a clause's actions), the clause ends there, its
 * record not written.  Inside a bpf_loop() callback, which cannot jump
 * out, the clause goes on to lcont.
 */
static void
dt_bpf_cg_dyndrop(dt_bpf_cg_t *cg, uint32_t lcont)
{
	dt_bpf_cg_counter(cg, DT_BPF_CNT_DYNDROPS);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0),
	    cg->cg_loopdepth == 0 && cg->cg_has_lnext ? cg->cg_lnext : lcont);
}

void
dt_bpf_cg_stdvar(dt_bpf_cg_t *cg, uint8_t scope, uint32_t id, bool array,
    unsigned rs)
{
	const dt_bpf_layout_t *lay = cg->cg_lay;
	const dt_bpf_var_t *bv = dt_bpf_layout_var(lay, scope, id);
	uint32_t ldel = dt_bpf_label_new(cg->cg_b);
	uint32_t ldone = dt_bpf_label_new(cg->cg_b);
	uint32_t ldrop = dt_bpf_label_new(cg->cg_b);
	uint32_t lnew = dt_bpf_label_new(cg->cg_b);
	int32_t cost;

	if (bv == NULL || bv->bv_fd < 0) {
		dt_bpf_cg_fault(cg, DIF_FLT_ILLOP, 0);
		return;
	}
	cost = (int32_t) dt_bpf_layout_dyncost(bv);
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
	dt_bpf_cg_map_update(cg, bv->bv_fd, lay->bl_dynkey_off,
	    lay->bl_dynval_off, BPF_NOEXIST);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP32_IMM(BPF_JEQ, DT_R0, 0, 0), lnew);
	/*
	 * A full map drops the store, counted as DTrace's dynvar drops.  The
	 * results of map calls are compared as ints: before Linux 6.4 a
	 * map's update and delete returned one, which can reach R0 without
	 * its sign (-EEXIST as 0xffffffef), so that a 64-bit compare took
	 * a replaced value for a drop.
	 */
	dt_bpf_jmp_label(cg->cg_b,
	    DT_BPF_JMP32_IMM(BPF_JNE, DT_R0, -EEXIST, 0), ldrop);
	dt_bpf_cg_map_update(cg, bv->bv_fd, lay->bl_dynkey_off,
	    lay->bl_dynval_off, BPF_EXIST);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP32_IMM(BPF_JEQ, DT_R0, 0, 0),
	    ldone);
	dt_bpf_label_here(cg->cg_b, ldrop);
	dt_bpf_cg_dyndrop(cg, ldone);

	/*
	 * Added: charge it, and take it back if it does not fit.  Without
	 * fetch-add (before 5.12) an add and a load after it: what the load
	 * sees may include another CPU's charge, which makes the check
	 * stricter by that much, never looser.
	 */
	dt_bpf_label_here(cg->cg_b, lnew);
	DT_EMIT(cg, DT_BPF_MOV64_IMM(DT_R1, cost));
	if (cg->cg_fetch) {
		DT_EMIT(cg, DT_BPF_INSN(BPF_STX | BPF_DW | DT_BPF_ATOMIC, DT_R8,
		    DT_R1, (int16_t) lay->bl_dynused_off,
		    BPF_ADD | 0x01 /* BPF_FETCH */));
	} else {
		DT_EMIT(cg, DT_BPF_INSN(BPF_STX | BPF_DW | DT_BPF_ATOMIC, DT_R8,
		    DT_R1, (int16_t) lay->bl_dynused_off, BPF_ADD));
		DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R8,
		    (int16_t) lay->bl_dynused_off));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_SUB, DT_R1, cost));
	}
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R1, 0, 0), ldone);
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, cost));
	dt_bpf_emit_imm64(cg->cg_b, DT_R3, lay->bl_dynvarsize);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JMP_REG(BPF_JLE, DT_R1, DT_R3, 0),
	    ldone);
	/* Over: taken back, then dropped. */
	dt_bpf_cg_dyndel(cg, bv, cost, ldrop);
	dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldrop);

	dt_bpf_label_here(cg->cg_b, ldel);
	dt_bpf_cg_dyndel(cg, bv, cost, ldone);
	dt_bpf_label_here(cg->cg_b, ldone);
}
