/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_engine.h: the Linux BPF engine -- enabled programs translated to
 * eBPF and run in the kernel where the probes fire.
 *
 * dt_bpf_engine_ops implements the engine interface of
 * common/engine/dt_engine.h; the records and aggregation snapshots it
 * hands out are exactly those the interpreter engine would write for the
 * same program and events.  docs/bpf-engine.md describes the design.
 */
#ifndef DT_BPF_ENGINE_H
#define DT_BPF_ENGINE_H

#include <stdint.h>

#include "common/engine/dt_engine.h"

extern const dt_engine_ops_t dt_bpf_engine_ops;

/*
 * Fire a probe whose program runs on demand (dtrace:::BEGIN, END, ERROR)
 * with these arguments, as eo_go and eo_stop do for BEGIN and END.  For
 * tests: it is how the translator is compared with the interpreter on
 * arbitrary arguments.
 */
extern int dt_bpf_engine_fire(dtrace_hdl_t *dtp, uint32_t id,
    const uint64_t *args, int nargs);

/*
 * The last error's detail: the kernel verifier's log excerpt when a
 * program was refused (the one-line error is in the handle).
 */
extern const char *dt_bpf_engine_detail(dtrace_hdl_t *dtp);

/* How many syscalls:sys_enter_* tracepoints before one raw_syscalls. */
#define DT_BPF_SYSCALL_FEW 4

#endif /* DT_BPF_ENGINE_H */
