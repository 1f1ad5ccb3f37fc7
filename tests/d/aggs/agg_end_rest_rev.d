/*
 * agg_end_rest.d with aggsortrev: at the end, each aggregation printa()
 * has not printed, in reverse program order, each in reverse order on
 * its own.
 * @options: -q -x switchrate=10ms -x aggrate=10ms -x aggsortrev
 * @serial: timing
 */
int n;

tick-100ms
/n < 3/
{
	@a[n, 3 - n] = sum(10 * n - 7);
	@b[n % 2 ? "odd" : "even"] = count();
	@c[n] = quantize(1 << n);
	@d[-n] = max(n);
	@e[n] = avg(n * 3);
	n++;
}

tick-100ms
/n == 3/
{
	printa(@d);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
