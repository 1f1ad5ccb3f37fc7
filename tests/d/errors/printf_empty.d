/*
 * Printf() with an empty format.
 * @options: -e
 */
BEGIN { printf(""); }
/* SPDX-License-Identifier: MIT */
