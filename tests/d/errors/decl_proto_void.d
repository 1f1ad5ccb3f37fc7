/*
 * Void among other parameters.
 * @options: -e
 */
int f(void, int);
/* SPDX-License-Identifier: MIT */
