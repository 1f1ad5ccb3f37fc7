/*
 * Unsigned string.
 * @options: -e
 */
unsigned string x;
/* SPDX-License-Identifier: MIT */
