/*
 * A type scoped to a module that does not define it.
 * @requires: btf
 * @options: -e
 */
BEGIN
{
	trace(sizeof (struct vmlinux`no_such_struct));
}
/* SPDX-License-Identifier: MIT */
