/*
 * Printa() of aggregations whose key counts differ: they cannot be
 * joined on their keys.
 * @options: -e
 */
BEGIN { @a[1, 2] = count(); @b[3] = sum(1); printa("%d %@d %@d\n", @a, @b); }
/* SPDX-License-Identifier: MIT */
