/*
 * A member the translator does not define.
 * @options: -e
 */
struct out { int a; int b; };
translator struct out < int x > { a = x; };
BEGIN { y = xlate<struct out>(1).b; }
/* SPDX-License-Identifier: MIT */
