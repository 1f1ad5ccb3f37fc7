/*
 * A destructive action after speculate().
 * @options: -e
 */
BEGIN
{
	speculate(1);
	stop();
}
/* SPDX-License-Identifier: MIT */
