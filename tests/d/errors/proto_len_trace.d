/*
 * Trace() with two arguments.
 * @options: -e
 */
BEGIN { trace(1, 2); }
/* SPDX-License-Identifier: MIT */
