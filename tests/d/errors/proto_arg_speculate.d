/*
 * Speculate() of a string.
 * @options: -e
 */
BEGIN { speculate("x"); }
/* SPDX-License-Identifier: MIT */
