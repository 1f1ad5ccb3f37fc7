/*
 * Macro arguments as integers, identifiers and strings.
 * @options: -e
 * @args: 41 hello 0x10 myvar
 */
BEGIN { trace($1 + 1); trace($$2); x = $3; $4 = 1; trace("$5"); }
/* SPDX-License-Identifier: MIT */
