/* SPDX-License-Identifier: MIT */
/*
 * dt_list.c: dtrace -l -- the probes a system offers, or those the probe
 * descriptions of compiled programs match, in DTrace's columns:
 *
 *	   ID   PROVIDER            MODULE                          FUNCTION NAME
 *	    1     dtrace                                                     BEGIN
 *
 * Each probe is printed once, in the order descriptions match it.  With
 * -v (dtrace -lv), each is followed by its stability attributes and its
 * argument types, in DTrace's layout:
 *
 *		Probe Description Attributes
 *			Identifier Names: Evolving
 *			...
 *		Argument Types
 *			args[0]: unsigned int
 *
 * A probe whose arguments cannot be described prints its line alone.
 */
#include <stdlib.h>
#include <string.h>

#include "common/compiler/dt_cc.h"
#include "common/dt_impl.h"
#include "common/dt_os.h"
#include "common/probe/dt_probe.h"

typedef struct dt_list_arg {
	FILE *la_fp;
	bool la_verbose;	/* -lv */
	unsigned char *la_seen; /* by probe ID */
	size_t la_nseen;	/* la_seen's length */
	int la_count;
} dt_list_arg_t;

static void
dt_list_attr(FILE *fp, const char *title, dt_attr_t a)
{
	fprintf(fp, "\n\t%s\n", title);
	fprintf(fp, "\t\tIdentifier Names: %s\n", dt_stability_name(a.at_name));
	fprintf(fp, "\t\tData Semantics:   %s\n", dt_stability_name(a.at_data));
	fprintf(fp, "\t\tDependency Class: %s\n", dt_class_name(a.at_class));
}

static void
dt_list_info(dtrace_hdl_t *dtp, dt_probe_t *prp, FILE *fp)
{
	const dt_argdesc_t *args;
	dt_attr_t desc, arga;
	int n;

	if ((n = dt_probe_args(dtp, prp, &args)) < 0)
		return;
	dt_probe_attr(prp, &desc, &arga);
	dt_list_attr(fp, "Probe Description Attributes", desc);
	dt_list_attr(fp, "Argument Attributes", arga);
	fprintf(fp, "\n\tArgument Types\n");
	for (int i = 0; i < n; i++)
		fprintf(fp, "\t\targs[%d]: %s\n", i, dt_argdesc_type(&args[i]));
	if (n == 0)
		fprintf(fp, "\t\tNone\n");
	fprintf(fp, "\n");
}

static int
dt_list_probe(dtrace_hdl_t *dtp, dt_probe_t *prp, void *arg)
{
	dt_list_arg_t *la = arg;

	/*
	 * Matching creates on-demand probes (fbt: tens of thousands where
	 * the kernel has fentry or kprobes), past any length guessed first.
	 */
	if (prp->pr_id >= la->la_nseen) {
		size_t n = la->la_nseen * 2 > prp->pr_id ? la->la_nseen * 2 :
		    (size_t) prp->pr_id + 1;
		unsigned char *p = realloc(la->la_seen, n);

		if (p == NULL)
			return dt_set_errno(dtp, EDT_NOMEM);
		memset(p + la->la_nseen, 0, n - la->la_nseen);
		la->la_seen = p;
		la->la_nseen = n;
	}
	if (la->la_seen[prp->pr_id])
		return 0;
	la->la_seen[prp->pr_id] = 1;
	la->la_count++;
	fprintf(la->la_fp, "%5u %10s %17s %33s %s\n", prp->pr_id,
	    prp->pr_prov->pv_name, prp->pr_mod, prp->pr_func, prp->pr_name);
	if (la->la_verbose)
		dt_list_info(dtp, prp, la->la_fp);
	return 0;
}

int
dtrace_probe_list(dtrace_hdl_t *dtp, dtrace_prog_t *const *pgps, int npgps,
    bool verbose, FILE *fp, dtrace_nomatch_f *nomatch, void *arg)
{
	dt_list_arg_t la = { fp, verbose, NULL, 0, 0 };
	dt_probedesc_t all;

	la.la_nseen = dt_probe_count(dtp) + 1024;
	if ((la.la_seen = calloc(la.la_nseen, 1)) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	fprintf(fp, "%5s %10s %17s %33s %s\n", "ID", "PROVIDER", "MODULE",
	    "FUNCTION", "NAME");
	if (npgps == 0) {
		memset(&all, 0, sizeof (all));
		(void) dt_probe_iter(dtp, &all, dt_list_probe, &la);
	}
	for (int i = 0; i < npgps; i++) {
		const dt_program_t *pgp = pgps[i]->dp_program;

		for (uint32_t s = 0; pgp != NULL && s < pgp->pg_nstmts; s++) {
			const dt_stmt_t *stp = &pgp->pg_stmts[s];

			for (uint32_t d = 0; d < stp->st_ndescs; d++) {
				const dt_probedesc_t *pdp = &stp->st_descs[d];
				char buf[4 * DT_PROBE_FIELD_MAX + 4];

				if (dt_probe_iter(dtp, pdp, dt_list_probe,
				    &la) != 0 || nomatch == NULL)
					continue;
				snprintf(buf, sizeof (buf), "%s:%s:%s:%s",
				    pdp->pd_provider, pdp->pd_module,
				    pdp->pd_function, pdp->pd_name);
				/* Why its provider has no probes, if known. */
				dtp->dt_errhint =
				    dt_os_provider_hint(pdp->pd_provider);
				nomatch(buf, arg);
				dtp->dt_errhint = NULL;
			}
		}
	}
	free(la.la_seen);
	return la.la_count;
}
