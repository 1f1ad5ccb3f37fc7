/* SPDX-License-Identifier: MIT */
/*
 * dt_work.h: enabling programs and running them (dt_work.c), and what the
 * work loop needs of the consumer.
 */
#ifndef DT_WORK_H
#define DT_WORK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/dt_program.h"
#include "common/engine/dt_engine.h"

typedef struct dtrace_hdl dtrace_hdl_t;

/*
 * Queue a program to be enabled by dtrace_go(); *nmatchedp is the number
 * of probes its clauses match (DTrace's "matched N probes").  The program
 * must live until the handle is closed; its aggregation IDs are
 * renumbered into the consumer's one namespace when it is enabled.
 */
extern int dt_program_queue(dtrace_hdl_t *dtp, dt_program_t *pgp,
    uint32_t *nmatchedp);
/* The enabled probe with this EPID, or NULL. */
extern const dt_eprobe_t *dt_eprobe_lookup(dtrace_hdl_t *dtp, uint32_t epid);
/*
 * Does a clause name a probe of a traced process, pid<N> or a USDT
 * provider <name><N>, N a -c/-p process?  Such descriptions are matched
 * again, by dt_work_rematch(), when a process traced changes its image.
 */
extern bool dt_work_names_procs(const dtrace_hdl_t *dtp);
/*
 * Match those descriptions again with N replaced by pid (a descendant
 * under -x followfork, or N itself) and enable, while tracing runs, every
 * probe they now match that a clause has not enabled yet: the engine's
 * eo_enable gets them, the consumer their descriptions.  0, or -1 with the
 * handle's error set.
 */
extern int dt_work_rematch(dtrace_hdl_t *dtp, int pid);
/* Close the engine and forget every enabled probe. */
extern void dt_work_fini(dtrace_hdl_t *dtp);

#endif /* DT_WORK_H */
