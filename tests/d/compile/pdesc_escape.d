/*
 * A backslash escaping a colon.
 * @options: -e -Z
 */
pid123:libc.so.6:foo\:bar:entry { }
/* SPDX-License-Identifier: MIT */
