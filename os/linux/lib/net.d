/* SPDX-License-Identifier: MIT */
/*
 * net.d: the stable types of the ip, tcp and udp providers as DTrace
 * defines them -- pktinfo_t, csinfo_t, ipinfo_t, ifinfo_t, ipv4info_t,
 * ipv6info_t, tcpsinfo_t, tcplsinfo_t, tcpinfo_t, udpsinfo_t,
 * udpinfo_t, and conninfo_t -- their constants, and their translators
 * from the Linux kernel's struct sock, struct sk_buff, the IP and TCP
 * headers, and the tracepoint records the providers pass
 * (os/linux/prov/dt_prov_ip.c, dt_prov_tcp.c, dt_prov_udp.c).
 *
 * What Linux cannot give is 0 (or "<unknown>"), and dtrace -lv shows an
 * argument no kernel event provides as "void *":
 *   - pktinfo_t: pkt_addr is 0, as DTrace has it;
 *   - csinfo_t: cs_cid is the socket's address; cs_pid is the process
 *     for udp's probes, 0 where a device sends or receives;
 *   - tcpsinfo_t: tcps_iss, the SACK numbers and tcps_active are 0 (the
 *     kernel keeps none of them); tcps_rack is the last acknowledgment
 *     sent (rcv_wup), tcps_retransmit says the connection is
 *     retransmitting after a timeout.
 */
#pragma D depends_on module vmlinux

typedef struct pktinfo {
	uintptr_t pkt_addr;		/* currently always NULL */
} pktinfo_t;

typedef struct csinfo {
	uintptr_t cs_addr;
	uint64_t cs_cid;		/* connection ID */
	pid_t cs_pid;			/* associated PID */
	zoneid_t cs_zoneid;		/* associated zoneid */
} csinfo_t;

typedef struct ipinfo {
	uint8_t ip_ver;			/* IP version (4, 6) */
	uint16_t ip_plength;		/* payload length */
	string ip_saddr;		/* source address */
	string ip_daddr;		/* destination address */
} ipinfo_t;

typedef uint32_t ipaddr_t;		/* IPv4 address, network order */
typedef int netstackid_t;		/* network namespace (its inode) */
typedef struct in6_addr in6_addr_t;

typedef struct ifinfo {
	string if_name;			/* interface name */
	int8_t if_local;		/* is delivered locally */
	netstackid_t if_ipstack;	/* ipstack ID */
	uintptr_t if_addr;		/* pointer to the struct net_device */
} ifinfo_t;

typedef struct ipv4info {
	uint8_t ipv4_ver;		/* IP version (4) */
	uint8_t ipv4_ihl;		/* header length, bytes */
	uint8_t ipv4_tos;		/* type of service field */
	uint16_t ipv4_length;		/* length (header + payload) */
	uint16_t ipv4_ident;		/* identification */
	uint8_t ipv4_flags;		/* IP flags */
	uint16_t ipv4_offset;		/* fragment offset */
	uint8_t ipv4_ttl;		/* time to live */
	uint8_t ipv4_protocol;		/* next level protocol */
	string ipv4_protostr;		/* next level protocol, as a string */
	uint16_t ipv4_checksum;		/* header checksum */
	ipaddr_t ipv4_src;		/* source address */
	ipaddr_t ipv4_dst;		/* destination address */
	string ipv4_saddr;		/* source address, string */
	string ipv4_daddr;		/* destination address, string */
	struct iphdr *ipv4_hdr;		/* pointer to raw header */
} ipv4info_t;

typedef struct ipv6info {
	uint8_t ipv6_ver;		/* IP version (6) */
	uint8_t ipv6_tclass;		/* traffic class */
	uint32_t ipv6_flow;		/* flow label */
	uint16_t ipv6_plen;		/* payload length */
	uint8_t ipv6_nexthdr;		/* next header protocol */
	string ipv6_nextstr;		/* next header protocol, as a string */
	uint8_t ipv6_hlim;		/* hop limit */
	in6_addr_t *ipv6_src;		/* source address */
	in6_addr_t *ipv6_dst;		/* destination address */
	string ipv6_saddr;		/* source address, string */
	string ipv6_daddr;		/* destination address, string */
	struct ipv6hdr *ipv6_hdr;	/* pointer to raw header */
} ipv6info_t;

