/*
 * Trace() with two arguments.
 * @options: -e
 */
BEGIN { trace(1, 2); }
