/*
 * short and long together spell no type.
 * @options: -e
 */
BEGIN
{
	x = (short long)0;
}
/* SPDX-License-Identifier: MIT */
