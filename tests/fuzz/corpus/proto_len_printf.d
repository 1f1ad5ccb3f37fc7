/*
 * Printf() without a format.
 * @options: -e
 */
BEGIN { printf(); }
