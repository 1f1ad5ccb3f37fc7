/*
 * Count() with an argument.
 * @options: -e
 */
BEGIN { @ = count(1); }
