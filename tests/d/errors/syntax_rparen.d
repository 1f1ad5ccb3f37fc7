/*
 * A stray closing parenthesis.
 * @options: -e
 */
BEGIN { trace(1)); }
