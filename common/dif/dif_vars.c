/* SPDX-License-Identifier: MIT */
/*
 * dif_vars.c: the interpreter's variables.
 *
 * Globals and clause-locals ("static" variables) live in dense arrays of
 * dif_svar_t indexed by dif_varindex(id); their by-reference storage is
 * allocated from an arena on first use and never moves, so an address
 * handed to the program stays valid.  A by-reference static holding NULL
 * is marked (sv_null) rather than freed, as in DTrace.
 *
 * Thread-local variables and associative-array elements are dynamic:
 * entries of one hash table keyed by
 *
 *	scope (1 byte) | array? (1) | variable ID (2) | thread key (8) |
 *	tuple entries, each: length (4) + bytes
 *
 * (the thread key is 0 for global arrays).  Every entry is charged its
 * size, with string keys at strsize bytes, against dynvarsize (the first always fits, as DTrace raises a
 * dynvarsize too small for one); when the next one would not fit, the
 * store is dropped and counted, which dtrace(1) reports as "dynamic variable
 * drops".  Storing 0 deletes the entry, and reading a missing one yields
 * 0.  By-reference values come from one block of dynvarsize bytes carved
 * by a bump pointer, with a free list per power-of-two size class.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/dif/dif_impl.h"

#define DIF_CHUNK_SIZE	    (64 * 1024)
#define DIF_STRSIZE_DEFAULT 256
#define DIF_DYNVAR_DEFAULT  (1024 * 1024)
/*
 * The arena holds at least one by-reference value of any size class up to
 * 4 KiB, so that the first variable fits whatever dynvarsize says.
 */
#define DIF_DYNARENA(st)                                                       \
	((st)->st_dynvarsize < 4096 ? (size_t) 4096                            \
				    : (size_t) (st)->st_dynvarsize)

/*
 * Arenas.
 */

void *
dif_arena_alloc(dif_arena_t *a, size_t size)
{
	dif_chunk_t *c = a->da_head;
	size_t csize;
	void *p;

	size = (size + 7) & ~(size_t) 7;
	if (c == NULL || c->dc_size - c->dc_used < size) {
		csize = size > DIF_CHUNK_SIZE ? size : DIF_CHUNK_SIZE;
		if ((c = calloc(1, sizeof (*c))) == NULL)
			return NULL;
		if ((c->dc_data = calloc(1, csize)) == NULL) {
			free(c);
			return NULL;
		}
		c->dc_size = csize;
		c->dc_next = a->da_head;
		a->da_head = c;
	}
	p = c->dc_data + c->dc_used;
	c->dc_used += size;
	memset(p, 0, size);
	return p;
}

bool
dif_arena_contains(const dif_arena_t *a, uint64_t addr, size_t len)
{
	const dif_chunk_t *c;

	for (c = a->da_head; c != NULL; c = c->dc_next) {
		uint64_t base = (uint64_t) (uintptr_t) c->dc_data;

		if (addr >= base && len <= c->dc_used &&
		    addr - base <= c->dc_used - len)
			return true;
	}
	return false;
}

void
dif_arena_reset(dif_arena_t *a)
{
	dif_chunk_t *c;

	for (c = a->da_head; c != NULL; c = c->dc_next)
		c->dc_used = 0;
}

void
dif_arena_fini(dif_arena_t *a)
{
	dif_chunk_t *c, *next;

	for (c = a->da_head; c != NULL; c = next) {
		next = c->dc_next;
		free(c->dc_data);
		free(c);
	}
	a->da_head = NULL;
}

/*
 * The state.
 */

dif_state_t *
dif_state_create(const dif_options_t *opts)
{
	dif_state_t *st;
	uint64_t nbuckets;
	struct timespec ts;

	if ((st = calloc(1, sizeof (*st))) == NULL)
		return NULL;
	st->st_strsize = opts && opts->dio_strsize ? opts->dio_strsize :
	    DIF_STRSIZE_DEFAULT;
	st->st_dynvarsize = opts && opts->dio_dynvarsize ?
	    opts->dio_dynvarsize : DIF_DYNVAR_DEFAULT;
	if (st->st_strsize < 2)
		st->st_strsize = 2;
	st->st_scratchset = opts && opts->dio_scratchset;
	st->st_scratchsize = opts ? opts->dio_scratchsize : 0;
	st->st_ops = opts ? opts->dio_ops : NULL;
	st->st_arg = opts ? opts->dio_arg : NULL;
	if (opts && opts->dio_seed) {
		st->st_rand[0] = opts->dio_seed;
	} else {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		st->st_rand[0] = (uint64_t) ts.tv_sec * 1000000000ULL +
		    (uint64_t) ts.tv_nsec;
	}
	st->st_rand[1] = st->st_rand[0] * 0x9e3779b97f4a7c15ULL + 1;

	for (nbuckets = 64; nbuckets < (1U << 20) &&
	    nbuckets * 128 < st->st_dynvarsize; nbuckets *= 2)
		continue;
	if ((st->st_dynhash = calloc(nbuckets, sizeof (dif_dynvar_t *))) ==
	    NULL) {
		free(st);
		return NULL;
	}
	st->st_dynmask = nbuckets - 1;
	return st;
}

