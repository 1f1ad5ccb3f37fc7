/*
 * A predicate that is a string.
 * @options: -e
 */
BEGIN
/"abc"/
{
}
