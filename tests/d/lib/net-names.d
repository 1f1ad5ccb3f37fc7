/*
 * The ip and udp libraries' names: protocol numbers (the Internet's),
 * UDPH_SIZE, IPH_DF and IPH_MF as the header's flags-and-offset field
 * holds them, and the protocol strings of ipv4_protostr/ipv6_nextstr as
 * DTrace prints them (the number for a protocol it does not name).
 * @options: -q
 * @requires: os:linux
 */
BEGIN
{
	printf("%d %d %d %d %d %d %d %d\n", IPPROTO_GGP, IPPROTO_ENCAP,
	    IPPROTO_EGP, IPPROTO_PUP, IPPROTO_IDP, IPPROTO_HELLO, IPPROTO_ND,
	    IPPROTO_EON);
	printf("%d %d %d %d %d %d\n", IPPROTO_OSPF, IPPROTO_PIM,
	    IPPROTO_DCCP, IPPROTO_UDPLITE, IPPROTO_MPLS, IPPROTO_MAX);
	printf("%d %x %x %d\n", UDPH_SIZE, IPH_DF, IPH_MF, IPH_DF >> 12);
	printf("%s %s %s %s %s %s %s\n", dt_ipproto_str[IPPROTO_TCP],
	    dt_ipproto_str[IPPROTO_IP], dt_ipproto_str[IPPROTO_IPV6],
	    dt_ipproto_str[IPPROTO_ROUTING], dt_ipproto_str[IPPROTO_ICMPV6],
	    dt_ipproto_str[IPPROTO_GRE], dt_ipproto_str[255]);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
