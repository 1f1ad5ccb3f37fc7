/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_mech_uprobe.c: the mechanism of pid and USDT probes -- a
 * kprobe-type program attached as a uprobe at each site of the probe,
 * for its process only (with -x followfork, for every process of the set
 * that the fork program extends), or, where the kernel has uprobe_multi
 * links, one program for a group of probes of one process image that
 * finds its probe by the uprobe's cookie (dt_bpf_uprobes.c places them).
 * pid* probes are placed the same way with no process filter: they fire
 * in every process that maps the file, whenever it maps it.
 * These probes may be enabled while tracing, when a traced process loads
 * a library or execs, and their programs unwind the user stack with the
 * process's own rows.
 */
#include <stdlib.h>
#include <unistd.h>

#include "common/dt_impl.h"
#include "os/linux/bpf/dt_bpf_attach.h"
#include "os/linux/bpf/dt_bpf_engine_impl.h"
#include "os/linux/bpf/dt_bpf_mech.h"
#include "os/linux/bpf/dt_bpf_uprobes.h"
#include "os/linux/prov/dt_linux_prov.h"

/*
 * A pid* return probe needs uprobe_multi links: their cookies say which
 * site fired (dt_bpf_uprobe_spec()), which the program cannot tell from
 * the address in a process it knows nothing of.
 */
static dt_linux_feature_t
dt_bpf_uprobe_feature(const dt_probe_t *prp)
{
	const dt_pid_probe_t *pi = dt_prov_pid_info(prp);

	return pi->pi_pid < 0 && pi->pi_kind == DT_PID_RETURN ?
	    DT_LF_UPROBE_MULTI : DT_LF_UPROBE;
}

/*
 * The plan of pid probe prp: a group not built yet of its process image
 * and kind, where the kernel has uprobe_multi links and the probe's
 * sites need nothing of their own (USDT arguments and semaphores, a
 * return's conditional tail calls); else a plan of its own -- for a pid*
 * return with conditional tail calls, a group of one, whose cookies say
 * which site fired.
 */
static dt_bpf_plan_t *
dt_bpf_uprobe_plan(dtrace_hdl_t *dtp, dt_bpf_engine_t *be, dt_probe_t *prp)
{
	const dt_pid_probe_t *pi = dt_prov_pid_info(prp);
	dt_bpf_plan_t *pl;

	be->be_follow |= dtp->dt_options[DT_OPT_FOLLOWFORK] != DTRACEOPT_UNSET;
	if (pi->pi_kind == DT_PID_USDT || (pi->pi_conds != NULL &&
	    pi->pi_pid > 0) || !dt_linux_feature(DT_LF_UPROBE_MULTI))
		return dt_bpf_plan_new(be, &dt_bpf_mech_uprobe);
	for (uint32_t i = 0; pi->pi_conds == NULL && i < be->be_nplans; i++) {
		const dt_pid_probe_t *q;

		pl = &be->be_plans[i];
		if (!pl->pl_group || pl->pl_fd >= 0)
			continue;
		q = dt_prov_pid_info(pl->pl_probes[0]);
		if (q->pi_pid == pi->pi_pid && q->pi_gen == pi->pi_gen &&
		    q->pi_kind == pi->pi_kind && q->pi_conds == NULL)
			return pl;
	}
	if ((pl = dt_bpf_plan_new(be, &dt_bpf_mech_uprobe)) != NULL)
		pl->pl_group = pl->pl_table = true;
	return pl;
}

/*
 * A group's table, keyed by the uprobe's cookie (the probe's index): all
 * argument registers, or a return's offset and value; the function.
 */
static uint32_t
dt_bpf_uprobe_tabent(const dt_bpf_plan_t *pl, uint32_t p, dt_bpf_ptab_t *pt)
{
	const dt_pid_probe_t *pi = dt_prov_pid_info(pl->pl_probes[p]);

	pt->pt_nargs = pi->pi_kind == DT_PID_RETURN ? 2 : 6;
	pt->pt_ufunc = pi->pi_func;
	return p;
}

