/* SPDX-License-Identifier: MIT */
/*
 * dt_proc.c: the processes a consumer traces (-c, -p).
 *
 * The handle keeps one entry per process: its pid, whether we created it
 * (then it is our child, stopped until dtrace_proc_continue(), and killed
 * at dtrace_close() if still running, as DTrace does) and whether it has
 * ended.  The OS backend does the work (dt_os.h).  The first process
 * gives $target its value.
 */
#include <stdlib.h>

#include "common/dt_impl.h"
#include "common/dt_os.h"
#include "common/probe/dt_probe.h"

typedef struct dt_proc {
	int dp_pid;
	bool dp_created;
	bool dp_resumed;
	bool dp_ended;
} dt_proc_t;

static int
dt_proc_add(dtrace_hdl_t *dtp, int pid, bool created)
{
	dt_proc_t *p = realloc(dtp->dt_procs, (dtp->dt_nprocs + 1) *
	    sizeof (*p));

	if (p == NULL) {
		if (created)
			dt_os_proc_kill(pid);
		return dt_set_errno(dtp, EDT_NOMEM);
	}
	dtp->dt_procs = p;
	p += dtp->dt_nprocs++;
	p->dp_pid = pid;
	p->dp_created = created;
	p->dp_resumed = !created;
	p->dp_ended = false;
	if (dtp->dt_nprocs == 1)
		dtrace_set_target(dtp, pid);
	/* Its stacks print symbolically even once it has exited. */
	dt_os_usym_hold(pid);
	return 0;
}

int
dt_proc_target(const dtrace_hdl_t *dtp)
{
	return dtp->dt_nprocs > 0 ? dtp->dt_procs[0].dp_pid : 0;
}

int
dtrace_proc_create(dtrace_hdl_t *dtp, char *const argv[])
{
	char err[512];
	int pid;

	if (dtp->dt_active)
		return dt_set_errno(dtp, EDT_ACTIVE);
	/*
	 * -x evaltime=exec: the process stops as its exec returns, before the
	 * dynamic linker runs, as DTrace's does; otherwise where its
	 * libraries are mapped (DTrace's preinit, postinit and main differ
	 * in how far the program has run; here they are all that point).
	 */
	if ((pid = dt_os_proc_create(argv,
	    dtp->dt_options[DT_OPT_EVALTIME] == 0, err, sizeof (err))) < 0)
		return dt_set_errdetail(dtp, EDT_PROC, "%s", err);
	if (dt_proc_add(dtp, pid, true) != 0)
		return -1;
	return pid;
}

int
dtrace_proc_grab(dtrace_hdl_t *dtp, int pid)
{
	dtrace_optval_t forced = dtp->dt_options[DT_OPT_ENGINE];
	unsigned engines = DT_ENGINE_F_INTERP | DT_ENGINE_F_KERNEL |
	    DT_ENGINE_F_USER;
	char err[512];

	if (dtp->dt_active)
		return dt_set_errno(dtp, EDT_ACTIVE);
	/* A forced engine is the one that will trace it. */
	if (forced == DT_ENGINE_INTERP)
		engines = DT_ENGINE_F_INTERP;
	else if (forced >= DT_ENGINE_OS)
		engines = dt_os_engines[forced - DT_ENGINE_OS].oe_kind;
	if (dt_os_proc_grab(pid, engines, err, sizeof (err)) != 0)
		return dt_set_errdetail(dtp, EDT_PROC, "%s", err);
	return dt_proc_add(dtp, pid, false);
}

int
dtrace_proc_continue(dtrace_hdl_t *dtp)
{
	for (uint32_t i = 0; i < dtp->dt_nprocs; i++) {
		dt_proc_t *p = &dtp->dt_procs[i];

		if (p->dp_resumed)
			continue;
		if (dt_os_proc_resume(p->dp_pid) != 0)
			return dt_set_errdetail(dtp, EDT_PROC, "failed to "
			    "continue pid %d", p->dp_pid);
		p->dp_resumed = true;
	}
	return 0;
}

int
dtrace_proc_reap(dtrace_hdl_t *dtp, dtrace_proc_f *fn, void *arg)
{
	int live = 0;

	for (uint32_t i = 0; i < dtp->dt_nprocs; i++) {
		dt_proc_t *p = &dtp->dt_procs[i];
		int status;

		if (p->dp_ended)
			continue;
		if (!p->dp_resumed ||
		    !dt_os_proc_ended(p->dp_pid, p->dp_created, &status)) {
			live++;
			continue;
		}
		p->dp_ended = true;
		if (fn != NULL)
			fn(p->dp_pid, status, arg);
	}
	return live;
}

uint32_t
dt_proc_nlive(const dtrace_hdl_t *dtp)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < dtp->dt_nprocs; i++)
		n += !dtp->dt_procs[i].dp_ended;
	return n;
}

int
dt_proc_pid(const dtrace_hdl_t *dtp, uint32_t i)
{
	return dtp->dt_procs[i].dp_pid;
}

void
dt_proc_fini(dtrace_hdl_t *dtp)
{
	for (uint32_t i = 0; i < dtp->dt_nprocs; i++) {
		dt_proc_t *p = &dtp->dt_procs[i];

		if (p->dp_created && !p->dp_ended)
			dt_os_proc_kill(p->dp_pid);
	}
	free(dtp->dt_procs);
	dtp->dt_procs = NULL;
	dtp->dt_nprocs = 0;
}

bool
dtrace_proc_lingering(void)
{
	return dt_os_proc_lingering();
}

void
dtrace_proc_linger(void)
{
	dt_os_proc_linger();
}

int
dtrace_proc_rescue_open(void)
{
	return dt_os_proc_rescue_open();
}

void
dtrace_proc_rescue(void)
{
	dt_os_proc_rescue();
}
