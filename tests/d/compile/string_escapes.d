/*
 * Escapes in string literals.
 * @options: -e
 */
BEGIN { printf("\t\n\\ \" \x41 \101 \a\b\f\r\v"); }
/* SPDX-License-Identifier: MIT */
