/*
 * An array with no size.
 * @options: -e
 */
int a[];
