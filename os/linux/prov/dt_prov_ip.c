/* SPDX-License-Identifier: MIT */
/*
 * dt_prov_ip.c: the ip provider -- IPv4 and IPv6 packets sent and
 * received by the network devices (loopback too), with DTrace's stable
 * argument types (os/linux/lib/net.d).
 *
 *	ip:vmlinux:ipv4:send	raw net_dev_queue(struct sk_buff *), the
 *	ip:vmlinux:ipv6:send	skb's protocol ETH_P_IP (ETH_P_IPV6): a
 *				packet is queued to a device to be sent
 *	ip:vmlinux:ipv4:receive	raw netif_receive_skb(struct sk_buff *),
 *	ip:vmlinux:ipv6:receive	the same filter: a device passes a
 *				received packet to the protocols
 *
 * One name on two probes, one per IP version, as the filters the kernel
 * event probes run are conjunctions (dt_kevent.h): so ip:::send matches
 * two probes, as it matches several on other systems.  Forwarded packets
 * are seen too; a packet the device segments (GSO, TSO) is seen once,
 * before it is.
 *
 * Every argument is read from the sk_buff (members found by name in
 * the kernel's BTF, dt_kprov.h): args[0] pktinfo_t *, args[1] csinfo_t *
 * and args[3] ifinfo_t * are the sk_buff; args[2] ipinfo_t * is the IP
 * header, at the buffer's head plus its network_header offset when sent
 * (the IP layer set it), at its data when received (the device has just
 * pulled the link header, and network_header is set only after this
 * tracepoint); args[4] ipv4info_t * is the same header for IPv4 and 0
 * for IPv6, args[5] ipv6info_t * the reverse.
 */
#include "os/linux/prov/dt_kprov.h"
#include "os/linux/prov/dt_linux_prov.h"

#define DT_IP_HDR	"struct iphdr *"
#define DT_IP6_HDR	"struct ipv6hdr *"

/* The IPv4 header, or 0; the IPv6 header, or 0 (args[4], args[5]). */
#define DT_IP_V4	DT_KPROV_A_COPY(2, DT_IP_HDR, "ipv4info_t *")
#define DT_IP_NOV4	DT_KPROV_A_ZERO(DT_IP_HDR, "ipv4info_t *")
#define DT_IP_V6	DT_KPROV_A_COPY(2, DT_IP6_HDR, "ipv6info_t *")
#define DT_IP_NOV6	DT_KPROV_A_ZERO(DT_IP6_HDR, "ipv6info_t *")

/* Sent: the header at skb->head + skb->network_header (args 7 and 8). */
#define DT_IP_TXHDR \
	DT_KPROV_A_SUM(DT_KEVENT_ARGBIT(7) | DT_KEVENT_ARGBIT(8), 0, \
	    DT_IP_HDR, "ipinfo_t *")
/* Received: the header at skb->data. */
#define DT_IP_RXHDR \
	DT_KPROV_A_MEMBER(0, "sk_buff", "data", DT_IP_HDR, "ipinfo_t *")

/*
 * args[0..5] (hdr: the IP header's recipe; a4, a5: the two versions'),
 * then the hidden skb->protocol (filtered on), head and network_header.
 */
#define DT_IP_PROBE(name, func, event, hdr, a4, a5, proto) \
	{ .kp_name = (name), .kp_func = (func), .kp_kind = DT_KEVENT_RAWTP, \
	  .kp_group = "net", .kp_event = (event), .kp_args = { \
	  DT_KPROV_A_RAW(0, "struct sk_buff *", "pktinfo_t *"), \
	  DT_KPROV_A_RAW(0, "struct sk_buff *", "csinfo_t *"), hdr, \
	  DT_KPROV_A_RAW(0, "struct sk_buff *", "ifinfo_t *"), a4, a5, \
	  DT_KPROV_A_SKB(0, "protocol"), DT_KPROV_A_SKB(0, "head"), \
	  DT_KPROV_A_SKB(0, "network_header") }, \
	  .kp_filt = { DT_KPROV_F(6, EQ, proto) } }

static const dt_kprov_probe_t dt_ip_probes[] = {
	DT_IP_PROBE("send", "ipv4", "net_dev_queue", DT_IP_TXHDR, DT_IP_V4,
	    DT_IP_NOV6, DT_KPROV_ETH_P_IP),
	DT_IP_PROBE("send", "ipv6", "net_dev_queue", DT_IP_TXHDR, DT_IP_NOV4,
	    DT_IP_V6, DT_KPROV_ETH_P_IPV6),
	DT_IP_PROBE("receive", "ipv4", "netif_receive_skb", DT_IP_RXHDR,
	    DT_IP_V4, DT_IP_NOV6, DT_KPROV_ETH_P_IP),
	DT_IP_PROBE("receive", "ipv6", "netif_receive_skb", DT_IP_RXHDR,
	    DT_IP_NOV4, DT_IP_V6, DT_KPROV_ETH_P_IPV6),
};

static const dt_kprov_t dt_ip_prov = {
	"ip", dt_ip_probes, sizeof (dt_ip_probes) / sizeof (dt_ip_probes[0])
};

int
dt_prov_ip_init(dtrace_hdl_t *dtp)
{
	return dt_kprov_register(dtp, &dt_ip_prov);
}
