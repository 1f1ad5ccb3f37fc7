/*
 * d_path() of a NULL path is a bad address, as reading it would be.
 * @options: -q
 * @requires: root
 * @engines: bpf
 */
BEGIN
{
	trace(d_path((struct path *)NULL));
}
ERROR
{
	printf("fault %d at %x\n", arg4, arg5);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
