/*
 * ?: with a string and an integer.
 * @options: -e
 */
BEGIN { x = 1 ? "a" : 2; }
/* SPDX-License-Identifier: MIT */
