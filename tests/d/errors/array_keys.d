/*
 * An associative array indexed by different numbers of keys.
 * @options: -e
 */
BEGIN
{
	a[1] = 1;
	a[1, 2] = 2;
}
/* SPDX-License-Identifier: MIT */
