/*
 * The switch policy (the default, named here) prints every record as it
 * is drained; a buffer of 72 bytes is plenty for one record per drain.
 * @options: -q -x bufpolicy=switch -b 72
 */
tick-1ms
/i < 5/
{
	printf("%d\n", i++);
}

tick-1ms
/i == 5/
{
	exit(0);
}
/* SPDX-License-Identifier: MIT */
