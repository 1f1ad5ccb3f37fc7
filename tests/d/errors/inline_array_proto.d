/*
 * An inline array's key must suit its parameter's type.
 * @options: -e
 */
inline int sq[int x] = x * x;

BEGIN
{
	trace(sq["a"]);
}
/* SPDX-License-Identifier: MIT */
