/*
 * DTrace's escapes: \" and \\ stand for the character, \a \b \f \n \r
 * \t \v, octal and hex for theirs; any other (\' \? \c) keeps its
 * backslash, in strings and character constants alike.
 * @options: -q
 */
BEGIN
{
	printf("%s|\n", "a\"b\\c\'d\?e\x41\101\tf");
	printf("%d %d %d %d\n", '\\', '\'', '\?', '\x4E');
	exit(0);
}
/* SPDX-License-Identifier: MIT */
