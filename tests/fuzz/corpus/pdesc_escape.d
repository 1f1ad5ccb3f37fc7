/*
 * A backslash escaping a colon.
 * @options: -e
 */
pid123:libc.so.6:foo\:bar:entry { }
