/*
 * Under D 1.0, the built-ins later versions added (strstr and substr in
 * 1.1, print in 1.9, llquantize in 1.7) are not defined: a program may
 * name its own variables so.  D 1.0's own (strlen) stay.
 * @options: -q
 */
#pragma D option version=1.0

int strstr;
int print;
int llquantize;

BEGIN
{
	strstr = 1;
	print = 2;
	substr = 3;
	llquantize = strlen("abcd");
	printf("%d %d %d %d\n", strstr, print, substr, llquantize);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
