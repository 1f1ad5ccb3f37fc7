/*
 * Strings compared with relational operators.
 * @options: -e
 */
BEGIN { a = execname == "sh"; b = "a" < "b"; c = probefunc != execname; }
/* SPDX-License-Identifier: MIT */
