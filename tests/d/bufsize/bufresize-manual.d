/*
 * bufresize=manual: a principal buffer the BPF engine cannot make is an
 * error, not a smaller buffer.
 * @options: -q -b 64g -x bufresize=manual
 * @engines: bpf
 * @status: 1
 */
BEGIN
{
	printf("traced\n");
	exit(0);
}
/* SPDX-License-Identifier: MIT */
