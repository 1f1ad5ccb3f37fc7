/*
 * Typedefs and their use.
 * @options: -e
 */
typedef int myint_t;
typedef struct pt { int x; int y; } pt_t;
typedef pt_t *ptp_t;
myint_t v;
BEGIN { v = 1; p = (ptp_t)arg0; trace(p->x); trace(sizeof (pt_t)); }
/* SPDX-License-Identifier: MIT */
