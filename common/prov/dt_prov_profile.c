/* SPDX-License-Identifier: MIT */
/*
 * dt_prov_profile.c: the profile provider -- timed probes.
 *
 *	profile:::profile-N	fires N times a second on every CPU
 *	profile:::tick-N	fires N times a second on one CPU
 *
 * N is a rate in hertz, or a number with a time unit (ns nsec us usec ms
 * msec s sec m min h hour d day) giving the period, or with hz.  The
 * probes DTrace always lists (profile-97 ... tick-5000) are created at
 * populate time; any other rate is created on demand when a description
 * names it exactly.  Periods shorter than 200us are refused, as DTrace
 * refuses them, so such a name matches no probe.
 *
 * arg0 is the kernel PC and arg1 the user PC at the time of the firing
 * (0 when not in that mode).  They are untyped, as in DTrace: dtrace -lv
 * lists no argument types and args[] is out of range.  How the timers are
 * armed belongs to the engine: POSIX timers in the interpreter, perf
 * cpu-clock events in BPF.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/dt_impl.h"
#include "common/probe/dt_probe.h"
#include "common/prov/dt_prov.h"

#define NANOSEC		      1000000000LL
#define DT_PROFILE_MIN_PERIOD 200000LL /* 200us */

/* DTrace's: the names are Evolving, the module Unstable, the function
 * Private; the arguments Evolving. */
static const dt_provattr_t dt_prov_profile_attr = {
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_COMMON },
	{ DT_STAB_UNSTABLE, DT_STAB_UNSTABLE, DT_CLASS_UNKNOWN },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_COMMON },
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_COMMON },
};

int
dt_prov_profile_parse(const char *rate, int64_t *periodp)
{
	static const struct {
		const char *name;
		int64_t mul; /* 0: hertz */
	} units[] = {
		{ "", 0 },
		{ "hz", 0 },
		{ "ns", 1 },
		{ "nsec", 1 },
		{ "us", 1000 },
		{ "usec", 1000 },
		{ "ms", 1000000 },
		{ "msec", 1000000 },
		{ "s", NANOSEC },
		{ "sec", NANOSEC },
		{ "m", 60 * NANOSEC },
		{ "min", 60 * NANOSEC },
		{ "h", 3600 * NANOSEC },
		{ "hour", 3600 * NANOSEC },
		{ "d", 86400 * NANOSEC },
		{ "day", 86400 * NANOSEC },
	};
	unsigned long long v = 0;
	const char *p = rate;

	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (unsigned long long) INT64_MAX / 10)
			return -1;
		v = v * 10 + (unsigned long long) (*p - '0');
	}
	for (size_t i = 0; i < sizeof (units) / sizeof (units[0]); i++) {
		if (strcasecmp(p, units[i].name) != 0)
			continue;
		if (v == 0)
			return -1;
		if (units[i].mul == 0) {
			*periodp = NANOSEC / (int64_t) v;
		} else {
			if (v > (unsigned long long) (INT64_MAX / units[i].mul))
				return -1;
			*periodp = (int64_t) v * units[i].mul;
		}
		return 0;
	}
	return -1;
}

/* Create the probe for "profile-RATE" or "tick-RATE"; 1 if made, 0 if not
 * a valid name, -1 on error. */
static int
dt_prov_profile_make(dtrace_hdl_t *dtp, dt_provider_t *pvp, const char *name)
{
	dt_profile_timer_t *pt;
	const char *rate;
	int64_t period;
	bool percpu;

	if (strncmp(name, "profile-", 8) == 0) {
		rate = name + 8;
		percpu = true;
	} else if (strncmp(name, "tick-", 5) == 0) {
		rate = name + 5;
		percpu = false;
	} else {
		return 0;
	}
	if (dt_prov_profile_parse(rate, &period) != 0 ||
	    period < DT_PROFILE_MIN_PERIOD)
		return 0;
	if ((pt = malloc(sizeof (*pt))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	pt->pt_period = period;
	pt->pt_percpu = percpu;
	if (dt_probe_create(dtp, pvp, "", "", name, 0, NULL, pt) == NULL) {
		free(pt);
		return -1;
	}
	return 1;
}

static int
dt_prov_profile_populate(dtrace_hdl_t *dtp, dt_provider_t *pvp)
{
	static const char *const names[] = { "profile-97", "profile-199",
		"profile-499", "profile-997", "profile-1999", "profile-4001",
		"profile-4999", "tick-1", "tick-10", "tick-100", "tick-500",
		"tick-1000", "tick-5000" };

	for (size_t i = 0; i < sizeof (names) / sizeof (names[0]); i++) {
		if (dt_prov_profile_make(dtp, pvp, names[i]) < 0)
			return -1;
	}
	return 0;
}

static int
dt_prov_profile_provide(dtrace_hdl_t *dtp, dt_provider_t *pvp,
    const dt_probedesc_t *pdp)
{
	const char *name = pdp->pd_name;

	/* Only an exact name can be created, and only once. */
	if (pdp->pd_module[0] != '\0' || pdp->pd_function[0] != '\0' ||
	    name[strcspn(name, "*?[\\")] != '\0')
		return 0;
	for (uint32_t id = 1; id <= dtp->dt_nprobes; id++) {
		dt_probe_t *prp = dtp->dt_probes[id];

		if (prp->pr_prov == pvp && strcmp(prp->pr_name, name) == 0)
			return 0;
	}
	return dt_prov_profile_make(dtp, pvp, name);
}

static void
dt_prov_profile_probe_fini(dtrace_hdl_t *dtp, dt_probe_t *prp)
{
	(void) dtp;
	free(prp->pr_data);
	prp->pr_data = NULL;
}

static const dt_provops_t dt_prov_profile_ops = {
	.po_populate = dt_prov_profile_populate,
	.po_provide = dt_prov_profile_provide,
	.po_probe_fini = dt_prov_profile_probe_fini,
	.po_mech = DT_MECH_TIMER,
};

int
dt_prov_profile_init(dtrace_hdl_t *dtp)
{
	return dt_provider_register(dtp, "profile", &dt_prov_profile_ops,
	    &dt_prov_profile_attr, DT_ENGINE_F_INTERP | DT_ENGINE_F_KERNEL, NULL);
}

const dt_profile_timer_t *
dt_prov_profile_timer(const dt_probe_t *prp)
{
	if (strcmp(prp->pr_prov->pv_name, "profile") != 0)
		return NULL;
	return prp->pr_data;
}
