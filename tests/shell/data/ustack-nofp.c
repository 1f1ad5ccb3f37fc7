/* SPDX-License-Identifier: MIT */
/*
 * ustack-nofp.c: the program of tests/shell/ustack-cfi.sh and
 * ustack-every.sh, built without frame pointers: main -> a -> b -> c ->
 * probe_here, each call followed by work so that no call is a tail call.
 * A second argument picks more: "q", qsort() calls cmp(), which calls
 * probe_here() too; "s", c() also makes the getppid() system call; "p",
 * c() also calls spin(), which keeps the CPU busy for a few milliseconds;
 * "d", as "s", but main loads the library named by the third argument
 * (ustack-hop.c) with dlopen() and calls a() through its hop(), every
 * 2 ms.
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

typedef int hop_f(int (*)(int), int);

volatile int sink;
static char mode;

__attribute__((noinline)) void
spin(void)
{
	for (volatile long i = 0; i < 25000000; i++)
		;
}

__attribute__((noinline)) int
probe_here(int x)
{
	sink = x;
	return x + 1;
}

__attribute__((noinline)) int
c(int x)
{
	int r = probe_here(x) * 3;

	if (mode == 's' || mode == 'd')
		sink += getppid();
	else if (mode == 'p')
		spin();
	__asm__ volatile("" ::: "memory");
	return r;
}

__attribute__((noinline)) int
b(int x)
{
	int r = c(x + 1) * 5;

	__asm__ volatile("" ::: "memory");
	return r;
}

__attribute__((noinline)) int
a(int x)
{
	int r = b(x + 2) * 7;

	__asm__ volatile("" ::: "memory");
	return r;
}

__attribute__((noinline)) static int
cmp(const void *l, const void *r)
{
	int x = *(const int *) l, y = *(const int *) r;

	probe_here(x);
	return x < y ? -1 : x > y;
}

int
main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;
	int v[2] = { 2, 1 };

	if (argc > 2)
		mode = argv[2][0];
	if (mode == 'd') {
		void *h = argc > 3 ? dlopen(argv[3], RTLD_NOW) : NULL;
		hop_f *hop = h != NULL ? (hop_f *) dlsym(h, "hop") : NULL;

		if (hop == NULL)
			return 1;
		for (int i = 0; i < n; i++) {
			usleep(2000);
			sink += hop(a, i);
		}
		return 0;
	}
	for (int i = 0; i < n; i++)
		sink += a(i);
	if (mode == 'q')
		qsort(v, 2, sizeof (int), cmp);
	return 0;
}
