/* SPDX-License-Identifier: MIT */
/*
 * dt_work.c: enabling compiled programs and running them.
 *
 * Enabling matches each statement's probe descriptions against the probe
 * namespace and gives every (statement, probe) pair an EPID, in program
 * order, so a probe's clauses run in the order they were written.  The
 * engine is chosen then (-x engine, else the one the probes need).  Then:
 *
 *	dtrace_go	enable the queued programs, start the engine; BEGIN
 *			fires
 *	dtrace_sleep	wait for the next timer or buffer switch
 *	dtrace_work	drain records into the consumer, report drops
 *			(every statusrate and at the end); DONE at the first
 *			status check (every statusrate) after exit() or
 *			once a fill buffer is full
 *	dtrace_stop	END fires; the last records are drained by the
 *			next dtrace_work
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/compiler/dt_cc.h"
#include "common/compiler/dt_cg.h"
#include "common/consumer/dt_consumer.h"
#include "common/dt_impl.h"
#include "common/dt_aggfunc.h"
#include "common/dt_metrics.h"
#include "common/dt_work.h"
#include "common/engine/dt_engine.h"
#include "common/dt_os.h"
#include "common/probe/dt_probe.h"
#include "common/prov/dt_prov.h"

/*
 * Programs are queued by dt_program_queue() (dtrace_program_exec) and
 * enabled together by dtrace_go(): their statements are concatenated into
 * dtp->dt_prog and their aggregations unified by name, as D gives every
 * program of a consumer one namespace of aggregations.  The engine and the
 * consumer then see one program.
 */
