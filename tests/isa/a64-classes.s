/* SPDX-License-Identifier: MIT */
// a64-classes.s: one instance or more of every instruction class of
// isa/aarch64/a64_decode.h, in functions with symbols, for the comparison
// with aarch64 objdump (tests/isa/decode-arm64-binaries.sh assembles it
// with -march=armv8.5-a+lse).  Never run: only disassembled.
	.text
	.type pool, %object
pool:
	.quad 0x0123456789abcdef
	.size pool, . - pool

	.globl classes
	.type classes, %function
classes:
.Lclasses:
back:
	adr x0, fwd
	adrp x1, back
	adr x30, back
	ldr w2, data
	ldr x3, pool
	ldrsw x4, data
	ldr s5, data
	ldr d6, pool
	ldr q7, data
	prfm pldl1keep, fwd
	b back
	bl fwd
	b.eq back
	b.ne fwd
	b.hi fwd
	b.al fwd
	cbz w5, back
	cbnz x6, fwd
	tbz w7, #3, back
	tbnz x8, #40, fwd
	tbz x9, #63, back
	ret
	ret x1
	br x2
	blr x3
	blr x30
	retaa
	retab
	braa x1, x2
	brab x3, sp
	braaz x4
	brabz x5
	blraa x6, x7
	blrab x8, x9
	blraaz x3
	blrabz x10
	paciasp
	autiasp
	pacibsp
	autibsp
	paciaz
	autia1716
	xpaclri
	bti
	bti c
	bti j
	bti jc
	ldxr x0, [x1]
	ldxrb w0, [x1]
	ldxrh w0, [x1]
	ldaxr w2, [x3]
	ldxp x0, x1, [x2]
	ldaxp w0, w1, [x2]
	stxr w0, x1, [x2]
	stxrb w0, w1, [x2]
	stlxr w4, w5, [x6]
	stxp w0, x1, x2, [x3]
	stlxp w2, x3, x4, [x5]
	ldar x0, [x1]
	stlr w0, [x1]
	ldapr x0, [x1]
	casal x0, x1, [x2]
	casp x0, x1, x2, x3, [x4]
	ldadd x0, x1, [x2]
	swp w0, w1, [x2]
	clrex
	clrex #5
	svc #0
	svc #0x80
	hvc #1
	smc #2
	brk #1000
	hlt #1
	udf #3
	nop
	yield
	add x0, x1, x2
	ldr x0, [x1, #8]
	ldr x0, [sp], #16
	stp x29, x30, [sp, #-16]!
	mov x29, sp
	mrs x0, tpidr_el0
	eret
	drps
	hint #9
fwd:
	nop
	bc.eq fwd
	b.hs fwd
	adr x9, data
	ldr x10, data
	ret
	.balign 16
data:
	.quad 0x1122334455667788, 0x99aabbccddeeff00
	.size classes, . - classes

// An exclusive sequence, a literal pool read by the function, tail calls.
	.globl excl
	.type excl, %function
excl:
	ldr w3, 3f
1:	ldaxr w1, [x0]
	cmp w1, w3
	b.ne 2f
	stlxr w4, w2, [x0]
	cbnz w4, 1b
2:	cbz w1, .Lclasses
	tbnz w1, #2, .Lclasses
	b.lt .Lclasses
	b .Lclasses
3:	.word 0x2a
	.size excl, . - excl
