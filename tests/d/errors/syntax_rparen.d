/*
 * A stray closing parenthesis.
 * @options: -e
 */
BEGIN { trace(1)); }
/* SPDX-License-Identifier: MIT */
