/* SPDX-License-Identifier: MIT */
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
 *
 * Each probe describes its arguments (what dtrace -lv lists and what types
 * args[N] has in D): a count and, per argument, the native type (as the
 * kernel or program defines it) and the translated type (the stable type
 * a translator presents, or none).  A provider either gives them when it
 * creates the probe or, when finding them out is costly (a tracefs format
 * file per probe), describes them on first use through po_probe_args.
 *
 * Each provider has DTrace's stability attributes: an (identifier names,
 * data semantics, dependency class) triple for each of its provider,
 * module, function and name fields and for its arguments.
 */
#ifndef DT_PROBE_H
#define DT_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/dt_program.h"

typedef struct dtrace_hdl dtrace_hdl_t;
typedef struct dt_provider dt_provider_t;
typedef struct dt_probe dt_probe_t;

/* Stability levels, lowest first, as DTrace orders them. */
typedef enum dt_stability {
	DT_STAB_INTERNAL,
	DT_STAB_PRIVATE,
	DT_STAB_OBSOLETE,
	DT_STAB_EXTERNAL,
	DT_STAB_UNSTABLE,
	DT_STAB_EVOLVING,
	DT_STAB_STABLE,
	DT_STAB_STANDARD,
} dt_stability_t;

/* Dependency classes, lowest (most specific) first. */
typedef enum dt_depclass {
	DT_CLASS_UNKNOWN,
	DT_CLASS_CPU,
	DT_CLASS_PLATFORM,
	DT_CLASS_GROUP,
	DT_CLASS_ISA,
	DT_CLASS_COMMON,
} dt_depclass_t;

/* One interface's attributes. */
typedef struct dt_attr {
	dt_stability_t at_name;	 /* Identifier Names */
	dt_stability_t at_data;	 /* Data Semantics */
	dt_depclass_t at_class;	 /* Dependency Class */
} dt_attr_t;

/* A provider's attributes, one triple per part of its probes. */
typedef struct dt_provattr {
	dt_attr_t pa_provider;
	dt_attr_t pa_mod;
	dt_attr_t pa_func;
	dt_attr_t pa_name;
	dt_attr_t pa_args;
} dt_provattr_t;

/* One probe argument's types. */
typedef struct dt_argdesc {
	char *ad_native;	 /* the type as defined: "const char *" */
	char *ad_xlate;		 /* the translated type, or NULL if none */
} dt_argdesc_t;

/*
 * Which kinds of engine can run a provider's probes.  The core knows
 * engines by these properties only; the OS backend names its engines and
 * says which kind each is (dt_os_engines in common/dt_os.h).
 */
#define DT_ENGINE_F_INTERP 0x1 /* the portable interpreter, in user space */
#define DT_ENGINE_F_KERNEL 0x2 /* the OS's in-kernel engine: any process,
				  the kernel's own probes; privileged */
