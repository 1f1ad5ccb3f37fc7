/* SPDX-License-Identifier: MIT */
/*
 * dt_ktab.h: DTrace's stable kernel providers (proc, sched) described
 * as tables, made into kernel event probes (dt_kevent.h) by one piece of
 * code.
 *
 * Each row of a provider's table is one probe: its name, the kernel
 * event it fires on (tracepoint or raw tracepoint; a raw tracepoint with
 * no tracefs event, found in the kernel's BTF, is "bare"), the stable
 * types of its arguments (native and translated, as dtrace -lv shows
 * them), how each argument word is obtained and the conditions that
 * select its firings among the event's.  Where a recipe needs a place
 * known only to the running kernel, the row names it and it is looked
 * up when the probe's arguments are first described:
 *
 *	FIELD, USTR	kr_where is a field of the tracepoint's format
 *	RAWMEM, CURMEM,	kr_where is "struct.member[.member]" ("task_struct.
 *	DEREF		exit_code"), its offset from the kernel's BTF (DEREF:
 *			added to the arguments kr_args names)
 *
 * and a condition comparing with kernel address kp_sym (a function the
 * tracepoint reports) gets the address from /proc/kallsyms.
 *
 * The probe's function field is the kernel event, so a probe name that
 * several events fire (proc:::exec: execve and execveat) is one probe
 * per event, all matched by proc:::exec.
 */
#ifndef DT_KTAB_H
#define DT_KTAB_H

#include <stdbool.h>
#include <stdint.h>

#include "os/linux/prov/dt_kevent.h"

typedef struct dt_provattr dt_provattr_t;

#define DT_KTAB_MAXARGS 6	/* recipes of one row */
#define DT_KTAB_MAXTYPED 4	/* typed arguments (DTrace's most) */
#define DT_KTAB_MAXBARE 16	/* rows on bare raw tracepoints */

/* How one argument word is obtained (dt_kevent_arg_t, places by name). */
typedef struct dt_ktab_recipe {
	uint8_t kr_kind;	/* dt_kevent_argkind_t */
	uint8_t kr_index;	/* RAW, RAWMEM: the TP_PROTO argument */
	uint8_t kr_size;	/* RAW, RAWMEM, CURMEM: 1, 2, 4; 0: 8 */
	bool kr_signed;
	uint8_t kr_xform;	/* dt_kevent_xform_t */
	const char *kr_where;	/* see the top comment */
	uint64_t kr_args;	/* MINIF, SELECT: the two arguments; DEREF:
				   those added (DT_KEVENT_ARGBIT) */
} dt_ktab_recipe_t;

typedef struct dt_ktab_probe {
	const char *kp_name;	/* "exec-success" */
	dt_kevent_kind_t kp_kind;
	const char *kp_group;	/* "sched"; "" for a bare raw tracepoint */
	const char *kp_event;	/* "sched_process_exec" */
	const char *kp_needfield; /* a format field the event must have for
				   this row, or NULL (kernel versions) */
	int kp_ntyped;		/* typed arguments (args[]) */
	const char *kp_native[DT_KTAB_MAXTYPED];
	const char *kp_xlate[DT_KTAB_MAXTYPED]; /* NULL: not translated */
	dt_ktab_recipe_t kp_args[DT_KTAB_MAXARGS];
	dt_kevent_cond_t kp_conds[DT_KEVENT_MAXCONDS];
	const char *kp_sym;	/* kernel function whose address is the
				   first condition's value ("a|b": the
				   first the kernel has), or NULL */
	bool kp_alt;		/* only if no earlier row of the name */
	bool kp_also;		/* only if the first row of the name is */
} dt_ktab_probe_t;

/*
 * Registers provider name with the stable attributes of DTrace's proc
 * and sched providers and the rows of table whose kernel events exist
 * (a row marked kp_alt is made only when no earlier row of its name
 * was: the way older kernels give a probe follows the preferred one; a
 * row marked kp_also only when the first row of its name was: it
 * completes the preferred way, which the older one needs not).
 * 0, or -1 with the handle's error set.
 */
extern int dt_ktab_register(dtrace_hdl_t *dtp, const char *name,
    const dt_ktab_probe_t *table, int n);

#endif /* DT_KTAB_H */
