/*
 * sizeof a string constant is its length with the NUL; of a string
 * variable, the string size.
 * @options: -q -x strsize=64
 */
BEGIN
{
	x = "abc";
	printf("%d %d %d %d\n", sizeof("hi"), sizeof(""), sizeof(x),
	    sizeof(string));
	exit(0);
}
/* SPDX-License-Identifier: MIT */
