/*
 * A data-recording action after commit().
 * @options: -e
 */
BEGIN
{
	commit(1);
	trace(1);
}
/* SPDX-License-Identifier: MIT */
