/*
 * Every assignment operator.
 * @options: -e
 */
BEGIN
{
	x = 1;
	x += 2; x -= 1; x *= 3; x /= 2; x %= 5;
	x &= 7; x |= 8; x ^= 1; x <<= 2; x >>= 1;
}
/* SPDX-License-Identifier: MIT */
