/*
 * Under the ring policy a CPU keeps only its most recent bufsize bytes
 * of records, printed when tracing stops.  Each record here is 24
 * bytes, so 72 keep the last three: two printf()s and the exit().
 * @options: -q -x bufpolicy=ring -b 72
 * @cpu: 0
 */
tick-1ms
/i < 10/
{
	printf("%d\n", i++);
}

tick-1ms
/i == 10/
{
	exit(0);
}
/* SPDX-License-Identifier: MIT */
