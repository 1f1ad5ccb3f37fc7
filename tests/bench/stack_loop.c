/* SPDX-License-Identifier: MIT */
/*
 * stack_loop N DEPTH: make N getppid() system calls, call i from a stack
 * DEPTH calls deep spelled by the low bits of i -- through a() for a 1,
 * b() for a 0 -- so that up to 2^DEPTH calls have as many distinct user
 * stacks.  Then print the loop's wall time and CPU time (user + system)
 * in ns: "WALL CPU".
 *
 * The workload of tests/bench/stacks.sh.  Built with frame pointers and
 * no sibling calls, so that every frame is there for either tracer's
 * unwinder.  With STACK_LOOP_HOLD=PATH in the environment it then
 * creates PATH and waits (up to a minute) until it is removed, while
 * the tracer's programs, and their statistics, are still loaded.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile long sink;

static long long
ns(clockid_t clk)
{
	struct timespec ts;

	(void) clock_gettime(clk, &ts);
	return (long long) ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void step(unsigned long v, int d);

__attribute__((noinline)) static void
a(unsigned long v, int d)
{
	step(v, d);
	sink++;
}

__attribute__((noinline)) static void
b(unsigned long v, int d)
{
	step(v, d);
	sink--;
}

__attribute__((noinline)) static void
step(unsigned long v, int d)
{
	if (d == 0)
		sink += syscall(SYS_getppid);
	else if (v & 1)
		a(v >> 1, d - 1);
	else
		b(v >> 1, d - 1);
}

static void
hold(const char *path)
{
	struct timespec ts = { 0, 10000000 };
	int fd;

	if (path == NULL || (fd = open(path, O_WRONLY | O_CREAT, 0600)) < 0)
		return;
	(void) close(fd);
	for (int i = 0; i < 6000 && access(path, F_OK) == 0; i++)
		(void) nanosleep(&ts, NULL);
}

int
main(int argc, char **argv)
{
	long n, i;
	int depth;
	long long w0, c0;

	if (argc != 3 || (n = atol(argv[1])) <= 0 ||
	    (depth = atoi(argv[2])) < 0 || depth > 60) {
		fprintf(stderr, "usage: stack_loop N DEPTH\n");
		return 2;
	}
	w0 = ns(CLOCK_MONOTONIC);
	c0 = ns(CLOCK_PROCESS_CPUTIME_ID);
	for (i = 0; i < n; i++)
		step((unsigned long) i, depth);
	printf("%lld %lld\n", ns(CLOCK_MONOTONIC) - w0,
	    ns(CLOCK_PROCESS_CPUTIME_ID) - c0);
	(void) fflush(stdout);
	hold(getenv("STACK_LOOP_HOLD"));
	return 0;
}
