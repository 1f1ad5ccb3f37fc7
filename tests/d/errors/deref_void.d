/*
 * Dereferencing a void pointer.
 * @options: -e
 */
BEGIN { y = *(void *)0; }
