/*
 * On the interpreter engine, which reads no kernel memory, d_path() of a
 * kernel address faults as a load from it would.
 * @options: -q -x engine=interp
 * @requires: os:linux
 * @engines: interp
 */
BEGIN
{
	trace(d_path((struct path *)0xffff888000001000));
}
ERROR
{
	printf("fault %d at %x\n", arg4, arg5);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
