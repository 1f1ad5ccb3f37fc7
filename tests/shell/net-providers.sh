#!/bin/bash
# SPDX-License-Identifier: MIT
# net-providers.sh: the tcp and udp providers -- their probes and stable
# argument types (dtrace -lv, "void *" where Linux has no value), and
# exact firings for known loopback traffic (tests/shell/data/
# ip-loopback.c): one TCP connection to a listener on PORT + 1, whose
# client socket goes CLOSED, SYN_SENT, ESTABLISHED, FIN_WAIT_1,
# FIN_WAIT_2, CLOSED (the TIME_WAIT is the kernel's separate mini
# socket); one connect-request, -established and accept-established;
# one connection refused at PORT + 2, whose arguments describe the
# reset received; 3 UDP datagrams of 1234 bytes to
# PORT sent and received.
. "$top_srcdir/tests/shell/data/kprov-common.sh"

"$DTRACE" "${lib[@]}" -l -n 'tcp:::' -n 'udp:::' >"$tmp/l" 2>"$tmp/err"
grep -q ' tcp  *vmlinux  *state-change$' "$tmp/l" || {
	echo "no tcp:::state-change here (the kernel has no" \
	    "sock:inet_sock_set_state tracepoint)"
	exit 77
}
# The udp probes need sock:sock_send_length and sock_recv_length (6.1
# has neither): without them, the udp checks are left out.
udp=(-n udp:::receive)
grep -q ' udp  *vmlinux  *send$' "$tmp/l" || {
	udp=()
	echo "note: no udp probes here (the kernel has no" \
	    "sock:sock_send_length tracepoint); the udp checks are left out"
}
noudp() { if [ ${#udp[@]} -gt 0 ]; then cat; else sed "$@"; fi; }

# 1. Argument types.
"$DTRACE" "${lib[@]}" -lv -n tcp:::state-change -n tcp:::connect-request \
    -n tcp:::connect-refused "${udp[@]}" 2>"$tmp/err" |
    sed -n 's/^ *[0-9][0-9]* *//p; /args\[/p' >"$tmp/lv"
cat >"$tmp/lv.want" <<'EOW'
tcp           vmlinux                                   state-change
		args[0]: void *
		args[1]: csinfo_t *
		args[2]: void *
		args[3]: tcpsinfo_t *
		args[4]: void *
		args[5]: tcplsinfo_t *
tcp           vmlinux                                   connect-request
		args[0]: void *
		args[1]: csinfo_t *
		args[2]: ipinfo_t *
		args[3]: tcpsinfo_t *
		args[4]: tcpinfo_t *
tcp           vmlinux                                   connect-refused
		args[0]: void *
		args[1]: csinfo_t *
		args[2]: ipinfo_t *
		args[3]: tcpsinfo_t *
		args[4]: tcpinfo_t *
udp           vmlinux                                   receive
		args[0]: void *
		args[1]: csinfo_t *
		args[2]: void *
		args[3]: udpsinfo_t *
		args[4]: udpinfo_t *
EOW
noudp -i '/^udp /,$d' "$tmp/lv.want"
diff -u "$tmp/lv.want" "$tmp/lv" || fail "dtrace -lv differs"

# 2. The traffic (tests/shell/data/ip-loopback.c, over IPv4): UDP to
# PORT, a connection to PORT + 1, refused at PORT + 2; $1 is PORT + 1.
cc -o "$tmp/ip-loopback" "$top_srcdir/tests/shell/data/ip-loopback.c" ||
    fail "cannot build ip-loopback"
free_ports 3

cat >"$tmp/net.d" <<'EOD'
tcp:::state-change
/args[3]->tcps_rport == $1 && args[3]->tcps_lport != $1/
{
	printf("client %d -> %d\n", args[5]->tcps_state, args[3]->tcps_state);
}
tcp:::state-change
/args[3]->tcps_lport == $1 && args[5]->tcps_state != TCP_STATE_LISTEN &&
 args[3]->tcps_state == TCP_STATE_LISTEN/
{
	printf("listen\n");
}
tcp:::connect-request, tcp:::connect-established
/args[3]->tcps_rport == $1/
{
	@c[probename] = count();
}
tcp:::connect-request, tcp:::connect-established, tcp:::accept-established
/args[4]->tcp_sport == $1 || args[4]->tcp_dport == $1/
{
	printf("%s v%d %s -> %s, %s -> %s %x\n", probename, args[2]->ip_ver,
	    args[2]->ip_saddr, args[2]->ip_daddr,
	    args[4]->tcp_sport == $1 ? "server" : "client",
	    args[4]->tcp_dport == $1 ? "server" : "client", args[4]->tcp_flags);
}
tcp:::accept-established
/args[3]->tcps_lport == $1/
{
	@c[probename] = count();
}
tcp:::connect-refused
/args[3]->tcps_rport == $1 + 1/
{
	@c[probename] = count();
	printf("reset v%d %s -> %s %d, %d -> %d %x seq %d ack %s, state %d\n",
	    args[2]->ip_ver, args[2]->ip_saddr, args[2]->ip_daddr,
	    args[2]->ip_plength, args[4]->tcp_sport - $1,
	    args[4]->tcp_dport == args[3]->tcps_lport, args[4]->tcp_flags,
	    args[4]->tcp_seq, args[4]->tcp_ack != 0 ? "set" : "0",
	    args[3]->tcps_state);
}
tcp:::receive
/args[3]->tcps_lport == $1 || args[3]->tcps_rport == $1/
{
	@r = count();
}
udp:::send
/pid == $target/
{
	@u[probename, args[4]->udp_length] = count();
}
udp:::receive
/args[1]->cs_pid == $target && args[4]->udp_dport == $1 - 1/
{
	@u[probename, args[4]->udp_length] = count();
}
END
{
	printa("%s %@d\n", @c);
	printa("%s %d %@d\n", @u);
	printa("tcp-receive %@d\n", @r);
}
EOD
noudp -i '/^udp:::/,/^}/d; /@u);$/d' "$tmp/net.d"
"$DTRACE" "${lib[@]}" -q -c "$tmp/ip-loopback 4 $port 3" -s "$tmp/net.d" \
    "$((port + 1))" >"$tmp/out" 2>"$tmp/err" || fail "dtrace failed"

cat >"$tmp/want" <<'EOW'
listen
client -6 -> -2
connect-request v4 127.0.0.1 -> 127.0.0.1, client -> server 2
client -2 -> 0
connect-established v4 127.0.0.1 -> 127.0.0.1, server -> client 12
accept-established v4 127.0.0.1 -> 127.0.0.1, client -> server 10
client 0 -> 2
client 2 -> 5
client 5 -> -6
reset v4 127.0.0.1 -> 127.0.0.1 20, 1 -> 1 14 seq 0 ack set, state -2
accept-established 1
connect-established 1
connect-refused 1
connect-request 1
receive 1242 3
send 1242 3
EOW
noudp -i '/^receive \|^send /d' "$tmp/want"
# In any order: the records of different CPUs' buffers (the connection's
# events happen in softirqs on any CPU, and END's on another) come out
# in CPU order.
sort -o "$tmp/want" "$tmp/want"
grep -v '^tcp-receive \|^$' "$tmp/out" | sort >"$tmp/got"
diff -u "$tmp/want" "$tmp/got" || fail "unexpected tcp/udp firings"
# Segments arrive on the established connection: the two data ones, and
# ACKs, as the kernel sends them.
n=$(sed -n 's/^tcp-receive //p' "$tmp/out")
[ "${n:-0}" -ge 2 ] || fail "tcp:::receive fired ${n:-0} times, want >= 2"
exit 0
