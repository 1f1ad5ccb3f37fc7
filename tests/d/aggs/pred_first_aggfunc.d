/*
 * A clause whose predicate creates the variable its aggregating function
 * reads is cooked predicate first; the function keeps all its arguments
 * through the second attempt.
 * @options: -q
 */
tick-1ms
/i++ < 4/
{
	@l = lquantize(i, 0, 10);
	@ll = llquantize(i, 10, 0, 1, 10);
}

tick-1ms
/i == 4/
{
	exit(0);
}
/* SPDX-License-Identifier: MIT */
