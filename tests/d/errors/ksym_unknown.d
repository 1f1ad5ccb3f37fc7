/*
 * A kernel variable the kernel's symbol table does not have.
 * @options: -e
 */
BEGIN
{
	trace(`no_such_kernel_variable);
}
/* SPDX-License-Identifier: MIT */
