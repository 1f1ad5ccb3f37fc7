/*
 * exit() in END after exit() elsewhere: the last exit() sets dtrace's
 * status, as DTrace takes the status from each exit record it consumes.
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
