/*
 * Shifting a string.
 * @options: -e
 */
BEGIN { x = "a" << 2; }
/* SPDX-License-Identifier: MIT */
