/*
 * A probe description alone in a script.
 * @options: -e
 */
BEGIN
