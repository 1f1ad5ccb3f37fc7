/*
 * The mutex subroutines take the kernel's struct mutex *, as DTrace's
 * take kmutex_t *: a string is not one.
 * @options: -e
 * @requires: os:linux
 */
BEGIN
{
	mutex_owned("lock");
}
/* SPDX-License-Identifier: MIT */