void
dif_state_destroy(dif_state_t *st)
{
	dif_dynvar_t *d, *next;
	uint64_t i;
	int s;

	if (st == NULL)
		return;
	for (i = 0; i <= st->st_dynmask; i++) {
		for (d = st->st_dynhash[i]; d != NULL; d = next) {
			next = d->dd_next;
			free(d);
		}
	}
	free(st->st_dynhash);
	free(st->st_dynarena);
	for (s = 0; s < DIF_NSCOPES; s++)
		free(st->st_vinfo[s]);
	free(st->st_globals);
	dif_arena_fini(&st->st_static);
	free(st);
}

uint64_t
dif_state_dyndrops(const dif_state_t *st)
{
	return st->st_dyndrops;
}

uint64_t
dif_state_strsize(const dif_state_t *st)
{
	return st->st_strsize;
}

/* Grows a zeroed array of elements of size sz to hold index idx. */
static bool
dif_grow(void **arrp, uint32_t *np, uint32_t idx, size_t sz)
{
	uint32_t n = *np ? *np : 16;
	void *p;

	if (idx < *np)
		return true;
	while (n <= idx)
		n *= 2;
	if ((p = realloc(*arrp, (size_t) n * sz)) == NULL)
		return false;
	memset((char *) p + (size_t) *np * sz, 0, (size_t) (n - *np) * sz);
	*arrp = p;
	*np = n;
	return true;
}

const dif_varinfo_t *
dif_varinfo(dif_state_t *st, const dif_object_t *difo, uint8_t scope,
    uint32_t id)
{
	uint32_t idx = dif_varindex(id), i;
	dif_varinfo_t *vi;

	if (scope >= DIF_NSCOPES)
		return NULL;
	if (idx < st->st_nvinfo[scope] && st->st_vinfo[scope][idx].vi_known)
		return &st->st_vinfo[scope][idx];
	for (i = 0; i < difo->dif_varlen; i++) {
		const dif_var_t *v = &difo->dif_vartab[i];

		if (v->dv_id != id || v->dv_scope != scope)
			continue;
		if (!dif_grow((void **) &st->st_vinfo[scope],
		    &st->st_nvinfo[scope], idx, sizeof (dif_varinfo_t)))
			return NULL;
		vi = &st->st_vinfo[scope][idx];
		vi->vi_known = true;
		vi->vi_byref = (v->dv_type.dt_flags & DIF_TF_BYREF) != 0;
		vi->vi_string = v->dv_type.dt_kind == DIF_TYPE_STRING;
		vi->vi_size = v->dv_type.dt_size;
		if (vi->vi_string)
			vi->vi_size = (uint32_t) st->st_strsize;
		if (vi->vi_byref && vi->vi_size == 0)
			vi->vi_size = 8;
		return vi;
	}
	return NULL;
}

bool
dif_owned(const dif_mstate_t *ms, uint64_t addr, size_t size, bool write)
{
	const dif_state_t *st = ms->ms_state;
	uint64_t base;

	if (dif_in_scratch(ms, addr, size, write))
		return true;
	if (st->st_dynarena != NULL) {
		base = (uint64_t) (uintptr_t) st->st_dynarena;
		if (addr >= base && size <= st->st_dynbump &&
		    addr - base <= st->st_dynbump - size)
			return true;
	}
	if (dif_arena_contains(&ms->ms_localarena, addr, size) ||
	    dif_arena_contains(&st->st_static, addr, size))
		return true;
	if (write)
		return false;
	base = (uint64_t) (uintptr_t) ms->ms_strbuf;
	if (addr >= base && size <= DIF_STR_NSLOTS * st->st_strsize &&
	    addr - base <= DIF_STR_NSLOTS * st->st_strsize - size)
		return true;
	base = (uint64_t) (uintptr_t) ms->ms_strtok;
	if (addr >= base && size <= st->st_strsize &&
	    addr - base <= st->st_strsize - size)
		return true;
	if (ms->ms_difo != NULL && ms->ms_difo->dif_strlen > 0) {
		base = (uint64_t) (uintptr_t) ms->ms_difo->dif_strtab;
		if (addr >= base && size <= ms->ms_difo->dif_strlen &&
		    addr - base <= ms->ms_difo->dif_strlen - size)
			return true;
	}
	return false;
}

