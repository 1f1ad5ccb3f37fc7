/*
 * DTrace's lexer reads past the white space after a predicate's closing
 * '/', so an error in the predicate is reported on the line that follows.
 */
BEGIN
/"a" & "b"/
{
	exit(0);
}
/* SPDX-License-Identifier: MIT */
