/*
 * #line changes the line and file errors name.
 * @options: -e
 */
#line 100 "other.d"
BEGIN { x = ; }
/* SPDX-License-Identifier: MIT */
