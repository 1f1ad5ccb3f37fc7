/*
 * Printf() with a conversion cut off by the end of the format.
 * @options: -e
 */
BEGIN { printf("value %-8", 1); }
/* SPDX-License-Identifier: MIT */
