/*
 * Bit-fields in structs.
 * @options: -e
 */
struct flags { unsigned int a : 1; unsigned int b : 3; int : 0; int c : 5; };
struct flags f;
BEGIN { trace(f.b); trace(sizeof (struct flags)); }
/* SPDX-License-Identifier: MIT */
