/*
 * An action inside an expression.
 * @options: -e
 */
BEGIN { x = 1 + trace(1); }
/* SPDX-License-Identifier: MIT */