typedef struct conninfo {
	string ci_local;		/* local host address */
	string ci_remote;		/* remote host address */
	string ci_protocol;		/* protocol (ipv4, ipv6, etc) */
} conninfo_t;

typedef struct tcpsinfo {
	uintptr_t tcps_addr;
	int tcps_local;			/* is delivered locally, boolean */
	int tcps_active;		/* active open (from here), boolean */
	uint16_t tcps_lport;		/* local port */
	uint16_t tcps_rport;		/* remote port */
	string tcps_laddr;		/* local address, as a string */
	string tcps_raddr;		/* remote address, as a string */
	int32_t tcps_state;		/* TCP state */
	uint32_t tcps_iss;		/* initial sequence # sent */
	uint32_t tcps_suna;		/* sequence # sent but unacked */
	uint32_t tcps_snxt;		/* next sequence # to send */
	uint32_t tcps_rack;		/* sequence # acked */
	uint32_t tcps_rnxt;		/* next sequence # expected */
	uint32_t tcps_swnd;		/* send window size */
	int32_t tcps_snd_ws;		/* send window scaling */
	uint32_t tcps_rwnd;		/* receive window size */
	int32_t tcps_rcv_ws;		/* receive window scaling */
	uint32_t tcps_cwnd;		/* congestion window */
	uint32_t tcps_cwnd_ssthresh;	/* threshold for congestion avoidance */
	uint32_t tcps_sack_fack;	/* SACK sequence # acked */
	uint32_t tcps_sack_snxt;	/* next SACK seq # for retransmission */
	uint32_t tcps_rto;		/* round-trip timeout, msec */
	uint32_t tcps_mss;		/* max segment size */
	int tcps_retransmit;		/* retransmit send event, boolean */
} tcpsinfo_t;

typedef struct tcpinfo {
	uint16_t tcp_sport;		/* source port */
	uint16_t tcp_dport;		/* destination port */
	uint32_t tcp_seq;		/* sequence number */
	uint32_t tcp_ack;		/* acknowledgment number */
	uint8_t tcp_offset;		/* data offset, in bytes */
	uint8_t tcp_flags;		/* flags */
	uint16_t tcp_window;		/* window size */
	uint16_t tcp_checksum;		/* checksum */
	uint16_t tcp_urgent;		/* urgent data pointer */
	struct tcphdr *tcp_hdr;		/* raw TCP header */
} tcpinfo_t;

typedef struct tcplsinfo {
	int32_t tcps_state;		/* previous TCP state */
} tcplsinfo_t;

typedef struct udpsinfo {
	uintptr_t udps_addr;
	uint16_t udps_lport;		/* local port */
	uint16_t udps_rport;		/* remote port */
	string udps_laddr;		/* local address, as a string */
	string udps_raddr;		/* remote address, as a string */
} udpsinfo_t;

typedef struct udpinfo {
	uint16_t udp_sport;		/* source port */
	uint16_t udp_dport;		/* destination port */
	uint16_t udp_length;		/* total length */
	uint16_t udp_checksum;		/* headers + data checksum */
	uintptr_t udp_hdr;		/* raw UDP header */
} udpinfo_t;

/*
 * The IPv4 header's flag bits as its 16-bit flags-and-offset field holds
 * them (ntohs(ipv4_hdr->frag_off)), DTrace's values; ipv4_flags holds
 * the field's top four bits, so a packet with DF set has ipv4_flags 4
 * (IPH_DF >> 12), as in DTrace.
 */
inline int IPH_DF = 0x4000;		/* don't fragment */
inline int IPH_MF = 0x2000;		/* more fragments */

inline uint8_t TH_FIN = 0x01;		/* tcp_flags */
inline uint8_t TH_SYN = 0x02;
inline uint8_t TH_RST = 0x04;
inline uint8_t TH_PUSH = 0x08;
inline uint8_t TH_ACK = 0x10;
inline uint8_t TH_URG = 0x20;
inline uint8_t TH_ECE = 0x40;
inline uint8_t TH_CWR = 0x80;

/*
 * IP protocol numbers (ipv4_protocol, ipv6_nexthdr), as DTrace and
 * Linux name them; the numbers are the Internet's (IANA's), the same on
 * every system.  IPPROTO_MAX bounds the 8-bit field.
 */
