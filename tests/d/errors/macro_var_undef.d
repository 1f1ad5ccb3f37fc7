/*
 * An unknown macro variable.
 * @options: -e
 */
BEGIN { trace($nosuch); }
