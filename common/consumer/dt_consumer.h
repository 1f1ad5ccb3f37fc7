/* SPDX-License-Identifier: MIT */
/*
 * dt_consumer.h: the consumer -- turns records and aggregation snapshots
 * into DTrace's output, byte for byte, or into JSON (-x oformat=json).
 *
 * The consumer reads only what dt_program.h defines and the handle's
 * options (quiet, flowindent, aggsort*, rawbytes, stackindent, oformat):
 * it never knows which engine wrote the records.  Its state hangs off the
 * handle (dtp->dt_consumer) and is created on first use.
 *
 * A run looks like this from the driver's side:
 *
 *	dt_consume_setup(dtp, pgp, probes, n)      once the program is enabled
 *	dt_consume_buf(dtp, fp, cpu, buf, len)      for each drained buffer
 *	dt_consume_aggsnap(dtp, snaps, n, true)     when aggregations are read
 *	dt_consume_drained(dtp)                     after each drain
 *	dt_consume_status(dtp, st)                  now and then: drops
 *	dt_consume_end(dtp, fp)                     after the final drain
 *
 * dt_consume_buf() returns DT_CONSUME_EXIT once it has seen an exit()
 * record; dt_consume_exitstatus() gives the status dtrace(1) exits with.
 */
#ifndef DT_CONSUMER_H
#define DT_CONSUMER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/dt_program.h"
#include "common/engine/dt_engine.h"

typedef struct dtrace_hdl dtrace_hdl_t;
typedef struct dt_consumer dt_consumer_t;

/*
 * The consumer's view of an enabled probe: which statement it runs and the
 * probe's names, for the "CPU ID FUNCTION:NAME" prefix and flowindent.
 * The strings must live as long as the program is enabled.
 */
typedef struct dt_cprobe {
	uint32_t cp_epid;
	uint32_t cp_id; /* probe ID */
	const dt_stmt_t *cp_stmt;
	const char *cp_provider;
	const char *cp_module;
	const char *cp_function;
	const char *cp_name;
} dt_cprobe_t;

/*
 * Symbol lookup, provided by the OS backend (kallsyms, ELF symbol tables).
 * Each returns 0 and fills *sip when addr falls in a known object; a NULL
 * si_name means only the object (module, library) is known.  Without a
 * lookup, or when it fails, addresses print in hex as DTrace prints
 * addresses it cannot resolve.
 */
typedef struct dt_syminfo {
	const char *si_object; /* module or object name */
	const char *si_name;   /* symbol, or NULL */
	uint64_t si_value;     /* the symbol's address */
	uint64_t si_base;      /* the object's load address (user objects) */
} dt_syminfo_t;

/*
 * so_umap and so_kmap, which profiles use (-x oformat=pprof), give the
 * file behind a user address or a kernel module (dt_os_umapping(),
 * dt_os_kmapping()); either may be NULL, and then profiles know the
 * object by its name alone.
 */
struct dt_os_mapping;

typedef struct dt_symops {
	int (*so_ksym)(void *arg, uint64_t addr, dt_syminfo_t *sip);
	int (*so_usym)(
	    void *arg, uint64_t pid, uint64_t addr, dt_syminfo_t *sip);
	void *so_arg;
	int (*so_umap)(void *arg, uint64_t pid, uint64_t addr,
	    struct dt_os_mapping *omp);
	int (*so_kmap)(
	    void *arg, const char *module, struct dt_os_mapping *omp);
} dt_symops_t;

/*
 * Called when a clear() or trunc() record is consumed: the engine, which
 * keeps cumulative aggregation values (see dt_consume_aggsnap), hands
 * every key of aggid it holds to dt_consume_aggtaken() and deletes them,
 * so that their space serves new keys.  The consumer keeps what it still
 * shows of them.
 */
typedef int dt_aggtake_f(dtrace_hdl_t *dtp, uint32_t aggid, void *arg);
/*
 * Called when the consumer is about to read its aggregations (printa(),
 * clear(), trunc()) after dt_consume_aggstale(): take a snapshot and hand
 * it to dt_consume_aggsnap().
 */
typedef int dt_aggrefresh_f(dtrace_hdl_t *dtp, void *arg);

/* Return values of dt_consume_buf(). */
#define DT_CONSUME_OK	0
#define DT_CONSUME_EXIT 1 /* an exit() record was consumed */

/* The consumer state of a handle, created on first use; NULL on ENOMEM. */
extern dt_consumer_t *dt_consumer(dtrace_hdl_t *dtp);
/* Free it; called by dtrace_close(). */
extern void dt_consumer_destroy(dtrace_hdl_t *dtp);

/*
 * Prepare for a program's records: probes[i] describes EPID
 * probes[i].cp_epid (the array is copied).  Parses every format string of
 * the program once.  Returns 0, or -1 with the handle's error set.
 */
extern int dt_consume_setup(dtrace_hdl_t *dtp, const dt_program_t *pgp,
    const dt_cprobe_t *probes, uint32_t nprobes);
/*
 * Probes of the same program enabled while tracing runs (a traced process
 * exec'd or loaded a library), before their records arrive.
 */
extern int dt_consume_addprobes(dtrace_hdl_t *dtp, const dt_cprobe_t *probes,
    uint32_t nprobes);

/*
 * Replace the symbol lookup (by default, the OS backend's kernel and user
 * symbols, dt_os_ksym() and dt_os_usym()); NULL: none, all hex.
 */