/* The conditional return sites of a pid return probe, for the program. */
static int
dt_bpf_uconds(const dt_pid_probe_t *pi, dt_bpf_progspec_t *ps)
{
	uint64_t *pcs = calloc(pi->pi_nsites, sizeof (*pcs));
	uint16_t *conds = calloc(pi->pi_nsites, sizeof (*conds));
	size_t n = 0;

	if (pcs == NULL || conds == NULL) {
		free(pcs);
		free(conds);
		return -1;
	}
	for (size_t i = 0; i < pi->pi_nsites; i++) {
		if (pi->pi_conds[i] == 0)
			continue;
		/* pid*: the site's offset in the function (the cookie's) */
		pcs[n] = pi->pi_pid < 0 ? pi->pi_sites[i] - (pi->pi_func -
		    pi->pi_base) : pi->pi_base + pi->pi_sites[i];
		conds[n++] = pi->pi_conds[i];
	}
	ps->ps_ucondpc = pcs;
	ps->ps_uconds = conds;
	ps->ps_nuconds = n;
	return 0;
}

/* USDT: each site's runtime address and its argument operands. */
static int
dt_bpf_usdt_spec(const dt_pid_probe_t *pi, dt_bpf_progspec_t *ps)
{
	uint64_t *usites = calloc(pi->pi_nsites, sizeof (*usites));

	if (usites == NULL)
		return -1;
	for (size_t i = 0; i < pi->pi_nsites; i++)
		usites[i] = pi->pi_func + pi->pi_sites[i];
	ps->ps_ctx = DT_BPF_CTX_USDT;
	ps->ps_nargs = dt_usdt_nargs(pi);
	ps->ps_usites = usites;
	ps->ps_uargs = pi->pi_args;
	ps->ps_nusites = pi->pi_nsites;
	return 0;
}

static int
dt_bpf_uprobe_spec(dtrace_hdl_t *dtp, dt_bpf_engine_t *be, dt_bpf_plan_t *pl,
    dt_bpf_build_t *bb)
{
	const dt_pid_probe_t *pi = dt_prov_pid_info(pl->pl_probes[0]);
	dt_bpf_progspec_t *ps = &bb->bb_ps;

	ps->ps_ctx = pi->pi_kind == DT_PID_RETURN ? DT_BPF_CTX_URETURN :
	    DT_BPF_CTX_UPROBE;
	ps->ps_nargs = pi->pi_kind == DT_PID_RETURN ? 2 : 6;
	/* pid* (pi_pid -1): every process, none in particular. */
	ps->ps_upid = pi->pi_pid > 0 ? (uint32_t) pi->pi_pid : 0;
	ps->ps_ugen = pi->pi_gen;
	ps->ps_ufollow = be->be_follow && pi->pi_pid > 0;
	ps->ps_ufunc = pi->pi_func;
	ps->ps_uatret = pi->pi_kind == DT_PID_ENTRY ||
	    pi->pi_kind == DT_PID_RETURN ||
	    (pi->pi_kind == DT_PID_OFFSET && pi->pi_atcall);
	if (pi->pi_pid > 0 && dt_bpf_wants_ustack(be, pl))
		dt_bpf_ucfi(dtp, be, pi->pi_pid, ps);
	if (pi->pi_kind == DT_PID_RETURN && pi->pi_conds != NULL &&
	    dt_bpf_uconds(pi, ps) != 0)
		return dt_set_errno(dtp, EDT_NOMEM);
	bb->bb_type = BPF_PROG_TYPE_KPROBE;
	if (pl->pl_group) {
		ps->ps_table_cookie = true;
		/*
		 * pid*: the function's address differs from process to
		 * process, so the cookie carries the site's offset in it
		 * for a return's arg0 (dt_bpf_uattach_group()).
		 */
		ps->ps_ucookieoff = pi->pi_pid < 0 &&
		    pi->pi_kind == DT_PID_RETURN;
		bb->bb_tg.tg_type =
		    (enum bpf_attach_type) DT_BPF_TRACE_UPROBE_MULTI;
		bb->bb_tgp = &bb->bb_tg;
	}
	if (pi->pi_kind == DT_PID_USDT && dt_bpf_usdt_spec(pi, ps) != 0)
		return dt_set_errno(dtp, EDT_NOMEM);
	return 0;
}

