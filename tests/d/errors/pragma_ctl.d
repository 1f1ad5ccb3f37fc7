/*
 * An unknown control directive.
 * @options: -e
 */
#frobnicate
BEGIN { }
