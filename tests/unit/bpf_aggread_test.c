/* SPDX-License-Identifier: MIT */
/*
 * bpf_aggread_test.c: the consumer's reading of the aggregation maps
 * (os/linux/bpf/dt_bpf_aggread.c), on maps filled from here the way a
 * program fills them: per CPU, value words then a flag word set by the
 * CPUs that updated the key.
 *
 * An aggregation without keys is a one-entry per-CPU array, its flag
 * word a count of each CPU's updates: reading it gives an entry for each
 * CPU whose flag is set and none for the others, and taking it (clear(),
 * trunc()) leaves the map as it is but keeps what it took as a baseline,
 * so that the next reading has nothing until a CPU updates it again, and
 * then only what came since; a min() or max() word is set back to its
 * start instead.  An aggregation with keys is in slots read in place: a
 * live slot gives its key once per updating CPU, a slot not yet live
 * (its key not yet in the hash) nothing, and taking deletes the keys
 * from the key -> slot hash, zeroes the slots and queues them for new
 * keys.  Where slots cannot be made, a keyed aggregation is a per-CPU
 * hash: reading gives each key once per updating CPU, taking deletes the
 * keys; made twice and flipped, taking empties the one the program used
 * and points it at the other.  Needs root and BPF; skips without.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/dt_impl.h"
#include "os/linux/bpf/dt_bpf_aggread.h"
#include "os/linux/dt_linux_features.h"
#include "tests/unit/unit.h"

#define VALSIZE 16 /* one value word, then the flag */

/* The values of all CPUs: CPU c holds value[c] with flag[c]. */
static void
fill(int fd, const void *key, int ncpus, const uint64_t *value,
    const uint64_t *flag)
{
	uint64_t *v = calloc((size_t) ncpus, VALSIZE);

	CHECK(v != NULL);
	for (int c = 0; c < ncpus; c++) {
		v[2 * c] = value[c];
		v[2 * c + 1] = flag[c];
	}
	CHECK(bpf_map_update_elem(fd, key, v, BPF_ANY) == 0);
	free(v);
}

/* Reads (or takes) ba into fresh snapshots; returns all their entries. */
static uint32_t
readall(dtrace_hdl_t *dtp, const dt_bpf_aggmap_t *ba, int ncpus, bool take,
    dt_aggsnap_t *snaps, size_t *caps)
{
	dt_bpf_aggbufs_t bufs;
	uint32_t n = 0;

	memset(&bufs, 0, sizeof(bufs));
	for (int c = 0; c < ncpus; c++) {
		snaps[c].as_cpu = (uint32_t) c;
		snaps[c].as_size = 0;
		snaps[c].as_nentries = 0;
	}
	CHECK(dt_bpf_aggread(dtp, &bufs, ba, ncpus, take, snaps, caps) == 0);
	for (int c = 0; c < ncpus; c++)
		n += snaps[c].as_nentries;
	dt_bpf_aggbufs_free(&bufs);
	return n;
}

/* The value word of the first entry of snapshot s (keysize key bytes). */
static int64_t
first_value(const dt_aggsnap_t *s, uint32_t keysize)
{
	int64_t v;

	memcpy(&v, s->as_data + 8 + ((keysize + 7) & ~7U), 8);
	return v;
}

/*
 * Slots, filled as the program fills them: slot 0's count of slots
 * used, then per slot its state word, key and each CPU's value words
 * and flag.
 */
