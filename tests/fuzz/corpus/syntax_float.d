/*
 * Floating-point constants.
 * @options: -e
 */
BEGIN { x = 1.5; }
