/*
 * curlwpsinfo gives a thread's state, its letter and its name: the
 * thread dtrace runs its BEGIN in is on a CPU.
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
	exit(0);
}
