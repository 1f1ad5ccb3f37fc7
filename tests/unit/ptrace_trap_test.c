/* SPDX-License-Identifier: MIT */
/*
 * ptrace_trap_test.c: the SIGILL handler the ptrace engine puts in each
 * traced process (os/linux/ptrace/dt_ptrace_trap.c), run in this process
 * as a dead tracer would leave it.
 *
 * An area is laid out as the engine lays it out in a target (the code,
 * the previous action, the table), the handler installed, and functions
 * in a page of their own get breakpoints over their instructions, noted
 * in the table: called with no tracer, each call must compute what it
 * would have, every register the function does not set kept, and each
 * breakpoint must be gone after its first hit.  A second area linked from the first
 * is searched too.  A SIGILL not at a breakpoint of the table goes to
 * the action the program had: its handler, with the signal's siginfo; an
 * ignored SIGILL stays ignored; and under the default action the
 * process dies of SIGILL, as it would have (in a child).  A SIGILL
 * marked as the engine marks a stop it moved on, but for another %rip,
 * is the program's too.
 */
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "os/linux/ptrace/dt_ptrace_impl.h"
#include "tests/unit/unit.h"

static uint8_t *area, *area2;

static int
ksigaction(int sig, const dt_ksigaction_t *act, dt_ksigaction_t *old)
{
	return (int) syscall(SYS_rt_sigaction, sig, act, old, 8);
}

/* The area and the handler, as dt_pt_trap_install() leaves them. */
static void
install(void)
{
	size_t len = (size_t) (dt_isa_trap_code_end - dt_isa_trap_code);
	dt_ksigaction_t act;

	memset(area, 0, DT_TRAP_AREASZ);
	memcpy(area, dt_isa_trap_code, len);
	strcpy((char *) area + DT_TRAP_PATH, "/proc/self/mem");
	CHECK(ksigaction(SIGILL, NULL,
	    (dt_ksigaction_t *) (area + DT_TRAP_OLDACT)) == 0);
	act.ka_handler = (uint64_t) (uintptr_t) area;
	act.ka_flags = 0x04000000 | 0x10000000 | 0x4; /* RESTORER RESTART INFO */
	act.ka_restorer = (uint64_t) (uintptr_t) area +
	    (uint64_t) (dt_isa_trap_restorer - dt_isa_trap_code);
	act.ka_mask = 0;
	CHECK(ksigaction(SIGILL, &act, NULL) == 0);
}

static void
note(uint8_t *a, uint8_t *site)
{
	uint64_t n, addr = (uint64_t) (uintptr_t) site;

	memcpy(&n, a + DT_TRAP_NSITES, sizeof (n));
	memcpy(a + DT_TRAP_TABLE + n * DT_TRAP_ENTSZ, &addr, sizeof (addr));
	a[DT_TRAP_TABLE + n * DT_TRAP_ENTSZ + 8] = 1;	/* its length */
	a[DT_TRAP_TABLE + n * DT_TRAP_ENTSZ + 9] = *site;
	n++;
	memcpy(a + DT_TRAP_NSITES, &n, sizeof (n));
	*site = dt_isa_ptrace.ip_brk[0];
}

/*
 * f(x) = 3x + 1 and g(x) = x + 5, with a check that the registers a
 * caller keeps are kept:
 *	f: lea 0x1(%rdi,%rdi,2),%rax ; ret
 *	g: mov %rdi,%rax ; add $5,%rax ; ret
 */
static const uint8_t fcode[] = { 0x48, 0x8d, 0x44, 0x7f, 0x01, 0xc3 };
static const uint8_t gcode[] = { 0x48, 0x89, 0xf8, 0x48, 0x83, 0xc0, 0x05,
	0xc3 };

static long
call_kept(long (*fn)(long), long x, long *rbx)
{
	long r;

	/* A value in %rbx across the call, which the handler must keep. */
	__asm__ volatile("mov %3, %%rbx\n\t"
			 "call *%2\n\t"
			 "mov %%rbx, %1\n\t"
	    : "=a"(r), "=r"(*rbx)
	    : "r"(fn), "r"(x * 7), "D"(x)
	    : "rbx", "rcx", "rdx", "rsi", "r8", "r9", "r10", "r11", "memory");
	return r;
}

