/*
 * A script with nothing in it.
 * @options: -e
 */
