/* SPDX-License-Identifier: MIT */
/*
 * dt_probe.c: the probe namespace -- registration, IDs, matching.
 *
 * Probes live in dtp->dt_probes, indexed by ID, so EPIDs and -i lookups are
 * O(1) and listing is in ID order as dtrace -l prints.  Matching walks the
 * array; a provider's po_provide hook runs first so descriptions such as
 * profile:::tick-5ms find the probe they create.
 *
 * A provider's static probes (po_populate) are made when first needed:
 * the kernel's providers list tracefs or read BTF for them, which a
 * program naming none of their probes (BEGIN { exit(0); }) should not pay
 * for.  Probe IDs must be what they would be had every provider been
 * populated at open (dtrace -l, -i and printed IDs do not depend on the
 * program), so population keeps registration order: populating one
 * provider populates every pending one registered before it, and a probe
 * made on demand (profile-997, pid123:...) or outside po_populate first
 * populates them all, as its ID comes after every static one.  A
 * description populates the providers up to the last one whose probes it
 * could match; po_maymatch lets a provider say, without listing, that it
 * has none (the syscall provider's probes are all entry or return).
 *
 * A probe's argument descriptions (pr_args) are either given at creation
 * or, when pr_nargs is -1, asked of the provider the first time anyone
 * wants them (dt_probe_args), so listing or matching thousands of probes
 * costs no per-probe file reads.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/dt_impl.h"
#include "common/probe/dt_probe.h"

/*
 * Match one character class "[...]" at *pp against c; advance *pp past the
 * closing bracket.  Returns 1 on match, 0 on no match, -1 if the class is
 * not closed (then '[' is an ordinary character, as in gmatch).
 */
static int
dt_gmatch_class(const char **pp, char c)
{
	const char *p = *pp + 1;
	bool negate = false, found = false;
	char lo;

	if (*p == '!' || *p == '^') {
		negate = true;
		p++;
	}
	/* A ']' first in the set is an ordinary member. */
	if (*p == ']') {
		found = c == ']';
		p++;
	}
	while (*p != '\0' && *p != ']') {
		if (*p == '\\' && p[1] != '\0')
			p++;
		lo = *p++;
		if (*p == '-' && p[1] != '\0' && p[1] != ']') {
			char hi = p[1];

			if (hi == '\\' && p[2] != '\0')
				hi = p[2], p++;
			p += 2;
			if (c >= lo && c <= hi)
				found = true;
		} else if (c == lo) {
			found = true;
		}
	}
	if (*p != ']')
		return -1;
	*pp = p + 1;
	return found != negate;
}

bool
dt_gmatch(const char *s, const char *p)
{
	const char *star_p = NULL, *star_s = NULL;

	for (;;) {
		if (*p == '*') {
			while (*p == '*')
				p++;
			if (*p == '\0')
				return true;
			star_p = p;
			star_s = s;
			continue;
		}
		if (*s == '\0') {
			if (*p == '\0')
				return true;
			goto backtrack;
		}
		if (*p == '?') {
			p++;
			s++;
			continue;
		}
		if (*p == '[') {
			const char *q = p;
			int r = dt_gmatch_class(&q, *s);

			if (r == 1) {
				p = q;
				s++;
				continue;
			}
			if (r == 0)
				goto backtrack;
			/* Unclosed: match '[' literally. */
		}
		if (*p == '\\' && p[1] != '\0')
			p++;
		if (*p != '\0' && *p == *s) {
			p++;
			s++;
			continue;
		}
backtrack:
		if (star_p == NULL || *star_s == '\0')
			return false;
		p = star_p;
		s = ++star_s;
	}
}

static bool dt_field_named(const char *s);

/* An empty pattern matches anything; otherwise glob-match. */
static bool
dt_field_match(const char *s, const char *pattern)
{
	return pattern[0] == '\0' || dt_gmatch(s, pattern);
}

