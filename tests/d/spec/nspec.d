/*
 * With every speculation in use, speculation() returns 0 and dtrace(1)
 * says how many failed; speculate(0) drops the clause silently, the
 * statements it runs included.
 * @options: -q -x nspec=2
 * @status: 0
 * @requires: feature:atomic_fetch
 */
BEGIN
{
	a = speculation();
	b = speculation();
	c = speculation();
	d = speculation();
	printf("%d %d %d %d\n", a, b, c, d);
}

BEGIN
{
	speculate(c);
	x = 1;
	printf("dropped\n");
}

BEGIN
{
	commit(c);
}

BEGIN
{
	printf("x=%d\n", x);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
