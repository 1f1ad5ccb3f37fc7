/*
 * A C array indexed by two keys.
 * @options: -e
 */
int a[4];
BEGIN { x = a[1, 2]; }
/* SPDX-License-Identifier: MIT */
