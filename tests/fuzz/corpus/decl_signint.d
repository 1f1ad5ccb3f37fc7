/*
 * Unsigned string.
 * @options: -e
 */
unsigned string x;
