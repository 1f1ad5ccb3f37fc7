/* SPDX-License-Identifier: MIT */
/*
 * dif_impl.h: the interpreter's private structures, shared by
 * dif_interp.c (the instruction loop and memory access), dif_vars.c
 * (variable storage) and dif_subr.c (subroutines).  Nothing outside
 * common/dif/ includes this.
 *
 * Memory the interpreter owns, and so may dereference directly:
 *
 *	scratch		ms_scratch: bump-allocated per clause; strings made
 *			by subroutines, alloca(), copyin()
 *	strbuf		ms_strbuf: the probe names and string built-ins,
 *			one strsize slot each, filled once per firing
 *	strtok		ms_strtok: strtok()'s copy of the string it walks
 *	strtab		the running object's string table (read-only)
 *	statics		st_static, ms_localarena: by-reference global and
 *			clause-local variables, in arenas of chunks
 *	dynamic		st_dynarena: by-reference values of thread-local
 *			variables and associative-array elements, one block
 *			of dynvarsize bytes with per-size-class free lists
 *
 * Everything else goes through the engine's do_read callback.  Stores are
 * allowed to scratch and to variable storage only.  The dynamic arena
 * holds only values: the hash entries (dif_dynvar_t) and their keys are
 * allocated apart, so no store can corrupt the interpreter's own data.
 */
#ifndef DIF_IMPL_H
#define DIF_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/dif/dif_interp.h"

/* A growable arena of chunks; allocations are 8-aligned and zeroed. */
typedef struct dif_chunk {
	struct dif_chunk *dc_next;
	size_t dc_size;
	size_t dc_used;
	unsigned char *dc_data;
} dif_chunk_t;

typedef struct dif_arena {
	dif_chunk_t *da_head;
} dif_arena_t;

extern void *dif_arena_alloc(dif_arena_t *a, size_t size);
extern bool dif_arena_contains(const dif_arena_t *a, uint64_t addr,
    size_t len);
extern void dif_arena_reset(dif_arena_t *a);
extern void dif_arena_fini(dif_arena_t *a);

/* What the program says about one variable (from any variable table). */
typedef struct dif_varinfo {
	bool vi_known;
	bool vi_byref;
	bool vi_string;
	uint32_t vi_size;
} dif_varinfo_t;

/* Storage of a global or clause-local scalar. */
typedef struct dif_svar {
	uint64_t sv_value;	/* by value */
	unsigned char *sv_data;	/* by reference: in an arena, or NULL */
	bool sv_null;		/* by reference, holding NULL */
} dif_svar_t;

/* A thread-local variable or associative-array element. */
typedef struct dif_dynvar {
	struct dif_dynvar *dd_next;
	uint64_t dd_hash;
	uint64_t dd_value;	/* by value */
	unsigned char *dd_data;	/* by reference: in st_dynarena */
	uint32_t dd_class;	/* size class of dd_data */
	uint32_t dd_keylen;
	size_t dd_cost;		/* bytes charged against dynvarsize */
	unsigned char dd_key[];
} dif_dynvar_t;

#define DIF_NSCOPES 3
#define DIF_NCLASSES 32

struct dif_state {
	uint64_t st_strsize;
	bool st_scratchset;		/* alloca() has a limit a clause: */
	uint64_t st_scratchsize;
	uint64_t st_dynvarsize;
	const dif_ops_t *st_ops;
	void *st_arg;
	uint64_t st_rand[2];		/* xorshift128+ */

	dif_varinfo_t *st_vinfo[DIF_NSCOPES];	/* by dif_varindex() */
	uint32_t st_nvinfo[DIF_NSCOPES];
	dif_svar_t *st_globals;		/* by dif_varindex() */
	uint32_t st_nglobals;
	dif_arena_t st_static;

	dif_dynvar_t **st_dynhash;
	uint64_t st_dynmask;
	size_t st_dynused;		/* bytes charged */
	unsigned char *st_dynarena;	/* st_dynvarsize bytes, on demand */
	size_t st_dynbump;
	unsigned char *st_dynfree[DIF_NCLASSES];
	uint64_t st_dyndrops;
};

