/*
 * dt_work.h: enabling programs and running them (dt_work.c), and what the
 * work loop needs of the consumer.
 */
#ifndef DT_WORK_H
#define DT_WORK_H

#include <stdint.h>
#include <stdio.h>

#include "common/dt_program.h"
#include "common/engine/dt_engine.h"

typedef struct dtrace_hdl dtrace_hdl_t;

/*
 * Enable every statement of a program on the probes its descriptions
 * match; *nmatchedp is the number of enabled probes created.
 */
extern int dt_program_enable(dtrace_hdl_t *dtp, const dt_program_t *pgp,
    uint32_t *nmatchedp);
/* The enabled probe with this EPID, or NULL. */
extern const dt_eprobe_t *dt_eprobe_lookup(dtrace_hdl_t *dtp, uint32_t epid);
/* Close the engine and forget every enabled probe. */
extern void dt_work_fini(dtrace_hdl_t *dtp);

#endif /* DT_WORK_H */
