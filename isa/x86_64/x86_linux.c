/* SPDX-License-Identifier: MIT */
/*
 * x86_linux.c: what depends on x86-64 and Linux together (isa/dt_isa.h's
 * Linux part): struct pt_regs as the kernel lays it out for x86-64 (and
 * the ptrace register set, struct user_regs_struct, in the same order),
 * the calling thread's registers from glibc's ucontext_t, and the system
 * calls and pt_regs members particular to x86-64.
 */

#include <stdint.h>
#include <ucontext.h>

#include "isa/dt_isa.h"

/* struct pt_regs of x86-64, by byte offset. */
enum {
	PT_R15 = 0,
	PT_R14 = 8,
	PT_R13 = 16,
	PT_R12 = 24,
	PT_RBP = 32,
	PT_RBX = 40,
	PT_R11 = 48,
	PT_R10 = 56,
	PT_R9 = 64,
	PT_R8 = 72,
	PT_RAX = 80,
	PT_RCX = 88,
	PT_RDX = 96,
	PT_RSI = 104,
	PT_RDI = 112,
	PT_ORIG_RAX = 120,
	PT_RIP = 128,
	PT_CS = 136,
	PT_EFLAGS = 144,
	PT_RSP = 152,
	PT_SS = 160
};

/*
 * uregs[]: the register numbers of dt_isa_regnames[] as offsets in
 * struct pt_regs; -1 for what Linux does not keep there (segment
 * registers but cs and ss, trap number, error code, fs and gs bases).
 */
#define NONE (-1)
static const int16_t x86_uregs[] = {
    /* gs fs es ds edi esi ebp esp ebx edx ecx eax trapno err */
    NONE,
    NONE,
    NONE,
    NONE,
    PT_RDI,
    PT_RSI,
    PT_RBP,
    PT_RSP,
    PT_RBX,
    PT_RDX,
    PT_RCX,
    PT_RAX,
    NONE,
    NONE,
    /* eip cs efl uesp ss */
    PT_RIP,
    PT_CS,
    PT_EFLAGS,
    PT_RSP,
    PT_SS,
    /* r15 r14 r13 r12 r11 r10 r9 r8 rdi rsi rbp rbx rdx rcx rax */
    PT_R15,
    PT_R14,
    PT_R13,
    PT_R12,
    PT_R11,
    PT_R10,
    PT_R9,
    PT_R8,
    PT_RDI,
    PT_RSI,
    PT_RBP,
    PT_RBX,
    PT_RDX,
    PT_RCX,
    PT_RAX,
    /* trapno err rip cs rfl rsp ss fs gs es ds fsbase gsbase */
    NONE,
    NONE,
    PT_RIP,
    PT_CS,
    PT_EFLAGS,
    PT_RSP,
    PT_SS,
    NONE,
    NONE,
    NONE,
    NONE,
    NONE,
    NONE,
};

const dt_isa_layout_t dt_isa_layout = {
    .il_pc = PT_RIP,
    .il_sp = PT_RSP,
    .il_fp = PT_RBP,
    .il_lr = -1,
    .il_flags = PT_EFLAGS,
    .il_ret = PT_RAX,
    .il_args = {PT_RDI, PT_RSI, PT_RDX, PT_RCX, PT_R8, PT_R9},
    .il_nargs = 6,
    .il_stackargs = 8, /* above the return address */
    .il_nuregs = sizeof(x86_uregs) / sizeof(x86_uregs[0]),
    .il_uregs = x86_uregs,
    .il_mode = PT_CS, /* user mode: privilege level 3 */
    .il_modemask = 3,
    .il_modeuser = 3,
    /* CF, PF, ZF, SF, OF: what x86_cond() tests */
    .il_ncondbits = 5,
    .il_condbits = {0, 2, 6, 7, 11},
};

/*
 * getcontext() saves the general registers and rip; the segment
 * registers and the flags it does not save are read here directly.
 */
