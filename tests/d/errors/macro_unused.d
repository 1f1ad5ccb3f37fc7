/* SPDX-License-Identifier: MIT
 * An operand the program never references.
 * @options: -e
 * @args: foo
 */
BEGIN { }
