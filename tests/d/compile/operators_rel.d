/*
 * Relational and equality operators.
 * @options: -e
 */
BEGIN { a = 1 < 2; b = 1 <= 2; c = 1 > 2; d = 1 >= 2; e = 1 == 2; f = 1 != 2; }
/* SPDX-License-Identifier: MIT */
