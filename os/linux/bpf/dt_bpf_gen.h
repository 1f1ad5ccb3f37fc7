/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_gen.h: the DIF to eBPF translator.
 *
 * One BPF program serves one attach point: a single probe (BEGIN, one
 * syscalls:sys_enter_* tracepoint, one profile timer) or a group of probes
 * that share one kernel event (every syscall entry on raw_syscalls), and
 * runs all their enabled clauses in EPID order.  Everything the programs
 * of one enabling share is described by the layout, built before any
 * program is generated:
 *
 *   state map	 (array, 1 entry, shared by all CPUs)
 *		 | consts: every DIF string table, probe names, "global" |
 *		 | zeros: a block read to clear memory with one helper call |
 *		 | counters (drops, errors, ...) | exit flag | globals     |
 *		 | speculations | drops per CPU |
 *   scratch map (per-CPU array, 1 entry): the firing context, DIF
 *		 clause-locals, string work buffers, key and record buffers,
 *		 and the scratch area DIF allocates strings and alloca() from
 *   dynvar maps (hash, one per thread-local or associative array):
 *		 key = thread key + tuple bytes, value = the variable's bytes
 *   agg maps	 (per-CPU hash, one per aggregation): key = key bytes,
 *		 value = the value words of dt_aggfunc.h + an "initialised on
 *		 this CPU" word
 *   ring buffer records: an 8-byte CPU prefix, then dt_rechdr_t + data
 *   probe table (array by syscall number) for group programs: the probe
 *		 ID, argument count, probefunc and the EPID of each clause
 *
 * DIF values are all 64-bit numbers in the program, pointers included:
 * the translator turns the map value addresses into numbers once per
 * firing (storing the pointer into the map and reading it back, which the
 * kernel allows CAP_PERFMON programs), so a DIF address is a number like
 * in the interpreter, read through bpf_probe_read_kernel() wherever it
 * points.  Writes go only to DIF scratch, clause-locals and globals,
 * checked against their ranges at run time.
 */
#ifndef DT_BPF_GEN_H
#define DT_BPF_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/dt_program.h"
#include "os/linux/bpf/dt_bpf_insn.h"
#include "os/linux/prov/dt_kevent.h"
#include "os/linux/prov/dt_linux_prov.h"

#define DT_BPF_NARGS	 10	/* arg0..arg9 in the firing context */
#define DT_BPF_RECPREFIX 8	/* CPU number ahead of each record */

/* Where a program's probe context comes from. */
typedef enum dt_bpf_ctxkind {
	DT_BPF_CTX_RAWTP,	   /* raw_tp, run by test runs: u64[10] */
	DT_BPF_CTX_SYSCALL_ENTRY,  /* tracepoint: nr, then args (ps_sys_*) */
	DT_BPF_CTX_SYSCALL_RETURN, /* tracepoint: nr, then the return */
	DT_BPF_CTX_PERF,	   /* perf_event: struct pt_regs */
	DT_BPF_CTX_UPROBE,	   /* uprobe (kprobe type): struct pt_regs,
				      arguments from the call registers */
	DT_BPF_CTX_URETURN,	   /* uprobe on a return site: arg0 = its
				      offset in the function, arg1 = rax */
	DT_BPF_CTX_USDT,	   /* uprobe on USDT sites: arguments as
				      each site's operands say */
	DT_BPF_CTX_KTP,		   /* kernel event (dt_kevent.h) on a perf
				      tracepoint: the format record */
	DT_BPF_CTX_KRAWTP,	   /* kernel event on a raw tracepoint: the
				      u64 TP_PROTO arguments */
	DT_BPF_CTX_FBT,		   /* kernel event on a function: fentry/
				      fexit's u64 arguments, or a kprobe's
				      struct pt_regs */
} dt_bpf_ctxkind_t;

/* A variable of the program, from the DIF variable tables. */
typedef struct dt_bpf_var {
	uint8_t bv_scope;	/* DIFV_SCOPE_* */
	uint8_t bv_kind;	/* DIFV_KIND_* */
	bool bv_byref;
	bool bv_string;
	uint32_t bv_id;
	uint32_t bv_size;	/* value bytes (strsize for strings) */
	uint32_t bv_off;	/* globals: in the state map; locals: scratch */
	uint32_t bv_keysize;	/* dynamic: map key bytes */
	uint32_t bv_maxent;	/* dynamic: map entries */
	int bv_fd;		/* dynamic: its hash map */
} dt_bpf_var_t;

