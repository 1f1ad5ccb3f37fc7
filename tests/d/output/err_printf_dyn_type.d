/*
 * Printf() whose dynamic width is a string.
 * @options: -e
 */
BEGIN { printf("%*s", "wide", "x"); }
/* SPDX-License-Identifier: MIT */
