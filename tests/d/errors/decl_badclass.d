/*
 * Static in D.
 * @options: -e
 */
static int x;