/*
 * An aggregation's map.  Its key is the key tuple of dt_aggdesc_t, except
 * that a string key whose every source is bounded (execname's 16 bytes, a
 * string constant) takes only that many bytes: hashing and comparing a
 * 16-byte key instead of a strsize one is most of a keyed aggregation's
 * cost.  ba_keys then gives the map's layout, and the engine puts each
 * key back at its ag_keys offset, zero-padded, when it reads the map.
 * An aggregation without keys is a one-entry per-CPU array instead: the
 * kernel inlines its lookup into the program (no hashing, no call), and
 * its entry is never deleted nor zeroed, its flag words counting each
 * CPU's updates, the consumer counting from a baseline (ba_base).
 *
 * A keyed aggregation's values live in slots, which the consumer reads
 * in place without a system call (docs/bpf-engine.md, "Reading
 * aggregations"): ba_fd is a hash from the key to its slot number,
 * ba_slots_fd an mmap-able array of slots -- slot 0 the header (the next
 * never-used slot), then each slot a state word (DT_AGGSLOT_LIVE once
 * its key is in the hash), the key, and each CPU's ba_valsize bytes from
 * ba_valoff -- and ba_free_fd a queue of the slots given back.  Where the
 * slots cannot be made (an old kernel, or too large a slot), the values
 * are a per-CPU hash (ba_fd, keyed as the hash above) as before.
 */
typedef enum dt_bpf_aggkind {
	DT_AGGMAP_HASH,		/* a per-CPU hash of key -> values */
	DT_AGGMAP_ARRAY,	/* no keys: a per-CPU array, key 0 */
	DT_AGGMAP_SLOTS		/* key -> slot hash, slot array, free queue */
} dt_bpf_aggkind_t;

#define DT_AGGSLOT_LIVE 1	/* a slot's state word: its key is in use */

typedef struct dt_bpf_aggmap {
	const dt_aggdesc_t *ba_agg;
	dt_recdesc_t *ba_keys;	/* ag_nkeys: the map key's layout */
	bool ba_compact;	/* ba_keys differs from ag_keys */
	uint32_t ba_cut;	/* string keys cut to this width, or 0 */
	uint32_t ba_cutframes;	/* stack keys cut to this many frames */
	dt_bpf_aggkind_t ba_kind;
	uint32_t ba_keysize;	/* map key bytes (4 for an array) */
	uint32_t ba_valsize;	/* ag_nvals words + the flag word */
	uint32_t ba_maxent;	/* keys (slots 1 to ba_maxent) */
	int ba_fd;
	int ba_slots_fd, ba_free_fd;	/* DT_AGGMAP_SLOTS */
	uint32_t ba_ncpus;	/* CPUs with values in a slot */
	uint32_t ba_valoff;	/* CPU 0's values in a slot */
	uint32_t ba_slotsize;	/* bytes of a slot, a multiple of 8 */
	struct dt_bpf_slotmap *ba_map;	/* the consumer's mapping of them */
	void *ba_base;	/* DT_AGGMAP_ARRAY: per CPU, the values at the last
			 * clear() or trunc(), which readings count from */
	struct dt_bpf_aggflip *ba_flip;	/* DT_AGGMAP_HASH: two of them */
} dt_bpf_aggmap_t;

/*
 * A per-CPU hash aggregation made twice, so that clear() and trunc() can
 * take one whole while the firings go on in the other: the program finds
 * the hash it updates in af_outer, an array of maps of one entry, which
 * the consumer points at the other hash before it waits out the firings
 * and empties the first (dt_bpf_aggread.c).  ba_fd is af_inner[0].
 */
typedef struct dt_bpf_aggflip {
	int af_outer;
	int af_inner[2];
	int af_cur;	/* the one af_outer holds */
} dt_bpf_aggflip_t;

/*
 * The consumer's mapping of a slot array: only as far as slots have been
 * used (grown as they are, by doubling), as every page of a mapping of
 * BPF map memory counts in the process's resident size from the start.
 */
