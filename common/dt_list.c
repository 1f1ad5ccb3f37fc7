/*
 * dt_list.c: dtrace -l -- the probes a system offers, or those the probe
 * descriptions of compiled programs match, in DTrace's columns:
 *
 *	   ID   PROVIDER            MODULE                          FUNCTION NAME
 *	    1     dtrace                                                     BEGIN
 *
 * Each probe is printed once, in the order descriptions match it.
 */
#include <stdlib.h>
#include <string.h>

#include "common/compiler/dt_cc.h"
#include "common/dt_impl.h"
#include "common/probe/dt_probe.h"

typedef struct dt_list_arg {
	FILE *la_fp;
	unsigned char *la_seen; /* by probe ID */
	int la_count;
} dt_list_arg_t;

static int
dt_list_probe(dtrace_hdl_t *dtp, dt_probe_t *prp, void *arg)
{
	dt_list_arg_t *la = arg;

	(void) dtp;
	if (la->la_seen[prp->pr_id])
		return 0;
	la->la_seen[prp->pr_id] = 1;
	la->la_count++;
	fprintf(la->la_fp, "%5u %10s %17s %33s %s\n", prp->pr_id,
	    prp->pr_prov->pv_name, prp->pr_mod, prp->pr_func, prp->pr_name);
	return 0;
}

int
dtrace_probe_list(dtrace_hdl_t *dtp, dtrace_prog_t *const *pgps, int npgps,
    FILE *fp)
{
	dt_list_arg_t la = { fp, NULL, 0 };
	dt_probedesc_t all;

	/* On-demand probes may be created while matching: room for them. */
	if ((la.la_seen = calloc(dt_probe_count(dtp) + 1024, 1)) == NULL)
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

			for (uint32_t d = 0; d < stp->st_ndescs; d++)
				(void) dt_probe_iter(dtp, &stp->st_descs[d],
				    dt_list_probe, &la);
		}
	}
	free(la.la_seen);
	return la.la_count;
}
