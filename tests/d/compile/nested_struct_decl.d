/*
 * A struct defined inside another.
 * @options: -e
 */
struct outer { struct inner { int a; } in; int b; };
struct inner i;
BEGIN { trace(sizeof (struct outer)); }
/* SPDX-License-Identifier: MIT */
