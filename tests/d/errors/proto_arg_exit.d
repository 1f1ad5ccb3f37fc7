/*
 * Exit() with a string.
 * @options: -e
 */
BEGIN { exit("x"); }
