/*
 * commit() may follow speculate() in a clause: it commits its own
 * speculation when the clause runs, as DTrace does, though the clause's
 * record is held by the other one (here discarded).
 * @options: -q -x nspec=2
 * @requires: feature:atomic_fetch
 */
BEGIN
{
	a = speculation();
	b = speculation();
}

BEGIN
{
	speculate(b);
	printf("in b\n");
}

BEGIN
{
	speculate(a);
	commit(b);
}

BEGIN
{
	printf("principal\n");
}

BEGIN
{
	discard(a);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
