/*
 * Return is reserved.
 * @options: -e
 */
BEGIN { return 1; }
