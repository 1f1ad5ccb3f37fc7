/* SPDX-License-Identifier: MIT */
/*
 * dt_kevent.h: kernel event probes -- the one interface every provider
 * built on kernel tracepoints uses (sdt, rawtp, and the stable proc,
 * sched, io, ip/tcp/udp, lockstat providers), and that the BPF engine
 * plans, generates and attaches without knowing which provider made the
 * probe.
 *
 * A kernel event probe fires on one kernel event, of one of two kinds:
 *
 *	DT_KEVENT_TP	a tracepoint through perf (tracefs events/<group>/
 *			<event>/id): the program's context is the event's
 *			format record, whose fields the format file
 *			describes (offset, size, signedness)
 *	DT_KEVENT_RAWTP	a raw tracepoint (bpf(BPF_RAW_TRACEPOINT_OPEN) by
 *			event name): the context is the event's TP_PROTO
 *			arguments as an array of 64-bit words, as the
 *			kernel's btf_trace_<event> typedef describes them
 *
 * or of one of four more on a kernel function (the fbt provider), where
 * ke_group is the module ("vmlinux" for the kernel itself) and ke_event
 * the function:
 *
 *	DT_KEVENT_FENTRY	an fentry tracing program (attach_btf_id:
 *				ke_btf_id, in the module's BTF): the context
 *				is the function's arguments, one 64-bit
 *				word each (two for a 9-16 byte struct)
 *	DT_KEVENT_FEXIT		fexit: the same words, then the return
 *				value
 *	DT_KEVENT_KPROBE	a kprobe perf event on the function: the
 *				context is struct pt_regs at its entry
 *	DT_KEVENT_KRETPROBE	a kretprobe: struct pt_regs as it returns
 *
 * so RAW recipes read a word of an array context (FENTRY, FEXIT) or a
 * register of pt_regs (KPROBE, KRETPROBE: ka_index = its byte offset / 8),
 * and RAWMEM memory it points to (the stack, through pt_regs' sp).
 *
 * and says, per argument N (arg0..arg9, at most DT_KEVENT_MAXARGS), how
 * the value is obtained -- a recipe, dt_kevent_arg_t:
 *
 *	DT_KEVENT_ARG_ZERO	0
 *	DT_KEVENT_ARG_CONST	ka_val
 *	DT_KEVENT_ARG_FIELD	TP: the record field at ka_off, ka_size
 *				bytes (1, 2, 4, 8), sign-extended when
 *				ka_signed
 *	DT_KEVENT_ARG_ADDR	TP: the address of the record field at
 *				ka_off (a char array: "char comm[16]")
 *	DT_KEVENT_ARG_DATALOC	TP: the address of the bytes of a
 *				__data_loc field (its 32-bit word at ka_off
 *				holds their offset in the record in the low
 *				16 bits)
 *	DT_KEVENT_ARG_RAW	RAWTP: TP_PROTO argument ka_index, cut to
 *				ka_size bytes (8: all of it) and sign- or
 *				zero-extended
 *	DT_KEVENT_ARG_RAWMEM	RAWTP: kernel memory at TP_PROTO argument
 *				ka_index plus ka_off, ka_size bytes (a
 *				member of a struct the argument points to);
 *				0 when unreadable
 *	DT_KEVENT_ARG_CURTASK	the current task (struct task_struct *)
 *	DT_KEVENT_ARG_CURMEM	kernel memory at the current task plus
 *				ka_off, ka_size bytes (a member of its
 *				task_struct); 0 when unreadable
 *	DT_KEVENT_ARG_USTR	TP: the user string whose address is the
 *				8-byte record field at ka_off (a system
 *				call's path), copied while the probe fires
 *				into a buffer of its own (strsize bytes,
 *				"" when unreadable): the argument is the
 *				copy's address, so it is a D string
 *	DT_KEVENT_ARG_SUM	ka_off plus the arguments whose bits are set
 *				in ka_val (bit N: argument N): an address
 *				made of parts (an sk_buff's head plus its
 *				network_header), or a copy of one argument
 *	DT_KEVENT_ARG_DEREF	kernel memory at that sum, ka_size bytes,
 *				sign- or zero-extended; 0 when unreadable:
 *				a member of a struct another argument points
 *				to, so reads chain to any depth (skb, then
 *				skb->head, then a byte of the IP header)
 *	DT_KEVENT_ARG_MINIF	the lesser (signed) of two arguments, the
 *				lower bit of ka_val naming the first, which
 *				counts only when argument ka_index is not 0
 *				(a member read through a pointer that may be
 *				NULL: the boosting task's priority)
 *	DT_KEVENT_ARG_USTRARG	as USTR, the user string's address being
 *				argument ka_index (a system call's argument
 *				read from its saved registers)
 *	DT_KEVENT_ARG_SELECT	one of two arguments, the lower bit of
 *				ka_val naming the one taken when argument
 *				ka_index is not 0, the other taken when it
 *				is 0 (a value the kernel reports in one of
 *				two places: proc:::signal-handle's signal)
 *
 * and then, per ka_xform, turned into what the stable argument means:
 *
 *	DT_KEVENT_XF_NONE	as read
 *	DT_KEVENT_XF_NEG	negated (errno from a -errno return value)
 *	DT_KEVENT_XF_CLD	a wait status (task_struct.exit_code) as the
 *				SIGCHLD code saying why a process ended:
 *				CLD_EXITED (1) when no signal ended it,
 *				CLD_DUMPED (3) when a signal did and dumped
 *				core, CLD_KILLED (2) for another signal
 *	DT_KEVENT_XF_SIG	a wait status as the signal in it (its
 *				low 7 bits; 0 when no signal)
 *
 * SUM, DEREF, MINIF and SELECT read other arguments: the prologue
 * computes every argument after those it reads, whatever their order
 * (a typed argument may be made from hidden ones after it); the
 * arguments must not read each other in a cycle.
 *
 * Several arguments may use the same source (sched:::off-cpu's args[0]
 * and args[1] are both raw argument 2 of sched_switch, translated to
 * lwpsinfo_t and psinfo_t).  Addresses into the record (ADDR, DATALOC)
 * are valid only while the probe fires: copy what must outlive it
 * (stringof(), a string variable, trace()).
 *
 * A probe may also carry a filter, so several probes can share one
 * event and fire on different values: it fires only when argument
 * ke_filt_arg (after the recipes ran) compares with ke_filt_val as
 * ke_filt (signed), e.g. proc:::exec-failure on syscalls:sys_exit_execve
 * when arg0 < 0.  More conditions, all of which must hold too, go in
 * ke_conds[] (the first with kc_op DT_KEVENT_FILT_NONE ends them): each
 * compares argument kc_arg, masked with kc_mask when that is not 0,
 * with the constant kc_val, or with argument kc_val when kc_vsarg
 * (proc:::start: the current task is its group's leader).  Arguments
 * past the probe's typed ones can be computed only for its conditions.
 * tcp:::connect-established is sock:inet_sock_set_state for TCP sockets
 * going from SYN_SENT to ESTABLISHED; tcp:::accept-refused a reset sent
 * for no socket in answer to a segment whose flags, masked, are SYN.
 *
 * Writing a provider on this interface:
 *
 *   1. Register it with dt_provider_register() and DT_ENGINE_F_KERNEL,
 *	with ops whose po_probe_fini is dt_kevent_probe_fini and whose
 *	po_mech is DT_MECH_KEVENT -- that is how the engine knows its
 *	probes are kernel events (no provider name is looked up
 *	anywhere); the event's kind then picks the BPF engine's
 *	mechanism (os/linux/bpf/dt_bpf_mech.h).
 *   2. In po_populate, for each probe: ke = dt_kevent_new(kind, group,
 *	event); fill ke->ke_args[0 .. ke_nargs-1] (dt_kevent_field() finds
 *	a tracepoint field by name and makes its recipe; raw arguments are
 *	numbered as TP_PROTO's, from 0, without the leading void *); then
 *	dt_probe_create(dtp, pvp, mod, func, name, nargs, native, ke) and
 *	dt_probe_set_args() with the translated types ("lwpsinfo_t *") if
 *	any: the compiler then translates args[N] from the native type
 *	with the translators of os/linux/lib (psinfo.d).
 *   3. Or, when finding the recipes is costly (a format file per probe),
 *	create the probe with nargs -1 and ke_nargs -1 and fill both in
 *	the provider's po_probe_args: the engine asks through
 *	dt_kevent_info(), which describes the arguments first.
 *   4. Check that the event exists before creating the probe
 *	(dt_kevent_exists()), so a kernel without it lists no probe and a
 *	script naming it gets "does not match any probes".
 *
 * How the BPF engine runs them (os/linux/bpf/dt_bpf_engine.c): one
 * program per probe, a tracepoint program (ctx: the record), a raw_tp
 * program (ctx: the u64 arguments), a tracing program (fentry, fexit) or
 * a kprobe program, whose prologue computes arg0..arg9 from the recipes,
 * then applies the filter; it is attached with a perf tracepoint event
 * (cpu 0, all tasks), bpf_raw_tracepoint_open() (by name, or for
 * tracing programs without one) or a kprobe perf event.  Two probes on
 * one event get two programs on it, which the kernel runs one after the
 * other.
 *
 * The tracefs format parser lives here too (dt_kevent_format()), for
 * every provider that reads format files (sdt, syscall).
 */
