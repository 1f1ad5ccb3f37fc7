/*
 * A declared variable may be read before it is assigned.
 * @options: -e
 */
int x;
BEGIN { trace(x); }
/* SPDX-License-Identifier: MIT */
