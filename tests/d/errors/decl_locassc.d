/*
 * A clause-local associative array.
 * @options: -e
 */
this int a[int];
/* SPDX-License-Identifier: MIT */
