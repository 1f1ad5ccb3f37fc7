/*
 * DTrace accepts a translator that defines a member twice.
 * @options: -q
 */
struct in { int a; char c; };
struct out { int b; };

translator struct out < struct in *p >
{
	b = p->a;
	b = p->c;
};

BEGIN
{
	printf("ok\n");
	exit(0);
}
/* SPDX-License-Identifier: MIT */
