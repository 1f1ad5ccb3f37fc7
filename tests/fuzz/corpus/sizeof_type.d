/*
 * Sizeof of void.
 * @options: -e
 */
BEGIN { x = sizeof (void); }
