/* SPDX-License-Identifier: MIT */
/*
 * pid-tailcall.c: the program of tests/shell/pid-tailcall.sh.  tc() is
 * written in assembly so that its shape is fixed: for odd x it leaves
 * through a conditional tail call (jne leaf; arm64: b.ne leaf), for even
 * x through ret.
 */
#include <stdlib.h>

__attribute__((noinline)) int
leaf(int x)
{
	return x * 3;
}

/* tc(x): odd x tail-calls leaf through a jne (arm64: b.ne); even x
 * returns x + 100. */
int tc(int);
#if defined(__x86_64__)
__asm__(".text\n"
    ".globl tc\n"
    ".type tc, @function\n"
    "tc:\n"
    "\ttest $1, %edi\n"
    "\tjne leaf\n"
    "\tlea 100(%rdi), %eax\n"
    "\tret\n"
    ".size tc, .-tc\n");
#elif defined(__aarch64__)
__asm__(".text\n"
    ".globl tc\n"
    ".type tc, %function\n"
    ".p2align 2\n"
    "tc:\n"
    "\ttst w0, #1\n"
    "\tb.ne leaf\n"
    "\tadd w0, w0, #100\n"
    "\tret\n"
    ".size tc, .-tc\n");
#else
#error "tc() is written for x86-64 and arm64"
#endif

volatile int sink;

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;

	for (int i = 0; i < n; i++)
		sink += tc(i);
	return 0;
}
