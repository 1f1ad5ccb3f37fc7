/*
 * An array of void.
 * @options: -e
 */
void a[4];
/* SPDX-License-Identifier: MIT */
