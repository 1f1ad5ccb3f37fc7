/*
 * A comment inside a comment.
 * @options: -e
 */
/* outer /* inner */
BEGIN { }
