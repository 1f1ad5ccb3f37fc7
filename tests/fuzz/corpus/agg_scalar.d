/*
 * Sum() of a string.
 * @options: -e
 */
BEGIN { @a = sum("x"); }
