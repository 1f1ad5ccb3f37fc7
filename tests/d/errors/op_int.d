/*
 * Bitwise and of a string.
 * @options: -e
 */
BEGIN { x = "a" & 1; }
/* SPDX-License-Identifier: MIT */