typedef struct dt_bpf_slotmap {
	unsigned char *sm_base;
	size_t sm_len;	/* bytes mapped */
	size_t sm_max;	/* the whole array's, in whole pages */
} dt_bpf_slotmap_t;

typedef struct dt_bpf_difconst {
	const dif_object_t *dc_difo;
	uint32_t dc_off;	/* its string table in consts */
} dt_bpf_difconst_t;

typedef struct dt_bpf_layout {
	uint32_t bl_strsize;
	uint64_t bl_dynvarsize;
	uint64_t bl_aggsize;
	const dt_program_t *bl_prog;

	/*
	 * consts, built while statements are added: strings, addressed by
	 * their offset in consts.  They lie at bl_consts_off in the state
	 * map, after its fixed fields, so that however many probe names
	 * they hold, the fixed fields stay within the 16-bit offsets of BPF
	 * instructions.  bl_chash finds a string already there.
	 */
	char *bl_consts;
	uint32_t bl_conslen;
	uint32_t bl_conscap;
	uint32_t bl_consts_off;
	uint32_t *bl_chash;	/* offset + 1 of a string, 0: free */
	uint32_t bl_chashcap;	/* a power of 2 */
	uint32_t bl_nchash;
	/*
	 * Room kept for the names of probes enabled while tracing runs (a
	 * process exec'd or dlopen'ed): [bl_spare, bl_spare_end) of consts,
	 * written into the live consts bl_live (in the state map) as well.
	 */
	uint32_t bl_spare;
	uint32_t bl_spare_end;
	unsigned char *bl_live;
	dt_bpf_difconst_t *bl_difc;
	uint32_t bl_ndifc;
	uint32_t bl_zonename;	/* "global" in consts */

	dt_bpf_var_t *bl_vars;
	uint32_t bl_nvars;
	dt_bpf_aggmap_t *bl_aggs;	/* indexed by aggregation ID */
	uint32_t bl_naggs;
	/* per aggregation, per key: the most bytes a string key can take
	 * (its NUL included) over every clause, UINT32_MAX if unbounded;
	 * 0 until a clause aggregates into it */
	uint32_t **bl_keybound;

	/* maxima over the statements */
	uint32_t bl_maxrec;	/* st_size */
	uint32_t bl_maxaggkey;
	uint32_t bl_maxaggval;
	uint32_t bl_maxdynkey;
	uint32_t bl_maxdynval;
	uint32_t bl_maxclauses;	/* set by the engine */

	/* speculations and per-CPU counts, set by the engine before
	   dt_bpf_layout_finish() (dt_bpf_spec.c) */
	uint32_t bl_nspec;
	uint64_t bl_specsize;
	uint32_t bl_ncpus;

	/* state map offsets */
	uint32_t bl_spec_off;	/* bl_nspec dt_spec_t */
	uint32_t bl_cpudrops_off; /* drops, then agg drops, per CPU */
	uint32_t bl_cpuinfo_off; /* curcpu: a dt_cpuinfo_t per CPU */
	bool bl_curcpu;		/* some clause reads curcpu */
	uint32_t bl_zero_off;
	uint32_t bl_zero_size;
	uint32_t bl_cnt_off;	/* DT_BPF_CNT_* words */
	uint32_t bl_dynused_off; /* dynamic variables' bytes, a line alone */
	uint32_t bl_globals_off;
	uint32_t bl_globals_size;
	uint32_t bl_state_size;

	/* scratch map offsets */
	uint32_t bl_epids_off;
	uint32_t bl_tuple_off;
	uint32_t bl_work_off;	/* DT_BPF_NWORK buffers of bl_worksize */
	uint32_t bl_worksize;
	uint32_t bl_strbuf_off;	/* execname */
	uint32_t bl_argsbuf_off; /* execargs */
	uint32_t bl_kstr_off;	/* a kernel event's copied user string */
	uint32_t bl_strtok_off;	/* strtok(): valid, position, the string */
	bool bl_strtok;		/* some clause calls strtok() */
	uint32_t bl_cwd_off;	/* cwd: the walk's state, names, text */
	bool bl_cwd;		/* some clause reads cwd or calls d_path() */
	/*
	 * The arguments the clauses read: 1 + the highest argN, or every
	 * one for args[].  A uprobe's prologue reads the stack-passed ones
	 * (a helper call each) only below this.
	 */
	uint32_t bl_nargs;
	uint32_t bl_dynkey_off;
	uint32_t bl_dynval_off;
	uint32_t bl_aggkey_off;
	uint32_t bl_aggval_off;
	uint32_t bl_rec_off;
	uint32_t bl_esave_off;	/* the firing context, kept while ERROR runs */
	uint32_t bl_lsave_off;	/* clause-locals, likewise */
	uint32_t bl_kstack_off;	/* stackdepth, caller: DT_BPF_KSTACK_MAX */
	uint32_t bl_locals_off;	/* first writable byte */
	uint32_t bl_locals_size;
	uint32_t bl_dscratch_off;
	uint32_t bl_dscratch_size;
	bool bl_scratchset;	 /* alloca() has a limit a clause: */
	uint32_t bl_scratchsize;
	uint32_t bl_scratch_size; /* includes a guard of dscratch_size */
	bool bl_scratch_shared;	/* too big for a per-CPU array: a plain
				 * array with an entry per CPU instead */

	/* maps, created by the engine from the sizes above */
	int bl_state_fd;
	int bl_scratch_fd;
	int bl_rb_fd;		/* the records: ring buffer or perf array */
	bool bl_perfbuf;	/* bl_rb_fd is a PERF_EVENT_ARRAY map */
} dt_bpf_layout_t;

