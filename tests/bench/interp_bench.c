/* SPDX-License-Identifier: MIT */
/*
 * interp_bench.c: the cost of one probe firing in the DIF interpreter.
 *
 * The clause measured is what
 *
 *	syscall::read:entry /arg0 != 0/ { self->n++; a[probefunc]++; g++; }
 *
 * compiles to: a predicate, a thread-local increment, an associative-array
 * update keyed by a string and a global (count()-like) increment.  The
 * peer measured in the same run is a firing whose clause only evaluates
 * the predicate, so the ratio says what the actions cost on top of the
 * per-firing bookkeeping.  Not a test: it prints, it does not judge.
 *
 * Usage: interp_bench [firings]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "common/dif/dif_asm.h"
#include "common/dif/dif_interp.h"
#include "common/dif/dif_verify.h"

static const char pred_src[] =
    "ldgs arg0, %r1\n"
    "tst %r1\n"
    "be F\n"
    "setx 1, %r2\n"
    "ret %r2\n"
    "F:\n"
    "ret %r0\n";

static const char action_src[] =
    "setx 1, %r1\n"
    "ldts n, %r2\n"
    "add %r2, %r1, %r2\n"
    "stts %r2, n\n"
    "ldgs probefunc, %r3\n"
    "pushtr string, %r3, %r0\n"
    "ldgaa a, %r4\n"
    "add %r4, %r1, %r4\n"
    "stgaa %r4, a\n"
    "flushts\n"
    "ldgs g, %r5\n"
    "add %r5, %r1, %r5\n"
    "stgs %r5, g\n"
    "ret %r5\n"
    "VARIABLE TABLE\n"
    "n 1280 scalar thread rw ctf signed 8\n"
    "a 1281 array global rw ctf signed 8\n"
    "g 1282 scalar global rw ctf signed 8\n";

static dif_object_t *
build(const char *src)
{
	char err[256];
	dif_object_t *d;

	if ((d = dif_asm(src, err, sizeof (err))) == NULL ||
	    dif_verify(d, err, sizeof (err)) != 0) {
		fprintf(stderr, "interp_bench: %s\n", err);
		exit(1);
	}
	return d;
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Runs n firings; with actions, the full clause.  Returns ns per firing. */
static double
run(dif_state_t *st, dif_mstate_t *ms, const dif_object_t *pred,
    const dif_object_t *action, long n)
{
	static const char *funcs[] = { "read", "write", "openat", "close" };
	uint64_t args[3] = { 3, 0, 0 }, v;
	double t0 = now();
	long i;

	for (i = 0; i < n; i++) {
		dif_mstate_firing(ms, 1, 1, "syscall", "vmlinux", funcs[i & 3],
		    "entry", args, 3, (uint64_t) i, (uint64_t) (i & 15));
		dif_mstate_clause(ms, 1);
		if (dif_exec(st, ms, pred, &v) != 0 || v == 0)
			continue;
		if (action != NULL && dif_exec(st, ms, action, &v) != 0) {
			fprintf(stderr, "interp_bench: fault\n");
			exit(1);
		}
	}
	return (now() - t0) / (double) n;
}

int
main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000000;
	dif_object_t *pred = build(pred_src), *action = build(action_src);
	dif_state_t *st = dif_state_create(NULL);
	dif_mstate_t *ms = dif_mstate_create(st, 0);
	double base, full;

	if (st == NULL || ms == NULL || n <= 0)
		return 1;
	(void) run(st, ms, pred, action, n / 10 + 1);	/* warm up */
	base = run(st, ms, pred, NULL, n);
	full = run(st, ms, pred, action, n);
	printf("predicate only:        %8.1f ns per firing\n", base);
	printf("predicate + actions:   %8.1f ns per firing (%.2fx)\n", full,
	    full / base);
	dif_mstate_destroy(ms);
	dif_state_destroy(st);
	dif_object_free(pred);
	dif_object_free(action);
	return 0;
}
