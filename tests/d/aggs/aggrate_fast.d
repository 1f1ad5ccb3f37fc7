/*
 * With an aggrate no longer than the switchrate, every printa() while
 * tracing prints the aggregation as its clause left it, as DTrace's
 * refresh before each drain makes it.
 * @options: -q -x switchrate=1s -x aggrate=1s
 * @serial: timing
 */
tick-20ms
/n++ < 3/
{
	@ = count();
	printa("tick %@d\n", @);
}

tick-20ms
/n > 3/
{
	exit(0);
}
/* SPDX-License-Identifier: MIT */