#ifndef DT_KEVENT_H
#define DT_KEVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct dtrace_hdl dtrace_hdl_t;
typedef struct dt_probe dt_probe_t;

#define DT_KEVENT_MAXARGS 10	/* arg0..arg9 */

typedef enum dt_kevent_kind {
	DT_KEVENT_TP,		/* perf tracepoint: ctx = format record */
	DT_KEVENT_RAWTP,	/* raw tracepoint: ctx = u64 TP_PROTO args */
	DT_KEVENT_FENTRY,	/* function entry: ctx = u64 arguments */
	DT_KEVENT_FEXIT,	/* function return: u64 arguments, return */
	DT_KEVENT_KPROBE,	/* kprobe: ctx = struct pt_regs */
	DT_KEVENT_KRETPROBE,	/* kretprobe: ctx = struct pt_regs */
} dt_kevent_kind_t;

/* A kind on a kernel function (the fbt provider's). */
#define DT_KEVENT_ISFUNC(k) ((k) >= DT_KEVENT_FENTRY)
/* A return probe on a kernel function. */
#define DT_KEVENT_ISRET(k) ((k) == DT_KEVENT_FEXIT || \
	(k) == DT_KEVENT_KRETPROBE)

typedef enum dt_kevent_argkind {
	DT_KEVENT_ARG_ZERO,
	DT_KEVENT_ARG_CONST,
	DT_KEVENT_ARG_FIELD,
	DT_KEVENT_ARG_ADDR,
	DT_KEVENT_ARG_DATALOC,
	DT_KEVENT_ARG_RAW,
	DT_KEVENT_ARG_RAWMEM,
	DT_KEVENT_ARG_CURTASK,
	DT_KEVENT_ARG_CURMEM,
	DT_KEVENT_ARG_USTR,
	DT_KEVENT_ARG_SUM,
	DT_KEVENT_ARG_DEREF,
	DT_KEVENT_ARG_MINIF,
	DT_KEVENT_ARG_USTRARG,
	DT_KEVENT_ARG_SELECT,
} dt_kevent_argkind_t;

