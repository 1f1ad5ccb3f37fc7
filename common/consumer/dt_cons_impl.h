/* SPDX-License-Identifier: MIT */
/*
 * dt_cons_impl.h: the consumer's private state, shared by its files.
 *
 *	dt_consume.c	state, setup, record buffers, the per-firing prefix,
 *			flowindent, exit and fault records
 *	dt_print.c	one datum: trace() of each record type, raw memory,
 *			stacks and symbols
 *	dt_printf.c	format strings
 *	dt_aggregate.c	the merged aggregation table: snapshots, sorting,
 *			clear, trunc, normalize
 *	dt_aggprint.c	aggregations as text: the default layout, the
 *			quantize tables and printa()
 *	dt_json.c	everything above as JSON
 *	dt_cons_spec.c	speculations: records held per ID until commit()
 *			or discard(); drop and error reports
 *	dt_cons_bufpolicy.c  -x bufpolicy=fill and ring
 *
 * Aggregation entries live in one hash table keyed by (aggregation ID,
 * key bytes), grown as it fills; dc_aggents lists them all for sorting.
 * Each entry keeps the merged value and what the consumer holds of it
 * since clear() or trunc() took its keys back from the engine (see
 * dt_aggregate.c).
 */
#ifndef DT_CONS_IMPL_H
#define DT_CONS_IMPL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/dt_impl.h"
#include "common/dt_program.h"
#include "common/consumer/dt_consumer.h"
#include "common/consumer/dt_printf.h"
#include "common/engine/dt_engine.h"

typedef struct dt_aggent {
	struct dt_aggent *ae_next; /* hash chain */
	uint32_t ae_aggid;
	uint32_t ae_hash;
	uint32_t ae_index;     /* in dc_aggents */
	bool ae_drop;	       /* trunc() is removing it */
	int64_t *ae_vals;      /* ag_nvals words, merged */
	int64_t *ae_held;      /* taken back from the engine, or NULL */
	int64_t *ae_taken;     /* during a take: what the engine gave */
	unsigned char *ae_key; /* ag_keysize bytes */
} dt_aggent_t;

/* Per aggregation (indexed by ag_id). */
typedef struct dt_aggstate {
	uint64_t as_normal; /* normalize() factor; 1 when none */
	bool as_printed;    /* printa() printed it: no default output */
	uint32_t as_pprofseq; /* profiles printa() has written of it */
	/*
	 * The order the entries were last sorted in, tried first next time
	 * (dt_agg_sorted()): valid while dc_agggen is as_ordergen and the
	 * sort options are as_orderopts.
	 */
	struct dt_aggent **as_order;
	uint32_t as_norder;
	uint64_t as_ordergen;
	uint64_t as_orderopts;
} dt_aggstate_t;

/*
 * Where each entry of the last periodic snapshots went: an engine lists
 * the keys of a map in the same order every time, so the entry at the
 * same place is most often the same key, found without hashing.  Valid
 * while no entry has been freed since (dc_aggdelgen).
 */
typedef struct dt_agghint {
	struct dt_aggent **ah_ents;
	uint32_t ah_n;
	uint32_t ah_cap;
} dt_agghint_t;

/* A commit() or discard() of a speculation, seen in the current drain. */
typedef struct dt_cspec_end {
	dt_actkind_t ce_kind; /* DT_ACT_COMMIT or DT_ACT_DISCARD */
	uint32_t ce_cpu;
	uint64_t ce_ts;
	bool ce_seen;	      /* its record has been consumed, not only
				 found ahead by dt_consume_spec_scan() */
} dt_cspec_end_t;

/*
 * One speculation ID as the consumer sees it: the records speculated to
 * it, held until a COMMIT or DISCARD record, and the commits and discards
 * of the current drain, for the records written before them on other
 * CPUs that arrive after them (see dt_cons_spec.c).
 */
typedef struct dt_cspec {
	unsigned char *cs_buf; /* per record: u32 CPU, u32 0, header, data */
	size_t cs_len;
	size_t cs_cap;
	dt_cspec_end_t *cs_ends; /* by time */
	uint32_t cs_nends;
	uint32_t cs_endcap;
} dt_cspec_t;

/*
 * One CPU's principal buffer as the buffer policies see it: the bytes
 * recorded so far (fill), the records dropped for the policy, and under
 * ring the most recent records, at most bufsize bytes of them, from
 * cb_start to cb_len (each with an 8-byte CPU prefix, not counted).
 */
typedef struct dt_cbuf {
	uint64_t cb_used;
	uint64_t cb_drops;
	unsigned char *cb_ring;
	size_t cb_start;
	size_t cb_len;
	size_t cb_cap;
	size_t cb_bytes;	/* records between cb_start and cb_len */
} dt_cbuf_t;