inline short IPPROTO_IP = 0;
inline short IPPROTO_HOPOPTS = 0;
inline short IPPROTO_ICMP = 1;
inline short IPPROTO_IGMP = 2;
inline short IPPROTO_GGP = 3;
inline short IPPROTO_IPV4 = 4;
inline short IPPROTO_IPIP = 4;
inline short IPPROTO_ENCAP = 4;		/* IP in IP, DTrace's name */
inline short IPPROTO_TCP = 6;
inline short IPPROTO_EGP = 8;
inline short IPPROTO_PUP = 12;
inline short IPPROTO_UDP = 17;
inline short IPPROTO_IDP = 22;
inline short IPPROTO_DCCP = 33;
inline short IPPROTO_IPV6 = 41;
inline short IPPROTO_ROUTING = 43;
inline short IPPROTO_FRAGMENT = 44;
inline short IPPROTO_RSVP = 46;
inline short IPPROTO_GRE = 47;
inline short IPPROTO_ESP = 50;
inline short IPPROTO_AH = 51;
inline short IPPROTO_ICMPV6 = 58;
inline short IPPROTO_NONE = 59;
inline short IPPROTO_DSTOPTS = 60;
inline short IPPROTO_HELLO = 63;
inline short IPPROTO_ND = 77;
inline short IPPROTO_EON = 80;
inline short IPPROTO_OSPF = 89;
inline short IPPROTO_PIM = 103;
inline short IPPROTO_SCTP = 132;
inline short IPPROTO_UDPLITE = 136;
inline short IPPROTO_MPLS = 137;
inline short IPPROTO_RAW = 255;
inline short IPPROTO_MAX = 256;

/* The size of a UDP header, bytes. */
inline int UDPH_SIZE = 8;

inline int AF_INET = 2;
inline int AF_INET6 = 10;

/* link_ntop()'s address types: Linux's <net/if_arp.h> values. */
inline int ARPHRD_ETHER = 1;
inline int ARPHRD_INFINIBAND = 32;

/*
 * The TCP states, numbered as DTrace numbers them: a connection's states
 * from ESTABLISHED (0) on are positive, those before it negative.
 */
inline int32_t TCP_STATE_CLOSED = -6;
inline int32_t TCP_STATE_IDLE = -5;
inline int32_t TCP_STATE_BOUND = -4;
inline int32_t TCP_STATE_LISTEN = -3;
inline int32_t TCP_STATE_SYN_SENT = -2;
inline int32_t TCP_STATE_SYN_RECEIVED = -1;
inline int32_t TCP_STATE_ESTABLISHED = 0;
inline int32_t TCP_STATE_CLOSE_WAIT = 1;
inline int32_t TCP_STATE_FIN_WAIT_1 = 2;
inline int32_t TCP_STATE_CLOSING = 3;
inline int32_t TCP_STATE_LAST_ACK = 4;
inline int32_t TCP_STATE_FIN_WAIT_2 = 5;
inline int32_t TCP_STATE_TIME_WAIT = 6;

/* A TCP state's name, as the tcp provider's probes are named. */
inline string tcp_state_string[int32_t state] =
	state == TCP_STATE_CLOSED ? "state-closed" :
	state == TCP_STATE_IDLE ? "state-idle" :
	state == TCP_STATE_BOUND ? "state-bound" :
	state == TCP_STATE_LISTEN ? "state-listen" :
	state == TCP_STATE_SYN_SENT ? "state-syn-sent" :
	state == TCP_STATE_SYN_RECEIVED ? "state-syn-received" :
	state == TCP_STATE_ESTABLISHED ? "state-established" :
	state == TCP_STATE_CLOSE_WAIT ? "state-close-wait" :
	state == TCP_STATE_FIN_WAIT_1 ? "state-fin-wait-1" :
	state == TCP_STATE_CLOSING ? "state-closing" :
	state == TCP_STATE_LAST_ACK ? "state-last-ack" :
	state == TCP_STATE_FIN_WAIT_2 ? "state-fin-wait-2" :
	state == TCP_STATE_TIME_WAIT ? "state-time-wait" : "<unknown>";

/*
 * The first fields of the sock:inet_sock_set_state record, which
 * tcp:::state-change and the connect and accept probes pass (the
 * provider checks this layout against the event's format).
 */
typedef struct dt_inet_sock_set_state {
	struct sock *skaddr;
	int oldstate;
	int newstate;
} dt_inet_sock_set_state_t;