#define DT_ENGINE_F_USER   0x4 /* the OS's engine for the user's own
				  processes (breakpoints in them) */

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
	/*
	 * Describe the arguments of a probe created with nargs -1, on first
	 * use, with dt_probe_set_args(); may be NULL (then it has none).
	 * Returns 0, or -1 with the handle's error set.
	 */
	int (*po_probe_args)(dtrace_hdl_t *dtp, dt_probe_t *prp);
	/* Free the provider's data; may be NULL. */
	void (*po_fini)(dtrace_hdl_t *dtp, dt_provider_t *pvp);
	/*
	 * A family of providers made on demand ("pid" makes pid123): its
	 * po_provide is asked about every description whose provider field
	 * starts with po_family, not only those matching its own name.
	 */
	const char *po_family;
	/*
	 * Does a module name that is not a pattern name this probe's module
	 * other than by equality (a process's "libc" for libc.so.6)?  May be
	 * NULL.
	 */
	bool (*po_modmatch)(const dt_probe_t *prp, const char *mod);
	/*
	 * Does a function name or pattern name this probe other than by
	 * its pr_func (another symbol at its address; the mangled name of a
	 * probe named by its demangled one)?  May be NULL.  For a name that
	 * is not a pattern it may say yes only to the names the provider
	 * gave dt_probe_funcname_add() for the probe: descriptions naming
	 * one function find their probes through that index.
	 */
	bool (*po_funcmatch)(const dt_probe_t *prp, const char *func);
	/*
	 * Whether a description whose fields match this probe names it: a
	 * family may give a pattern a meaning of its own (pid*:libc:...
	 * names the probes of a file in every process, not those of each
	 * pid<N> that the pattern pid* matches too).  May be NULL: yes.
	 */
	bool (*po_descmatch)(const dt_probe_t *prp, const dt_probedesc_t *pdp);
	/*
	 * Why a description that names this provider (or its family)
	 * matched no probe, when the provider can say more than that: the
	 * message into msg and its compiler error tag returned (a
	 * dt_errtag_t), or -1 for the ordinary "does not match".  May be
	 * NULL.
	 */
	int (*po_nomatch)(dtrace_hdl_t *dtp, dt_provider_t *pvp,
	    const dt_probedesc_t *pdp, char *msg, size_t len);
	/*
	 * The mechanism that fires this provider's probes, by name: an
	 * OS backend's engine that places probes itself looks the name up
	 * in its own table of mechanisms instead of asking which provider a
	 * probe is of.  The portable providers name DT_MECH_DEMAND and
	 * DT_MECH_TIMER (dt_prov.h), an OS backend's providers names of its
	 * own.  NULL: no such engine serves them.
	 */
	const char *po_mech;
	/*
	 * Why the provider's probes run on only the kinds of engine it
	 * registered with, for the error when another is chosen; may be
	 * NULL.
	 */
	const char *po_engines_why;
	/*
	 * Could po_populate make a probe matching this description, whose
	 * provider field already matches the provider?  Asked while the
	 * provider is not yet populated, so that a program not naming its
	 * probes never lists them (tracefs's ~1,600 events); it must answer
	 * without populating, and may say true when unsure.  NULL: true.
	 */
	bool (*po_maymatch)(dtrace_hdl_t *dtp, dt_provider_t *pvp,
	    const dt_probedesc_t *pdp);
} dt_provops_t;

struct dt_provider {
	const char *pv_name;
	const dt_provops_t *pv_ops;
	const dt_provattr_t *pv_attr;
	unsigned pv_engines;	 /* DT_ENGINE_F_* */
	void *pv_data;		 /* provider-private */
	bool pv_pending;	 /* po_populate not run yet */
	bool pv_populating;	 /* in po_populate */
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
	int pr_nargs;		 /* typed arguments (args[]); -1: not known yet */
	dt_argdesc_t *pr_args;	 /* their types (pr_nargs of them) */
	void *pr_data;		 /* provider-private */
};

/*
 * Register a provider with its attributes.  Its po_populate runs when its
 * probes are first needed, and always after those of the providers
 * registered before it, so every probe gets the ID it would have had if
 * all had been populated at once: static probes in registration order,
 * then those made on demand (see dt_probe.c).
 */
extern int dt_provider_register(dtrace_hdl_t *dtp, const char *name,
    const dt_provops_t *ops, const dt_provattr_t *attr, unsigned engines,
    void *data);
extern dt_provider_t *dt_provider_lookup(dtrace_hdl_t *dtp, const char *name);

/*
 * Create a probe.  argtypes (the native types of nargs arguments) is
 * copied; it may be NULL when nargs is 0.  nargs -1 leaves the arguments
 * to be described on first use by the provider's po_probe_args.
 */
extern dt_probe_t *dt_probe_create(dtrace_hdl_t *dtp, dt_provider_t *pvp,
    const char *mod, const char *func, const char *name, int nargs,
    const char *const *argtypes, void *data);
extern dt_probe_t *dt_probe_lookup_id(dtrace_hdl_t *dtp, uint32_t id);

/*
 * Could a probe with these fields match pdp's module, function and name
 * fields (not its provider or ID)?  A NULL field is unknown: it may
 * match.  For po_maymatch.
 */
