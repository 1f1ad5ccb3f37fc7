/*
 * Floats cannot be compared either: D has no floating-point operators.
 * @options: -e
 */
float f;

BEGIN
/f == f/
{
}
/* SPDX-License-Identifier: MIT */
