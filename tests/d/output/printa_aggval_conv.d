/*
 * Printa() '@' conversions other than integers take the aggregation's
 * value as a 64-bit record: %@Y and %@T print it as a time (in the local
 * time zone, UTC here as in the unit tests), %@a as an address.
 * @options: -q
 */
BEGIN
{
	@t = max(1767582245LL * 1000000000);
	@p = sum(0x1234);
	printa("%@Y\n", @t);
	printa("%@a|%@-8p|\n", @p);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
