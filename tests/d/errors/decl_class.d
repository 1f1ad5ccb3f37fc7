/*
 * Two storage classes.
 * @options: -e
 */
typedef extern int x;
/* SPDX-License-Identifier: MIT */
