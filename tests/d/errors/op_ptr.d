/*
 * Operator -> on an integer.
 * @options: -e
 */
BEGIN { x = 1; y = x->a; }
/* SPDX-License-Identifier: MIT */
