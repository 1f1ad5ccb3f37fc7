/*
 * A malformed #line.
 * @options: -e
 */
#line abc
BEGIN { }
