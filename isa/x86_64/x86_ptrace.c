/* SPDX-License-Identifier: MIT */
/*
 * x86_ptrace.c: x86-64's part of the ptrace engine (isa/dt_isa.h, "Linux,
 * for the ptrace engine"): the registers through PTRACE_GETREGS, the
 * breakpoint (0xce, into: invalid in 64-bit mode, so it faults with %rip
 * at the site rather than one past it as int3 does), injected system
 * calls (which go back by themselves should the tracer and its guard
 * both die), the displaced instruction emulated or copied out of line
 * (x86_emulate(), x86_ool_build()), the counting trampolines of entry
 * sites, and the SIGILL handler that mends breakpoints a dead tracer
 * left.
 */
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <linux/audit.h>

#include "isa/dt_isa.h"

_Static_assert(sizeof(struct user_regs_struct) == 8 * DT_ISA_PTREGS_WORDS,
    "the register set is DT_ISA_PTREGS_WORDS words");

int
dt_isa_ptrace_getregs(int tid, dt_isa_ptregs_t *r)
{
	return ptrace(PTRACE_GETREGS, tid, 0, r) == 0 ? 0 : -1;
}

/* One register set holds them all, orig_rax (the call's number) too. */
int
dt_isa_ptrace_getregs_all(int tid, dt_isa_ptregs_t *r)
{
	return dt_isa_ptrace_getregs(tid, r);
}

int
dt_isa_ptrace_setregs(int tid, const dt_isa_ptregs_t *r)
{
	return ptrace(PTRACE_SETREGS, tid, 0, r) == 0 ? 0 : -1;
}

/* struct user_regs_struct (and pt_regs), by byte offset. */
enum {
	UR_R15 = 0,
	UR_R14 = 8,
	UR_R13 = 16,
	UR_R12 = 24,
	UR_RBP = 32,
	UR_RBX = 40,
	UR_R11 = 48,
	UR_R10 = 56,
	UR_R9 = 64,
	UR_R8 = 72,
	UR_RAX = 80,
	UR_RCX = 88,
	UR_RDX = 96,
	UR_RSI = 104,
	UR_RDI = 112,
	UR_ORIG_RAX = 120,
	UR_RIP = 128,
	UR_EFLAGS = 144,
	UR_RSP = 152,
	UR_FS_BASE = 168,
	UR_GS_BASE = 176
};

const dt_isa_ptrace_t dt_isa_ptrace = {
    .ip_brk = {0xce},
    .ip_brklen = 1,
    .ip_brksig = SIGILL,
    .ip_brkcode = ILL_ILLOPN,
    /* syscall; jmp . -- and syscall; int3 */
    .ip_injspin = {0x0f, 0x05, 0xeb, 0xfe, 0xcc, 0xcc, 0xcc, 0xcc},
    .ip_injtrap = {0x0f, 0x05, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc},
    .ip_sysdone = 2,
    .ip_sysnr = UR_RAX,
    .ip_sysargs = {UR_RDI, UR_RSI, UR_RDX, UR_R10, UR_R8, UR_R9},
    .ip_sysret = UR_RAX,
    .ip_norestart = UR_ORIG_RAX,
    .ip_stopnr = UR_ORIG_RAX,
    .ip_auditarch = AUDIT_ARCH_X86_64,
    .ip_jmplen = 5, /* jmp rel32 */
    .ip_jmpop = 0xe9,
    .ip_jmpop_at = 0,
    .ip_jmpop_mask = 0xff,
};

/*
 * syscall, then: pop rax, rdi, rsi, rdx, r10, r8, r9, rcx, r11 and rsp
 * from the block rsp points at (what the call and its setting up changed:
 * syscall itself clobbers rcx and r11; rflags it keeps, and pops do not
 * change them), and jmp *0(%rip) to the address that follows.  The block
 * is below the red zone, which a signal handler would not touch either.
 */
