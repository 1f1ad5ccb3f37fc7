/*
 * The last statement needs no semicolon.
 * @options: -e
 */
BEGIN { trace(1); trace(2) }
/* SPDX-License-Identifier: MIT */
