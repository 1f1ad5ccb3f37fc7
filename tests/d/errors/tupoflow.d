/*
 * An array key of more values than the tuple stack holds fails the
 * compile as DTrace reports it: a limit of the implementation, with no
 * line.
 * @options: -e
 */
BEGIN
{
	a[0, 1, 2, 3, 4, 5, 6, 7, 8] = 0;
}
/* SPDX-License-Identifier: MIT */
