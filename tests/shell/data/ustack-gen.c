/* SPDX-License-Identifier: MIT */
/*
 * ustack-gen.c LIBA LIBB N: the program of tests/shell/ustack-gen.sh.
 * On one CPU, it loads LIBA with dlopen(), calls getppid() N times
 * through its hop() from cb_a(), 2 ms apart, unloads it, then does the
 * same through LIBB's hop() from cb_b().  It prints each hop()'s address:
 * the second library is usually mapped where the first was.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

typedef void hop_f(void (*)(void));

static volatile long na, nb;

/* Different bodies, so that the compiler does not fold them into one */
__attribute__((noinline)) static void
cb_a(void)
{
	na += getppid();
}

__attribute__((noinline)) static void
cb_b(void)
{
	nb -= getppid();
}

static int
run(const char *lib, void (*cb)(void), long n)
{
	struct timespec ts = { 0, 2000000 };
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	hop_f *hop;

	if (h == NULL || (hop = (hop_f *) dlsym(h, "hop")) == NULL) {
		fprintf(stderr, "ustack-gen: %s\n", dlerror());
		return -1;
	}
	printf("%p\n", (void *) hop);
	fflush(stdout);
	for (long i = 0; i < n; i++) {
		hop(cb);
		(void) nanosleep(&ts, NULL);
	}
	return dlclose(h);
}

int
main(int argc, char **argv)
{
	cpu_set_t set;
	int cpu = sched_getcpu();

	if (argc != 4) {
		fprintf(stderr, "usage: ustack-gen LIBA LIBB N\n");
		return 2;
	}
	/* One CPU, so that both libraries' walks share its cache of rows */
	CPU_ZERO(&set);
	CPU_SET(cpu < 0 ? 0 : cpu, &set);
	(void) sched_setaffinity(0, sizeof (set), &set);
	if (run(argv[1], cb_a, atol(argv[3])) != 0 ||
	    run(argv[2], cb_b, atol(argv[3])) != 0)
		return 1;
	return 0;
}
