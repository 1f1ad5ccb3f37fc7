/*
 * Long string.
 * @options: -e
 */
long string x;
