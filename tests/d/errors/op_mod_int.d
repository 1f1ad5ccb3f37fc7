/*
 * Remainder of a string.
 * @options: -e
 */
BEGIN { x = 1 % "a"; }
/* SPDX-License-Identifier: MIT */