/*
 * The first fields of the sock:sock_send_length record, which udp:::send
 * passes, and of sock:sock_recv_length's, the same, for udp:::receive.
 */
typedef struct dt_sock_send_length {
	struct sock *sk;
	uint16_t family;
	uint16_t protocol;
	int ret;
} dt_sock_send_length_t;

typedef struct dt_sock_recv_length {
	struct sock *sk;
	uint16_t family;
	uint16_t protocol;
	int ret;
} dt_sock_recv_length_t;

/*
 * Linux's TCP states (TCP_ESTABLISHED = 1 ... TCP_NEW_SYN_RECV = 12) as
 * DTrace numbers them, four bits per state, each DTrace's number plus 6:
 * state S is dt_tcp_state[S].
 */
inline uint64_t dt_tcp_state_map = 0x593a70cb85460;
inline int32_t dt_tcp_state[int s] = s >= 0 && s <= 12 ?
    (int32_t)((dt_tcp_state_map >> 4 * s) & 0xf) - 6 : TCP_STATE_CLOSED;

/*
 * A socket with TCP's state (struct tcp_sock): not a connection request
 * (TCP_NEW_SYN_RECV, 12) nor a TIME_WAIT socket (6), which are smaller
 * structs, nor the kernel's raw control socket that sends resets and
 * TIME_WAIT acknowledgments (not SOCK_STREAM).  Others' sequence
 * numbers, windows and timers are 0.
 */
translator tcpsinfo_t < struct sock *S > {
	tcps_addr = (uintptr_t)S;
	tcps_local = S->__sk_common.skc_family == AF_INET ?
	    S->__sk_common.skc_daddr == S->__sk_common.skc_rcv_saddr ||
	    (ntohl(S->__sk_common.skc_daddr) >> 24) == 127 : 0;
	tcps_active = 0;
	tcps_lport = S->__sk_common.skc_num;
	tcps_rport = ntohs(S->__sk_common.skc_dport);
	tcps_laddr = S->__sk_common.skc_family == AF_INET6 ?
	    inet_ntoa6(&S->__sk_common.skc_v6_rcv_saddr) :
	    inet_ntoa(&S->__sk_common.skc_rcv_saddr);
	tcps_raddr = S->__sk_common.skc_family == AF_INET6 ?
	    inet_ntoa6(&S->__sk_common.skc_v6_daddr) :
	    inet_ntoa(&S->__sk_common.skc_daddr);
	tcps_state = dt_tcp_state[S->__sk_common.skc_state];
	tcps_iss = 0;
	tcps_suna = S->__sk_common.skc_state == 12 ||
	    S->__sk_common.skc_state == 6 || S->sk_type != 1 ? 0 :
	    ((struct tcp_sock *)S)->snd_una;
	tcps_snxt = S->__sk_common.skc_state == 12 ||
	    S->__sk_common.skc_state == 6 || S->sk_type != 1 ? 0 :
	    ((struct tcp_sock *)S)->snd_nxt;
	tcps_rack = S->__sk_common.skc_state == 12 ||
	    S->__sk_common.skc_state == 6 || S->sk_type != 1 ? 0 :
	    ((struct tcp_sock *)S)->rcv_wup;
	tcps_rnxt = S->__sk_common.skc_state == 12 ||
	    S->__sk_common.skc_state == 6 || S->sk_type != 1 ? 0 :
	    ((struct tcp_sock *)S)->rcv_nxt;
	tcps_swnd = S->__sk_common.skc_state == 12 ||
	    S->__sk_common.skc_state == 6 || S->sk_type != 1 ? 0 :
	    ((struct tcp_sock *)S)->snd_wnd;
	tcps_snd_ws = S->__sk_common.skc_state == 12 ||
	    S->__sk_common.skc_state == 6 || S->sk_type != 1 ? 0 :
	    ((struct tcp_sock *)S)->rx_opt.snd_wscale;
	tcps_rwnd = S->__sk_common.skc_state == 12 ||
	    S->__sk_common.skc_state == 6 || S->sk_type != 1 ? 0 :
	    ((struct tcp_sock *)S)->rcv_wnd;
	tcps_rcv_ws = S->__sk_common.skc_state == 12 ||
	    S->__sk_common.skc_state == 6 || S->sk_type != 1 ? 0 :
	    ((struct tcp_sock *)S)->rx_opt.rcv_wscale;
	tcps_cwnd = S->__sk_common.skc_state == 12 ||
	    S->__sk_common.skc_state == 6 || S->sk_type != 1 ? 0 :
	    ((struct tcp_sock *)S)->snd_cwnd;
	tcps_cwnd_ssthresh = S->__sk_common.skc_state == 12 ||
	    S->__sk_common.skc_state == 6 || S->sk_type != 1 ? 0 :
	    ((struct tcp_sock *)S)->snd_ssthresh;
	tcps_sack_fack = 0;
	tcps_sack_snxt = 0;
	/*
	 * icsk_rto is in jiffies; a socket's delayed-ACK ceiling starts as
	 * HZ / 5 jiffies (TCP_DELACK_MAX), so this is the RTO in ms.
	 */
	tcps_rto = S->__sk_common.skc_state == 12 ||
	    S->__sk_common.skc_state == 6 || S->sk_type != 1 ||
	    ((struct tcp_sock *)S)->inet_conn.icsk_delack_max == 0 ? 0 :
	    ((struct tcp_sock *)S)->inet_conn.icsk_rto * 200 /
	    ((struct tcp_sock *)S)->inet_conn.icsk_delack_max;
	tcps_mss = S->__sk_common.skc_state == 12 ||
	    S->__sk_common.skc_state == 6 || S->sk_type != 1 ? 0 :
	    ((struct tcp_sock *)S)->mss_cache;
	tcps_retransmit = S->__sk_common.skc_state == 12 ||
	    S->__sk_common.skc_state == 6 || S->sk_type != 1 ? 0 :
	    ((struct tcp_sock *)S)->inet_conn.icsk_retransmits != 0;
};