/* The arguments a recipe reads (SUM, DEREF): bit N for argument N. */
#define DT_KEVENT_ARGBIT(n)	(1LL << (n))

typedef enum dt_kevent_xform {
	DT_KEVENT_XF_NONE,
	DT_KEVENT_XF_NEG,
	DT_KEVENT_XF_CLD,
	DT_KEVENT_XF_SIG,
} dt_kevent_xform_t;

/* How one argument is obtained (see the top comment). */
typedef struct dt_kevent_arg {
	uint8_t ka_kind;	/* dt_kevent_argkind_t */
	uint8_t ka_size;	/* FIELD, RAW, RAWMEM, DEREF: 1, 2, 4 or 8
				   bytes */
	bool ka_signed;		/* FIELD, RAW, RAWMEM, DEREF: sign-extend */
	uint8_t ka_index;	/* RAW, RAWMEM: the TP_PROTO argument */
	uint8_t ka_xform;	/* dt_kevent_xform_t */
	uint32_t ka_off;	/* FIELD, ADDR, DATALOC, USTR: in the record;
				   RAWMEM, CURMEM: from the pointer; SUM,
				   DEREF: added to the arguments */
	int64_t ka_val;		/* CONST; SUM, DEREF: the arguments added
				   (DT_KEVENT_ARGBIT); MINIF: the two
				   compared; SELECT: the two chosen from */
} dt_kevent_arg_t;

