/*
 * What is printed at the end: each aggregation printa() has not printed,
 * in program order, each sorted on its own -- integer keys (made in
 * memory), string keys and a distribution (printed by stdio) between
 * them, and one that printa() printed left out.
 * @options: -q -x switchrate=10ms -x aggrate=10ms
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