size_t
dt_isa_linux_uregs_self(uint64_t *regs, size_t max)
{
	/* mcontext_t's gregs[] index of each pt_regs word (by offset / 8) */
	static const int greg[] = {
	    [PT_R15 / 8] = REG_R15,
	    [PT_R14 / 8] = REG_R14,
	    [PT_R13 / 8] = REG_R13,
	    [PT_R12 / 8] = REG_R12,
	    [PT_RBP / 8] = REG_RBP,
	    [PT_RBX / 8] = REG_RBX,
	    [PT_R11 / 8] = REG_R11,
	    [PT_R10 / 8] = REG_R10,
	    [PT_R9 / 8] = REG_R9,
	    [PT_R8 / 8] = REG_R8,
	    [PT_RAX / 8] = REG_RAX,
	    [PT_RCX / 8] = REG_RCX,
	    [PT_RDX / 8] = REG_RDX,
	    [PT_RSI / 8] = REG_RSI,
	    [PT_RDI / 8] = REG_RDI,
	    [PT_ORIG_RAX / 8] = -1,
	    [PT_RIP / 8] = REG_RIP,
	    [PT_CS / 8] = -1,
	    [PT_EFLAGS / 8] = -1,
	    [PT_RSP / 8] = REG_RSP,
	    [PT_SS / 8] = -1,
	};
	size_t n = sizeof(x86_uregs) / sizeof(x86_uregs[0]);
	ucontext_t uc;
	uint16_t cs, ss;
	uint64_t efl;

	if (getcontext(&uc) != 0)
		return 0;
	__asm__ volatile("mov %%cs, %0" : "=r"(cs));
	__asm__ volatile("mov %%ss, %0" : "=r"(ss));
	__asm__ volatile("pushfq; popq %0" : "=r"(efl));
	if (n > max)
		n = max;
	for (size_t i = 0; i < n; i++) {
		int16_t o = x86_uregs[i];

		if (o < 0)
			regs[i] = 0;
		else if (o == PT_CS)
			regs[i] = cs;
		else if (o == PT_SS)
			regs[i] = ss;
		else if (o == PT_EFLAGS)
			regs[i] = efl;
		else
			regs[i] = (uint64_t) uc.uc_mcontext.gregs[greg[o / 8]];
	}
	return n;
}

/* The uprobe trampolines' calls, outside the range every ISA shares. */
const dt_isa_syscall_t dt_isa_linux_syscalls[] = {
    {"uretprobe", 335},
    {"uprobe", 336},
    {NULL, -1},
};

/* orig_ax keeps the number once ax holds the return value. */
const char dt_isa_linux_sysnr_member[] = "pt_regs.orig_ax";
/* glibc's x86-64 ABI: a 64-bit nlink_t. */
const char dt_isa_linux_nlink_t[] = "unsigned long";
const char dt_isa_linux_sysarg0_member[] = "pt_regs.di";

/* The kernel's names for the words of struct pt_regs. */
const dt_isa_member_t dt_isa_linux_ptregs[] = {
    {"pt_regs.r15", PT_R15, 1},
    {"pt_regs.r14", PT_R14, 1},
    {"pt_regs.r13", PT_R13, 1},
    {"pt_regs.r12", PT_R12, 1},
    {"pt_regs.bp", PT_RBP, 1},
    {"pt_regs.bx", PT_RBX, 1},
    {"pt_regs.r11", PT_R11, 1},
    {"pt_regs.r10", PT_R10, 1},
    {"pt_regs.r9", PT_R9, 1},
    {"pt_regs.r8", PT_R8, 1},
    {"pt_regs.ax", PT_RAX, 1},
    {"pt_regs.cx", PT_RCX, 1},
    {"pt_regs.dx", PT_RDX, 1},
    {"pt_regs.si", PT_RSI, 1},
    {"pt_regs.di", PT_RDI, 1},
    {"pt_regs.orig_ax", PT_ORIG_RAX, 1},
    {"pt_regs.ip", PT_RIP, 1},
    {"pt_regs.cs", PT_CS, 1},
    {"pt_regs.flags", PT_EFLAGS, 1},
    {"pt_regs.sp", PT_RSP, 1},
    {"pt_regs.ss", PT_SS, 1},
    {NULL, 0, 0},
};
