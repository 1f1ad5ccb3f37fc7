/*
 * Commit() after a data-recording action.
 * @options: -e
 */
BEGIN
{
	trace(1);
	commit(1);
}
/* SPDX-License-Identifier: MIT */
