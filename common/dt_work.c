/*
 * dt_work.c: enabling compiled programs and running them.
 *
 * Enabling matches each statement's probe descriptions against the probe
 * namespace and gives every (statement, probe) pair an EPID, in program
 * order, so a probe's clauses run in the order they were written.  The
 * first enabling chooses the engine (-x engine, else the best one allowed
 * for the probes named).  Then:
 *
 *	dtrace_go	start the engine; BEGIN fires
 *	dtrace_sleep	wait for the next timer or buffer switch
 *	dtrace_work	drain records into the consumer; DONE after exit()
 *	dtrace_stop	END fires; the last records are drained by the
 *			next dtrace_work
 */
#include <stdlib.h>
#include <string.h>

#include "common/consumer/dt_consumer.h"
#include "common/dt_impl.h"
#include "common/dt_work.h"
#include "common/engine/dt_engine.h"
#include "common/probe/dt_probe.h"

/* Choose the engine for probes that need the given engine flags. */
static int
dt_engine_select(dtrace_hdl_t *dtp)
{
	const dt_engine_ops_t *eng;

	switch (dtp->dt_options[DT_OPT_ENGINE]) {
	case DT_ENGINE_BPF:
	case DT_ENGINE_PTRACE:
		return dt_set_errno(dtp, EDT_NOENGINE);
	default:
		eng = &dt_interp_engine_ops;
		break;
	}
	if (eng->eo_open(dtp) != 0)
		return -1;
	dtp->dt_engine = eng;
	return 0;
}

typedef struct dt_enable_arg {
	const dt_program_t *ea_prog;
	const dt_stmt_t *ea_stmt;
	dt_eprobe_t **ea_new;
	size_t ea_nnew;
	size_t ea_cap;
} dt_enable_arg_t;

