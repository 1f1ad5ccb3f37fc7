/* SPDX-License-Identifier: MIT */
/*
 * dt_prov_udp.c: the udp provider -- datagrams sent and received through
 * UDP sockets, with DTrace's stable argument types (os/linux/lib/net.d).
 *
 *	udp:vmlinux::send	sock:sock_send_length, protocol UDP, no
 *				error: a sendmsg() sent a datagram
 *	udp:vmlinux::receive	sock:sock_recv_length, protocol UDP, no
 *				error: a recvmsg() received one
 *
 * Tracepoints (perf, the event's record) filtered in the kernel on the
 * record's protocol and result.  args[1] csinfo_t * and args[3]
 * udpsinfo_t * are the socket's; args[4] udpinfo_t * is the datagram's
 * ports and length (from the socket and the call's result: the record's
 * first fields, dt_sock_send_length_t and dt_sock_recv_length_t in
 * net.d, their layout checked against the event's format).  The packet
 * (args[0] pktinfo_t *, args[2] ipinfo_t *) is not known at the socket:
 * "void *" (0).
 */
#include "os/linux/prov/dt_kprov.h"
#include "os/linux/prov/dt_linux_prov.h"

#define DT_IPPROTO_UDP	17

#define DT_UDP_PROBE(name, event, rec) \
	{ .kp_name = (name), .kp_kind = DT_KEVENT_TP, .kp_group = "sock", \
	  .kp_event = (event), .kp_args = { DT_KPROV_A_NONE, \
	  DT_KPROV_A_FIELD("sk", "struct sock *", "csinfo_t *"), \
	  DT_KPROV_A_NONE, \
	  DT_KPROV_A_FIELD("sk", "struct sock *", "udpsinfo_t *"), \
	  DT_KPROV_A_ADDR("sk", "ret", 12, rec, "udpinfo_t *"), \
	  DT_KPROV_A_TEST("protocol"), DT_KPROV_A_TEST("ret") }, \
	  .kp_filt = { DT_KPROV_F(5, EQ, DT_IPPROTO_UDP), \
	  DT_KPROV_F(6, GE, 0) } }

static const dt_kprov_probe_t dt_udp_probes[] = {
	DT_UDP_PROBE("send", "sock_send_length", "dt_sock_send_length_t *"),
	DT_UDP_PROBE("receive", "sock_recv_length", "dt_sock_recv_length_t *"),
};

static const dt_kprov_t dt_udp_prov = {
	"udp", dt_udp_probes, sizeof (dt_udp_probes) / sizeof (dt_udp_probes[0])
};

int
dt_prov_udp_init(dtrace_hdl_t *dtp)
{
	return dt_kprov_register(dtp, &dt_udp_prov);
}
