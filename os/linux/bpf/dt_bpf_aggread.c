/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_aggread.c: the aggregation maps, made, and read as the
 * consumer's snapshots.
 *
 * A keyed aggregation's values are in slots the consumer maps and reads
 * in place (dt_bpf_gen.h); taking them (clear(), trunc()) deletes their
 * keys from the key -> slot hash in one system call, waits out the
 * firings that found them, reads, zeroes and queues them for new keys.  Where slots cannot be made, an aggregation
 * is a per-CPU hash map (one without keys is a per-CPU array of one
 * entry); the consumer wants, per CPU, the keys that CPU updated (its
 * flag word set) with their value words.  The hash is read in batches (BPF_MAP_LOOKUP_BATCH, one system call for
 * thousands of keys), or for clear() and trunc() read and emptied the
 * same way (BPF_MAP_LOOKUP_AND_DELETE_BATCH), which gives the map's space
 * back to new keys.  A kernel without batch operations is read key by key.
 * The buffers stay from one reading to the next (dt_bpf_aggbufs_t).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/membarrier.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "common/dt_aggfunc.h"
#include "os/linux/bpf/dt_bpf_aggread.h"
#include "os/linux/dt_linux_features.h"

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
 * An aggregation without keys: the one entry of its per-CPU array.  Its
 * entry cannot be deleted, and zeroing it under firings would lose the
 * updates made between the reading and the zeroing, or count them twice
 * (a firing's add that read the old count writes it back).  So it is
 * never zeroed: clear() and trunc() keep what they took as a baseline
 * (ba_base), and a reading gives the values less the baseline, the flag
 * word (a count of updates, dt_bpf_agg.c) saying whether a CPU updated
 * it since.  min() and max() cannot be taken apart so: their word is
 * set back to its start in the map, and an update in the instant
 * between the reading and that store may be missed (docs/bpf-engine.md).
 */
static int
dt_bpf_aggread_array(dtrace_hdl_t *dtp, const dt_bpf_aggmap_t *ba,
    int ncpus, bool take, dt_aggsnap_t *snaps, size_t *caps)
{
	const dt_aggdesc_t *agg = ba->ba_agg;
	size_t len = (size_t) ncpus * ba->ba_valsize;
	unsigned char *vals = calloc(2, len), *since = vals + len;
	bool minmax = agg->ag_kind == DT_AGG_MIN || agg->ag_kind == DT_AGG_MAX;
	uint32_t flag = agg->ag_nvals;
	uint32_t zero = 0;
	int rc = 0;

	if (vals == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	if (bpf_map_lookup_elem(ba->ba_fd, &zero, vals) != 0) {
		free(vals);
		return 0;
	}
	memcpy(since, vals, len);
	for (int c = 0; ba->ba_base != NULL && c < ncpus; c++) {
		int64_t *v = (int64_t *) (void *) (since +
		    (size_t) c * ba->ba_valsize);
		const int64_t *b = (const int64_t *) (const void *) (
		    (const unsigned char *) ba->ba_base +
		    (size_t) c * ba->ba_valsize);

		v[flag] = (int64_t) ((uint64_t) v[flag] - (uint64_t) b[flag]);
		if (v[flag] != 0 && !minmax)
			(void) dt_agg_since(agg->ag_kind, v, b, agg->ag_nvals);
	}
	rc = dt_bpf_aggread_one(dtp, ba, ncpus, (const unsigned char *) &zero,
	    since, snaps, caps);
	if (take && ba->ba_base != NULL) {
		memcpy(ba->ba_base, vals, len);
		for (int c = 0; minmax && c < ncpus; c++)
			dt_agg_init(agg->ag_kind, (int64_t *) (void *) (vals +
			    (size_t) c * ba->ba_valsize), 1);
		if (minmax)
			(void) bpf_map_update_elem(ba->ba_fd, &zero, vals,
			    BPF_ANY);
	}
	free(vals);
	return rc;
}

int
dt_bpf_aggarray_make(dt_bpf_aggmap_t *ba, int ncpus)
{
	ba->ba_base = calloc((size_t) ncpus, ba->ba_valsize);
	return ba->ba_base != NULL ? 0 : -1;
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

/*
 * Slots.
 */

/* Largest slot array made: beyond it, the per-CPU hash. */
#define DT_AGGSLOTS_MAX (1ULL << 32)

static unsigned char *
dt_bpf_aggslot(const dt_bpf_aggmap_t *ba, uint32_t slot)
{
	return ba->ba_map->sm_base + (size_t) slot * ba->ba_slotsize;
}

unsigned char *
dt_bpf_aggslots_reach(const dt_bpf_aggmap_t *ba, uint32_t n)
{
	dt_bpf_slotmap_t *sm = ba->ba_map;
	size_t need = ((size_t) n + 1) * ba->ba_slotsize, len;
	long pg = sysconf(_SC_PAGESIZE);
	void *m;

	if (need <= sm->sm_len)
		return sm->sm_base;
	len = sm->sm_len * 2 > need ? sm->sm_len * 2 : need;
	len = (len + (size_t) pg - 1) / (size_t) pg * (size_t) pg;
	if (len > sm->sm_max)
		len = sm->sm_max;
	if ((m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
	    ba->ba_slots_fd, 0)) == MAP_FAILED)
		return NULL;
	if (sm->sm_base != NULL)
		(void) munmap(sm->sm_base, sm->sm_len);
	sm->sm_base = m;
	sm->sm_len = len;
	return m;
}

int
dt_bpf_aggslots_make(dt_bpf_aggmap_t *ba, int ncpus)
{
	LIBBPF_OPTS(bpf_map_create_opts, mmopts,
	    .map_flags = BPF_F_MMAPABLE);
	uint64_t slotsize = 8 + (uint64_t) ba->ba_keysize +
	    (uint64_t) ncpus * ba->ba_valsize;
	uint64_t len = slotsize * ((uint64_t) ba->ba_maxent + 1);
	long pg = sysconf(_SC_PAGESIZE);
	int fds[3] = { -1, -1, -1 };
	dt_bpf_slotmap_t *sm = NULL;

	/* A new key's slot is taken by fetch-add and published by xchg. */
	if (ba->ba_kind != DT_AGGMAP_HASH || ncpus <= 0 || pg <= 0 ||
	    dt_linux_nofeature("agg_slots") ||
	    !dt_linux_feature(DT_LF_ATOMIC_FETCH) ||
	    slotsize > (1U << 22) || len > DT_AGGSLOTS_MAX)
		return -1;
	len = (len + (uint64_t) pg - 1) / (uint64_t) pg * (uint64_t) pg;
	fds[0] = bpf_map_create(BPF_MAP_TYPE_HASH, "dt_aggkey",
	    ba->ba_keysize, 4, ba->ba_maxent, NULL);
	fds[1] = bpf_map_create(BPF_MAP_TYPE_ARRAY, "dt_aggslot", 4,
	    (uint32_t) slotsize, ba->ba_maxent + 1, &mmopts);
	fds[2] = bpf_map_create(BPF_MAP_TYPE_QUEUE, "dt_aggfree", 0, 4,
	    ba->ba_maxent, NULL);
	if (fds[0] >= 0 && fds[1] >= 0 && fds[2] >= 0 &&
	    (sm = calloc(1, sizeof (*sm))) != NULL) {
		ba->ba_slots_fd = fds[1];
		ba->ba_slotsize = (uint32_t) slotsize;
		ba->ba_map = sm;
		sm->sm_max = (size_t) len;
		if (dt_bpf_aggslots_reach(ba, 0) != NULL) {
			ba->ba_kind = DT_AGGMAP_SLOTS;
			ba->ba_fd = fds[0];
			ba->ba_free_fd = fds[2];
			ba->ba_ncpus = (uint32_t) ncpus;
			ba->ba_valoff = 8 + ba->ba_keysize;
			return 0;
		}
		ba->ba_slots_fd = -1;
		ba->ba_map = NULL;
	}
	free(sm);
	for (int i = 0; i < 3; i++) {
		if (fds[i] >= 0)
			(void) close(fds[i]);
	}
	return -1;
}

/*
 * Until every BPF program running now has returned: each runs inside an
 * RCU read-side section, and membarrier(MEMBARRIER_CMD_GLOBAL) is
 * synchronize_rcu() (about 10-20 ms here).  A kernel that refuses it
 * (nohz_full CPUs) gets a pause many times the longest a program runs.
 */
static void
dt_bpf_agg_quiesce(void)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };

	if (syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0) == 0)
		return;
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		continue;
}

