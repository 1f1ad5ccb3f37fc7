/*
 * An associative array indexed by a void value.
 * @options: -e
 */
BEGIN { a[bcopy(0, 0, 0)] = 1; }
/* SPDX-License-Identifier: MIT */
