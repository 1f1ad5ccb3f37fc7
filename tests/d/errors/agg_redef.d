/*
 * An aggregation given two functions.
 * @options: -e
 */
BEGIN
{
	@a = count();
	@a = sum(1);
}
/* SPDX-License-Identifier: MIT */
