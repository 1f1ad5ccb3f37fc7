/* SPDX-License-Identifier: MIT */
/*
 * usdt_loop.c: the USDT workload of pid-vs-bpftrace.sh -- N passes over a
 * <sys/sdt.h> probe, bench:tick, with the pass number as its argument.
 */
#include <stdlib.h>
#include <sys/sdt.h>

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 0;

	for (long i = 0; i < n; i++)
		DTRACE_PROBE1(bench, tick, i);
	return 0;
}