/* Flowindent direction of a firing. */
typedef enum { DT_FLOW_NONE, DT_FLOW_ENTRY, DT_FLOW_RETURN } dt_flow_t;

struct dt_consumer {
	dtrace_hdl_t *dc_dtp;
	const dt_program_t *dc_pgp;
	dt_cprobe_t **dc_probes;     /* indexed by EPID */
	uint32_t dc_nprobes;	     /* slots in dc_probes */
	dt_cprobe_t *dc_probebuf;    /* the copies dc_probes points at */
	dt_cprobe_t **dc_late;	     /* copies of those added while tracing */
	uint32_t dc_nlate;
	struct dt_consact **dc_acts; /* [stmt][action], see below */
	dt_symops_t dc_symops;	     /* dt_cons_os_ksym unless replaced */
	bool dc_ksymwarned;	     /* said why kernel symbols are missing */
	/* mod() aggregation keys: each kernel module's first address seen */
	struct dt_modkey {
		const char *mk_mod;
		uint64_t mk_addr;
	} *dc_modkeys;
	uint32_t dc_nmodkeys;
	dt_aggtake_f *dc_aggtake;
	void *dc_aggtake_arg;
	dt_aggrefresh_f *dc_aggrefresh;
	void *dc_aggrefresh_arg;
	bool dc_aggstale; /* refresh before the aggregations are read */
	FILE *dc_errfp;
	int dc_stdout_fd; /* the output before freopen(), or -1 */
	bool dc_freopened;
	uint64_t dc_walltime0; /* when tracing began: profiles' duration */

	/* Output state across buffers, as dtrace(1) keeps it. */
	bool dc_heading; /* the column header was printed */
	int dc_indent;	 /* flowindent depth */
	uint32_t dc_last_epid;
	const dt_cprobe_t *dc_cur_probe; /* probe of the record being printed */
	bool dc_exited;
	bool dc_exit_arrived; /* a clause's exit() record came in */
	int dc_exitstatus;

	/* Aggregations. */
	dt_aggent_t **dc_agghash; /* dc_nagghash chains, a power of 2 */
	uint32_t dc_nagghash;
	dt_aggent_t **dc_aggents;
	uint32_t dc_naggents;
	uint32_t dc_aggents_cap;
	dt_aggstate_t *dc_aggstate; /* pg_naggs entries */
	uint32_t dc_naggstate;	    /* the pg_naggs they were made for */
	bool dc_aggcumulative;	    /* the last snapshots were totals */
	uint64_t dc_agggen;	    /* bumped when an entry comes or goes */
	uint64_t dc_aggdelgen;	    /* bumped when an entry is freed */
	uint64_t dc_hintgen;	    /* dc_aggdelgen when the hints were made */
	dt_agghint_t *dc_hints;	    /* per snapshot, dc_nhints */
	uint32_t dc_nhints;

	/* Speculations, indexed by ID - 1; dc_nspecs grows on demand. */
	dt_cspec_t *dc_specs;
	uint32_t dc_nspecs;

	/* Buffer policies: per CPU, grown on demand. */
	dt_cbuf_t *dc_cbufs;
	uint32_t dc_ncbufs;
	bool dc_filled;		/* fill: a buffer filled up; stop tracing */
	bool dc_ringout;	/* ring: printing what the rings hold */

	/* The counters last reported (dt_consume_status). */
	dt_engine_status_t dc_status;
	uint64_t *dc_cpudrops;
	uint32_t dc_ncpudrops;
};

/* What setup caches per action: the parsed format and its records. */
typedef struct dt_consact {
	dt_pfargv_t *ca_pfv;
	dt_recdesc_t *ca_recs; /* the action's records, DT_REC_NONE skipped */
	uint32_t ca_nrecs;
} dt_consact_t;

/* dt_consume.c */
extern const dt_consact_t *dt_consact(
    dt_consumer_t *dc, const dt_stmt_t *stp, uint32_t action);
/*
 * The effects of an action that do not depend on the output format
 * (exit, clear, trunc, setopt, system, ...).  Returns 1 when the action
 * is done, 0 when it is one that prints, -1 on error.
 */
extern int dt_cons_effect(dt_consumer_t *dc, FILE *fp, const dt_action_t *ap,
    const dt_consact_t *ca, const unsigned char *data, size_t len);
extern int dt_fault_message(
    dt_consumer_t *dc, const dt_faultrec_t *fr, char *buf, size_t len);
extern const char *dt_faultstr(uint32_t kind);
extern bool dt_cons_quiet(const dt_consumer_t *dc);
/* Print one firing's record (not a fault), then commit()/discard() it. */
extern int dt_consume_rec(dt_consumer_t *dc, FILE *fp, uint32_t cpu,
    const dt_rechdr_t *rh, const dt_cprobe_t *cp, const unsigned char *data,
    const unsigned char *next, const unsigned char *end);