/* Slots of ms_strbuf. */
enum {
	DIF_STR_PROBEPROV,
	DIF_STR_PROBEMOD,
	DIF_STR_PROBEFUNC,
	DIF_STR_PROBENAME,
	DIF_STR_EXECNAME,
	DIF_STR_ZONENAME,
	DIF_STR_CWD,
	DIF_STR_ROOT,
	DIF_STR_EXECARGS,
	DIF_STR_NSLOTS
};

/* A tuple-stack entry. */
typedef struct dif_tuple {
	uint64_t tu_value;
	uint64_t tu_size;	/* by reference: bytes (strings: strsize) */
	uint8_t tu_type;	/* DIF_TYPE_* */
	bool tu_byref;
} dif_tuple_t;

#define DIF_NWORK 3		/* string work buffers */

struct dif_mstate {
	dif_state_t *ms_state;
	const dif_object_t *ms_difo;	/* running, or last run */
	dif_fault_t ms_fault;

	uint32_t ms_epid;
	uint32_t ms_id;
	uint64_t ms_args[DIF_NARGS];
	uint64_t ms_timestamp;
	uint64_t ms_tkey;

	char *ms_strbuf;		/* DIF_STR_NSLOTS * strsize */
	uint32_t ms_strvalid;		/* bit per slot */

	unsigned char *ms_scratch;
	size_t ms_scratchsize;
	size_t ms_scratchused;
	size_t ms_allocaused;		/* of it, by alloca() and copyin() */

	dif_svar_t *ms_locals;		/* by dif_varindex() */
	uint32_t ms_nlocals;
	uint32_t ms_localhigh;		/* 1 + highest index used */
	dif_arena_t ms_localarena;

	char *ms_strtok;		/* strsize bytes */
	bool ms_strtok_valid;
	size_t ms_strtok_pos;

	char *ms_work[DIF_NWORK];	/* strsize + 1 bytes each */
	unsigned char *ms_key;		/* dynamic-variable key buffer */
	size_t ms_keysize;
};

/* Dense index of a user variable ID (0x80.. arrays, 0x500.. others). */
static inline uint32_t
dif_varindex(uint32_t id)
{
	return id >= DIF_VAR_OTHER_UBASE ?
	    id - DIF_VAR_OTHER_UBASE + (DIF_VAR_ARRAY_MAX + 1 -
	    DIF_VAR_ARRAY_UBASE) : id - DIF_VAR_ARRAY_UBASE;
}

/* dif_interp.c: faults and memory. */
extern void dif_fault(dif_mstate_t *ms, int kind, uint64_t addr);
extern void *dif_scratch_alloc(dif_mstate_t *ms, size_t size);
extern void *dif_alloca(dif_mstate_t *ms, size_t size);
extern int dif_copyin(dif_mstate_t *ms, dif_as_t as, uint64_t addr,
    void *buf, size_t size);
extern int dif_getstr(dif_mstate_t *ms, dif_as_t as, uint64_t addr,
    char *buf, size_t size);
extern void *dif_writable(dif_mstate_t *ms, uint64_t addr, size_t size);
extern bool dif_in_scratch(const dif_mstate_t *ms, uint64_t addr, size_t size,
    bool alloc);

/* dif_vars.c: variables. */
extern const dif_varinfo_t *dif_varinfo(dif_state_t *st,
    const dif_object_t *difo, uint8_t scope, uint32_t id);
extern bool dif_owned(const dif_mstate_t *ms, uint64_t addr, size_t size,
    bool write);
extern int dif_ldsvar(dif_mstate_t *ms, uint8_t scope, uint32_t id,
    uint64_t *valp);
extern int dif_stsvar(dif_mstate_t *ms, uint8_t scope, uint32_t id,
    uint64_t val);
extern int dif_lddvar(dif_mstate_t *ms, uint8_t scope, uint32_t id,
    bool array, const dif_tuple_t *tup, int ntup, uint64_t *valp);
extern int dif_stdvar(dif_mstate_t *ms, uint8_t scope, uint32_t id,
    bool array, const dif_tuple_t *tup, int ntup, uint64_t val);
extern void dif_locals_clear(dif_mstate_t *ms);

/* dif_subr.c: subroutines. */
extern void dif_subr(dif_mstate_t *ms, uint32_t subr, const dif_tuple_t *tup,
    int nargs, uint64_t *rdp);

#endif /* DIF_IMPL_H */
