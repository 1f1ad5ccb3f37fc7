/*
 * A probe description that matches nothing is reported at its own line,
 * before the clause's body (whose error here would otherwise come first).
 * @options: -e
 */
BEGIN,
nosuchprovider:nomod:nofunc:noname
{
	x = 1 + trace(1);
}
/* SPDX-License-Identifier: MIT */
