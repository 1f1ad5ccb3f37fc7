/*
 * Printa() of several aggregations with the same keys: one line per key,
 * each '@' conversion taking the next aggregation's value, zero where an
 * aggregation has no such key.
 * @options: -q
 */
BEGIN
{
	@c[1, "x"] = count();
	@c[2, "y"] = count();
	@c[2, "y"] = count();
	@s[2, "y"] = sum(40);
	@s[3, "z"] = sum(7);
	printa("%d %s %@d %@d\n", @c, @s);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
