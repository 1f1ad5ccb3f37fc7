/*
 * A translator is checked as a whole when its definition ends, so its
 * errors name the line of the closing "};".
 */
struct in { int a; };
struct out { int b; };

translator struct out < struct in *p >
{
	b = p->a;
	c = p->a;
};
/* SPDX-License-Identifier: MIT */