/*
 * Copies a value of a by-reference variable in from addr: a string of at
 * most size - 1 bytes, or size bytes of anything else.
 */
static int
dif_copyval(dif_mstate_t *ms, const dif_varinfo_t *vi, unsigned char *dst,
    uint64_t addr)
{
	if (vi->vi_string)
		return dif_getstr(ms, DIF_AS_KERNEL, addr, (char *) dst,
		    vi->vi_size) < 0 ? -1 : 0;
	return dif_copyin(ms, DIF_AS_KERNEL, addr, dst, vi->vi_size);
}

static dif_svar_t *
dif_svar(dif_mstate_t *ms, uint8_t scope, uint32_t id)
{
	dif_state_t *st = ms->ms_state;
	uint32_t idx = dif_varindex(id);

	if (scope == DIFV_SCOPE_LOCAL) {
		if (!dif_grow((void **) &ms->ms_locals, &ms->ms_nlocals, idx,
		    sizeof (dif_svar_t)))
			return NULL;
		if (idx >= ms->ms_localhigh)
			ms->ms_localhigh = idx + 1;
		return &ms->ms_locals[idx];
	}
	if (!dif_grow((void **) &st->st_globals, &st->st_nglobals, idx,
	    sizeof (dif_svar_t)))
		return NULL;
	return &st->st_globals[idx];
}

/* The by-reference storage of a static, allocated on first use. */
static unsigned char *
dif_svar_data(dif_mstate_t *ms, uint8_t scope, dif_svar_t *sv,
    const dif_varinfo_t *vi)
{
	dif_arena_t *a = scope == DIFV_SCOPE_LOCAL ? &ms->ms_localarena :
	    &ms->ms_state->st_static;

	if (sv->sv_data == NULL)
		sv->sv_data = dif_arena_alloc(a, vi->vi_size);
	return sv->sv_data;
}

int
dif_ldsvar(dif_mstate_t *ms, uint8_t scope, uint32_t id, uint64_t *valp)
{
	const dif_varinfo_t *vi;
	dif_svar_t *sv;
	unsigned char *data;

	if ((vi = dif_varinfo(ms->ms_state, ms->ms_difo, scope, id)) == NULL ||
	    (sv = dif_svar(ms, scope, id)) == NULL) {
		dif_fault(ms, DIF_FLT_ILLOP, 0);
		return -1;
	}
	if (!vi->vi_byref) {
		*valp = sv->sv_value;
		return 0;
	}
	if (sv->sv_null) {
		*valp = 0;
		return 0;
	}
	if ((data = dif_svar_data(ms, scope, sv, vi)) == NULL) {
		dif_fault(ms, DIF_FLT_NOSCRATCH, 0);
		return -1;
	}
	*valp = (uint64_t) (uintptr_t) data;
	return 0;
}

int
dif_stsvar(dif_mstate_t *ms, uint8_t scope, uint32_t id, uint64_t val)
{
	const dif_varinfo_t *vi;
	dif_svar_t *sv;
	unsigned char *data;

	if ((vi = dif_varinfo(ms->ms_state, ms->ms_difo, scope, id)) == NULL ||
	    (sv = dif_svar(ms, scope, id)) == NULL) {
		dif_fault(ms, DIF_FLT_ILLOP, 0);
		return -1;
	}
	if (!vi->vi_byref) {
		sv->sv_value = val;
		return 0;
	}
	if (val == 0) {
		sv->sv_null = true;
		return 0;
	}
	if ((data = dif_svar_data(ms, scope, sv, vi)) == NULL) {
		dif_fault(ms, DIF_FLT_NOSCRATCH, 0);
		return -1;
	}
	if (dif_copyval(ms, vi, data, val) != 0)
		return -1;
	sv->sv_null = false;
	return 0;
}

