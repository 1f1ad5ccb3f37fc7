/*
 * Assigning to a built-in variable.
 * @options: -e
 */
BEGIN { timestamp = 1; }
/* SPDX-License-Identifier: MIT */