extern bool dt_probedesc_may(const dt_probedesc_t *pdp, const char *mod,
    const char *func, const char *name);
/* Populate every provider not yet populated: 0, or -1 with the error set. */
extern int dt_providers_populate(dtrace_hdl_t *dtp);

/*
 * Set a probe's arguments: nargs native types and, if xlate is not NULL,
 * their translated types (an entry may be NULL: not translated).  Both
 * are copied.  Returns 0, or -1 (out of memory).
 */
extern int dt_probe_set_args(dtrace_hdl_t *dtp, dt_probe_t *prp, int nargs,
    const char *const *native, const char *const *xlate);
/*
 * A probe's arguments, described now if the provider defers that: sets
 * *argsp and returns their count, or -1 with the handle's error set.
 */
extern int dt_probe_args(dtrace_hdl_t *dtp, dt_probe_t *prp,
    const dt_argdesc_t **argsp);
/* The D type of an argument: the translated type, else the native one. */
extern const char *dt_argdesc_type(const dt_argdesc_t *adp);

/*
 * The attributes of a probe as dtrace -lv reports them: its description's
 * are the lowest of those of the provider and of every named (non-empty)
 * field; its arguments' are the provider's.
 */
extern void dt_probe_attr(const dt_probe_t *prp, dt_attr_t *descp,
    dt_attr_t *argsp);
/* The lower of two attribute triples, part by part. */
extern dt_attr_t dt_attr_min(dt_attr_t a, dt_attr_t b);
/* DTrace's names: "Evolving", "Common"; NULL if out of range. */
extern const char *dt_stability_name(dt_stability_t s);
extern const char *dt_class_name(dt_depclass_t c);
/* The level or class a name (any case) stands for, or -1. */
extern int dt_stability_lookup(const char *name);
extern int dt_class_lookup(const char *name);

/* True if a probe description field is a glob pattern (*, ?, [, \). */
extern bool dt_strisglob(const char *s);

/*
 * The function-name index (dt_probe_index.c): dt_probe_create() enters
 * each probe under its pr_func; a provider adds the other names its
 * po_funcmatch accepts.  dt_probe_funcname_ids() gives the IDs of the
 * probes entered under name, in ascending order, once each (malloc'ed;
 * NULL when out of memory).
 */
extern int dt_probe_funcname_add(dtrace_hdl_t *dtp, const dt_probe_t *prp,
    const char *name);
extern uint32_t *dt_probe_funcname_ids(dtrace_hdl_t *dtp, const char *name,
    size_t *np);
extern void dt_probe_index_free(dtrace_hdl_t *dtp);
extern uint32_t dt_probe_count(dtrace_hdl_t *dtp);

/*
 * Call fn for every probe matching pdp (creating on-demand probes first),
 * in probe ID order.  Returns the number of matches, or -1 if fn returned
 * non-zero (which stops the walk).
 */
typedef int dt_probe_f(dtrace_hdl_t *dtp, dt_probe_t *prp, void *arg);
extern int dt_probe_iter(dtrace_hdl_t *dtp, const dt_probedesc_t *pdp,
    dt_probe_f *fn, void *arg);

/*
 * The probe whose argument types a clause for description pdp sees, by
 * DTrace's rule: the one probe pdp matches; or, when it matches several,
 * the first of them, if their provider promises they agree -- its
 * arguments' data semantics are at least Evolving, and pdp names (not
 * empty, not a pattern) every field whose identifier names are at least
 * Evolving.  NULL otherwise ("matches an unstable set of probes").
 * *nmatchp is the number of probes pdp matches, or -1 on error.
 */
extern dt_probe_t *dt_probe_typed(dtrace_hdl_t *dtp,
    const dt_probedesc_t *pdp, int *nmatchp);

/* A description as DTrace writes it: "prov:mod:func:name", or "ID". */
extern char *dt_probedesc_str(const dt_probedesc_t *pdp, char *buf,
    size_t len);

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
