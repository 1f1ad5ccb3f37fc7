/*
 * A '/' that is a division gives back the white space it looked past.
 * @options: -q
 */
BEGIN
{
	x = 10 /
	    2;
	y = x / 5 /* a comment */ / 1;
	printf("%d %d\n", x, y);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
