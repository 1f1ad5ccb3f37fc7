/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_aggread.c: the aggregation maps as the consumer's snapshots.
 *
 * Each aggregation is a per-CPU hash map (one without keys a per-CPU
 * array of one entry); the consumer wants, per CPU, the keys that CPU
 * updated (its flag word set) with their value words.  The map is read in batches (BPF_MAP_LOOKUP_BATCH, one system call for
 * thousands of keys), or for clear() and trunc() read and emptied the
 * same way (BPF_MAP_LOOKUP_AND_DELETE_BATCH), which gives the map's space
 * back to new keys.  A kernel without batch operations is read key by key.
 * The buffers stay from one reading to the next (dt_bpf_aggbufs_t).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>

#include "common/dt_aggfunc.h"
#include "os/linux/bpf/dt_bpf_aggread.h"

/* Bytes of values one batch may bring in, whatever the CPU count. */
#define DT_AGGREAD_BYTES (4u << 20)

/*
 * A map key as the consumer's key tuple (dt_aggdesc_t), into zeroed
 * bytes: each key from its place in the map to its place in the tuple,
 * where the map holds bounded strings in fewer bytes (dt_bpf_gen.h).
 */
static void
dt_bpf_aggkey_expand(
    const dt_bpf_aggmap_t *ba, const unsigned char *key, unsigned char *out)
{
	const dt_aggdesc_t *agg = ba->ba_agg;

	if (!ba->ba_compact) {
		memcpy(out, key, agg->ag_keysize);
		return;
	}
	for (uint32_t k = 0; k < agg->ag_nkeys; k++)
		memcpy(out + agg->ag_keys[k].rd_offset,
		    key + ba->ba_keys[k].rd_offset, ba->ba_keys[k].rd_size);
}

/* One key's per-CPU values (ncpus of ba_valsize bytes) into snaps. */
static int
dt_bpf_aggread_one(dtrace_hdl_t *dtp, const dt_bpf_aggmap_t *ba, int ncpus,
    const unsigned char *key, const unsigned char *vals, dt_aggsnap_t *snaps,
    size_t *caps)
{
	const dt_aggdesc_t *agg = ba->ba_agg;
	size_t ksz = (agg->ag_keysize + 7) & ~(size_t) 7;
	size_t n = 8 + ksz + agg->ag_nvals * 8;
	uint64_t id = agg->ag_id;

	for (int c = 0; c < ncpus; c++) {
		const unsigned char *v = vals + (size_t) c * ba->ba_valsize;
		dt_aggsnap_t *s = &snaps[c];
		unsigned char *p;
		uint64_t flag;

		memcpy(&flag, v + agg->ag_nvals * 8, 8);
		if (flag == 0)
			continue;
		if (s->as_size + n > caps[c]) {
			size_t cap = caps[c] ? caps[c] * 2 : 4096;

			while (cap < s->as_size + n)
				cap *= 2;
			if ((p = realloc(s->as_data, cap)) == NULL)
				return dt_set_errno(dtp, EDT_NOMEM);
			s->as_data = p;
			caps[c] = cap;
		}
		p = s->as_data + s->as_size;
		memset(p, 0, n);
		memcpy(p, &id, 8);
		dt_bpf_aggkey_expand(ba, key, p + 8);
		memcpy(p + 8 + ksz, v, agg->ag_nvals * 8);
		s->as_size += n;
		s->as_nentries++;
	}
	return 0;
}

/* Key by key, for kernels without batch operations (before 5.6). */
static int
dt_bpf_aggread_keys(dtrace_hdl_t *dtp, const dt_bpf_aggmap_t *ba, int ncpus,
    bool take, dt_aggsnap_t *snaps, size_t *caps)
{
	unsigned char *key = calloc(2, ba->ba_keysize);
	unsigned char *vals = calloc((size_t) ncpus, ba->ba_valsize);
	unsigned char *next = key + ba->ba_keysize;
	bool first = true;
	int rc = 0;

	if (key == NULL || vals == NULL) {
		free(key);
		free(vals);
		return dt_set_errno(dtp, EDT_NOMEM);
	}
	/* Taking, each key read is gone: start from the first again. */
	while (rc == 0 &&
	    bpf_map_get_next_key(ba->ba_fd, first || take ? NULL : key, next) ==
		0) {
		first = false;
		memcpy(key, next, ba->ba_keysize);
		if (bpf_map_lookup_elem(ba->ba_fd, key, vals) != 0)
			continue;
		if (take)
			(void) bpf_map_delete_elem(ba->ba_fd, key);
		rc = dt_bpf_aggread_one(dtp, ba, ncpus, key, vals, snaps, caps);
	}
	free(key);
	free(vals);
	return rc;
}

