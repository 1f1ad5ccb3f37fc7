/*
 * String macro variables.
 * @options: -e
 */
BEGIN { trace($zonename); }