static int
dt_enable_probe(dtrace_hdl_t *dtp, dt_probe_t *prp, void *arg)
{
	dt_enable_arg_t *ea = arg;
	dt_eprobe_t *ep;

	/* A probe named twice in one clause is enabled once. */
	for (size_t i = 0; i < ea->ea_nnew; i++) {
		if (ea->ea_new[i]->ep_probe == prp &&
		    ea->ea_new[i]->ep_stmt == ea->ea_stmt)
			return 0;
	}
	if (dtp->dt_engine != NULL &&
	    !(prp->pr_prov->pv_engines & dtp->dt_engine->eo_flag))
		return dt_set_errno(dtp, EDT_NOTSUP);
	if (ea->ea_nnew == ea->ea_cap) {
		size_t cap = ea->ea_cap ? ea->ea_cap * 2 : 16;
		dt_eprobe_t **p = realloc(ea->ea_new, cap * sizeof (*p));

		if (p == NULL)
			return dt_set_errno(dtp, EDT_NOMEM);
		ea->ea_new = p;
		ea->ea_cap = cap;
	}
	if (dtp->dt_neprobes + 1 >= dtp->dt_eprobes_cap) {
		uint32_t cap = dtp->dt_eprobes_cap ? dtp->dt_eprobes_cap * 2 : 64;
		dt_eprobe_t **p = realloc(dtp->dt_eprobes, cap * sizeof (*p));

		if (p == NULL)
			return dt_set_errno(dtp, EDT_NOMEM);
		dtp->dt_eprobes = p;
		dtp->dt_eprobes_cap = cap;
	}
	if ((ep = calloc(1, sizeof (*ep))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	ep->ep_epid = ++dtp->dt_neprobes;
	ep->ep_probe = prp;
	ep->ep_stmt = ea->ea_stmt;
	ep->ep_prog = ea->ea_prog;
	dtp->dt_eprobes[ep->ep_epid] = ep;
	ea->ea_new[ea->ea_nnew++] = ep;
	return 0;
}

int
dt_program_enable(dtrace_hdl_t *dtp, const dt_program_t *pgp,
    uint32_t *nmatchedp)
{
	dt_enable_arg_t ea = { .ea_prog = pgp };
	int rc = 0;

	*nmatchedp = 0;
	if (dtp->dt_active)
		return dt_set_errno(dtp, EDT_ACTIVE);
	if (dtp->dt_engine == NULL && dt_engine_select(dtp) != 0)
		return -1;
	for (uint32_t s = 0; s < pgp->pg_nstmts && rc == 0; s++) {
		ea.ea_stmt = &pgp->pg_stmts[s];
		for (uint32_t d = 0; d < ea.ea_stmt->st_ndescs; d++) {
			if (dt_probe_iter(dtp, &ea.ea_stmt->st_descs[d],
				dt_enable_probe, &ea) < 0) {
				rc = -1;
				break;
			}
		}
	}
	if (rc == 0)
		rc = dtp->dt_engine->eo_enable(dtp, ea.ea_new, ea.ea_nnew);
	*nmatchedp = (uint32_t) ea.ea_nnew;
	free(ea.ea_new);
	return rc;
}

const dt_eprobe_t *
dt_eprobe_lookup(dtrace_hdl_t *dtp, uint32_t epid)
{
	if (epid == 0 || epid > dtp->dt_neprobes)
		return NULL;
	return dtp->dt_eprobes[epid];
}

void
dt_work_fini(dtrace_hdl_t *dtp)
{
	if (dtp->dt_engine != NULL)
		dtp->dt_engine->eo_close(dtp);
	dtp->dt_engine = NULL;
	for (uint32_t i = 1; i <= dtp->dt_neprobes; i++)
		free(dtp->dt_eprobes[i]);
	free(dtp->dt_eprobes);
	dtp->dt_eprobes = NULL;
	dtp->dt_neprobes = dtp->dt_eprobes_cap = 0;
}

static int
dt_work_aggclear(dtrace_hdl_t *dtp, uint32_t aggid, void *arg)
{
	(void) arg;
	return dtp->dt_engine->eo_aggclear(dtp, aggid);
}

/* Tell the consumer about every enabled probe, before records arrive. */
static int
dt_work_consume_setup(dtrace_hdl_t *dtp)
{
	dt_cprobe_t *cps;
	int rc;

	if (dtp->dt_neprobes == 0)
		return 0;
	if ((cps = calloc(dtp->dt_neprobes, sizeof (*cps))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	for (uint32_t i = 0; i < dtp->dt_neprobes; i++) {
		const dt_eprobe_t *ep = dtp->dt_eprobes[i + 1];

		cps[i].cp_epid = ep->ep_epid;
		cps[i].cp_id = ep->ep_probe->pr_id;
		cps[i].cp_stmt = ep->ep_stmt;
		cps[i].cp_provider = ep->ep_probe->pr_prov->pv_name;
		cps[i].cp_module = ep->ep_probe->pr_mod;
		cps[i].cp_function = ep->ep_probe->pr_func;
		cps[i].cp_name = ep->ep_probe->pr_name;
	}
	rc = dt_consume_setup(dtp, dtp->dt_eprobes[1]->ep_prog, cps,
	    dtp->dt_neprobes);
	free(cps);
	dt_consume_setaggclear(dtp, dt_work_aggclear, NULL);
	return rc;
}

int
dtrace_go(dtrace_hdl_t *dtp)
{
	if (dtp->dt_active)
		return dt_set_errno(dtp, EDT_ACTIVE);
	if (dtp->dt_engine == NULL && dt_engine_select(dtp) != 0)
		return -1;
	if (dt_work_consume_setup(dtp) != 0)
		return -1;
	dtp->dt_active = true;
	return dtp->dt_engine->eo_go(dtp);
}

int
dtrace_stop(dtrace_hdl_t *dtp)
{
	if (!dtp->dt_active || dtp->dt_stopped)
		return 0;
	dtp->dt_stopped = true;
	return dtp->dt_engine->eo_stop(dtp);
}

void
dtrace_sleep(dtrace_hdl_t *dtp)
{
	int64_t wait = dtp->dt_options[DT_OPT_SWITCHRATE];

	if (dtp->dt_options[DT_OPT_STATUSRATE] < wait)
		wait = dtp->dt_options[DT_OPT_STATUSRATE];
	if (dtp->dt_engine != NULL && dtp->dt_active && !dtp->dt_exited)
		(void) dtp->dt_engine->eo_poll(dtp, wait);
}

/* Bring the consumer's view of the aggregations up to date. */
static int
dt_work_aggsnap(dtrace_hdl_t *dtp)
{
	dt_aggsnap_t *snaps;
	uint32_t n;
	int rc;

	if (dtp->dt_engine->eo_aggsnap(dtp, &snaps, &n) != 0)
		return -1;
	rc = dt_consume_aggsnap(dtp, snaps, n, true);
	dtp->dt_engine->eo_aggsnap_free(dtp, snaps, n);
	return rc;
}

typedef struct dt_work_arg {
	FILE *wa_fp;
	int wa_rc;
} dt_work_arg_t;

static int
dt_work_drain(dtrace_hdl_t *dtp, uint32_t cpu, const void *buf, size_t len,
    void *arg)
{
	dt_work_arg_t *wa = arg;
	int rc = dt_consume_buf(dtp, wa->wa_fp, cpu, buf, len);

	if (rc < 0) {
		wa->wa_rc = -1;
	} else if (rc == DT_CONSUME_EXIT && !dtp->dt_exited) {
		dtp->dt_exited = true;
		dtp->dt_exitstatus = dt_consume_exitstatus(dtp);
	}
	return 0;
}

dtrace_workstatus_t
dtrace_work(dtrace_hdl_t *dtp, FILE *fp)
{
	dt_work_arg_t wa = { fp, 0 };

	if (dtp->dt_engine == NULL || !dtp->dt_active)
		return DTRACE_WORKSTATUS_DONE;
	/* printa() in the records prints what the aggregations hold now. */
	if (dt_work_aggsnap(dtp) != 0)
		return DTRACE_WORKSTATUS_ERROR;
	if (dtp->dt_engine->eo_drain(dtp, dt_work_drain, &wa) != 0 ||
	    wa.wa_rc != 0)
		return DTRACE_WORKSTATUS_ERROR;
	if (dtp->dt_exited || dtp->dt_stopped)
		return DTRACE_WORKSTATUS_DONE;
	return DTRACE_WORKSTATUS_OKAY;
}

int
dtrace_aggregate_print(dtrace_hdl_t *dtp, FILE *fp)
{
	if (dtp->dt_engine == NULL || !dtp->dt_active)
		return 0;
	if (dt_work_aggsnap(dtp) != 0)
		return -1;
	return dt_consume_end(dtp, fp);
}

int
dtrace_exit_status(dtrace_hdl_t *dtp, int *statusp)
{
	if (!dtp->dt_exited)
		return 0;
	*statusp = dtp->dt_exitstatus;
	return 1;
}
