/*
 * Printing an aggregation that does not exist.
 * @options: -e
 */
BEGIN { printa(@nosuch); }
