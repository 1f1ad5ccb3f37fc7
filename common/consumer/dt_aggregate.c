/* SPDX-License-Identifier: MIT */
/*
 * dt_aggregate.c: the consumer's merged aggregation table -- snapshots in,
 * sorted entries out, and the clear(), trunc(), normalize() actions.
 *
 * Entries are keyed by (aggregation ID, key bytes) in a chained hash table
 * (dc_agghash, doubled whenever it holds as many entries as chains) and
 * also listed in dc_aggents for sorting.  An engine hands per-CPU
 * snapshots (dt_aggsnap_t); each entry of a snapshot is an 8-byte slot
 * holding the aggregation ID, the key padded to 8 bytes, and the value
 * words.  Cumulative snapshots replace the merged values; delta snapshots
 * add to them.
 *
 * clear() and trunc() give the engine's space back: the engine hands over
 * every key of the aggregation and deletes them (dt_aggtake_f), so new
 * keys fit however long tracing runs -- as in DTrace, whose kernel buffer
 * of aggregations holds only what changed since the last snapshot.  An
 * entry that stays then holds its value in ae_held and the engine's
 * cumulative values count from there.  What the engine counted after the
 * consumer's last snapshot belongs to the next interval, cleared or not
 * (dt_agg_take()): so every count is printed once.
 *
 * Sorting follows DTrace: by aggregation (in program order), then by value,
 * then by key; with aggsortkey by key before value; aggsortkeypos picks the
 * key to compare first and aggsortrev reverses the whole order.  Integer
 * keys compare as unsigned, so -1 sorts after 2, as in DTrace.
 */
#include <stdlib.h>
#include <string.h>

#include "common/consumer/dt_cons_impl.h"
#include "common/dt_aggfunc.h"

const dt_aggdesc_t *
dt_agg_desc(dt_consumer_t *dc, uint32_t aggid)
{
	if (dc->dc_pgp == NULL || aggid >= dc->dc_pgp->pg_naggs)
		return NULL;
	return &dc->dc_pgp->pg_aggs[aggid];
}

uint32_t
dt_agg_hash(uint32_t aggid, const unsigned char *key, uint32_t len)
{
	uint32_t h = 2166136261u ^ aggid;

	for (uint32_t i = 0; i < len; i++)
		h = (h ^ key[i]) * 16777619u;
	return h;
}

/*
 * Double the hash table once it holds as many entries as chains, so a
 * lookup stays O(1) however many keys come in.  False on ENOMEM (the
 * table then stays as it was, only slower).
 */
static bool
dt_agg_rehash(dt_consumer_t *dc)
{
	uint32_t n = dc->dc_nagghash ? dc->dc_nagghash * 2 : 1024;
	dt_aggent_t **h = calloc(n, sizeof(*h));

	if (h == NULL)
		return false;
	for (uint32_t i = 0; i < dc->dc_naggents; i++) {
		dt_aggent_t *ae = dc->dc_aggents[i];

		ae->ae_next = h[ae->ae_hash & (n - 1)];
		h[ae->ae_hash & (n - 1)] = ae;
	}
	free(dc->dc_agghash);
	dc->dc_agghash = h;
	dc->dc_nagghash = n;
	return true;
}

static dt_aggent_t *
dt_agg_lookup(dt_consumer_t *dc, const dt_aggdesc_t *agg,
    const unsigned char *key, bool create)
{
	uint32_t h = dt_agg_hash(agg->ag_id, key, agg->ag_keysize);
	uint32_t nv = agg->ag_nvals ? agg->ag_nvals : 1;
	dt_aggent_t *ae;

	for (ae = dc->dc_nagghash ? dc->dc_agghash[h & (dc->dc_nagghash - 1)]
				  : NULL;
	     ae != NULL; ae = ae->ae_next) {
		if (ae->ae_hash == h && ae->ae_aggid == agg->ag_id &&
		    memcmp(ae->ae_key, key, agg->ag_keysize) == 0)
			return ae;
	}
	if (!create)
		return NULL;

	if (dc->dc_naggents >= dc->dc_nagghash && !dt_agg_rehash(dc) &&
	    dc->dc_nagghash == 0)
		return NULL;
	if (dc->dc_naggents == dc->dc_aggents_cap) {
		uint32_t cap = dc->dc_aggents_cap ? dc->dc_aggents_cap * 2 : 64;
		dt_aggent_t **v = realloc(dc->dc_aggents, cap * sizeof(*v));

		if (v == NULL)
			return NULL;
		dc->dc_aggents = v;
		dc->dc_aggents_cap = cap;
	}
	/* One allocation: the entry, its value words, its key. */
	if ((ae = calloc(1,
		 sizeof(*ae) + nv * sizeof(int64_t) + agg->ag_keysize)) == NULL)
		return NULL;
	ae->ae_vals = (int64_t *) (ae + 1);
	ae->ae_key = (unsigned char *) (ae->ae_vals + nv);
	memcpy(ae->ae_key, key, agg->ag_keysize);
	dt_agg_init(agg->ag_kind, ae->ae_vals, agg->ag_nvals);
	ae->ae_aggid = agg->ag_id;
	ae->ae_hash = h;
	ae->ae_next = dc->dc_agghash[h & (dc->dc_nagghash - 1)];
	dc->dc_agghash[h & (dc->dc_nagghash - 1)] = ae;
	ae->ae_index = dc->dc_naggents;
	dc->dc_aggents[dc->dc_naggents++] = ae;
	dc->dc_agggen++;
	return ae;
}

