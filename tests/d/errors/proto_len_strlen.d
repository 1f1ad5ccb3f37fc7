/*
 * Strlen() without an argument.
 * @options: -e
 */
BEGIN { x = strlen(); }
