/*
 * A stray closing bracket.
 * @options: -e
 */
BEGIN { x = 1]; }
/* SPDX-License-Identifier: MIT */
