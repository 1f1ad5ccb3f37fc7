/*
 * A stray closing bracket.
 * @options: -e
 */
BEGIN { x = 1]; }
