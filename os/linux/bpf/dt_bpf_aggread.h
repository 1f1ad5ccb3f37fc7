/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_aggread.h: reading the aggregation maps for the consumer, and
 * taking their keys back for clear() and trunc().
 */
#ifndef DT_BPF_AGGREAD_H
#define DT_BPF_AGGREAD_H

#include <stdbool.h>
#include <stddef.h>

#include "common/dt_impl.h"
#include "common/dt_program.h"
#include "os/linux/bpf/dt_bpf_gen.h"

/*
 * What reading the maps keeps from one snapshot to the next: the batch
 * buffers and the snapshots' own, so that reading a big aggregation every
 * second neither allocates nor faults in megabytes each time.
 */
typedef struct dt_bpf_aggbufs {
	unsigned char *ab_keys; /* a batch's keys, and their values */
	unsigned char *ab_vals;
	size_t ab_keyscap, ab_valscap;
	dt_aggsnap_t *ab_snaps; /* one per CPU, and their capacities */
	size_t *ab_caps;
	int ab_ncpus;
	bool ab_lent; /* ab_snaps is with the consumer */
} dt_bpf_aggbufs_t;

/*
 * Every key of the aggregations of lay (aggid's alone unless UINT32_MAX)
 * as ncpus snapshots, into bufs' snapshots when they are free; with take
 * set, the keys are deleted as they are read.  Returns 0, or -1 with the
 * handle's error set.
 */
extern int dt_bpf_aggread_snap(dtrace_hdl_t *dtp, dt_bpf_aggbufs_t *bufs,
    const dt_bpf_layout_t *lay, int ncpus, uint32_t aggid, bool take,
    dt_aggsnap_t **snapsp, uint32_t *nsnapsp);
/* Snapshots back from the consumer: kept if they are bufs', else freed. */
extern void dt_bpf_aggread_done(
    dt_bpf_aggbufs_t *bufs, dt_aggsnap_t *snaps, uint32_t nsnaps);
extern void dt_bpf_aggbufs_free(dt_bpf_aggbufs_t *bufs);

/*
 * Append every key of the per-CPU map of ba to snaps[0..ncpus-1] (each
 * with capacity caps[c] bytes, grown as needed), one entry per CPU that
 * updated the key; with take set, the keys are deleted as they are read.
 * The batch buffers are bufs'.
 * Returns 0, or -1 with the handle's error set.
 */
extern int dt_bpf_aggread(dtrace_hdl_t *dtp, dt_bpf_aggbufs_t *bufs,
    const dt_bpf_aggmap_t *ba, int ncpus, bool take, dt_aggsnap_t *snaps,
    size_t *caps);

/*
 * Makes a keyed aggregation's slots (dt_bpf_gen.h): the key -> slot hash,
 * the slot array, mapped, and the queue of free slots, into ba, which
 * becomes DT_AGGMAP_SLOTS and owns the three descriptors.  -1, with ba
 * as it was, where the kernel cannot make them (the caller makes the
 * per-CPU hash instead).
 */
extern int dt_bpf_aggslots_make(dt_bpf_aggmap_t *ba, int ncpus);
/*
 * The mapping of ba's slots grown to reach slot n (a new mapping, so
 * earlier pointers into it are void); NULL where it cannot be.
 */
extern unsigned char *dt_bpf_aggslots_reach(const dt_bpf_aggmap_t *ba,
    uint32_t n);
/*
 * An aggregation without keys gets the baseline its clear() and trunc()
 * count from (dt_bpf_aggread.c); -1 on ENOMEM.
 */
extern int dt_bpf_aggarray_make(dt_bpf_aggmap_t *ba, int ncpus);
/*
 * A keyed aggregation where slots cannot be made: two per-CPU hashes and
 * the array of maps that says which the program updates
 * (dt_bpf_aggflip_t), their descriptors in fds[0..2], which the caller
 * closes.  -1, with ba as it was, where the kernel cannot make them (the
 * caller makes one hash instead).
 */
extern int dt_bpf_aggflip_make(dt_bpf_aggmap_t *ba, int fds[3]);
/*
 * What reading ba holds undone: the mapping of its slots, its baseline
 * (the descriptors are closed apart).
 */
extern void dt_bpf_aggmap_release(dt_bpf_aggmap_t *ba);

#endif /* DT_BPF_AGGREAD_H */
