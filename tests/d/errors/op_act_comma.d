/*
 * An action in a comma expression.
 * @options: -e
 */
BEGIN { trace(1), trace(2); }
/* SPDX-License-Identifier: MIT */
