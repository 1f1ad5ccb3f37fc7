/* SPDX-License-Identifier: MIT */
/*
 * a64_ptrace.c: AArch64's part of the ptrace engine that needs ptrace(2)
 * and an arm64 assembler (isa/dt_isa.h, "Linux, for the ptrace engine"):
 * the registers through PTRACE_GETREGSET -- arm64 has no PTRACE_GETREGS
 * -- as NT_PRSTATUS (struct user_pt_regs) and the system call number as
 * NT_ARM_SYSTEM_CALL, and the SIGTRAP handler that mends the breakpoints
 * (brk #0) a dead tracer left.  a64_ptrace_ops.c has the rest.
 */

#include <elf.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <ucontext.h>

#include "isa/dt_isa.h"

#define A64_PRSTATUS_WORDS 34 /* x0..x30, sp, pc, pstate */

_Static_assert(sizeof(struct user_regs_struct) == 8 * A64_PRSTATUS_WORDS,
    "user_pt_regs is 34 words");
_Static_assert(A64_PRSTATUS_WORDS < DT_ISA_PTREGS_WORDS,
    "the system call number follows user_pt_regs");

/*
 * The system call number is a register set of its own (NT_ARM_SYSTEM_
 * CALL): a second system call to read and to write, which a stop's
 * handling does without -- the number of a system call stop is in x8,
 * which the kernel leaves as the caller set it (ip_stopnr) -- so getregs
 * marks its word unread and setregs leaves the thread's alone then.
 */
#define A64_SYSNR_UNREAD 0x8000000000000000ULL /* no int32 sign-extends so */

int
dt_isa_ptrace_getregs(int tid, dt_isa_ptregs_t *r)
{
	struct iovec iov = {r->pr_w, 8 * A64_PRSTATUS_WORDS};

	if (ptrace(PTRACE_GETREGSET, tid, (void *) NT_PRSTATUS, &iov) != 0)
		return -1;
	r->pr_w[A64_PRSTATUS_WORDS] = A64_SYSNR_UNREAD;
	return 0;
}

int
dt_isa_ptrace_getregs_all(int tid, dt_isa_ptregs_t *r)
{
	int32_t nr = -1;
	struct iovec sys = {&nr, sizeof(nr)};

	if (dt_isa_ptrace_getregs(tid, r) != 0 ||
	    ptrace(PTRACE_GETREGSET, tid, (void *) NT_ARM_SYSTEM_CALL, &sys) !=
		0)
		return -1;
	r->pr_w[A64_PRSTATUS_WORDS] = (uint64_t) (int64_t) nr;
	return 0;
}

int
dt_isa_ptrace_setregs(int tid, const dt_isa_ptregs_t *r)
{
	struct iovec iov = {(void *) r->pr_w, 8 * A64_PRSTATUS_WORDS};
	int32_t nr = (int32_t) r->pr_w[A64_PRSTATUS_WORDS];
	struct iovec sys = {&nr, sizeof(nr)};

	if (ptrace(PTRACE_SETREGSET, tid, (void *) NT_PRSTATUS, &iov) != 0)
		return -1;
	if (r->pr_w[A64_PRSTATUS_WORDS] != A64_SYSNR_UNREAD &&
	    ptrace(PTRACE_SETREGSET, tid, (void *) NT_ARM_SYSTEM_CALL, &sys) !=
		0)
		return -1;
	return 0;
}

/*
 * The handler, position-independent: it finds the area by its own
 * address (the code is at the area's start).  handler(sig, info, uctx);
 * the pc is uctx->uc_mcontext.pc, at offset 440; si_errno is at 4 in the
 * siginfo, si_addr at 16.  Only raw system calls (number in x8, svc #0):
 * no errno, no library.  The restorer returns from the handler
 * (rt_sigreturn).  The signal is SIGTRAP, 5.
 *
 * An out-of-line copy's return trap (a64_ptrace_ops.c: brk #0x7d7 and
 * two magic words, then the address) sends the thread on to that
 * address; it is looked for after the table, so that the pc's word is
 * read only where a trap just ran.
 */
#define A64_UC_PC 440
_Static_assert(offsetof(ucontext_t, uc_mcontext.pc) == A64_UC_PC,
    "the pc in the signal frame");

#define DT_STR(x)  #x
#define DT_XSTR(x) DT_STR(x)

