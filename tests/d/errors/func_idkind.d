/*
 * Calling a variable.
 * @options: -e
 */
BEGIN { timestamp(); }
