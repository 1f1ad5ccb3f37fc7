/* SPDX-License-Identifier: MIT */
/*
 * dt_cfi.h: call frame information (.eh_frame, .debug_frame) turned into
 * unwind tables, and the user stack unwinder both engines share.
 *
 * Debian's programs and libraries are built without frame pointers, so a
 * user stack is walked with the CFI the compiler leaves for exceptions.
 * Its programs (DW_CFA_*) are run once, when a process's stack is first
 * wanted, into a flat table sorted by address: each row gives, from its
 * address up to the next row's, how to find the canonical frame address
 * (CFA: the stack pointer or the frame pointer plus an offset), where the
 * caller's frame pointer was saved, and where the return address is.
 * The rows are the same for both processors the unwinder knows, whose
 * objects (the ELF machine of each) it reads with their own DWARF
 * register numbers: on x86-64 (%rsp, %rbp) the return address is always
 * the word below the CFA; on arm64 (sp, x29) it is in the link register
 * x30 until the function saves it, then in its frame record (usually the
 * word below the CFA too), and may be signed (pointer authentication).
 * Rules the table cannot say (a CFA computed by a DWARF expression, as
 * after stack realignment) and code without CFI get the frame-pointer
 * rule (CFA = frame pointer + 16, the caller's saved at CFA - 16, the
 * return address at CFA - 8: x86-64's push %rbp and arm64's frame
 * record alike); the outermost frame (_start, clone's child) says where
 * to stop.
 *
 * The same rows are walked by C here (the ptrace engine, reading the
 * target's memory) and by generated BPF (os/linux/bpf/dt_bpf_stack.c,
 * the rows in an array map), so both engines see the same frames.
 */
#ifndef DT_CFI_H
#define DT_CFI_H

#include <stddef.h>
#include <stdint.h>

/*
 * cr_cfa_reg: the register the CFA is computed from (x86-64's DWARF
 * numbers, whatever the processor: %rbp or x29, %rsp or sp), and the end
 * of the stack.
 */
#define DT_CFI_STOP 0	/* no caller: the outermost frame */
#define DT_CFI_FP 6	/* the frame pointer: %rbp, x29 */
#define DT_CFI_SP 7	/* the stack pointer: %rsp, sp */

/*
 * cr_ra: where the return address is.  0 is x86-64's place, the word at
 * CFA - 8, which every x86-64 row has (so its rows are what they were
 * before arm64's).  Otherwise, arm64's:
 */
#define DT_CFI_RA_SLOT 0x3f /* at CFA - 8 - 8 * (cr_ra & DT_CFI_RA_SLOT) */
#define DT_CFI_RA_LR 0x40   /* still in the link register (x30) */
#define DT_CFI_RA_PAC 0x80  /* signed (paciasp): strip it when read */

/*
 * A signed return address has the pointer-authentication code in the
 * bits above the user address space's, which arm64 Linux makes 48 bits
 * wide unless a process asks mmap() for higher addresses.
 */
#define DT_CFI_VA_BITS 48
#define DT_CFI_PAC_STRIP(ra) ((ra) & ((UINT64_C(1) << DT_CFI_VA_BITS) - 1))

/* One row, as the BPF unwinder reads it from its map: 16 bytes. */
typedef struct dt_cfi_row {
	uint64_t cr_pc;		/* first address the rule covers */
	int32_t cr_cfa_off;	/* CFA = cr_cfa_reg + cr_cfa_off */
	uint8_t cr_cfa_reg;	/* DT_CFI_SP, DT_CFI_FP or DT_CFI_STOP */
	uint8_t cr_ra;		/* the return address: DT_CFI_RA_* */
	int16_t cr_fp_off;	/* caller's frame pointer at CFA + this;
				   0: not saved, still in its register */
} dt_cfi_row_t;

/*
 * The most rows the BPF walk searches when it finds the table at run time
 * (its binary search is unrolled over this many); a process with more
 * keeps frame-pointer stacks outside its uprobes.
 */
#define DT_CFI_MAXROWS (1U << 22)

typedef struct dt_cfi_table {
	dt_cfi_row_t *ct_rows;	/* sorted by cr_pc; row 0 is at address 0 */
	size_t ct_nrows;
} dt_cfi_table_t;

/*
 * The rows of an ELF file at its link-time addresses, from .eh_frame, or
 * .debug_frame when it has no .eh_frame.  0, or -1 with errno (ENOEXEC:
 * not an ELF file; ENOMEM).  A file without CFI gives an empty table.
 */
extern int dt_cfi_load(const char *path, dt_cfi_table_t *out);

/*
 * The rows of a process at its run-time addresses: every file it maps
 * executable, from its /proc/<pid>/maps now.  Always at least the row at
 * address 0 (the frame-pointer rule).  0, or -1 with errno.
 */
extern int dt_cfi_proc(int pid, dt_cfi_table_t *out);

/*
 * Build a process table from maps text (the format of /proc/<pid>/maps),
 * for tests.
 */
extern int dt_cfi_maps(const char *maps, dt_cfi_table_t *out);

extern void dt_cfi_free(dt_cfi_table_t *ct);

/* The row covering pc (row 0 when none does). */
extern const dt_cfi_row_t *dt_cfi_find(const dt_cfi_table_t *ct, uint64_t pc);

/* Reads one word of the stack's process at addr: 0, or -1. */
typedef int dt_cfi_read_f(void *arg, uint64_t addr, uint64_t *valp);

/* The registers of a stack's innermost frame. */
typedef struct dt_cfi_regs {
	uint64_t cx_pc;
	uint64_t cx_sp;
	uint64_t cx_fp;	/* %rbp, x29 */
	uint64_t cx_lr;	/* x30; 0 where the processor has no link register */
} dt_cfi_regs_t;

/*
 * Walk a stack from the registers of its innermost frame: up to max
 * program counters into pcs (the first is its pc).  Returns how many.
 * Every frame after the first is looked up at its return address minus
 * one, the call instruction, since a call to a function that does not
 * return may be the last instruction of its caller.  A return address
 * in the link register is the first frame's alone: a function that made
 * a call had to save it.  The walk stops at the outermost frame, at an
 * unreadable word, at a zero return address, or when a CFA does not
 * move up the stack (the first frame's may stay where it is, at a
 * function that has not touched the stack with its return address
 * still in the link register).
 */
extern uint32_t dt_cfi_unwind(const dt_cfi_table_t *ct,
    const dt_cfi_regs_t *regs, dt_cfi_read_f *rd, void *arg, uint64_t *pcs,
    uint32_t max);

#endif /* DT_CFI_H */