/* dt_cons_spec.c */
/*
 * The ID of the speculate(), commit() or discard() action of a statement
 * in a record, or 0 when it has none (*kindp: which).
 */
extern uint64_t dt_cons_spec_id(dt_consumer_t *dc, const dt_stmt_t *stp,
    const unsigned char *data, dt_actkind_t *kindp);
/* The ID of its commit() or discard() only, speculative or not. */
extern uint64_t dt_cons_spec_endid(dt_consumer_t *dc, const dt_stmt_t *stp,
    const unsigned char *data, dt_actkind_t *kindp);
/*
 * A record of a speculative statement: held (1), or to be printed now
 * (0) because its speculation was committed in this drain on another
 * CPU after it was written; -1 on error.
 */
extern int dt_cons_spec_take(dt_consumer_t *dc, uint32_t cpu,
    const dt_rechdr_t *rh, const unsigned char *data);
/* A COMMIT (print what is held) or DISCARD (drop it) record. */
extern int dt_cons_spec_end(dt_consumer_t *dc, FILE *fp, dt_actkind_t kind,
    uint64_t id, uint32_t cpu, uint64_t ts);
extern void dt_cons_spec_free(dt_consumer_t *dc);

/* dt_cons_bufpolicy.c */
/*
 * What the buffer policy does with a record of cpu: 0 to print it now,
 * 1 when it was dropped (fill) or kept for the end (ring), -1 on error.
 */
extern int dt_cons_bufpolicy(dt_consumer_t *dc, uint32_t cpu,
    const dt_rechdr_t *rh, const dt_cprobe_t *cp, const unsigned char *data);
extern void dt_cons_bufpolicy_free(dt_consumer_t *dc);
/* Records of cpu the fill policy dropped. */
extern uint64_t dt_cons_policy_drops(const dt_consumer_t *dc, uint32_t cpu);
extern bool dt_cons_json(const dt_consumer_t *dc);
extern bool dt_cons_folded(const dt_consumer_t *dc);
extern bool dt_cons_pprof(const dt_consumer_t *dc);
extern int dt_cons_nomem(dt_consumer_t *dc);
/*
 * Output (or system(), freopen()) failed: -1 with the handle's error the
 * system's (ENOSPC, EPIPE; EIO when errno says nothing), so that a full
 * disk is reported as one, not as a program file that could not be read.
 */
extern int dt_cons_ioerr(dtrace_hdl_t *dtp);

/* dt_print.c: one datum.  width as DTrace's: negative left-aligns. */
extern int dt_print_bytes(dt_consumer_t *dc, FILE *fp, const void *addr,
    size_t n, int width, bool quiet, bool forceraw);
extern int dt_print_int(FILE *fp, int width, uint64_t v, bool sign);
/*
 * What dt_print_int() prints, into dst (room for DT_FMT_INT_MAX bytes;
 * width at most DT_FMT_INT_MAX - 1); returns the bytes written.
 */
#define DT_FMT_INT_MAX 48
extern size_t dt_fmt_int(char *dst, int width, uint64_t v, bool sign);
extern size_t dt_fmt_intrec(
    char *dst, const dt_recdesc_t *rd, const void *addr);
extern int dt_print_datum(dt_consumer_t *dc, FILE *fp, const dt_recdesc_t *rd,
    const void *addr, bool quiet, bool aggkey);
/* dt_print_type.c: print(), the value with its CTF type. */
extern int dt_print_typed(dt_consumer_t *dc, FILE *fp, const dt_recdesc_t *rd,
    const void *addr, bool quiet);
extern int dt_print_stack(dt_consumer_t *dc, FILE *fp, const char *format,
    const void *addr, uint64_t depth, int indent);
extern int dt_print_ustack(dt_consumer_t *dc, FILE *fp, const char *format,
    const void *addr, uint64_t depth, int indent);
/* Kernel symbols from the OS backend (dt_os_ksym); arg is the consumer. */
extern int dt_cons_os_ksym(void *arg, uint64_t addr, dt_syminfo_t *sip);
/* User symbols from the OS backend (dt_os_usym); the default so_usym. */
extern int dt_cons_os_usym(
    void *arg, uint64_t pid, uint64_t addr, dt_syminfo_t *sip);
/* The files behind addresses, from the OS backend: the default so_umap
 * and so_kmap. */
extern int dt_cons_os_umap(
    void *arg, uint64_t pid, uint64_t addr, struct dt_os_mapping *omp);
extern int dt_cons_os_kmap(
    void *arg, const char *module, struct dt_os_mapping *omp);
