/*
 * Printf() with fewer values than conversions.
 * @options: -e
 */
BEGIN { printf("%d %d %s %d\n", 1, 2, "x"); }
/* SPDX-License-Identifier: MIT */
