/*
 * Adding two strings.
 * @options: -e
 */
BEGIN { x = "a" + "b"; }
