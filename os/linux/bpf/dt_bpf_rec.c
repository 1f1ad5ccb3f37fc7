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
#include "os/linux/dt_linux_features.h"

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

/* word &= the bytes before its first NUL, if it has one (r0, r3 spent). */
static void
dt_bpf_cg_comm_word(dt_bpf_cg_t *cg, int word, int next, uint32_t ldone)
{
	uint32_t lnonul = dt_bpf_label_new(cg->cg_b);

	/*
	 * (w - 0x01..01) & ~w & 0x80..80 sets the top bit of every NUL byte
	 * below which no byte is NUL, so its lowest set bit is the first
	 * NUL's: one less than that bit shifted down 7 keeps the bytes
	 * before it.  r4 and r5 hold the two constants.
	 */
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R3, word));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_SUB, DT_R3, DT_R4));
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R0, word));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_XOR, DT_R0, -1));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_AND, DT_R3, DT_R0));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_AND, DT_R3, DT_R5));
	dt_bpf_jmp_label(
	    cg->cg_b, DT_BPF_JMP_IMM(BPF_JEQ, DT_R3, 0, 0), lnonul);
	DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R0, DT_R3));
	DT_EMIT(cg, DT_BPF_NEG64(DT_R0));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_AND, DT_R3, DT_R0));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_RSH, DT_R3, 7));
	DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_SUB, DT_R3, 1));
	DT_EMIT(cg, DT_BPF_ALU64_REG(BPF_AND, word, DT_R3));
	/* A NUL in the first word: the second is all padding. */
	if (next >= 0) {
		DT_EMIT(cg, DT_BPF_MOV64_IMM(next, 0));
		dt_bpf_jmp_label(cg->cg_b, DT_BPF_JA(0), ldone);
	}
	dt_bpf_label_here(cg->cg_b, lnonul);
}

/*
 * The current task's comm into the size bytes at r7 + off (at most 16
 * are written), NUL-padded where dt_bpf_comm_direct() says so; the
 * helper, bpf_get_current_comm(), pads only on some kernels (6.12 and
 * 6.18 do, 6.1 leaves what was there after the NUL), so its caller must
 * have zeroed the bytes.
 * Where a program may load task_struct.comm itself (dt_linux_task_comm)
 * and all 16 bytes are wanted, two 8-byte loads through
 * bpf_get_current_task_btf() replace the helper's copy -- about 30 ns
 * less a firing of @[execname] = count(), a fifth of it.  Every byte
 * after the first NUL is cleared: a kernel that renames a task in place
 * without padding leaves the old name's tail there, which would make
 * another key.
 */
bool
dt_bpf_comm_direct(uint32_t off, uint32_t size)
{
	return __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && size >= 16 &&
	    off + 8 <= INT16_MAX && dt_linux_task_comm() >= 0;
}

void
dt_bpf_cg_comm(dt_bpf_cg_t *cg, uint32_t off, uint32_t size)
{
	int comm = dt_bpf_comm_direct(off, size) ? dt_linux_task_comm() : -1;
	uint32_t ldone;

	if (comm < 0) {
		DT_EMIT(cg, DT_BPF_MOV64_REG(DT_R1, DT_R7));
		DT_EMIT(cg, DT_BPF_ALU64_IMM(BPF_ADD, DT_R1, (int32_t) off));
		DT_EMIT(cg,
		    DT_BPF_MOV64_IMM(DT_R2, size < 16 ? (int32_t) size : 16));
		DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_comm));
		return;
	}
	ldone = dt_bpf_label_new(cg->cg_b);
	DT_EMIT(cg, DT_BPF_CALL(BPF_FUNC_get_current_task_btf));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R1, DT_R0, (int16_t) comm));
	DT_EMIT(cg, DT_BPF_LDX_MEM(BPF_DW, DT_R2, DT_R0, (int16_t) (comm + 8)));
	dt_bpf_emit_imm64(cg->cg_b, DT_R4, 0x0101010101010101ULL);
	dt_bpf_emit_imm64(cg->cg_b, DT_R5, 0x8080808080808080ULL);
	dt_bpf_cg_comm_word(cg, DT_R1, DT_R2, ldone);
	dt_bpf_cg_comm_word(cg, DT_R2, -1, ldone);
	dt_bpf_label_here(cg->cg_b, ldone);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R1, (int16_t) off));
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_R7, DT_R2, (int16_t) (off + 8)));
}

/*
 * Runs a DIF object and stores its value as record rd at r7 + base +
 * rd_offset (which the caller has zeroed).  An object that only returns
 * execname -- the key of the most common aggregation, @[execname] --
 * becomes the task's comm straight into the record (dt_bpf_cg_comm),
 * NUL-padded as a string record is, and the object has nothing else to
 * do.
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
		dt_bpf_cg_comm(cg, base + rd->rd_offset, rd->rd_size);
		return;
	}
	dt_bpf_cg_difo(cg, difo);
	DT_EMIT(cg, DT_BPF_STX_MEM(BPF_DW, DT_FP, DT_R0, DT_FP_T0));
	dt_bpf_cg_store_rec(cg, rd, base);
}
