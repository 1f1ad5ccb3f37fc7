/* SPDX-License-Identifier: MIT */
/*
 * ptrace-fast.c: a program for the ptrace engine's counting sites
 * (tests/shell/ptrace-fast.sh).  Its output depends only on its
 * arguments, so a traced run can be compared with an untraced one.
 *
 *	loop N		N calls of bench_a, N / 2 of bench_b, N / 4 of bench_c
 *	threads N	four threads, N calls of bench_a each
 *	peek		says how each bench_ function starts now: "jmp"
 *			(patched to count), "brk" (a breakpoint: the
 *			ptrace engine's invalid opcode 0xce, or brk #0)
 *			or "orig"
 *	wait FILE N	calls bench_a every millisecond until FILE exists,
 *			then N more times
 *	fork N		a child calls bench_a N times and says how it
 *			starts, then the parent does
 *
 * bench_a is plain C.  On x86-64, bench_b starts with a loop whose head
 * is 2 bytes in: a branch lands inside its first 5 bytes, which may then
 * not be replaced by a jump; bench_c starts with RIP-relative
 * instructions, which run from elsewhere only with their displacements
 * fixed up.  On arm64, where one instruction is displaced, bench_b starts
 * with a pc-relative one and bench_c with a landing pad (bti c): both
 * keep their breakpoints.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

long bench_c_calls;

int bench_b(int n);
long bench_c(void);

#if defined(__x86_64__)
__asm__(".text\n"
	".globl bench_b\n"
	".type bench_b, @function\n"
	"bench_b:\n"
	"	xorl %eax, %eax\n"	/* 2 bytes; the loop starts after */
	"1:	addl $1, %eax\n"
	"	cmpl %edi, %eax\n"
	"	jl 1b\n"
	"	ret\n"
	".size bench_b, . - bench_b\n"
	".globl bench_c\n"
	".type bench_c, @function\n"
	"bench_c:\n"
	"	addq $1, bench_c_calls(%rip)\n"
	"	movq bench_c_calls(%rip), %rax\n"
	"	ret\n"
	".size bench_c, . - bench_c\n");
#elif defined(__aarch64__)
__asm__(".text\n"
	".globl bench_b\n"
	".type bench_b, %function\n"
	"bench_b:\n"
	"	adr x1, .\n"		/* pc-relative: not displaced */
	"	mov w1, #0\n"
	"1:	add w1, w1, #1\n"
	"	cmp w1, w0\n"
	"	b.lt 1b\n"
	"	mov w0, w1\n"
	"	ret\n"
	".size bench_b, . - bench_b\n"
	".globl bench_c\n"
	".type bench_c, %function\n"
	"bench_c:\n"
	"	hint #34\n"		/* bti c: a landing pad */
	"	adrp x1, bench_c_calls\n"
	"	ldr x0, [x1, :lo12:bench_c_calls]\n"
	"	add x0, x0, #1\n"
	"	str x0, [x1, :lo12:bench_c_calls]\n"
	"	ret\n"
	".size bench_c, . - bench_c\n");
#else
#error "bench_b and bench_c are written for x86-64 and arm64"
#endif

__attribute__((noinline)) int
bench_a(int x)
{
	return x * 3 + 1;
}

static volatile long sink;

static void *
worker(void *arg)
{
	long n = (long) arg, s = 0;

	for (long i = 0; i < n; i++)
		s += bench_a((int) i);
	return (void *) s;
}

/* The ptrace engine's jump (jmp rel32; b) and breakpoint (0xce; brk #0). */
static const char *
how(const void *fn)
{
#if defined(__aarch64__)
	unsigned int w = *(const volatile unsigned int *) fn;

	return (w >> 26) == 0x05 ? "jmp" : w == 0xd4200000u ? "brk" : "orig";
#else
	unsigned char c = *(const volatile unsigned char *) fn;

	return c == 0xe9 ? "jmp" : c == 0xce ? "brk" : "orig";
#endif
}

int
main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[argc - 1]) : 0, s = 0;

	if (argc < 2)
		return 2;
	if (strcmp(argv[1], "loop") == 0) {
		for (long i = 0; i < n; i++)
			s += bench_a((int) i);
		for (long i = 0; i < n / 2; i++)
			s += bench_b(3);
		for (long i = 0; i < n / 4; i++)
			s += bench_c();
		printf("%ld %ld\n", s, bench_c_calls);
	} else if (strcmp(argv[1], "threads") == 0) {
		pthread_t t[4];

		for (int i = 0; i < 4; i++)
			(void) pthread_create(&t[i], NULL, worker, (void *) n);
		for (int i = 0; i < 4; i++) {
			void *r;

			(void) pthread_join(t[i], &r);
			s += (long) r;
		}
		printf("%ld\n", s);
	} else if (strcmp(argv[1], "peek") == 0) {
		sink = bench_a(1) + bench_b(1) + bench_c();
		printf("a %s b %s c %s\n", how((const void *) bench_a),
		    how((const void *) bench_b), how((const void *) bench_c));
	} else if (strcmp(argv[1], "fork") == 0) {
		pid_t pid = fork();
		int st = 0;

		for (long i = 0; i < n; i++)
			s += bench_a((int) i);
		if (pid == 0) {
			printf("child %ld %s\n", s, how((const void *) bench_a));
			return 0;
		}
		(void) waitpid(pid, &st, 0);
		printf("parent %ld %d\n", s, st);
	} else if (strcmp(argv[1], "wait") == 0 && argc > 3) {
		while (access(argv[2], F_OK) != 0) {
			sink = bench_a(1);
			(void) usleep(1000);
		}
		for (long i = 0; i < n; i++)
			s += bench_a((int) i);
		printf("%ld %s\n", s, how((const void *) bench_a));
	} else {
		return 2;
	}
	return 0;
}
