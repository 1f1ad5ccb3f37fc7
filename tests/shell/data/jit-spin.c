/* SPDX-License-Identifier: MIT */
/*
 * jit-spin.c DIR SECONDS: the program of tests/shell/perfmap-unsafe.sh,
 * run like a JIT: it copies a leaf function into anonymous executable
 * memory at JIT_ADDR, so that a profile sample's pc is in no file and
 * dtrace looks it up in /tmp/perf-<pid>.map.  It writes its pid to
 * DIR/pid and waits for DIR/go, so that the test can make that map
 * first (whatever the map is: the test plants it), then runs the copy
 * for SECONDS.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* Where the copy goes: fixed, so that the test can name it in a map. */
#define JIT_ADDR 0x200000000000UL
/* More than the function's bytes, less than what follows it in .text. */
#define JIT_COPY 256

/* A loop with no call and no data address: it runs wherever copied. */
static long __attribute__((noinline)) spin(long n)
{
	volatile long x = 0;

	for (long i = 0; i < n; i++)
		x += i;
	return x;
}

static double
now(void)
{
	struct timespec ts;

	(void) clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	char path[4096];
	struct timespec ms = {0, 1000000};
	long (*fn)(long);
	double end;
	FILE *fp;
	void *p;

	if (argc != 3) {
		(void) fprintf(stderr, "usage: jit-spin DIR SECONDS\n");
		return 2;
	}
	p = mmap((void *) JIT_ADDR, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p != (void *) JIT_ADDR) {
		perror("jit-spin: mmap at JIT_ADDR");
		return 2;
	}
	memcpy(p, (void *) spin, JIT_COPY);
	__builtin___clear_cache((char *) p, (char *) p + JIT_COPY);
	fn = (long (*)(long)) p;

	(void) snprintf(path, sizeof(path), "%s/pid", argv[1]);
	if ((fp = fopen(path, "w")) == NULL) {
		perror(path);
		return 2;
	}
	(void) fprintf(fp, "%d\n", (int) getpid());
	(void) fclose(fp);
	(void) snprintf(path, sizeof(path), "%s/go", argv[1]);
	while (access(path, F_OK) != 0)
		(void) nanosleep(&ms, NULL);

	end = now() + atof(argv[2]);
	while (now() < end)
		(void) fn(1000000);
	return 0;
}
