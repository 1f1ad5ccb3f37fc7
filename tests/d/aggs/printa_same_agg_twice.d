/*
 * printa() may name one aggregation twice: each of its columns shows
 * the aggregation's value.  A quiet pragma also silences the notice that
 * destructive actions are allowed.
 * @status: 0
 */
#pragma D option quiet
#pragma D option destructive

BEGIN
{
	@a[1] = sum(10);
	@a[2] = sum(20);
	@b[1] = sum(5);
	printa("%d %@d %@d %@d\n", @a, @b, @a);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