/* At a state change the socket still has the old state: use the new. */
translator tcpsinfo_t < dt_inet_sock_set_state_t *P > {
	tcps_addr = (uintptr_t)P->skaddr;
	tcps_local = xlate<tcpsinfo_t *>(P->skaddr)->tcps_local;
	tcps_active = 0;
	tcps_lport = xlate<tcpsinfo_t *>(P->skaddr)->tcps_lport;
	tcps_rport = xlate<tcpsinfo_t *>(P->skaddr)->tcps_rport;
	tcps_laddr = xlate<tcpsinfo_t *>(P->skaddr)->tcps_laddr;
	tcps_raddr = xlate<tcpsinfo_t *>(P->skaddr)->tcps_raddr;
	tcps_state = dt_tcp_state[P->newstate];
	tcps_iss = 0;
	tcps_suna = 0;
	tcps_snxt = 0;
	tcps_rack = 0;
	tcps_rnxt = 0;
	tcps_swnd = xlate<tcpsinfo_t *>(P->skaddr)->tcps_swnd;
	tcps_snd_ws = 0;
	tcps_rwnd = 0;
	tcps_rcv_ws = 0;
	tcps_cwnd = xlate<tcpsinfo_t *>(P->skaddr)->tcps_cwnd;
	tcps_cwnd_ssthresh = 0;
	tcps_sack_fack = 0;
	tcps_sack_snxt = 0;
	tcps_rto = 0;
	tcps_mss = xlate<tcpsinfo_t *>(P->skaddr)->tcps_mss;
	tcps_retransmit = 0;
};

/* The old state, the record's oldstate field. */
translator tcplsinfo_t < int S > {
	tcps_state = dt_tcp_state[S];
};

translator csinfo_t < dt_inet_sock_set_state_t *P > {
	cs_addr = (uintptr_t)P->skaddr;
	cs_cid = (uint64_t)P->skaddr;
	cs_pid = 0;
	cs_zoneid = 0;
};

translator csinfo_t < struct sock *S > {
	cs_addr = (uintptr_t)S;
	cs_cid = (uint64_t)S;
	cs_pid = pid;		/* sockets' probes fire in the process */
	cs_zoneid = 0;
};

translator udpsinfo_t < struct sock *S > {
	udps_addr = (uintptr_t)S;
	udps_lport = S->__sk_common.skc_num;
	udps_rport = ntohs(S->__sk_common.skc_dport);
	udps_laddr = xlate<tcpsinfo_t *>(S)->tcps_laddr;
	udps_raddr = xlate<tcpsinfo_t *>(S)->tcps_raddr;
};

/*
 * A datagram sent or received through a socket: its ports (the remote
 * one is 0 for a socket not connect()ed) and length.
 */
