/*
 * A struct defined twice.
 * @options: -e
 */
struct s { int a; };
struct s { int b; };
/* SPDX-License-Identifier: MIT */
