/*
 * A translator with several members: each member reference evaluates
 * that member's expression on the input.
 * @options: -q
 */
struct out { int a; int b; int c; };

translator struct out < int x > {
	a = x + 1;
	b = x * 2;
	c = x - 3;
};

BEGIN
{
	printf("%d %d %d\n", xlate<struct out>(5).a, xlate<struct out>(5).b,
	    xlate<struct out>(5).c);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
