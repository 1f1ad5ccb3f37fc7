/* SPDX-License-Identifier: MIT */
/*
 * dif_interp.h: the portable DIF interpreter.
 *
 * The interpreter defines what DIF means (DESIGN invariant 2).  It has no
 * OS dependencies: everything it cannot compute from the program and its
 * own storage (pid, execname, target-process memory, ...) it asks of the
 * engine through a table of callbacks, dif_ops_t.
 *
 * Two pieces of state:
 *
 *   dif_state_t	one per consumer (per enabling): global variables,
 *			thread-local variables and associative arrays in a
 *			dynamic-variable space bounded by dynvarsize, and the
 *			options the semantics depend on (strsize).
 *
 *   dif_mstate_t	one per probe firing in progress: the probe context
 *			(arguments, IDs, names, timestamp), the clause-local
 *			variables (shared by the clauses of one firing, as in
 *			DTrace), strtok()'s position, scratch space for
 *			strings and alloca(), and the last fault.
 *
 * An engine, for each firing:
 *
 *	dif_mstate_firing(ms, epid, id, prov, mod, func, name, args, n, ts);
 *	for each clause (statement) enabled on the probe:
 *		dif_mstate_clause(ms, epid);	scratch is per clause
 *		if predicate: dif_exec(st, ms, pred, &v); skip clause if !v
 *		for each action argument: dif_exec(st, ms, difo, &v), then
 *		    copy by-reference results out with dif_read()/dif_readstr()
 *
 * dif_exec() returns 0, or a DIF_FLT_* fault with the details in
 * ms->dm_fault; dif_fault_format() words it as DTrace does.
 *
 * Memory safety: a register is only dereferenced when the address lies in
 * storage the interpreter owns (scratch, variable storage, the string
 * table, its own string buffers) or through the engine's read callback,
 * which may refuse (an "invalid address" fault).  Stores go only to
 * scratch and variable storage.  Run dif_verify() on every object first:
 * the interpreter trusts the encoding and register numbers it checks.
 */
#ifndef DIF_INTERP_H
#define DIF_INTERP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/dif/dif.h"

/* Fault kinds: DTrace's DTRACEFLT_* numbers (the ERROR probe's arg4). */
#define DIF_FLT_UNKNOWN	  0
#define DIF_FLT_BADADDR	  1	/* invalid address */
#define DIF_FLT_BADALIGN  2	/* invalid alignment */
#define DIF_FLT_ILLOP	  3	/* illegal operation */
#define DIF_FLT_DIVZERO	  4	/* divide-by-zero */
#define DIF_FLT_NOSCRATCH 5	/* out of scratch space */
#define DIF_FLT_KPRIV	  6	/* invalid kernel access */
#define DIF_FLT_UPRIV	  7	/* invalid user access */
#define DIF_FLT_TUPOFLOW  8	/* tuple stack overflow */
#define DIF_FLT_BADSTACK  9	/* bad stack */
#define DIF_FLT_LIBRARY	  1000	/* library-level fault */
/*
 * Not a fault: a dynamic variable's store was dropped (no space), which
 * ends the clause silently, its record unwritten, as DTrace's drop does.
 */
#define DIF_FLT_DROP	  1001

typedef struct dif_fault {
	int df_kind;		/* DIF_FLT_*; 0 with no fault */
	uint64_t df_addr;	/* address involved, or 0 */
	int32_t df_offset;	/* DIF offset in bytes (4 * instruction), or -1 */
} dif_fault_t;

/* Address spaces an engine reads for the interpreter. */
typedef enum dif_as {
	DIF_AS_KERNEL,		/* ld*, rld*, and kernel pointers */
	DIF_AS_USER,		/* uld*, copyin(), copyinstr() */
} dif_as_t;

/* Number of arguments kept in the firing context (arg0..arg9, args[]). */
#define DIF_NARGS 10

/*
 * Callbacks into the engine.  Any may be NULL.  Each returns 0 on success
 * or -1 when the value or memory is not available.
 */
