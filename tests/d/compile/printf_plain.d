/*
 * Printf() with no conversions.
 * @options: -e
 */
BEGIN { printf("hello, world\n"); }
/* SPDX-License-Identifier: MIT */