/* Forget an entry: out of its chain and the list. */
static void
dt_agg_remove(dt_consumer_t *dc, dt_aggent_t *ae)
{
	dt_aggent_t **pp = &dc->dc_agghash[ae->ae_hash & (dc->dc_nagghash - 1)];
	dt_aggent_t *last;

	while (*pp != ae)
		pp = &(*pp)->ae_next;
	*pp = ae->ae_next;
	last = dc->dc_aggents[--dc->dc_naggents];
	dc->dc_aggents[ae->ae_index] = last;
	last->ae_index = ae->ae_index;
	free(ae->ae_held);
	free(ae->ae_taken);
	free(ae);
	dc->dc_agggen++;
	dc->dc_aggdelgen++;
}

void
dt_agg_destroy(dt_consumer_t *dc)
{
	for (uint32_t i = 0; i < dc->dc_naggents; i++) {
		free(dc->dc_aggents[i]->ae_held);
		free(dc->dc_aggents[i]->ae_taken);
		free(dc->dc_aggents[i]);
	}
	free(dc->dc_aggents);
	dc->dc_aggents = NULL;
	dc->dc_naggents = dc->dc_aggents_cap = 0;
	free(dc->dc_modkeys);
	dc->dc_modkeys = NULL;
	dc->dc_nmodkeys = 0;
	free(dc->dc_agghash);
	dc->dc_agghash = NULL;
	dc->dc_nagghash = 0;
	for (uint32_t i = 0; dc->dc_aggstate != NULL && i < dc->dc_naggstate;
	     i++)
		free(dc->dc_aggstate[i].as_order);
	free(dc->dc_aggstate);
	dc->dc_aggstate = NULL;
	dc->dc_naggstate = 0;
	for (uint32_t i = 0; i < dc->dc_nhints; i++)
		free(dc->dc_hints[i].ah_ents);
	free(dc->dc_hints);
	dc->dc_hints = NULL;
	dc->dc_nhints = 0;
	dc->dc_agggen++;
	dc->dc_aggdelgen++;
}

void
dt_aggstate_reset(dt_consumer_t *dc)
{
	uint32_t n = dc->dc_pgp ? dc->dc_pgp->pg_naggs : 0;

	for (uint32_t i = 0; i < n; i++) {
		dc->dc_aggstate[i].as_normal = 1;
		dc->dc_aggstate[i].as_printed = false;
		dc->dc_aggstate[i].as_pprofseq = 0;
	}
}

/*
 * The address a mod() key is filed under: the first address seen in the
 * same kernel module, so that one module is one entry.  0 when out of
 * memory.
 */
static uint64_t
dt_agg_modaddr(dt_consumer_t *dc, const char *mod, uint64_t addr)
{
	struct dt_modkey *mk;

	for (uint32_t i = 0; i < dc->dc_nmodkeys; i++) {
		if (strcmp(dc->dc_modkeys[i].mk_mod, mod) == 0)
			return dc->dc_modkeys[i].mk_addr;
	}
	mk = realloc(dc->dc_modkeys, (dc->dc_nmodkeys + 1) * sizeof(*mk));
	if (mk == NULL)
		return 0;
	dc->dc_modkeys = mk;
	mk[dc->dc_nmodkeys].mk_mod = mod;
	mk[dc->dc_nmodkeys].mk_addr = addr;
	dc->dc_nmodkeys++;
	return addr;
}

/*
 * The key an entry is filed under.  As in DTrace, sym(), func(), usym()
 * and ufunc() keys are the function's address and mod() and umod() keys
 * the module's (the object's), so every address in one function (one
 * module) counts in one entry.  Looking up any user address (stacks and
 * uaddr() too) also makes the OS snapshot the process's mappings while it
 * still runs, so the keys still print symbolically at the end, after it
 * has exited.  Returns key, or *bufp (a normalised copy, to free), or NULL
 * on ENOMEM.
 */
static const unsigned char *
dt_agg_symkey(dt_consumer_t *dc, const dt_aggdesc_t *agg,
    const unsigned char *key, unsigned char **bufp)
{
	unsigned char *nk = NULL;

	*bufp = NULL;
	for (uint32_t i = 0; i < agg->ag_nkeys; i++) {
		const dt_recdesc_t *rd = &agg->ag_keys[i];
		uint32_t off = 8;
		uint64_t w[2], v;
		dt_syminfo_t si;

		switch (rd->rd_type) {
		case DT_REC_SYM:
		case DT_REC_MOD:
			if (rd->rd_size < 8)
				continue;
			memcpy(w, key + rd->rd_offset, 8);
			if (!dt_ksym(dc, w[0], &si))
				continue;
			if (rd->rd_type == DT_REC_SYM && si.si_name != NULL)
				v = si.si_value;
			else if (rd->rd_type == DT_REC_SYM ||
			    si.si_object == NULL ||
			    (v = dt_agg_modaddr(dc, si.si_object, w[0])) == 0)
				continue;
			off = 0;
			break;
		case DT_REC_USYM:
		case DT_REC_UMOD:
		case DT_REC_UADDR:
		case DT_REC_USTACK:
			if (rd->rd_size < 16)
				continue;
			memcpy(w, key + rd->rd_offset, 16);
			if (w[1] == 0 || !dt_usym(dc, w[0], w[1], &si))
				continue;
			if (rd->rd_type == DT_REC_USYM && si.si_name != NULL)
				v = si.si_value;
			else if (rd->rd_type == DT_REC_UMOD)
				v = si.si_base;
			else
				continue;
			break;
		default:
			continue;
		}
		if (nk == NULL) {
			if ((nk = malloc(agg->ag_keysize)) == NULL)
				return NULL;
			memcpy(nk, key, agg->ag_keysize);
		}
		memcpy(nk + rd->rd_offset + off, &v, 8);
	}
	*bufp = nk;
	return nk != NULL ? nk : key;
}

