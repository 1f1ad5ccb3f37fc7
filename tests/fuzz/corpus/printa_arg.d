/*
 * Printa() of something that is not an aggregation.
 * @options: -e
 */
BEGIN { printa(1); }
