/*
 * A clause with a predicate.
 * @options: -e
 * @requires: os:linux
 */
syscall::read:entry
/execname == "bash" && arg0 > 2/
{
	trace(arg0);
}
/* SPDX-License-Identifier: MIT */
