/*
 * An operand the program never references.
 * @options: -e
 * @args: foo
 */
BEGIN { }
/* SPDX-License-Identifier: MIT */
