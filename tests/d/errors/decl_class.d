/*
 * Two storage classes.
 * @options: -e
 */
typedef extern int x;
