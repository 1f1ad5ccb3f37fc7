/*
 * Declarations that start with a type then a star.
 * @options: -e
 */
int* p1;
char*p2;
BEGIN { }
/* SPDX-License-Identifier: MIT */
