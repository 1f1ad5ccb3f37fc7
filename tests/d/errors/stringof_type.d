/*
 * Stringof of a struct.
 * @options: -e
 */
struct s { int a; };
struct s v;
BEGIN { x = stringof(v); }
/* SPDX-License-Identifier: MIT */
