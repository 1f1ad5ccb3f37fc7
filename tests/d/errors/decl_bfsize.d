/*
 * A bit-field wider than its type.
 * @options: -e
 */
struct s { char a : 9; };
/* SPDX-License-Identifier: MIT */
