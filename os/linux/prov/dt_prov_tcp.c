/* SPDX-License-Identifier: MIT */
/*
 * dt_prov_tcp.c: the tcp provider -- TCP connections' state changes and
 * their opening, from the socket state tracepoint, and the segments
 * sent and received, with DTrace's stable argument types
 * (os/linux/lib/net.d).
 *
 *	tcp:vmlinux::state-change	sock:inet_sock_set_state, protocol
 *					TCP: every state change
 *	tcp:vmlinux::connect-request	... to SYN_SENT: a SYN sent by
 *					connect()
 *	tcp:vmlinux::connect-established ... SYN_SENT to ESTABLISHED
 *	tcp:vmlinux::connect-refused	raw tcp_receive_reset(sk), sk in
 *					SYN_SENT: a reset refused a
 *					connection asked for
 *	tcp:vmlinux::accept-established	... SYN_RECV to ESTABLISHED: a
 *					connection to a listener completed
 *	tcp:vmlinux::accept-refused	raw tcp_send_reset(sk, skb, ...), no
 *					socket, skb's flags SYN: the reset
 *					answering a SYN to a closed port
 *	tcp:vmlinux:ipv4:send		raw net_dev_queue(skb), an IPv4
 *	tcp:vmlinux:ipv6:send		(IPv6) packet whose protocol is
 *					TCP, from a socket: a segment goes
 *					to a device
 *	tcp:vmlinux::receive		raw tcp_probe(sk, skb): a segment
 *					arrived on an established connection
 *
 * The state probes are tracepoints (perf, the event's record), filtered
 * in the kernel on the record's protocol and its old and new states
 * (read as one 64-bit word).  Their arguments are DTrace's: args[1]
 * csinfo_t *, args[3] tcpsinfo_t * (the new state), and for
 * state-change args[5] tcplsinfo_t * (the old one, translated from
 * the record's oldstate field), from the record's first fields
 * (dt_inet_sock_set_state_t in net.d, its layout checked against the
 * event's format).  The segment they stand for is not traced: at
 * connect-request (the SYN sent), connect-established (the SYN-ACK
 * received) and accept-established (the ACK received) args[2] ipinfo_t *
 * and args[4] tcpinfo_t * describe it from the socket and the states
 * (the record, translated in net.d); args[0] pktinfo_t *, and
 * state-change's args[2] and args[4], are "void *" (0).
 *
 * send and receive describe the segment: args[0] its sk_buff, args[2]
 * its IP header and args[4] its TCP header, at the buffer's head plus
 * its network_header and transport_header offsets (members found by
 * name in the kernel's BTF), args[1] and args[3] its socket.  send has
 * a probe per IP version, as ip:::send (dt_prov_ip.c) and for the same
 * reason; packets without a socket (forwarded) are not TCP's own and do
 * not fire it.  receive fires where the kernel traces segments, on
 * established connections only.
 *
 * accept-refused's arguments describe the reset, made from the SYN (its
 * sk_buff, typed dt_tcp_refused_t * in net.d).  Kernels before the
 * tracepoint said why a reset is sent (its "reason" field) traced resets
 * only for sockets, so there the probe is not listed.  connect-refused's
 * arguments describe the reset received, which the tracepoint does not
 * pass: made from the socket (typed dt_tcp_reset_t * in net.d) as the
 * peer makes a reset answering a SYN; args[0] pktinfo_t * is not known.
 */
#include "os/linux/prov/dt_kprov.h"
#include "os/linux/prov/dt_linux_prov.h"

#define DT_TCP_REC "dt_inet_sock_set_state_t *"
#define DT_TCP_STATE(xl) \
	DT_KPROV_A_ADDR("skaddr", "newstate", 12, DT_TCP_REC, xl)

/*
 * The typed arguments (args[2] and args[4]: the handshake segment the
 * probe stands for, from the record, net.d), then the protocol and the
 * old|new state word.
 */