int
dt_bpf_aggflip_make(dt_bpf_aggmap_t *ba, int fds[3])
{
	dt_bpf_aggflip_t *af = calloc(1, sizeof (*af));
	LIBBPF_OPTS(bpf_map_create_opts, oopts);
	uint32_t zero = 0;

	fds[0] = fds[1] = fds[2] = -1;
	if (af == NULL || dt_linux_nofeature("agg_flip"))
		goto fail;
	for (int i = 0; i < 2; i++) {
		if ((fds[i] = bpf_map_create(BPF_MAP_TYPE_PERCPU_HASH,
		    "dt_agg", ba->ba_keysize, ba->ba_valsize, ba->ba_maxent,
		    NULL)) < 0)
			goto fail;
	}
	oopts.inner_map_fd = fds[0];
	if ((fds[2] = bpf_map_create(BPF_MAP_TYPE_ARRAY_OF_MAPS, "dt_aggflip",
	    4, 4, 1, &oopts)) < 0 ||
	    bpf_map_update_elem(fds[2], &zero, &fds[0], BPF_ANY) != 0)
		goto fail;
	af->af_inner[0] = fds[0];
	af->af_inner[1] = fds[1];
	af->af_outer = fds[2];
	ba->ba_flip = af;
	ba->ba_fd = fds[0];
	return 0;
fail:
	for (int i = 0; i < 3; i++) {
		if (fds[i] >= 0)
			(void) close(fds[i]);
		fds[i] = -1;
	}
	free(af);
	return -1;
}

