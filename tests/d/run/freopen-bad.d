/*
 * freopen() of a name that cannot be opened for appending -- "..", a
 * directory, or the empty name printed from arguments, which is not the
 * freopen("") that restores the output -- is an error of the probe, and
 * the output stays where it was.
 * @options: -q -w
 * @status: 0
 */
BEGIN
{
	freopen("..");
	freopen("%s", ".");
	freopen("%s", "");
	printf("still here\n");
	exit(0);
}
/* SPDX-License-Identifier: MIT */
