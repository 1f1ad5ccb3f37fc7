/*
 * Printa() with and without a format.
 * @options: -e
 */
BEGIN { @a[1] = count(); @b[1] = sum(2); printa(@a); printa("%d %@d\n", @a); printa("%d %@d %@d\n", @a, @b); }
/* SPDX-License-Identifier: MIT */
