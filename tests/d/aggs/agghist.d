/*
 * agghist: count() and sum() print as a histogram, a header naming the
 * key columns (strings 16 wide), then a bar per key scaled to the
 * aggregation's total; negative sums grow left of the line.  Other
 * functions print as usual.
 * @options: -q -x agghist
 */
BEGIN
{
	@["foo"] = count();
	@["foo"] = count();
	@["barbaz"] = count();
	@n[1, 2] = sum(-3);
	@n[2, 3] = sum(5);
	@c = count();
	@m["x"] = max(7);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
