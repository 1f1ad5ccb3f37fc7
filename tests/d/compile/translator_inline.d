/*
 * An inline defined by a translation.
 * @options: -e
 */
struct in { int a; };
struct out { int b; };
translator struct out < struct in *p > { b = p->a; };
inline struct out *o = xlate<struct out *>((struct in *)arg0);
BEGIN { trace(o->b); }
/* SPDX-License-Identifier: MIT */
