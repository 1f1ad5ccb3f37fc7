/*
 * C arrays, indexing and pointer arithmetic.
 * @options: -e
 */
int a[4];
char m[2][3];
BEGIN { trace(a[1]); trace(m[1][2]); p = &a[0]; trace(*(p + 1)); trace(p[2]); }
/* SPDX-License-Identifier: MIT */
