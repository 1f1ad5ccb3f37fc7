/* SPDX-License-Identifier: MIT */
/*
 * bpf_aggread_test.c: the consumer's reading of the aggregation maps
 * (os/linux/bpf/dt_bpf_aggread.c), on maps filled from here the way a
 * program fills them: per CPU, value words then a flag word set by the
 * CPUs that updated the key.
 *
 * An aggregation without keys is a one-entry per-CPU array: reading it
 * gives an entry for each CPU whose flag is set and none for the others,
 * and taking it (clear(), trunc()) zeroes the entry, as an array's cannot
 * be deleted, so that the next reading has nothing until a CPU updates
 * it again.  An aggregation with keys is a per-CPU hash: reading gives
 * each key once per updating CPU, taking deletes the keys.  Needs root
 * and BPF; skips without.
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
    const bool *flag)
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
	dt_bpf_aggmap_t arr = { .ba_agg = &keyless, .ba_array = true,
		.ba_keysize = 4, .ba_valsize = VALSIZE, .ba_maxent = 1 };
	dt_bpf_aggmap_t hash = { .ba_agg = &keyed, .ba_keysize = 8,
		.ba_valsize = VALSIZE, .ba_maxent = 16 };
	dt_aggsnap_t *snaps;
	size_t *caps;
	uint64_t *value;
	bool *flag;
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
	CHECK_INT(readall(dtp, &arr, ncpus, false, snaps, caps), 0);

	/* CPU 0 counted 5; the last CPU (if another) has a zero flag. */
	value[0] = 5;
	flag[0] = true;
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

	/* Updated again after the take: from nothing, on every CPU. */
	for (int c = 0; c < ncpus; c++) {
		value[c] = (uint64_t) c + 1;
		flag[c] = true;
	}
	fill(arr.ba_fd, &zero, ncpus, value, flag);
	CHECK_INT(readall(dtp, &arr, ncpus, false, snaps, caps),
	    (uint32_t) ncpus);
	for (int c = 0; c < ncpus; c++)
		CHECK_INT(first_value(&snaps[c], 0), c + 1);

	/* The hash: two keys, one on CPU 0 only; taking deletes them. */
	hash.ba_fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_HASH, "t_hash", 8,
	    VALSIZE, 16, NULL);
	CHECK(hash.ba_fd >= 0);
	memset(flag, 0, (size_t) ncpus * sizeof(*flag));
	memset(value, 0, (size_t) ncpus * sizeof(*value));
	value[0] = 7;
	flag[0] = true;
	key = 100;
	fill(hash.ba_fd, &key, ncpus, value, flag);
	key = 200;
	fill(hash.ba_fd, &key, ncpus, value, flag);
	CHECK_INT(readall(dtp, &hash, ncpus, false, snaps, caps), 2);
	CHECK_INT(snaps[0].as_nentries, 2);
	CHECK_INT(readall(dtp, &hash, ncpus, true, snaps, caps), 2);
	CHECK_INT(readall(dtp, &hash, ncpus, false, snaps, caps), 0);
	CHECK(bpf_map_get_next_key(hash.ba_fd, NULL, &key) != 0);

	close(arr.ba_fd);
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