#define DT_TCP_CONN_ARGS { \
	DT_KPROV_A_NONE, DT_TCP_STATE("csinfo_t *"), \
	DT_TCP_STATE("ipinfo_t *"), DT_TCP_STATE("tcpsinfo_t *"), \
	DT_TCP_STATE("tcpinfo_t *"), \
	DT_KPROV_A_TEST("protocol"), DT_KPROV_A_TEST2("oldstate", "newstate"), \
	DT_KPROV_A_TEST("newstate"), \
}

/* Linux's TCP states (include/net/tcp_states.h) and IPPROTO_TCP. */
#define DT_TCP_ESTABLISHED	1LL
#define DT_TCP_SYN_SENT		2LL
#define DT_TCP_SYN_RECV		3LL
#define DT_IPPROTO_TCP		6
#define DT_TCP_MOVE(from, to)	((to) << 32 | (from))

#define DT_TCP_PROBE(name, arg, val) \
	{ .kp_name = (name), .kp_kind = DT_KEVENT_TP, .kp_group = "sock", \
	  .kp_event = "inet_sock_set_state", .kp_args = DT_TCP_CONN_ARGS, \
	  .kp_filt = { DT_KPROV_F(5, EQ, DT_IPPROTO_TCP), \
	  DT_KPROV_F(arg, EQ, val) } }

/*
 * Segments: the sk_buff, its socket, and its IP and TCP headers at the
 * buffer's head plus network_header and transport_header (the hidden
 * arguments h, h + 1, h + 2, read with the members' BTF offsets).
 */
#define DT_TCP_SKB	"struct sk_buff *"
#define DT_TCP_REFUSED	"dt_tcp_refused_t *"
#define DT_TCP_RESET	"dt_tcp_reset_t *"
/* TCP header flags (byte 13 of the header). */
#define DT_TH_SYN	0x02
#define DT_TH_RST	0x04
#define DT_TH_ACK	0x10
#define DT_TCP_SOCK	"struct sock *"
#define DT_TCP_IPHDR(h, nh) DT_KPROV_A_SUM(DT_KEVENT_ARGBIT(h) | \
	DT_KEVENT_ARGBIT(nh), 0, "struct iphdr *", "ipinfo_t *")
#define DT_TCP_TCPHDR(h, th) DT_KPROV_A_SUM(DT_KEVENT_ARGBIT(h) | \
	DT_KEVENT_ARGBIT(th), 0, "struct tcphdr *", "tcpinfo_t *")

/*
 * send, one probe per IP version: a packet of that Ethernet type, whose
 * IP header (struct hdr) says TCP in member proto, from a socket.
 */
#define DT_TCP_SEND(func, ethtype, hdr, proto) \
	{ .kp_name = "send", .kp_func = (func), .kp_kind = DT_KEVENT_RAWTP, \
	  .kp_group = "net", .kp_event = "net_dev_queue", \
	  .kp_args = { DT_KPROV_A_RAW(0, DT_TCP_SKB, "pktinfo_t *"), \
	  DT_KPROV_A_MEMBER(0, "sk_buff", "sk", DT_TCP_SOCK, "csinfo_t *"), \
	  DT_TCP_IPHDR(6, 7), DT_KPROV_A_COPY(1, DT_TCP_SOCK, "tcpsinfo_t *"), \
	  DT_TCP_TCPHDR(6, 8), DT_KPROV_A_SKB(0, "protocol"), \
	  DT_KPROV_A_SKB(0, "head"), DT_KPROV_A_SKB(0, "network_header"), \
	  DT_KPROV_A_SKB(0, "transport_header"), \
	  DT_KPROV_A_MTEST(2, hdr, proto) }, \
	  .kp_filt = { DT_KPROV_F(5, EQ, ethtype), \
	  DT_KPROV_F(9, EQ, DT_IPPROTO_TCP), DT_KPROV_F(1, NE, 0) } }

