/*
 * exit() in END after exit() elsewhere: END's sets dtrace's status, as
 * DTrace honours a new status in END, once tracing has stopped.
 * @options: -q
 * @status: 3
 */
BEGIN
{
	exit(1);
}

END
{
	printf("end\n");
	exit(3);
}
/* SPDX-License-Identifier: MIT */
