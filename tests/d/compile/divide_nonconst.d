/*
 * Division by a variable.
 * @options: -e
 */
BEGIN { x = 1; y = 10 / x; z = 10 % x; }
/* SPDX-License-Identifier: MIT */
