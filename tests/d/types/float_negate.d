/*
 * Nor negated.
 * @options: -e
 */
float f;

BEGIN
{
	x = -f;
}
/* SPDX-License-Identifier: MIT */
