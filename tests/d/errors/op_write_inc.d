/*
 * Incrementing a built-in variable.
 * @options: -e
 */
BEGIN { pid++; }
/* SPDX-License-Identifier: MIT */
