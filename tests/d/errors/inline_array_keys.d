/*
 * An inline array takes one named index.
 * @options: -e
 */
inline int f[int a, int b] = a + b;
/* SPDX-License-Identifier: MIT */
