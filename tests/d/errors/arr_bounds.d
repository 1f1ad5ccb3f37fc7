/*
 * A constant index past the end of an array.
 * @options: -e
 */
int a[4];
BEGIN { x = a[4]; }
/* SPDX-License-Identifier: MIT */
