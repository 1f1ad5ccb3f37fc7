/*
 * Long string.
 * @options: -e
 */
long string x;
/* SPDX-License-Identifier: MIT */
