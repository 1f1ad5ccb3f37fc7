/*
 * A typedef name used twice for different types.
 * @options: -e
 */
typedef int t;
typedef char t;
/* SPDX-License-Identifier: MIT */
