/*
 * Keyed counts print sorted by value, keys left-aligned.
 * @options: -q
 */
BEGIN
{
	@["b"] = count();
	@["b"] = count();
	@["a"] = count();
	@["c"] = count();
	@["c"] = count();
	@["c"] = count();
	exit(0);
}
/* SPDX-License-Identifier: MIT */
