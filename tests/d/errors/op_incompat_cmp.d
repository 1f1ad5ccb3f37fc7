/*
 * Comparing a string and an integer.
 * @options: -e
 */
BEGIN { x = "a" == 1; }
/* SPDX-License-Identifier: MIT */
