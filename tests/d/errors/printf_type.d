/*
 * Printf() %d of a string.
 * @options: -e
 */
BEGIN { printf("%d\n", "x"); }
/* SPDX-License-Identifier: MIT */
