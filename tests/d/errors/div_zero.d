/*
 * A constant division by zero.
 * @options: -e
 */
BEGIN { x = 1 / 0; }
/* SPDX-License-Identifier: MIT */
