/*
 * Destructive actions that record nothing (chill(), raise()) are not
 * data-recording actions: speculate() may follow them, and so may they
 * follow commit().
 * @options: -q -w
 * @requires: feature:atomic_fetch
 */
BEGIN
{
	s = speculation();
}

BEGIN
{
	chill(1);
	speculate(s);
	printf("speculated after chill\n");
}

BEGIN
{
	printf("principal\n");
}

BEGIN
{
	commit(s);
	chill(1);
}

BEGIN
{
	exit(0);
}
/* SPDX-License-Identifier: MIT */
