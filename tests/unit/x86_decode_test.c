/* SPDX-License-Identifier: MIT */
/*
 * x86_decode_test.c: hand-written encodings for the x86-64 decoder.
 *
 * Each row of lentab[] is one instruction (hex bytes), decoded at
 * PC = 0x400000, with what the decoder must report: result code, length,
 * control-flow kind, the offset of a RIP-relative disp32 (-1 for none),
 * the offset and size of the first immediate (-1 / 0 for none) and, for
 * relative branches and RIP-relative operands, the target minus PC.
 * memtab[] checks the ModRM memory-operand decomposition.  The rows are
 * grouped by encoding class; the comment of each says why it is there.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa/x86_64/x86_decode.h"

#define	PC	0x400000ULL
#define	NOTGT	INT64_MIN

typedef struct lentest {
	const char	*name;
	const char	*hex;
	int		rc;
	int		len;
	int		cf;
	int		rip_off; /* disp32 offset if RIP-relative, or -1 */
	int		imm_off;	/* -1 for none */
	int		imm_size;
	int64_t		tgt;		/* target - PC, or NOTGT */
	unsigned int	flags;
} lentest_t;

#define	OK	0
#define	BAD	X86_DEC_INVALID
#define	SHORT	X86_DEC_SHORT
#define	N	X86_CF_NONE

