/*
 * dt_aggregate.c: the consumer's merged aggregation table -- snapshots in,
 * sorted entries out, and the clear(), trunc(), normalize() actions.
 *
 * Entries are keyed by (aggregation ID, key bytes) in a chained hash table
 * (dc_agghash) and also listed in dc_aggents for sorting.  An engine hands
 * per-CPU snapshots (dt_aggsnap_t); each entry of a snapshot is an 8-byte
 * slot holding the aggregation ID, the key padded to 8 bytes, and the value
 * words.  Cumulative snapshots replace the merged values; delta snapshots
 * add to them.
 *
 * trunc() removes entries, but an engine with cumulative values still
 * holds them.  A removed entry therefore stays in the table, hidden, with
 * the engine's value at removal as its baseline: it shows again only when
 * that value moves, and then (for the additive functions) only by what was
 * added since -- which is what DTrace, whose kernel hands out deltas, prints.
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

static uint32_t
dt_agg_hash(uint32_t aggid, const unsigned char *key, uint32_t len)
{
	uint32_t h = 2166136261u ^ aggid;

	for (uint32_t i = 0; i < len; i++)
		h = (h ^ key[i]) * 16777619u;
	return h;
}

static dt_aggent_t *
dt_agg_lookup(dt_consumer_t *dc, const dt_aggdesc_t *agg,
    const unsigned char *key, bool create)
{
	uint32_t h = dt_agg_hash(agg->ag_id, key, agg->ag_keysize);
	dt_aggent_t *ae;

	for (ae = dc->dc_agghash[h % DT_AGGHASH_SIZE]; ae != NULL;
	     ae = ae->ae_next) {
		if (ae->ae_hash == h && ae->ae_aggid == agg->ag_id &&
		    memcmp(ae->ae_key, key, agg->ag_keysize) == 0)
			return ae;
	}
	if (!create)
		return NULL;

	if (dc->dc_naggents == dc->dc_aggents_cap) {
		uint32_t cap = dc->dc_aggents_cap ? dc->dc_aggents_cap * 2 : 64;
		dt_aggent_t **v = realloc(dc->dc_aggents, cap * sizeof(*v));

		if (v == NULL)
			return NULL;
		dc->dc_aggents = v;
		dc->dc_aggents_cap = cap;
	}
	if ((ae = calloc(1, sizeof(*ae))) == NULL ||
	    (ae->ae_vals = calloc(
		 agg->ag_nvals ? agg->ag_nvals : 1, sizeof(int64_t))) == NULL ||
	    (ae->ae_key = malloc(agg->ag_keysize ? agg->ag_keysize : 1)) ==
		NULL) {
		if (ae != NULL)
			free(ae->ae_vals);
		free(ae);
		return NULL;
	}
	memcpy(ae->ae_key, key, agg->ag_keysize);
	dt_agg_init(agg->ag_kind, ae->ae_vals, agg->ag_nvals);
	ae->ae_aggid = agg->ag_id;
	ae->ae_hash = h;
	ae->ae_next = dc->dc_agghash[h % DT_AGGHASH_SIZE];
	dc->dc_agghash[h % DT_AGGHASH_SIZE] = ae;
	dc->dc_aggents[dc->dc_naggents++] = ae;
	return ae;
}

void
dt_agg_destroy(dt_consumer_t *dc)
{
	for (uint32_t i = 0; i < dc->dc_naggents; i++) {
		dt_aggent_t *ae = dc->dc_aggents[i];

		free(ae->ae_vals);
		free(ae->ae_base);
		free(ae->ae_key);
		free(ae);
	}
	free(dc->dc_aggents);
	dc->dc_aggents = NULL;
	dc->dc_naggents = dc->dc_aggents_cap = 0;
	free(dc->dc_modkeys);
	dc->dc_modkeys = NULL;
	dc->dc_nmodkeys = 0;
	memset(dc->dc_agghash, 0, sizeof(dc->dc_agghash));
	free(dc->dc_aggstate);
	dc->dc_aggstate = NULL;
}

void
dt_aggstate_reset(dt_consumer_t *dc)
{
	uint32_t n = dc->dc_pgp ? dc->dc_pgp->pg_naggs : 0;

	for (uint32_t i = 0; i < n; i++) {
		dc->dc_aggstate[i].as_normal = 1;
		dc->dc_aggstate[i].as_printed = false;
	}
}

static bool
dt_agg_additive(dt_aggkind_t kind)
{
	return kind != DT_AGG_MIN && kind != DT_AGG_MAX;
}

/* A trunc()ed entry: what moved since its baseline, or hidden. */
static void
dt_agg_rebase(const dt_aggdesc_t *agg, dt_aggent_t *ae)
{
	bool changed = false;

	for (uint32_t i = 0; i < agg->ag_nvals; i++) {
		if (ae->ae_vals[i] != ae->ae_base[i])
			changed = true;
	}
	ae->ae_hidden = !changed;
	if (!changed || !dt_agg_additive(agg->ag_kind))
		return;
	if (agg->ag_kind == DT_AGG_STDDEV) {
		/* The sum of squares is 128 bits: subtract with borrow. */
		uint64_t lo = (uint64_t) ae->ae_vals[2];
		uint64_t blo = (uint64_t) ae->ae_base[2];

		ae->ae_vals[0] -= ae->ae_base[0];
		ae->ae_vals[1] -= ae->ae_base[1];
		ae->ae_vals[2] = (int64_t) (lo - blo);
		ae->ae_vals[3] = (int64_t) ((uint64_t) ae->ae_vals[3] -
		    (uint64_t) ae->ae_base[3] - (lo < blo));
		return;
	}
	for (uint32_t i = 0; i < agg->ag_nvals; i++)
		ae->ae_vals[i] = (int64_t) ((uint64_t) ae->ae_vals[i] -
		    (uint64_t) ae->ae_base[i]);
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

int
dt_consume_aggsnap(dtrace_hdl_t *dtp, const dt_aggsnap_t *snaps,
    uint32_t nsnaps, bool cumulative)
{
	dt_consumer_t *dc = dt_consumer(dtp);

	if (dc == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	if (dc->dc_pgp == NULL)
		return 0;

	if (cumulative) {
		for (uint32_t i = 0; i < dc->dc_naggents; i++) {
			dt_aggent_t *ae = dc->dc_aggents[i];
			const dt_aggdesc_t *agg = dt_agg_desc(dc, ae->ae_aggid);

			dt_agg_init(agg->ag_kind, ae->ae_vals, agg->ag_nvals);
		}
	}

	for (uint32_t s = 0; s < nsnaps; s++) {
		const unsigned char *p = snaps[s].as_data;
		const unsigned char *end = p + snaps[s].as_size;

		while (p + 8 <= end) {
			const dt_aggdesc_t *agg;
			dt_aggent_t *ae;
			uint32_t aggid;
			size_t ksz, n;

			memcpy(&aggid, p, sizeof(aggid));
			if ((agg = dt_agg_desc(dc, aggid)) == NULL)
				return dt_set_errno(dtp, EDT_BADAGG);
			ksz = ((size_t) agg->ag_keysize + 7) & ~(size_t) 7;
			n = 8 + ksz + (size_t) agg->ag_nvals * 8;
			if (p + n > end)
				return dt_set_errno(dtp, EDT_DOFFSET);
			{
				unsigned char *nk;
				const unsigned char *k =
				    dt_agg_symkey(dc, agg, p + 8, &nk);

				ae = k == NULL ? NULL :
				    dt_agg_lookup(dc, agg, k, true);
				free(nk);
			}
			if (ae == NULL)
				return dt_set_errno(dtp, EDT_NOMEM);
			{
				int64_t *src = malloc(agg->ag_nvals * 8 + 8);

				if (src == NULL)
					return dt_set_errno(dtp, EDT_NOMEM);
				memcpy(src, p + 8 + ksz, agg->ag_nvals * 8);
				dt_agg_merge(agg->ag_kind, ae->ae_vals, src,
				    agg->ag_nvals);
				free(src);
				if (!cumulative)
					ae->ae_hidden = false;
			}
			p += n;
		}
	}

	dc->dc_aggcumulative = cumulative;
	for (uint32_t i = 0; cumulative && i < dc->dc_naggents; i++) {
		dt_aggent_t *ae = dc->dc_aggents[i];

		if (ae->ae_base != NULL)
			dt_agg_rebase(dt_agg_desc(dc, ae->ae_aggid), ae);
	}
	return 0;
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

/* qsort() has no context argument; sorting holds this for its duration. */
typedef struct dt_aggsort {
	dt_consumer_t *so_dc;
	bool so_keysort;
	bool so_rev;
	int so_keypos;
} dt_aggsort_t;

static _Thread_local const dt_aggsort_t *dt_aggsort_ctx;

static int
dt_agg_entcmp(const void *lp, const void *rp)
{
	const dt_aggsort_t *so = dt_aggsort_ctx;
	const dt_aggent_t *l = *(dt_aggent_t *const *) lp;
	const dt_aggent_t *r = *(dt_aggent_t *const *) rp;
	const dt_aggdesc_t *agg;
	int c;

	if (l->ae_aggid != r->ae_aggid) {
		c = l->ae_aggid < r->ae_aggid ? -1 : 1;
		return so->so_rev ? -c : c;
	}
	agg = dt_agg_desc(so->so_dc, l->ae_aggid);
	if (so->so_keysort) {
		c = dt_agg_cmp_keys(agg, l->ae_key, r->ae_key, so->so_keypos);
		if (c == 0)
			c = dt_agg_cmp_vals(agg, l->ae_vals, r->ae_vals);
	} else {
		c = dt_agg_cmp_vals(agg, l->ae_vals, r->ae_vals);
		if (c == 0)
			c = dt_agg_cmp_keys(
			    agg, l->ae_key, r->ae_key, so->so_keypos);
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

static void
dt_agg_qsort(dt_aggent_t **v, uint32_t n, const dt_aggsort_t *so)
{
	const dt_aggsort_t *saved = dt_aggsort_ctx;

	dt_aggsort_ctx = so;
	if (n > 1)	/* v may be NULL when there is nothing */
		qsort(v, n, sizeof(*v), dt_agg_entcmp);
	dt_aggsort_ctx = saved;
}

dt_aggent_t **
dt_agg_sorted(dt_consumer_t *dc, uint32_t aggid, uint32_t *np)
{
	dt_aggent_t **v;
	dt_aggsort_t so;
	uint32_t n = 0;

	if ((v = malloc((dc->dc_naggents + 1) * sizeof(*v))) == NULL)
		return NULL;
	for (uint32_t i = 0; i < dc->dc_naggents; i++) {
		dt_aggent_t *ae = dc->dc_aggents[i];

		if (ae->ae_hidden)
			continue;
		if (aggid != UINT32_MAX && ae->ae_aggid != aggid)
			continue;
		v[n++] = ae;
	}
	dt_agg_sortopts(dc, &so);
	dt_agg_qsort(v, n, &so);
	*np = n;
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
	for (uint32_t i = 0; i < dc->dc_naggents; i++) {
		dt_aggent_t *ae = dc->dc_aggents[i];

		if (ae->ae_aggid != aggid)
			continue;
		dt_agg_init(agg->ag_kind, ae->ae_vals, agg->ag_nvals);
		/* The engine's values restart from nothing too. */
		if (ae->ae_base != NULL)
			dt_agg_init(agg->ag_kind, ae->ae_base, agg->ag_nvals);
	}
	if (dc->dc_aggclear != NULL)
		return dc->dc_aggclear(dtp, aggid, dc->dc_aggclear_arg);
	return 0;
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
	if ((v = dt_agg_sorted(dc, aggid, &nv)) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);

	/*
	 * Keep the n largest (n > 0) or -n smallest (n < 0), by value then
	 * key, regardless of the aggsort options.
	 */
	memset(&so, 0, sizeof(so));
	so.so_dc = dc;
	so.so_rev = !all && n > 0;
	dt_agg_qsort(v, nv, &so);
	want = all ? 0 : n < 0 ? -(uint64_t) n : (uint64_t) n;
	keep = want > nv ? nv : (uint32_t) want;

	for (uint32_t i = keep; i < nv; i++) {
		dt_aggent_t *ae = v[i];

		if (dc->dc_aggcumulative) {
			/*
			 * The baseline is the engine's value: what is shown
			 * plus any earlier baseline.  dt_agg_merge() adds for
			 * the additive kinds and keeps the shown value for
			 * min/max.
			 */
			if (ae->ae_base == NULL) {
				if ((ae->ae_base = malloc(
					 agg->ag_nvals * 8 + 8)) == NULL) {
					free(v);
					return dt_set_errno(dtp, EDT_NOMEM);
				}
				memcpy(ae->ae_base, ae->ae_vals,
				    agg->ag_nvals * 8);
			} else {
				dt_agg_merge(agg->ag_kind, ae->ae_base,
				    ae->ae_vals, agg->ag_nvals);
				if (!dt_agg_additive(agg->ag_kind))
					memcpy(ae->ae_base, ae->ae_vals,
					    agg->ag_nvals * 8);
			}
		}
		dt_agg_init(agg->ag_kind, ae->ae_vals, agg->ag_nvals);
		ae->ae_hidden = true;
	}
	free(v);
	return 0;
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
