/*
 * Character constants and escapes.
 * @options: -e
 */
BEGIN { a = 'a'; b = '\n'; c = '\0'; d = '\x41'; e = '\101'; f = 'ab'; g = '\''; }
/* SPDX-License-Identifier: MIT */
