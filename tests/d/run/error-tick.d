/*
 * ERROR runs in the context of a timer probe that faults, which the bpf
 * engine runs in the kernel: the ERROR clause reads the fault and the
 * faulting probe's variables, and its exit() ends tracing.
 * @options: -q
 * @status: 0
 */
tick-10ms
{
	self->n = 5;
	n++;
	trace(*(long *)64);
}

ERROR
{
	printf("%s:%s fault %d at %x n %d self->n %d\n", probeprov, probename,
	    arg4, arg5, n, self->n);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
