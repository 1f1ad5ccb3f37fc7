/*
 * A program depending on a D library that is not on the library path.
 * @options: -e
 */
#pragma D depends_on library no_such_library.d

BEGIN
{
}
/* SPDX-License-Identifier: MIT */
