/* SPDX-License-Identifier: MIT */
/*
 * pid-tailcall.c: the program of tests/shell/pid-tailcall.sh.  tc() is
 * written in assembly so that its shape is fixed: for odd x it leaves
 * through a conditional tail call (jne leaf), for even x through ret.
 */
#include <stdlib.h>

__attribute__((noinline)) int
leaf(int x)
{
	return x * 3;
}

/* tc(x): odd x tail-calls leaf through jne; even x returns x + 100. */
int tc(int);
__asm__(".text\n"
    ".globl tc\n"
    ".type tc, @function\n"
    "tc:\n"
    "\ttest $1, %edi\n"
    "\tjne leaf\n"
    "\tlea 100(%rdi), %eax\n"
    "\tret\n"
    ".size tc, .-tc\n");

volatile int sink;

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;

	for (int i = 0; i < n; i++)
		sink += tc(i);
	return 0;
}
