/*
 * An octal constant with the digit 9.
 * @options: -e
 */
BEGIN { x = 09; }
/* SPDX-License-Identifier: MIT */
