/*
 * Trunc() of a string.
 * @options: -e
 */
BEGIN { trunc("x"); }
