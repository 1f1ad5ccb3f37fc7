/*
 * Logical operators including ^^.
 * @options: -e
 */
BEGIN { x = 1 && 0 || 1 ^^ 0; y = !x; }
/* SPDX-License-Identifier: MIT */
