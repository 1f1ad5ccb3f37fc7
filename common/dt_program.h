/* SPDX-License-Identifier: MIT */
/*
 * dt_program.h: a compiled D program, and the one record format.
 *
 * This header is the contract between the three stages of the pipeline:
 *
 *	compiler (code generation)  builds a dt_program_t
 *	engines (interp, bpf)       run its DIF and write records
 *	consumer                    reads records using the layouts here
 *
 * A program is a list of statements, one per clause: the probe
 * descriptions it names, an optional predicate and a list of actions.  Each
 * action evaluates DIF objects and (usually) writes one or more records.
 * When the program is enabled, every (statement, matched probe) pair gets
 * an enabled-probe ID, the EPID; records in a buffer start with a header
 * carrying the EPID, and the consumer finds the layout of the data that
 * follows through dt_program_eprobe().
 *
 * The record format, identical for every engine (DESIGN invariant 3):
 *
 *	+---------------------------+  dt_rechdr_t, 16 bytes
 *	| epid | size | timestamp   |
 *	+---------------------------+
 *	| data: stmt->st_size bytes |  each record at its rd_offset, aligned
 *	+---------------------------+  to rd_align; padding is zero
 *
 * Aggregations are not in the principal buffer: an engine keeps, per CPU,
 * a table from (aggregation ID, key bytes) to value words, and hands the
 * consumer snapshots of it (dt_aggsnap_t) which the consumer merges.
 */
#ifndef DT_PROGRAM_H
#define DT_PROGRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct dif_object dif_object_t; /* common/dif/dif.h */

/* The four fields of a probe description; globs allowed when matching. */
#define DT_PROBE_FIELD_MAX 128
typedef struct dt_probedesc {
	char pd_provider[DT_PROBE_FIELD_MAX];
	char pd_module[DT_PROBE_FIELD_MAX];
	char pd_function[DT_PROBE_FIELD_MAX];
	char pd_name[DT_PROBE_FIELD_MAX];
	uint32_t pd_id; /* -i probe ID, or 0 */
} dt_probedesc_t;

/*
 * What kind of value a record holds, so the consumer can print it without
 * knowing the D types: trace(), printf() arguments and aggregation keys
 * all use this.
 */
typedef enum dt_rectype {
	DT_REC_NONE,	/* no data (an action that writes nothing) */
	DT_REC_SINT,	/* signed integer of rd_size 1, 2, 4 or 8 bytes */
	DT_REC_UINT,	/* unsigned integer of rd_size bytes */
	DT_REC_PTR,	/* pointer (printed in hex by trace()) */
	DT_REC_STRING,	/* NUL-terminated string in rd_size (strsize) bytes */
	DT_REC_BYTES,	/* raw memory of rd_size bytes (tracemem, structs) */
	DT_REC_STACK,	/* kernel stack: rd_arg frames of uint64_t PCs */
	DT_REC_USTACK,	/* user stack: uint64_t pid, then rd_arg PCs, the
			   probe site first, 0 after the last frame; how
			   the engine walked the stack (frame pointers,
			   CFI) does not show in the record */
	DT_REC_SYM,	/* uint64_t kernel address printed as sym() / %a */
	DT_REC_MOD,	/* uint64_t kernel address printed as mod() */
	DT_REC_USYM,	/* uint64_t pid, uint64_t user address: usym() */
	DT_REC_UMOD,	/* uint64_t pid, uint64_t user address: umod() */
	DT_REC_UADDR,	/* uint64_t pid, uint64_t user address: uaddr() */
} dt_rectype_t;

/* One record within an enabled probe's data, or one aggregation key. */
typedef struct dt_recdesc {
	dt_rectype_t rd_type;
	uint32_t rd_size;   /* bytes */
	uint32_t rd_offset; /* from the start of the data (after the header) */
	uint32_t rd_align;  /* 1, 2, 4 or 8 */
	uint64_t rd_arg;    /* DT_REC_STACK/USTACK: number of frames */
	/*
	 * The D type of the value, for print() and JSON output: a libctf
	 * dictionary and type ID, or NULL/0 when unknown.
	 */
	void *rd_ctf;
	long rd_ctftype;
} dt_recdesc_t;

