/*
 * Unsigned void.
 * @options: -e
 */
unsigned void x;
