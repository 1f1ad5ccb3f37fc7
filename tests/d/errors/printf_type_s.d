/*
 * Printf() %s of an integer.
 * @options: -e
 */
BEGIN { printf("%s\n", 1); }
/* SPDX-License-Identifier: MIT */
