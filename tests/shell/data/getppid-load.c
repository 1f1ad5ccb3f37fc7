/* SPDX-License-Identifier: MIT */
/*
 * getppid-load.c: calls getppid() as fast as it can for the seconds
 * given (default 2), then prints how many times it called it -- the
 * events a trace of it must account for, each one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 2;
	struct timespec t0, t;
	unsigned long n = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		for (int i = 0; i < 1000; i++)
			(void) syscall(SYS_getppid);
		n += 1000;
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((double) (t.tv_sec - t0.tv_sec) +
		    (double) (t.tv_nsec - t0.tv_nsec) / 1e9 > secs)
			break;
	}
	printf("%lu\n", n);
	return 0;
}
