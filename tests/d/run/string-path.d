/*
 * basename() and dirname() of paths of slashes only, empty paths and
 * trailing slashes give the same answers on both engines.
 * A small strsize and only a few calls per probe keep what the BPF
 * verifier walks (every string loop, once per iteration) small.
 * @options: -q -x strsize=64
 * @status: 0
 */
BEGIN
{
	printf("basename [%s] [%s] [%s] [%s] [%s] [%s]\n",
	    basename("/usr/lib/libc.so"), basename("/usr/lib//"),
	    basename("file"), basename("///"), basename(""),
	    basename("a/b"));
	printf("dirname [%s] [%s] [%s] [%s] [%s] [%s]\n",
	    dirname("/usr/lib/libc.so"), dirname("/usr/lib//"),
	    dirname("file"), dirname("///"), dirname(""),
	    dirname("/etc"));
	exit(0);
}
/* SPDX-License-Identifier: MIT */
