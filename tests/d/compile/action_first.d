/*
 * Actions that create the variable the predicate reads.
 * @options: -e
 */
BEGIN
/y == 0/
{
	y = 1;
}
/* SPDX-License-Identifier: MIT */
