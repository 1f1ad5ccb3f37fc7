/*
 * Calling a variable.
 * @options: -e
 */
BEGIN { timestamp(); }
/* SPDX-License-Identifier: MIT */
