/*
 * d_path() takes a path and, optionally, whether the mount point is
 * wanted: no argument is a compile error.
 * @options: -e
 */
BEGIN
{
	trace(d_path());
}
/* SPDX-License-Identifier: MIT */