/* clang-format off */
__asm__(".pushsection .rodata\n"
	".globl dt_isa_trap_code\n"
	".globl dt_isa_trap_code_end\n"
	".globl dt_isa_trap_restorer\n"
	".p2align 2\n"
	"dt_isa_trap_code:\n"
	"	stp x29, x30, [sp, #-64]!\n"
	"	mov x29, sp\n"
	"	stp x19, x20, [sp, #16]\n"
	"	stp x21, x22, [sp, #32]\n"
	"	stp x23, x24, [sp, #48]\n"
	"	mov w19, w0\n"
	"	mov x20, x1\n"
	"	mov x21, x2\n"
	"	adr x22, dt_isa_trap_code\n"
	"	ldr x23, [x21, #" DT_XSTR(A64_UC_PC) "]\n"
	/* Moved on by the tracer already: nothing to do. */
	"	ldr w9, [x20, #4]\n"
	"	movz w10, #(" DT_XSTR(DT_TRAP_MAGIC) " & 0xffff)\n"
	"	movk w10, #(" DT_XSTR(DT_TRAP_MAGIC) " >> 16), lsl #16\n"
	"	cmp w9, w10\n"
	"	b.ne 1f\n"
	"	ldr x9, [x20, #16]\n"
	"	cmp x9, x23\n"
	"	b.eq 9f\n"
	/* The site is where the fault is.  Look it up, area after area. */
	"1:	mov x3, x22\n"
	"2:	ldr x4, [x3, #" DT_XSTR(DT_TRAP_NSITES) "]\n"
	"	add x5, x3, #" DT_XSTR(DT_TRAP_TABLE) "\n"
	"3:	cbz x4, 4f\n"
	"	ldr x6, [x5]\n"
	"	cmp x6, x23\n"
	"	b.eq 5f\n"
	"	add x5, x5, #" DT_XSTR(DT_TRAP_ENTSZ) "\n"
	"	sub x4, x4, #1\n"
	"	b 3b\n"
	"4:	ldr x3, [x3, #" DT_XSTR(DT_TRAP_NEXT) "]\n"
	"	cbnz x3, 2b\n"
	/* An out-of-line copy's return trap: go on where it says. */
	"	ldr w9, [x23]\n"
	"	movz w10, #0xfae0\n" /* brk #0x7d7 */
	"	movk w10, #0xd420, lsl #16\n"
	"	cmp w9, w10\n"
	"	b.ne 6f\n"
	"	ldr w9, [x23, #4]\n"
	"	movz w10, #0x6c64\n"
	"	movk w10, #0x6f6f, lsl #16\n"
	"	cmp w9, w10\n"
	"	b.ne 6f\n"
	"	ldr w9, [x23, #8]\n"
	"	movz w10, #0x7274\n"
	"	movk w10, #0x6b63, lsl #16\n"
	"	cmp w9, w10\n"
	"	b.ne 6f\n"
	"	ldr x9, [x23, #12]\n"
	"	str x9, [x21, #" DT_XSTR(A64_UC_PC) "]\n"
	"	b 9f\n"
	/* Ours: the original bytes back, and the site runs again. */
	"5:	add x24, x5, #9\n"
	"	ldrb w19, [x5, #8]\n"
	"	mov x0, #-100\n" /* AT_FDCWD */
	"	add x1, x22, #" DT_XSTR(DT_TRAP_PATH) "\n"
	"	mov x2, #2\n" /* O_RDWR */
	"	mov x3, #0\n"
	"	mov x8, #56\n" /* openat */
	"	svc #0\n"
	"	tbnz x0, #63, 8f\n"
	"	mov x20, x0\n"
	"	mov x1, x24\n"
	"	mov x2, x19\n"
	"	mov x3, x23\n"
	"	mov x8, #68\n" /* pwrite64 */
	"	svc #0\n"
	"	mov x24, x0\n"
	"	mov x0, x20\n"
	"	mov x8, #57\n" /* close */
	"	svc #0\n"
	"	cmp x24, x19\n"
	"	b.ne 8f\n"
	"	b 9f\n"
	/* Not ours: the program's action. */
	"6:	ldr x9, [x22, #" DT_XSTR(DT_TRAP_OLDACT) "]\n"
	"	cmp x9, #1\n" /* SIG_IGN */
	"	b.eq 9f\n"
	"	cbz x9, 7f\n" /* SIG_DFL */
	"	mov w0, w19\n"
	"	mov x1, x20\n"
	"	mov x2, x21\n"
	"	blr x9\n"
	"	b 9f\n"
	/*
	 * Ours but not mended (no /proc), or the program's with the default
	 * action: that action back, and the signal again once we return,
	 * which ends the process as the trap would have.
	 */
	"8:\n"
	"7:	mov x0, #5\n" /* SIGTRAP */
	"	add x1, x22, #" DT_XSTR(DT_TRAP_ZEROACT) "\n"
	"	mov x2, #0\n"
	"	mov x3, #8\n"
	"	mov x8, #134\n" /* rt_sigaction */
	"	svc #0\n"
	"	mov x8, #172\n" /* getpid */
	"	svc #0\n"
	"	mov x24, x0\n"
	"	mov x8, #178\n" /* gettid */
	"	svc #0\n"
	"	mov x1, x0\n"
	"	mov x0, x24\n"
	"	mov x2, #5\n"
	"	mov x8, #131\n" /* tgkill */
	"	svc #0\n"
	"9:	ldp x23, x24, [sp, #48]\n"
	"	ldp x21, x22, [sp, #32]\n"
	"	ldp x19, x20, [sp, #16]\n"
	"	ldp x29, x30, [sp], #64\n"
	"	ret\n"
	"dt_isa_trap_restorer:\n"
	"	mov x8, #139\n" /* rt_sigreturn */
	"	svc #0\n"
	"dt_isa_trap_code_end:\n"
	".popsection\n");
/* clang-format on */
