/*
 * curlwpsinfo gives a thread's state, its letter and its name: the
 * thread dtrace runs its BEGIN in is on a CPU, and dtrace is a 64-bit
 * process (pr_dmodel).
 * @options: -q
 * @requires: root
 * @engines: bpf
 */
BEGIN
{
	printf("%d %c %s %d\n", curlwpsinfo->pr_state, curlwpsinfo->pr_sname,
	    curlwpsinfo->pr_name, curlwpsinfo->pr_state == SONPROC);
	printf("%d %d %d %d %d %d %d\n", SSLEEP, SRUN, SZOMB, SSTOP, SIDL,
	    SONPROC, SWAIT);
	printf("%d\n", curpsinfo->pr_dmodel == PR_MODEL_LP64);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
