/*
 * Two operands without an operator.
 * @options: -e
 */
BEGIN { x = 1 2; }
/* SPDX-License-Identifier: MIT */
