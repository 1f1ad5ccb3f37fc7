/*
 * A member declared twice.
 * @options: -e
 */
struct s { int a; int a; };
/* SPDX-License-Identifier: MIT */
