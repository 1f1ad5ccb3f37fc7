/*
 * Sizeof of types and expressions.
 * @options: -e
 */
BEGIN { a = sizeof (int); b = sizeof (char *); x = 1; c = sizeof (x); d = sizeof (struct psinfo); e = sizeof (uint64_t); f = sizeof (string); }
/* SPDX-License-Identifier: MIT */
