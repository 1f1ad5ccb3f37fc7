/*
 * A stray closing brace between clauses.
 * @options: -e
 */
BEGIN { }
}