/*
 * An aggregation without keys: the one entry of its per-CPU array, and
 * for clear() and trunc() its words and flags zeroed (an array's entry
 * cannot be deleted; a CPU whose flag is clear has no value).
 */
static int
dt_bpf_aggread_array(dtrace_hdl_t *dtp, const dt_bpf_aggmap_t *ba,
    int ncpus, bool take, dt_aggsnap_t *snaps, size_t *caps)
{
	unsigned char *vals = calloc((size_t) ncpus, ba->ba_valsize);
	uint32_t zero = 0;
	int rc = 0;

	if (vals == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	if (bpf_map_lookup_elem(ba->ba_fd, &zero, vals) == 0) {
		rc = dt_bpf_aggread_one(dtp, ba, ncpus,
		    (const unsigned char *) &zero, vals, snaps, caps);
		if (take) {
			memset(vals, 0, (size_t) ncpus * ba->ba_valsize);
			(void) bpf_map_update_elem(ba->ba_fd, &zero, vals,
			    BPF_ANY);
		}
	}
	free(vals);
	return rc;
}

/* bufs' batch buffers grown for max keys; false on ENOMEM. */
static bool
dt_bpf_aggbufs_grow(dt_bpf_aggbufs_t *bufs, size_t keysz, size_t valsz)
{
	unsigned char *p;

	if (keysz > bufs->ab_keyscap) {
		if ((p = realloc(bufs->ab_keys, keysz)) == NULL)
			return false;
		bufs->ab_keys = p;
		bufs->ab_keyscap = keysz;
	}
	if (valsz > bufs->ab_valscap) {
		if ((p = realloc(bufs->ab_vals, valsz)) == NULL)
			return false;
		bufs->ab_vals = p;
		bufs->ab_valscap = valsz;
	}
	return true;
}

int
dt_bpf_aggread(dtrace_hdl_t *dtp, dt_bpf_aggbufs_t *bufs,
    const dt_bpf_aggmap_t *ba, int ncpus, bool take, dt_aggsnap_t *snaps,
    size_t *caps)
{
	size_t per = (size_t) ncpus * ba->ba_valsize;
	uint32_t max = DT_AGGREAD_BYTES / (per ? per : 1);
	unsigned char *keys, *vals, *token;
	bool more = true, started = false;
	int rc = 0;

	if (ba->ba_array)
		return dt_bpf_aggread_array(dtp, ba, ncpus, take, snaps, caps);
	if (max < 16)
		max = 16;
	if (max > ba->ba_maxent)
		max = ba->ba_maxent ? ba->ba_maxent : 1;
	/* The batch token of a hash map is a bucket index: 4 bytes. */
	if ((token = calloc(2, ba->ba_keysize < 8 ? 8 : ba->ba_keysize)) ==
	    NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	while (more && rc == 0) {
		LIBBPF_OPTS(bpf_map_batch_opts, opts);
		uint32_t count;
		int err;

		if (!dt_bpf_aggbufs_grow(bufs, (size_t) max * ba->ba_keysize,
			(size_t) max * per)) {
			rc = dt_set_errno(dtp, EDT_NOMEM);
			break;
		}
		keys = bufs->ab_keys;
		vals = bufs->ab_vals;
		count = max;
		err = take
		    ? bpf_map_lookup_and_delete_batch(ba->ba_fd,
			  started ? token : NULL, token, keys, vals, &count,
			  &opts)
		    : bpf_map_lookup_batch(ba->ba_fd, started ? token : NULL,
			  token, keys, vals, &count, &opts);
		if (err != 0 && errno == ENOSPC && count == 0) {
			/* A bucket holds more keys than a batch: grow it. */
			max *= 2;
			continue;
		}
		if (err != 0 && errno != ENOENT) {
			if (!started) {
				/* No batch operations here: key by key. */
				free(token);
				return dt_bpf_aggread_keys(
				    dtp, ba, ncpus, take, snaps, caps);
			}
			break; /* the map changed under us: what we have */
		}
		more = err == 0;
		started = true;
		for (uint32_t i = 0; i < count && rc == 0; i++)
			rc = dt_bpf_aggread_one(dtp, ba, ncpus,
			    keys + (size_t) i * ba->ba_keysize,
			    vals + (size_t) i * per, snaps, caps);
	}
	free(token);
	return rc;
}

int
dt_bpf_aggread_snap(dtrace_hdl_t *dtp, dt_bpf_aggbufs_t *bufs,
    const dt_bpf_layout_t *lay, int ncpus, uint32_t aggid, bool take,
    dt_aggsnap_t **snapsp, uint32_t *nsnapsp)
{
	bool own = !bufs->ab_lent;
	dt_aggsnap_t *snaps;
	size_t *caps;

	*snapsp = NULL;
	*nsnapsp = 0;
	if (own && bufs->ab_snaps == NULL) {
		bufs->ab_snaps = calloc((size_t) ncpus, sizeof(*snaps));
		bufs->ab_caps = calloc((size_t) ncpus, sizeof(*caps));
		if (bufs->ab_snaps == NULL || bufs->ab_caps == NULL) {
			free(bufs->ab_snaps);
			free(bufs->ab_caps);
			bufs->ab_snaps = NULL;
			bufs->ab_caps = NULL;
		}
		bufs->ab_ncpus = ncpus;
	}
	/* Lent out (a reading inside a reading), or none: new ones. */
	own = own && bufs->ab_snaps != NULL && bufs->ab_ncpus == ncpus;
	if (own) {
		snaps = bufs->ab_snaps;
		caps = bufs->ab_caps;
	} else if ((snaps = calloc((size_t) ncpus, sizeof(*snaps))) == NULL ||
	    (caps = calloc((size_t) ncpus, sizeof(*caps))) == NULL) {
		free(snaps);
		return dt_set_errno(dtp, EDT_NOMEM);
	}
	for (int c = 0; c < ncpus; c++) {
		snaps[c].as_cpu = (uint32_t) c;
		snaps[c].as_size = 0;
		snaps[c].as_nentries = 0;
	}
	for (uint32_t a = 0; a < lay->bl_naggs; a++) {
		if (aggid != UINT32_MAX && a != aggid)
			continue;
		if (dt_bpf_aggread(dtp, bufs, &lay->bl_aggs[a], ncpus, take,
			snaps, caps) != 0) {
			if (!own) {
				for (int c = 0; c < ncpus; c++)
					free(snaps[c].as_data);
				free(snaps);
				free(caps);
			}
			return -1;
		}
	}
	if (own)
		bufs->ab_lent = true;
	else
		free(caps);
	*snapsp = snaps;
	*nsnapsp = (uint32_t) ncpus;
	return 0;
}

void
dt_bpf_aggread_done(
    dt_bpf_aggbufs_t *bufs, dt_aggsnap_t *snaps, uint32_t nsnaps)
{
	if (snaps != NULL && snaps == bufs->ab_snaps) {
		bufs->ab_lent = false;
		return;
	}
	for (uint32_t i = 0; snaps != NULL && i < nsnaps; i++)
		free(snaps[i].as_data);
	free(snaps);
}

void
dt_bpf_aggbufs_free(dt_bpf_aggbufs_t *bufs)
{
	for (int c = 0; bufs->ab_snaps != NULL && c < bufs->ab_ncpus; c++)
		free(bufs->ab_snaps[c].as_data);
	free(bufs->ab_snaps);
	free(bufs->ab_caps);
	free(bufs->ab_keys);
	free(bufs->ab_vals);
	memset(bufs, 0, sizeof(*bufs));
}
