/*
 * Qualifiers in declarations and casts.
 * @options: -e
 */
const int c;
volatile long v;
const char *const p;
BEGIN { x = (const char *)arg0; }
/* SPDX-License-Identifier: MIT */
