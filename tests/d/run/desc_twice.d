/*
 * Each description of a clause is an enabling of its own, as in DTrace:
 * a probe two descriptions of one clause match runs the clause twice.
 * @options: -q
 */
BEGIN, BEGIN
{
	n++;
}

dtrace:::BEGIN, :::BEGIN, BEGIN
{
	m++;
}

BEGIN
{
	printf("%d %d\n", n, m);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
