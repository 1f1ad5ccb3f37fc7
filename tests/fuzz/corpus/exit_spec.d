/*
 * Exit() after speculate().
 * @options: -e
 */
BEGIN
{
	speculate(1);
	exit(0);
}
