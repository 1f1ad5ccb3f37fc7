/*
 * Freopen("") restores the standard output: it is no empty format.
 * @options: -q -w
 */
BEGIN
{
	freopen("");
	printf("still here\n");
	exit(0);
}
/* SPDX-License-Identifier: MIT */
