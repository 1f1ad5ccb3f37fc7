/* SPDX-License-Identifier: MIT */
/*
 * ustack-hop.c: the library that tests/shell/ustack-every.sh has
 * ustack-nofp.c load with dlopen(), built without frame pointers: hop()
 * calls the function it is given, then works, so that the call is no
 * tail call and hop() keeps a frame on the stack.
 */
__attribute__((noinline)) int
hop(int (*f)(int), int x)
{
	int r = f(x) * 3;

	__asm__ volatile("" ::: "memory");
	return r;
}
