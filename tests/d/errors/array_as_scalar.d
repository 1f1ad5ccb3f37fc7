/*
 * An associative array used as a scalar.
 * @options: -e
 */
BEGIN { a[1] = 2; x = a; }
/* SPDX-License-Identifier: MIT */
