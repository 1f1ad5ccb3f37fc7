/*
 * One clause serves all its probe descriptions, so they must agree on
 * the type of each args[N] it reads: read's buffer is a char *, write's
 * a const char *.
 * @options: -e
 * @requires: root os:linux
 */
syscall::read:entry, syscall::write:entry
{
	trace(args[0]);
	trace(args[1]);
}
/* SPDX-License-Identifier: MIT */
