/*
 * Adding to a string.
 * @options: -e
 */
BEGIN { x = "a"; x += 1; }
