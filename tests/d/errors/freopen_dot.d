/*
 * Freopen() of the current directory.
 * @options: -e
 */
BEGIN { freopen("."); }