size_t
dt_isa_ptrace_injback(const dt_isa_ptregs_t *saved, dt_isa_ptregs_t *r,
    uint8_t *code, uint8_t *blk, size_t *blklen, uint64_t *blkaddr)
{
	static const uint8_t back[] = {
		0x0f, 0x05,			/* syscall */
		0x58, 0x5f, 0x5e, 0x5a,		/* pop rax, rdi, rsi, rdx */
		0x41, 0x5a, 0x41, 0x58, 0x41, 0x59, /* pop r10, r8, r9 */
		0x59, 0x41, 0x5b,		/* pop rcx, r11 */
		0x5c,				/* pop rsp */
		0xff, 0x25, 0, 0, 0, 0,		/* jmp *0(%rip) */
	};
	static const int regs[] = { UR_RAX, UR_RDI, UR_RSI, UR_RDX, UR_R10,
		UR_R8, UR_R9, UR_RCX, UR_R11, UR_RSP };
	uint64_t w[sizeof (regs) / sizeof (regs[0])];
	uint64_t pc = DT_ISA_PTREG(saved, UR_RIP);
	int64_t rv = (int64_t) DT_ISA_PTREG(saved, UR_RAX);
	int64_t nr = (int64_t) DT_ISA_PTREG(saved, UR_ORIG_RAX);

	_Static_assert(sizeof (back) + 8 <= DT_ISA_INJLEN, "room for it");
	_Static_assert(sizeof (w) <= DT_ISA_INJBLK, "room for the block");
	for (size_t i = 0; i < sizeof (regs) / sizeof (regs[0]); i++)
		w[i] = DT_ISA_PTREG(saved, regs[i]);
	/* Stopped in a call the kernel would restart: restarted. */
	if (nr >= 0 && (rv == -512 || rv == -513 || rv == -514 ||
	    rv == -516)) {
		w[0] = rv == -516 ? (uint64_t) SYS_restart_syscall :
		    (uint64_t) nr;
		pc -= 2;
	}
	memcpy(code, back, sizeof (back));
	memcpy(code + sizeof (back), &pc, sizeof (pc));
	memcpy(blk, w, sizeof (w));
	*blklen = sizeof (w);
	*blkaddr = (DT_ISA_PTREG(saved, UR_RSP) - 128 - sizeof (w)) &
	    ~(uint64_t) 15;
	DT_ISA_PTREG(r, UR_RSP) = *blkaddr;
	return sizeof (back) + sizeof (pc);
}

int
dt_isa_ptrace_decode(const uint8_t *code, size_t n, uint64_t addr,
    dt_isa_insn_t *in, dt_isa_strategy_t *strat)
{
	if (x86_decode(code, n, addr, 0, in) != 0)
		return -1;
	*strat = x86_strategy(in);
	return 0;
}

/* x86_regs_t's register numbers, by user_regs_struct offset. */
static const struct {
	int xr;
	int16_t off;
} x86_pt_gprs[] = {
    {X86_RAX, UR_RAX},
    {X86_RCX, UR_RCX},
    {X86_RDX, UR_RDX},
    {X86_RBX, UR_RBX},
    {X86_RSP, 152},
    {X86_RBP, UR_RBP},
    {X86_RSI, UR_RSI},
    {X86_RDI, UR_RDI},
    {X86_R8, UR_R8},
    {X86_R9, UR_R9},
    {X86_R10, UR_R10},
    {X86_R11, UR_R11},
    {X86_R12, UR_R12},
    {X86_R13, UR_R13},
    {X86_R14, UR_R14},
    {X86_R15, UR_R15},
};

int
dt_isa_ptrace_emulate(
    const dt_isa_insn_t *in, dt_isa_ptregs_t *r, const dt_isa_memops_t *mem)
{
	size_t n = sizeof(x86_pt_gprs) / sizeof(x86_pt_gprs[0]);
	uint64_t fault;
	x86_regs_t x;

	memset(&x, 0, sizeof(x));
	for (size_t i = 0; i < n; i++)
		x.r[x86_pt_gprs[i].xr] = DT_ISA_PTREG(r, x86_pt_gprs[i].off);
	x.rip = DT_ISA_PTREG(r, UR_RIP);
	x.rflags = DT_ISA_PTREG(r, UR_EFLAGS);
	x.fs_base = DT_ISA_PTREG(r, UR_FS_BASE);
	x.gs_base = DT_ISA_PTREG(r, UR_GS_BASE);
	if (x86_emulate(in, &x, mem, &fault) != X86_EMU_OK)
		return -1;
	for (size_t i = 0; i < n; i++)
		DT_ISA_PTREG(r, x86_pt_gprs[i].off) = x.r[x86_pt_gprs[i].xr];
	DT_ISA_PTREG(r, UR_RIP) = x.rip;
	DT_ISA_PTREG(r, UR_EFLAGS) = x.rflags;
	return 0;
}

int
dt_isa_ptrace_ool(const dt_isa_insn_t *in, const uint8_t *insn, uint64_t at,
    const dt_isa_memops_t *mem, uint8_t *buf, size_t size, size_t *lenp,
    int *privatep)
{
	x86_ool_t ool;

	(void) mem;
	if (x86_ool_build(in, insn, at, buf, size, &ool) != 0)
		return -1;
	*lenp = ool.len;
	*privatep = ool.scratch_reg != X86_REG_NONE;
	return 0;
}

