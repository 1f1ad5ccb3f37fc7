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
 * Append every key of the per-CPU map of ba to snaps[0..ncpus-1] (each
 * with capacity caps[c] bytes, grown as needed), one entry per CPU that
 * updated the key; with take set, the keys are deleted as they are read.
 * Returns 0, or -1 with the handle's error set.
 */
extern int dt_bpf_aggread(dtrace_hdl_t *dtp, const dt_bpf_aggmap_t *ba,
    int ncpus, bool take, dt_aggsnap_t *snaps, size_t *caps);

#endif /* DT_BPF_AGGREAD_H */
