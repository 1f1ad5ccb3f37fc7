/* SPDX-License-Identifier: MIT */
/*
 * a64_cfi_frames.S: arm64 functions with known frames, linked into a
 * shared object whose .eh_frame tests/unit/a64_cfi_test.c reads: the
 * call chain a64_start -> a64_fpframe -> a64_framed -> a64_leaf, and
 * a64_lronly.  The CFI directives say what GCC says for such code; the
 * test checks the unwind rows at each instruction named in the comments
 * (offsets from the function's start).
 */
	.text
	.p2align 2

/* The outermost frame: no return address. */
	.globl	a64_start
	.type	a64_start, %function
a64_start:
	.cfi_startproc
	.cfi_undefined x30
	mov	x29, #0			/* 0 */
	mov	x30, #0			/* 4 */
	bl	a64_fpframe		/* 8 */
	brk	#0			/* 12: the return address */
	.cfi_endproc
	.size	a64_start, .-a64_start

/* A frame found through x29 (as after alloca). */
	.globl	a64_fpframe
	.type	a64_fpframe, %function
a64_fpframe:
	.cfi_startproc
	stp	x29, x30, [sp, #-32]!	/* 0: CFA sp, x30 holds the address */
	.cfi_def_cfa_offset 32
	.cfi_offset 29, -32
	.cfi_offset 30, -24
	mov	x29, sp			/* 4: CFA sp + 32 */
	.cfi_def_cfa_register 29
	sub	sp, sp, x0		/* 8: CFA x29 + 32 */
	bl	a64_framed		/* 12 */
	mov	sp, x29			/* 16: the return address */
	.cfi_def_cfa_register 31
	ldp	x29, x30, [sp], #32	/* 20: CFA sp + 32 */
	.cfi_restore 30
	.cfi_restore 29
	.cfi_def_cfa_offset 0
	ret				/* 24: CFA sp, x30 */
	.cfi_endproc
	.size	a64_fpframe, .-a64_fpframe

/* A frame record and a signed return address (-mbranch-protection). */
	.globl	a64_framed
	.type	a64_framed, %function
a64_framed:
	.cfi_startproc
	hint	#25			/* 0: paciasp */
	.cfi_negate_ra_state
	stp	x29, x30, [sp, #-48]!	/* 4: signed, still in x30 */
	.cfi_def_cfa_offset 48
	.cfi_offset 29, -48
	.cfi_offset 30, -40
	mov	x29, sp			/* 8: CFA sp + 48 */
	str	x19, [sp, #16]		/* 12 */
	.cfi_offset 19, -32
	mov	x19, x0			/* 16 */
	bl	a64_leaf		/* 20 */
	add	x0, x0, x19		/* 24: the return address */
	ldr	x19, [sp, #16]		/* 28 */
	ldp	x29, x30, [sp], #48	/* 32 */
	.cfi_restore 30
	.cfi_restore 29
	.cfi_restore 19
	.cfi_def_cfa_offset 0
	hint	#29			/* 36: autiasp; CFA sp, signed */
	.cfi_negate_ra_state
	ret				/* 40: CFA sp, x30 */
	.cfi_endproc
	.size	a64_framed, .-a64_framed

/* A leaf that never touches the stack. */
	.globl	a64_leaf
	.type	a64_leaf, %function
a64_leaf:
	.cfi_startproc
	add	x0, x0, #1		/* 0 */
	ret				/* 4 */
	.cfi_endproc
	.size	a64_leaf, .-a64_leaf

/* No frame record: only the link register saved (-fomit-frame-pointer). */
	.globl	a64_lronly
	.type	a64_lronly, %function
a64_lronly:
	.cfi_startproc
	str	x30, [sp, #-16]!	/* 0 */
	.cfi_def_cfa_offset 16
	.cfi_offset 30, -16
	bl	a64_leaf		/* 4: CFA sp + 16, x30 at CFA - 16 */
	ldr	x30, [sp], #16		/* 8 */
	.cfi_restore 30
	.cfi_def_cfa_offset 0
	ret				/* 12: CFA sp, x30 */
	.cfi_endproc
	.size	a64_lronly, .-a64_lronly

	.section .note.GNU-stack,"",%progbits
