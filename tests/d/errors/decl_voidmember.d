/*
 * A void member.
 * @options: -e
 */
struct s { void v; };
/* SPDX-License-Identifier: MIT */
