/*
 * A bit-field of pointer type.
 * @options: -e
 */
struct s { int *a : 3; };
/* SPDX-License-Identifier: MIT */
