/*
 * With quiet set by the program itself, dtrace(1) says nothing of its
 * own: not even that it allows destructive actions.
 * @options: -w
 * @status: 0
 */
#pragma D option quiet

BEGIN
{
	printf("only this\n");
	exit(0);
}
