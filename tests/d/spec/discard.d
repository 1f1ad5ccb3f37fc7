/*
 * discard() drops what was speculated, and a clause's statements after
 * an if still go to its speculation.  Speculations left uncommitted when
 * tracing stops are not printed.
 * @options: -q -x nspec=2
 * @requires: feature:atomic_fetch
 */
BEGIN
{
	a = speculation();
	b = speculation();
	printf("ids %d %d\n", a, b);
}

BEGIN
{
	speculate(a);
	printf("discarded\n");
	if (a == 1) {
		printf("discarded too\n");
	}
}

BEGIN
{
	speculate(b);
	printf("never committed\n");
}

BEGIN
{
	discard(a);
	printf("after discard\n");
	exit(0);
}
/* SPDX-License-Identifier: MIT */
