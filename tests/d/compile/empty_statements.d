/*
 * Empty statements and an empty body.
 * @options: -e
 */
BEGIN { ; ; }
END { }
/* SPDX-License-Identifier: MIT */
