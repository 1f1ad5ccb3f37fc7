/*
 * cleanpath() of a path near strsize stops as DTrace's does: while
 * "/..c" and the NUL would still fit, writing "/c" whole.  With strsize
 * 16 that is 11 or 12 bytes.
 * @options: -q -x strsize=16
 */
BEGIN
{
	printf("[%s]\n", cleanpath("/aaaaaaaaaaaaa"));
	printf("[%s]\n", cleanpath("/a/b/c/d/e/f/g"));
	printf("[%s]\n", cleanpath("/a/./b/../c/dd"));
	exit(0);
}
/* SPDX-License-Identifier: MIT */
