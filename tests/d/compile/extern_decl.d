/*
 * An extern declaration.
 * @options: -e
 */
extern int max_pfn;
BEGIN { }
/* SPDX-License-Identifier: MIT */