/* Every copy jumps back by itself. */
int
dt_isa_ptrace_ool_return(const uint8_t *code, size_t n, uint64_t *resumep)
{
	(void) code;
	(void) n;
	(void) resumep;
	return 0;
}

/* A thread in a copy jumps back by itself, tracer or not. */
int
dt_isa_ptrace_ool_leave(const uint8_t *code, size_t n, uint64_t *pcp)
{
	(void) code;
	(void) n;
	(void) pcp;
	return 0;
}

/* A jcc out of the function returns when taken. */
int
dt_isa_ptrace_taken(const dt_isa_insn_t *in, const dt_isa_ptregs_t *r)
{
	return in->cf != X86_CF_JCC ||
	    x86_cond(in->opcode & 0x0f, DT_ISA_PTREG(r, UR_EFLAGS));
}

static int
x86_fits32(int64_t d)
{
	return d >= INT32_MIN && d <= INT32_MAX;
}

int
dt_isa_ptrace_lands(
    const uint8_t *code, uint64_t addr, uint64_t size, size_t len)
{
	for (uint64_t off = 0; off < size;) {
		x86_insn_t in;

		if (x86_decode(code + off, (size_t) (size - off), addr + off, 0,
			&in) != 0 ||
		    in.len == 0)
			return 1;
		if ((in.is_rel || in.rip_rel) && in.target > addr &&
		    in.target < addr + len)
			return 1;
		off += in.len;
	}
	return 0;
}

/*
 * tramp:	lock incq ctr(%rip)
 *		<the displaced instructions, RIP-relative operands fixed up>
 *		jmp site + len
 */
size_t
dt_isa_ptrace_tramp(uint64_t addr, const uint8_t *code, size_t avail,
    uint64_t tramp, uint64_t ctr, uint8_t *buf, size_t bufsz, size_t *lenp)
{
	size_t n = 0, len = 0, jl = dt_isa_ptrace.ip_jmplen;
	int64_t d;

	buf[n++] = 0xf0;
	buf[n++] = 0x48;
	buf[n++] = 0xff;
	buf[n++] = 0x05;
	d = (int64_t) (ctr - (tramp + n + 4));
	if (!x86_fits32(d))
		return 0;
	memcpy(buf + n, &(int32_t){(int32_t) d}, 4);
	n += 4;
	while (len < jl) {
		x86_insn_t in;

		if (x86_decode(code + len, avail - len, addr + len, 0, &in) !=
			0 ||
		    in.len == 0 || in.cf != X86_CF_NONE ||
		    x86_strategy(&in) == X86_STRAT_REFUSE ||
		    n + in.len + jl > bufsz)
			return 0;
		memcpy(buf + n, code + len, in.len);
		if (in.rip_rel) {
			if (in.disp_size != 4 || (in.prefixes & X86_PFX_ADSIZE))
				return 0;
			d = (int64_t) (in.target - (tramp + n + in.len));
			if (!x86_fits32(d))
				return 0;
			memcpy(
			    buf + n + in.disp_off, &(int32_t){(int32_t) d}, 4);
		}
		n += in.len;
		len += in.len;
	}
	if (dt_isa_ptrace_jmp(tramp + n, addr + len, buf + n) != 0)
		return 0;
	n += jl;
	*lenp = len;
	return n;
}

int
dt_isa_ptrace_jmp(uint64_t from, uint64_t to, uint8_t *buf)
{
	int64_t d = (int64_t) (to - (from + dt_isa_ptrace.ip_jmplen));

	if (!x86_fits32(d))
		return -1;
	buf[0] = dt_isa_ptrace.ip_jmpop;
	memcpy(buf + 1, &(int32_t){(int32_t) d}, 4);
	return 0;
}

/*
 * The SIGILL handler, position-independent: it finds the area by its own
 * address (the code is at the area's start).  handler(sig, info, uctx);
 * %rip is uctx->uc_mcontext.gregs[REG_RIP], at offset 168; si_errno is at
 * 4 in the siginfo, si_addr at 16.  Only raw system calls: no errno, no
 * library.  The restorer returns from the handler (rt_sigreturn).  The
 * signal's number is SIGILL's on x86-64, 4.
 */
#define DT_STR(x)  #x
#define DT_XSTR(x) DT_STR(x)