/*
 * The two hashes of a flipped aggregation: read, both (the one not in use
 * is empty but in the instant of a take); taken, the one in use is
 * swapped for the other, the firings that found it are waited out, and
 * only then is it read and emptied, which nothing can change any more.
 * (Read and emptied in place, an update between the kernel's copy of an
 * element and its deletion would be lost.)
 */
static int
dt_bpf_aggread_flip(dtrace_hdl_t *dtp, dt_bpf_aggbufs_t *bufs,
    const dt_bpf_aggmap_t *ba, int ncpus, bool take, dt_aggsnap_t *snaps,
    size_t *caps)
{
	dt_bpf_aggflip_t *af = ba->ba_flip;
	dt_bpf_aggmap_t one = *ba;
	int cur = af->af_cur, rc;
	uint32_t zero = 0;

	one.ba_flip = NULL;
	if (take) {
		if (bpf_map_update_elem(af->af_outer, &zero,
		    &af->af_inner[1 - cur], BPF_ANY) != 0)
			return dt_set_errno(dtp, EDT_NOTSUP);
		af->af_cur = 1 - cur;
		dt_bpf_agg_quiesce();
		one.ba_fd = af->af_inner[cur];
		return dt_bpf_aggread(dtp, bufs, &one, ncpus, true, snaps,
		    caps);
	}
	one.ba_fd = af->af_inner[cur];
	if ((rc = dt_bpf_aggread(dtp, bufs, &one, ncpus, false, snaps,
	    caps)) != 0)
		return rc;
	one.ba_fd = af->af_inner[1 - cur];
	return dt_bpf_aggread(dtp, bufs, &one, ncpus, false, snaps, caps);
}

void
dt_bpf_aggmap_release(dt_bpf_aggmap_t *ba)
{
	free(ba->ba_base);
	ba->ba_base = NULL;
	free(ba->ba_flip);
	ba->ba_flip = NULL;
	if (ba->ba_map == NULL)
		return;
	if (ba->ba_map->sm_base != NULL)
		(void) munmap(ba->ba_map->sm_base, ba->ba_map->sm_len);
	free(ba->ba_map);
	ba->ba_map = NULL;
}

