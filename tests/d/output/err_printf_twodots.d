/*
 * Printf() with two precisions in one conversion.
 * @options: -e
 */
BEGIN { printf("%3.2.1d", 1); }
/* SPDX-License-Identifier: MIT */
