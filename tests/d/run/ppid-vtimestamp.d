/*
 * ppid is the parent of the firing process (for BEGIN, dtrace itself:
 * $ppid), and vtimestamp the firing thread's on-CPU time, which never
 * goes back; the bpf engine reads both from the task at offsets found in
 * the kernel's BTF.
 * @options: -q
 * @status: 0
 */
BEGIN
{
	a = vtimestamp;
	b = vtimestamp;
	printf("ppid %d vtimestamp %d %d\n", ppid == $ppid, a > 0, b >= a);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