/*
 * Each entry of the snapshots, its key as the consumer files it: fn() with
 * the entry (made when create is set, else NULL when there is none) and
 * the value words.
 */
typedef void dt_agg_visit_f(
    const dt_aggdesc_t *agg, dt_aggent_t *ae, const int64_t *vals);

/*
 * The hints for nsnaps snapshots, forgotten if an entry they may name was
 * freed since they were made; NULL (no hints) on ENOMEM.
 */
static dt_agghint_t *
dt_agg_hints(dt_consumer_t *dc, uint32_t nsnaps)
{
	if (nsnaps > dc->dc_nhints) {
		dt_agghint_t *h = realloc(dc->dc_hints, nsnaps * sizeof(*h));

		if (h == NULL)
			return NULL;
		memset(h + dc->dc_nhints, 0,
		    (nsnaps - dc->dc_nhints) * sizeof(*h));
		dc->dc_hints = h;
		dc->dc_nhints = nsnaps;
	}
	if (dc->dc_hintgen != dc->dc_aggdelgen) {
		for (uint32_t i = 0; i < dc->dc_nhints; i++)
			dc->dc_hints[i].ah_n = 0;
		dc->dc_hintgen = dc->dc_aggdelgen;
	}
	return dc->dc_hints;
}

/* Remember that place j of a snapshot went to ae; false on ENOMEM. */
static bool
dt_agg_hint_set(dt_agghint_t *h, uint32_t j, dt_aggent_t *ae)
{
	if (j >= h->ah_cap) {
		uint32_t cap = h->ah_cap ? h->ah_cap * 2 : 1024;
		dt_aggent_t **v = realloc(h->ah_ents, cap * sizeof(*v));

		if (v == NULL)
			return false;
		h->ah_ents = v;
		h->ah_cap = cap;
	}
	h->ah_ents[j] = ae;
	return true;
}

/* The entry a hint names, if it has this key; else NULL. */
static dt_aggent_t *
dt_agg_hint_get(const dt_agghint_t *h, uint32_t j, const dt_aggdesc_t *agg,
    const unsigned char *key)
{
	dt_aggent_t *ae;

	if (j + 8 < h->ah_n) {
		/* Far enough ahead to be in the cache when its turn comes. */
		__builtin_prefetch(h->ah_ents[j + 8]);
		__builtin_prefetch((const char *) h->ah_ents[j + 8] + 64);
	}
	if (j >= h->ah_n || (ae = h->ah_ents[j]) == NULL ||
	    ae->ae_aggid != agg->ag_id ||
	    memcmp(ae->ae_key, key, agg->ag_keysize) != 0)
		return NULL;
	return ae;
}

static int
dt_agg_walksnaps(dtrace_hdl_t *dtp, dt_consumer_t *dc,
    const dt_aggsnap_t *snaps, uint32_t nsnaps, bool create, bool hint,
    dt_agg_visit_f *fn)
{
	dt_agghint_t *hints = hint ? dt_agg_hints(dc, nsnaps) : NULL;
	int64_t *src = NULL;
	uint32_t srccap = 0;
	int rc = 0;

	for (uint32_t s = 0; rc == 0 && s < nsnaps; s++) {
		const unsigned char *p = snaps[s].as_data;
		const unsigned char *end = p + snaps[s].as_size;
		dt_agghint_t *h = hints != NULL ? &hints[s] : NULL;
		uint32_t j = 0;

		for (; p + 8 <= end; j++) {
			const dt_aggdesc_t *agg;
			const unsigned char *k;
			unsigned char *nk;
			dt_aggent_t *ae;
			uint32_t aggid;
			size_t ksz, n;

			memcpy(&aggid, p, sizeof(aggid));
			if ((agg = dt_agg_desc(dc, aggid)) == NULL) {
				rc = dt_set_errno(dtp, EDT_BADAGG);
				break;
			}
			ksz = ((size_t) agg->ag_keysize + 7) & ~(size_t) 7;
			n = 8 + ksz + (size_t) agg->ag_nvals * 8;
			if (p + n > end) {
				rc = dt_set_errno(dtp, EDT_DOFFSET);
				break;
			}
			if (agg->ag_nvals + 1 > srccap) {
				int64_t *ns = realloc(
				    src, (agg->ag_nvals + 1) * sizeof(*src));

				if (ns == NULL) {
					rc = dt_set_errno(dtp, EDT_NOMEM);
					break;
				}
				src = ns;
				srccap = agg->ag_nvals + 1;
			}
			if ((k = dt_agg_symkey(dc, agg, p + 8, &nk)) == NULL) {
				rc = dt_set_errno(dtp, EDT_NOMEM);
				break;
			}
			ae = h != NULL ? dt_agg_hint_get(h, j, agg, k) : NULL;
			if (ae == NULL)
				ae = dt_agg_lookup(dc, agg, k, create);
			free(nk);
			if (ae == NULL && create) {
				rc = dt_set_errno(dtp, EDT_NOMEM);
				break;
			}
			if (h != NULL && !dt_agg_hint_set(h, j, ae)) {
				h->ah_n = 0;
				h = NULL;
			}
			/* The data need not be aligned for int64_t. */
			memcpy(src, p + 8 + ksz, agg->ag_nvals * 8);
			fn(agg, ae, src);
			p += n;
		}
		if (h != NULL)
			h->ah_n = rc == 0 ? j : 0;
	}
	free(src);
	return rc;
}

