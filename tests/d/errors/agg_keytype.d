/*
 * An aggregation indexed by keys of different types.
 * @options: -e
 */
BEGIN
{
	@a[1] = count();
	@a["x"] = count();
}
/* SPDX-License-Identifier: MIT */
