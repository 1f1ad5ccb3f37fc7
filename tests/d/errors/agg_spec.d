/*
 * An aggregation after speculate().
 * @options: -e
 */
BEGIN
{
	speculate(1);
	@a = count();
}
/* SPDX-License-Identifier: MIT */
