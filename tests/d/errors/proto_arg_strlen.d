/*
 * Strlen() of an integer.
 * @options: -e
 */
BEGIN { x = strlen(1); }
/* SPDX-License-Identifier: MIT */
