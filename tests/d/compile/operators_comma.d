/*
 * The comma operator.
 * @options: -e
 */
BEGIN { x = (1, 2); }
/* SPDX-License-Identifier: MIT */
