/*
 * A reserved word used as a variable.
 * @options: -e
 */
BEGIN { while = 1; }
/* SPDX-License-Identifier: MIT */
