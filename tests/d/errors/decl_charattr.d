/*
 * Long char.
 * @options: -e
 */
long char x;
