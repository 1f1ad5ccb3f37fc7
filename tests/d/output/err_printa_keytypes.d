/*
 * Printa() of aggregations whose keys differ in type.
 * @options: -e
 */
BEGIN { @a[1, "x"] = count(); @b[1, 2] = sum(1); printa(@a, @b); }
/* SPDX-License-Identifier: MIT */
