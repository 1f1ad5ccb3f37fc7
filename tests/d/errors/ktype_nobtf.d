/*
 * Without kernel types (-x btfpath naming a file that does not exist),
 * curthread stays a pointer to an incomplete struct.
 * @options: -e -x btfpath=/nonexistent/vmlinux
 */
BEGIN
{
	trace(curthread->comm);
}
/* SPDX-License-Identifier: MIT */
