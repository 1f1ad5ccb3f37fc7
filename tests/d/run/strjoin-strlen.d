/*
 * Subroutines run in BEGIN: strjoin() and strlen().
 * @options: -q
 */
BEGIN
{
	printf("%s %d\n", strjoin("a", "b"), strlen("hello"));
	exit(0);
}
/* SPDX-License-Identifier: MIT */
