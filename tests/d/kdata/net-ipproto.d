/*
 * The IP protocol numbers DTrace's ip library names, for ipv4_protocol
 * and ipv6_nexthdr.
 * @options: -q
 * @requires: os:linux
 */
BEGIN
{
	printf("%d %d %d %d %d %d\n", IPPROTO_IP, IPPROTO_ICMP, IPPROTO_TCP,
	    IPPROTO_UDP, IPPROTO_ICMPV6, IPPROTO_RAW);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
