/*
 * exit() whose record does not fit in the principal buffer (it shares
 * the clause's record with three 2000-byte strings, more than 4k) still
 * ends tracing: the drop is reported, END runs, and the status is 0, as
 * the record with exit()'s own status was lost.
 * @options: -q -b 4k -x strsize=2000
 * @cpu: 0
 * @status: 0
 */
BEGIN
{
	trace("one");
	trace("two");
	trace("three");
	exit(3);
}

END
{
	printf("end\n");
}
