/*
 * An inline may not take a name already defined; DTrace says what the
 * name was.
 * @options: -e
 */
inline int foo = 8;
inline int foo = 9;
/* SPDX-License-Identifier: MIT */
