/*
 * A backquote in a declared name.
 * @options: -e
 */
int a`b;
/* SPDX-License-Identifier: MIT */
