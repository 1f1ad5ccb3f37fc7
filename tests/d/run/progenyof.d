/*
 * progenyof(): the process itself and its ancestors (dtrace descends from
 * init), not a process that does not exist.
 * @options: -q
 * @requires: os:linux
 */
BEGIN
{
	printf("%d %d %d\n", progenyof(pid), progenyof(1), progenyof(0x7ffffff0));
	exit(0);
}
/* SPDX-License-Identifier: MIT */
