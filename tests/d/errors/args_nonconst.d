/*
 * Args[] with a variable index.
 * @options: -e
 */
BEGIN { x = 1; y = args[x]; }
/* SPDX-License-Identifier: MIT */
