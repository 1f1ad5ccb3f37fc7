/*
 * Substr() with too few arguments.
 * @options: -e
 */
BEGIN { x = substr("abc"); }
/* SPDX-License-Identifier: MIT */
