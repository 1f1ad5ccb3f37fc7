/*
 * timestamp is one value for the whole firing, in every clause, whether
 * or not an earlier clause has read it, and a later firing's is later;
 * walltimestamp is the time of day.
 * @options: -q
 */
BEGIN
{
	@n = count();
}

BEGIN
{
	t = timestamp;
}

END
{
	printf("%d\n", timestamp > t);
}

BEGIN
{
	printf("%d %d\n", timestamp == t, t > 0);
	printf("%d\n", walltimestamp > 1600000000000000000);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
