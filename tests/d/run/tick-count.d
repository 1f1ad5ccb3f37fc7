/*
 * A tick probe fires until its predicate calls exit(); END runs after.
 * @options: -q
 */
tick-1ms
/i++ >= 10/
{
	exit(0);
}

END
{
	printf("%d\n", i);
}
/* SPDX-License-Identifier: MIT */
