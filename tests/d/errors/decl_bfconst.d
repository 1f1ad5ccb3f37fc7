/*
 * A bit-field whose width is not a constant.
 * @options: -e
 */
struct s { int a : x; };
/* SPDX-License-Identifier: MIT */
