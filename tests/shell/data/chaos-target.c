/* SPDX-License-Identifier: MIT */
/*
 * chaos-target.c: the process chaos.sh traces while it kills dtrace.
 *
 *	chaos-target STOPFILE
 *
 * Calls work() (a pid and USDT probe site) in a loop, checking every
 * result, until STOPFILE exists; then checks that the text of work() and
 * main() is what it was at the start (no breakpoint or jump left) and
 * prints two lines.  Any breakpoint left behind kills it with a signal
 * first.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#ifdef HAVE_SDT
#include <sys/sdt.h>
#else
#define DTRACE_PROBE1(p, n, a) ((void) (a))
#endif

#define TEXT 64

__attribute__((noinline)) long
work(long i)
{
	DTRACE_PROBE1(chaos, tick, i);
	return i * 3 + 1;
}

int
main(int argc, char **argv)
{
	unsigned char w0[TEXT], m0[TEXT];
	long sum = 0, bad = 0;

	if (argc != 2)
		return 2;
	memcpy(w0, (const void *) work, TEXT);
	memcpy(m0, (const void *) main, TEXT);
	for (long i = 0;; i++) {
		sum += work(i);
		/* 3 * (0 + ... + i) + (i + 1) */
		if (sum != 3 * i * (i + 1) / 2 + i + 1)
			bad++;
		if (i % 64 == 0) {
			if (access(argv[1], F_OK) == 0)
				break;
			usleep(500);
		}
	}
	printf("sums %s\n", bad == 0 ? "ok" : "wrong");
	printf("text %s\n", memcmp(w0, (const void *) work, TEXT) == 0 &&
	    memcmp(m0, (const void *) main, TEXT) == 0 ? "ok" : "changed");
	return 0;
}
