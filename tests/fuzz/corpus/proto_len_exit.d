/*
 * Exit() without its status.
 * @options: -e
 */
BEGIN { exit(); }