/* The actions of D.  Each names what the consumer does with its records. */
typedef enum dt_actkind {
	DT_ACT_DIFEXPR,	   /* evaluate for side effects only (assignments) */
	DT_ACT_TRACE,	   /* trace(x): one record */
	DT_ACT_TRACEMEM,   /* tracemem(addr, size[, dsize]) */
	DT_ACT_PRINTF,	   /* printf(fmt, args...): one record per arg */
	DT_ACT_PRINTA,	   /* printa([fmt,] @a, ...): no records */
	DT_ACT_PRINT,	   /* print(x): one record, typed */
	DT_ACT_PRINTM,	   /* printm(size, addr) */
	DT_ACT_STACK,	   /* stack([n]) */
	DT_ACT_USTACK,	   /* ustack([n[, strsize]]) */
	DT_ACT_JSTACK,	   /* jstack([n[, strsize]]) */
	DT_ACT_SYM,	   /* sym(), func() */
	DT_ACT_MOD,	   /* mod() */
	DT_ACT_USYM,	   /* usym(), ufunc() */
	DT_ACT_UMOD,	   /* umod() */
	DT_ACT_UADDR,	   /* uaddr() */
	DT_ACT_EXIT,	   /* exit(n): one record, the status */
	DT_ACT_SPECULATE,  /* speculate(id) */
	DT_ACT_COMMIT,	   /* commit(id) */
	DT_ACT_DISCARD,	   /* discard(id) */
	DT_ACT_STOP,	   /* stop() (destructive) */
	DT_ACT_RAISE,	   /* raise(sig) (destructive) */
	DT_ACT_SYSTEM,	   /* system(fmt, args...) (destructive) */
	DT_ACT_FREOPEN,	   /* freopen(fmt, args...) (destructive) */
	DT_ACT_FTRUNCATE,  /* ftruncate() */
	DT_ACT_SETOPT,	   /* setopt(name[, value]) */
	DT_ACT_CLEAR,	   /* clear(@a) */
	DT_ACT_NORMALIZE,  /* normalize(@a, n) */
	DT_ACT_DENORMALIZE, /* denormalize(@a) */
	DT_ACT_TRUNC,	   /* trunc(@a[, n]) */
	DT_ACT_BREAKPOINT, /* breakpoint() (destructive) */
	DT_ACT_PANIC,	   /* panic() (destructive) */
	DT_ACT_CHILL,	   /* chill(ns) (destructive) */
	DT_ACT_COPYOUT,	   /* copyout(buf, addr, n) (destructive) */
	DT_ACT_COPYOUTSTR, /* copyoutstr(str, addr, n) (destructive) */
	DT_ACT_AGGREGATE,  /* @a[keys] = func(args): updates an aggregation */
} dt_actkind_t;

/* An argument of an action: the DIF that computes it and its record. */
typedef struct dt_actarg {
	dif_object_t *aa_difo;
	dt_recdesc_t aa_rec;
} dt_actarg_t;

/* The aggregating functions. */
typedef enum dt_aggkind {
	DT_AGG_COUNT,
	DT_AGG_SUM,
	DT_AGG_AVG,
	DT_AGG_MIN,
	DT_AGG_MAX,
	DT_AGG_STDDEV,
	DT_AGG_QUANTIZE,
	DT_AGG_LQUANTIZE,
	DT_AGG_LLQUANTIZE,
} dt_aggkind_t;

/*
 * An aggregation variable (@name), with one aggregating function for its
 * whole life as D requires.  Its value is ag_nvals int64_t words:
 *
 *	count, sum, min, max	1 word
 *	avg			2: count, sum
 *	stddev			4: count, sum, sum of squares as 128 bits (lo, hi)
 *	quantize		127 buckets: -2^62, ..., -2, -1, 0, 1, 2, 4, ...
 *				2^62 (DT_QUANTIZE_NBUCKETS)
 *	lquantize		(limit - base) / step + 2 buckets: below base,
 *				one per step, at or above limit
 *	llquantize		dt_llquantize_nbuckets() buckets
 *
 * The bucket arithmetic is in common/dt_aggfunc.h, shared by the engines
 * and the consumer so they cannot disagree.
 * min starts at INT64_MAX and max at INT64_MIN; everything else at 0.
 */
