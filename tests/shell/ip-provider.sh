#!/bin/bash
# SPDX-License-Identifier: MIT
# ip-provider.sh: the ip provider and the tcp provider's segment probes
# -- their probes and stable argument types (dtrace -lv), and exact
# firings for known loopback traffic (tests/shell/data/ip-loopback.c),
# over IPv4 and, where the loopback device has ::1, IPv6: N UDP datagrams
# of 1234 bytes, each seen once by ip:::send and once by ip:::receive
# with its IP header's fields and addresses (ip_saddr, ip_daddr);
# one TCP connection, whose SYN, SYN-ACK,
# two 5-byte data segments and two FINs tcp:::send sees, and whose data
# tcp:::receive sees, each with sequence numbers matching the sockets'
# (tcpsinfo_t) as TCP keeps them; one connection refused, which
# tcp:::accept-refused sees as the reset answering it, where the kernel
# traces resets sent for no socket.
. "$top_srcdir/tests/shell/data/kprov-common.sh"

"$DTRACE" "${lib[@]}" -l -n 'ip:::' >"$tmp/l" 2>"$tmp/err"
grep -q ' ip  *vmlinux  *ipv4 send$' "$tmp/l" || {
	echo "no ip:::send here (no net tracepoints)"
	exit 77
}

# 1. The probes and their argument types.
"$DTRACE" "${lib[@]}" -lv -n 'ip:::' -n tcp::ipv6:send -n tcp:::receive \
    2>"$tmp/err" | sed -n 's/^ *[0-9][0-9]* *//p; /args\[/p' >"$tmp/lv"
ipargs='		args[0]: pktinfo_t *
		args[1]: csinfo_t *
		args[2]: ipinfo_t *
		args[3]: ifinfo_t *
		args[4]: ipv4info_t *
		args[5]: ipv6info_t *'
tcpargs='		args[0]: pktinfo_t *
		args[1]: csinfo_t *
		args[2]: ipinfo_t *
		args[3]: tcpsinfo_t *
		args[4]: tcpinfo_t *'
cat >"$tmp/lv.want" <<EOW
ip           vmlinux                              ipv4 send
$ipargs
ip           vmlinux                              ipv6 send
$ipargs
ip           vmlinux                              ipv4 receive
$ipargs
ip           vmlinux                              ipv6 receive
$ipargs
tcp           vmlinux                              ipv6 send
$tcpargs
tcp           vmlinux                                   receive
$tcpargs
EOW
diff -u "$tmp/lv.want" "$tmp/lv" || fail "dtrace -lv differs"

# 2. The traffic, on ports nothing listens on.
cc -o "$tmp/ip-loopback" "$top_srcdir/tests/shell/data/ip-loopback.c" ||
    fail "cannot build ip-loopback"
free_ports 3

