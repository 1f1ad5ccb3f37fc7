/*
 * bufresize=auto (the default): a principal buffer larger than the BPF
 * engine can make (its ring buffer stops at 1g) is lowered, and dtrace
 * says so as DTrace does; tracing goes on.
 * @options: -q -b 64g
 * @engines: bpf
 * @status: 0
 */
BEGIN
{
	printf("traced\n");
	exit(0);
}
/* SPDX-License-Identifier: MIT */
