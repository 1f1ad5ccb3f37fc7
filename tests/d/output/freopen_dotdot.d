/*
 * Freopen("..") compiles (only "." is refused, DTrace's token for
 * restoring stdout); opening it fails when the action runs, with a
 * message, and the output stays where it was.
 * @options: -q -w
 * @status: 0
 */
BEGIN
{
	freopen("..");
	printf("still on stdout\n");
	exit(0);
}
/* SPDX-License-Identifier: MIT */
