/*
 * An undefined variable as the key of an array that the clause creates
 * is reported as undefined, with a predicate too (the clause is cooked
 * again after its predicate, the array already made).
 * @options: -e
 */
BEGIN
/1/
{
	a[x]++;
}
/* SPDX-License-Identifier: MIT */
