/*
 * A clause of speculate() alone records its firing, as an empty clause
 * does: the commit prints the probe.  Assignments and commit() record
 * nothing, and print nothing.
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