static void
test_slots(dtrace_hdl_t *dtp, int ncpus, dt_aggsnap_t *snaps, size_t *caps)
{
	dt_recdesc_t krec = { .rd_type = DT_REC_SINT, .rd_size = 8,
		.rd_align = 8 };
	dt_aggdesc_t keyed = { .ag_id = 5, .ag_kind = DT_AGG_COUNT,
		.ag_nvals = 1, .ag_nkeys = 1, .ag_keys = &krec,
		.ag_keysize = 8 };
	dt_bpf_aggmap_t ba = { .ba_agg = &keyed, .ba_keysize = 8,
		.ba_valsize = VALSIZE, .ba_maxent = 8, .ba_fd = -1 };
	uint32_t slot, queued[8], nq = 0;
	unsigned char *base;
	uint64_t key, k;

	CHECK(dt_bpf_aggslots_make(&ba, ncpus) == 0);
	CHECK(ba.ba_kind == DT_AGGMAP_SLOTS);
	CHECK_INT(ba.ba_valoff, 16);
	CHECK_INT(ba.ba_slotsize, 16 + ncpus * VALSIZE);
	CHECK_INT(readall(dtp, &ba, ncpus, false, snaps, caps), 0);

	/* Keys 100, 200, 300 in slots 1-3; 300's not yet live. */
	base = dt_bpf_aggslots_reach(&ba, 3);
	CHECK(base != NULL);
	*(uint64_t *) (void *) base = 3;
	for (slot = 1; slot <= 3; slot++) {
		unsigned char *p = base + (size_t) slot * ba.ba_slotsize;
		uint64_t *v = (uint64_t *) (void *) (p + ba.ba_valoff);

		key = 100 * slot;
		memcpy(p + 8, &key, 8);
		v[0] = 10 + slot;	/* CPU 0's count, */
		v[1] = 1;		/* and its flag */
		*(uint64_t *) (void *) p = slot < 3 ? DT_AGGSLOT_LIVE : 0;
		if (slot < 3)
			CHECK(bpf_map_update_elem(ba.ba_fd, &key, &slot,
			    BPF_NOEXIST) == 0);
	}
	CHECK_INT(readall(dtp, &ba, ncpus, false, snaps, caps), 2);
	CHECK_INT(snaps[0].as_nentries, 2);
	/* An entry: the ID, the key, the value. */
	CHECK_INT(*(uint64_t *) (void *) snaps[0].as_data, 5);
	memcpy(&k, snaps[0].as_data + 8, 8);
	CHECK_INT(k, 100);
	CHECK_INT(first_value(&snaps[0], 8), 11);

	/*
	 * Taking: both keys gone from the hash, the firings that found them
	 * waited out, then both read, zeroed, queued.
	 */
	CHECK_INT(readall(dtp, &ba, ncpus, true, snaps, caps), 2);
	CHECK_INT(readall(dtp, &ba, ncpus, false, snaps, caps), 0);
	CHECK(bpf_map_get_next_key(ba.ba_fd, NULL, &k) != 0);
	for (slot = 1; slot <= 2; slot++) {
		unsigned char *p = base + (size_t) slot * ba.ba_slotsize;

		for (uint32_t b = 0; b < ba.ba_slotsize; b++)
			CHECK(p[b] == 0);
	}
	while (nq < 8 && bpf_map_lookup_and_delete_elem(ba.ba_free_fd, NULL,
	    &queued[nq]) == 0)
		nq++;
	CHECK_INT(nq, 2);
	CHECK_INT(queued[0], 1);
	CHECK_INT(queued[1], 2);
	/* The slot that was not live is left as it was. */
	base = dt_bpf_aggslots_reach(&ba, 3);
	CHECK_INT(*(uint64_t *) (void *) (base + 3 * ba.ba_slotsize + 8), 300);

	dt_bpf_aggmap_release(&ba);
	CHECK(ba.ba_map == NULL);
	close(ba.ba_fd);
	close(ba.ba_slots_fd);
	close(ba.ba_free_fd);

	/*
	 * A big array is mapped only as far as slots are used: a page at
	 * first, then grown, the slots' contents kept.
	 */
	ba.ba_kind = DT_AGGMAP_HASH;
	ba.ba_maxent = 100000;
	CHECK(dt_bpf_aggslots_make(&ba, ncpus) == 0);
	CHECK_INT(ba.ba_map->sm_len, (size_t) sysconf(_SC_PAGESIZE));
	CHECK(ba.ba_map->sm_max >= 100001 * (size_t) ba.ba_slotsize);
	base = dt_bpf_aggslots_reach(&ba, 10);
	CHECK(base != NULL);
	*(uint64_t *) (void *) (base + 10 * ba.ba_slotsize + 8) = 77;
	base = dt_bpf_aggslots_reach(&ba, 50000);
	CHECK(base != NULL);
	CHECK(ba.ba_map->sm_len >= 50001 * (size_t) ba.ba_slotsize);
	CHECK(ba.ba_map->sm_len <= ba.ba_map->sm_max);
	CHECK_INT(*(uint64_t *) (void *) (base + 10 * ba.ba_slotsize + 8), 77);
	CHECK(dt_bpf_aggslots_reach(&ba, 100000) != NULL);
	CHECK_INT(ba.ba_map->sm_len, ba.ba_map->sm_max);
	dt_bpf_aggmap_release(&ba);
	close(ba.ba_fd);
	close(ba.ba_slots_fd);
	close(ba.ba_free_fd);

	/* Told not to, slots are not made, and ba is left a hash. */
	setenv("DTRACE_LINUX_NOFEATURE", "agg_slots", 1);
	ba.ba_kind = DT_AGGMAP_HASH;
	ba.ba_fd = -1;
	CHECK(dt_bpf_aggslots_make(&ba, ncpus) != 0);
	CHECK(ba.ba_kind == DT_AGGMAP_HASH);
	CHECK_INT(ba.ba_fd, -1);
	unsetenv("DTRACE_LINUX_NOFEATURE");
}

