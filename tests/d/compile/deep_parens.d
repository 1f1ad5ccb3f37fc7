/*
 * Deeply nested parentheses.
 * @options: -e
 */
BEGIN { x = ((((((((1)))))))) + ((2 * (3 + (4 - (5 / (6 % 7)))))); }
/* SPDX-License-Identifier: MIT */
