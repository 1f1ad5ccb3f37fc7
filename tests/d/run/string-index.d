/*
 * index(), rindex() and strstr(), with empty strings, start positions
 * out of range and matches at either end, give the same answers on both engines.
 * A small strsize and only a few calls per probe keep what the BPF
 * verifier walks (every string loop, once per iteration) small.
 * @options: -q -x strsize=64
 * @status: 0
 */
BEGIN
{
	s = "hello, world, hello";
	printf("index %d %d %d %d %d %d\n", index(s, "hello"),
	    index(s, "hello", 1), index(s, "xyz"), index(s, ""),
	    index(s, "", 100), index("", ""));
	printf("index %d %d %d\n", index(s, "hello", -5),
	    index(s, "o, world, hello"), index(s, "hello, world, hello!"));
	printf("rindex %d %d %d %d %d %d\n", rindex(s, "hello"),
	    rindex(s, "hello", 13), rindex(s, "hello", 12), rindex(s, "l"),
	    rindex(s, ""), rindex(s, "x", -1));
	printf("strstr [%s] [%s] [%s] %d\n", strstr(s, "world"),
	    strstr(s, "lo"), strstr("", ""), strstr(s, "worlds") == 0);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
