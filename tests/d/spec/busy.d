/*
 * A speculation discarded before anything was speculated to it stays
 * busy until the consumer has caught up (DTrace's cleaning), so an
 * immediate speculation() fails as "still busy"; after the next drain
 * the ID is free again.
 * @options: -q
 * @status: 0
 * @requires: feature:atomic_fetch
 */
BEGIN
{
	s = speculation();
	discard(s);
	t = speculation();
	printf("%d %d\n", s, t);
}

tick-50ms
{
	printf("%d\n", speculation());
	exit(0);
}
/* SPDX-License-Identifier: MIT */