static const lentest_t lentab[] = {
	/* --- one-byte opcodes, immediates --- */
	{ "nop", "90", OK, 1, N, -1, -1, 0, NOTGT, 0 },
	{ "push %rbp", "55", OK, 1, N, -1, -1, 0, NOTGT, 0 },
	{ "push %r12", "41 54", OK, 2, N, -1, -1, 0, NOTGT, 0 },
	{ "mov %rsp,%rbp", "48 89 e5", OK, 3, N, -1, -1, 0, NOTGT, 0 },
	{ "add $1,%al", "04 01", OK, 2, N, -1, 1, 1, NOTGT, 0 },
	{ "add $imm32,%eax", "05 78 56 34 12", OK, 5, N, -1, 1, 4, NOTGT,
	    0 },
	{ "add $imm16,%ax (66 shrinks Iz)", "66 05 34 12", OK, 4, N, -1, 2,
	    2, NOTGT, 0 },
	{ "add $imm32,%rax (REX.W keeps Iz 32)", "48 05 78 56 34 12", OK, 6,
	    N, -1, 2, 4, NOTGT, 0 },
	{ "REX.W overrides 66", "66 48 05 78 56 34 12", OK, 7, N, -1, 3, 4,
	    NOTGT, 0 },
	{ "mov $imm64,%rax", "48 b8 01 02 03 04 05 06 07 08", OK, 10, N, -1,
	    2, 8, NOTGT, 0 },
	{ "mov $imm32,%eax", "b8 01 02 03 04", OK, 5, N, -1, 1, 4, NOTGT,
	    0 },
	{ "mov $imm16,%ax", "66 b8 01 02", OK, 4, N, -1, 2, 2, NOTGT, 0 },
	{ "mov $imm64,%r15", "49 bf 01 02 03 04 05 06 07 08", OK, 10, N, -1,
	    2, 8, NOTGT, 0 },
	{ "mov $imm8,%r9b", "41 b1 05", OK, 3, N, -1, 2, 1, NOTGT, 0 },
	{ "push $imm32", "68 00 10 00 00", OK, 5, N, -1, 1, 4, NOTGT, 0 },
	{ "pushw $imm16", "66 68 00 10", OK, 4, N, -1, 2, 2, NOTGT, 0 },
	{ "push $imm8", "6a ff", OK, 2, N, -1, 1, 1, NOTGT, 0 },
	{ "imul $imm32,%ecx,%eax", "69 c1 00 01 00 00", OK, 6, N, -1, 2, 4,
	    NOTGT, 0 },
	{ "imul $imm8,%ecx,%eax", "6b c1 10", OK, 3, N, -1, 2, 1, NOTGT, 0 },
	{ "grp1 Eb,Ib", "80 38 00", OK, 3, N, -1, 2, 1, NOTGT, 0 },
	{ "grp1 Ev,Iz", "81 7d f8 00 01 00 00", OK, 7, N, -1, 3, 4, NOTGT,
	    0 },
	{ "grp1 Ev,Ib", "48 83 ec 28", OK, 4, N, -1, 3, 1, NOTGT, 0 },
	{ "test $imm8 (F6 /0)", "f6 c1 01", OK, 3, N, -1, 2, 1, NOTGT, 0 },
	{ "test $imm8 alias (F6 /1)", "f6 c9 01", OK, 3, N, -1, 2, 1, NOTGT,
	    0 },
	{ "not %al (F6 /2, no imm)", "f6 d0", OK, 2, N, -1, -1, 0, NOTGT,
	    0 },
	{ "test $imm32 mem (F7 /0)", "f7 45 f8 01 00 00 00", OK, 7, N, -1, 3,
	    4, NOTGT, 0 },
	{ "testw $imm16 (66 F7 /0)", "66 f7 c1 01 00", OK, 5, N, -1, 3, 2,
	    NOTGT, 0 },
	{ "neg %rax (F7 /3, no imm)", "48 f7 d8", OK, 3, N, -1, -1, 0,
	    NOTGT, 0 },
	{ "idiv mem (F7 /7)", "f7 7c 24 08", OK, 4, N, -1, -1, 0, NOTGT, 0 },
	{ "enter $imm16,$imm8", "c8 10 00 01", OK, 4, N, -1, 1, 2, NOTGT,
	    0 },
	{ "mov moffs64 -> %al", "a0 11 22 33 44 55 66 77 88", OK, 9, N, -1,
	    -1, 0, NOTGT, 0 },
	{ "mov moffs32 with 67", "67 a1 11 22 33 44", OK, 6, N, -1, -1, 0,
	    NOTGT, 0 },
	{ "movabs %rax -> moffs64", "48 a3 11 22 33 44 55 66 77 88", OK, 10,
	    N, -1, -1, 0, NOTGT, 0 },
	{ "mov moffs with 66 (still 8-byte address)",
	    "66 a1 11 22 33 44 55 66 77 88", OK, 10, N, -1, -1, 0, NOTGT, 0 },
	{ "movb $imm8, mem (C6 /0)", "c6 45 ff 00", OK, 4, N, -1, 3, 1,
	    NOTGT, 0 },
	{ "movq $imm32, mem (C7 /0)", "48 c7 44 24 08 00 00 00 00", OK, 9, N,
	    -1, 5, 4, NOTGT, 0 },
	{ "movw $imm16, mem", "66 c7 00 34 12", OK, 5, N, -1, 3, 2, NOTGT,
	    0 },
	{ "shl $imm8 (C1)", "48 c1 e0 04", OK, 4, N, -1, 3, 1, NOTGT, 0 },
	{ "shl by 1 (D1)", "d1 e0", OK, 2, N, -1, -1, 0, NOTGT, 0 },
	{ "in $imm8", "e4 60", OK, 2, N, -1, 1, 1, NOTGT, 0 },
	{ "int $0x80", "cd 80", OK, 2, X86_CF_INT, -1, 1, 1, NOTGT, 0 },
	{ "int1", "f1", OK, 1, X86_CF_INT, -1, -1, 0, NOTGT, 0 },
	{ "int3", "cc", OK, 1, X86_CF_INT3, -1, -1, 0, NOTGT, 0 },
	{ "xabort", "c6 f8 01", OK, 3, N, -1, 2, 1, NOTGT, 0 },
	{ "xbegin rel32", "c7 f8 10 00 00 00", OK, 6, X86_CF_XBEGIN, -1, 2,
	    4, 0x16, 0 },
	/* a 16-bit operand size truncates the abort address to 16 bits */
	{ "xbegin rel16 (66)", "66 c7 f8 10 00", OK, 5, X86_CF_XBEGIN, -1, 3,
	    2, 0x15 - (int64_t)PC, 0 },
	{ "hlt", "f4", OK, 1, N, -1, -1, 0, NOTGT, 0 },
	{ "cqo", "48 99", OK, 2, N, -1, -1, 0, NOTGT, 0 },
	{ "xlat", "d7", OK, 1, N, -1, -1, 0, NOTGT, 0 },
	{ "movsxd", "48 63 c7", OK, 3, N, -1, -1, 0, NOTGT, 0 },
	{ "pop mem (8F /0)", "8f 00", OK, 2, N, -1, -1, 0, NOTGT, 0 },

	/* --- control flow --- */
	{ "call rel32", "e8 fb ff ff ff", OK, 5, X86_CF_CALL, -1, 1, 4, 0,
	    0 },
	{ "jmp rel32", "e9 00 01 00 00", OK, 5, X86_CF_JMP, -1, 1, 4, 0x105,
	    0 },
	{ "jmp rel8 backwards", "eb fe", OK, 2, X86_CF_JMP, -1, 1, 1, 0, 0 },
	{ "je rel8", "74 10", OK, 2, X86_CF_JCC, -1, 1, 1, 0x12, 0 },
	{ "jg rel32", "0f 8f 00 00 00 80", OK, 6, X86_CF_JCC, -1, 2, 4,
	    6 - 0x80000000LL, 0 },
	{ "loop", "e2 fe", OK, 2, X86_CF_LOOP, -1, 1, 1, 0, 0 },
	{ "loope", "e1 02", OK, 2, X86_CF_LOOP, -1, 1, 1, 4, 0 },
	{ "loopne", "e0 02", OK, 2, X86_CF_LOOP, -1, 1, 1, 4, 0 },
	{ "jrcxz", "e3 05", OK, 2, X86_CF_JRCXZ, -1, 1, 1, 7, 0 },
	{ "jecxz (67)", "67 e3 05", OK, 3, X86_CF_JRCXZ, -1, 2, 1, 8, 0 },
	{ "ret", "c3", OK, 1, X86_CF_RET, -1, -1, 0, NOTGT, 0 },
	{ "rep ret", "f3 c3", OK, 2, X86_CF_RET, -1, -1, 0, NOTGT, 0 },
	{ "ret $imm16", "c2 08 00", OK, 3, X86_CF_RET, -1, 1, 2, NOTGT, 0 },
	{ "lret", "cb", OK, 1, X86_CF_RET_FAR, -1, -1, 0, NOTGT, 0 },
	{ "iretq", "48 cf", OK, 2, X86_CF_IRET, -1, -1, 0, NOTGT, 0 },
	{ "call *%rax", "ff d0", OK, 2, X86_CF_CALL_IND, -1, -1, 0, NOTGT,
	    0 },
	{ "call *(%r12,%rax,8)", "41 ff 14 c4", OK, 4, X86_CF_CALL_IND, -1,
	    -1, 0, NOTGT, 0 },
	{ "jmp *(%r12,%rsi,8)", "41 ff 24 f4", OK, 4, X86_CF_JMP_IND, -1, -1,
	    0, NOTGT, 0 },
	{ "jmp *disp(%rip)", "ff 25 00 10 00 00", OK, 6, X86_CF_JMP_IND, 2,
	    -1, 0, 0x1006, 0 },
	{ "notrack jmp *%rax", "3e ff e0", OK, 3, X86_CF_JMP_IND, -1, -1, 0,
	    NOTGT, 0 },
	{ "bnd jmp rel32", "f2 e9 00 00 00 00", OK, 6, X86_CF_JMP, -1, 2, 4,
	    6, 0 },
	{ "lcall *mem (FF /3)", "ff 18", OK, 2, X86_CF_CALL_FAR, -1, -1, 0,
	    NOTGT, 0 },
	{ "ljmp *mem (FF /5)", "48 ff 28", OK, 3, X86_CF_JMP_FAR, -1, -1, 0,
	    NOTGT, 0 },
	{ "syscall", "0f 05", OK, 2, X86_CF_SYSCALL, -1, -1, 0, NOTGT, 0 },
	{ "sysenter", "0f 34", OK, 2, X86_CF_SYSCALL, -1, -1, 0, NOTGT, 0 },
	{ "ud2", "0f 0b", OK, 2, X86_CF_UD, -1, -1, 0, NOTGT, 0 },
	{ "ud1", "0f b9 c0", OK, 3, X86_CF_UD, -1, -1, 0, NOTGT, 0 },
	/* 66 on near branches: Intel ignores it, AMD takes rel16 */
	{ "66 call (Intel)", "66 e8 00 00 00 00", OK, 6, X86_CF_CALL, -1, 2,
	    4, 6, 0 },
	{ "66 call (AMD)", "66 e8 10 00", OK, 4, X86_CF_CALL, -1, 2, 2,
	    (int64_t)((PC + 0x14) & 0xffff) - (int64_t)PC, X86_DF_AMD },
	{ "66 jcc rel32 (Intel)", "66 0f 84 00 00 00 00", OK, 7, X86_CF_JCC,
	    -1, 3, 4, 7, 0 },
	{ "66 jcc (AMD)", "66 0f 84 00 00", OK, 5, X86_CF_JCC, -1, 3, 2,
	    (int64_t)((PC + 5) & 0xffff) - (int64_t)PC, X86_DF_AMD },

	/* --- prefixes --- */
	{ "lock cmpxchg", "f0 48 0f b1 0a", OK, 5, N, -1, -1, 0, NOTGT, 0 },
	{ "rep movsb", "f3 a4", OK, 2, N, -1, -1, 0, NOTGT, 0 },
	{ "repne scasb", "f2 ae", OK, 2, N, -1, -1, 0, NOTGT, 0 },
	{ "fs mov", "64 48 8b 04 25 28 00 00 00", OK, 9, N, -1, -1, 0, NOTGT,
	    0 },
	{ "many redundant prefixes (nopw)",
	    "66 66 2e 0f 1f 84 00 00 00 00 00", OK, 11, N, -1, -1, 0, NOTGT,
	    0 },
	{ "odd prefix order", "2e f0 66 67 f3 90", OK, 6, N, -1, -1, 0,
	    NOTGT, 0 },
	{ "REX then legacy prefix: REX ignored", "48 66 90", OK, 3, N, -1,
	    -1, 0, NOTGT, 0 },
	{ "two REX, last one counts", "41 48 b8 01 02 03 04 05 06 07 08", OK,
	    11, N, -1, 3, 8, NOTGT, 0 },
	{ "REX.W ignored before 66: imm16", "48 66 b8 01 02", OK, 5, N, -1,
	    3, 2, NOTGT, 0 },
	{ "15 bytes is the limit",
	    "66 66 66 66 66 66 66 66 66 66 66 66 66 66 90", OK, 15, N, -1,
	    -1, 0, NOTGT, 0 },
	{ "16 bytes is invalid",
	    "66 66 66 66 66 66 66 66 66 66 66 66 66 66 66 90", BAD, 0, N, -1,
	    -1, 0, NOTGT, 0 },
	{ "length over 15 by operands",
	    "66 66 66 66 66 66 66 48 b8 01 02 03 04 05 06 07 08", BAD, 0, N,
	    -1, -1, 0, NOTGT, 0 },

	/* --- ModRM / SIB / displacement --- */
	{ "mod00 rm101: RIP-relative", "48 8b 05 00 01 00 00", OK, 7, N, 3,
	    -1, 0, 0x107, 0 },
	{ "RIP-relative with imm after", "c7 05 10 00 00 00 01 00 00 00", OK,
	    10, N, 2, 6, 4, 0x1a, 0 },
	{ "RIP-relative with imm8 after", "80 3d 10 00 00 00 00", OK, 7, N, 2,
	    6, 1, 0x17, 0 },
	{ "REX.B does not make rm101 r13", "49 8b 05 00 00 00 00", OK, 7, N,
	    3, -1, 0, 7, 0 },
	{ "(%r13) needs disp8", "49 8b 45 00", OK, 4, N, -1, -1, 0, NOTGT,
	    0 },
	{ "(%r12) needs SIB", "49 8b 04 24", OK, 4, N, -1, -1, 0, NOTGT, 0 },
	{ "SIB base101 mod00: disp32, no base", "8b 04 25 00 10 00 00", OK,
	    7, N, -1, -1, 0, NOTGT, 0 },
	{ "SIB base101 mod01: rbp+disp8", "8b 44 25 08", OK, 4, N, -1, -1, 0,
	    NOTGT, 0 },
	{ "SIB base101 mod10: rbp+disp32", "8b 84 25 00 01 00 00", OK, 7, N,
	    -1, -1, 0, NOTGT, 0 },
	{ "mod01 disp8", "8b 45 f8", OK, 3, N, -1, -1, 0, NOTGT, 0 },
	{ "mod10 disp32", "8b 85 00 ff ff ff", OK, 6, N, -1, -1, 0, NOTGT,
	    0 },
	{ "lea RIP-relative", "48 8d 3d f9 ff ff ff", OK, 7, N, 3, -1, 0, 0,
	    0 },
	{ "EIP-relative (67)", "67 8b 05 00 00 00 00", OK, 7, N, 3, -1, 0, 7,
	    0 },
	{ "mov to cr ignores mod", "0f 22 80", OK, 3, N, -1, -1, 0, NOTGT,
	    0 },

	/* --- 0F, 0F 38, 0F 3A maps --- */
	{ "endbr64", "f3 0f 1e fa", OK, 4, N, -1, -1, 0, NOTGT, 0 },
	{ "endbr32", "f3 0f 1e fb", OK, 4, N, -1, -1, 0, NOTGT, 0 },
	{ "rdsspq (CET)", "f3 48 0f 1e c8", OK, 5, N, -1, -1, 0, NOTGT, 0 },
	{ "incsspq (CET)", "f3 48 0f ae e8", OK, 5, N, -1, -1, 0, NOTGT, 0 },
	{ "wrssq (CET)", "48 0f 38 f6 07", OK, 5, N, -1, -1, 0, NOTGT, 0 },
	{ "nopl 0(%rax,%rax,1)", "0f 1f 44 00 00", OK, 5, N, -1, -1, 0,
	    NOTGT, 0 },
	{ "cmovne", "48 0f 45 c1", OK, 4, N, -1, -1, 0, NOTGT, 0 },
	{ "movzbl", "0f b6 c0", OK, 3, N, -1, -1, 0, NOTGT, 0 },
	{ "bt $imm8 (0F BA)", "0f ba e0 03", OK, 4, N, -1, 3, 1, NOTGT, 0 },
	{ "shld $imm8", "0f a4 c2 04", OK, 4, N, -1, 3, 1, NOTGT, 0 },
	{ "cpuid", "0f a2", OK, 2, N, -1, -1, 0, NOTGT, 0 },
	{ "rdtsc", "0f 31", OK, 2, N, -1, -1, 0, NOTGT, 0 },
	{ "bswap %r8", "49 0f c8", OK, 3, N, -1, -1, 0, NOTGT, 0 },
	{ "popcnt", "f3 48 0f b8 c7", OK, 5, N, -1, -1, 0, NOTGT, 0 },
	{ "tzcnt", "f3 0f bc c7", OK, 4, N, -1, -1, 0, NOTGT, 0 },
	{ "xgetbv", "0f 01 d0", OK, 3, N, -1, -1, 0, NOTGT, 0 },
	{ "rdrand", "48 0f c7 f0", OK, 4, N, -1, -1, 0, NOTGT, 0 },
	{ "cmpxchg16b", "48 0f c7 0f", OK, 4, N, -1, -1, 0, NOTGT, 0 },
	{ "mfence", "0f ae f0", OK, 3, N, -1, -1, 0, NOTGT, 0 },
	{ "pxor", "66 0f ef c0", OK, 4, N, -1, -1, 0, NOTGT, 0 },
	{ "movdqa RIP-relative", "66 0f 6f 05 00 10 00 00", OK, 8, N, 4, -1,
	    0, 0x1008, 0 },
	{ "pshufd $imm8", "66 0f 70 c0 1b", OK, 5, N, -1, 4, 1, NOTGT, 0 },
	{ "psrlq $imm8 (group 14)", "66 0f 73 d0 04", OK, 5, N, -1, 4, 1,
	    NOTGT, 0 },
	{ "cmpps $imm8", "0f c2 c1 01", OK, 4, N, -1, 3, 1, NOTGT, 0 },
	{ "pinsrw $imm8", "66 0f c4 c0 01", OK, 5, N, -1, 4, 1, NOTGT, 0 },
	{ "pshufb (0F 38)", "66 0f 38 00 c1", OK, 5, N, -1, -1, 0, NOTGT,
	    0 },
	{ "crc32q (F2 0F 38 F1)", "f2 48 0f 38 f1 c1", OK, 6, N, -1, -1, 0,
	    NOTGT, 0 },
	{ "movbe", "0f 38 f0 07", OK, 4, N, -1, -1, 0, NOTGT, 0 },
	{ "aesenc", "66 0f 38 dc c1", OK, 5, N, -1, -1, 0, NOTGT, 0 },
	{ "palignr (0F 3A) imm8", "66 0f 3a 0f c1 08", OK, 6, N, -1, 5, 1,
	    NOTGT, 0 },
	{ "pclmulqdq RIP-rel imm8", "66 0f 3a 44 05 00 00 00 00 11", OK, 10,
	    N, 5, 9, 1, 10, 0 },
	{ "extrq $i,$i (two imm8)", "66 0f 78 c1 02 03", OK, 6, N, -1, 4, 1,
	    NOTGT, 0 },
	{ "insertq (two imm8)", "f2 0f 78 c1 02 03", OK, 6, N, -1, 4, 1,
	    NOTGT, 0 },
	{ "vmread (0F 78, no imm)", "0f 78 c1", OK, 3, N, -1, -1, 0, NOTGT,
	    0 },
	{ "3DNow! pfadd", "0f 0f c1 9e", OK, 4, N, -1, 3, 1, NOTGT, 0 },
	{ "3DNow! with disp8", "0f 0f 40 08 b4", OK, 5, N, -1, 4, 1, NOTGT,
	    0 },
	{ "VIA xstore-rng", "0f a7 c0", OK, 3, N, -1, -1, 0, NOTGT, 0 },

	/* --- x87 --- */
	{ "fldt", "db 6c 24 08", OK, 4, N, -1, -1, 0, NOTGT, 0 },
	{ "faddp", "de c1", OK, 2, N, -1, -1, 0, NOTGT, 0 },
	{ "fnstcw", "d9 7c 24 fe", OK, 4, N, -1, -1, 0, NOTGT, 0 },
	{ "fwait", "9b", OK, 1, N, -1, -1, 0, NOTGT, 0 },
	{ "fnstsw %ax", "df e0", OK, 2, N, -1, -1, 0, NOTGT, 0 },
	{ "fld1", "d9 e8", OK, 2, N, -1, -1, 0, NOTGT, 0 },
	{ "fucomip", "df e9", OK, 2, N, -1, -1, 0, NOTGT, 0 },
	{ "fld RIP-relative", "dd 05 00 00 00 00", OK, 6, N, 2, -1, 0, 6,
	    0 },

	/* --- VEX / EVEX / XOP --- */
	{ "vzeroupper (VEX2, no ModRM)", "c5 f8 77", OK, 3, N, -1, -1, 0,
	    NOTGT, 0 },
	{ "vpxor (VEX2)", "c5 f9 ef c0", OK, 4, N, -1, -1, 0, NOTGT, 0 },
	{ "vmovdqu RIP-rel (VEX2)", "c5 fe 6f 05 00 01 00 00", OK, 8, N, 4,
	    -1, 0, 0x108, 0 },
	{ "vpshufd $imm8 (VEX2)", "c5 f9 70 c0 1b", OK, 5, N, -1, 4, 1,
	    NOTGT, 0 },
	{ "vpbroadcastb (VEX3 0F38)", "c4 e2 7d 78 c0", OK, 5, N, -1, -1, 0,
	    NOTGT, 0 },
	{ "vpermq $imm8 (VEX3 0F3A)", "c4 e3 fd 00 c0 4e", OK, 6, N, -1, 5, 1,
	    NOTGT, 0 },
	{ "vpgatherdd (VSIB)", "c4 e2 75 90 04 90", OK, 6, N, -1, -1, 0,
	    NOTGT, 0 },
	{ "andn (BMI1)", "c4 e2 78 f2 c1", OK, 5, N, -1, -1, 0, NOTGT, 0 },
	{ "shlx (BMI2)", "c4 e2 f9 f7 c1", OK, 5, N, -1, -1, 0, NOTGT, 0 },
	{ "rorx $imm8 (BMI2)", "c4 e3 fb f0 c1 05", OK, 6, N, -1, 5, 1,
	    NOTGT, 0 },
	{ "pdep RIP-rel", "c4 e2 73 f5 05 00 00 00 00", OK, 9, N, 5, -1, 0,
	    9, 0 },
	{ "vmovdqu64 zmm (EVEX)", "62 f1 fe 48 6f 00", OK, 6, N, -1, -1, 0,
	    NOTGT, 0 },
	{ "EVEX disp8*N", "62 f1 fe 48 6f 40 01", OK, 7, N, -1, -1, 0, NOTGT,
	    0 },
	{ "EVEX RIP-relative", "62 f1 7c 48 28 05 00 00 00 00", OK, 10, N, 6,
	    -1, 0, 10, 0 },
	{ "vpternlogd $imm8 (EVEX 0F3A)", "62 f3 75 48 25 c2 96", OK, 7, N,
	    -1, 6, 1, NOTGT, 0 },
	{ "vcmpps $imm8 to k (EVEX 0F)", "62 f1 74 48 c2 c2 00", OK, 7, N, -1,
	    6, 1, NOTGT, 0 },
	{ "AVX512-FP16 map 5", "62 f5 7c 48 58 c1", OK, 6, N, -1, -1, 0,
	    NOTGT, 0 },
	{ "XOP vprotd $imm8 (map 8)", "8f e8 78 c2 c1 05", OK, 6, N, -1, 5, 1,
	    NOTGT, 0 },
	{ "XOP bextr $imm32 (map A)", "8f ea 78 10 c1 01 02 00 00", OK, 9, N,
	    -1, 5, 4, NOTGT, 0 },
	{ "XOP blcfill (map 9)", "8f e9 78 01 c9", OK, 5, N, -1, -1, 0, NOTGT,
	    0 },

	/* --- invalid in 64-bit mode --- */
	{ "push %es", "06", BAD, 0, N, -1, -1, 0, NOTGT, 0 },
	{ "daa", "27", BAD, 0, N, -1, -1, 0, NOTGT, 0 },
	{ "pusha", "60", BAD, 0, N, -1, -1, 0, NOTGT, 0 },
	{ "grp1 82", "82 c0 01", BAD, 0, N, -1, -1, 0, NOTGT, 0 },
	{ "far call ptr16:32", "9a 00 00 00 00 00 00", BAD, 0, N, -1, -1, 0,
	    NOTGT, 0 },
	{ "into", "ce", BAD, 0, N, -1, -1, 0, NOTGT, 0 },
	{ "aam", "d4 0a", BAD, 0, N, -1, -1, 0, NOTGT, 0 },
	{ "salc", "d6", BAD, 0, N, -1, -1, 0, NOTGT, 0 },
	{ "far jmp ptr16:32", "ea 00 00 00 00 00 00", BAD, 0, N, -1, -1, 0,
	    NOTGT, 0 },
	{ "lea with register operand", "48 8d c0", BAD, 0, N, -1, -1, 0,
	    NOTGT, 0 },
	{ "FF /7", "ff f8", BAD, 0, N, -1, -1, 0, NOTGT, 0 },
	{ "FE /2", "fe d0", BAD, 0, N, -1, -1, 0, NOTGT, 0 },
	{ "lcall through register", "ff d8", BAD, 0, N, -1, -1, 0, NOTGT,
	    0 },
	{ "C7 /1", "c7 c8 00 00 00 00", BAD, 0, N, -1, -1, 0, NOTGT, 0 },
	{ "mov to %cs", "8e c8", BAD, 0, N, -1, -1, 0, NOTGT, 0 },
	{ "0F 04", "0f 04", BAD, 0, N, -1, -1, 0, NOTGT, 0 },
	{ "0F 38 unassigned", "0f 38 50 c0", BAD, 0, N, -1, -1, 0, NOTGT,
	    0 },
	{ "0F 3A unassigned", "66 0f 3a 50 c0 00", BAD, 0, N, -1, -1, 0,
	    NOTGT, 0 },
	{ "SSE4.1 without its 66", "0f 38 10 c0", BAD, 0, N, -1, -1, 0,
	    NOTGT, 0 },
	{ "jmpe (0F B8 without F3)", "0f b8 00 00", BAD, 0, N, -1, -1, 0,
	    NOTGT, 0 },
	{ "movmskps with memory", "0f 50 00", BAD, 0, N, -1, -1, 0, NOTGT,
	    0 },
	{ "x87 reserved D9 D8", "d9 d8", BAD, 0, N, -1, -1, 0, NOTGT, 0 },
	{ "x87 reserved memory form D9 /1", "d9 08", BAD, 0, N, -1, -1, 0,
	    NOTGT, 0 },
	{ "VEX with REX before it", "48 c5 f8 77", BAD, 0, N, -1, -1, 0,
	    NOTGT, 0 },
	{ "VEX with 66 before it", "66 c5 f9 ef c0", BAD, 0, N, -1, -1, 0,
	    NOTGT, 0 },
	{ "VEX3 map 0", "c4 e0 78 10 c0", BAD, 0, N, -1, -1, 0, NOTGT, 0 },
	{ "VEX opcode unassigned", "c5 f8 00 c0", BAD, 0, N, -1, -1, 0,
	    NOTGT, 0 },
	{ "EVEX reserved bit", "62 f9 fe 48 6f 00", BAD, 0, N, -1, -1, 0,
	    NOTGT, 0 },
	{ "EVEX map 4", "62 f4 fe 48 6f 00", BAD, 0, N, -1, -1, 0, NOTGT,
	    0 },
	{ "XOP map 7", "8f e7 78 c2 c1 05", BAD, 0, N, -1, -1, 0, NOTGT, 0 },
	{ "3DNow! unassigned suffix", "0f 0f c1 00", BAD, 0, N, -1, -1, 0,
	    NOTGT, 0 },

	/* --- truncated input --- */
	{ "truncated imm32", "b8 01 02", SHORT, 0, N, -1, -1, 0, NOTGT, 0 },
	{ "truncated after prefixes", "66 48", SHORT, 0, N, -1, -1, 0, NOTGT,
	    0 },
	{ "truncated SIB", "8b 04", SHORT, 0, N, -1, -1, 0, NOTGT, 0 },
	{ "truncated VEX", "c4 e2", SHORT, 0, N, -1, -1, 0, NOTGT, 0 },
};

