/*
 * ?: including nested.
 * @options: -e
 */
BEGIN { x = 1 ? 2 : 3; y = x > 1 ? x < 5 ? 1 : 2 : 3; s = x ? "a" : "b"; }
/* SPDX-License-Identifier: MIT */
