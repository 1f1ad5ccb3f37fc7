/*
 * An array with no size.
 * @options: -e
 */
int a[];
/* SPDX-License-Identifier: MIT */
