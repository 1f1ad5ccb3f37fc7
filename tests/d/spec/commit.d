/*
 * commit() prints what was speculated, from every clause, in the order it
 * was speculated, where the commit happens; the commit clause prints
 * nothing of its own.  After the commit the ID is free again.
 * @cpu: 0
 * @requires: feature:atomic_fetch
 */
BEGIN
{
	s = speculation();
}

BEGIN
{
	speculate(s);
	printf("first %d", s);
}

BEGIN
{
	trace("not speculative");
}

BEGIN
{
	speculate(s);
	trace(2);
}

BEGIN
{
	commit(s);
}

BEGIN
{
	trace(speculation());
	exit(0);
}
/* SPDX-License-Identifier: MIT */
