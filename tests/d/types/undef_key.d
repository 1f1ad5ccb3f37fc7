/*
 * An undefined key is reported as such even in a clause with a predicate.
 * @options: -e
 */
BEGIN
/1/
{
	a[x]++;
}
/* SPDX-License-Identifier: MIT */
