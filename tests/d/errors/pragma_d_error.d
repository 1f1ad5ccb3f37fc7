/*
 * #pragma D error stops compilation with its message, as #error does;
 * DTrace prints each word followed by a space, strings unquoted.
 * @options: -e
 */
#pragma D error "stop here" now

BEGIN
{
	exit(0);
}
/* SPDX-License-Identifier: MIT */
