/*
 * Enumerator names resolved against an enum operand.
 * @options: -e
 */
enum e { A = 1, B };
enum e v;
BEGIN { x = v == B; }
/* SPDX-License-Identifier: MIT */
