/*
 * An anonymous struct type.
 * @options: -e
 */
struct { int a; short b; } anon;
BEGIN { trace(anon.b); }
/* SPDX-License-Identifier: MIT */
