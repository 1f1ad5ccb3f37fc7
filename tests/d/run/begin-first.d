/*
 * BEGIN fires before any other probe: system calls and profile ticks
 * made while the programs are being attached, before BEGIN, are not
 * traced.
 * @options: -q
 * @requires: root
 * @engines: bpf
 */
int begun, early;

syscall:::entry, profile-4999
/!begun/
{
	early++;
}

BEGIN
{
	begun = 1;
	printf("%d\n", early);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
