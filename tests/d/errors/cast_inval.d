/*
 * Casting a string to a struct.
 * @options: -e
 */
struct s { int a; };
BEGIN { x = (struct s)"a"; }
/* SPDX-License-Identifier: MIT */
