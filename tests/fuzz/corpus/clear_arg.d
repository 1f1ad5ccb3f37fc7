/*
 * Clear() of an integer.
 * @options: -e
 */
BEGIN { clear(1); }
