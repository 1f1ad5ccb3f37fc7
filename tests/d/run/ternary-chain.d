/*
 * A chain of ?: as long as a table of names (c1 ? a : c2 ? b : ...)
 * needs no register per link: sixteen links compile and pick the right
 * string and number for each value.
 * @options: -q
 */
BEGIN
{
	i = 0;
}

tick-1ms
/i < 18/
{
	printf("%d %s %d\n", i,
	    i == 0 ? "IP" : i == 1 ? "ICMP" : i == 2 ? "IGMP" :
	    i == 3 ? "GGP" : i == 4 ? "IPIP" : i == 5 ? "ST" :
	    i == 6 ? "TCP" : i == 7 ? "CBT" : i == 8 ? "EGP" :
	    i == 9 ? "IGP" : i == 10 ? "BBN" : i == 11 ? "NVP" :
	    i == 12 ? "PUP" : i == 13 ? "ARGUS" : i == 14 ? "EMCON" :
	    i == 15 ? "XNET" : "<unknown>",
	    i == 0 ? 100 : i == 1 ? 101 : i == 2 ? 102 : i == 3 ? 103 :
	    i == 4 ? 104 : i == 5 ? 105 : i == 6 ? 106 : i == 7 ? 107 :
	    i == 8 ? 108 : i == 9 ? 109 : i == 10 ? 110 : i == 11 ? 111 :
	    i == 12 ? 112 : i == 13 ? 113 : i == 14 ? 114 : i == 15 ? 115 :
	    -1);
	i++;
}

tick-1ms
/i == 18/
{
	exit(0);
}
/* SPDX-License-Identifier: MIT */
