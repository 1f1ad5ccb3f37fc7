/*
 * Floating-point constants.
 * @options: -e
 */
BEGIN { x = 1.5; }
/* SPDX-License-Identifier: MIT */
