/*
 * An assignment with no right-hand side.
 * @options: -e
 */
BEGIN
{
	x = ;
}
/* SPDX-License-Identifier: MIT */