int
main(void)
{
	int ncpus = libbpf_num_possible_cpus();
	dt_recdesc_t krec = { .rd_type = DT_REC_SINT, .rd_size = 8,
		.rd_align = 8 };
	dt_aggdesc_t keyless = { .ag_id = 3, .ag_kind = DT_AGG_COUNT,
		.ag_nvals = 1 };
	dt_aggdesc_t keyed = { .ag_id = 4, .ag_kind = DT_AGG_COUNT,
		.ag_nvals = 1, .ag_nkeys = 1, .ag_keys = &krec,
		.ag_keysize = 8 };
	dt_bpf_aggmap_t arr = { .ba_agg = &keyless, .ba_kind = DT_AGGMAP_ARRAY,
		.ba_keysize = 4, .ba_valsize = VALSIZE, .ba_maxent = 1 };
	dt_bpf_aggmap_t hash = { .ba_agg = &keyed, .ba_keysize = 8,
		.ba_valsize = VALSIZE, .ba_maxent = 16 };
	dt_aggsnap_t *snaps;
	size_t *caps;
	uint64_t *value, *flag;
	dtrace_hdl_t *dtp;
	uint32_t zero = 0;
	uint64_t key;
	int err;

	if (geteuid() != 0)
		SKIP("not root: BPF maps need root");
	if (!dt_linux_feature(DT_LF_BPF))
		SKIP("no BPF on this kernel");
	CHECK(ncpus > 0);
	dtp = dtrace_open(DTRACE_VERSION, 0, &err);
	CHECK(dtp != NULL);
	snaps = calloc((size_t) ncpus, sizeof(*snaps));
	caps = calloc((size_t) ncpus, sizeof(*caps));
	value = calloc((size_t) ncpus, sizeof(*value));
	flag = calloc((size_t) ncpus, sizeof(*flag));
	CHECK(snaps != NULL && caps != NULL && value != NULL && flag != NULL);

	/* The array: a fresh one has no value on any CPU. */
	arr.ba_fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "t_arr", 4,
	    VALSIZE, 1, NULL);
	CHECK(arr.ba_fd >= 0);
	CHECK(dt_bpf_aggarray_make(&arr, ncpus) == 0);
	CHECK_INT(readall(dtp, &arr, ncpus, false, snaps, caps), 0);

	/* CPU 0 counted 5; the last CPU (if another) has a zero flag. */
	value[0] = 5;
	flag[0] = 1;
	value[ncpus - 1] += 9; /* ignored without its flag when ncpus > 1 */
	fill(arr.ba_fd, &zero, ncpus, value, flag);
	CHECK_INT(readall(dtp, &arr, ncpus, false, snaps, caps), 1);
	CHECK_INT(snaps[0].as_nentries, 1);
	CHECK_INT(first_value(&snaps[0], 0), ncpus > 1 ? 5 : 14);
	/* The entry is the aggregation's ID, then its value. */
	CHECK_INT(*(uint64_t *) (void *) snaps[0].as_data, 3);

	/* Reading leaves it; taking gives it once and leaves nothing. */
	CHECK_INT(readall(dtp, &arr, ncpus, false, snaps, caps), 1);
	CHECK_INT(readall(dtp, &arr, ncpus, true, snaps, caps), 1);
	CHECK_INT(readall(dtp, &arr, ncpus, false, snaps, caps), 0);
	CHECK_INT(readall(dtp, &arr, ncpus, true, snaps, caps), 0);
	/* The map itself is as it was: firings may be adding to it. */
	{
		uint64_t *v = calloc((size_t) ncpus, VALSIZE);

		CHECK(v != NULL);
		CHECK(bpf_map_lookup_elem(arr.ba_fd, &zero, v) == 0);
		CHECK_INT(v[0], ncpus > 1 ? 5 : 14);
		CHECK_INT(v[1], 1);
		free(v);
	}

	/* Updated again after the take: only what came since, each CPU. */
	for (int c = 0; c < ncpus; c++) {
		value[c] += (uint64_t) c + 1;
		flag[c]++;
	}
	fill(arr.ba_fd, &zero, ncpus, value, flag);
	CHECK_INT(readall(dtp, &arr, ncpus, false, snaps, caps),
	    (uint32_t) ncpus);
	for (int c = 0; c < ncpus; c++)
		CHECK_INT(first_value(&snaps[c], 0), c + 1);

	/* min(): taking sets its word back to the start in the map. */
	{
		dt_aggdesc_t mindesc = { .ag_id = 6, .ag_kind = DT_AGG_MIN,
			.ag_nvals = 1 };
		dt_bpf_aggmap_t amin = arr;
		uint64_t *v = calloc((size_t) ncpus, VALSIZE);

		CHECK(v != NULL);
		amin.ba_agg = &mindesc;
		amin.ba_base = NULL;
		CHECK(dt_bpf_aggarray_make(&amin, ncpus) == 0);
		amin.ba_fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "t_min",
		    4, VALSIZE, 1, NULL);
		CHECK(amin.ba_fd >= 0);
		memset(value, 0, (size_t) ncpus * sizeof(*value));
		memset(flag, 0, (size_t) ncpus * sizeof(*flag));
		value[0] = 42;
		flag[0] = 3;
		fill(amin.ba_fd, &zero, ncpus, value, flag);
		CHECK_INT(readall(dtp, &amin, ncpus, true, snaps, caps), 1);
		CHECK_INT(first_value(&snaps[0], 0), 42);
		CHECK(bpf_map_lookup_elem(amin.ba_fd, &zero, v) == 0);
		CHECK_INT((int64_t) v[0], INT64_MAX);
		CHECK_INT(v[1], 3);
		CHECK_INT(readall(dtp, &amin, ncpus, false, snaps, caps), 0);
		/* One more update, of 50: the new interval's minimum. */
		value[0] = 50;
		flag[0] = 4;
		fill(amin.ba_fd, &zero, ncpus, value, flag);
		CHECK_INT(readall(dtp, &amin, ncpus, false, snaps, caps), 1);
		CHECK_INT(first_value(&snaps[0], 0), 50);
		close(amin.ba_fd);
		dt_bpf_aggmap_release(&amin);
		free(v);
	}

	/* The hash: two keys, one on CPU 0 only; taking deletes them. */
	hash.ba_fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_HASH, "t_hash", 8,
	    VALSIZE, 16, NULL);
	CHECK(hash.ba_fd >= 0);
	memset(flag, 0, (size_t) ncpus * sizeof(*flag));
	memset(value, 0, (size_t) ncpus * sizeof(*value));
	value[0] = 7;
	flag[0] = 1;
	key = 100;
	fill(hash.ba_fd, &key, ncpus, value, flag);
	key = 200;
	fill(hash.ba_fd, &key, ncpus, value, flag);
	CHECK_INT(readall(dtp, &hash, ncpus, false, snaps, caps), 2);
	CHECK_INT(snaps[0].as_nentries, 2);
	CHECK_INT(readall(dtp, &hash, ncpus, true, snaps, caps), 2);
	CHECK_INT(readall(dtp, &hash, ncpus, false, snaps, caps), 0);
	CHECK(bpf_map_get_next_key(hash.ba_fd, NULL, &key) != 0);

	/* Slots need the kernel's atomic fetch (Linux 5.12). */
	if (dt_linux_feature(DT_LF_ATOMIC_FETCH))
		test_slots(dtp, ncpus, snaps, caps);
	else
		printf("slots not checked: the kernel has no BPF atomic "
		    "fetch\n");

	/*
	 * Two hashes flipped: the program's (the array of maps' one entry)
	 * is read; taking it points the array at the other and empties it.
	 */
	{
		dt_bpf_aggmap_t fl = { .ba_agg = &keyed, .ba_keysize = 8,
			.ba_valsize = VALSIZE, .ba_maxent = 16 };
		int fds[3], inner, id0, id1;
		struct bpf_map_info info;
		uint32_t ilen = sizeof(info);

		CHECK(dt_bpf_aggflip_make(&fl, fds) == 0);
		CHECK(fl.ba_flip != NULL);
		CHECK_INT(fl.ba_fd, fds[0]);
		memset(flag, 0, (size_t) ncpus * sizeof(*flag));
		memset(value, 0, (size_t) ncpus * sizeof(*value));
		value[0] = 3;
		flag[0] = 1;
		key = 100;
		fill(fds[0], &key, ncpus, value, flag);
		CHECK_INT(readall(dtp, &fl, ncpus, false, snaps, caps), 1);
		CHECK_INT(readall(dtp, &fl, ncpus, true, snaps, caps), 1);
		CHECK_INT(first_value(&snaps[0], 8), 3);
		CHECK(bpf_map_get_next_key(fds[0], NULL, &key) != 0);
		/* The array holds the second hash now. */
		CHECK(bpf_map_lookup_elem(fds[2], &zero, &inner) == 0);
		memset(&info, 0, sizeof(info));
		CHECK(bpf_obj_get_info_by_fd(fds[1], &info, &ilen) == 0);
		id1 = (int) info.id;
		memset(&info, 0, sizeof(info));
		CHECK(bpf_obj_get_info_by_fd(fds[0], &info, &ilen) == 0);
		id0 = (int) info.id;
		CHECK_INT(inner, id1);
		key = 200;
		fill(fds[1], &key, ncpus, value, flag);
		CHECK_INT(readall(dtp, &fl, ncpus, false, snaps, caps), 1);
		memcpy(&key, snaps[0].as_data + 8, 8);
		CHECK_INT(key, 200);
		/* And back again at the next take. */
		CHECK_INT(readall(dtp, &fl, ncpus, true, snaps, caps), 1);
		CHECK(bpf_map_lookup_elem(fds[2], &zero, &inner) == 0);
		CHECK_INT(inner, id0);
		CHECK_INT(readall(dtp, &fl, ncpus, false, snaps, caps), 0);
		dt_bpf_aggmap_release(&fl);
		for (int f = 0; f < 3; f++)
			close(fds[f]);
	}

	close(arr.ba_fd);
	dt_bpf_aggmap_release(&arr);
	close(hash.ba_fd);
	for (int c = 0; c < ncpus; c++)
		free(snaps[c].as_data);
	free(snaps);
	free(caps);
	free(value);
	free(flag);
	dtrace_close(dtp);
	return unit_done();
}
