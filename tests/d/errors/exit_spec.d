/*
 * Exit() after speculate().
 * @options: -e
 */
BEGIN
{
	speculate(1);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
