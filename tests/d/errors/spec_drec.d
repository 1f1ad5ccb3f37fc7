/*
 * Speculate() after a data-recording action.
 * @options: -e
 */
BEGIN
{
	trace(1);
	speculate(1);
}
/* SPDX-License-Identifier: MIT */
