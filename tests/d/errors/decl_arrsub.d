/*
 * An array with a negative size.
 * @options: -e
 */
int a[-1];
/* SPDX-License-Identifier: MIT */
