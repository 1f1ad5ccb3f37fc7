/* SPDX-License-Identifier: MIT */
/*
 * seed.c: the source of the ELF readers' seed inputs (tests/fuzz/build.sh
 * compiles it into small objects and libraries): functions of every kind
 * the CFI reader meets -- a leaf, one with a frame that calls, one whose
 * stack is realigned, one with a variable-length array -- and symbols of
 * each binding.
 */
#include <stddef.h>

int seed_global(int);
int seed_weak(int) __attribute__((weak));

static int __attribute__((noinline))
seed_leaf(int x)
{
	return x * 3 + 1;
}

int __attribute__((noinline))
seed_global(int x)
{
	volatile int v[16];

	for (int i = 0; i < 16; i++)
		v[i] = seed_leaf(x + i);
	return v[x & 15];
}

int __attribute__((noinline))
seed_weak(int x)
{
	return seed_global(x) + seed_leaf(x);
}

int __attribute__((noinline, aligned(64)))
seed_vla(int n)
{
	volatile char buf[n > 0 && n < 4096 ? n : 1];
	int s = 0;

	for (size_t i = 0; i < sizeof (buf); i++)
		buf[i] = (char) seed_weak((int) i);
	for (size_t i = 0; i < sizeof (buf); i++)
		s += buf[i];
	return s;
}

int __attribute__((noinline))
seed_aligned(int x)
{
	_Alignas(64) volatile char big[128];

	big[x & 127] = (char) x;
	return seed_vla(big[x & 127]);
}
