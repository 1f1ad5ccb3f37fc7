/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_mech_syscall.c: the mechanism of the syscall provider.  Up to
 * DT_BPF_SYSCALL_FEW entry (or return) probes: a tracepoint program per
 * probe on its own syscalls:sys_enter_<name> (sys_exit_<name>); more: one
 * program on raw_syscalls:sys_enter (sys_exit) that finds the probe in a
 * table by the system call's number, since a program on every system
 * call costs each of them, traced or not.
 */
#include <stdio.h>
#include <string.h>

#include "os/linux/bpf/dt_bpf_attach.h"
#include "os/linux/bpf/dt_bpf_engine.h"
#include "os/linux/bpf/dt_bpf_engine_impl.h"
#include "os/linux/bpf/dt_bpf_mech.h"
#include "os/linux/prov/dt_kevent.h"
#include "os/linux/prov/dt_linux_prov.h"

/* Table entries of a raw_syscalls program: one per system call number. */
#define DT_BPF_SYSCALL_MAX 1024

static dt_linux_feature_t
dt_bpf_syscall_feature(const dt_probe_t *prp)
{
	(void) prp;
	return DT_LF_TRACEPOINT;
}

/* How many entry and return probes are enabled (each probe once). */
static void
dt_bpf_syscall_prepare(dtrace_hdl_t *dtp, dt_bpf_engine_t *be)
{
	(void) dtp;
	be->be_nsys[0] = be->be_nsys[1] = 0;
	for (uint32_t e = 0; e < be->be_neps; e++) {
		const dt_probe_t *prp = be->be_eps[e]->ep_probe;
		const dt_syscall_probe_t *sp;
		bool seen = false;

		if (prp->pr_prov->pv_ops->po_mech == NULL ||
		    strcmp(prp->pr_prov->pv_ops->po_mech,
		    DT_MECH_SYSCALL) != 0 ||
		    (sp = dt_prov_syscall_info(prp)) == NULL)
			continue;
		for (uint32_t f = 0; f < e && !seen; f++)
			seen = be->be_eps[f]->ep_probe == prp;
		if (!seen)
			be->be_nsys[sp->sp_return]++;
	}
}

static dt_bpf_plan_t *
dt_bpf_syscall_plan(dtrace_hdl_t *dtp, dt_bpf_engine_t *be, dt_probe_t *prp)
{
	const dt_syscall_probe_t *sp = dt_prov_syscall_info(prp);
	dt_bpf_plan_t *pl;

	(void) dtp;
	if (be->be_nsys[sp->sp_return] > DT_BPF_SYSCALL_FEW &&
	    sp->sp_nr >= 0) {
		for (uint32_t i = 0; i < be->be_nplans; i++) {
			pl = &be->be_plans[i];
			if (pl->pl_mech == &dt_bpf_mech_syscall &&
			    pl->pl_table && pl->pl_return == sp->sp_return)
				return pl;
		}
		if ((pl = dt_bpf_plan_new(be, &dt_bpf_mech_syscall)) != NULL) {
			pl->pl_table = true;
			pl->pl_table_max = DT_BPF_SYSCALL_MAX;
		}
	} else {
		pl = dt_bpf_plan_new(be, &dt_bpf_mech_syscall);
	}
	if (pl != NULL)
		pl->pl_return = sp->sp_return;
	return pl;
}

/* Keyed by the system call's number; every argument register. */
static uint32_t
dt_bpf_syscall_tabent(const dt_bpf_plan_t *pl, uint32_t p, dt_bpf_ptab_t *pt)
{
	pt->pt_nargs = 6;
	return (uint32_t) dt_prov_syscall_info(pl->pl_probes[p])->sp_nr;
}

/*
 * Where the tracepoint's record holds the number and the first argument
 * (or the return value), from its format file: a kernel's common header
 * may be longer than the usual 8 bytes (PREEMPT_RT's is 12, which moves
 * raw_syscalls' "long id" to 16).  The usual places when it cannot be
 * read.
 */
static void
dt_bpf_syscall_offsets(const dt_bpf_plan_t *pl, dt_bpf_progspec_t *ps)
{
	dt_kevent_field_t *fields;
	char event[160];
	const char *group = pl->pl_table ? "raw_syscalls" : "syscalls";
	int n;

	ps->ps_sys_nroff = 8;
	ps->ps_sys_argoff = 16;
	if (pl->pl_table)
		snprintf(event, sizeof (event), "sys_%s",
		    pl->pl_return ? "exit" : "enter");
	else
		snprintf(event, sizeof (event), "sys_%s_%s",
		    pl->pl_return ? "exit" : "enter", pl->pl_probes[0]->pr_func);
	if ((n = dt_kevent_format(group, event, &fields)) < 0)
		return;
	for (int i = 0, after = 0; i < n; i++) {
		if (fields[i].kf_common)
			continue;
		if (strcmp(fields[i].kf_name, "id") == 0 ||
		    strcmp(fields[i].kf_name, "__syscall_nr") == 0) {
			ps->ps_sys_nroff = (int16_t) fields[i].kf_off;
		} else if (after++ == 0) {
			/* args[6], the first argument, or ret */
			ps->ps_sys_argoff = (int16_t) fields[i].kf_off;
		}
	}
	dt_kevent_fields_free(fields, n);
}

static int
dt_bpf_syscall_spec(dtrace_hdl_t *dtp, dt_bpf_engine_t *be, dt_bpf_plan_t *pl,
    dt_bpf_build_t *bb)
{
	dt_bpf_progspec_t *ps = &bb->bb_ps;

	(void) be;
	ps->ps_ctx = pl->pl_return ? DT_BPF_CTX_SYSCALL_RETURN :
	    DT_BPF_CTX_SYSCALL_ENTRY;
	dt_bpf_syscall_offsets(pl, ps);
	ps->ps_nargs = pl->pl_table ? 6 :
	    dt_prov_syscall_nargs(dtp, pl->pl_probes[0]);
	bb->bb_type = BPF_PROG_TYPE_TRACEPOINT;
	return 0;
}

static int
dt_bpf_syscall_attach(dtrace_hdl_t *dtp, dt_bpf_engine_t *be,
    dt_bpf_plan_t *pl)
{
	char event[160];
	int fd;

	(void) be;
	if (pl->pl_table) {
		fd = dt_bpf_attach_tracepoint(pl->pl_fd, "raw_syscalls",
		    pl->pl_return ? "sys_exit" : "sys_enter");
	} else {
		snprintf(event, sizeof (event), "sys_%s_%s",
		    pl->pl_return ? "exit" : "enter",
		    pl->pl_probes[0]->pr_func);
		fd = dt_bpf_attach_tracepoint(pl->pl_fd, "syscalls", event);
	}
	if (fd < 0 || dt_bpf_addlink(pl, fd) != 0)
		return dt_bpf_attach_fail(dtp, pl);
	return 0;
}

const dt_bpf_mech_t dt_bpf_mech_syscall = {
	.bm_name = DT_MECH_SYSCALL,
	.bm_feature = dt_bpf_syscall_feature,
	.bm_prepare = dt_bpf_syscall_prepare,
	.bm_plan = dt_bpf_syscall_plan,
	.bm_tabent = dt_bpf_syscall_tabent,
	.bm_spec = dt_bpf_syscall_spec,
	.bm_attach = dt_bpf_syscall_attach,
};
