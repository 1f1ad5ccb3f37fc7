/*
 * A declaration that declares nothing.
 * @options: -e
 */
int;
