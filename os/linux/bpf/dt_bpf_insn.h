/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_insn.h: building eBPF instructions by hand, and a growable
 * instruction buffer with forward labels.
 *
 * The translator generates struct bpf_insn arrays directly (no compiler at
 * run time), so it needs the instruction encodings as expressions.  The
 * macros below build one instruction each; DT_BPF_LD_MAP_FD and
 * DT_BPF_LD_IMM64 are the two-slot 64-bit immediate loads.
 *
 * dt_bpf_buf_t collects instructions.  Jumps are usually emitted before
 * their target exists: dt_bpf_label_new() names a target, the jump
 * macros' offset is left 0 and dt_bpf_jmp_label() records a fixup, and
 * dt_bpf_label_here() binds the label to the next instruction.
 * dt_bpf_buf_finish() patches every fixup (and reports a label that was
 * never bound), making jumps too long for the 16-bit offset long ones
 * where the kernel has them (dt_bpf_relax.c).  Errors (out of
 * memory, ...) are sticky in b_err so that code generation can run to the
 * end and be checked once.
 */
#ifndef DT_BPF_INSN_H
#define DT_BPF_INSN_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/bpf.h>

/* Register names, for readability of generated code. */
#define DT_R0  BPF_REG_0
#define DT_R1  BPF_REG_1
#define DT_R2  BPF_REG_2
#define DT_R3  BPF_REG_3
#define DT_R4  BPF_REG_4
#define DT_R5  BPF_REG_5
#define DT_R6  BPF_REG_6
#define DT_R7  BPF_REG_7
#define DT_R8  BPF_REG_8
#define DT_R9  BPF_REG_9
#define DT_FP  BPF_REG_10

#define DT_BPF_INSN(c, d, s, o, i)                                           \
	((struct bpf_insn) { .code = (uint8_t) (c), .dst_reg = (d),          \
	    .src_reg = (s), .off = (int16_t) (o), .imm = (int32_t) (i) })

#define DT_BPF_ALU64_REG(op, d, s)                                           \
	DT_BPF_INSN(BPF_ALU64 | BPF_OP(op) | BPF_X, d, s, 0, 0)
#define DT_BPF_ALU64_IMM(op, d, imm)                                         \
	DT_BPF_INSN(BPF_ALU64 | BPF_OP(op) | BPF_K, d, 0, 0, imm)
#define DT_BPF_ALU32_IMM(op, d, imm)                                         \
	DT_BPF_INSN(BPF_ALU | BPF_OP(op) | BPF_K, d, 0, 0, imm)
#define DT_BPF_MOV64_REG(d, s)	 DT_BPF_ALU64_REG(BPF_MOV, d, s)
#define DT_BPF_MOV64_IMM(d, imm) DT_BPF_ALU64_IMM(BPF_MOV, d, imm)
#define DT_BPF_MOV32_IMM(d, imm) DT_BPF_ALU32_IMM(BPF_MOV, d, imm)
#define DT_BPF_NEG64(d)	DT_BPF_INSN(BPF_ALU64 | BPF_NEG, d, 0, 0, 0)

/* Memory: *(size *)(s + off) and stores to (d + off). */
#define DT_BPF_LDX_MEM(sz, d, s, off)                                        \
	DT_BPF_INSN(BPF_LDX | BPF_SIZE(sz) | BPF_MEM, d, s, off, 0)
#define DT_BPF_STX_MEM(sz, d, s, off)                                        \
	DT_BPF_INSN(BPF_STX | BPF_SIZE(sz) | BPF_MEM, d, s, off, 0)
#define DT_BPF_ST_MEM(sz, d, off, imm)                                       \
	DT_BPF_INSN(BPF_ST | BPF_SIZE(sz) | BPF_MEM, d, 0, off, imm)

/* Jumps: offsets are in instructions, relative to the next one. */
#define DT_BPF_JMP_REG(op, d, s, off)                                        \
	DT_BPF_INSN(BPF_JMP | BPF_OP(op) | BPF_X, d, s, off, 0)
#define DT_BPF_JMP_IMM(op, d, imm, off)                                      \
	DT_BPF_INSN(BPF_JMP | BPF_OP(op) | BPF_K, d, 0, off, imm)
/* The same on the low 32 bits of d (an int a helper returned). */
#define DT_BPF_JMP32_IMM(op, d, imm, off)                                    \
	DT_BPF_INSN(BPF_JMP32 | BPF_OP(op) | BPF_K, d, 0, off, imm)