void
dif_locals_clear(dif_mstate_t *ms)
{
	if (ms->ms_localhigh > 0)
		memset(ms->ms_locals, 0,
		    ms->ms_localhigh * sizeof (dif_svar_t));
	ms->ms_localhigh = 0;
	dif_arena_reset(&ms->ms_localarena);
}

/*
 * Dynamic variables.
 */

static uint64_t
dif_hash(const unsigned char *p, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL ^ len, w;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * 0x100000001b3ULL;
		h ^= h >> 29;
	}
	for (; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	h ^= h >> 32;
	return h * 0x9e3779b97f4a7c15ULL;
}

/*
 * Builds the key of a dynamic variable in ms_key.  Returns its length, or
 * -1 with a fault when a tuple element cannot be read.  *charge is the
 * size the key is charged against dynvarsize: as in DTrace, whose
 * elements are sized by their declared keys, a string element counts
 * strsize bytes whatever its length.
 */
static long
dif_dynkey(dif_mstate_t *ms, uint8_t scope, uint32_t id, bool array,
    const dif_tuple_t *tup, int ntup, size_t *charge)
{
	dif_state_t *st = ms->ms_state;
	unsigned char *k = ms->ms_key;
	uint64_t tkey = scope == DIFV_SCOPE_THREAD ? ms->ms_tkey : 0;
	size_t n = 0;
	uint32_t len;
	int i;

	k[n++] = scope;
	k[n++] = array;
	k[n++] = (unsigned char) (id >> 8);
	k[n++] = (unsigned char) id;
	memcpy(k + n, &tkey, 8);
	n += 8;
	for (i = 0; array && i < ntup; i++) {
		const dif_tuple_t *t = &tup[i];
		long sl;

		if (!t->tu_byref) {
			len = 8;
			memcpy(k + n, &len, 4);
			memcpy(k + n + 4, &t->tu_value, 8);
			n += 12;
			continue;
		}
		if (t->tu_type == DIF_TYPE_STRING) {
			sl = dif_getstr(ms, DIF_AS_KERNEL, t->tu_value,
			    (char *) k + n + 4, st->st_strsize);
			if (sl < 0)
				return -1;
			len = (uint32_t) sl;
			*charge += st->st_strsize - len;
		} else {
			if (t->tu_size > st->st_strsize) {
				dif_fault(ms, DIF_FLT_ILLOP, 0);
				return -1;
			}
			len = (uint32_t) t->tu_size;
			if (dif_copyin(ms, DIF_AS_KERNEL, t->tu_value,
			    k + n + 4, len) != 0)
				return -1;
		}
		memcpy(k + n, &len, 4);
		n += 4 + len;
	}
	*charge += n;
	return (long) n;
}

static dif_dynvar_t **
dif_dynfind(dif_state_t *st, const unsigned char *key, size_t len,
    uint64_t h)
{
	dif_dynvar_t **dp;

	for (dp = &st->st_dynhash[h & st->st_dynmask]; *dp != NULL;
	    dp = &(*dp)->dd_next) {
		dif_dynvar_t *d = *dp;

		if (d->dd_hash == h && d->dd_keylen == len &&
		    memcmp(d->dd_key, key, len) == 0)
			return dp;
	}
	return dp;
}

static uint32_t
dif_class(size_t size)
{
	uint32_t c = 4;		/* 16 bytes */

	while (((size_t) 1 << c) < size)
		c++;
	return c;
}

static unsigned char *
dif_dynalloc(dif_state_t *st, uint32_t cls)
{
	size_t size = (size_t) 1 << cls;
	unsigned char *p;

	if (cls >= DIF_NCLASSES)
		return NULL;
	if ((p = st->st_dynfree[cls]) != NULL) {
		memcpy(&st->st_dynfree[cls], p, sizeof (p));
		memset(p, 0, size);
		return p;
	}
	if (st->st_dynarena == NULL &&
	    (st->st_dynarena = calloc(1, DIF_DYNARENA(st))) == NULL)
		return NULL;
	if (DIF_DYNARENA(st) - st->st_dynbump < size)
		return NULL;
	p = st->st_dynarena + st->st_dynbump;
	st->st_dynbump += size;
	return p;
}

