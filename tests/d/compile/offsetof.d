/*
 * Offsetof of struct members.
 * @options: -e
 */
struct s { char a; int b; long c; };
BEGIN { trace(offsetof(struct s, c)); trace(offsetof(psinfo_t, pr_pid)); }
/* SPDX-License-Identifier: MIT */
