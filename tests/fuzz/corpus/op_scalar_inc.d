/*
 * Incrementing a string.
 * @options: -e
 */
BEGIN { x = "a"; x++; }
