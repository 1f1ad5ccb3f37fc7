/*
 * A predicate comparing strings.
 * @options: -e
 */
BEGIN /probefunc != "x"/ { }
/* SPDX-License-Identifier: MIT */
