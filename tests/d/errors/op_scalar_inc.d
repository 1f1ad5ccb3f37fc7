/*
 * Incrementing a string.
 * @options: -e
 */
BEGIN { x = "a"; x++; }
/* SPDX-License-Identifier: MIT */
