/*
 * A translator and xlate.
 * @options: -e
 */
struct in { int a; int b; };
struct out { int sum; int diff; };
translator struct out < struct in *p > {
	sum = p->a + p->b;
	diff = p->a - p->b;
};
BEGIN { x = xlate<struct out>((struct in *)arg0).sum; y = xlate<struct out *>((struct in *)arg0)->diff; }
/* SPDX-License-Identifier: MIT */