typedef struct dt_aggdesc {
	uint32_t ag_id;	   /* index in dt_program_t.pg_aggs */
	const char *ag_name; /* without the '@'; "" for the anonymous @ */
	dt_aggkind_t ag_kind;
	int64_t ag_params[4]; /* lquantize: base, limit, step;
				 llquantize: factor, low, high, nsteps */
	uint32_t ag_nvals;     /* value words */
	uint32_t ag_nkeys;
	dt_recdesc_t *ag_keys; /* key layout; offsets within the key bytes */
	uint32_t ag_keysize;   /* bytes of one key tuple */
	/*
	 * sum(): every use adds a value of an unsigned type, so the sum
	 * cannot fall (short of clear() or normalize()): the metrics
	 * endpoint makes it a counter, any other sum() a gauge.
	 */
	bool ag_nonneg;
} dt_aggdesc_t;

/* One action of a clause. */
typedef struct dt_action {
	dt_actkind_t ac_kind;
	uint32_t ac_nargs;
	dt_actarg_t *ac_args;	/* records, in order */
	const char *ac_format;	/* printf/printa/system/freopen format */
	/* DT_ACT_AGGREGATE: which aggregation, its keys and arguments. */
	uint32_t ac_aggid;
	uint32_t ac_nkeys;
	dif_object_t **ac_keys;	/* DIF for each key; layout in dt_aggdesc_t */
	/* printa(), clear(), trunc(), normalize(): the aggregations named. */
	uint32_t ac_naggs;
	uint32_t *ac_aggids;
	int ac_line;		/* source line, for messages */
} dt_action_t;

/* One clause: where it fires, when, and what it does. */
typedef struct dt_stmt {
	uint32_t st_id;
	uint32_t st_ndescs;
	dt_probedesc_t *st_descs;  /* as written: "syscall::read:entry" */
	dif_object_t *st_pred;	   /* NULL: always */
	uint32_t st_nactions;
	dt_action_t *st_actions;
	uint32_t st_size;	   /* bytes of data per record, 8-aligned */
	bool st_destructive;	   /* uses an action that needs -w */
	bool st_speculative;	   /* calls speculate() */
	bool st_kmem;		   /* reads kernel variables (`name) */
	int st_line;
} dt_stmt_t;

/* A whole compiled program. */
typedef struct dt_program {
	uint32_t pg_nstmts;
	dt_stmt_t *pg_stmts;
	uint32_t pg_naggs;
	dt_aggdesc_t *pg_aggs;
	/* Global, thread-local and clause-local variables are described in
	 * the DIF objects' variable tables. */
} dt_program_t;

/* The header of every record in a principal or speculative buffer. */
typedef struct dt_rechdr {
	uint32_t rh_epid;
	uint32_t rh_size;	/* bytes of data after the header */
	uint64_t rh_timestamp;	/* ns, when the record was written */
} dt_rechdr_t;

/* EPID 0 is never assigned: a zero header marks unused buffer space. */
#define DT_EPID_NONE 0

/*
 * A clause that faulted and had no ERROR clause to handle it is reported
 * through a record with this EPID, whose data is a dt_faultrec_t; the
 * consumer prints DTrace's "error on enabled probe ID ..." line for it.
 */
#define DT_EPID_FAULT 0xffffffffu

typedef struct dt_faultrec {
	uint32_t fr_epid;   /* the enabled probe that faulted */
	uint32_t fr_action; /* 1-based action index; 0 for the predicate */
	int32_t fr_offset;  /* DIF offset in bytes, or -1 */
	uint32_t fr_kind;   /* DIF_FLT_* */
	uint64_t fr_addr;   /* the address involved, or 0 */
} dt_faultrec_t;

/*
 * An aggregation snapshot from one CPU (or already merged): for each
 * (aggregation, key) pair the engine has seen, the key bytes and the value
 * words.  Entries are packed: aggid, then ag_keysize bytes of key padded to
 * 8, then ag_nvals int64_t.
 */
typedef struct dt_aggsnap {
	uint32_t as_cpu;
	uint32_t as_nentries;
	size_t as_size;	     /* bytes in as_data */
	unsigned char *as_data;
} dt_aggsnap_t;

/* D's names: "trace", "printf", ... ("expression" for DT_ACT_DIFEXPR). */
extern const char *dt_action_name(dt_actkind_t kind);
/* "count", "quantize", ... */
extern const char *dt_aggkind_name(dt_aggkind_t kind);
/*
 * Is kind an action the consumer carries out (prints, or acts on, like
 * exit() and clear())?  A firing with one must be recorded; a firing with
 * none prints nothing.  Speculation control (speculate, commit, discard)
 * is recorded for the consumer but prints nothing.
 */
extern bool dt_action_consumed(dt_actkind_t kind);

#endif /* DT_PROGRAM_H */
