/*
 * Offsetof applied to an integer type.
 * @options: -e
 */
BEGIN { x = offsetof(int, a); }
/* SPDX-License-Identifier: MIT */
