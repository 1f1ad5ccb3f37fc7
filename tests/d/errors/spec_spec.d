/*
 * Speculate() twice in a clause.
 * @options: -e
 */
BEGIN
{
	speculate(1);
	speculate(2);
}
/* SPDX-License-Identifier: MIT */