/* Counters in the state map, as 64-bit words from bl_cnt_off. */
enum {
	DT_BPF_CNT_DROPS,
	DT_BPF_CNT_DYNDROPS,
	DT_BPF_CNT_AGGDROPS,
	DT_BPF_CNT_ERRORS,
	DT_BPF_CNT_EXITED,	/* exit() ran, or tracing stopped: 1 */
	DT_BPF_CNT_WALLOFF,	/* walltimestamp - timestamp, set by us */
	DT_BPF_CNT_SPECDROPS,	/* over specsize */
	DT_BPF_CNT_SPECBUSY,	/* speculation() failed: busy */
	DT_BPF_CNT_SPECUNAVAIL,	/* speculation() failed: none free */
	DT_BPF_CNT_STARTED,	/* BEGIN has run: 1, set by us */
	DT_BPF_CNT_NWORDS
};

#define DT_BPF_NWORK 3

/*
 * cwd's part of scratch: the walk's dentry, vfsmount, mount and count of
 * names, DT_BPF_CWD_NAMES name addresses (the deepest directories shown),
 * then the text.
 */
#define DT_BPF_CWD_NAMES 32
#define DT_BPF_CWD_TEXT (32 + 8 * DT_BPF_CWD_NAMES)

/*
 * The deepest kernel stack stackdepth counts: the default of the kernel's
 * perf_event_max_stack, which caps bpf_get_stack() anyway.
 */
#define DT_BPF_KSTACK_MAX 127

/*
 * The deepest user stack ustackdepth counts.  User stacks are walked here
 * (CFI), not by the kernel, so perf_event_max_stack does not cap them;
 * ustackdepth must count every frame ustack() can record.
 */
#define DT_BPF_USTACK_MAX 1024

/*
 * Slots of the user stack walk's cache of rows, per CPU (a power of 2):
 * 128 KB each, room for the return addresses of a large program.
 */
#define DT_BPF_UCACHE_N 4096

extern void dt_bpf_layout_init(dt_bpf_layout_t *lay, const dt_program_t *pgp,
    uint32_t strsize, uint64_t dynvarsize, uint64_t aggsize);
/* Scan one statement's DIF: variables, constants, buffer sizes. */
extern int dt_bpf_layout_add_stmt(dt_bpf_layout_t *lay, const dt_stmt_t *stp,
    char *errbuf, size_t errlen);
/* Add a NUL-terminated string to consts; returns its offset. */
extern uint32_t dt_bpf_layout_const(dt_bpf_layout_t *lay, const char *s);
/*
 * Keep len bytes of consts for dt_bpf_layout_const() calls after the
 * layout is finished (once bl_live is the mapped state); such a call
 * that finds no room answers UINT32_MAX.
 */
extern void dt_bpf_layout_spare(dt_bpf_layout_t *lay, uint32_t len);
/* Compute every offset; after this the engine creates the maps. */
extern int dt_bpf_layout_finish(dt_bpf_layout_t *lay, char *errbuf,
    size_t errlen);
