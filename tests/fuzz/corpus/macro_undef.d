/*
 * A macro argument that was not given.
 * @options: -e
 */
BEGIN { trace($1); }
