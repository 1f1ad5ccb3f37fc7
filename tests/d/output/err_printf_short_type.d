/*
 * Printf() %hd takes a short: an int is refused, as in DTrace, rather
 * than printed unconverted.
 * @options: -e
 */
BEGIN { printf("%hd\n", 70000); }
/* SPDX-License-Identifier: MIT */