extern void dt_bpf_layout_fini(dt_bpf_layout_t *lay);
extern const dt_bpf_var_t *dt_bpf_layout_var(const dt_bpf_layout_t *lay,
    uint8_t scope, uint32_t id);
/*
 * The bytes one element of a dynamic variable is charged against
 * dynvarsize: its key and value, strings at strsize, and a header as
 * DTrace's dynamic variables have.
 */
#define DT_BPF_DYNVAR_HDR 64
extern uint32_t dt_bpf_layout_dyncost(const dt_bpf_var_t *bv);

/* One entry of a group program's probe table. */
typedef struct dt_bpf_ptab {
	uint32_t pt_id;		/* probe ID; 0: no enabled probe */
	uint32_t pt_nargs;
	uint32_t pt_func;	/* probefunc's offset in consts */
	uint32_t pt_mod;	/* probemod's */
	uint32_t pt_name;	/* probename's */
	uint32_t pt_pad;
	uint64_t pt_ufunc;	/* pid probes: the function's address */
	uint32_t pt_epids[];	/* per clause of the program; 0: not here */
} dt_bpf_ptab_t;

/* What to generate. */
/*
 * tick-N of period T: how overdue a period is when the stand-by CPUs'
 * timers (which expire every DT_BPF_TICK_STANDBY_EVERY) take it over
 * from CPU 0's, and when the consumer's stand-in does, after the
 * stand-bys' last chance (dt_bpf_cg_tick_due, dt_bpf_mech_timer.c).
 * At least 200 ms: a CPU 0 held up under load (its ticks skipped, its
 * virtual CPU not run) then rarely hands a tick to another CPU, whose
 * records would print in another CPU's turn, out of order.  At most a
 * second, so that a long tick's exit() is not held up long.
 */
