/*
 * exit() whose record does not fit in what is left of the principal
 * buffer (the first clause's three 1000-byte strings fill most of 4k, and
 * the second clause's record is as large) still ends tracing: the drop is
 * reported, END runs, and the status is 0, as the record with exit()'s
 * own status was lost.
 * @options: -q -b 4k -x strsize=1000
 * @cpu: 0
 * @status: 0
 */
BEGIN
{
	trace("one");
	trace("two");
	trace("three");
}

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
/* SPDX-License-Identifier: MIT */
