/*
 * Exit() of an expression.
 * @options: -e
 */
BEGIN { exit(arg0 > 0 ? 1 : 0); }
/* SPDX-License-Identifier: MIT */
