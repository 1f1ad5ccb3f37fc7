/*
 * A member of an incomplete struct type.
 * @options: -e
 */
struct t;
struct s { struct t m; };
/* SPDX-License-Identifier: MIT */