static inline uint64_t
dt_bpf_tick_clamp(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

#define DT_BPF_MS 1000000ULL
#define DT_BPF_TICK_STANDBY(t) \
	dt_bpf_tick_clamp((t) / 4, 200 * DT_BPF_MS, 500 * DT_BPF_MS)
#define DT_BPF_TICK_STANDBY_EVERY(t) \
	dt_bpf_tick_clamp((t) / 2, 10 * DT_BPF_MS, 250 * DT_BPF_MS)
#define DT_BPF_TICK_STANDIN(t) \
	dt_bpf_tick_clamp((t) / 4 * 3, 250 * DT_BPF_MS, 1000 * DT_BPF_MS)

typedef struct dt_bpf_progspec {
	dt_bpf_ctxkind_t ps_ctx;
	uint32_t ps_nclauses;
	const dt_stmt_t **ps_stmts;	/* in EPID order */
	bool ps_always;		/* END, ERROR: run even after exit() */
	bool ps_begin;		/* BEGIN: runs before tracing has started */
	/* a single probe: its constants */
	const uint32_t *ps_epids;	/* per clause */
	uint32_t ps_id;
	int ps_nargs;
	/*
	 * syscall tracepoints: where the record holds the system call's
	 * number (raw_syscalls only) and its first argument or its return
	 * value -- 8 and 16 on most kernels; PREEMPT_RT's longer common
	 * header moves raw_syscalls' to 16 and 24.
	 */
	int16_t ps_sys_nroff, ps_sys_argoff;
	uint32_t ps_prov, ps_mod, ps_func, ps_name; /* offsets in consts */
	/*
	 * uprobes: only this process (tgid) fires, or with ps_ufollow
	 * (followfork) the processes that the hash map ps_procset_fd maps
	 * to the image (ps_ugen << 32 | ps_upid) the probe was resolved in;
	 * the function's address
	 */
	uint32_t ps_upid;
	uint32_t ps_ugen;	/* followfork: the image of ps_upid */
	bool ps_ufollow;
	int ps_procset_fd;
	uint64_t ps_ufunc;
	/*
	 * pid probes where the caller's return address is still where the
	 * call left it (on top of the stack, or in the link register),
	 * not in a frame the walk by frame pointers finds: at a function's
	 * first instruction (its entry probe, or offset 0), at a return
	 * site (ret, tail-call branch), or anywhere in a function that makes
	 * no frame (dt_isa_site_t.atcall)
	 */
	bool ps_uatret;
	/*
	 * A group's uprobe cookie carries, above the probe's index, the
	 * site's offset in its function: a return's arg0 (pid*, where the
	 * function's address is the process's own).
	 */
	bool ps_ucookieoff;
	/*
	 * uprobes: the unwind rows of the process (os/linux/dt_cfi.h), an
	 * array map of ps_ucfi_n dt_cfi_row_t; 0 rows: user stacks follow
	 * the frame pointers (bpf_get_stack()).
	 */
	int ps_ucfi_fd;
	uint32_t ps_ucfi_n;
	/*
	 * Every other program (and uprobes without ps_ucfi_n): with
	 * ps_ustk, the user stack of a process dtrace follows is walked
	 * with its rows, found at run time: ps_procset_fd maps the tgid to
	 * its image, whose low word (the process whose exec made the
	 * address space) keys the hash of maps ps_ustk_fd, whose values
	 * are arrays of up to DT_CFI_MAXROWS dt_cfi_row_t.  Processes
	 * without rows, and programs without ps_ustk, follow frame pointers.
	 */
	bool ps_ustk;
	int ps_ustk_fd;
	/*
	 * The rows those walks found, so that a frame at an address seen
	 * before costs no binary search over the rows (a map lookup a
	 * step): an array of an entry per CPU, each DT_BPF_UCACHE_N slots
	 * of 32 bytes, direct-mapped (dt_bpf_stack.c).  ps_ugen_fd maps the owner
	 * to the generation of its rows, which changes whenever they are
	 * made again, so a row of an old image is never found.  -1: no
	 * cache.
	 */
	int ps_ugen_fd;
	int ps_ucache_fd;
	/*
	 * pid return probes at conditional tail calls: the runtime address
	 * of each such site and its condition (cc + 1, as
	 * dt_pid_probe_t.pi_conds): the program ends there, without
	 * firing, unless the branch is taken.
	 */
	const uint64_t *ps_ucondpc;
	const uint16_t *ps_uconds;
	size_t ps_nuconds;
	/*
	 * USDT: the runtime address of each site (ps_ufunc + file offset)
	 * and its argument operands; sites whose operands differ are told
	 * apart by the instruction pointer.
	 */
	const uint64_t *ps_usites;
	const dt_usdt_args_t *ps_uargs;
	size_t ps_nusites;
	/* kernel events: how each argument is read, and the filter */
	const dt_kevent_t *ps_kevent;
	/*
	 * a group: ps_table_fd >= 0, keyed by the syscall number (< max),
	 * or with ps_table_cookie by the uprobe's attach cookie; the
	 * probe's names, and a pid probe's function, come from there
	 */
	int ps_table_fd;
	uint32_t ps_table_max;
	bool ps_table_cookie;
	/*
	 * tick-N: the program runs from a cpu-clock event on several CPUs
	 * (a CPU busy in another BPF program skips its perf events): that
	 * of ps_tick_cpu fires the probe when the period is due, another
	 * when it is well overdue, taking the period by a compare-and-swap
	 * of the next due time, the one word of the array map ps_tick_fd
	 * (-1 for other programs).
	 */
	int ps_tick_fd;
	uint64_t ps_tick_period;	/* nanoseconds */
	uint32_t ps_tick_cpu;		/* the first CPU's timer fires it */
	/*
	 * The ERROR probe's clauses, run inline when a clause of this
	 * program faults (none in the ERROR program itself): their EPIDs,
	 * and the probe's ID and names (offsets in consts).
	 */
	uint32_t ps_nerr;
	const dt_stmt_t **ps_err_stmts;
	const uint32_t *ps_err_epids;
	uint32_t ps_err_id;
	uint32_t ps_err_prov, ps_err_mod, ps_err_func, ps_err_name;
} dt_bpf_progspec_t;

/* Size of one probe table value for a program of nclauses clauses. */
extern size_t dt_bpf_ptab_size(uint32_t nclauses);

/*
 * Generate the program.  Returns 0, or -1 with one line in errbuf
 * ("clause 2: subroutine index() is not supported by the bpf engine").
 */
extern int dt_bpf_gen(const dt_bpf_layout_t *lay, const dt_bpf_progspec_t *ps,
    dt_bpf_buf_t *b, char *errbuf, size_t errlen);

#endif /* DT_BPF_GEN_H */
