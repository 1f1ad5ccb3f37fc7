/*
 * Dereferencing an integer.
 * @options: -e
 */
BEGIN { x = 1; y = *x; }
/* SPDX-License-Identifier: MIT */
