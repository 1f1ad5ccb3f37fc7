/*
 * Many clauses for the same probe.
 * @options: -e
 */
BEGIN { x = 1; }
BEGIN { x++; }
BEGIN /x == 2/ { exit(0); }
/* SPDX-License-Identifier: MIT */
