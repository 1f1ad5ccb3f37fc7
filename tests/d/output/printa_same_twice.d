/*
 * Printa() naming one aggregation twice prints its value in both
 * columns, and a key the other aggregation lacks as zero there.
 * @options: -q
 */
BEGIN
{
	@a[1] = sum(5);
	@a[2] = sum(1);
	@b[1] = sum(7);
	printa("%d %@d %@d %@d\n", @a, @b, @a);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
