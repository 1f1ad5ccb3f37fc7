/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_rec.c: records in the translator -- a DIF object's value stored
 * as a record of the clause's output, by the record's type and size.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/dif/dif.h"
#include "common/dif/dif_interp.h"
#include "os/linux/bpf/dt_bpf_gen.h"
#include "os/linux/bpf/dt_bpf_impl.h"

/*
 * Records and aggregations.
 */

/* Stores the value in slot T0 as record rd at r7 + base + rd_offset. */
void
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