/* Symbolise a kernel address through dc_symops; false when unknown. */
extern bool dt_ksym(dt_consumer_t *dc, uint64_t addr, dt_syminfo_t *si);
/* Symbolise a user address through dc_symops; false when unknown. */
extern bool dt_usym(
    dt_consumer_t *dc, uint64_t pid, uint64_t addr, dt_syminfo_t *si);
/* The text of an address: "mod`sym+0x10", "mod`0x1234" or "0x1234". */
extern void dt_addr2str(
    dt_consumer_t *dc, uint64_t addr, bool withoff, char *buf, size_t len);
extern void dt_uaddr2str(dt_consumer_t *dc, uint64_t pid, uint64_t addr,
    bool withoff, char *buf, size_t len);
extern void dt_sym2str(dt_consumer_t *dc, const dt_recdesc_t *rd,
    const void *addr, char *buf, size_t len);
extern uint64_t dt_rec_uint(const dt_recdesc_t *rd, const void *addr);
extern int64_t dt_rec_sint(const dt_recdesc_t *rd, const void *addr);

/* dt_aggregate.c */
extern const dt_aggdesc_t *dt_agg_desc(dt_consumer_t *dc, uint32_t aggid);
/* FNV-1a of the key bytes, seeded with the aggregation ID. */
extern uint32_t dt_agg_hash(
    uint32_t aggid, const unsigned char *key, uint32_t len);
extern int dt_agg_cmp_vals(
    const dt_aggdesc_t *agg, const int64_t *l, const int64_t *r);
extern int dt_agg_cmp_keys(const dt_aggdesc_t *agg, const unsigned char *l,
    const unsigned char *r, int keypos);
/*
 * The visible entries of aggregation aggid (all aggregations when aggid is
 * UINT32_MAX) sorted as the aggsort* options say; the caller frees.
 */
/* Refresh the aggregations if due (dt_consume_aggstale()); 0 or -1. */
extern int dt_agg_fresh(dt_consumer_t *dc);
extern dt_aggent_t **dt_agg_sorted(
    dt_consumer_t *dc, uint32_t aggid, uint32_t *np);
extern int64_t dt_agg_avg(const int64_t *vals, uint64_t normal);
extern void dt_agg_bucket_range(const dt_aggdesc_t *agg, uint32_t i,
    bool *hasminp, int64_t *lop, bool *hasmaxp, int64_t *hip);
extern uint64_t dt_agg_stddev(const int64_t *vals, uint64_t normal);
extern void dt_aggstate_reset(dt_consumer_t *dc);
extern void dt_agg_destroy(dt_consumer_t *dc);

/* dt_aggprint.c */
extern int dt_print_aggval(dt_consumer_t *dc, FILE *fp, const dt_aggdesc_t *agg,
    const int64_t *vals, uint64_t normal);
extern int dt_print_quantize(dt_consumer_t *dc, FILE *fp,
    const dt_aggdesc_t *agg, const int64_t *vals, uint64_t normal);
extern int dt_agg_printa_ids(dt_consumer_t *dc, FILE *fp,
    const dt_pfargv_t *pfv, const uint32_t *aggids, uint32_t naggs);

/* dt_json.c */
extern void dt_json_string(FILE *fp, const char *s, size_t maxlen);
extern int dt_json_datum(
    dt_consumer_t *dc, FILE *fp, const dt_recdesc_t *rd, const void *addr);
extern int dt_json_aggs(dt_consumer_t *dc, FILE *fp, const uint32_t *aggids,
    uint32_t naggs, bool unprinted);
extern int dt_json_firing(dt_consumer_t *dc, FILE *fp, uint32_t cpu,
    const dt_rechdr_t *rh, const dt_cprobe_t *cp, const unsigned char *data);

/* dt_folded.c */
extern int dt_folded_aggs(dt_consumer_t *dc, FILE *fp,
    const uint32_t *aggids, uint32_t naggs, bool unprinted);
extern void dt_folded_keytext(dt_consumer_t *dc, FILE *fp,
    const dt_recdesc_t *rd, const unsigned char *p);
/* The one value of an entry, as the text output prints it. */
extern int64_t dt_folded_value(
    const dt_aggdesc_t *agg, const int64_t *v, uint64_t normal);

/* dt_pprof.c */
/*
 * Aggregations as pprof profiles, each to a file named after
 * dtrace_output_file()'s (see dt_pprof.c): those of aggids, or with
 * aggids NULL every one (unprinted: those printa() has not printed).
 */
extern int dt_pprof_aggs(dt_consumer_t *dc, const uint32_t *aggids,
    uint32_t naggs, bool unprinted);

#endif /* DT_CONS_IMPL_H */
