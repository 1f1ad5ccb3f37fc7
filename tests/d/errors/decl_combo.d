/*
 * Two base types in one declaration.
 * @options: -e
 */
int char x;
/* SPDX-License-Identifier: MIT */
