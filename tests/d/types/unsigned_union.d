/*
 * unsigned applies to integers only, not to a union.
 * @options: -e
 */
unsigned union u { int i; };
/* SPDX-License-Identifier: MIT */