bool
dt_probe_match(const dt_probe_t *prp, const dt_probedesc_t *pdp)
{
	if (pdp->pd_id != 0)
		return prp->pr_id == pdp->pd_id;
	return dt_field_match(prp->pr_prov->pv_name, pdp->pd_provider) &&
	    (dt_field_match(prp->pr_mod, pdp->pd_module) ||
	    (prp->pr_modalias != NULL &&
	    dt_gmatch(prp->pr_modalias, pdp->pd_module)) ||
	    (prp->pr_prov->pv_ops->po_modmatch != NULL &&
	    dt_field_named(pdp->pd_module) &&
	    prp->pr_prov->pv_ops->po_modmatch(prp, pdp->pd_module))) &&
	    (dt_field_match(prp->pr_func, pdp->pd_function) ||
	    (prp->pr_prov->pv_ops->po_funcmatch != NULL &&
	    pdp->pd_function[0] != '\0' &&
	    prp->pr_prov->pv_ops->po_funcmatch(prp, pdp->pd_function))) &&
	    dt_field_match(prp->pr_name, pdp->pd_name) &&
	    (prp->pr_prov->pv_ops->po_descmatch == NULL ||
	    prp->pr_prov->pv_ops->po_descmatch(prp, pdp));
}

int
dt_probedesc_parse(const char *s, dt_probedesc_t *pdp)
{
	char *fields[4] = { pdp->pd_provider, pdp->pd_module,
		pdp->pd_function, pdp->pd_name };
	const char *parts[4];
	size_t lens[4];
	int n = 0;
	const char *p = s, *start = s;

	memset(pdp, 0, sizeof (*pdp));
	/* Split on ':' not escaped by '\'. */
	for (;; p++) {
		if (*p == '\\' && p[1] != '\0') {
			p++;
			continue;
		}
		if (*p == ':' || *p == '\0') {
			if (n == 4)
				return -1;
			parts[n] = start;
			lens[n++] = (size_t) (p - start);
			if (*p == '\0')
				break;
			start = p + 1;
		}
	}
	/* Fewer fields name the trailing ones: "f:n" is function:name. */
	for (int i = 0; i < n; i++) {
		char *dst = fields[4 - n + i];

		if (lens[i] >= DT_PROBE_FIELD_MAX)
			return -1;
		memcpy(dst, parts[i], lens[i]);
		dst[lens[i]] = '\0';
	}
	return 0;
}

