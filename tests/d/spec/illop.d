/*
 * A speculation ID above nspec is an illegal operation, in speculate(),
 * commit() and discard(); ID 0 is always accepted and does nothing.
 * @options: -q
 * @status: 0
 * @requires: feature:atomic_fetch
 */
BEGIN
{
	speculate(2);
	printf("never\n");
}

BEGIN
{
	commit(3);
}

BEGIN
{
	discard(0);
}

BEGIN
{
	commit(0);
}

BEGIN
{
	discard(7);
}

BEGIN
{
	printf("done\n");
	exit(0);
}
/* SPDX-License-Identifier: MIT */
