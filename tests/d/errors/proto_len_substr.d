/*
 * Substr() with too many arguments.
 * @options: -e
 */
BEGIN { x = substr("abc", 1, 2, 3); }
/* SPDX-License-Identifier: MIT */
