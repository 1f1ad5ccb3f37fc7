/*
 * A predicate that creates the variable its actions read.
 * @options: -e
 */
BEGIN
/x++ == 0/
{
	trace(x);
}
/* SPDX-License-Identifier: MIT */