/* ModRM memory-operand decomposition. */
typedef struct memtest {
	const char	*name;
	const char	*hex;
	int		base, index, scale;
	int32_t		disp;
	int		seg, addr32;
} memtest_t;

#define	NONE	X86_REG_NONE

static const memtest_t memtab[] = {
	{ "(%rax)", "8b 00", X86_RAX, NONE, 1, 0, 0, 0 },
	{ "-8(%rbp)", "8b 45 f8", X86_RBP, NONE, 1, -8, 0, 0 },
	{ "(%r12,%rax,8)", "41 ff 14 c4", X86_R12, X86_RAX, 8, 0, 0, 0 },
	{ "(%r12,%rsi,8)", "41 ff 24 f4", X86_R12, X86_RSI, 8, 0, 0, 0 },
	{ "0x10(%r13,%r14,4)", "4b 8b 44 b5 10", X86_R13, X86_R14, 4, 16, 0,
	    0 },
	{ "(%rsp)", "8b 04 24", X86_RSP, NONE, 1, 0, 0, 0 },
	{ "(%rsp,%r12,2): REX.X index 100 is r12", "42 8b 04 64", X86_RSP,
	    X86_R12, 2, 0, 0, 0 },
	{ "no index: SIB index 100", "8b 04 a0", X86_RAX, NONE, 1, 0, 0, 0 },
	{ "disp32 only (SIB base 101, mod 00)", "8b 04 25 78 56 34 12", NONE,
	    NONE, 1, 0x12345678, 0, 0 },
	{ "disp32(,%rcx,4)", "8b 04 8d 00 01 00 00", NONE, X86_RCX, 4, 0x100,
	    0, 0 },
	{ "mod00 SIB base 101 with REX.B: still no base",
	    "41 8b 04 25 00 01 00 00", NONE, NONE, 1, 0x100, 0, 0 },
	{ "(%r13) is mod01 disp8 0", "41 8b 45 00", X86_R13, NONE, 1, 0, 0,
	    0 },
	{ "RIP-relative", "8b 05 10 00 00 00", X86_RIP, NONE, 1, 16, 0, 0 },
	{ "%fs:0x28", "64 48 8b 04 25 28 00 00 00", NONE, NONE, 1, 0x28,
	    X86_SEG_FS, 0 },
	{ "%gs:(%rax)", "65 8b 00", X86_RAX, NONE, 1, 0, X86_SEG_GS, 0 },
	{ "addr32 (%eax,%ebx,2)", "67 8b 04 58", X86_RAX, X86_RBX, 2, 0, 0,
	    1 },
	{ "call *0x8(%rax,%rdx,8)", "ff 54 d0 08", X86_RAX, X86_RDX, 8, 8, 0,
	    0 },
	{ "VEX.B extends base", "c4 c1 7a 6f 00", X86_R8, NONE, 1, 0, 0, 0 },
};

