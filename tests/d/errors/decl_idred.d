/*
 * A variable declared with two types.
 * @options: -e
 */
int x;
string x;
/* SPDX-License-Identifier: MIT */
