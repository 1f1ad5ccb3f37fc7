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
 * (CFA: %rsp or %rbp plus an offset) and where the caller's %rbp was
 * saved.  On x86-64 the return address is always the word below the CFA.
 * Rules the table cannot say (a CFA computed by a DWARF expression, as
 * after stack realignment) and code without CFI get the frame-pointer
 * rule (CFA = %rbp + 16, %rbp saved at CFA - 16); the outermost frame
 * (_start, clone's child) says where to stop.
 *
 * The same rows are walked by C here (the ptrace engine, reading the
 * target's memory) and by generated BPF (os/linux/bpf/dt_bpf_stack.c,
 * the rows in an array map), so both engines see the same frames.
 */
#ifndef DT_CFI_H
#define DT_CFI_H

#include <stddef.h>
#include <stdint.h>

/* cr_cfa_reg: DWARF register numbers, and the end of the stack. */
#define DT_CFI_STOP 0	/* no caller: the outermost frame */
#define DT_CFI_RBP 6
#define DT_CFI_RSP 7

/* One row, as the BPF unwinder reads it from its map: 16 bytes. */
typedef struct dt_cfi_row {
	uint64_t cr_pc;		/* first address the rule covers */
	int32_t cr_cfa_off;	/* CFA = cr_cfa_reg + cr_cfa_off */
	uint8_t cr_cfa_reg;	/* DT_CFI_RSP, DT_CFI_RBP or DT_CFI_STOP */
	uint8_t cr_pad;
	int16_t cr_rbp_off;	/* caller's %rbp at CFA + this; 0: %rbp kept */
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

/*
 * Walk a stack from the registers of its innermost frame: up to max
 * program counters into pcs (the first is ip).  Returns how many.  Every
 * frame after the first is looked up at its return address minus one,
 * the call instruction, since a call to a function that does not return
 * may be the last instruction of its caller.  The walk stops at the
 * outermost frame, at an unreadable word, at a zero return address, or
 * when a CFA does not move up the stack.
 */
extern uint32_t dt_cfi_unwind(const dt_cfi_table_t *ct, uint64_t ip,
    uint64_t sp, uint64_t bp, dt_cfi_read_f *rd, void *arg, uint64_t *pcs,
    uint32_t max);

#endif /* DT_CFI_H */
