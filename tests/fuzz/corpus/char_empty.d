/*
 * An empty character constant.
 * @options: -e
 */
BEGIN { x = ''; }
