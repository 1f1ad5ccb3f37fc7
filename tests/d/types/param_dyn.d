/*
 * A function parameter cannot be an associative array.
 * @options: -e
 */
int f(int a[int]);
/* SPDX-License-Identifier: MIT */
