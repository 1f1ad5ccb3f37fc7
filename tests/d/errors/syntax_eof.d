/*
 * A clause body that never ends.
 * @options: -e
 */
BEGIN
{
	trace(1);
/* SPDX-License-Identifier: MIT */
