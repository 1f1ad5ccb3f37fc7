/*
 * Speculate() of a string.
 * @options: -e
 */
BEGIN { speculate("x"); }
