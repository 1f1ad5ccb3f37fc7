/*
 * specsize bounds the bytes of one speculation: a clause that would pass
 * it is dropped and counted as a speculative drop; what fitted is still
 * committed.  Each clause here records 16 bytes of header and 8 of data.
 * @options: -q -x specsize=48
 * @status: 0
 * @requires: feature:atomic_fetch
 */
BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
	printf("%d\n", 1);
}

BEGIN
{
	speculate(s);
	printf("%d\n", 2);
}

BEGIN
{
	speculate(s);
	printf("%d\n", 3);
}

BEGIN
{
	commit(s);
}

BEGIN
{
	exit(0);
}
/* SPDX-License-Identifier: MIT */
