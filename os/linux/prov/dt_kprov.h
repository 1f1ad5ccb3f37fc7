/* SPDX-License-Identifier: MIT */
/*
 * dt_kprov.h: DTrace's stable kernel providers (io, ip, tcp, udp,
 * lockstat) made from tables: each probe is one kernel event
 * (dt_kevent.h) whose arguments are said symbolically -- a raw
 * tracepoint argument, a tracepoint field found by name in the event's
 * format file, the address of a tracepoint's record from a field, a
 * member of a kernel struct another argument points to (found by name
 * in the kernel's BTF, so no layout is assumed), a sum of arguments --
 * with
 * the D types they have and the stable types they are translated to by
 * the translators of os/linux/lib (io.d, net.d).
 *
 * A provider file holds one table of dt_kprov_probe_t and registers it
 * with dt_kprov_register().  Probes whose kernel event is missing are
 * not listed; the recipes are found on first use of each probe (a
 * format file read), so listing costs one stat() per probe.
 */
#ifndef DT_KPROV_H
#define DT_KPROV_H

#include <stdint.h>

#include "os/linux/prov/dt_kevent.h"

typedef struct dtrace_hdl dtrace_hdl_t;

/* Where an argument's value comes from. */
typedef enum dt_kprov_src {
	DT_KPROV_ZERO,		/* 0: Linux does not say */
	DT_KPROV_RAW,		/* RAWTP: TP_PROTO argument ks_index */
	DT_KPROV_ADDR,		/* TP: the address of field ks_field: the
				   record from there, as a struct the D
				   library declares */
	DT_KPROV_FIELD,		/* TP: field ks_field, ks_size bytes from
				   its offset if not 0 (two adjacent ints
				   read as one 64-bit word) */
	DT_KPROV_CURTASK,	/* the current task */
	DT_KPROV_MEMBER,	/* member ks_field of struct ks_sou that
				   argument ks_index points to, found by name
				   in the kernel's BTF (its size, unless
				   ks_size) */
	DT_KPROV_SUM,		/* ks_off plus the arguments in ks_mask
				   (DT_KEVENT_ARGBIT): an address in parts,
				   or a copy of one argument */
	DT_KPROV_MEM,		/* ks_size bytes of kernel memory there (a
				   byte of a wire format: no kernel layout) */
} dt_kprov_src_t;

typedef struct dt_kprov_arg {
	dt_kprov_src_t ks_src;
	uint8_t ks_index;	/* RAW; MEMBER: the argument pointing */
	uint8_t ks_size;	/* FIELD, MEMBER: 0 = the field's own size;
				   MEM: 1, 2, 4 or 8 */
	const char *ks_field;	/* FIELD, MEMBER */
	const char *ks_sou;	/* MEMBER: "sk_buff" (a struct) */
	uint16_t ks_mask;	/* SUM, MEM */
	uint32_t ks_off;	/* SUM, MEM */
	const char *ks_check;	/* FIELD, ADDR: a field that must be */
	uint8_t ks_checkoff;	/* ks_checkoff bytes after ks_field */
	const char *ks_native;	/* its D type; NULL: a hidden argument,
				   computed for a filter, not in args[] */
	const char *ks_xlate;	/* the stable type, or NULL */
} dt_kprov_arg_t;

typedef struct dt_kprov_filt {
	dt_kevent_filt_t kf_op;	/* NONE: no condition */
	uint8_t kf_arg;		/* the argument (by its index) tested */
	uint64_t kf_mask;	/* not 0: the argument & kf_mask is */
	int64_t kf_val;
} dt_kprov_filt_t;

/* The conditions of a row: ke_filt, then ke_conds[]. */
#define DT_KPROV_MAXFILT	(1 + DT_KEVENT_MAXCONDS)

typedef struct dt_kprov_probe {
	const char *kp_name;	/* "state-change" */
	const char *kp_func;	/* its function part, NULL: "" (one
				   name on several events: ip:::send on
				   IPv4 and on IPv6 packets) */
	const char *kp_need;	/* NULL, or a field the event's format
				   must have for the probe to be listed */
	dt_kevent_kind_t kp_kind;
	const char *kp_group;	/* "sock" */
	const char *kp_event;	/* "inet_sock_set_state" */
	dt_kprov_arg_t kp_args[DT_KEVENT_MAXARGS]; /* typed ones first */
	dt_kprov_filt_t kp_filt[DT_KPROV_MAXFILT]; /* all must hold */
} dt_kprov_probe_t;

/* Table rows' arguments, briefly. */
#define DT_KPROV_A_RAW(i, native, xl) \
	{ .ks_src = DT_KPROV_RAW, .ks_index = (i), .ks_native = (native), \
	  .ks_xlate = (xl) }
