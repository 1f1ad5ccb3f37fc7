/*
 * The ERROR probe's arg4 is one of the DTRACEFLT_* constants every
 * program can name (the faults.d library): an invalid address, a
 * division by zero, a modulus by zero and an illegal operation each
 * match theirs (speculate() of an ID above nspec is an illegal
 * operation).
 * @options: -q
 * @status: 0
 * @requires: feature:atomic_fetch
 */
BEGIN
{
	trace(*(int *)0);
}

BEGIN
{
	z = 0;
	trace(1 / z);
}

BEGIN
{
	trace(1 % z);
}

BEGIN
{
	speculate(99);
}

BEGIN
{
	exit(0);
}

ERROR
{
	printf("%d %s\n", arg4,
	    arg4 == DTRACEFLT_BADADDR ? "DTRACEFLT_BADADDR" :
	    arg4 == DTRACEFLT_DIVZERO ? "DTRACEFLT_DIVZERO" :
	    arg4 == DTRACEFLT_ILLOP ? "DTRACEFLT_ILLOP" :
	    arg4 == DTRACEFLT_BADALIGN ? "DTRACEFLT_BADALIGN" : "other");
}

END
{
	printf("%d %d %d %d %d %d %d %d %d %d %d\n", DTRACEFLT_UNKNOWN,
	    DTRACEFLT_BADADDR, DTRACEFLT_BADALIGN, DTRACEFLT_ILLOP,
	    DTRACEFLT_DIVZERO, DTRACEFLT_NOSCRATCH, DTRACEFLT_KPRIV,
	    DTRACEFLT_UPRIV, DTRACEFLT_TUPOFLOW, DTRACEFLT_BADSTACK,
	    DTRACEFLT_LIBRARY);
}
/* SPDX-License-Identifier: MIT */
