/*
 * printa() again and again while the keys come and go: trunc() and
 * clear() between printings, a key set that grows and changes order,
 * integer keys of every width (1, 2, 4 and 8 bytes, negative ones too),
 * each scalar function, a distribution, aggregations joined in one
 * printa(), and a format.  The consumer keeps its buffers, its entries
 * and their last order from one printing to the next, and makes the
 * lines of integer keys and scalar values in memory; every printing
 * must still show what the aggregations hold then, laid out as DTrace
 * does.
 * @options: -q -x switchrate=10ms -x aggrate=10ms
 * Ticks 500 ms apart: a printa() is printed when the consumer takes its
 * record, and a consumer slowed down (a sanitizer build under load) was
 * seen to print the next tick's values with ticks 100 ms apart.
 * @serial: timing
 */
int n;

tick-500ms
/n < 4/
{
	@c[n * 3] = count();
	@c[4 - n] = count();
	@c[4 - n] = count();
	@s[(char) n, (short) (n * 1000), n * -7, (long long) n << 40] =
	    sum(n - 2);
	@a[n] = avg(n * 10);
	@m[n] = min(-n);
	@x[n % 2] = max(n);
	@d[n % 2] = stddev(n * 3);
	@q[n % 2] = quantize(n);
}

tick-500ms
/n == 1/
{
	trunc(@c, 2);
}

tick-500ms
/n == 2/
{
	clear(@s);
	trunc(@a);
}

tick-500ms
/n < 4/
{
	printf("== tick %d\n", n);
	printa(@c);
	printa(@s);
	printa(@a);
	printa(@m);
	printa(@x);
	printa(@d);
	printa(@q);
	printa(@c, @m);
	printa("%d: %@d\n", @c);
	n++;
}

tick-500ms
/n == 4/
{
	exit(0);
}
/* SPDX-License-Identifier: MIT */
