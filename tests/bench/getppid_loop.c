/* SPDX-License-Identifier: MIT */
/*
 * getppid_loop N: make exactly N getppid() system calls, then print the
 * loop's wall time and CPU time (user + system) in ns: "WALL CPU".
 *
 * The workload of tests/bench/bpf-vs-bpftrace.sh.  syscall(2) is used so
 * that no C library can answer from a cache: every iteration enters the
 * kernel and fires syscall::getppid:entry once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <time.h>

static long long
ns(clockid_t clk)
{
	struct timespec ts;

	(void) clock_gettime(clk, &ts);
	return (long long) ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int
main(int argc, char **argv)
{
	long n, i;
	long long w0, c0;

	if (argc != 2 || (n = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: getppid_loop N\n");
		return 2;
	}
	w0 = ns(CLOCK_MONOTONIC);
	c0 = ns(CLOCK_PROCESS_CPUTIME_ID);
	for (i = 0; i < n; i++)
		(void) syscall(SYS_getppid);
	printf("%lld %lld\n", ns(CLOCK_MONOTONIC) - w0,
	    ns(CLOCK_PROCESS_CPUTIME_ID) - c0);
	return 0;
}