cat >"$tmp/d" <<'EOD'
ip:::send, ip:::receive
/args[2]->ip_ver == 4 && args[2]->ip_plength == 1242 &&
 args[4]->ipv4_dst == htonl(0x7f000001)/
{
	@ip[probefunc, probename, (int)args[2]->ip_ver,
	    (int)args[4]->ipv4_protocol, args[4]->ipv4_protostr,
	    (int)args[4]->ipv4_ihl, (int)args[4]->ipv4_length,
	    args[3]->if_name, (int)args[3]->if_local,
	    args[2]->ip_saddr, args[2]->ip_daddr] = count();
}
ip:::send, ip:::receive
/args[2]->ip_ver == 6 && args[2]->ip_plength == 1242/
{
	@ip[probefunc, probename, (int)args[2]->ip_ver,
	    (int)args[5]->ipv6_nexthdr, args[5]->ipv6_nextstr, 40,
	    (int)args[5]->ipv6_plen + 40, args[3]->if_name,
	    (int)args[3]->if_local, args[2]->ip_saddr,
	    args[2]->ip_daddr] = count();
}
tcp:::send
/args[4]->tcp_dport == $1 + 1 && args[4]->tcp_flags == TH_SYN/
{
	@t[probefunc, "syn"] = count();
}
tcp:::send
/args[4]->tcp_sport == $1 + 1 && args[4]->tcp_flags == (TH_SYN | TH_ACK)/
{
	@t[probefunc, "syn-ack"] = count();
}
tcp:::send
/(args[4]->tcp_sport == $1 + 1 || args[4]->tcp_dport == $1 + 1) &&
 (args[4]->tcp_flags & TH_FIN)/
{
	@t[probefunc, "fin"] = count();
}
/* Sent data: snd_nxt is still its sequence number; it acks rcv_nxt. */
tcp:::send
/(args[4]->tcp_sport == $1 + 1 || args[4]->tcp_dport == $1 + 1) &&
 args[2]->ip_plength - args[4]->tcp_offset == 5 &&
 args[3]->tcps_snxt == args[4]->tcp_seq &&
 args[3]->tcps_rnxt == args[4]->tcp_ack &&
 args[3]->tcps_suna == args[4]->tcp_seq &&
 args[3]->tcps_state == TCP_STATE_ESTABLISHED &&
 args[3]->tcps_mss > 0 && args[3]->tcps_cwnd > 0 &&
 args[3]->tcps_swnd > 0 && args[3]->tcps_rwnd > 0 &&
 args[3]->tcps_rto >= 200 && args[3]->tcps_retransmit == 0 &&
 args[1]->cs_addr == args[3]->tcps_addr/
{
	@t[probefunc, "data"] = count();
}
/* Received data: TCP expects exactly this sequence number next. */
tcp:::receive
/(args[4]->tcp_sport == $1 + 1 || args[4]->tcp_dport == $1 + 1) &&
 args[2]->ip_plength - args[4]->tcp_offset == 5 &&
 args[3]->tcps_rnxt == args[4]->tcp_seq &&
 args[3]->tcps_lport == args[4]->tcp_dport/
{
	@t["receive", "data"] = count();
}
EOD
refused=
# (dtrace -l of a description that matches nothing exits 0, as DTrace's)
if "$DTRACE" "${lib[@]}" -l -n tcp:::accept-refused 2>/dev/null |
    grep -q ' accept-refused$'; then
	refused=1
	cat >>"$tmp/d" <<'EOD'
/* The reset: from the refused port, acknowledging the SYN. */
tcp:::accept-refused
/args[4]->tcp_sport == $1 + 2 && args[3]->tcps_lport == $1 + 2 &&
 args[4]->tcp_flags == (TH_RST | TH_ACK) && args[4]->tcp_seq == 0 &&
 args[3]->tcps_state == TCP_STATE_CLOSED/
{
	@t[probefunc, "accept-refused"] = count();
}
EOD
else
	echo "no tcp:::accept-refused here (the kernel's tcp_send_reset" \
	    "tracepoint has no reason field): part skipped"
fi
cat >>"$tmp/d" <<'EOD'
END
{
	printa("%s %s %d %d %s %d %d %s %d %s %s %@d\n", @ip);
	printa("tcp %s %s %@d\n", @t);
}
EOD

want() {
	grep . <<EOW | sort
ipv$1 receive $1 17 UDP $2 $3 lo 1 $4 $4 3
ipv$1 send $1 17 UDP $2 $3 lo 1 $4 $4 3
tcp receive data 2
tcp ipv$1 data 2
tcp ipv$1 fin 2
tcp ipv$1 syn 1
tcp ipv$1 syn-ack 1
${refused:+tcp  accept-refused 1}
EOW
}

run() {
	"$DTRACE" "${lib[@]}" -q -c "$tmp/ip-loopback $1 $port 3" \
	    -s "$tmp/d" "$port" >"$tmp/out" 2>"$tmp/err" ||
	    fail "dtrace failed (IPv$1)"
	want "$1" "$2" "$3" "$4" >"$tmp/want"
	grep . "$tmp/out" | sort >"$tmp/got"
	diff -u "$tmp/want" "$tmp/got" || fail "unexpected IPv$1 firings"
}

run 4 20 1262 127.0.0.1
if [ -r /proc/net/if_inet6 ] &&
    grep -q '^0\{31\}1 .* lo$' /proc/net/if_inet6; then
	run 6 40 1282 ::1
else
	echo "IPv6 part skipped: no ::1 on the loopback device"
fi
exit 0
