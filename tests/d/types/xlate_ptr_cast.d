/*
 * A translated pointer points at no memory: it cannot be cast, not even
 * to an integer.
 * @options: -e
 */
struct in { int a; };
struct out { int b; };

translator struct out < struct in *p >
{
	b = p->a;
};

struct in *f;

BEGIN
{
	x = (uintptr_t)xlate<struct out *>(f);
}
/* SPDX-License-Identifier: MIT */