static const dt_kprov_probe_t dt_tcp_probes[] = {
	{ .kp_name = "state-change", .kp_kind = DT_KEVENT_TP,
	  .kp_group = "sock", .kp_event = "inet_sock_set_state",
	  .kp_args = { DT_KPROV_A_NONE, DT_TCP_STATE("csinfo_t *"),
	  DT_KPROV_A_NONE, DT_TCP_STATE("tcpsinfo_t *"), DT_KPROV_A_NONE,
	  DT_KPROV_A_FIELD("oldstate", "int", "tcplsinfo_t *"),
	  DT_KPROV_A_TEST("protocol") },
	  .kp_filt = { DT_KPROV_F(6, EQ, DT_IPPROTO_TCP) } },
	DT_TCP_PROBE("connect-request", 7, DT_TCP_SYN_SENT),
	DT_TCP_PROBE("connect-established", 6,
	    DT_TCP_MOVE(DT_TCP_SYN_SENT, DT_TCP_ESTABLISHED)),
	{ .kp_name = "connect-refused", .kp_kind = DT_KEVENT_RAWTP,
	  .kp_group = "tcp", .kp_event = "tcp_receive_reset",
	  .kp_args = { DT_KPROV_A_NONE,
	  DT_KPROV_A_RAW(0, DT_TCP_SOCK, "csinfo_t *"),
	  DT_KPROV_A_RAW(0, DT_TCP_RESET, "ipinfo_t *"),
	  DT_KPROV_A_RAW(0, DT_TCP_SOCK, "tcpsinfo_t *"),
	  DT_KPROV_A_RAW(0, DT_TCP_RESET, "tcpinfo_t *"),
	  DT_KPROV_A_MTEST(1, "sock_common", "skc_state") },
	  .kp_filt = { DT_KPROV_F(5, EQ, DT_TCP_SYN_SENT) } },
	DT_TCP_PROBE("accept-established", 6,
	    DT_TCP_MOVE(DT_TCP_SYN_RECV, DT_TCP_ESTABLISHED)),
	DT_TCP_SEND("ipv4", DT_KPROV_ETH_P_IP, "iphdr", "protocol"),
	DT_TCP_SEND("ipv6", DT_KPROV_ETH_P_IPV6, "ipv6hdr", "nexthdr"),
	{ .kp_name = "accept-refused", .kp_kind = DT_KEVENT_RAWTP,
	  .kp_group = "tcp", .kp_event = "tcp_send_reset", .kp_need = "reason",
	  .kp_args = { DT_KPROV_A_RAW(1, DT_TCP_SKB, "pktinfo_t *"),
	  DT_KPROV_A_RAW(0, DT_TCP_SOCK, "csinfo_t *"),
	  DT_KPROV_A_COPY(0, DT_TCP_REFUSED, "ipinfo_t *"),
	  DT_KPROV_A_COPY(0, DT_TCP_REFUSED, "tcpsinfo_t *"),
	  DT_KPROV_A_COPY(0, DT_TCP_REFUSED, "tcpinfo_t *"),
	  DT_KPROV_A_SKB(0, "head"), DT_KPROV_A_SKB(0, "transport_header"),
	  DT_KPROV_A_HMEM(DT_KEVENT_ARGBIT(5) | DT_KEVENT_ARGBIT(6), 13, 1) },
	  .kp_filt = { DT_KPROV_F(1, EQ, 0),
	  DT_KPROV_FM(7, DT_TH_SYN | DT_TH_ACK | DT_TH_RST, EQ, DT_TH_SYN) } },
	{ .kp_name = "receive", .kp_kind = DT_KEVENT_RAWTP,
	  .kp_group = "tcp", .kp_event = "tcp_probe",
	  .kp_args = { DT_KPROV_A_RAW(1, DT_TCP_SKB, "pktinfo_t *"),
	  DT_KPROV_A_RAW(0, DT_TCP_SOCK, "csinfo_t *"), DT_TCP_IPHDR(5, 6),
	  DT_KPROV_A_RAW(0, DT_TCP_SOCK, "tcpsinfo_t *"), DT_TCP_TCPHDR(5, 7),
	  DT_KPROV_A_SKB(0, "head"), DT_KPROV_A_SKB(0, "network_header"),
	  DT_KPROV_A_SKB(0, "transport_header") } },
};

static const dt_kprov_t dt_tcp_prov = {
	"tcp", dt_tcp_probes, sizeof (dt_tcp_probes) / sizeof (dt_tcp_probes[0])
};

int
dt_prov_tcp_init(dtrace_hdl_t *dtp)
{
	return dt_kprov_register(dtp, &dt_tcp_prov);
}
