/*
 * net.d: the stable types of the ip, tcp and udp providers as DTrace
 * defines them -- pktinfo_t, csinfo_t, ipinfo_t, tcpsinfo_t,
 * tcplsinfo_t, udpsinfo_t, udpinfo_t, and conninfo_t -- the TCP state
 * constants, and their translators from the Linux kernel's struct sock
 * and from the tracepoint records the providers pass
 * (os/linux/prov/dt_prov_tcp.c, dt_prov_udp.c).
 *
 * What Linux cannot give is 0 (or "<unknown>"), and dtrace -lv shows an
 * argument no kernel event provides as "void *":
 *   - csinfo_t: cs_cid is the socket's address, cs_pid 0;
 *   - tcpsinfo_t: the sequence numbers, windows' scales, tcps_rto and
 *     tcps_retransmit are 0, tcps_active is 0 (the kernel does not keep
 *     which side opened);
 *   - the address strings need inet_ntoa() and inet_ntoa6() in the
 *     engine running the script.
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
	uint32_t ip_plength;		/* payload length */
	string ip_saddr;		/* source address */
	string ip_daddr;		/* destination address */
} ipinfo_t;

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

inline int AF_INET = 2;
inline int AF_INET6 = 10;

inline int32_t TCP_STATE_CLOSED = 0;
inline int32_t TCP_STATE_IDLE = 1;
inline int32_t TCP_STATE_BOUND = 2;
inline int32_t TCP_STATE_LISTEN = 3;
inline int32_t TCP_STATE_SYN_SENT = 4;
inline int32_t TCP_STATE_SYN_RECEIVED = 5;
inline int32_t TCP_STATE_ESTABLISHED = 6;
inline int32_t TCP_STATE_CLOSE_WAIT = 7;
inline int32_t TCP_STATE_FIN_WAIT_1 = 8;
inline int32_t TCP_STATE_CLOSING = 9;
inline int32_t TCP_STATE_LAST_ACK = 10;
inline int32_t TCP_STATE_FIN_WAIT_2 = 11;
inline int32_t TCP_STATE_TIME_WAIT = 12;

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
 * DTrace numbers them, four bits per state: state S is
 * (dt_tcp_state_map >> 4 * S) & 0xf.
 */
inline uint64_t dt_tcp_state_map = 0x593a70cb85460;

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
	tcps_state = S->__sk_common.skc_state <= 12 ?
	    (dt_tcp_state_map >> 4 * S->__sk_common.skc_state) & 0xf : 0;
	tcps_iss = 0;
	tcps_suna = 0;
	tcps_snxt = 0;
	tcps_rack = 0;
	tcps_rnxt = 0;
	tcps_swnd = ((struct tcp_sock *)S)->snd_wnd;
	tcps_snd_ws = 0;
	tcps_rwnd = 0;
	tcps_rcv_ws = 0;
	tcps_cwnd = ((struct tcp_sock *)S)->snd_cwnd;
	tcps_cwnd_ssthresh = 0;
	tcps_sack_fack = 0;
	tcps_sack_snxt = 0;
	tcps_rto = 0;
	tcps_mss = ((struct tcp_sock *)S)->mss_cache;
	tcps_retransmit = 0;
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
	tcps_state = P->newstate >= 0 && P->newstate <= 12 ?
	    (dt_tcp_state_map >> 4 * P->newstate) & 0xf : 0;
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
	tcps_state = S >= 0 && S <= 12 ? (dt_tcp_state_map >> 4 * S) & 0xf : 0;
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
