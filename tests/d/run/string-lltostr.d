/*
 * lltostr() and strtoll(), in every base and sign and at the extremes
 * (lltostr()'s result cut at strsize), give the same answers on both engines.
 * A small strsize and only a few calls per probe keep what the BPF
 * verifier walks (every string loop, once per iteration) small.
 * @options: -q -x strsize=64
 * @status: 0
 */
BEGIN
{
	printf("lltostr %s %s %s %s %s\n", lltostr(0), lltostr(-1234567),
	    lltostr(9223372036854775807), lltostr(-9223372036854775807 - 1),
	    lltostr(255, 16));
	printf("lltostr %s %s %s %s\n", lltostr(0, 16), lltostr(8, 8),
	    lltostr(-1, 2), lltostr(35, 36));
	printf("strtoll %d %d %d %d %d %d\n", strtoll("  42abc"),
	    strtoll("-17"), strtoll("+0x1F", 16), strtoll("zz", 36),
	    strtoll("777", 8), strtoll("junk"));
	exit(0);
}
/* SPDX-License-Identifier: MIT */
