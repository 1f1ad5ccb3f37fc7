/*
 * A member the kernel's struct does not have.
 * @requires: btf os:linux
 * @options: -e
 */
BEGIN
{
	trace(curthread->no_such_member);
}
/* SPDX-License-Identifier: MIT */
