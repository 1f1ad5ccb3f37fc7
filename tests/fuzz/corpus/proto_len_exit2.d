/*
 * Exit() with two arguments.
 * @options: -e
 */
BEGIN { exit(1, 2); }