int
dt_provider_register(dtrace_hdl_t *dtp, const char *name,
    const dt_provops_t *ops, const dt_provattr_t *attr, unsigned engines,
    void *data)
{
	dt_provider_t *pvp;

	if ((pvp = calloc(1, sizeof (*pvp))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	pvp->pv_name = name;
	pvp->pv_ops = ops;
	pvp->pv_attr = attr;
	pvp->pv_engines = engines;
	pvp->pv_data = data;

	/* Keep registration order: dtrace -l lists providers in it. */
	dt_provider_t **tail = &dtp->dt_provs;
	while (*tail != NULL)
		tail = &(*tail)->pv_next;
	*tail = pvp;

	pvp->pv_pending = ops->po_populate != NULL;
	return 0;
}

/* Run pvp's po_populate, once. */
static int
dt_provider_populate(dtrace_hdl_t *dtp, dt_provider_t *pvp)
{
	int rc;

	if (!pvp->pv_pending)
		return 0;
	pvp->pv_pending = false;
	pvp->pv_populating = true;
	rc = pvp->pv_ops->po_populate(dtp, pvp);
	pvp->pv_populating = false;
	return rc;
}

/* Populate the providers, in registration order, up to last (NULL: all). */
static int
dt_providers_populate_upto(dtrace_hdl_t *dtp, const dt_provider_t *last)
{
	for (dt_provider_t *pvp = dtp->dt_provs; pvp != NULL;
	    pvp = pvp->pv_next) {
		if (dt_provider_populate(dtp, pvp) != 0)
			return -1;
		if (pvp == last)
			break;
	}
	return 0;
}

int
dt_providers_populate(dtrace_hdl_t *dtp)
{
	return dt_providers_populate_upto(dtp, NULL);
}

static bool
dt_providers_pending(const dtrace_hdl_t *dtp)
{
	for (const dt_provider_t *pvp = dtp->dt_provs; pvp != NULL;
	    pvp = pvp->pv_next) {
		if (pvp->pv_pending)
			return true;
	}
	return false;
}

dt_provider_t *
dt_provider_lookup(dtrace_hdl_t *dtp, const char *name)
{
	for (dt_provider_t *pvp = dtp->dt_provs; pvp != NULL;
	    pvp = pvp->pv_next) {
		if (strcmp(pvp->pv_name, name) == 0)
			return pvp;
	}
	return NULL;
}

/* Free a probe's argument descriptions. */
static void
dt_probe_args_free(dt_probe_t *prp)
{
	for (int i = 0; prp->pr_args != NULL && i < prp->pr_nargs; i++) {
		free(prp->pr_args[i].ad_native);
		free(prp->pr_args[i].ad_xlate);
	}
	free(prp->pr_args);
	prp->pr_args = NULL;
}

int
dt_probe_set_args(dtrace_hdl_t *dtp, dt_probe_t *prp, int nargs,
    const char *const *native, const char *const *xlate)
{
	dt_argdesc_t *args = NULL;

	if (nargs > 0 && (args = calloc(nargs, sizeof (*args))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	for (int i = 0; i < nargs; i++) {
		if ((args[i].ad_native = strdup(native[i])) == NULL ||
		    (xlate != NULL && xlate[i] != NULL &&
		    (args[i].ad_xlate = strdup(xlate[i])) == NULL)) {
			for (int j = 0; j <= i; j++) {
				free(args[j].ad_native);
				free(args[j].ad_xlate);
			}
			free(args);
			return dt_set_errno(dtp, EDT_NOMEM);
		}
	}
	dt_probe_args_free(prp);
	prp->pr_args = args;
	prp->pr_nargs = nargs;
	return 0;
}

int
dt_probe_args(dtrace_hdl_t *dtp, dt_probe_t *prp, const dt_argdesc_t **argsp)
{
	const dt_provops_t *ops = prp->pr_prov->pv_ops;

	if (prp->pr_nargs < 0) {
		if (ops->po_probe_args == NULL)
			prp->pr_nargs = 0;
		else if (ops->po_probe_args(dtp, prp) != 0)
			return -1;
	}
	*argsp = prp->pr_args;
	return prp->pr_nargs;
}

const char *
dt_argdesc_type(const dt_argdesc_t *adp)
{
	return adp->ad_xlate != NULL ? adp->ad_xlate : adp->ad_native;
}

dt_probe_t *
dt_probe_create(dtrace_hdl_t *dtp, dt_provider_t *pvp, const char *mod,
    const char *func, const char *name, int nargs,
    const char *const *argtypes, void *data)
{
	dt_probe_t *prp;

	/* Made on demand: after every static probe, as at open. */
	if (!pvp->pv_populating && dt_providers_pending(dtp) &&
	    dt_providers_populate(dtp) != 0)
		return NULL;
	if (dtp->dt_nprobes + 1 >= dtp->dt_probes_cap) {
		uint32_t cap = dtp->dt_probes_cap ? dtp->dt_probes_cap * 2 : 64;
		dt_probe_t **p = realloc(dtp->dt_probes, cap * sizeof (*p));

		if (p == NULL) {
			dt_set_errno(dtp, EDT_NOMEM);
			return NULL;
		}
		dtp->dt_probes = p;
		dtp->dt_probes_cap = cap;
	}
	if ((prp = calloc(1, sizeof (*prp))) == NULL ||
	    (prp->pr_mod = strdup(mod)) == NULL ||
	    (prp->pr_func = strdup(func)) == NULL ||
	    (prp->pr_name = strdup(name)) == NULL ||
	    (nargs > 0 && dt_probe_set_args(dtp, prp, nargs, argtypes,
	    NULL) != 0))
		goto nomem;
	prp->pr_prov = pvp;
	prp->pr_nargs = nargs;
	prp->pr_data = data;
	prp->pr_id = dtp->dt_nprobes + 1;
	if (dt_probe_funcname_add(dtp, prp, func) != 0)
		goto nomem;
	dtp->dt_nprobes++;
	dtp->dt_probes[prp->pr_id] = prp;
	return prp;

nomem:
	if (prp != NULL) {
		free(prp->pr_name);
		free(prp->pr_func);
		free(prp->pr_mod);
		free(prp);
	}
	dt_set_errno(dtp, EDT_NOMEM);
	return NULL;
}

static bool dt_provider_named(const dt_provider_t *pvp,
    const dt_probedesc_t *pdp);

/* Each provider named by pdp makes the probes it asks for. */
static int
dt_probes_provide(dtrace_hdl_t *dtp, const dt_probedesc_t *pdp)
{
	for (dt_provider_t *pvp = dtp->dt_provs; pvp != NULL;
	    pvp = pvp->pv_next) {
		if (pvp->pv_ops->po_provide != NULL &&
		    dt_provider_named(pvp, pdp) &&
		    pvp->pv_ops->po_provide(dtp, pvp, pdp) < 0)
			return -1;
	}
	return 0;
}

/*
 * An ID past the probes the providers list may be one that `dtrace -l`
 * made on demand (fbt makes the kernel's functions' probes so): every
 * provider is asked for everything, as that listing asks, so that the
 * IDs are the same.  Once: a second time would make nothing new.
 */
static int
dt_probes_provide_all(dtrace_hdl_t *dtp)
{
	dt_probedesc_t all;

	if (dtp->dt_provided_all)
		return 0;
	dtp->dt_provided_all = true;
	memset(&all, 0, sizeof (all));
	if (dt_providers_pending(dtp) && dt_providers_populate(dtp) != 0)
		return -1;
	return dt_probes_provide(dtp, &all);
}

dt_probe_t *
dt_probe_lookup_id(dtrace_hdl_t *dtp, uint32_t id)
{
	if (id > dtp->dt_nprobes && dt_providers_pending(dtp) &&
	    dt_providers_populate(dtp) != 0)
		return NULL;
	if (id > dtp->dt_nprobes && dt_probes_provide_all(dtp) != 0)
		return NULL;
	if (id == 0 || id > dtp->dt_nprobes)
		return NULL;
	return dtp->dt_probes[id];
}

uint32_t
dt_probe_count(dtrace_hdl_t *dtp)
{
	(void) dt_providers_populate(dtp);
	return dtp->dt_nprobes;
}

bool
dt_probedesc_may(const dt_probedesc_t *pdp, const char *mod,
    const char *func, const char *name)
{
	/* A NULL field is one the provider cannot tell before populating. */
	return (mod == NULL || dt_field_match(mod, pdp->pd_module)) &&
	    (func == NULL || dt_field_match(func, pdp->pd_function)) &&
	    (name == NULL || dt_field_match(name, pdp->pd_name));
}

/* Does pdp's provider field name pvp (or its family)? */
static bool
dt_provider_named(const dt_provider_t *pvp, const dt_probedesc_t *pdp)
{
	const char *fam = pvp->pv_ops->po_family;

	return dt_field_match(pvp->pv_name, pdp->pd_provider) ||
	    (fam != NULL && strncmp(pdp->pd_provider, fam, strlen(fam)) == 0);
}

/*
 * Populate what a description needs: every provider if it is an ID,
 * else those up to the last pending one whose probes it could match.
 */
static int
dt_probe_populate_for(dtrace_hdl_t *dtp, const dt_probedesc_t *pdp)
{
	const dt_provider_t *last = NULL;

	if (pdp->pd_id != 0)
		return dt_providers_pending(dtp) ? dt_providers_populate(dtp) : 0;
	for (dt_provider_t *pvp = dtp->dt_provs; pvp != NULL;
	    pvp = pvp->pv_next) {
		if (pvp->pv_pending && dt_field_match(pvp->pv_name,
		    pdp->pd_provider) && (pvp->pv_ops->po_maymatch == NULL ||
		    pvp->pv_ops->po_maymatch(dtp, pvp, pdp)))
			last = pvp;
	}
	return last != NULL ? dt_providers_populate_upto(dtp, last) : 0;
}

/* dt_probe_iter() of a description whose function is not a pattern. */
static int
dt_probe_iter_named(dtrace_hdl_t *dtp, const dt_probedesc_t *pdp,
    dt_probe_f *fn, void *arg)
{
	size_t nids;
	uint32_t *ids = dt_probe_funcname_ids(dtp, pdp->pd_function, &nids);
	int n = 0;

	if (ids == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	for (size_t i = 0; i < nids; i++) {
		dt_probe_t *prp = dtp->dt_probes[ids[i]];

		if (!dt_probe_match(prp, pdp))
			continue;
		n++;
		if (fn != NULL && fn(dtp, prp, arg) != 0) {
			free(ids);
			return -1;
		}
	}
	free(ids);
	return n;
}

int
dt_probe_iter(dtrace_hdl_t *dtp, const dt_probedesc_t *pdp, dt_probe_f *fn,
    void *arg)
{
	int n = 0;

	if (dt_probe_populate_for(dtp, pdp) != 0)
		return -1;
	/* Let providers create the probes this description asks for. */
	if (pdp->pd_id == 0 && dt_probes_provide(dtp, pdp) != 0)
		return -1;
	if (pdp->pd_id > dtp->dt_nprobes && dt_probes_provide_all(dtp) != 0)
		return -1;
	/* One function named: only the probes indexed under that name. */
	if (pdp->pd_id == 0 && dt_field_named(pdp->pd_function))
		return dt_probe_iter_named(dtp, pdp, fn, arg);
	for (uint32_t id = 1; id <= dtp->dt_nprobes; id++) {
		dt_probe_t *prp = dtp->dt_probes[id];

		if (!dt_probe_match(prp, pdp))
			continue;
		n++;
		if (fn != NULL && fn(dtp, prp, arg) != 0)
			return -1;
	}
	return n;
}

void
dt_probes_fini(dtrace_hdl_t *dtp)
{
	for (uint32_t id = 1; id <= dtp->dt_nprobes; id++) {
		dt_probe_t *prp = dtp->dt_probes[id];
		const dt_provops_t *ops = prp->pr_prov->pv_ops;

		if (ops->po_probe_fini != NULL)
			ops->po_probe_fini(dtp, prp);
		dt_probe_args_free(prp);
		free(prp->pr_name);
		free(prp->pr_func);
		free(prp->pr_mod);
		free(prp);
	}
	free(dtp->dt_probes);
	dtp->dt_probes = NULL;
	dt_probe_index_free(dtp);
	dtp->dt_nprobes = dtp->dt_probes_cap = 0;
	while (dtp->dt_provs != NULL) {
		dt_provider_t *next = dtp->dt_provs->pv_next;

		if (dtp->dt_provs->pv_ops->po_fini != NULL)
			dtp->dt_provs->pv_ops->po_fini(dtp, dtp->dt_provs);

		free(dtp->dt_provs);
		dtp->dt_provs = next;
	}
}

/*
 * Stability attributes.
 */

static const char *const dt_stability_names[] = { "Internal", "Private",
	"Obsolete", "External", "Unstable", "Evolving", "Stable", "Standard" };
static const char *const dt_class_names[] = { "Unknown", "CPU",
	"Platform", "Group", "ISA", "Common" };

#define DT_NELEMS(a) (sizeof (a) / sizeof ((a)[0]))

const char *
dt_stability_name(dt_stability_t s)
{
	return (unsigned) s < DT_NELEMS(dt_stability_names) ?
	    dt_stability_names[s] : NULL;
}

const char *
dt_class_name(dt_depclass_t c)
{
	return (unsigned) c < DT_NELEMS(dt_class_names) ?
	    dt_class_names[c] : NULL;
}

static int
dt_name_index(const char *name, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (strcasecmp(name, names[i]) == 0)
			return (int) i;
	}
	return -1;
}

int
dt_stability_lookup(const char *name)
{
	return dt_name_index(name, dt_stability_names,
	    DT_NELEMS(dt_stability_names));
}

int
dt_class_lookup(const char *name)
{
	return dt_name_index(name, dt_class_names, DT_NELEMS(dt_class_names));
}

dt_attr_t
dt_attr_min(dt_attr_t a, dt_attr_t b)
{
	dt_attr_t m;

	m.at_name = a.at_name < b.at_name ? a.at_name : b.at_name;
	m.at_data = a.at_data < b.at_data ? a.at_data : b.at_data;
	m.at_class = a.at_class < b.at_class ? a.at_class : b.at_class;
	return m;
}

bool
dt_strisglob(const char *s)
{
	return s[strcspn(s, "*?[\\")] != '\0';
}

/* A field names the probe's own part only if it is neither empty nor a
 * pattern (DTrace treats both as not naming it). */
static bool
dt_field_named(const char *s)
{
	return s[0] != '\0' && !dt_strisglob(s);
}

void
dt_probe_attr(const dt_probe_t *prp, dt_attr_t *descp, dt_attr_t *argsp)
{
	/* A provider that gives none is Private, as its probes are. */
	static const dt_provattr_t priv = {
		{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
		{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
		{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
		{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
		{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
	};
	const dt_provattr_t *pap = prp->pr_prov->pv_attr != NULL ?
	    prp->pr_prov->pv_attr : &priv;
	dt_attr_t a = pap->pa_provider;

	if (dt_field_named(prp->pr_mod))
		a = dt_attr_min(a, pap->pa_mod);
	if (dt_field_named(prp->pr_func))
		a = dt_attr_min(a, pap->pa_func);
	if (dt_field_named(prp->pr_name))
		a = dt_attr_min(a, pap->pa_name);
	*descp = a;
	*argsp = pap->pa_args;
}

char *
dt_probedesc_str(const dt_probedesc_t *pdp, char *buf, size_t len)
{
	if (pdp->pd_id != 0)
		snprintf(buf, len, "%u", pdp->pd_id);
	else
		snprintf(buf, len, "%s:%s:%s:%s", pdp->pd_provider,
		    pdp->pd_module, pdp->pd_function, pdp->pd_name);
	return buf;
}

static int
dt_probe_first(dtrace_hdl_t *dtp, dt_probe_t *prp, void *arg)
{
	dt_probe_t **firstp = arg;

	(void) dtp;
	if (*firstp == NULL)
		*firstp = prp;
	return 0;
}

dt_probe_t *
dt_probe_typed(dtrace_hdl_t *dtp, const dt_probedesc_t *pdp, int *nmatchp)
{
	dt_probe_t *prp = NULL;
	const dt_provattr_t *pap;

	if ((*nmatchp = dt_probe_iter(dtp, pdp, dt_probe_first, &prp)) <= 0)
		return NULL;
	if (*nmatchp == 1)
		return prp;
	if ((pap = prp->pr_prov->pv_attr) == NULL ||
	    pap->pa_args.at_data < DT_STAB_EVOLVING)
		return NULL;
	if ((pap->pa_mod.at_name >= DT_STAB_EVOLVING &&
	    !dt_field_named(pdp->pd_module)) ||
	    (pap->pa_func.at_name >= DT_STAB_EVOLVING &&
	    !dt_field_named(pdp->pd_function)) ||
	    (pap->pa_name.at_name >= DT_STAB_EVOLVING &&
	    !dt_field_named(pdp->pd_name)))
		return NULL;
	return prp;
}
