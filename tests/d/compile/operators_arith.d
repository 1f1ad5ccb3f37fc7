/*
 * Arithmetic operators and precedence.
 * @options: -e
 */
BEGIN
{
	x = 1 + 2 * 3 - 4 / 2 % 3;
	y = (1 + 2) * 3;
	z = -x + +y;
	w = x << 2 >> 1;
}
/* SPDX-License-Identifier: MIT */
