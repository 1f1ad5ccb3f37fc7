/*
 * An inline defined twice.
 * @options: -e
 */
inline int x = 1;
inline int x = 2;
/* SPDX-License-Identifier: MIT */
