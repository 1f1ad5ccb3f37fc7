/* SPDX-License-Identifier: MIT */
/*
 * dt_impl.h: libdtrace's internal view of a consumer handle.
 *
 * Everything a consumer owns hangs off one dtrace_hdl_t: the options it has
 * set, the last error, and (as the modules that need them land) the compiler
 * state, the compiled programs, the OS backend and the consumer buffers.
 * Modules add their own state here rather than keeping globals, so that two
 * handles in one process never interfere.
 */
#ifndef DT_IMPL_H
#define DT_IMPL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "common/dtrace.h"
#include "common/dt_errors.h"
#include "common/dt_options.h"
#include "common/dt_program.h"

struct dtrace_hdl {
	int dt_version;	 /* API version the consumer asked for */
	int dt_oflags;	 /* DTRACE_O_* flags from dtrace_open() */
	int dt_errno;	 /* last error: an errno value or an EDT_* code */
	char dt_errdetail[512]; /* its message, when more precise than the
				   code's (dt_set_errdetail) */
	const char *dt_errhint;	/* a second line explaining it, or NULL */

	/* Numeric option values, indexed by dt_optid_t; see dt_options.h. */
	dtrace_optval_t dt_options[DT_OPT_COUNT];
	/* String option values (NULL when unset), same index. */
	char *dt_optstr[DT_OPT_COUNT];

	/* The probe namespace (common/probe/dt_probe.c). */
	struct dt_provider *dt_provs;	/* registered providers, a list */
	struct dt_probe **dt_probes;	/* indexed by probe ID; [0] unused */
	uint32_t dt_nprobes;		/* highest probe ID */
	uint32_t dt_probes_cap;		/* allocated slots in dt_probes */
	struct dt_probe_index *dt_probeidx; /* by function name */
	bool dt_provided_all;		/* every provider asked for all */

	/* Enabled probes and the engine running them (common/dt_work.c). */
	struct dt_program **dt_queued;	/* programs for dtrace_go to enable */
	uint32_t dt_nqueued;
	dt_program_t dt_prog;		/* the queued programs, merged */
	const struct dt_engine_ops *dt_engine;
	void *dt_engine_data;		/* the engine's own state */
	struct dt_eprobe **dt_eprobes;	/* indexed by EPID; [0] unused */
	uint32_t dt_neprobes;		/* highest EPID */
	uint32_t dt_eprobes_cap;	/* allocated slots in dt_eprobes */
	bool dt_active;			/* between dtrace_go and dtrace_stop */
	bool dt_stopped;
	bool dt_exited;			/* exit() ran: tracing ends */
	bool dt_exitrec;		/* its record was consumed */
	uint64_t dt_lastagg;		/* dt_os_timestamp() due of the last
					   aggregation snapshot (aggrate) */
	uint64_t dt_lastdrops[2];	/* dt_os_timestamp() of the last
					   principal, aggregation drop
					   report */
	uint64_t dt_laststatus;		/* dt_os_timestamp() of the last
					   drop report */
	int dt_exitstatus;		/* its status */
	char dt_engine_notice[320];	/* why this engine was chosen */
	const char *dt_kernel_why;	/* why no in-kernel engine, or NULL */

	/* Output formatting state (common/consumer/). */
	struct dt_consumer *dt_consumer;

	struct dt_cc *dt_cc;	/* D compiler state: common/compiler/dt_cc.h */

	/* Processes of -c and -p (common/dt_proc.c). */
	struct dt_proc *dt_procs;
	uint32_t dt_nprocs;
	void *dt_ktypes;	/* the OS backend's kernel types (dt_os.h) */
	struct dt_metrics *dt_metrics; /* -x metrics (dt_metrics.c) */
	char *dt_outfile;	/* dtrace_output_file(): -o, or NULL */
};

/* Record an error on the handle and return -1, for `return dt_set_errno()`. */
extern int dt_set_errno(dtrace_hdl_t *dtp, int err);
/* The same, with a message to report instead of the code's own. */
extern int dt_set_errdetail(dtrace_hdl_t *dtp, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Messages that quote the user's text (a script, an option's value) show
 * it safely: NUL, other control bytes and bytes that are not UTF-8 are
 * escaped as C writes them (\0, \n, \xff), the rest kept, so that no
 * byte cuts the message short or reaches a terminal raw.
 * dt_strescape() escapes src[0..srclen) into dst but for the bytes of
 * keep (NULL: none; "\n\t": a message's layout); dt_msg_vformat() is
 * vsnprintf() escaping what the arguments put in, not the format's own
 * newlines and tabs.  Both always terminate dst and cut only between
 * escapes or characters; they return the length written.
 */
extern size_t dt_strescape(char *dst, size_t dstlen, const char *src,
    size_t srclen, const char *keep);
extern size_t dt_msg_vformat(char *dst, size_t dstlen, const char *fmt,
    va_list ap) __attribute__((format(printf, 3, 0)));

/* Option defaults at open, and freeing option strings at close. */
extern void dt_options_init(dtrace_hdl_t *dtp);
extern void dt_options_fini(dtrace_hdl_t *dtp);

/* Kill the processes we created and still hold; forget the others. */
extern void dt_proc_fini(dtrace_hdl_t *dtp);
/* The pid of $target (the first -c or -p process), or 0. */
extern int dt_proc_target(const dtrace_hdl_t *dtp);
/* Processes still running (dtrace_sleep wakes often enough to notice). */
extern uint32_t dt_proc_nlive(const dtrace_hdl_t *dtp);
/* The pid of the i-th process of -c and -p (i < dt_nprocs). */
extern int dt_proc_pid(const dtrace_hdl_t *dtp, uint32_t i);
#define DT_PROC_POLL_NS 50000000 /* 50 ms */

/* The D compiler's state (common/compiler/dt_cc.c). */
extern int dt_cc_create(dtrace_hdl_t *dtp);
extern void dt_cc_destroy(dtrace_hdl_t *dtp);
extern const char *dt_cc_errmsg(dtrace_hdl_t *dtp);
/* -x dtypes, ctypes: write the D types as CTF (at dtrace_close()). */
extern void dt_cc_write_types(dtrace_hdl_t *dtp);
/* True while a program is being compiled (a #pragma is setting options). */
extern bool dt_cc_compiling(const dtrace_hdl_t *dtp);

#endif /* DT_IMPL_H */
