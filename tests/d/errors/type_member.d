/*
 * A member the struct does not have.
 * @options: -e
 */
struct s { int a; };
BEGIN { y = ((struct s *)0)->b; }
/* SPDX-License-Identifier: MIT */