translator udpinfo_t < dt_sock_send_length_t *P > {
	udp_sport = P->sk->__sk_common.skc_num;
	udp_dport = ntohs(P->sk->__sk_common.skc_dport);
	udp_length = P->ret + 8;
	udp_checksum = 0;
	udp_hdr = 0;
};

translator udpinfo_t < dt_sock_recv_length_t *P > {
	udp_sport = ntohs(P->sk->__sk_common.skc_dport);
	udp_dport = P->sk->__sk_common.skc_num;
	udp_length = P->ret + 8;
	udp_checksum = 0;
	udp_hdr = 0;
};

/*
 * A protocol number as ipv4_protostr and ipv6_nextstr spell it: the
 * names DTrace prints (0 is "IP" for both versions, as in DTrace), and
 * the number in decimal for any other protocol.
 */
inline string dt_ipproto_str[uint8_t p] =
	p == IPPROTO_TCP ? "TCP" : p == IPPROTO_UDP ? "UDP" :
	p == IPPROTO_IP ? "IP" : p == IPPROTO_ICMP ? "ICMP" :
	p == IPPROTO_IGMP ? "IGMP" : p == IPPROTO_EGP ? "EGP" :
	p == IPPROTO_IPV6 ? "IPv6" : p == IPPROTO_ROUTING ? "ROUTE" :
	p == IPPROTO_ESP ? "ESP" : p == IPPROTO_AH ? "AH" :
	p == IPPROTO_ICMPV6 ? "ICMPv6" : p == IPPROTO_OSPF ? "OSPF" :
	p == IPPROTO_SCTP ? "SCTP" : p == IPPROTO_RAW ? "RAW" :
	lltostr(p);

/*
 * The ip provider's packets (os/linux/prov/dt_prov_ip.c): the struct
 * sk_buff, and its IP header, an IPv4 or IPv6 one as its first four bits
 * say (the native type is struct iphdr * for both).
 */
translator pktinfo_t < struct sk_buff *S > {
	pkt_addr = 0;
};

translator csinfo_t < struct sk_buff *S > {
	cs_addr = (uintptr_t)S->sk;
	cs_cid = (uint64_t)S->sk;
	cs_pid = 0;		/* a device sends and receives for no process */
	cs_zoneid = 0;
};

translator ipinfo_t < struct iphdr *I > {
	ip_ver = *(uint8_t *)I >> 4;
	ip_plength = *(uint8_t *)I >> 4 == 6 ?
	    ntohs(((struct ipv6hdr *)I)->payload_len) :
	    ntohs(I->tot_len) - ((*(uint8_t *)I & 0xf) << 2);
	ip_saddr = *(uint8_t *)I >> 4 == 6 ?
	    inet_ntoa6(&((struct ipv6hdr *)I)->saddr) : inet_ntoa(&I->saddr);
	ip_daddr = *(uint8_t *)I >> 4 == 6 ?
	    inet_ntoa6(&((struct ipv6hdr *)I)->daddr) : inet_ntoa(&I->daddr);
};

/* Loopback devices (IFF_LOOPBACK) deliver locally. */
translator ifinfo_t < struct sk_buff *S > {
	if_name = S->dev != 0 ? stringof(S->dev->name) : "<null>";
	if_local = S->dev != 0 ? (S->dev->flags & 0x8) != 0 : -1;
	if_ipstack = S->dev != 0 ? S->dev->nd_net.net->ns.inum : 0;
	if_addr = (uintptr_t)S->dev;
};

translator ipv4info_t < struct iphdr *I > {
	ipv4_ver = *(uint8_t *)I >> 4;
	ipv4_ihl = (*(uint8_t *)I & 0xf) << 2;
	ipv4_tos = I->tos;
	ipv4_length = ntohs(I->tot_len);
	ipv4_ident = ntohs(I->id);
	ipv4_flags = ntohs(I->frag_off) >> 12;
	ipv4_offset = ntohs(I->frag_off) & 0x1fff;
	ipv4_ttl = I->ttl;
	ipv4_protocol = I->protocol;
	ipv4_protostr = dt_ipproto_str[I->protocol];
	ipv4_checksum = ntohs(I->check);
	ipv4_src = I->saddr;
	ipv4_dst = I->daddr;
	ipv4_saddr = inet_ntoa(&I->saddr);
	ipv4_daddr = inet_ntoa(&I->daddr);
	ipv4_hdr = I;
};