/* The record from field f, whose field c must be off bytes after f. */
#define DT_KPROV_A_ADDR(f, c, off, native, xl) \
	{ .ks_src = DT_KPROV_ADDR, .ks_field = (f), .ks_check = (c), \
	  .ks_checkoff = (off), .ks_native = (native), .ks_xlate = (xl) }
#define DT_KPROV_A_FIELD(f, native, xl) \
	{ .ks_src = DT_KPROV_FIELD, .ks_field = (f), .ks_native = (native), \
	  .ks_xlate = (xl) }
/* A hidden argument for a filter: field f. */
#define DT_KPROV_A_TEST(f) { .ks_src = DT_KPROV_FIELD, .ks_field = (f) }
/* The same, two adjacent 32-bit fields f and c as one 64-bit word. */
#define DT_KPROV_A_TEST2(f, c) \
	{ .ks_src = DT_KPROV_FIELD, .ks_field = (f), .ks_size = 8, \
	  .ks_check = (c), .ks_checkoff = 4 }
/* Member f of struct sou at argument i (a pointer), and hidden. */
#define DT_KPROV_A_MEMBER(i, sou, f, native, xl) \
	{ .ks_src = DT_KPROV_MEMBER, .ks_index = (i), .ks_sou = (sou), \
	  .ks_field = (f), .ks_native = (native), .ks_xlate = (xl) }
#define DT_KPROV_A_MTEST(i, sou, f) DT_KPROV_A_MEMBER(i, sou, f, NULL, NULL)
/* The sum of the arguments in mask m, plus off; and hidden. */
#define DT_KPROV_A_SUM(m, off, native, xl) \
	{ .ks_src = DT_KPROV_SUM, .ks_mask = (m), .ks_off = (off), \
	  .ks_native = (native), .ks_xlate = (xl) }
#define DT_KPROV_A_HSUM(m) DT_KPROV_A_SUM(m, 0, NULL, NULL)
/* Hidden: size bytes at the sum of the arguments in mask m, plus off. */
#define DT_KPROV_A_HMEM(m, off, size) \
	{ .ks_src = DT_KPROV_MEM, .ks_mask = (m), .ks_off = (off), \
	  .ks_size = (size) }
/* The same value as argument i. */
#define DT_KPROV_A_COPY(i, native, xl) \
	DT_KPROV_A_SUM(DT_KEVENT_ARGBIT(i), 0, native, xl)
/* An argument of D type native, 0 here (the other family's header). */
#define DT_KPROV_A_ZERO(native, xl) \
	{ .ks_src = DT_KPROV_ZERO, .ks_native = (native), .ks_xlate = (xl) }
/* An argument Linux cannot give: "void *", always 0. */
#define DT_KPROV_A_NONE { .ks_src = DT_KPROV_ZERO, .ks_native = "void *" }
#define DT_KPROV_F(arg, op, val) \
	{ .kf_op = DT_KEVENT_FILT_##op, .kf_arg = (arg), .kf_val = (val) }
/* Argument arg & mask compared with val. */
#define DT_KPROV_FM(arg, mask, op, val) \
	{ .kf_op = DT_KEVENT_FILT_##op, .kf_arg = (arg), .kf_mask = (mask), \
	  .kf_val = (val) }

/*
 * Packets (the ip and tcp providers): a struct sk_buff's members, and
 * the values of its protocol (the Ethernet type, big-endian) as a
 * 16-bit load reads them on this machine.
 */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define DT_KPROV_BE16(x)	((((x) & 0xff) << 8) | (((x) >> 8) & 0xff))
#else
#define DT_KPROV_BE16(x)	(x)
#endif
#define DT_KPROV_ETH_P_IP	DT_KPROV_BE16(0x0800)
#define DT_KPROV_ETH_P_IPV6	DT_KPROV_BE16(0x86dd)
/* Member f of the sk_buff that argument i points to, hidden. */
#define DT_KPROV_A_SKB(i, f)	DT_KPROV_A_MTEST(i, "sk_buff", f)

typedef struct dt_kprov {
	const char *kv_name;	/* "tcp" */
	const dt_kprov_probe_t *kv_probes;
	int kv_nprobes;
} dt_kprov_t;

/*
 * Register a stable provider: its probes are vmlinux::<name>, with the
 * stability DTrace gives these providers (Evolving names and arguments,
 * ISA dependency class).  0, or -1 with the handle's error set.
 */
extern int dt_kprov_register(dtrace_hdl_t *dtp, const dt_kprov_t *kv);

#endif /* DT_KPROV_H */
