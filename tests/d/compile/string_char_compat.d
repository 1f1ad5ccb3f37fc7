/*
 * Strings and char pointers and arrays.
 * @options: -e
 */
BEGIN { s = (string)arg0; p = (char *)arg0; b = s == p; t = stringof(p); u = stringof(arg0); }
/* SPDX-License-Identifier: MIT */
