/*
 * Probe names that look like keywords.
 * @options: -e
 */
fbt::int:entry { }
fbt::struct_*:entry { }