static void
dif_dynfree(dif_state_t *st, dif_dynvar_t *d)
{
	if (d->dd_data != NULL) {
		memcpy(d->dd_data, &st->st_dynfree[d->dd_class],
		    sizeof (unsigned char *));
		st->st_dynfree[d->dd_class] = d->dd_data;
	}
	st->st_dynused -= d->dd_cost;
	free(d);
}

int
dif_lddvar(dif_mstate_t *ms, uint8_t scope, uint32_t id, bool array,
    const dif_tuple_t *tup, int ntup, uint64_t *valp)
{
	dif_state_t *st = ms->ms_state;
	const dif_varinfo_t *vi;
	dif_dynvar_t *d;
	size_t charge = 0;
	long len;
	uint64_t h;

	if ((vi = dif_varinfo(st, ms->ms_difo, scope, id)) == NULL) {
		dif_fault(ms, DIF_FLT_ILLOP, 0);
		return -1;
	}
	if ((len = dif_dynkey(ms, scope, id, array, tup, ntup, &charge)) < 0)
		return -1;
	h = dif_hash(ms->ms_key, (size_t) len);
	d = *dif_dynfind(st, ms->ms_key, (size_t) len, h);
	if (d == NULL)
		*valp = 0;
	else if (vi->vi_byref)
		*valp = (uint64_t) (uintptr_t) d->dd_data;
	else
		*valp = d->dd_value;
	return 0;
}

int
dif_stdvar(dif_mstate_t *ms, uint8_t scope, uint32_t id, bool array,
    const dif_tuple_t *tup, int ntup, uint64_t val)
{
	dif_state_t *st = ms->ms_state;
	const dif_varinfo_t *vi;
	dif_dynvar_t **dp, *d;
	size_t cost, charge = 0;
	long len;
	uint64_t h;
	uint32_t cls = 0;

	if ((vi = dif_varinfo(st, ms->ms_difo, scope, id)) == NULL) {
		dif_fault(ms, DIF_FLT_ILLOP, 0);
		return -1;
	}
	if ((len = dif_dynkey(ms, scope, id, array, tup, ntup, &charge)) < 0)
		return -1;
	h = dif_hash(ms->ms_key, (size_t) len);
	dp = dif_dynfind(st, ms->ms_key, (size_t) len, h);
	if (val == 0) {
		/* Assigning zero frees the variable. */
		if ((d = *dp) != NULL) {
			*dp = d->dd_next;
			dif_dynfree(st, d);
		}
		return 0;
	}
	if ((d = *dp) == NULL) {
		cost = sizeof (*d) + charge;
		if (vi->vi_byref) {
			cls = dif_class(vi->vi_size);
			cost += (size_t) 1 << cls;
		}
		/*
		 * As DTrace, which raises a dynvarsize too small for one
		 * variable to what one takes: the first always fits.
		 */
		if ((st->st_dynused > 0 &&
			st->st_dynused + cost > st->st_dynvarsize) ||
		    (d = malloc(sizeof(*d) + (size_t) len)) == NULL) {
			st->st_dyndrops++;
			dif_fault(ms, DIF_FLT_DROP, 0);
			return 0;
		}
		memset(d, 0, sizeof (*d));
		if (vi->vi_byref &&
		    (d->dd_data = dif_dynalloc(st, cls)) == NULL) {
			free(d);
			st->st_dyndrops++;
			dif_fault(ms, DIF_FLT_DROP, 0);
			return 0;
		}
		d->dd_class = cls;
		d->dd_hash = h;
		d->dd_keylen = (uint32_t) len;
		d->dd_cost = cost;
		memcpy(d->dd_key, ms->ms_key, (size_t) len);
		st->st_dynused += cost;
		d->dd_next = NULL;
		*dp = d;
	}
	if (!vi->vi_byref) {
		d->dd_value = val;
		return 0;
	}
	return dif_copyval(ms, vi, d->dd_data, val);
}

void
dif_state_thread_exit(dif_state_t *st, uint64_t tkey)
{
	dif_dynvar_t **dp, *d;
	uint64_t i, k;

	for (i = 0; i <= st->st_dynmask; i++) {
		for (dp = &st->st_dynhash[i]; (d = *dp) != NULL;) {
			memcpy(&k, d->dd_key + 4, 8);
			if (d->dd_key[0] == DIFV_SCOPE_THREAD && k == tkey) {
				*dp = d->dd_next;
				dif_dynfree(st, d);
			} else {
				dp = &d->dd_next;
			}
		}
	}
}