typedef enum dt_kevent_filt {
	DT_KEVENT_FILT_NONE,
	DT_KEVENT_FILT_EQ,
	DT_KEVENT_FILT_NE,
	DT_KEVENT_FILT_LT,	/* signed */
	DT_KEVENT_FILT_GE,	/* signed */
} dt_kevent_filt_t;

/* One more condition of a probe's filter (see the top comment). */
typedef struct dt_kevent_cond {
	uint8_t kc_op;		/* dt_kevent_filt_t; NONE: no more */
	uint8_t kc_arg;		/* the argument compared */
	bool kc_vsarg;		/* with argument kc_val, not constant */
	uint64_t kc_mask;	/* not 0: compare kc_arg & kc_mask */
	int64_t kc_val;
} dt_kevent_cond_t;

#define DT_KEVENT_MAXCONDS 4

typedef struct dt_kevent {
	dt_kevent_kind_t ke_kind;
	char *ke_group;		/* "sched" (TP; informative for RAWTP) */
	char *ke_event;		/* "sched_switch" */
	int ke_nargs;		/* recipes in ke_args; -1: not known yet */
	dt_kevent_arg_t ke_args[DT_KEVENT_MAXARGS];
	dt_kevent_filt_t ke_filt;
	uint8_t ke_filt_arg;
	int64_t ke_filt_val;
	uint32_t ke_btf_id;	/* FENTRY, FEXIT: the function in BTF */
	dt_kevent_cond_t ke_conds[DT_KEVENT_MAXCONDS];
	void *ke_priv;		/* the provider's; free()d with the probe */
} dt_kevent_t;

/* A new descriptor (no arguments yet), or NULL (out of memory). */
extern dt_kevent_t *dt_kevent_new(dt_kevent_kind_t kind, const char *group,
    const char *event);
extern void dt_kevent_free(dt_kevent_t *ke);

/* Whether the probe fires only when its filter holds. */
static inline bool
dt_kevent_filtered(const dt_kevent_t *ke)
{
	return ke->ke_filt != DT_KEVENT_FILT_NONE ||
	    ke->ke_conds[0].kc_op != DT_KEVENT_FILT_NONE;
}

/* The po_probe_fini of every kernel event provider: frees pr_data. */
extern void dt_kevent_probe_fini(dtrace_hdl_t *dtp, dt_probe_t *prp);

/*
 * The kernel event of a probe, its arguments described (the provider's
 * po_probe_args run if it defers them), or NULL if the probe is not a
 * kernel event probe, or its arguments cannot be found (the handle's
 * error is set then).
 */
