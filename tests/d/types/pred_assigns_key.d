/*
 * An array whose key the predicate assigns: the actions are cooked again
 * after the predicate, with the array already known.
 * @options: -q
 */
BEGIN
/(k = 3)/
{
	a[k]++;
	a[k]++;
	printf("%d\n", a[k]);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
