/*
 * Printf() with more values than conversions.
 * @options: -e
 */
BEGIN { printf("%d\n", 1, 2); }
/* SPDX-License-Identifier: MIT */
