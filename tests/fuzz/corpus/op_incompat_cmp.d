/*
 * Comparing a string and an integer.
 * @options: -e
 */
BEGIN { x = "a" == 1; }
