/*
 * Printa() formats take the keys in order, a dynamic width or precision
 * from a key as well, and '@' conversions the value.
 * @options: -q
 */
BEGIN
{
	@a[10, 100, 3, "abcdef"] = sum(1);
	@a[-10, 200, 1, "xy"] = sum(2);
	printa("[%*d] [%.*s] %@d\n", @a);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
