/*
 * Function pointer types.
 * @options: -e
 */
typedef int (*fp_t)(int, char *);
fp_t f;
int (*g)(void);
BEGIN { trace(sizeof (f)); trace(sizeof (int (*)(int))); }
/* SPDX-License-Identifier: MIT */