static volatile int theirs;
static volatile int their_code;

static void
their_handler(int sig, siginfo_t *si, void *uc)
{
	(void) uc;
	theirs += sig == SIGILL;
	their_code = si->si_code;
}

int
main(void)
{
	uint8_t *text = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long (*f)(long), (*g)(long), rbx;
	struct sigaction sa;
	siginfo_t si;
	pid_t pid;
	int st;

	area = mmap(NULL, DT_TRAP_AREASZ, PROT_READ | PROT_WRITE | PROT_EXEC,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	area2 = mmap(NULL, DT_TRAP_AREASZ, PROT_READ | PROT_WRITE | PROT_EXEC,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CHECK(text != MAP_FAILED && area != MAP_FAILED && area2 != MAP_FAILED);
	if (text == MAP_FAILED || area == MAP_FAILED || area2 == MAP_FAILED)
		return unit_done();
	CHECK((size_t) (dt_isa_trap_code_end - dt_isa_trap_code) <
	    DT_TRAP_OLDACT);
	memcpy(text, fcode, sizeof (fcode));
	memcpy(text + 64, gcode, sizeof (gcode));
	f = (long (*)(long)) (uintptr_t) text;
	g = (long (*)(long)) (uintptr_t) (text + 64);

	/* A program's own handler, which ours must chain to. */
	memset(&sa, 0, sizeof (sa));
	sa.sa_sigaction = their_handler;
	sa.sa_flags = SA_SIGINFO;
	CHECK(sigaction(SIGILL, &sa, NULL) == 0);
	install();

	/* Breakpoints at f's two instructions, g's in a linked area. */
	note(area, text);
	note(area, text + 5);
	memset(area2, 0, DT_TRAP_AREASZ);
	note(area2, text + 64 + 3);
	note(area2, text + 64 + 7);
	memcpy(area + DT_TRAP_NEXT, &(uint64_t) { (uintptr_t) area2 }, 8);

	for (long x = 0; x < 4; x++) {
		CHECK_INT(call_kept(f, x, &rbx), 3 * x + 1);
		CHECK_INT(rbx, x * 7);
		CHECK_INT(call_kept(g, x, &rbx), x + 5);
		CHECK_INT(rbx, x * 7);
	}
	CHECK(memcmp(text, fcode, sizeof (fcode)) == 0);
	CHECK(memcmp(text + 64, gcode, sizeof (gcode)) == 0);
	CHECK_INT(theirs, 0);

	/* A SIGILL of the program's own: its handler, its siginfo. */
	CHECK(raise(SIGILL) == 0);
	CHECK_INT(theirs, 1);
	CHECK_INT(their_code, SI_TKILL);

	/* Marked as a stop the tracer moved on: nothing runs. */
	memset(&si, 0, sizeof (si));
	si.si_signo = SIGILL;
	si.si_code = ILL_ILLOPN;
	si.si_errno = DT_TRAP_MAGIC;
	si.si_addr = (void *) 1;	/* not the %rip: the program's */
	CHECK(syscall(SYS_rt_tgsigqueueinfo, getpid(), syscall(SYS_gettid),
	    SIGILL, &si) == 0);
	CHECK_INT(theirs, 2);

	/* Ignored: stays ignored. */
	sa.sa_handler = SIG_IGN;
	sa.sa_flags = 0;
	CHECK(sigaction(SIGILL, &sa, NULL) == 0);
	install();
	CHECK(raise(SIGILL) == 0);
	CHECK_INT(theirs, 2);

	/* The default action: the process dies of it, as untraced. */
	if ((pid = fork()) == 0) {
		struct rlimit none = { 0, 0 };

		(void) setrlimit(RLIMIT_CORE, &none);
		(void) signal(SIGILL, SIG_DFL);
		install();
		(void) raise(SIGILL);
		_exit(0);
	}
	CHECK(waitpid(pid, &st, 0) == pid);
	CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGILL);
	return unit_done();
}
