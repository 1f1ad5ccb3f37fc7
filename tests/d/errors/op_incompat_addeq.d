/*
 * Adding to a string.
 * @options: -e
 */
BEGIN { x = "a"; x += 1; }
/* SPDX-License-Identifier: MIT */
