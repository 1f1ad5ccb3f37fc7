/*
 * Floating-point operators are not supported in D.
 * @options: -e
 */
double d;

BEGIN
{
	x = d * 2;
}
/* SPDX-License-Identifier: MIT */
