/*
 * Multiplication of a string.
 * @options: -e
 */
BEGIN { x = "a" * 2; }
