/*
 * #pragma D error fails the compile with its words, as #error does, the
 * string unquoted and each word followed by a space.
 * @options: -e
 */
#pragma D error "stop" here

BEGIN
{
}
