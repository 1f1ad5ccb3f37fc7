/*
 * The tcp provider's library names each TCP state, as DTrace's tcp.d
 * does: tcp_state_string[] gives the name its state-change probes carry,
 * and "<unknown>" for a number that is no state.  The states are
 * numbered as DTrace numbers them, -6 to 6.
 * @options: -q
 * @requires: os:linux
 */
BEGIN
{
	printf("%s\n%s\n%s\n%s\n%s\n", tcp_state_string[TCP_STATE_CLOSED],
	    tcp_state_string[TCP_STATE_LISTEN],
	    tcp_state_string[TCP_STATE_SYN_RECEIVED],
	    tcp_state_string[TCP_STATE_ESTABLISHED],
	    tcp_state_string[TCP_STATE_TIME_WAIT]);
	printf("%s %s\n", tcp_state_string[-7], tcp_state_string[13]);
	printf("%d %d %d %d\n", TCP_STATE_CLOSED, TCP_STATE_SYN_RECEIVED,
	    TCP_STATE_ESTABLISHED, TCP_STATE_TIME_WAIT);
	exit(0);
}
/* SPDX-License-Identifier: MIT */
