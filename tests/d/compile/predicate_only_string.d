/*
 * A predicate comparing strings.
 * @options: -e
 */
BEGIN /probefunc != "x"/ { }
