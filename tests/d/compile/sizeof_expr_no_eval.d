/*
 * Sizeof of an expression that is not evaluated.
 * @options: -e
 */
BEGIN { x = sizeof (timestamp + 1); y = sizeof ("abc"); }
/* SPDX-License-Identifier: MIT */
