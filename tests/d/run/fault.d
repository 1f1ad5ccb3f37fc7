/*
 * A load from address 0 faults: the clause stops, DTrace's error line is
 * printed and tracing goes on.
 * @options: -q
 * @status: 0
 */
BEGIN
{
	trace(*(int *)0);
}

BEGIN
{
	printf("after\n");
	exit(0);
}
/* SPDX-License-Identifier: MIT */
