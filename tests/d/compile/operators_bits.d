/*
 * Bitwise operators.
 * @options: -e
 */
BEGIN { x = 1 & 3 | 4 ^ 5; y = ~x; }
/* SPDX-License-Identifier: MIT */
