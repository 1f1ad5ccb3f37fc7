/*
 * An aggregation indexed by different numbers of keys.
 * @options: -e
 */
BEGIN
{
	@a[1] = count();
	@a[1, 2] = count();
}
/* SPDX-License-Identifier: MIT */
