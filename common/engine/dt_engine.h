/* SPDX-License-Identifier: MIT */
/*
 * dt_engine.h: the seam between the portable core and an engine.
 *
 * An engine runs enabled programs: the portable interpreter (interp, in
 * common/engine/) or one of the engines an OS backend lists in
 * dt_os_engines (common/dt_os.h): an in-kernel one (bpf on Linux) or one
 * for the user's own processes (ptrace on Linux).
 * The core enables a program by matching its probe descriptions and giving
 * every (statement, probe) pair an EPID; the engine attaches to those
 * probes, runs the DIF when they fire and writes records in the format of
 * dt_program.h.  The core then drains records and aggregation snapshots
 * from the engine and hands them to the consumer.  Nothing above this
 * interface knows which engine ran.
 *
 * Lifecycle:  eo_open → eo_enable (once per enabled program) → eo_go →
 * { eo_poll, eo_drain, eo_aggsnap }* → eo_stop → eo_drain → eo_close.
 */
#ifndef DT_ENGINE_H
#define DT_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/dt_program.h"

typedef struct dtrace_hdl dtrace_hdl_t;
typedef struct dt_probe dt_probe_t;

/* One enabled probe: a statement of a program attached to one probe. */
typedef struct dt_eprobe {
	uint32_t ep_epid;
	dt_probe_t *ep_probe;
	const dt_stmt_t *ep_stmt;
	const dt_program_t *ep_prog;
} dt_eprobe_t;

/*
 * Counters since tracing began; the consumer reports what grew since it
 * last looked, in DTrace's words ("dtrace: 3 speculative drops").
 */
typedef struct dt_engine_status {
	uint64_t es_drops;	   /* principal buffer drops, all CPUs */
	uint64_t es_dyndrops;	   /* dynamic variable drops */
	uint64_t es_aggdrops;	   /* aggregation drops */
	uint64_t es_specdrops;	   /* speculative drops (specsize) */
	uint64_t es_specbusy;	   /* failed speculation(): buffers busy */
	uint64_t es_specunavail;   /* failed speculation(): none free */
	uint64_t es_errors;	   /* clauses that faulted */
	bool es_exited;		   /* exit() ran, even if its record was
				      dropped: tracing must end */
} dt_engine_status_t;

/* CPUs an engine counts principal buffer drops for (eo_cpudrops). */
#define DT_ENGINE_MAXCPUS 4096

/* Called by eo_drain with each contiguous run of records. */
typedef int dt_drain_f(dtrace_hdl_t *dtp, uint32_t cpu, const void *buf,
    size_t len, void *arg);

typedef struct dt_engine_ops {
	const char *eo_name;
	unsigned eo_flag;	/* DT_ENGINE_F_* kinds this engine is */
	int (*eo_open)(dtrace_hdl_t *dtp);
	/* Attach the enabled probes eps[0..n-1] (new since the last call). */
	int (*eo_enable)(dtrace_hdl_t *dtp, dt_eprobe_t *const *eps, size_t n);
	/* Start tracing; fires dtrace:::BEGIN. */
	int (*eo_go)(dtrace_hdl_t *dtp);
	/*
	 * Wait up to timeout_ns for something to happen (a timer, records
	 * in a buffer) and run what is due.  Returns 0, or -1 on error.
	 */
	int (*eo_poll)(dtrace_hdl_t *dtp, int64_t timeout_ns);
	/* Hand every record written so far to fn, CPU by CPU, and forget
	 * them. */
	int (*eo_drain)(dtrace_hdl_t *dtp, dt_drain_f *fn, void *arg);
	/*
	 * Snapshot the aggregations, one dt_aggsnap_t per CPU; the caller
	 * frees with eo_aggsnap_free.
	 */
	int (*eo_aggsnap)(dtrace_hdl_t *dtp, dt_aggsnap_t **snapsp,
	    uint32_t *nsnapsp);
	void (*eo_aggsnap_free)(dtrace_hdl_t *dtp, dt_aggsnap_t *snaps,
	    uint32_t nsnaps);
	/*
	 * clear() and trunc(): snapshot every key of aggregation aggid as
	 * eo_aggsnap does, and delete them, so that their space serves new
	 * keys; the consumer keeps their values from now on.  The caller
	 * frees with eo_aggsnap_free.
	 */
	int (*eo_aggtake)(dtrace_hdl_t *dtp, uint32_t aggid,
	    dt_aggsnap_t **snapsp, uint32_t *nsnapsp);
	/* Stop tracing; fires dtrace:::END. */
	int (*eo_stop)(dtrace_hdl_t *dtp);
	/* Counters the consumer reports: drops, errors. */
	void (*eo_status)(dtrace_hdl_t *dtp, dt_engine_status_t *stp);
	/*
	 * Principal buffer and aggregation drops of CPUs 0..ncpus-1 (ncpus
	 * at most DT_ENGINE_MAXCPUS) since tracing began, for "N drops on
	 * CPU M"; NULL when the engine counts them only in total.
	 */
	void (*eo_cpudrops)(dtrace_hdl_t *dtp, uint64_t *drops,
	    uint64_t *aggdrops, uint32_t ncpus);
	void (*eo_close)(dtrace_hdl_t *dtp);
} dt_engine_ops_t;

/*
 * An eo_aggsnap_free for engines whose snapshots' as_data and array are
 * malloc()ed: frees them.
 */
extern void dt_engine_aggsnap_free(dtrace_hdl_t *dtp, dt_aggsnap_t *snaps,
    uint32_t nsnaps);

/* The portable interpreter engine. */
extern const dt_engine_ops_t dt_interp_engine_ops;

#endif /* DT_ENGINE_H */
