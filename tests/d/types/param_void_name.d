/*
 * A void parameter has no name.
 * @options: -e
 */
int f(void v);
/* SPDX-License-Identifier: MIT */
