/*
 * A scalar used as an associative array.
 * @options: -e
 */
BEGIN { x = 1; x[1] = 2; }
/* SPDX-License-Identifier: MIT */
