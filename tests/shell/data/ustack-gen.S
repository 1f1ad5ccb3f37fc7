/* SPDX-License-Identifier: MIT */
/*
 * ustack-gen.S: the two libraries of tests/shell/ustack-gen.sh, built
 * from this one source with FRAME 8 and 72: hop(f) calls f from a frame
 * of FRAME bytes below its return address, by the same instructions at
 * the same offsets, so that the return address of the call is the same
 * in both while the rule that finds the caller (CFA = %rsp + FRAME + 8)
 * differs (on arm64 CFA = sp + FRAME + 8, the return address at CFA - 8).
 * Before the call it zeroes a word: below the stack pointer
 * with FRAME 8 (nothing), with FRAME 72 the word where the 8-byte
 * frame's rule would look for the return address -- a walk that takes
 * that rule for this frame ends there instead of going on to hop()'s
 * caller.
 */
#if FRAME == 8
#define ZERO (-8)
#else
#define ZERO 8
#endif
#if defined(__aarch64__)
/*
 * arm64: the frame is FRAME + 8 bytes (16 or 80, sp staying 16-byte
 * aligned), the return address (x30) saved at its top, CFA - 8: at sp + 8
 * in the small frame, where the large one zeroes a word.
 */
	.text
	.globl	hop
	.type	hop, %function
hop:
	.cfi_startproc
	sub	sp, sp, #(FRAME + 8)
	.cfi_def_cfa_offset FRAME + 8
	str	x30, [sp, #FRAME]
	.cfi_offset x30, -8
	str	xzr, [sp, #ZERO]
	blr	x0
	ldr	x30, [sp, #FRAME]
	.cfi_restore x30
	add	sp, sp, #(FRAME + 8)
	.cfi_def_cfa_offset 0
	ret
	.cfi_endproc
	.size	hop, .-hop
#else
	.text
	.globl	hop
	.type	hop, @function
hop:
	.cfi_startproc
	subq	$FRAME, %rsp
	.cfi_def_cfa_offset FRAME + 8
	movq	$0, ZERO(%rsp)
	call	*%rdi
	addq	$FRAME, %rsp
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size	hop, .-hop
#endif
	.section .note.GNU-stack, "", %progbits
