/*
 * Logical and of a struct.
 * @options: -e
 */
struct s { int a; };
struct s v;
BEGIN { x = v && 1; }
/* SPDX-License-Identifier: MIT */
