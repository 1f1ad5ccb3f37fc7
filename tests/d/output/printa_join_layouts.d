/*
 * Printa() joins aggregations on keys laid out alike; keys of compatible
 * types laid out differently (an int and a long long) are lines of their
 * own, each printed with its own layout, none read past its end.
 * @options: -q
 */
BEGIN
{
	@a[1] = count();
	@b[(long long)1] = sum(5);
	@b[(long long)2] = sum(7);
	@c[(char)1, "x"] = count();
	@d[1LL, "x"] = sum(3);
	printa("%d %@d %@d\n", @a, @b);
	printa("%d %s %@d %@d\n", @c, @d);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