translator ipv6info_t < struct ipv6hdr *I > {
	ipv6_ver = *(uint8_t *)I >> 4;
	ipv6_tclass = (ntohl(*(uint32_t *)I) >> 20) & 0xff;
	ipv6_flow = ntohl(*(uint32_t *)I) & 0xfffff;
	ipv6_plen = ntohs(I->payload_len);
	ipv6_nexthdr = I->nexthdr;
	ipv6_nextstr = dt_ipproto_str[I->nexthdr];
	ipv6_hlim = I->hop_limit;
	ipv6_src = &I->saddr;
	ipv6_dst = &I->daddr;
	ipv6_saddr = inet_ntoa6(&I->saddr);
	ipv6_daddr = inet_ntoa6(&I->daddr);
	ipv6_hdr = I;
};

/*
 * A TCP segment's header (tcp:::send and tcp:::receive): the data
 * offset and flags are the bytes 12 and 13 of the header.
 */
translator tcpinfo_t < struct tcphdr *T > {
	tcp_sport = ntohs(T->source);
	tcp_dport = ntohs(T->dest);
	tcp_seq = ntohl(T->seq);
	tcp_ack = ntohl(T->ack_seq);
	tcp_offset = (*((uint8_t *)T + 12) >> 4) << 2;
	tcp_flags = *((uint8_t *)T + 13);
	tcp_window = ntohs(T->window);
	tcp_checksum = ntohs(T->check);
	tcp_urgent = ntohs(T->urg_ptr);
	tcp_hdr = T;
};

/*
 * The handshake segments at tcp:::connect-request (the SYN the local end
 * sends: new state SYN_SENT), connect-established (the SYN-ACK it
 * receives: old state SYN_SENT) and accept-established (the ACK a
 * listener's new connection receives: old state SYN_RECV), from the
 * state change's record as those probes pass it.  The segment is not
 * traced there, so it is described from its socket: addresses and ports
 * from the socket's ends in the segment's direction (only the SYN goes
 * out), the header without options (20 bytes), and the sequence numbers
 * the socket knows by then (a SYN's is chosen after the state change: 0).
 */
translator ipinfo_t < dt_inet_sock_set_state_t *P > {
	ip_ver = P->skaddr->__sk_common.skc_family == AF_INET6 ? 6 : 4;
	ip_plength = 20;
	ip_saddr = P->newstate == 2 ? xlate<tcpsinfo_t *>(P)->tcps_laddr :
	    xlate<tcpsinfo_t *>(P)->tcps_raddr;
	ip_daddr = P->newstate == 2 ? xlate<tcpsinfo_t *>(P)->tcps_raddr :
	    xlate<tcpsinfo_t *>(P)->tcps_laddr;
};

translator tcpinfo_t < dt_inet_sock_set_state_t *P > {
	tcp_sport = P->newstate == 2 ? xlate<tcpsinfo_t *>(P)->tcps_lport :
	    xlate<tcpsinfo_t *>(P)->tcps_rport;
	tcp_dport = P->newstate == 2 ? xlate<tcpsinfo_t *>(P)->tcps_rport :
	    xlate<tcpsinfo_t *>(P)->tcps_lport;
	tcp_seq = P->newstate == 2 ? 0 :
	    ((struct tcp_sock *)P->skaddr)->rcv_nxt -
	    (P->oldstate == 2 ? 1 : 0);
	tcp_ack = P->newstate == 2 ? 0 :
	    ((struct tcp_sock *)P->skaddr)->snd_una;
	tcp_offset = 20;
	tcp_flags = P->newstate == 2 ? TH_SYN :
	    P->oldstate == 2 ? TH_SYN | TH_ACK : TH_ACK;
	tcp_window = 0;
	tcp_checksum = 0;
	tcp_urgent = 0;
	tcp_hdr = 0;
};

/*
 * tcp:::connect-refused: the reset that refused a connection this end
 * asked for (its socket still in SYN_SENT).  The kernel traces it with
 * the socket only, so the arguments describe the reset as the peer made
 * it to answer the SYN: from the remote end to the local one, sequence
 * number 0, acknowledging the SYN (the socket's next sequence number),
 * header 20 bytes and no data.  The native argument is the struct sock.
 */
