/* SPDX-License-Identifier: MIT */
/*
 * uprobe_loop.c: the workload of pid-vs-bpftrace.sh.  "fn N" makes N
 * calls of bench_fn (a pid probe's or uprobe's site); "usdt N" makes N
 * passes over a <sys/sdt.h> probe, bench:tick, with the pass number as
 * its argument.  It times its own loop and writes the nanoseconds to the
 * file $LOOP_NS_FILE names, so that what a tracer spends starting and
 * attaching, which on a busy machine varies by more than a loop of
 * firings costs, is not in the measure.  The time is the thread's CPU
 * time, user and system: a uprobe's trap, its single step and the BPF
 * program it runs are all charged to the thread that fired it, and the
 * time other programs hold the CPU is not, so that two tracers compare
 * fairly on a shared machine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sdt.h>
#include <time.h>

__attribute__((noinline)) int
bench_fn(int x)
{
	__asm__ volatile("" : : : "memory");	/* a call, not folded */
	return x * 2 + 1;
}

static long long
now_ns(void)
{
	struct timespec ts;

	(void) clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int
main(int argc, char **argv)
{
	const char *out = getenv("LOOP_NS_FILE");
	long n = argc > 2 ? atol(argv[2]) : 0;
	int usdt = argc > 1 && strcmp(argv[1], "usdt") == 0;
	long long t0, t1;
	long sum = 0;
	FILE *f;

	t0 = now_ns();
	for (long i = 0; i < n; i++) {
		if (usdt)
			DTRACE_PROBE1(bench, tick, i);
		else
			sum += bench_fn((int) i);
	}
	t1 = now_ns();
	if (out != NULL && (f = fopen(out, "w")) != NULL) {
		(void) fprintf(f, "%lld\n", t1 - t0);
		(void) fclose(f);
	}
	return sum == -1;
}
