/*
 * Sum() without an argument.
 * @options: -e
 */
BEGIN { @ = sum(); }