extern void dt_consume_setsymops(dtrace_hdl_t *dtp, const dt_symops_t *ops);
extern void dt_consume_setaggtake(
    dtrace_hdl_t *dtp, dt_aggtake_f *func, void *arg);
extern void dt_consume_setaggrefresh(
    dtrace_hdl_t *dtp, dt_aggrefresh_f *func, void *arg);
/*
 * The consumer's aggregations are due for a refresh: the next record that
 * reads them first calls the dt_aggrefresh_f.  A snapshot of a big
 * aggregation costs time in proportion to its keys, so none is taken in
 * a drain where nothing reads them.
 */
extern void dt_consume_aggstale(dtrace_hdl_t *dtp);
/* Where "dtrace: error on enabled probe ID ..." lines go (stderr). */
extern void dt_consume_seterrfp(dtrace_hdl_t *dtp, FILE *errfp);

/*
 * Print the records in buf[0..len-1] (dt_rechdr_t + data, as written by
 * an engine for one CPU) as dtrace(1) would.  Returns DT_CONSUME_OK,
 * DT_CONSUME_EXIT after an exit() record, or -1 with the handle's error
 * set.  Records after an exit() record are still printed, as DTrace does
 * with what was already in the buffer.
 */
extern int dt_consume_buf(
    dtrace_hdl_t *dtp, FILE *fp, uint32_t cpu, const void *buf, size_t len);

/*
 * Before the buffers of a drain are consumed, when the program
 * speculates: note the commit() and discard() records of each (all the
 * drain's buffers are scanned before the first is consumed), so that a
 * speculative record goes with the first of them written after it, on
 * whichever CPU, even one whose buffer comes later (dt_cons_spec.c).
 */
extern int dt_consume_spec_scan(
    dtrace_hdl_t *dtp, uint32_t cpu, const void *buf, size_t len);

/*
 * Every buffer of a drain has been consumed: commit() and discard() seen
 * in it no longer apply to records that arrive later (dt_cons_spec.c).
 */
extern void dt_consume_drained(dtrace_hdl_t *dtp);

/*
 * Report, on the error stream, each engine counter that grew since the
 * last call, as DTrace does ("dtrace: 2 speculative drops").
 */
extern int dt_consume_status(dtrace_hdl_t *dtp, const dt_engine_status_t *st);
/*
 * The same for drops counted per CPU since tracing began: "dtrace: N
 * drops on CPU M", or with agg "N aggregation drops on CPU M".
 */
extern int dt_consume_cpudrops(dtrace_hdl_t *dtp, const uint64_t *drops,
    uint32_t ncpus, bool agg);

/* Under -x bufpolicy=fill: a buffer filled up, so tracing must stop. */
extern bool dt_consume_filled(dtrace_hdl_t *dtp);
/*
 * Under -x bufpolicy=ring: print what the rings hold, once tracing has
 * stopped and the last records were consumed.
 */
extern int dt_consume_ring(dtrace_hdl_t *dtp, FILE *fp);

/* The status passed to exit(), valid after DT_CONSUME_EXIT. */
extern int dt_consume_exitstatus(dtrace_hdl_t *dtp);

/*
 * Take in aggregation snapshots, one per CPU.  With cumulative set, each
 * snapshot holds the CPU's totals since tracing began, and replaces what
 * the consumer had; otherwise it holds what accumulated since the previous
 * snapshot, and is added.
 */
extern int dt_consume_aggsnap(dtrace_hdl_t *dtp, const dt_aggsnap_t *snaps,
    uint32_t nsnaps, bool cumulative);
/*
 * From a dt_aggtake_f: the values the engine had of the keys it has just
 * deleted (snapshots as for dt_consume_aggsnap), kept by the consumer from
 * now on.
 */
extern int dt_consume_aggtaken(
    dtrace_hdl_t *dtp, const dt_aggsnap_t *snaps, uint32_t nsnaps);

/*
 * The end of a run: the newline dtrace(1) prints when tracing stops, then
 * every aggregation not already printed by printa(), in the default
 * format (or as JSON).
 */
extern int dt_consume_end(dtrace_hdl_t *dtp, FILE *fp);
/*
 * The aggregations in each of the metrics formats (bufs[] and lens[]
 * indexed by dt_metrics_fmt_t, common/dt_metrics.h), from the consumer's
 * copy as it is now (dt_metrics_fmt.c); the caller frees bufs[].
 */
extern int dt_consume_metrics(dtrace_hdl_t *dtp, char **bufs, size_t *lens);

/*
 * Aggregation operations, as the actions of the same names do them; also
 * used by dt_consume_buf() and reachable for tests.  trunc with all set
 * removes every entry, otherwise keeps the n largest (n > 0) or the -n
 * smallest (n < 0).
 */
extern int dt_agg_printa(dtrace_hdl_t *dtp, FILE *fp, const char *format,
    const uint32_t *aggids, uint32_t naggs);
extern int dt_agg_clear(dtrace_hdl_t *dtp, uint32_t aggid);
extern int dt_agg_trunc(dtrace_hdl_t *dtp, uint32_t aggid, bool all, int64_t n);
extern int dt_agg_normalize(dtrace_hdl_t *dtp, uint32_t aggid, uint64_t normal);
extern int dt_agg_denormalize(dtrace_hdl_t *dtp, uint32_t aggid);
/* Print every aggregation not yet printed (no leading newline). */
extern int dt_agg_print_all(dtrace_hdl_t *dtp, FILE *fp);

#endif /* DT_CONSUMER_H */
