/*
 * A malformed #line.
 * @options: -e
 */
#line abc
BEGIN { }
/* SPDX-License-Identifier: MIT */
