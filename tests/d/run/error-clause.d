/*
 * A fault fires dtrace:::ERROR in the faulting probe's context: ERROR's
 * clauses see the fault in arg1-arg5 and the variables of the firing,
 * DTrace's error line is still printed, the clauses after the faulting
 * one still run with their probe's context, and a fault inside an ERROR
 * clause does not fire ERROR again.
 * @options: -q
 * @status: 0
 */
BEGIN
{
	x = 7;
	this->l = 3;
	trace(*(int *)0);
}

BEGIN
/ *(int *)8 == 0 /
{
	printf("not reached\n");
}

BEGIN
{
	printf("after: %s:%s:%s:%s id %d args %d %d this->l %d\n",
	    probeprov, probemod, probefunc, probename, id, arg1, arg3,
	    this->l);
	exit(0);
}

ERROR
{
	printf("ERROR %s:%s:%s:%s id %d: epid %d action %d offset %d ",
	    probeprov, probemod, probefunc, probename, id, arg1, arg2, arg3);
	printf("kind %d addr %x x %d this->l %d\n", arg4, arg5, x,
	    this->l);
	this->l = 9;
}

ERROR
/arg2 == 0/
{
	trace(*(char *)16);
}
/* SPDX-License-Identifier: MIT */