typedef struct dif_ops {
	/* Reads size bytes at addr; all or nothing (-1: invalid address). */
	int (*do_read)(void *arg, dif_as_t as, uint64_t addr, void *buf,
	    size_t size);
	/* Writes user memory for copyout()/copyoutstr() (destructive). */
	int (*do_write)(void *arg, uint64_t addr, const void *buf,
	    size_t size);
	/*
	 * Integer built-in variables the interpreter cannot know (pid, tid,
	 * ppid, uid, gid, errno, cpu, curcpu, curthread, vtimestamp,
	 * walltimestamp, ipl, caller, ucaller, stackdepth, ustackdepth) and
	 * the elements of the built-in arrays regs[]/uregs[] (ndx), and
	 * args[ndx] for ndx >= DIF_NARGS.  id is a DIF_VAR_* value.
	 * Failure (-1) is an "illegal operation" fault.
	 */
	int (*do_var)(void *arg, uint32_t id, uint64_t ndx, uint64_t *valp);
	/*
	 * String built-ins (execname, zonename, cwd, root, execargs): copy
	 * at most size - 1 bytes and a NUL into buf.
	 */
	int (*do_varstr)(void *arg, uint32_t id, char *buf, size_t size);
	/*
	 * Subroutines that need the engine: speculation(), progenyof(),
	 * getf(), ddi_pathname(), msgsize(), msgdsize().  Returns 0 with
	 * *valp set, or a DIF_FLT_* fault.  When NULL (or for a subroutine
	 * the engine does not know), speculation() returns 0 ("no
	 * speculation buffer"), progenyof() compares with pid, and the
	 * others fault with "illegal operation".
	 */
	int (*do_subr)(void *arg, uint32_t subr, const uint64_t *args,
	    int nargs, uint64_t *valp);
} dif_ops_t;

/* Options of a state; zero fields take the DTrace defaults. */
typedef struct dif_options {
	uint64_t dio_strsize;	 /* strsize: 256 */
	uint64_t dio_dynvarsize; /* dynvarsize: 1 MiB */
	uint64_t dio_seed;	 /* rand() seed; 0: from the clock */
	bool dio_scratchset;	 /* scratchsize is set: */
	uint64_t dio_scratchsize; /* alloca()'s limit a clause */
	const dif_ops_t *dio_ops;
	void *dio_arg;		 /* passed to every callback */
} dif_options_t;

typedef struct dif_state dif_state_t;
typedef struct dif_mstate dif_mstate_t;

extern dif_state_t *dif_state_create(const dif_options_t *opts);
extern void dif_state_destroy(dif_state_t *st);
/* Dynamic-variable drops so far ("N dynamic variable drops"). */
extern uint64_t dif_state_dyndrops(const dif_state_t *st);
/* Frees the thread-local variables of a thread that has exited. */
extern void dif_state_thread_exit(dif_state_t *st, uint64_t tkey);
extern uint64_t dif_state_strsize(const dif_state_t *st);

/*
 * The firing context.  An engine creates one per thread of execution
 * (per CPU, as DTrace does) and reuses it for every firing.  scratchsize
 * bounds the strings and alloca() of one clause; 0 means 256 KiB.
 */
extern dif_mstate_t *dif_mstate_create(dif_state_t *st, size_t scratchsize);
extern void dif_mstate_destroy(dif_mstate_t *ms);

/*
 * Starts a firing: clears clause-local variables and strtok() state and
 * records the probe context.  tkey identifies the thread for self->
 * variables (the engine's tid, or a CPU number for kernel context);
 * names are copied.  args beyond nargs read as 0.
 */
extern void dif_mstate_firing(dif_mstate_t *ms, uint32_t epid, uint32_t id,
    const char *prov, const char *mod, const char *func, const char *name,
    const uint64_t *args, int nargs, uint64_t timestamp, uint64_t tkey);
/* Starts a clause: sets the EPID and empties scratch. */
extern void dif_mstate_clause(dif_mstate_t *ms, uint32_t epid);
/* The last fault (after dif_exec() returned non-zero). */
extern const dif_fault_t *dif_mstate_fault(const dif_mstate_t *ms);

/*
 * Runs one DIF object.  Returns 0 with the value of RET in *resultp (an
 * address for by-reference types), or a DIF_FLT_* fault kind.
 */
extern int dif_exec(dif_state_t *st, dif_mstate_t *ms,
    const dif_object_t *difo, uint64_t *resultp);

/*
 * Copying a by-reference result out, with the same checks as a load:
 * dif_read() copies size bytes; dif_readstr() copies a string of at most
 * size - 1 bytes and a NUL (size is normally strsize).  They return 0 or
 * a fault kind (recorded in the mstate like any fault).  An address is
 * resolved against the storage of the last object dif_exec() ran.
 */
extern int dif_read(dif_mstate_t *ms, uint64_t addr, void *buf, size_t size);
extern int dif_readstr(dif_mstate_t *ms, uint64_t addr, char *buf,
    size_t size);

/* DTrace's words for a fault kind: "invalid address", ... */
extern const char *dif_fault_name(int kind);
/*
 * The fault part of DTrace's error line, e.g.
 *	invalid address (0x0) in action #1 at DIF offset 12
 * action is 0 for the predicate ("in predicate").  Returns the length
 * snprintf() would have written.
 */
extern int dif_fault_format(const dif_fault_t *f, int action, char *buf,
    size_t size);

#endif /* DIF_INTERP_H */
