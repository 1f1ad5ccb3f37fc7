/*
 * Incrementing a constant.
 * @options: -e
 */
BEGIN { x = 1++; }
