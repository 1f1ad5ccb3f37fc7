/*
 * dt_prov_tcp.c: the tcp provider -- TCP connections' state changes and
 * their opening, from the socket state tracepoint, and segments received,
 * with DTrace's stable argument types (os/linux/lib/net.d).
 *
 *	tcp:vmlinux::state-change	sock:inet_sock_set_state, protocol
 *					TCP: every state change
 *	tcp:vmlinux::connect-request	... to SYN_SENT: a SYN sent by
 *					connect()
 *	tcp:vmlinux::connect-established ... SYN_SENT to ESTABLISHED
 *	tcp:vmlinux::connect-refused	... SYN_SENT to CLOSE: refused
 *					(or given up)
 *	tcp:vmlinux::accept-established	... SYN_RECV to ESTABLISHED: a
 *					connection to a listener completed
 *	tcp:vmlinux::receive		tcp:tcp_probe: a segment arrived on
 *					an established connection
 *
 * The state probes are tracepoints (perf, the event's record), filtered
 * in the kernel on the record's protocol and its old and new states
 * (read as one 64-bit word).  Their arguments are DTrace's: args[1]
 * csinfo_t *, args[3] tcpsinfo_t * (the new state), and for
 * state-change args[5] tcplsinfo_t * (the old one, translated from
 * the record's oldstate field), from the record's first fields
 * (dt_inet_sock_set_state_t in net.d, its layout checked against the
 * event's format); the packet they would describe (args[0] pktinfo_t *,
 * args[2] ipinfo_t *, args[4] tcpinfo_t *) is not known
 * there, and they are "void *" (0).  receive's args are from the
 * socket; its packet arguments are "void *" likewise.
 *
 * Not listed: send, and accept-refused (no tracepoint sees every
 * segment sent, nor a SYN refused).
 */
#include "os/linux/prov/dt_kprov.h"
#include "os/linux/prov/dt_linux_prov.h"

#define DT_TCP_REC "dt_inet_sock_set_state_t *"
#define DT_TCP_STATE(xl) \
	DT_KPROV_A_ADDR("skaddr", "newstate", 12, DT_TCP_REC, xl)

/* The typed arguments, then the protocol and the old|new state word. */
#define DT_TCP_CONN_ARGS { \
	DT_KPROV_A_NONE, DT_TCP_STATE("csinfo_t *"), DT_KPROV_A_NONE, \
	DT_TCP_STATE("tcpsinfo_t *"), DT_KPROV_A_NONE, \
	DT_KPROV_A_TEST("protocol"), DT_KPROV_A_TEST2("oldstate", "newstate"), \
	DT_KPROV_A_TEST("newstate"), \
}

/* Linux's TCP states (include/net/tcp_states.h) and IPPROTO_TCP. */
#define DT_TCP_ESTABLISHED	1LL
#define DT_TCP_SYN_SENT		2LL
#define DT_TCP_SYN_RECV		3LL
#define DT_TCP_CLOSE		7LL
#define DT_IPPROTO_TCP		6
#define DT_TCP_MOVE(from, to)	((to) << 32 | (from))

#define DT_TCP_PROBE(name, arg, val) \
	{ .kp_name = (name), .kp_kind = DT_KEVENT_TP, .kp_group = "sock", \
	  .kp_event = "inet_sock_set_state", .kp_args = DT_TCP_CONN_ARGS, \
	  .kp_filt = { DT_KPROV_F(5, EQ, DT_IPPROTO_TCP), \
	  DT_KPROV_F(arg, EQ, val) } }

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
	DT_TCP_PROBE("connect-refused", 6,
	    DT_TCP_MOVE(DT_TCP_SYN_SENT, DT_TCP_CLOSE)),
	DT_TCP_PROBE("accept-established", 6,
	    DT_TCP_MOVE(DT_TCP_SYN_RECV, DT_TCP_ESTABLISHED)),
	{ .kp_name = "receive", .kp_kind = DT_KEVENT_TP,
	  .kp_group = "tcp", .kp_event = "tcp_probe",
	  .kp_args = { DT_KPROV_A_NONE,
	  DT_KPROV_A_FIELD("skaddr", "struct sock *", "csinfo_t *"),
	  DT_KPROV_A_NONE,
	  DT_KPROV_A_FIELD("skaddr", "struct sock *", "tcpsinfo_t *"),
	  DT_KPROV_A_NONE } },
};

static const dt_kprov_t dt_tcp_prov = {
	"tcp", dt_tcp_probes, sizeof (dt_tcp_probes) / sizeof (dt_tcp_probes[0])
};

int
dt_prov_tcp_init(dtrace_hdl_t *dtp)
{
	return dt_kprov_register(dtp, &dt_tcp_prov);
}