static int
parse_hex(const char *s, uint8_t *b, size_t max)
{
	size_t n = 0;

	while (*s != '\0' && n < max) {
		char *end;

		while (*s == ' ')
			s++;
		if (*s == '\0')
			break;
		b[n++] = (uint8_t)strtoul(s, &end, 16);
		s = end;
	}
	return ((int)n);
}

static int nfail;

#define	CHECK(cond, name, fmt, ...)					\
	do {								\
		if (!(cond)) {						\
			(void) printf("FAIL %s: " fmt "\n", name,	\
			    __VA_ARGS__);				\
			nfail++;					\
		}							\
	} while (0)

int
main(void)
{
	size_t k;
	int ntest = 0;

	for (k = 0; k < sizeof (lentab) / sizeof (lentab[0]); k++) {
		const lentest_t *t = &lentab[k];
		uint8_t b[32];
		int n = parse_hex(t->hex, b, sizeof (b));
		x86_insn_t in;
		int rc = x86_decode(b, (size_t)n, PC, t->flags, &in);

		ntest++;
		CHECK(rc == t->rc, t->name, "rc expected %d, got %d", t->rc,
		    rc);
		if (rc != 0 || t->rc != 0)
			continue;
		CHECK(in.len == t->len, t->name, "len expected %d, got %u",
		    t->len, in.len);
		CHECK(in.cf == t->cf, t->name, "cf expected %s, got %s",
		    x86_cf_name((x86_cf_t)t->cf),
		    x86_cf_name((x86_cf_t)in.cf));
		CHECK((t->rip_off >= 0) == (in.rip_rel != 0), t->name,
		    "rip_rel expected %d, got %u", t->rip_off >= 0,
		    in.rip_rel);
		if (t->rip_off >= 0)
			CHECK(in.disp_off == t->rip_off && in.disp_size == 4,
			    t->name, "disp32 offset expected %d, got %u/%u",
			    t->rip_off, in.disp_off, in.disp_size);
		if (t->imm_off >= 0)
			CHECK(in.imm_off == t->imm_off &&
			    in.imm_size == t->imm_size, t->name,
			    "imm expected @%d size %d, got @%u size %u",
			    t->imm_off, t->imm_size, in.imm_off, in.imm_size);
		else
			CHECK(in.imm_size == 0, t->name,
			    "no imm expected, got size %u", in.imm_size);
		if (t->tgt != NOTGT)
			CHECK(in.target == PC + (uint64_t)t->tgt, t->name,
			    "target expected %#llx, got %#llx",
			    (unsigned long long)(PC + (uint64_t)t->tgt),
			    (unsigned long long)in.target);
		/* the length must not depend on trailing bytes */
		{
			uint8_t big[32];
			x86_insn_t in2;

			memset(big, 0xc3, sizeof (big));
			memcpy(big, b, (size_t)n);
			rc = x86_decode(big, sizeof (big), PC, t->flags, &in2);
			CHECK(rc == 0 && in2.len == in.len, t->name,
			    "with trailing bytes: rc %d len %u", rc, in2.len);
		}
		/* and every proper prefix of it is X86_DEC_SHORT */
		{
			int m;

			for (m = 0; m < t->len; m++) {
				x86_insn_t in3;

				rc = x86_decode(b, (size_t)m, PC, t->flags,
				    &in3);
				CHECK(rc == X86_DEC_SHORT && in3.len == 0,
				    t->name, "truncated to %d: rc %d", m, rc);
			}
		}
	}

	for (k = 0; k < sizeof (memtab) / sizeof (memtab[0]); k++) {
		const memtest_t *t = &memtab[k];
		uint8_t b[32];
		int n = parse_hex(t->hex, b, sizeof (b));
		x86_insn_t in;
		int rc = x86_decode(b, (size_t)n, PC, 0, &in);

		ntest++;
		CHECK(rc == 0 && in.has_mem, t->name, "rc %d has_mem %u", rc,
		    in.has_mem);
		if (rc != 0)
			continue;
		CHECK(in.mem.base == t->base, t->name, "base expected %d, "
		    "got %d", t->base, in.mem.base);
		CHECK(in.mem.index == t->index, t->name, "index expected %d, "
		    "got %d", t->index, in.mem.index);
		CHECK(in.mem.scale == t->scale, t->name, "scale expected %d, "
		    "got %u", t->scale, in.mem.scale);
		CHECK(in.mem.disp == t->disp, t->name, "disp expected %d, "
		    "got %d", t->disp, in.mem.disp);
		CHECK(in.mem.seg == t->seg, t->name, "seg expected %d, got %u",
		    t->seg, in.mem.seg);
		CHECK(in.mem.addr32 == t->addr32, t->name, "addr32 expected "
		    "%d, got %u", t->addr32, in.mem.addr32);
	}

	/* Nothing is read past avail, even for garbage (ASan checks it). */
	{
		uint32_t seed = 12345;
		int i;

		for (i = 0; i < 200000; i++) {
			uint8_t *p;
			size_t n, j;
			x86_insn_t in;

			seed = seed * 1103515245 + 12345;
			n = (seed >> 16) % 16 + 1;
			p = malloc(n);
			for (j = 0; j < n; j++) {
				seed = seed * 1103515245 + 12345;
				p[j] = (uint8_t)(seed >> 16);
			}
			if (x86_decode(p, n, PC, 0, &in) == 0 &&
			    (in.len == 0 || in.len > n))
				CHECK(0, "random bytes", "len %u of %zu",
				    in.len, n);
			free(p);
		}
	}

	if (nfail != 0) {
		(void) printf("x86_decode_test: %d of %d checks failed\n",
		    nfail, ntest);
		return (1);
	}
	(void) printf("x86_decode_test: %d encodings passed\n", ntest);
	return (0);
}