static void
dt_bpf_uprobe_unspec(dt_bpf_build_t *bb)
{
	free((void *) bb->bb_ps.ps_usites);
	free((void *) bb->bb_ps.ps_ucondpc);
	free((void *) bb->bb_ps.ps_uconds);
}

/* A group: one uprobe_multi link per file of the image. */
static int
dt_bpf_uprobe_group(dtrace_hdl_t *dtp, dt_bpf_engine_t *be, dt_bpf_plan_t *pl)
{
	const dt_pid_probe_t *pi = dt_prov_pid_info(pl->pl_probes[0]);
	dt_bpf_ugroup_t ug = {
		.ug_prog_fd = pl->pl_fd,
		.ug_probes = (const dt_probe_t *const *) pl->pl_probes,
		.ug_nprobes = pl->pl_nprobes,
		.ug_pid = be->be_follow ? -1 : pi->pi_pid,
		.ug_siteoff = pi->pi_pid < 0 && pi->pi_kind == DT_PID_RETURN,
	};
	int rc = dt_bpf_uattach_group(&ug);

	for (uint32_t i = 0; i < ug.ug_nlinks; i++) {
		if (dt_bpf_addlink(pl, ug.ug_links[i]) != 0)
			rc = -1;
	}
	free(ug.ug_links);
	be->be_usites += ug.ug_placed;
	be->be_urefused += ug.ug_refused;
	if (rc != 0)
		return dt_bpf_fail(dtp, EDT_NOTSUP, "%s", ug.ug_err);
	return 0;
}

/*
 * A uprobe per site; a site the kernel refuses for its instruction is
 * skipped (dt_bpf_urefused()).
 */
static int
dt_bpf_uprobe_attach(dtrace_hdl_t *dtp, dt_bpf_engine_t *be,
    dt_bpf_plan_t *pl)
{
	const dt_probe_t *prp = pl->pl_probes[0];
	const dt_pid_probe_t *pi = dt_prov_pid_info(prp);
	int fd, ufd = -1;

	if (pl->pl_group)
		return dt_bpf_uprobe_group(dtp, be, pl);
	for (size_t i = 0; i < pi->pi_nsites; i++) {
		uint64_t sema = pi->pi_semas != NULL ? pi->pi_semas[i] : 0;

		/* Children are not known yet: every process. */
		fd = dt_bpf_usite_unsafe(pi->pi_path, pi->pi_sites[i], &ufd) ?
		    -1 : dt_bpf_attach_uprobe(pl->pl_fd, pi->pi_path,
		    pi->pi_sites[i], be->be_follow ? -1 : pi->pi_pid, 0, sema);
		if (fd < 0 && dt_bpf_urefused(prp, pi, i)) {
			be->be_urefused++;
			continue;
		}
		if (fd < 0 || dt_bpf_addlink(pl, fd) != 0) {
			if (ufd >= 0)
				(void) close(ufd);
			return dt_bpf_attach_fail(dtp, pl);
		}
		be->be_usites++;
	}
	if (ufd >= 0)
		(void) close(ufd);
	return 0;
}

static int
dt_bpf_uprobe_pid(const dt_probe_t *prp)
{
	int pid = dt_prov_pid_info(prp)->pi_pid;

	return pid > 0 ? pid : 0;	/* pid*: no process to follow */
}

const dt_bpf_mech_t dt_bpf_mech_uprobe = {
	.bm_name = DT_MECH_USITE,
	.bm_feature = dt_bpf_uprobe_feature,
	.bm_plan = dt_bpf_uprobe_plan,
	.bm_tabent = dt_bpf_uprobe_tabent,
	.bm_spec = dt_bpf_uprobe_spec,
	.bm_unspec = dt_bpf_uprobe_unspec,
	.bm_attach = dt_bpf_uprobe_attach,
	.bm_pid = dt_bpf_uprobe_pid,
	.bm_late = true,
	.bm_user = true,
};