extern const dt_kevent_t *dt_kevent_info(dtrace_hdl_t *dtp, dt_probe_t *prp);
/* True if the probe is a kernel event probe (no arguments described). */
extern bool dt_kevent_is(const dt_probe_t *prp);

/* Whether the kernel has the event: its tracefs directory exists. */
extern bool dt_kevent_exists(const char *group, const char *event);

/* One field of a tracepoint's format file. */
typedef struct dt_kevent_field {
	char *kf_name;		/* "filename" */
	char *kf_type;		/* "const char *", "char [16]", "char []" */
	uint32_t kf_off;
	uint32_t kf_size;
	bool kf_signed;
	bool kf_dataloc;	/* __data_loc: kf_type is the pointed-to
				   array ("char []") */
	bool kf_common;		/* common_type, common_pid, ... */
} dt_kevent_field_t;

/*
 * The fields of tracefs events/<group>/<event>/format, in order (the
 * common_ ones first, marked).  Returns the count and sets *fieldsp
 * (free with dt_kevent_fields_free), or -1 with errno.
 */
extern int dt_kevent_format(const char *group, const char *event,
    dt_kevent_field_t **fieldsp);
extern void dt_kevent_fields_free(dt_kevent_field_t *fields, int n);

/*
 * The recipe that reads a tracepoint field: FIELD for a scalar or
 * pointer, ADDR for a fixed array, DATALOC for __data_loc.  And the D
 * type to give it (a __data_loc or char array as "char *": the address
 * of its bytes, which stringof() reads).  Returns a new string, or NULL.
 */
extern char *dt_kevent_field_arg(const dt_kevent_field_t *kf,
    dt_kevent_arg_t *ka);
/*
 * The recipe for field `field` of group:event, looked up in its format
 * file.  0, or -1 with errno (ENOENT: no such event or field).
 */
extern int dt_kevent_field(const char *group, const char *event,
    const char *field, dt_kevent_arg_t *ka);

/* One kernel event by name. */
typedef struct dt_kevent_name {
	char *kn_group;
	char *kn_event;
} dt_kevent_name_t;

/*
 * The kernel's static tracepoints, sorted by group then event: tracefs's
 * available_events less the syscalls group (system call events, which
 * the syscall provider offers and which are no raw tracepoints) and
 * dynamic events (kprobes, uprobes, synthetic: dynamic_events).
 * Returns the count and sets *namesp (free with dt_kevent_names_free),
 * or -1 with errno.
 */
extern int dt_kevent_names(dt_kevent_name_t **namesp);
extern void dt_kevent_names_free(dt_kevent_name_t *names, int n);

/*
 * A probe <group>::<event> of pvp, of the given kind, for each of
 * dt_kevent_names(), with deferred arguments (nargs -1: the provider's
 * po_probe_args fills them in).  0, or -1 with the handle's error set.
 */
typedef struct dt_provider dt_provider_t;
extern int dt_kevent_populate_all(dtrace_hdl_t *dtp, dt_provider_t *pvp,
    dt_kevent_kind_t kind);

/*
 * po_maymatch of the providers populated by dt_kevent_populate_all(): a
 * probe <group>::<event> could match pdp unless pdp names an event (not
 * a pattern) that no group of tracefs has, or a function (they have
 * none).  A few stat() calls rather than listing every event.
 */
typedef struct dt_probedesc dt_probedesc_t;
extern bool dt_kevent_maymatch(dtrace_hdl_t *dtp, dt_provider_t *pvp,
    const dt_probedesc_t *pdp);

/*
 * The C declaration of BTF type id with no name ("struct file *",
 * "const char *"), as D parses it, into buf; "uint64_t" when it cannot
 * be written out.  For providers typing arguments from kernel BTF.
 */
struct btf;
extern void dt_kevent_btf_decl(const struct btf *btf, uint32_t id,
    char *buf, size_t len);

#endif /* DT_KEVENT_H */
