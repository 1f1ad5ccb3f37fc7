/*
 * Unsigned void.
 * @options: -e
 */
unsigned void x;
/* SPDX-License-Identifier: MIT */
