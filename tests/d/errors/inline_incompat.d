/*
 * An inline whose value does not fit its type.
 * @options: -e
 */
inline int x = "abc";
/* SPDX-License-Identifier: MIT */
