/*
 * An action in a comma expression.
 * @options: -e
 */
BEGIN { trace(1), trace(2); }
