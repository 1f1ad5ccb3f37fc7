/* SPDX-License-Identifier: MIT */
/*
 * dt_prov.h: the portable providers, and the probe IDs engines rely on.
 *
 * These providers need nothing from the operating system to exist: the
 * dtrace provider (BEGIN, END, ERROR) and the profile provider (profile-N,
 * tick-N).  Each registers itself from dt_prov_*_init(), called when a
 * handle opens.  OS backends register their own providers (syscall, fbt,
 * pid, ...) in the same namespace.
 */
#ifndef DT_PROV_H
#define DT_PROV_H

#include <stdbool.h>
#include <stdint.h>

typedef struct dtrace_hdl dtrace_hdl_t;
typedef struct dt_probe dt_probe_t;

/* dtrace:::BEGIN, END and ERROR are registered first, so always 1, 2, 3. */
#define DT_PROBE_ID_BEGIN 1
#define DT_PROBE_ID_END	  2
#define DT_PROBE_ID_ERROR 3

/*
 * The mechanisms of the portable providers (dt_provops_t.po_mech): probes
 * the consumer fires itself (BEGIN, END, ERROR), and probes a timer fires.
 */
#define DT_MECH_DEMAND "demand"
#define DT_MECH_TIMER  "timer"

extern int dt_prov_dtrace_init(dtrace_hdl_t *dtp);
extern int dt_prov_profile_init(dtrace_hdl_t *dtp);

/* A profile provider probe's timer: its period and whether per CPU. */
typedef struct dt_profile_timer {
	int64_t pt_period;   /* nanoseconds */
	bool pt_percpu;	     /* profile-N fires on every CPU, tick-N on one */
} dt_profile_timer_t;

/* The timer of a profile provider probe, or NULL for any other probe. */
extern const dt_profile_timer_t *dt_prov_profile_timer(const dt_probe_t *prp);

/*
 * Parse the rate part of a profile probe name ("97", "10ms", "1sec",
 * "5hz") into a period in nanoseconds; a bare number is a rate in hertz.
 * Returns 0, or -1 if the text is not a rate.
 */
extern int dt_prov_profile_parse(const char *rate, int64_t *periodp);

#endif /* DT_PROV_H */