/* clang-format off */
__asm__(".pushsection .rodata\n"
	".globl dt_isa_trap_code\n"
	".globl dt_isa_trap_code_end\n"
	".globl dt_isa_trap_restorer\n"
	"dt_isa_trap_code:\n"
	"	push %rbx\n"
	"	push %r12\n"
	"	push %r13\n"
	"	push %r14\n"
	"	push %r15\n"
	"	mov %edi, %r12d\n"
	"	mov %rsi, %r13\n"
	"	mov %rdx, %r14\n"
	"	lea dt_isa_trap_code(%rip), %rbx\n"
	"	mov 168(%r14), %r15\n"
	/* Moved on by the tracer already: nothing to do. */
	"	cmpl $" DT_XSTR(DT_TRAP_MAGIC) ", 4(%r13)\n"
	"	jne 1f\n"
	"	cmp 16(%r13), %r15\n"
	"	je 9f\n"
	/* The site is where the fault is.  Look it up, area after area. */
	"1:	mov %r15, %rdi\n"
	"	mov %rbx, %rcx\n"
	"2:	mov " DT_XSTR(DT_TRAP_NSITES) "(%rcx), %rdx\n"
	"	lea " DT_XSTR(DT_TRAP_TABLE) "(%rcx), %rsi\n"
	"3:	test %rdx, %rdx\n"
	"	jz 4f\n"
	"	cmp (%rsi), %rdi\n"
	"	je 5f\n"
	"	add $" DT_XSTR(DT_TRAP_ENTSZ) ", %rsi\n"
	"	dec %rdx\n"
	"	jmp 3b\n"
	"4:	mov " DT_XSTR(DT_TRAP_NEXT) "(%rcx), %rcx\n"
	"	test %rcx, %rcx\n"
	"	jnz 2b\n"
	"	jmp 6f\n"
	/* Ours: the original byte back, and the site runs again. */
	"5:	mov %rdi, %r15\n"
	"	lea 9(%rsi), %r13\n"
	"	mov $2, %eax\n"				/* open */
	"	lea " DT_XSTR(DT_TRAP_PATH) "(%rbx), %rdi\n"
	"	mov $2, %esi\n"				/* O_RDWR */
	"	xor %edx, %edx\n"
	"	syscall\n"
	"	test %rax, %rax\n"
	"	js 8f\n"
	"	mov %rax, %r12\n"
	"	mov %rax, %rdi\n"
	"	mov %r13, %rsi\n"
	"	mov $1, %edx\n"
	"	mov %r15, %r10\n"
	"	mov $18, %eax\n"			/* pwrite64 */
	"	syscall\n"
	"	mov %rax, %r13\n"
	"	mov %r12, %rdi\n"
	"	mov $3, %eax\n"				/* close */
	"	syscall\n"
	"	cmp $1, %r13\n"
	"	jne 8f\n"
	"	jmp 9f\n"
	/* Not ours: the program's action. */
	"6:	mov " DT_XSTR(DT_TRAP_OLDACT) "(%rbx), %rax\n"
	"	cmp $1, %rax\n"				/* SIG_IGN */
	"	je 9f\n"
	"	test %rax, %rax\n"			/* SIG_DFL */
	"	jz 7f\n"
	"	mov %r12d, %edi\n"
	"	mov %r13, %rsi\n"
	"	mov %r14, %rdx\n"
	"	call *%rax\n"
	"	jmp 9f\n"
	/*
	 * Ours but not mended (no /proc), or the program's with the default
	 * action: that action back, and the signal again once we return,
	 * which ends the process as the trap would have.
	 */
	"8:\n"
	"7:	mov $13, %eax\n"			/* rt_sigaction */
	"	mov $4, %edi\n"				/* SIGILL */
	"	lea " DT_XSTR(DT_TRAP_ZEROACT) "(%rbx), %rsi\n"
	"	xor %edx, %edx\n"
	"	mov $8, %r10d\n"
	"	syscall\n"
	"	mov $39, %eax\n"			/* getpid */
	"	syscall\n"
	"	mov %rax, %r15\n"
	"	mov $186, %eax\n"			/* gettid */
	"	syscall\n"
	"	mov %r15, %rdi\n"
	"	mov %rax, %rsi\n"
	"	mov $4, %edx\n"
	"	mov $234, %eax\n"			/* tgkill */
	"	syscall\n"
	"9:	pop %r15\n"
	"	pop %r14\n"
	"	pop %r13\n"
	"	pop %r12\n"
	"	pop %rbx\n"
	"	ret\n"
	"dt_isa_trap_restorer:\n"
	"	mov $15, %eax\n"			/* rt_sigreturn */
	"	syscall\n"
	"dt_isa_trap_code_end:\n"
	".popsection\n");
/* clang-format on */