typedef struct dt_tcp_reset {
	uint8_t rs_sk;		/* stands for the struct sock */
} dt_tcp_reset_t;

translator ipinfo_t < dt_tcp_reset_t *P > {
	ip_ver = ((struct sock *)P)->__sk_common.skc_family == AF_INET6 ?
	    6 : 4;
	ip_plength = 20;
	ip_saddr = xlate<tcpsinfo_t *>((struct sock *)P)->tcps_raddr;
	ip_daddr = xlate<tcpsinfo_t *>((struct sock *)P)->tcps_laddr;
};

translator tcpinfo_t < dt_tcp_reset_t *P > {
	tcp_sport = xlate<tcpsinfo_t *>((struct sock *)P)->tcps_rport;
	tcp_dport = xlate<tcpsinfo_t *>((struct sock *)P)->tcps_lport;
	tcp_seq = 0;
	tcp_ack = ((struct tcp_sock *)P)->snd_nxt;
	tcp_offset = 20;
	tcp_flags = TH_RST | TH_ACK;
	tcp_window = 0;
	tcp_checksum = 0;
	tcp_urgent = 0;
	tcp_hdr = 0;		/* the reset's buffer is not traced */
};

/*
 * tcp:::accept-refused: a connection request (a SYN) that found no
 * socket, which the kernel answers with a reset.  The native argument is
 * the request's struct sk_buff; the arguments describe the reset, made
 * from the request: its addresses and ports swapped, sequence number 0,
 * acknowledging the SYN (one that carries no data), header 20 bytes.
 * The (closed) local end is the request's destination.
 */
typedef struct dt_tcp_refused {
	uint8_t rf_skb;		/* stands for the struct sk_buff */
} dt_tcp_refused_t;

translator ipinfo_t < dt_tcp_refused_t *P > {
	ip_ver = *(uint8_t *)(((struct sk_buff *)P)->head +
	    ((struct sk_buff *)P)->network_header) >> 4;
	ip_plength = 20;
	ip_saddr = xlate<ipinfo_t *>((struct iphdr *)
	    (((struct sk_buff *)P)->head +
	    ((struct sk_buff *)P)->network_header))->ip_daddr;
	ip_daddr = xlate<ipinfo_t *>((struct iphdr *)
	    (((struct sk_buff *)P)->head +
	    ((struct sk_buff *)P)->network_header))->ip_saddr;
};

translator tcpinfo_t < dt_tcp_refused_t *P > {
	tcp_sport = ntohs(((struct tcphdr *)(((struct sk_buff *)P)->head +
	    ((struct sk_buff *)P)->transport_header))->dest);
	tcp_dport = ntohs(((struct tcphdr *)(((struct sk_buff *)P)->head +
	    ((struct sk_buff *)P)->transport_header))->source);
	tcp_seq = 0;
	tcp_ack = ntohl(((struct tcphdr *)(((struct sk_buff *)P)->head +
	    ((struct sk_buff *)P)->transport_header))->seq) + 1;
	tcp_offset = 20;
	tcp_flags = TH_RST | TH_ACK;
	tcp_window = 0;
	tcp_checksum = 0;
	tcp_urgent = 0;
	tcp_hdr = 0;		/* the reset is not made yet */
};

translator tcpsinfo_t < dt_tcp_refused_t *P > {
	tcps_addr = 0;
	tcps_local = 0;
	tcps_active = 0;
	tcps_lport = xlate<tcpinfo_t *>(P)->tcp_sport;
	tcps_rport = xlate<tcpinfo_t *>(P)->tcp_dport;
	tcps_laddr = xlate<ipinfo_t *>(P)->ip_saddr;
	tcps_raddr = xlate<ipinfo_t *>(P)->ip_daddr;
	tcps_state = TCP_STATE_CLOSED;
	tcps_iss = 0;
	tcps_suna = 0;
	tcps_snxt = 0;
	tcps_rack = 0;
	tcps_rnxt = 0;
	tcps_swnd = 0;
	tcps_snd_ws = 0;
	tcps_rwnd = 0;
	tcps_rcv_ws = 0;
	tcps_cwnd = 0;
	tcps_cwnd_ssthresh = 0;
	tcps_sack_fack = 0;
	tcps_sack_snxt = 0;
	tcps_rto = 0;
	tcps_mss = 0;
	tcps_retransmit = 0;
};
