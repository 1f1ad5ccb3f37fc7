/*
 * Printf() refuses positional conversions (%n$): arguments are taken in
 * order only.
 * @options: -e
 */
BEGIN { printf("%2$d %1$d\n", 1, 2); }
/* SPDX-License-Identifier: MIT */
