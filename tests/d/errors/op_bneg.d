/*
 * Bitwise negation of a string.
 * @options: -e
 */
BEGIN { x = ~"a"; }
/* SPDX-License-Identifier: MIT */