static void
dt_agg_visit_merge(
    const dt_aggdesc_t *agg, dt_aggent_t *ae, const int64_t *vals)
{
	dt_agg_merge(agg->ag_kind, ae->ae_vals, vals, agg->ag_nvals);
}

int
dt_consume_aggsnap(dtrace_hdl_t *dtp, const dt_aggsnap_t *snaps,
    uint32_t nsnaps, bool cumulative)
{
	dt_consumer_t *dc = dt_consumer(dtp);

	if (dc == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	if (dc->dc_pgp == NULL)
		return 0;
	dc->dc_aggstale = false;

	/*
	 * An engine's totals count from when clear() or trunc() last took
	 * its keys back; what the consumer held of them then comes first.
	 */
	for (uint32_t i = 0; cumulative && i < dc->dc_naggents; i++) {
		dt_aggent_t *ae = dc->dc_aggents[i];
		const dt_aggdesc_t *agg = dt_agg_desc(dc, ae->ae_aggid);

		if (ae->ae_held != NULL)
			memcpy(ae->ae_vals, ae->ae_held, agg->ag_nvals * 8);
		else
			dt_agg_init(agg->ag_kind, ae->ae_vals, agg->ag_nvals);
	}
	dc->dc_aggcumulative = cumulative;
	return dt_agg_walksnaps(
	    dtp, dc, snaps, nsnaps, true, true, dt_agg_visit_merge);
}

/* An entry's held values, made empty on first use; NULL on ENOMEM. */
static int64_t *
dt_agg_held(const dt_aggdesc_t *agg, dt_aggent_t *ae)
{
	if (ae->ae_held == NULL &&
	    (ae->ae_held = malloc(agg->ag_nvals * 8 + 8)) != NULL)
		dt_agg_init(agg->ag_kind, ae->ae_held, agg->ag_nvals);
	return ae->ae_held;
}

int
dt_agg_fresh(dt_consumer_t *dc)
{
	if (!dc->dc_aggstale || dc->dc_aggrefresh == NULL)
		return 0;
	dc->dc_aggstale = false;
	return dc->dc_aggrefresh(dc->dc_dtp, dc->dc_aggrefresh_arg) != 0 ? -1
									 : 0;
}

/*
 * A key taken back from the engine, one CPU's part of it at a time: the
 * parts merged in ae_taken, which dt_agg_take() then shares out.
 */
static void
dt_agg_visit_take(const dt_aggdesc_t *agg, dt_aggent_t *ae, const int64_t *vals)
{
	if (ae == NULL)
		return;
	if (ae->ae_taken == NULL) {
		if ((ae->ae_taken = malloc(agg->ag_nvals * 8 + 8)) == NULL)
			return;
		dt_agg_init(agg->ag_kind, ae->ae_taken, agg->ag_nvals);
	}
	dt_agg_merge(agg->ag_kind, ae->ae_taken, vals, agg->ag_nvals);
}

int
dt_consume_aggtaken(
    dtrace_hdl_t *dtp, const dt_aggsnap_t *snaps, uint32_t nsnaps)
{
	dt_consumer_t *dc = dt_consumer(dtp);

	if (dc == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	if (dc->dc_pgp == NULL)
		return 0;
	/* Keys the consumer has not seen yet came after its last look. */
	return dt_agg_walksnaps(
	    dtp, dc, snaps, nsnaps, true, false, dt_agg_visit_take);
}

/*
 * clear() and trunc(): the engine gives back every key of the aggregation
 * and the space they took, which new keys need, and counts again from
 * nothing.  An entry that stays (trunc()'s largest) holds all of it from
 * now on.  The entries cleared, or marked ae_drop by trunc(), lose what
 * the consumer last saw of them -- what printa() printed -- but not what
 * the engine added since: that is the start of the next interval, as in
 * DTrace, where it waits in the kernel's buffer for the next snapshot.
 * So no count is lost or counted twice however fast the probes fire.  A
 * cleared entry stays, at nothing if nothing came; trunc()'s go unless
 * something came.
 */
static int
dt_agg_take(dtrace_hdl_t *dtp, dt_consumer_t *dc, const dt_aggdesc_t *agg,
    bool clear)
{
	size_t vsz = agg->ag_nvals * 8;
	int rc = 0;

	if (dc->dc_aggtake != NULL)
		rc = dc->dc_aggtake(dtp, agg->ag_id, dc->dc_aggtake_arg);
	for (uint32_t i = 0; i < dc->dc_naggents;) {
		dt_aggent_t *ae = dc->dc_aggents[i];
		int64_t *t = ae->ae_taken, *held;
		bool going = clear || ae->ae_drop, came = false;

		if (ae->ae_aggid != agg->ag_id) {
			i++;
			continue;
		}
		ae->ae_taken = NULL;
		ae->ae_drop = false;
		if ((held = dt_agg_held(agg, ae)) == NULL) {
			free(t);
			rc = dt_set_errno(dtp, EDT_NOMEM);
			i++;
			continue;
		}
		if (dc->dc_aggtake == NULL) {
			/* No engine: the consumer's values are all there is. */
			memcpy(held, ae->ae_vals, vsz);
		} else if (!going) {
			if (t != NULL)
				dt_agg_merge(agg->ag_kind, held, t,
				    agg->ag_nvals);
		} else if (t != NULL && rc == 0) {
			/*
			 * What the consumer saw of the engine's part is its
			 * values less what it held before.
			 */
			int64_t *seen = malloc(vsz + 8);

			if (seen == NULL) {
				rc = dt_set_errno(dtp, EDT_NOMEM);
			} else {
				memcpy(seen, ae->ae_vals, vsz);
				if (agg->ag_kind != DT_AGG_MIN &&
				    agg->ag_kind != DT_AGG_MAX)
					(void) dt_agg_since(agg->ag_kind, seen,
					    held, agg->ag_nvals);
				came = dt_agg_since(
				    agg->ag_kind, t, seen, agg->ag_nvals);
				free(seen);
			}
		}
		if (going) {
			dt_agg_init(agg->ag_kind, held, agg->ag_nvals);
			if (came)
				memcpy(held, t, vsz);
		}
		free(t);
		if (going && !clear && !came) {
			dt_agg_remove(dc, ae); /* dc_aggents[i] is another now */
			continue;
		}
		memcpy(ae->ae_vals, held, vsz);
		i++;
	}
	return rc;
}

int64_t
dt_agg_avg(const int64_t *vals, uint64_t normal)
{
	if (normal == 0)
		normal = 1;
	return vals[0] ? vals[1] / (int64_t) normal / vals[0] : 0;
}

static uint64_t
dt_isqrt128(unsigned __int128 v)
{
	unsigned __int128 r = 0, bit = (unsigned __int128) 1 << 126;

	while (bit > v)
		bit >>= 2;
	while (bit != 0) {
		if (v >= r + bit) {
			v -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return (uint64_t) r;
}

/*
 * sqrt(E[x^2] - E[x]^2) in integers, each division truncating in the same
 * order as DTrace so that the digits match.
 */
uint64_t
dt_agg_stddev(const int64_t *vals, uint64_t normal)
{
	unsigned __int128 sq, avgsq;
	int64_t avg;

	if (vals[0] == 0)
		return 0;
	if (normal == 0)
		normal = 1;
	sq =
	    ((unsigned __int128) (uint64_t) vals[3] << 64) | (uint64_t) vals[2];
	sq = sq / normal / normal / (uint64_t) vals[0];
	avg = vals[1] / (int64_t) normal / vals[0];
	if (avg < 0)
		avg = -avg;
	avgsq = (unsigned __int128) (uint64_t) avg * (uint64_t) avg;
	return dt_isqrt128(sq - avgsq);
}

static int
dt_cmp_ld(long double l, long double r)
{
	return l < r ? -1 : l > r ? 1 : 0;
}

static int
dt_cmp_i64(int64_t l, int64_t r)
{
	return l < r ? -1 : l > r ? 1 : 0;
}

/* The weighted sum of a distribution, and the count at zero. */
static long double
dt_agg_qsum(const dt_aggdesc_t *agg, const int64_t *v, int64_t *zerop)
{
	long double total = 0;
	uint32_t n = agg->ag_nvals;

	*zerop = 0;
	for (uint32_t i = 0; i < n; i++) {
		long double w;

		switch (agg->ag_kind) {
		case DT_AGG_QUANTIZE:
			w = (long double) dt_quantize_bucket_value((int) i);
			break;
		case DT_AGG_LQUANTIZE: {
			int64_t base = agg->ag_params[0];
			int64_t step = agg->ag_params[2];

			/* Below-base counts as base - 1, at-or-above-limit as
			 * one past the last step, as DTrace weighs them. */
			if (i == 0)
				w = (long double) (base - 1);
			else if (i == n - 1)
				w = (long double) (base +
				    (int64_t) (n - 2) * step + 1);
			else
				w = (long double) (base +
				    (int64_t) (i - 1) * step);
			break;
		}
		default:
			w = (long double) dt_llquantize_bucket_value(i,
			    agg->ag_params[0], agg->ag_params[1],
			    agg->ag_params[2], agg->ag_params[3]);
			break;
		}
		if (w == 0)
			*zerop = v[i];
		total += w * (long double) v[i];
	}
	return total;
}

int
dt_agg_cmp_vals(const dt_aggdesc_t *agg, const int64_t *l, const int64_t *r)
{
	switch (agg->ag_kind) {
	case DT_AGG_AVG:
		return dt_cmp_i64(dt_agg_avg(l, 1), dt_agg_avg(r, 1));
	case DT_AGG_STDDEV: {
		uint64_t a = dt_agg_stddev(l, 1), b = dt_agg_stddev(r, 1);

		return a < b ? -1 : a > b ? 1 : 0;
	}
	case DT_AGG_QUANTIZE:
	case DT_AGG_LQUANTIZE:
	case DT_AGG_LLQUANTIZE: {
		int64_t lz, rz;
		int c = dt_cmp_ld(
		    dt_agg_qsum(agg, l, &lz), dt_agg_qsum(agg, r, &rz));

		return c != 0 ? c : dt_cmp_i64(lz, rz);
	}
	default:
		return dt_cmp_i64(l[0], r[0]);
	}
}

static int
dt_agg_cmp_key(
    const dt_recdesc_t *rd, const unsigned char *l, const unsigned char *r)
{
	uint64_t a, b;

	switch (rd->rd_size) {
	case 1:
	case 2:
	case 4:
	case 8:
		a = dt_rec_uint(rd, l);
		b = dt_rec_uint(rd, r);
		return a < b ? -1 : a > b ? 1 : 0;
	default:
		break;
	}
	if (rd->rd_type == DT_REC_USYM || rd->rd_type == DT_REC_UMOD ||
	    rd->rd_type == DT_REC_UADDR) {
		for (int j = 0; j < 2; j++) {
			memcpy(&a, l + j * 8, 8);
			memcpy(&b, r + j * 8, 8);
			if (a != b)
				return a < b ? -1 : 1;
		}
		return 0;
	}
	if (rd->rd_type == DT_REC_STRING) {
		int c =
		    strncmp((const char *) l, (const char *) r, rd->rd_size);

		return c < 0 ? -1 : c > 0 ? 1 : 0;
	}
	{
		int c = memcmp(l, r, rd->rd_size);

		return c < 0 ? -1 : c > 0 ? 1 : 0;
	}
}

int
dt_agg_cmp_keys(const dt_aggdesc_t *agg, const unsigned char *l,
    const unsigned char *r, int keypos)
{
	uint32_t nkeys = agg->ag_nkeys;

	if (keypos < 0 || (uint32_t) keypos >= nkeys)
		keypos = 0;
	for (uint32_t i = 0; i < nkeys; i++) {
		const dt_recdesc_t *rd = &agg->ag_keys[(i + keypos) % nkeys];
		int c =
		    dt_agg_cmp_key(rd, l + rd->rd_offset, r + rd->rd_offset);

		if (c != 0)
			return c;
	}
	return 0;
}

/* How entries sort: the options as dt_agg_sortopts() reads them. */
typedef struct dt_aggsort {
	dt_consumer_t *so_dc;
	bool so_keysort;
	bool so_rev;
	int so_keypos;
} dt_aggsort_t;

/*
 * An entry as sorting sees it: its value and the first key compared
 * brought out as unsigned words where the aggregating function and the
 * key's size allow, so that most comparisons of a big aggregation touch
 * neither the entry nor its description.  Comparing these words orders
 * as dt_agg_cmp_vals() and dt_agg_cmp_key() do.
 */
typedef struct dt_aggsortent { /* 32 bytes: qsort() moves them directly */
	dt_aggent_t *se_ae;
	uint64_t se_val; /* signed values biased by 2^63 */
	uint64_t se_key;
	uint32_t se_aggid;
	bool se_hasval;
	bool se_haskey;
} dt_aggsortent_t;

static void
dt_agg_sortent(const dt_aggsort_t *so, dt_aggent_t *ae, dt_aggsortent_t *se)
{
	const dt_aggdesc_t *agg = dt_agg_desc(so->so_dc, ae->ae_aggid);
	uint32_t pos =
	    so->so_keypos >= 0 && (uint32_t) so->so_keypos < agg->ag_nkeys
	    ? (uint32_t) so->so_keypos
	    : 0;

	se->se_ae = ae;
	se->se_aggid = ae->ae_aggid;
	se->se_hasval = true;
	switch (agg->ag_kind) {
	case DT_AGG_AVG:
		se->se_val =
		    (uint64_t) dt_agg_avg(ae->ae_vals, 1) ^ (1ULL << 63);
		break;
	case DT_AGG_STDDEV:
		se->se_val = dt_agg_stddev(ae->ae_vals, 1);
		break;
	case DT_AGG_QUANTIZE:
	case DT_AGG_LQUANTIZE:
	case DT_AGG_LLQUANTIZE:
		se->se_hasval = false;
		se->se_val = 0;
		break;
	default:
		se->se_val = (uint64_t) ae->ae_vals[0] ^ (1ULL << 63);
		break;
	}
	se->se_haskey = false;
	se->se_key = 0;
	if (agg->ag_nkeys > 0) {
		const dt_recdesc_t *rd = &agg->ag_keys[pos];

		switch (rd->rd_size) {
		case 1:
		case 2:
		case 4:
		case 8:
			se->se_haskey = true;
			se->se_key =
			    dt_rec_uint(rd, ae->ae_key + rd->rd_offset);
			break;
		default:
			break;
		}
	}
}

static int
dt_agg_se_vals(
    const dt_aggsort_t *so, const dt_aggsortent_t *l, const dt_aggsortent_t *r)
{
	if (l->se_hasval)
		return l->se_val < r->se_val ? -1 : l->se_val > r->se_val;
	return dt_agg_cmp_vals(dt_agg_desc(so->so_dc, l->se_aggid),
	    l->se_ae->ae_vals, r->se_ae->ae_vals);
}

static int
dt_agg_se_keys(
    const dt_aggsort_t *so, const dt_aggsortent_t *l, const dt_aggsortent_t *r)
{
	const dt_aggdesc_t *agg;

	if (l->se_haskey && l->se_key != r->se_key)
		return l->se_key < r->se_key ? -1 : 1;
	agg = dt_agg_desc(so->so_dc, l->se_aggid);
	if (l->se_haskey && agg->ag_nkeys == 1)
		return 0;
	return dt_agg_cmp_keys(
	    agg, l->se_ae->ae_key, r->se_ae->ae_key, so->so_keypos);
}

static int
dt_agg_entcmp(
    const dt_aggsort_t *so, const dt_aggsortent_t *l, const dt_aggsortent_t *r)
{
	int c;

	if (l->se_aggid != r->se_aggid) {
		c = l->se_aggid < r->se_aggid ? -1 : 1;
		return so->so_rev ? -c : c;
	}
	if (so->so_keysort) {
		c = dt_agg_se_keys(so, l, r);
		if (c == 0)
			c = dt_agg_se_vals(so, l, r);
	} else {
		c = dt_agg_se_vals(so, l, r);
		if (c == 0)
			c = dt_agg_se_keys(so, l, r);
	}
	return so->so_rev ? -c : c;
}

static void
dt_agg_sortopts(dt_consumer_t *dc, dt_aggsort_t *so)
{
	const dtrace_optval_t *o = dc->dc_dtp->dt_options;

	so->so_dc = dc;
	so->so_keysort = o[DT_OPT_AGGSORTKEY] != DTRACEOPT_UNSET;
	so->so_rev = o[DT_OPT_AGGSORTREV] != DTRACEOPT_UNSET;
	so->so_keypos = o[DT_OPT_AGGSORTKEYPOS] == DTRACEOPT_UNSET ||
		o[DT_OPT_AGGSORTKEYPOS] > 1024
	    ? 0
	    : (int) o[DT_OPT_AGGSORTKEYPOS];
}

/* The sort options as one word, to tell whether a kept order applies. */
static uint64_t
dt_agg_sortword(const dt_aggsort_t *so)
{
	return (uint64_t) so->so_keysort | (uint64_t) so->so_rev << 1 |
	    (uint64_t) (uint32_t) so->so_keypos << 2;
}

/* Stable insertion sort of a[0..n-1], for short runs. */
static void
dt_agg_isort(dt_aggsortent_t *a, size_t n, const dt_aggsort_t *so)
{
	for (size_t i = 1; i < n; i++) {
		dt_aggsortent_t t = a[i];
		size_t j = i;

		for (; j > 0 && dt_agg_entcmp(so, &a[j - 1], &t) > 0; j--)
			a[j] = a[j - 1];
		a[j] = t;
	}
}

/*
 * A stable merge sort of a[0..n-1] with tmp as room, which takes its
 * options as an argument (qsort() would need them in a thread-local
 * variable, a library call on each comparison in a shared library) and
 * merges no two runs already in order.  Every two entries differ (the
 * keys of an aggregation do), so the order is the one any sort gives.
 */
static void
dt_agg_msort(
    dt_aggsortent_t *a, dt_aggsortent_t *tmp, size_t n, const dt_aggsort_t *so)
{
	const size_t run = 16;
	dt_aggsortent_t *src = a, *dst = tmp, *t;

	for (size_t lo = 0; lo < n; lo += run)
		dt_agg_isort(a + lo, n - lo < run ? n - lo : run, so);
	for (size_t w = run; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n;
			size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, k = lo;

			if (mid == hi ||
			    dt_agg_entcmp(so, &src[mid - 1], &src[mid]) <= 0) {
				memcpy(dst + lo, src + lo,
				    (hi - lo) * sizeof(*src));
				continue;
			}
			while (i < mid && j < hi)
				dst[k++] =
				    dt_agg_entcmp(so, &src[j], &src[i]) < 0
				    ? src[j++]
				    : src[i++];
			memcpy(dst + k, src + i, (mid - i) * sizeof(*src));
			k += mid - i;
			memcpy(dst + k, src + j, (hi - j) * sizeof(*src));
		}
		t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
}

/*
 * Sort v[0..n-1]; false on ENOMEM.  An order that is already right (the
 * last printa()'s, when the values kept it) is found so in one pass.
 */
static bool
dt_agg_qsort(dt_aggent_t **v, uint32_t n, const dt_aggsort_t *so)
{
	dt_aggsortent_t *se, *tmp;
	uint32_t i;

	if (n < 2) /* v may be NULL when there is nothing */
		return true;
	if ((se = malloc(n * sizeof(*se))) == NULL)
		return false;
	for (i = 0; i < n; i++) {
		/* The entries are all over memory: ask for them early. */
		if (i + 8 < n) {
			__builtin_prefetch(v[i + 8]);
			__builtin_prefetch((const char *) v[i + 8] + 64);
		}
		dt_agg_sortent(so, v[i], &se[i]);
	}
	for (i = 1; i < n && dt_agg_entcmp(so, &se[i - 1], &se[i]) <= 0; i++)
		continue;
	if (i < n) {
		if ((tmp = malloc(n * sizeof(*tmp))) == NULL) {
			free(se);
			return false;
		}
		dt_agg_msort(se, tmp, n, so);
		free(tmp);
		for (i = 0; i < n; i++)
			v[i] = se[i].se_ae;
	}
	free(se);
	return true;
}

/* The entries of aggid (all for UINT32_MAX), unsorted. */
static dt_aggent_t **
dt_agg_select(dt_consumer_t *dc, uint32_t aggid, uint32_t *np)
{
	dt_aggent_t **v;
	uint32_t n = 0;

	if ((v = malloc((dc->dc_naggents + 1) * sizeof(*v))) == NULL)
		return NULL;
	for (uint32_t i = 0; i < dc->dc_naggents; i++) {
		dt_aggent_t *ae = dc->dc_aggents[i];

		if (aggid != UINT32_MAX && ae->ae_aggid != aggid)
			continue;
		v[n++] = ae;
	}
	*np = n;
	return v;
}

/*
 * The entries of aggid (all for UINT32_MAX), sorted.  The order of the
 * last time is the first guess when no entry came or went since: a
 * printa() every second of a big aggregation whose order holds then
 * costs a pass over it rather than a sort.
 */
dt_aggent_t **
dt_agg_sorted(dt_consumer_t *dc, uint32_t aggid, uint32_t *np)
{
	dt_aggstate_t *as = aggid != UINT32_MAX && dc->dc_aggstate != NULL &&
		aggid < dc->dc_naggstate && dt_agg_desc(dc, aggid) != NULL
	    ? &dc->dc_aggstate[aggid]
	    : NULL;
	dt_aggent_t **v;
	dt_aggsort_t so;
	uint64_t opts;

	dt_agg_sortopts(dc, &so);
	opts = dt_agg_sortword(&so);
	if (as != NULL && as->as_order != NULL &&
	    as->as_ordergen == dc->dc_agggen && as->as_orderopts == opts) {
		if ((v = malloc((as->as_norder + 1) * sizeof(*v))) == NULL)
			return NULL;
		memcpy(v, as->as_order, as->as_norder * sizeof(*v));
		*np = as->as_norder;
	} else if ((v = dt_agg_select(dc, aggid, np)) == NULL) {
		return NULL;
	}
	if (!dt_agg_qsort(v, *np, &so)) {
		free(v);
		return NULL;
	}
	if (as != NULL) {
		/* Kept for next time if there is room; no matter if not. */
		dt_aggent_t **o = realloc(as->as_order, (*np + 1) * sizeof(*o));

		if (o != NULL) {
			memcpy(o, v, *np * sizeof(*o));
			as->as_order = o;
			as->as_norder = *np;
			as->as_ordergen = dc->dc_agggen;
			as->as_orderopts = opts;
		}
	}
	return v;
}

int
dt_agg_clear(dtrace_hdl_t *dtp, uint32_t aggid)
{
	dt_consumer_t *dc = dt_consumer(dtp);
	const dt_aggdesc_t *agg;

	if (dc == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	if ((agg = dt_agg_desc(dc, aggid)) == NULL)
		return dt_set_errno(dtp, EDT_BADAGG);
	if (dt_agg_fresh(dc) != 0)
		return -1;
	/* The keys stay; their values start again from nothing. */
	return dt_agg_take(dtp, dc, agg, true);
}

int
dt_agg_trunc(dtrace_hdl_t *dtp, uint32_t aggid, bool all, int64_t n)
{
	dt_consumer_t *dc = dt_consumer(dtp);
	const dt_aggdesc_t *agg;
	dt_aggent_t **v;
	dt_aggsort_t so;
	uint32_t nv, keep;
	uint64_t want;

	if (dc == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	if ((agg = dt_agg_desc(dc, aggid)) == NULL)
		return dt_set_errno(dtp, EDT_BADAGG);
	if (dt_agg_fresh(dc) != 0)
		return -1;
	if ((v = dt_agg_select(dc, aggid, &nv)) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);

	/*
	 * Keep the n largest (n > 0) or -n smallest (n < 0), by value then
	 * key, regardless of the aggsort options.
	 */
	memset(&so, 0, sizeof(so));
	so.so_dc = dc;
	so.so_rev = !all && n > 0;
	if (!all && !dt_agg_qsort(v, nv, &so)) {
		free(v);
		return dt_set_errno(dtp, EDT_NOMEM);
	}
	want = all ? 0 : n < 0 ? -(uint64_t) n : (uint64_t) n;
	keep = want > nv ? nv : (uint32_t) want;
	for (uint32_t i = keep; i < nv; i++)
		v[i]->ae_drop = true;
	free(v);
	return dt_agg_take(dtp, dc, agg, false);
}

int
dt_agg_normalize(dtrace_hdl_t *dtp, uint32_t aggid, uint64_t normal)
{
	dt_consumer_t *dc = dt_consumer(dtp);

	if (dc == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	if (dt_agg_desc(dc, aggid) == NULL)
		return dt_set_errno(dtp, EDT_BADAGG);
	if (normal == 0)
		return dt_set_errno(dtp, EDT_BADNORMAL);
	dc->dc_aggstate[aggid].as_normal = normal;
	return 0;
}

int
dt_agg_denormalize(dtrace_hdl_t *dtp, uint32_t aggid)
{
	return dt_agg_normalize(dtp, aggid, 1);
}

static int64_t
dt_agg_ipow(int64_t b, int64_t e)
{
	int64_t r = 1;

	while (e-- > 0)
		r *= b;
	return r;
}

/*
 * The values bucket i of a distribution holds, lo..hi inclusive; an open
 * end (below the first bucket, at or above the limit) has no lo (hasmin
 * false) or no hi (hasmax false).  The JSON output and the metrics
 * histograms share it.
 */
void
dt_agg_bucket_range(const dt_aggdesc_t *agg, uint32_t i, bool *hasminp,
    int64_t *lop, bool *hasmaxp, int64_t *hip)
{
	uint32_t n = agg->ag_nvals;
	const int64_t *pa = agg->ag_params;
	bool hasmin = true, hasmax = true;
	int64_t lo = 0, hi = 0;

	switch (agg->ag_kind) {
	case DT_AGG_QUANTIZE: {
		int b = (int) i;

		if (b < DT_QUANTIZE_ZERO) {
			hasmin = b > 0;
			lo = hasmin ? dt_quantize_bucket_value(b - 1) + 1 : 0;
			hi = dt_quantize_bucket_value(b);
		} else if (b == DT_QUANTIZE_ZERO) {
			lo = hi = 0;
		} else {
			lo = dt_quantize_bucket_value(b);
			hasmax = b < DT_QUANTIZE_NBUCKETS - 1;
			hi = hasmax ? dt_quantize_bucket_value(b + 1) - 1 : 0;
		}
		break;
	}
	case DT_AGG_LQUANTIZE:
		if (i == 0) {
			hasmin = false;
			hi = pa[0] - 1;
		} else if (i == n - 1) {
			lo = pa[0] + (int64_t) (n - 2) * pa[2];
			hasmax = false;
		} else {
			lo = pa[0] + (int64_t) (i - 1) * pa[2];
			hi = lo + pa[2] - 1;
		}
		break;
	default:
		if (i == 0) {
			hasmin = false;
			hi = dt_agg_ipow(pa[0], pa[1]) - 1;
		} else if (i == n - 1) {
			lo = dt_agg_ipow(pa[0], pa[2] + 1);
			hasmax = false;
		} else {
			lo = dt_llquantize_bucket_value(
			    i, pa[0], pa[1], pa[2], pa[3]);
			hi = dt_llquantize_bucket_value(
			    i + 1, pa[0], pa[1], pa[2], pa[3]);
			hi--;
		}
		break;
	}
	*hasminp = hasmin;
	*lop = lo;
	*hasmaxp = hasmax;
	*hip = hi;
}
