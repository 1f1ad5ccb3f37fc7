/*
 * Struct definitions and member access.
 * @options: -e
 */
struct point { int x, y; };
struct rect { struct point tl; struct point br; };
struct rect r;
BEGIN { trace(r.tl.x); trace(((struct rect *)arg0)->br.y); }
/* SPDX-License-Identifier: MIT */
