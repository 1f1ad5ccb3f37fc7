/*
 * cleanpath() ends paths as DTrace does: a trailing "/." stays, and a
 * trailing "/.." keeps the byte its removal stops at (the '/' before
 * the component, or the first byte written), on both engines.
 * @options: -q -x strsize=64
 */
BEGIN
{
	printf("[%s] [%s] [%s] [%s]\n", cleanpath("/a/."), cleanpath("a/./."),
	    cleanpath("/a/b/.."), cleanpath("a/.."));
	printf("[%s] [%s] [%s] [%s]\n", cleanpath("../.."),
	    cleanpath("../../.."), cleanpath("a/../.."), cleanpath("./"));
	exit(0);
}
/* SPDX-License-Identifier: MIT */
