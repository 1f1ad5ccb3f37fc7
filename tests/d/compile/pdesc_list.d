/*
 * A clause with several descriptions.
 * @options: -e
 * @requires: os:linux
 */
syscall::read:entry,
syscall::write:entry, syscall::open*:entry
{
	trace(probefunc);
}
/* SPDX-License-Identifier: MIT */
