/*
 * An assignment with no right-hand side.
 * @options: -e
 */
BEGIN
{
	x = ;
}
