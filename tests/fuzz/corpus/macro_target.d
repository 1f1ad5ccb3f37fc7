/*
 * $target without -c or -p.
 * @options: -e
 */
BEGIN { trace($target); }
