/*
 * dt_probe.h: the probe namespace -- providers, probes and matching.
 *
 * Every probe a handle knows is a dt_probe_t with a unique ID (from 1, as
 * dtrace -l shows it) and the four-part name provider:module:function:name.
 * Providers register probes when they are asked to populate the namespace,
 * and may also create probes on demand when a description names one that
 * does not exist yet but that the provider can make (profile-N with any N,
 * pid<N> for any process): that is the dt_provops_t.po_provide hook.
 *
 * Matching follows DTrace: an empty field matches anything, a field is a
 * glob (*, ?, [set], \ escapes), and a description with fewer fields names
 * the trailing ones (-n name, -f func, -m module, -P provider).
 */
#ifndef DT_PROBE_H
#define DT_PROBE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/dt_program.h"

typedef struct dtrace_hdl dtrace_hdl_t;
typedef struct dt_provider dt_provider_t;
typedef struct dt_probe dt_probe_t;

/* Which engines can run a provider's probes. */
#define DT_ENGINE_F_INTERP 0x1 /* the portable interpreter, in user space */
#define DT_ENGINE_F_BPF	   0x2 /* eBPF in the kernel (os/linux) */
#define DT_ENGINE_F_PTRACE 0x4 /* breakpoints in traced processes */

typedef struct dt_provops {
	/* Register the probes that always exist (dtrace -l lists them). */
	int (*po_populate)(dtrace_hdl_t *dtp, dt_provider_t *pvp);
	/*
	 * Create probes matching a description that names none yet; may be
	 * NULL.  Returns the number of probes created, or -1 on error.
	 */
	int (*po_provide)(dtrace_hdl_t *dtp, dt_provider_t *pvp,
	    const dt_probedesc_t *pdp);
	/* Free a probe's provider data. */
	void (*po_probe_fini)(dtrace_hdl_t *dtp, dt_probe_t *prp);
	/* Free the provider's data; may be NULL. */
	void (*po_fini)(dtrace_hdl_t *dtp, dt_provider_t *pvp);
	/*
	 * A family of providers made on demand ("pid" makes pid123): its
	 * po_provide is asked about every description whose provider field
	 * starts with po_family, not only those matching its own name.
	 */
	const char *po_family;
} dt_provops_t;

struct dt_provider {
	const char *pv_name;
	const dt_provops_t *pv_ops;
	unsigned pv_engines;	 /* DT_ENGINE_F_* */
	void *pv_data;		 /* provider-private */
	dt_provider_t *pv_next;
};

struct dt_probe {
	uint32_t pr_id;
	dt_provider_t *pr_prov;
	char *pr_mod;
	const char *pr_modalias; /* another module name it matches, or NULL
				    (a.out for a process's executable) */
	char *pr_func;
	char *pr_name;
	int pr_nargs;		 /* arguments the probe passes (args[]) */
	char **pr_argtypes;	 /* their D type names, for -lv */
	void *pr_data;		 /* provider-private */
};

/* Register a provider; its po_populate runs now. */
extern int dt_provider_register(dtrace_hdl_t *dtp, const char *name,
    const dt_provops_t *ops, unsigned engines, void *data);
extern dt_provider_t *dt_provider_lookup(dtrace_hdl_t *dtp, const char *name);

/*
 * Create a probe.  argtypes (nargs D type names) is copied; it may be NULL
 * when the probe passes no typed arguments.
 */
extern dt_probe_t *dt_probe_create(dtrace_hdl_t *dtp, dt_provider_t *pvp,
    const char *mod, const char *func, const char *name, int nargs,
    const char *const *argtypes, void *data);
extern dt_probe_t *dt_probe_lookup_id(dtrace_hdl_t *dtp, uint32_t id);
extern uint32_t dt_probe_count(dtrace_hdl_t *dtp);

/*
 * Call fn for every probe matching pdp (creating on-demand probes first),
 * in probe ID order.  Returns the number of matches, or -1 if fn returned
 * non-zero (which stops the walk).
 */
typedef int dt_probe_f(dtrace_hdl_t *dtp, dt_probe_t *prp, void *arg);
extern int dt_probe_iter(dtrace_hdl_t *dtp, const dt_probedesc_t *pdp,
    dt_probe_f *fn, void *arg);

/* True if the probe matches the description (no on-demand creation). */
extern bool dt_probe_match(const dt_probe_t *prp, const dt_probedesc_t *pdp);

/* gmatch(3C)-style glob match: *, ?, [a-z], [!a-z], \c. */
extern bool dt_gmatch(const char *s, const char *pattern);

/*
 * Parse "provider:module:function:name" (or fewer fields, which name the
 * trailing fields) into *pdp.  Returns 0, or -1 with EDT_BADSPEC-like
 * conditions (too many fields, a field too long).
 */
extern int dt_probedesc_parse(const char *s, dt_probedesc_t *pdp);

/* Free every provider and probe of the handle. */
extern void dt_probes_fini(dtrace_hdl_t *dtp);

#endif /* DT_PROBE_H */