int
dt_program_queue(dtrace_hdl_t *dtp, dt_program_t *pgp, uint32_t *nmatchedp)
{
	dt_program_t **q;
	int n;

	*nmatchedp = 0;
	if (dtp->dt_active)
		return dt_set_errno(dtp, EDT_ACTIVE);
	for (uint32_t s = 0; s < pgp->pg_nstmts; s++) {
		const dt_stmt_t *stp = &pgp->pg_stmts[s];

		for (uint32_t a = 0; a < stp->st_nactions; a++) {
			const char *why = dt_os_action_refused(
			    (int) stp->st_actions[a].ac_kind);

			if (why != NULL)
				return dt_set_errdetail(dtp, EDT_NOTSUP, "%s",
				    why);
		}
	}
	for (uint32_t s = 0; s < pgp->pg_nstmts; s++) {
		const dt_stmt_t *stp = &pgp->pg_stmts[s];

		/* Pieces of one clause (split at if/else) count once. */
		if (s > 0 && stp->st_id == pgp->pg_stmts[s - 1].st_id)
			continue;
		for (uint32_t d = 0; d < stp->st_ndescs; d++) {
			if ((n = dt_probe_iter(dtp, &stp->st_descs[d], NULL,
				 NULL)) < 0)
				return -1;
			*nmatchedp += (uint32_t) n;
		}
	}
	q = realloc(dtp->dt_queued, (dtp->dt_nqueued + 1) * sizeof (*q));
	if (q == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	dtp->dt_queued = q;
	q[dtp->dt_nqueued++] = pgp;
	return 0;
}

/* Whether a DIF object reads the probe's arguments (args[], arg0..9). */
static bool
dt_difo_reads_args(const dif_object_t *dp)
{
	for (uint32_t i = 0; dp != NULL && i < dp->dif_len; i++) {
		dif_instr_t in = dp->dif_buf[i];
		uint32_t v = DIF_INSTR_VAR(in);

		if ((DIF_INSTR_OP(in) == DIF_OP_LDGA && v == DIF_VAR_ARGS) ||
		    (DIF_INSTR_OP(in) == DIF_OP_LDGS && v >= DIF_VAR_ARG0 &&
			v <= DIF_VAR_ARG9))
			return true;
	}
	return false;
}

static bool
dt_stmt_reads_args(const dt_stmt_t *stp)
{
	if (dt_difo_reads_args(stp->st_pred))
		return true;
	for (uint32_t a = 0; a < stp->st_nactions; a++) {
		const dt_action_t *ap = &stp->st_actions[a];

		for (uint32_t i = 0; i < ap->ac_nargs; i++)
			if (dt_difo_reads_args(ap->ac_args[i].aa_difo))
				return true;
		for (uint32_t i = 0; i < ap->ac_nkeys; i++)
			if (dt_difo_reads_args(ap->ac_keys[i]))
				return true;
	}
	return false;
}

/*
 * The attributes of one probe description.  A description that names one
 * provider has the lowest attributes of the parts it names; one that names
 * a probe by ID, that probe's; one that may match any provider, DTrace's
 * attributes for a description across providers (Unstable, Common).
 */
static dt_attr_t
dt_desc_attr(dtrace_hdl_t *dtp, const dt_probedesc_t *pdp, dt_attr_t *argsp)
{
	static const dt_attr_t anyprov = {
	    DT_STAB_UNSTABLE, DT_STAB_UNSTABLE, DT_CLASS_COMMON};
	dt_provider_t *pvp;
	dt_probe_t *prp;
	dt_attr_t a;

	*argsp = anyprov;
	if (pdp->pd_id != 0 &&
	    (prp = dt_probe_lookup_id(dtp, pdp->pd_id)) != NULL) {
		dt_probe_attr(prp, &a, argsp);
		return a;
	}
	if (pdp->pd_provider[0] == '\0' || dt_strisglob(pdp->pd_provider) ||
	    (pvp = dt_provider_lookup(dtp, pdp->pd_provider)) == NULL ||
	    pvp->pv_attr == NULL)
		return anyprov;
	a = pvp->pv_attr->pa_provider;
	if (pdp->pd_module[0] != '\0')
		a = dt_attr_min(a, pvp->pv_attr->pa_mod);
	if (pdp->pd_function[0] != '\0')
		a = dt_attr_min(a, pvp->pv_attr->pa_func);
	if (pdp->pd_name[0] != '\0')
		a = dt_attr_min(a, pvp->pv_attr->pa_name);
	*argsp = pvp->pv_attr->pa_args;
	return a;
}

/*
 * dtrace -v: the lowest attributes of a program's probe descriptions and
 * of its statements.  D's actions and subroutines are Stable; a statement
 * that reads the probe's arguments is no more stable than they are.
 */
static void
dt_program_attrs(
    dtrace_hdl_t *dtp, const dt_program_t *pgp, dtrace_proginfo_t *pip)
{
	dt_attr_t desc = {DT_STAB_STANDARD, DT_STAB_STANDARD, DT_CLASS_COMMON};
	dt_attr_t stmt = {DT_STAB_STABLE, DT_STAB_STABLE, DT_CLASS_COMMON};

	for (uint32_t s = 0; s < pgp->pg_nstmts; s++) {
		const dt_stmt_t *stp = &pgp->pg_stmts[s];
		bool args = dt_stmt_reads_args(stp);

		for (uint32_t d = 0; d < stp->st_ndescs; d++) {
			dt_attr_t arga;

			desc = dt_attr_min(
			    desc, dt_desc_attr(dtp, &stp->st_descs[d], &arga));
			if (args)
				stmt = dt_attr_min(stmt, arga);
		}
	}
	pip->dpi_descattr = (dtrace_attribute_t){
	    (int) desc.at_name, (int) desc.at_data, (int) desc.at_class};
	pip->dpi_stmtattr = (dtrace_attribute_t){
	    (int) stmt.at_name, (int) stmt.at_data, (int) stmt.at_class};
}

int
dtrace_program_exec(dtrace_hdl_t *dtp, dtrace_prog_t *pgp,
    dtrace_proginfo_t *pip)
{
	uint32_t n;

	if (pgp->dp_program == NULL)
		return dt_set_errdetail(dtp, EDT_ACTIVE,
		    "program was already executed");
	if (pip != NULL)
		dt_program_attrs(dtp, pgp->dp_program, pip);
	if (dt_program_queue(dtp, pgp->dp_program, &n) != 0)
		return -1;
	pgp->dp_program = NULL;
	if (pip != NULL)
		pip->dpi_matches = n;
	return 0;
}

int
dtrace_program_info(
    dtrace_hdl_t *dtp, dtrace_prog_t *pgp, dtrace_proginfo_t *pip)
{
	const dt_program_t *prog = pgp->dp_program;
	int n;

	if (prog == NULL)
		return dt_set_errdetail(
		    dtp, EDT_ACTIVE, "program was already executed");
	dt_program_attrs(dtp, prog, pip);
	pip->dpi_matches = 0;
	for (uint32_t s = 0; s < prog->pg_nstmts; s++) {
		const dt_stmt_t *stp = &prog->pg_stmts[s];

		/* Pieces of one clause (split at if/else) count once. */
		if (s > 0 && stp->st_id == prog->pg_stmts[s - 1].st_id)
			continue;
		for (uint32_t d = 0; d < stp->st_ndescs; d++) {
			if ((n = dt_probe_iter(
				 dtp, &stp->st_descs[d], NULL, NULL)) < 0)
				return -1;
			pip->dpi_matches += (uint32_t) n;
		}
	}
	return 0;
}

const char *
dtrace_stability_name(int stability)
{
	return dt_stability_name((dt_stability_t) stability);
}

const char *
dtrace_class_name(int depclass)
{
	return dt_class_name((dt_depclass_t) depclass);
}

void
dtrace_program_dif(dtrace_hdl_t *dtp, dtrace_prog_t *pgp, FILE *fp)
{
	if (pgp->dp_program != NULL)
		dt_cg_disasm(dtp, fp, pgp->dp_program);
}

/* Add one program's aggregations to dt_prog, renumbering its actions. */
static int
dt_merge_aggs(dtrace_hdl_t *dtp, dt_program_t *pgp)
{
	dt_program_t *all = &dtp->dt_prog;
	uint32_t *map;

	if (pgp->pg_naggs == 0)
		return 0;
	if ((map = calloc(pgp->pg_naggs, sizeof (*map))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	for (uint32_t a = 0; a < pgp->pg_naggs; a++) {
		const dt_aggdesc_t *agg = &pgp->pg_aggs[a];
		uint32_t i;

		for (i = 0; i < all->pg_naggs; i++) {
			if (strcmp(all->pg_aggs[i].ag_name, agg->ag_name) == 0)
				break;
		}
		if (i < all->pg_naggs) {
			const dt_aggdesc_t *old = &all->pg_aggs[i];

			if (old->ag_kind != agg->ag_kind ||
			    old->ag_nvals != agg->ag_nvals ||
			    old->ag_keysize != agg->ag_keysize ||
			    old->ag_nkeys != agg->ag_nkeys) {
				free(map);
				return dt_set_errdetail(dtp, EDT_BADAGG,
				    "aggregation @%s is used with a different "
				    "function or key in another program",
				    agg->ag_name);
			}
		} else {
			dt_aggdesc_t *p = realloc(all->pg_aggs,
			    (all->pg_naggs + 1) * sizeof (*p));

			if (p == NULL) {
				free(map);
				return dt_set_errno(dtp, EDT_NOMEM);
			}
			all->pg_aggs = p;
			p[i] = *agg;
			p[i].ag_id = i;
			all->pg_naggs++;
		}
		map[a] = i;
	}
	for (uint32_t s = 0; s < pgp->pg_nstmts; s++) {
		dt_stmt_t *stp = &pgp->pg_stmts[s];

		for (uint32_t a = 0; a < stp->st_nactions; a++) {
			dt_action_t *ap = &stp->st_actions[a];

			if (ap->ac_kind == DT_ACT_AGGREGATE)
				ap->ac_aggid = map[ap->ac_aggid];
			for (uint32_t i = 0; i < ap->ac_naggs; i++)
				ap->ac_aggids[i] = map[ap->ac_aggids[i]];
		}
	}
	/* The program itself now speaks in merged IDs. */
	for (uint32_t a = 0; a < pgp->pg_naggs; a++)
		pgp->pg_aggs[a].ag_id = map[a];
	free(map);
	return 0;
}

static int
dt_merge_programs(dtrace_hdl_t *dtp)
{
	dt_program_t *all = &dtp->dt_prog;
	uint32_t n = 0;

	for (uint32_t p = 0; p < dtp->dt_nqueued; p++)
		n += dtp->dt_queued[p]->pg_nstmts;
	if (n > 0 && (all->pg_stmts = calloc(n, sizeof (dt_stmt_t))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	for (uint32_t p = 0; p < dtp->dt_nqueued; p++) {
		dt_program_t *pgp = dtp->dt_queued[p];

		if (dt_merge_aggs(dtp, pgp) != 0)
			return -1;
		for (uint32_t s = 0; s < pgp->pg_nstmts; s++) {
			all->pg_stmts[all->pg_nstmts] = pgp->pg_stmts[s];
			all->pg_stmts[all->pg_nstmts].st_id = all->pg_nstmts;
			all->pg_nstmts++;
		}
	}
	return 0;
}

static size_t dt_work_procprov(const dtrace_hdl_t *dtp, const char *prov,
    int pid);

/*
 * Does the OS have an in-kernel engine at all, usable here or not?  An OS
 * without one (the none backend) has only the interpreter's view of the
 * system: there profile-N fires from a timer, on its one CPU, as the best
 * that can be done rather than something refused.
 */
static bool
dt_engine_os_has_kernel(void)
{
	for (const dt_os_engine_t *oe = dt_os_engines; oe->oe_name != NULL;
	    oe++) {
		if (oe->oe_kind == DT_ENGINE_F_KERNEL)
			return true;
	}
	return false;
}

/* Does this probe need the in-kernel engine to fire as D defines it? */
static bool
dt_probe_needs_kernel(const dt_probe_t *prp)
{
	const dt_profile_timer_t *pt = dt_prov_profile_timer(prp);

	if (!(prp->pr_prov->pv_engines & DT_ENGINE_F_INTERP))
		return true;
	/* profile-N fires on every CPU, which only the kernel can do. */
	return pt != NULL && pt->pt_percpu && dt_engine_os_has_kernel();
}

/* Does DIF object dp read curthread (the kernel's view of the thread)? */
static bool
dt_difo_reads_curthread(const dif_object_t *dp)
{
	for (uint32_t i = 0; dp != NULL && i < dp->dif_len; i++) {
		dif_instr_t in = dp->dif_buf[i];

		if (DIF_INSTR_OP(in) == DIF_OP_LDGS &&
		    DIF_INSTR_VAR(in) == DIF_VAR_CURTHREAD)
			return true;
	}
	return false;
}

/*
 * Does the clause read kernel memory, through curthread (curpsinfo and
 * curlwpsinfo translate from it) or a kernel variable (`name)?  Only the
 * in-kernel engine gives it a value, so such a clause wants that engine
 * even at BEGIN or a tick.
 */
static bool
dt_stmt_reads_kernel(const dt_stmt_t *stp)
{
	if (stp->st_kmem || dt_difo_reads_curthread(stp->st_pred))
		return true;
	for (uint32_t a = 0; a < stp->st_nactions; a++) {
		const dt_action_t *ap = &stp->st_actions[a];

		for (uint32_t i = 0; i < ap->ac_nargs; i++) {
			if (dt_difo_reads_curthread(ap->ac_args[i].aa_difo))
				return true;
		}
		for (uint32_t k = 0; k < ap->ac_nkeys; k++) {
			if (dt_difo_reads_curthread(ap->ac_keys[k]))
				return true;
		}
	}
	return false;
}

/*
 * Does DIF object dp read what a tick interrupted: the process or thread
 * that was running on the CPU (pid, execname, ucaller, uregs[] ...)?
 */
static bool
dt_difo_reads_context(const dif_object_t *dp)
{
	for (uint32_t i = 0; dp != NULL && i < dp->dif_len; i++) {
		dif_instr_t in = dp->dif_buf[i];

		if (DIF_INSTR_OP(in) == DIF_OP_LDGA &&
		    DIF_INSTR_VAR(in) == DIF_VAR_UREGS)
			return true;
		if (DIF_INSTR_OP(in) != DIF_OP_LDGS)
			continue;
		switch (DIF_INSTR_VAR(in)) {
		case DIF_VAR_PID:
		case DIF_VAR_TID:
		case DIF_VAR_PPID:
		case DIF_VAR_UID:
		case DIF_VAR_GID:
		case DIF_VAR_EXECNAME:
		case DIF_VAR_EXECARGS:
		case DIF_VAR_UCALLER:
		case DIF_VAR_USTACKDEPTH:
		case DIF_VAR_ERRNO:
		case DIF_VAR_CWD:
		case DIF_VAR_ROOT:
		case DIF_VAR_VTIMESTAMP:
			return true;
		default:
			break;
		}
	}
	return false;
}

/*
 * A tick fires on one CPU in interrupt context: its pid, execname, stacks
 * are those of whatever ran there, often the idle task (pid 0) or a
 * kernel thread.  Only the in-kernel engine sees that; the interpreter
 * fires ticks in the consumer, where they would all be dtrace itself.
 */
static bool
dt_stmt_reads_context(const dt_stmt_t *stp)
{
	if (dt_difo_reads_context(stp->st_pred))
		return true;
	for (uint32_t a = 0; a < stp->st_nactions; a++) {
		const dt_action_t *ap = &stp->st_actions[a];

		if (ap->ac_kind == DT_ACT_STACK || ap->ac_kind ==
		    DT_ACT_USTACK || ap->ac_kind == DT_ACT_JSTACK)
			return true;
		for (uint32_t i = 0; i < ap->ac_nargs; i++) {
			if (dt_difo_reads_context(ap->ac_args[i].aa_difo))
				return true;
		}
		for (uint32_t k = 0; k < ap->ac_nkeys; k++) {
			if (dt_difo_reads_context(ap->ac_keys[k]))
				return true;
		}
	}
	return false;
}

/* Can engine eng fire every probe of eps[0..n-1]? */
static bool
dt_engine_fires_all(const dt_engine_ops_t *eng, dt_eprobe_t *const *eps,
    size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const dt_probe_t *prp = eps[i]->ep_probe;
		const dt_profile_timer_t *pt = dt_prov_profile_timer(prp);

		if (!(prp->pr_prov->pv_engines & eng->eo_flag) ||
		    (pt != NULL && pt->pt_percpu))
			return false;
	}
	return true;
}

/*
 * Without the in-kernel engine, a profile-N probe would fire from dtrace's
 * own timers, on one CPU, with dtrace itself as the process it "caught":
 * samples of nothing.  Refuse it (or a tick reading what it interrupted)
 * with one line rather than let the interpreter pretend; 0 if no probe of
 * eps[0..n-1] is such.
 */
static int
dt_engine_needs_kernel(dtrace_hdl_t *dtp, dt_eprobe_t *const *eps, size_t n,
    const char *why)
{
	for (size_t i = 0; i < n; i++) {
		const dt_probe_t *prp = eps[i]->ep_probe;

		if (dt_prov_profile_timer(prp) == NULL ||
		    (!dt_probe_needs_kernel(prp) &&
		    !dt_stmt_reads_context(eps[i]->ep_stmt)))
			continue;
		return dt_set_errdetail(dtp, EDT_NOENGINE, "probe %s:%s:%s:%s "
		    "needs the in-kernel engine, which is not available: %s",
		    prp->pr_prov->pv_name, prp->pr_mod, prp->pr_func,
		    prp->pr_name, why);
	}
	return 0;
}

/*
 * The OS's first available engine of a kind (DT_ENGINE_F_KERNEL or
 * DT_ENGINE_F_USER), or NULL with *whyp saying why the first of that
 * kind cannot run here, or that the OS has none.
 */
static const dt_engine_ops_t *
dt_engine_of_kind(unsigned kind, const char **whyp)
{
	const char *why = NULL;

	for (const dt_os_engine_t *oe = dt_os_engines; oe->oe_name != NULL;
	    oe++) {
		const dt_engine_ops_t *eng;
		const char *w = "";

		if (oe->oe_kind != kind)
			continue;
		if ((eng = oe->oe_get(&w)) != NULL) {
			*whyp = "";
			return eng;
		}
		if (why == NULL)
			why = w;
	}
	if (why == NULL)
		why = kind == DT_ENGINE_F_KERNEL ? "this OS has no in-kernel "
		    "engine" : "this OS has no engine for user processes";
	*whyp = why;
	return NULL;
}

/*
 * Choose the engine.  -x engine=interp or the name of one of the OS's
 * engines forces one; otherwise the interpreter runs programs whose
 * probes it can fire itself (BEGIN, END, ticks), and the OS's in-kernel
 * engine everything else -- or, when that is not available, the OS's
 * engine for the user's own processes if it can fire every probe (pid
 * probes through breakpoints), which is said once
 * (dtrace_engine_notice()).  Engines are chosen by their kind, never by
 * their name.
 */
static int
dt_engine_select(dtrace_hdl_t *dtp, dt_eprobe_t *const *eps, size_t n)
{
	const dt_engine_ops_t *kernel, *user, *eng = &dt_interp_engine_ops;
	const char *why = "", *uwhy = "";
	dtrace_optval_t forced = dtp->dt_options[DT_OPT_ENGINE];
	bool need_kernel = false;

	for (size_t i = 0; i < n && !need_kernel; i++)
		need_kernel = dt_probe_needs_kernel(eps[i]->ep_probe) ||
		    dt_stmt_reads_kernel(eps[i]->ep_stmt) ||
		    (dt_prov_profile_timer(eps[i]->ep_probe) != NULL &&
		    dt_stmt_reads_context(eps[i]->ep_stmt) &&
		    dt_engine_os_has_kernel());
	/* Probes of a traced process may appear later (-Z, dlopen, exec). */
	if (dtp->dt_nprocs > 0 && dt_work_names_procs(dtp))
		need_kernel = true;
	kernel = dt_engine_of_kind(DT_ENGINE_F_KERNEL, &why);
	user = dt_engine_of_kind(DT_ENGINE_F_USER, &uwhy);
	/* (said where it matters: when no engine was asked for) */
	dtp->dt_kernel_why = kernel == NULL && forced == DT_ENGINE_AUTO ? why :
	    NULL;

	if (forced >= DT_ENGINE_OS) {
		const dt_os_engine_t *oe = &dt_os_engines[forced -
		    DT_ENGINE_OS];
		const char *w = "";

		if ((eng = oe->oe_get(&w)) == NULL)
			return dt_set_errdetail(dtp, EDT_NOENGINE,
			    "the %s engine is not available: %s", oe->oe_name,
			    w);
		/* What it cannot fire, the messages below say it cannot. */
		if (oe->oe_kind == DT_ENGINE_F_KERNEL)
			kernel = eng;
	} else if (forced == DT_ENGINE_AUTO) {
		if (need_kernel && kernel != NULL) {
			eng = kernel;
		} else if (need_kernel && user != NULL &&
		    dt_engine_fires_all(user, eps, n)) {
			eng = user;
			(void) snprintf(dtp->dt_engine_notice,
			    sizeof (dtp->dt_engine_notice), "tracing with %s: "
			    "%s", user->eo_name, why);
		} else if (need_kernel && kernel == NULL &&
		    dt_engine_needs_kernel(dtp, eps, n, why) != 0) {
			return -1;
		}
	}
	for (size_t i = 0; i < n; i++) {
		const dt_probe_t *prp = eps[i]->ep_probe;

		if (prp->pr_prov->pv_engines & eng->eo_flag)
			continue;
		if (kernel == NULL)
			return dt_set_errdetail(dtp, EDT_NOENGINE,
			    "probe %s:%s:%s:%s needs the in-kernel engine, "
			    "which is not available: %s",
			    prp->pr_prov->pv_name, prp->pr_mod, prp->pr_func,
			    prp->pr_name, why);
		return dt_set_errdetail(dtp, EDT_NOENGINE,
		    "probe %s:%s:%s:%s cannot run on the %s engine%s%s",
		    prp->pr_prov->pv_name, prp->pr_mod, prp->pr_func,
		    prp->pr_name, eng->eo_name,
		    prp->pr_prov->pv_ops->po_engines_why != NULL ? ": " : "",
		    prp->pr_prov->pv_ops->po_engines_why != NULL ?
		    prp->pr_prov->pv_ops->po_engines_why : "");
	}
	/* Kernel variables have no value elsewhere: refuse, do not fault. */
	for (size_t i = 0; i < n && eng != kernel; i++) {
		if (!eps[i]->ep_stmt->st_kmem)
			continue;
		if (kernel == NULL)
			return dt_set_errdetail(dtp, EDT_NOENGINE, "reading "
			    "kernel variables needs the in-kernel engine, "
			    "which is not available: %s", why);
		return dt_set_errdetail(dtp, EDT_NOENGINE, "the %s engine "
		    "cannot read kernel variables", eng->eo_name);
	}
	if (eng->eo_open(dtp) != 0)
		return -1;
	dtp->dt_engine = eng;
	return 0;
}

typedef struct dt_enable_arg {
	const dt_stmt_t *ea_stmt;
	dt_eprobe_t **ea_new;
	size_t ea_nnew;
	size_t ea_cap;
	uint32_t ea_old;	/* rematch: the EPIDs before it */
} dt_enable_arg_t;

static int
dt_enable_probe(dtrace_hdl_t *dtp, dt_probe_t *prp, void *arg)
{
	dt_enable_arg_t *ea = arg;
	dt_eprobe_t *ep;

	/*
	 * Each description of a clause enables it on the probes it matches,
	 * as DTrace makes one enabling per description: a probe two of them
	 * match runs the clause twice.
	 */
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
	ep->ep_prog = &dtp->dt_prog;
	dtp->dt_eprobes[ep->ep_epid] = ep;
	ea->ea_new[ea->ea_nnew++] = ep;
	return 0;
}

/* Merge the queued programs, give each (statement, probe) an EPID, and
 * hand them to the chosen engine. */
/*
 * As in DTrace, an enabling whose aggregation buffer could not hold even
 * one entry (the aggregation ID, the key, the value) of one of its
 * aggregations is refused rather than left to drop everything.
 */
static int
dt_work_checkbufs(dtrace_hdl_t *dtp)
{
	dtrace_optval_t aggsize = dtp->dt_options[DT_OPT_AGGSIZE];

	for (uint32_t i = 0; i < dtp->dt_prog.pg_naggs; i++) {
		uint64_t need = dt_agg_entsize(&dtp->dt_prog.pg_aggs[i]);

		if (aggsize >= 0 && (uint64_t) aggsize < need)
			return dt_set_errno(dtp, EDT_BUFTOOSMALL);
	}
	return 0;
}

static int
dt_enable_all(dtrace_hdl_t *dtp)
{
	dt_enable_arg_t ea = { 0 };
	int rc = 0;

	if (dt_merge_programs(dtp) != 0 || dt_work_checkbufs(dtp) != 0)
		return -1;
	/*
	 * As DTrace: a principal buffer too small for some record an
	 * enabling writes (bufsize=0, say) refuses tracing rather than drop
	 * every such record.
	 */
	for (uint32_t s = 0; s < dtp->dt_prog.pg_nstmts; s++) {
		if (dtp->dt_options[DT_OPT_BUFSIZE] <
		    (dtrace_optval_t) (sizeof (dt_rechdr_t) +
		    dtp->dt_prog.pg_stmts[s].st_size))
			return dt_set_errno(dtp, EDT_BUFTOOSMALL);
	}
	for (uint32_t s = 0; s < dtp->dt_prog.pg_nstmts && rc == 0; s++) {
		ea.ea_stmt = &dtp->dt_prog.pg_stmts[s];
		for (uint32_t d = 0; d < ea.ea_stmt->st_ndescs; d++) {
			if (dt_probe_iter(dtp, &ea.ea_stmt->st_descs[d],
				dt_enable_probe, &ea) < 0) {
				rc = -1;
				break;
			}
		}
	}
	if (rc == 0)
		rc = dt_engine_select(dtp, ea.ea_new, ea.ea_nnew);
	if (rc == 0)
		rc = dtp->dt_engine->eo_enable(dtp, ea.ea_new, ea.ea_nnew);
	free(ea.ea_new);
	return rc;
}

/* What the consumer knows of an enabled probe. */
static void
dt_work_cprobe(const dt_eprobe_t *ep, dt_cprobe_t *cp)
{
	cp->cp_epid = ep->ep_epid;
	cp->cp_id = ep->ep_probe->pr_id;
	cp->cp_stmt = ep->ep_stmt;
	cp->cp_provider = ep->ep_probe->pr_prov->pv_name;
	cp->cp_module = ep->ep_probe->pr_mod;
	cp->cp_function = ep->ep_probe->pr_func;
	cp->cp_name = ep->ep_probe->pr_name;
}

/*
 * The length of the name before the digits of a traced process (a -c/-p
 * process, or pid) that a provider name ends in, or 0.
 */
static size_t
dt_work_procprov(const dtrace_hdl_t *dtp, const char *prov, int pid)
{
	size_t n = strlen(prov), k = n;
	long v;

	while (k > 0 && isdigit((unsigned char) prov[k - 1]))
		k--;
	if (k == 0 || k == n || n - k > 9 || prov[k] == '0')
		return 0;
	v = strtol(prov + k, NULL, 10);
	if (v == pid)
		return k;
	for (uint32_t i = 0; i < dtp->dt_nprocs; i++) {
		if (dt_proc_pid(dtp, i) == v)
			return k;
	}
	return 0;
}

bool
dt_work_names_procs(const dtrace_hdl_t *dtp)
{
	for (uint32_t s = 0; s < dtp->dt_prog.pg_nstmts; s++) {
		const dt_stmt_t *stp = &dtp->dt_prog.pg_stmts[s];

		for (uint32_t d = 0; d < stp->st_ndescs; d++) {
			if (dt_work_procprov(dtp, stp->st_descs[d].pd_provider,
			    0) > 0)
				return true;
		}
	}
	return false;
}

/* dt_enable_probe(), for a probe this clause had not enabled before. */
static int
dt_rematch_probe(dtrace_hdl_t *dtp, dt_probe_t *prp, void *arg)
{
	dt_enable_arg_t *ea = arg;

	for (uint32_t i = 1; i <= ea->ea_old; i++) {
		if (dtp->dt_eprobes[i]->ep_probe == prp &&
		    dtp->dt_eprobes[i]->ep_stmt == ea->ea_stmt)
			return 0;
	}
	return dt_enable_probe(dtp, prp, arg);
}

int
dt_work_rematch(dtrace_hdl_t *dtp, int pid)
{
	dt_enable_arg_t ea = { 0 };
	dt_cprobe_t *cps = NULL;
	int rc = 0;

	ea.ea_old = dtp->dt_neprobes;
	for (uint32_t s = 0; s < dtp->dt_prog.pg_nstmts && rc == 0; s++) {
		ea.ea_stmt = &dtp->dt_prog.pg_stmts[s];
		for (uint32_t d = 0; d < ea.ea_stmt->st_ndescs; d++) {
			dt_probedesc_t pd = ea.ea_stmt->st_descs[d];
			size_t k = dt_work_procprov(dtp, pd.pd_provider, pid);

			if (k == 0)
				continue;
			(void) snprintf(pd.pd_provider + k,
			    sizeof (pd.pd_provider) - k, "%d", pid);
			if (dt_probe_iter(dtp, &pd, dt_rematch_probe, &ea) <
			    0) {
				rc = -1;
				break;
			}
		}
	}
	if (rc == 0 && ea.ea_nnew > 0 &&
	    (cps = calloc(ea.ea_nnew, sizeof (*cps))) == NULL)
		rc = dt_set_errno(dtp, EDT_NOMEM);
	for (size_t i = 0; rc == 0 && i < ea.ea_nnew; i++)
		dt_work_cprobe(ea.ea_new[i], &cps[i]);
	if (rc == 0 && ea.ea_nnew > 0)
		rc = dt_consume_addprobes(dtp, cps, (uint32_t) ea.ea_nnew);
	if (rc == 0 && ea.ea_nnew > 0)
		rc = dtp->dt_engine->eo_enable(dtp, ea.ea_new, ea.ea_nnew);
	free(cps);
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
	for (uint32_t i = 0; i < dtp->dt_nqueued; i++)
		dt_program_free(dtp->dt_queued[i]);
	free(dtp->dt_queued);
	dtp->dt_queued = NULL;
	dtp->dt_nqueued = 0;
	free(dtp->dt_prog.pg_stmts);
	free(dtp->dt_prog.pg_aggs);
	memset(&dtp->dt_prog, 0, sizeof (dtp->dt_prog));
	for (uint32_t i = 1; i <= dtp->dt_neprobes; i++)
		free(dtp->dt_eprobes[i]);
	free(dtp->dt_eprobes);
	dtp->dt_eprobes = NULL;
	dtp->dt_neprobes = dtp->dt_eprobes_cap = 0;
}

/* clear() or trunc(): the engine's keys of aggid back to the consumer. */
static int
dt_work_aggtake(dtrace_hdl_t *dtp, uint32_t aggid, void *arg)
{
	dt_aggsnap_t *snaps;
	uint32_t n;
	int rc;

	(void) arg;
	if (dtp->dt_engine->eo_aggtake(dtp, aggid, &snaps, &n) != 0)
		return -1;
	rc = dt_consume_aggtaken(dtp, snaps, n);
	dtp->dt_engine->eo_aggsnap_free(dtp, snaps, n);
	return rc;
}

static int dt_work_aggsnap(dtrace_hdl_t *dtp);

static int
dt_work_aggrefresh(dtrace_hdl_t *dtp, void *arg)
{
	(void) arg;
	return dt_work_aggsnap(dtp);
}

/* Tell the consumer about every enabled probe, before records arrive. */
static int
dt_work_consume_setup(dtrace_hdl_t *dtp)
{
	dt_cprobe_t *cps;
	int rc;

	/*
	 * With none enabled yet (-Z), the consumer is still set up when
	 * probes of a -c/-p process may come later (a dlopen()ed library's,
	 * an exec'd program's): their records need the program.
	 */
	if (dtp->dt_neprobes == 0 &&
	    !(dtp->dt_nprocs > 0 && dt_work_names_procs(dtp)))
		return 0;
	if ((cps = calloc(dtp->dt_neprobes + 1, sizeof (*cps))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	for (uint32_t i = 0; i < dtp->dt_neprobes; i++)
		dt_work_cprobe(dtp->dt_eprobes[i + 1], &cps[i]);
	rc = dt_consume_setup(dtp, &dtp->dt_prog, cps, dtp->dt_neprobes);
	free(cps);
	dt_consume_setaggtake(dtp, dt_work_aggtake, NULL);
	dt_consume_setaggrefresh(dtp, dt_work_aggrefresh, NULL);
	return rc;
}

int
dtrace_output_file(dtrace_hdl_t *dtp, const char *path)
{
	char *copy = NULL;

	if (path != NULL && (copy = strdup(path)) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	free(dtp->dt_outfile);
	dtp->dt_outfile = copy;
	return 0;
}

bool
dtrace_output_is_files(dtrace_hdl_t *dtp)
{
	return dtp->dt_options[DT_OPT_OFORMAT] == DT_OFORMAT_PPROF;
}

const char *
dtrace_engine_notice(dtrace_hdl_t *dtp)
{
	return dtp->dt_engine_notice[0] != '\0' ? dtp->dt_engine_notice : NULL;
}

/*
 * The directory the files of -x oformat=pprof go to must take them: a
 * run of an hour is not to end in "cannot write".
 */
static int
dt_work_outdir(dtrace_hdl_t *dtp)
{
	const char *file = dtp->dt_outfile, *slash;
	char *dir;
	int rc;

	if (file == NULL)
		return dt_set_errdetail(dtp, EDT_BADOPTVAL,
		    "-x oformat=pprof writes each profile to a file: name it "
		    "with -o FILE");
	slash = strrchr(file, '/');
	if (slash == NULL)
		dir = strdup(".");
	else if (slash == file)
		dir = strdup("/");
	else
		dir = strndup(file, (size_t) (slash - file));
	if (dir == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	if ((rc = access(dir, W_OK | X_OK)) != 0) {
		int err = errno;

		rc = dt_set_errdetail(dtp, err,
		    "-o %s: cannot write profiles in %s: %s", file, dir,
		    strerror(err));
	}
	free(dir);
	return rc;
}

int
dtrace_go(dtrace_hdl_t *dtp)
{
	int rc;

	if (dtp->dt_active)
		return dt_set_errno(dtp, EDT_ACTIVE);
	/*
	 * Destructive actions (stop, raise, copyout, system, chill...) need
	 * -w or the destructive option, whichever program set it: as in
	 * DTrace, tracing is refused whole when it starts, before any probe
	 * is enabled.
	 */
	for (uint32_t i = 0; i < dtp->dt_nqueued; i++) {
		const dt_program_t *pgp = dtp->dt_queued[i];

		for (uint32_t s = 0; s < pgp->pg_nstmts; s++) {
			if (pgp->pg_stmts[s].st_destructive &&
			    dtp->dt_options[DT_OPT_DESTRUCTIVE] ==
			    DTRACEOPT_UNSET)
				return dt_set_errno(dtp, EDT_DESTRUCTIVE);
		}
	}
	/*
	 * Profiles are files of their own, named after -o's: refused here,
	 * once, rather than at the first printa().
	 */
	if (dtp->dt_options[DT_OPT_OFORMAT] == DT_OFORMAT_PPROF &&
	    dt_work_outdir(dtp) != 0)
		return -1;
	if (dt_enable_all(dtp) != 0)
		return -1;
	if (dt_work_consume_setup(dtp) != 0)
		return -1;
	/*
	 * -x cpu: only that CPU traces (every clause's predicate asks for
	 * it), and BEGIN fires there, from this thread run there.
	 */
	if (dtp->dt_options[DT_OPT_CPU] != DTRACEOPT_UNSET &&
	    (dtp->dt_options[DT_OPT_CPU] >= (dtrace_optval_t) dt_os_ncpus() ||
		dt_os_cpu_bind((uint32_t) dtp->dt_options[DT_OPT_CPU]) != 0))
		return dt_set_errdetail(dtp, EDT_BADOPTVAL,
		    "-x cpu: no CPU "
		    "%lld",
		    (long long) dtp->dt_options[DT_OPT_CPU]);
	/* Before any probe is enabled: a port in use stops nothing. */
	if (dt_metrics_start(dtp) != 0)
		return -1;
	dtp->dt_active = true;
	rc = dtp->dt_engine->eo_go(dtp);
	dt_os_cpu_unbind();
	if (rc != 0) {
		/* The in-kernel engine says why in its own words. */
		const char *why = dtp->dt_engine != &dt_interp_engine_ops ?
		    dt_os_engine_detail(dtp) : NULL;

		if (why != NULL && why[0] != '\0' &&
		    dtp->dt_errdetail[0] == '\0')
			return dt_set_errdetail(dtp, dtp->dt_errno, "%s", why);
		return -1;
	}
	dt_metrics_publish(dtp);
	return 0;
}

int
dtrace_stop(dtrace_hdl_t *dtp)
{
	int rc;

	if (!dtp->dt_active || dtp->dt_stopped)
		return 0;
	dtp->dt_stopped = true;
	/* -x cpu: END fires on the traced CPU too. */
	if (dtp->dt_options[DT_OPT_CPU] != DTRACEOPT_UNSET)
		(void) dt_os_cpu_bind((uint32_t) dtp->dt_options[DT_OPT_CPU]);
	rc = dtp->dt_engine->eo_stop(dtp);
	dt_os_cpu_unbind();
	return rc;
}

/*
 * After exit(), nothing more is traced, and END waits for the next status
 * check (dtrace_work): sleep until it is due rather than spin.
 */
static void
dt_work_status_wait(dtrace_hdl_t *dtp)
{
	uint64_t now = dt_os_timestamp();
	uint64_t due = dtp->dt_laststatus +
	    (uint64_t) dtp->dt_options[DT_OPT_STATUSRATE];
	struct timespec ts;

	if (dtp->dt_laststatus == 0 || now >= due)
		return;
	ts.tv_sec = (time_t) ((due - now) / 1000000000ULL);
	ts.tv_nsec = (long) ((due - now) % 1000000000ULL);
	(void) nanosleep(&ts, NULL);
}

void
dtrace_sleep(dtrace_hdl_t *dtp)
{
	int64_t wait = dtp->dt_options[DT_OPT_SWITCHRATE];

	if (dtp->dt_options[DT_OPT_STATUSRATE] < wait)
		wait = dtp->dt_options[DT_OPT_STATUSRATE];
	/* Notice soon that a process of -c or -p has ended. */
	if (dt_proc_nlive(dtp) > 0 && wait > DT_PROC_POLL_NS)
		wait = DT_PROC_POLL_NS;
	if (dtp->dt_engine != NULL && dtp->dt_active && !dtp->dt_exited)
		(void) dtp->dt_engine->eo_poll(dtp, wait);
	else if (dtp->dt_engine != NULL && dtp->dt_active &&
	    !dtp->dt_stopped)
		dt_work_status_wait(dtp);
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

/*
 * Is a new aggregation snapshot due (aggrate)?  DTrace drains the
 * buffers every switchrate and refreshes its copy of the aggregations
 * before a drain when aggrate has passed since the last refresh; with an
 * aggrate no longer than the switchrate, then, every drain sees a fresh
 * copy.  This consumer drains as soon as records arrive, so it refreshes
 * every time in that case, and every aggrate otherwise.
 */
static bool
dt_work_aggeach(dtrace_hdl_t *dtp)
{
	return dtp->dt_stopped || dtp->dt_options[DT_OPT_AGGRATE] <= 0 ||
	    dtp->dt_options[DT_OPT_AGGRATE] <=
	    dtp->dt_options[DT_OPT_SWITCHRATE];
}

static bool
dt_work_aggrate(dtrace_hdl_t *dtp)
{
	uint64_t now = dt_os_timestamp();
	uint64_t rate = (uint64_t) dtp->dt_options[DT_OPT_AGGRATE];

	if (dt_work_aggeach(dtp))
		return true;
	if (dtp->dt_lastagg == 0) {
		dtp->dt_lastagg = now;
		return true;
	}
	if (now - dtp->dt_lastagg < rate)
		return false;
	/* Keep the cadence, but do not run to catch up after a pause. */
	dtp->dt_lastagg += rate;
	if (now - dtp->dt_lastagg >= rate)
		dtp->dt_lastagg = now;
	return true;
}

/*
 * Report what the engine dropped since the last report: per-CPU drops
 * of each kind at most once a statusrate, as DTrace does (the counts add
 * up meanwhile: a buffer overflowing at every drain is one line a CPU a
 * second, not hundreds), and at the end; the other counters every
 * statusrate and at the end.
 */
static int
dt_work_cpudrops(dtrace_hdl_t *dtp, bool agg)
{
	uint32_t n = dt_os_ncpus();
	uint64_t now = dt_os_timestamp();
	uint64_t *drops;
	int rc;

	if (dtp->dt_engine->eo_cpudrops == NULL)
		return 0;
	if (!dtp->dt_stopped && dtp->dt_lastdrops[agg] != 0 &&
	    now - dtp->dt_lastdrops[agg] <
	    (uint64_t) dtp->dt_options[DT_OPT_STATUSRATE])
		return 0;
	dtp->dt_lastdrops[agg] = now;
	if (n > DT_ENGINE_MAXCPUS)
		n = DT_ENGINE_MAXCPUS;
	if ((drops = calloc(2 * (size_t) n, sizeof (*drops))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	dtp->dt_engine->eo_cpudrops(dtp, drops, drops + n, n);
	rc = dt_consume_cpudrops(dtp, agg ? drops + n : drops, n, agg);
	free(drops);
	return rc;
}

/*
 * The status check, every statusrate (or now, if forced): report what the
 * engine counted.  *ranp says whether it was due; as in DTrace, it is this
 * check that notices exit() or a full fill buffer, so END fires at the
 * first check after them.
 */
static int
dt_work_status(dtrace_hdl_t *dtp, bool force, bool *ranp)
{
	uint64_t now = dt_os_timestamp();
	dt_engine_status_t st;

	*ranp = false;
	if (!force && dtp->dt_laststatus != 0 && now - dtp->dt_laststatus <
	    (uint64_t) dtp->dt_options[DT_OPT_STATUSRATE])
		return 0;
	*ranp = true;
	dtp->dt_laststatus = now;
	memset(&st, 0, sizeof (st));
	dtp->dt_engine->eo_status(dtp, &st);
	return dt_consume_status(dtp, &st);
}

/* A CPU's buffer of a drain, kept until every CPU's has been scanned. */
typedef struct dt_work_chunk {
	uint32_t wc_cpu;
	size_t wc_len;
	unsigned char *wc_buf;
} dt_work_chunk_t;

typedef struct dt_work_arg {
	FILE *wa_fp;
	int wa_rc;
	bool wa_keep;		/* the program speculates: keep the chunks */
	dt_work_chunk_t *wa_chunks;
	uint32_t wa_nchunks;
} dt_work_arg_t;

static int
dt_work_consume(dtrace_hdl_t *dtp, uint32_t cpu, const void *buf, size_t len,
    dt_work_arg_t *wa)
{
	int rc = dt_consume_buf(dtp, wa->wa_fp, cpu, buf, len);

	if (rc < 0) {
		wa->wa_rc = -1;
	} else if (rc == DT_CONSUME_EXIT) {
		/* The consumer's status: the first exit()'s, or END's. */
		dtp->dt_exited = dtp->dt_exitrec = true;
		dtp->dt_exitstatus = dt_consume_exitstatus(dtp);
	}
	return 0;
}

static int
dt_work_drain(dtrace_hdl_t *dtp, uint32_t cpu, const void *buf, size_t len,
    void *arg)
{
	dt_work_arg_t *wa = arg;
	dt_work_chunk_t *c;

	if (!wa->wa_keep)
		return dt_work_consume(dtp, cpu, buf, len, wa);
	c = realloc(wa->wa_chunks, (wa->wa_nchunks + 1) * sizeof (*c));
	if (c == NULL || (c[wa->wa_nchunks].wc_buf = malloc(len + 1)) == NULL) {
		if (c != NULL)
			wa->wa_chunks = c;
		wa->wa_rc = dt_set_errno(dtp, EDT_NOMEM);
		return 0;
	}
	wa->wa_chunks = c;
	c += wa->wa_nchunks++;
	c->wc_cpu = cpu;
	c->wc_len = len;
	memcpy(c->wc_buf, buf, len);
	return 0;
}

/*
 * The drain's buffers of a program that speculates, kept by
 * dt_work_drain(): every commit() and discard() among them is noted
 * before any is consumed (dt_consume_spec_scan()).
 */
static void
dt_work_consume_kept(dtrace_hdl_t *dtp, dt_work_arg_t *wa)
{
	for (uint32_t i = 0; i < wa->wa_nchunks && wa->wa_rc == 0; i++) {
		if (dt_consume_spec_scan(dtp, wa->wa_chunks[i].wc_cpu,
		    wa->wa_chunks[i].wc_buf, wa->wa_chunks[i].wc_len) != 0)
			wa->wa_rc = -1;
	}
	for (uint32_t i = 0; i < wa->wa_nchunks; i++) {
		if (wa->wa_rc == 0)
			(void) dt_work_consume(dtp, wa->wa_chunks[i].wc_cpu,
			    wa->wa_chunks[i].wc_buf, wa->wa_chunks[i].wc_len,
			    wa);
		free(wa->wa_chunks[i].wc_buf);
	}
	free(wa->wa_chunks);
}

/* Does a clause of the program speculate? */
static bool
dt_work_speculates(const dtrace_hdl_t *dtp)
{
	for (uint32_t s = 0; s < dtp->dt_prog.pg_nstmts; s++) {
		if (dtp->dt_prog.pg_stmts[s].st_speculative)
			return true;
	}
	return false;
}

/*
 * Does a clause read the aggregations while tracing runs (printa(),
 * clear(), trunc()), or -x metrics publish them?  If not, the consumer's
 * copy is needed only at the end (dtrace_aggregate_print()), and no
 * snapshot is taken before: one costs time in proportion to the keys.
 */
static bool
dt_work_reads_aggs(dtrace_hdl_t *dtp)
{
	const dt_program_t *pgp = &dtp->dt_prog;

	if (dtp->dt_metrics != NULL)
		return true;
	for (uint32_t s = 0; pgp->pg_naggs > 0 && s < pgp->pg_nstmts; s++) {
		const dt_stmt_t *st = &pgp->pg_stmts[s];

		for (uint32_t a = 0; a < st->st_nactions; a++) {
			dt_actkind_t k = st->st_actions[a].ac_kind;

			if (k == DT_ACT_PRINTA || k == DT_ACT_CLEAR ||
			    k == DT_ACT_TRUNC)
				return true;
		}
	}
	return false;
}

/* Drain every buffer into the consumer. */
static int
dt_work_drain_all(dtrace_hdl_t *dtp, FILE *fp)
{
	dt_work_arg_t wa = { fp, 0, dt_work_speculates(dtp), NULL, 0 };

	/*
	 * printa() in the records prints the consumer's copy of the
	 * aggregations.  As in DTrace, while tracing runs that copy is
	 * refreshed at most every aggrate; once tracing has stopped it is
	 * refreshed every time, so what END prints is complete.  When every
	 * drain is to see a fresh copy, it is taken when a record of the
	 * drain first reads it: drains come far more often than DTrace's
	 * (at every record, and every 50 ms while a process is traced), and
	 * most read nothing.
	 */
	if (dt_work_aggrate(dtp) && dt_work_reads_aggs(dtp)) {
		/* -x metrics publishes the aggregations after every drain. */
		if (dt_work_aggeach(dtp) && dtp->dt_metrics == NULL)
			dt_consume_aggstale(dtp);
		else if (dt_work_aggsnap(dtp) != 0)
			return -1;
	}
	if (dt_work_cpudrops(dtp, true) != 0)
		return -1;
	if (dtp->dt_engine->eo_drain(dtp, dt_work_drain, &wa) != 0) {
		wa.wa_rc = -1;	/* the kept chunks are freed unread */
		dt_work_consume_kept(dtp, &wa);
		return -1;
	}
	dt_work_consume_kept(dtp, &wa);
	/* What the drain did (clear(), trunc()) shows in the next scrape. */
	dt_metrics_publish(dtp);
	dt_consume_drained(dtp);
	if (dt_work_cpudrops(dtp, false) != 0)
		return -1;
	return wa.wa_rc;
}

dtrace_workstatus_t
dtrace_work(dtrace_hdl_t *dtp, FILE *fp)
{
	bool due, ran;

	if (dtp->dt_engine == NULL || !dtp->dt_active)
		return DTRACE_WORKSTATUS_DONE;
	if (dt_work_status(dtp, false, &due) != 0 ||
	    dt_work_drain_all(dtp, fp) != 0)
		return DTRACE_WORKSTATUS_ERROR;
	/*
	 * exit() ran but its record was dropped (a full buffer): end all
	 * the same, with status 0 unless the record turns up in the last
	 * drain, rather than trace for ever.
	 */
	if (!dtp->dt_exited && !dtp->dt_stopped) {
		dt_engine_status_t st;

		memset(&st, 0, sizeof (st));
		dtp->dt_engine->eo_status(dtp, &st);
		dtp->dt_exited = st.es_exited;
	}
	/*
	 * After exit(), tracing stops: END fires, and what it records is
	 * printed now, as the last output of the run.
	 */
	if ((dtp->dt_exited || dt_consume_filled(dtp)) && !dtp->dt_stopped &&
	    due) {
		if (dtrace_stop(dtp) != 0 || dt_work_drain_all(dtp, fp) != 0)
			return DTRACE_WORKSTATUS_ERROR;
	}
	if (dtp->dt_stopped) {
		/* What ring buffers kept; what END and the last drain counted. */
		if (dt_consume_ring(dtp, fp) != 0 ||
		    dt_work_status(dtp, true, &ran) != 0)
			return DTRACE_WORKSTATUS_ERROR;
		return DTRACE_WORKSTATUS_DONE;
	}
	return DTRACE_WORKSTATUS_OKAY;
}

int
dtrace_aggregate_print(dtrace_hdl_t *dtp, FILE *fp)
{
	if (dtp->dt_engine == NULL || !dtp->dt_active)
		return 0;
	if (dt_work_aggsnap(dtp) != 0)
		return -1;
	dt_metrics_publish(dtp);
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
