/*
 * Union definitions.
 * @options: -e
 */
union u { int i; char c[8]; long l; };
union u v;
BEGIN { trace(v.i); trace(sizeof (union u)); }
/* SPDX-License-Identifier: MIT */
