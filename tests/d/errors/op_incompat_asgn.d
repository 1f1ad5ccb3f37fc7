/*
 * Assigning a string to an integer variable.
 * @options: -e
 */
BEGIN { x = 1; x = "a"; }
/* SPDX-License-Identifier: MIT */
