/*
 * Strlen() without an argument.
 * @options: -e
 */
BEGIN { x = strlen(); }
/* SPDX-License-Identifier: MIT */
