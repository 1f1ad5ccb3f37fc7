/*
 * printa() of aggregations none of which has an entry (the clause that
 * would fill them never runs) prints nothing for them, alone or joined.
 * @options: -q
 */
BEGIN
/0/
{
	@a[1] = count();
	@b[1] = sum(1);
}

BEGIN
{
	printa(@a);
	printa("%d %@d %@d\n", @a, @b);
	printf("done\n");
	exit(0);
}
/* SPDX-License-Identifier: MIT */