/* The keys of slots[0..n-1] out of the hash, in batches where it can. */
static void
dt_bpf_aggslots_unkey(dt_bpf_aggbufs_t *bufs, const dt_bpf_aggmap_t *ba,
    const uint32_t *slots, uint32_t n)
{
	const uint32_t batch = 4096;
	unsigned char *keys;
	bool onebyone = false;

	if (!dt_bpf_aggbufs_grow(bufs, (size_t) batch * ba->ba_keysize, 0))
		onebyone = true;
	keys = bufs->ab_keys;
	for (uint32_t i = 0; i < n; i += batch) {
		uint32_t count = n - i < batch ? n - i : batch;
		LIBBPF_OPTS(bpf_map_batch_opts, opts);

		for (uint32_t j = 0; !onebyone && j < count; j++)
			memcpy(keys + (size_t) j * ba->ba_keysize,
			    dt_bpf_aggslot(ba, slots[i + j]) + 8,
			    ba->ba_keysize);
		if (!onebyone && bpf_map_delete_batch(ba->ba_fd, keys, &count,
		    &opts) == 0)
			continue;
		/* No batch delete here (before 5.6), or no buffer. */
		onebyone = true;
		for (uint32_t j = 0; j < n - i && j < batch; j++)
			(void) bpf_map_delete_elem(ba->ba_fd,
			    dt_bpf_aggslot(ba, slots[i + j]) + 8);
	}
}

/*
 * Every live slot of ba into snaps.  With take set, the slots are given
 * back, and exactly: their keys are deleted from the hash first, so that
 * no firing from then on finds them (a new firing of the key makes a new
 * slot, which counts for the next reading); then every firing that found
 * them before is waited out; only then are they read -- nothing can
 * change them any more -- zeroed and queued for new keys.  Read first
 * and zeroed after, the updates made in between would be lost, or
 * counted twice where an update read before the zeroing wrote after it.
 * A slot is live once the program has put its key in the hash; the
 * header's count bounds the slots ever used.
 */
static int
dt_bpf_aggread_slots(dtrace_hdl_t *dtp, dt_bpf_aggbufs_t *bufs,
    const dt_bpf_aggmap_t *ba, int ncpus, bool take, dt_aggsnap_t *snaps,
    size_t *caps)
{
	uint64_t used = __atomic_load_n(
	    (uint64_t *) (void *) ba->ba_map->sm_base, __ATOMIC_ACQUIRE);
	uint32_t n = used > ba->ba_maxent ? ba->ba_maxent : (uint32_t) used;
	uint32_t *taken = NULL, ntaken = 0;
	int rc = 0;

	if (dt_bpf_aggslots_reach(ba, n) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);

	if (ncpus > (int) ba->ba_ncpus)
		ncpus = (int) ba->ba_ncpus;
	if (take && n > 0 &&
	    (taken = malloc((size_t) n * sizeof (*taken))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	for (uint32_t slot = 1; slot <= n && rc == 0; slot++) {
		unsigned char *p = dt_bpf_aggslot(ba, slot);

		if (__atomic_load_n((uint64_t *) (void *) p,
		    __ATOMIC_ACQUIRE) != DT_AGGSLOT_LIVE)
			continue;
		if (take)
			taken[ntaken++] = slot;
		else
			rc = dt_bpf_aggread_one(dtp, ba, ncpus, p + 8,
			    p + ba->ba_valoff, snaps, caps);
	}
	if (ntaken > 0) {
		dt_bpf_aggslots_unkey(bufs, ba, taken, ntaken);
		dt_bpf_agg_quiesce();
		for (uint32_t i = 0; i < ntaken && rc == 0; i++) {
			unsigned char *p = dt_bpf_aggslot(ba, taken[i]);

			rc = dt_bpf_aggread_one(dtp, ba, ncpus, p + 8,
			    p + ba->ba_valoff, snaps, caps);
		}
		/* Given back even when the reading failed: no key finds
		 * them any more. */
		for (uint32_t i = 0; i < ntaken; i++) {
			unsigned char *p = dt_bpf_aggslot(ba, taken[i]);

			__atomic_store_n((uint64_t *) (void *) p, 0,
			    __ATOMIC_RELEASE);
			memset(p + 8, 0, ba->ba_slotsize - 8);
			(void) bpf_map_update_elem(ba->ba_free_fd, NULL,
			    &taken[i], 0);
		}
	}
	free(taken);
	return rc;
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

	if (ba->ba_kind == DT_AGGMAP_ARRAY)
		return dt_bpf_aggread_array(dtp, ba, ncpus, take, snaps, caps);
	if (ba->ba_kind == DT_AGGMAP_SLOTS)
		return dt_bpf_aggread_slots(dtp, bufs, ba, ncpus, take, snaps,
		    caps);
	if (ba->ba_flip != NULL)
		return dt_bpf_aggread_flip(dtp, bufs, ba, ncpus, take, snaps,
		    caps);
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