#define DT_BPF_JA(off)	     DT_BPF_INSN(BPF_JMP | BPF_JA, 0, 0, off, 0)
/* A jump with a 32-bit offset (Linux 6.4: DT_LF_GOTOL). */
#define DT_BPF_GOTOL(off)    DT_BPF_INSN(BPF_JMP32 | BPF_JA, 0, 0, 0, off)
#define DT_BPF_CALL(fn)	     DT_BPF_INSN(BPF_JMP | BPF_CALL, 0, 0, 0, fn)
#define DT_BPF_EXIT()	     DT_BPF_INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

/* 64-bit immediates take two slots. */
#define DT_BPF_LD_IMM64_LO(d, src, v)                                        \
	DT_BPF_INSN(BPF_LD | BPF_DW | BPF_IMM, d, src, 0,                    \
	    (uint32_t) (uint64_t) (v))
#define DT_BPF_LD_IMM64_HI(v)                                                \
	DT_BPF_INSN(0, 0, 0, 0, (uint32_t) ((uint64_t) (v) >> 32))

/*
 * The most instructions a program may have: the kernel's limit for
 * privileged programs (BPF_COMPLEXITY_LIMIT_INSNS), which the engine
 * needs anyway (CAP_BPF and CAP_PERFMON).
 */
#define DT_BPF_MAXPROG 1000000

typedef struct dt_bpf_fixup {
	uint32_t fx_insn;	/* the jump, or the ld_imm64 of a function */
	uint32_t fx_label;
	bool fx_imm;		/* patch imm (a function's address), not off */
} dt_bpf_fixup_t;

/*
 * A subprogram (a bpf_loop() callback): instructions [fn_start, fn_end)
 * as emitted, moved after the main program by dt_bpf_buf_finish(), which
 * sets fn_start to where it then begins.
 */
typedef struct dt_bpf_func {
	uint32_t fn_start;
	uint32_t fn_end;
} dt_bpf_func_t;

typedef struct dt_bpf_buf {
	struct bpf_insn *b_insns;
	uint32_t b_len;
	uint32_t b_cap;
	int32_t *b_labels;	/* instruction index, or -1 while unbound */
	uint32_t b_nlabels;
	uint32_t b_labcap;
	dt_bpf_fixup_t *b_fixups;
	uint32_t b_nfixups;
	uint32_t b_fixcap;
	int32_t *b_labfunc;	/* per label: the function bound in, or -1 */
	dt_bpf_func_t *b_funcs;
	uint32_t b_nfuncs;
	uint32_t b_funccap;
	int32_t b_curfunc;	/* the function being emitted, or -1 */
	int b_err;		/* first error (errno value), sticky */
	bool b_gotol;		/* far jumps may use gotol (Linux 6.4) */
} dt_bpf_buf_t;

extern void dt_bpf_buf_init(dt_bpf_buf_t *b);
extern void dt_bpf_buf_fini(dt_bpf_buf_t *b);
extern void dt_bpf_emit(dt_bpf_buf_t *b, struct bpf_insn insn);
/* Emits a 64-bit immediate load into register d. */
extern void dt_bpf_emit_imm64(dt_bpf_buf_t *b, int d, uint64_t v);
/* Emits a load of a map's file descriptor, as the kernel relocates it. */
extern void dt_bpf_emit_map_fd(dt_bpf_buf_t *b, int d, int fd);
extern uint32_t dt_bpf_label_new(dt_bpf_buf_t *b);
extern void dt_bpf_label_here(dt_bpf_buf_t *b, uint32_t label);
/* Emits a jump instruction whose offset is patched to reach label. */
extern void dt_bpf_jmp_label(dt_bpf_buf_t *b, struct bpf_insn jmp,
    uint32_t label);
/*
 * Subprograms: instructions emitted between dt_bpf_func_begin() and
 * dt_bpf_func_end() (not nested) form a function of their own, placed
 * after the main program; no jump may cross its bounds.
 * dt_bpf_emit_func_addr() loads the address of the function whose first
 * instruction is at label (for bpf_loop()).
 */
extern void dt_bpf_func_begin(dt_bpf_buf_t *b);
extern void dt_bpf_func_end(dt_bpf_buf_t *b);
extern void dt_bpf_emit_func_addr(dt_bpf_buf_t *b, int d, uint32_t label);
/*
 * Resolves the fixups; returns 0 or an errno value: ERANGE when a jump is
 * too far for its offset and b_gotol is not set, E2BIG when the program
 * has more than DT_BPF_MAXPROG instructions.
 */
extern int dt_bpf_buf_finish(dt_bpf_buf_t *b);
/*
 * dt_bpf_buf_finish()'s last step (dt_bpf_relax.c): writes every relative
 * offset from the bound labels, growing jumps too far for 16 bits.
 */
extern int dt_bpf_buf_relax(dt_bpf_buf_t *b);

#endif /* DT_BPF_INSN_H */
