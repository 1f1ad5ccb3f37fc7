/* SPDX-License-Identifier: MIT */
/*
 * pid-tailcall.c: the program of tests/shell/pid-tailcall.sh.  tc() is
 * written in assembly so that its shape is fixed: for odd x it leaves
 * through a conditional tail call (jne leaf; arm64: b.ne leaf), for even
 * x through ret; on arm64 three more leave through cbz, cbnz and tbnz.
 */
#include <stdlib.h>
#include <string.h>

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
/*
 * arm64 also branches out on a register: tccbnz(x) tail-calls leaf for
 * odd x through cbnz, tccbz(x) for even x through cbz of an x register,
 * tctbnz(x) for odd x through tbnz of bit 0; the others return x + 100.
 */
int tccbnz(int), tccbz(int), tctbnz(int);
__asm__(".text\n"
    ".globl tc, tccbnz, tccbz, tctbnz\n"
    ".type tc, %function\n"
    ".p2align 2\n"
    "tc:\n"
    "\ttst w0, #1\n"
    "\tb.ne leaf\n"
    "\tadd w0, w0, #100\n"
    "\tret\n"
    ".size tc, .-tc\n"
    ".type tccbnz, %function\n"
    "tccbnz:\n"
    "\tand w1, w0, #1\n"
    "\tcbnz w1, leaf\n"
    "\tadd w0, w0, #100\n"
    "\tret\n"
    ".size tccbnz, .-tccbnz\n"
    ".type tccbz, %function\n"
    "tccbz:\n"
    "\tand x1, x0, #1\n"
    "\tcbz x1, leaf\n"
    "\tadd w0, w0, #100\n"
    "\tret\n"
    ".size tccbz, .-tccbz\n"
    ".type tctbnz, %function\n"
    "tctbnz:\n"
    "\ttbnz w0, #0, leaf\n"
    "\tadd w0, w0, #100\n"
    "\tret\n"
    ".size tctbnz, .-tctbnz\n");
#else
#error "tc() is written for x86-64 and arm64"
#endif

volatile int sink;

/* tc N [FUNC]: N calls of tc, or of the arm64 function FUNC. */
int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10;
	int (*f)(int) = tc;

#if defined(__aarch64__)
	if (argc > 2)
		f = strcmp(argv[2], "tccbnz") == 0 ? tccbnz
		    : strcmp(argv[2], "tccbz") == 0 ? tccbz
		    : strcmp(argv[2], "tctbnz") == 0 ? tctbnz : tc;
#endif
	for (int i = 0; i < n; i++)
		sink += f(i);
	return 0;
}
