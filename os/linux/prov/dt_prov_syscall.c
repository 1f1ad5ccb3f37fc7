/* SPDX-License-Identifier: MIT */
/*
 * dt_prov_syscall.c: the syscall provider -- one entry and one return
 * probe for every system call of the running kernel.
 *
 *	syscall:vmlinux:<name>:entry	syscalls:sys_enter_<name>
 *	syscall:vmlinux:<name>:return	syscalls:sys_exit_<name>
 *
 * The names are tracefs's (events/syscalls/sys_enter_*), so the list is
 * the running kernel's, newest calls included.  How the BPF engine
 * attaches them depends on how many are enabled: a few get their own
 * syscalls:sys_enter_<name> tracepoint each; many (syscall:::entry) share
 * one raw_syscalls:sys_enter tracepoint whose program looks the probe up
 * by the system call number, because every syscalls:* tracepoint costs a
 * synchronize_rcu() (about 70 ms here) to detach.  The number comes from
 * the C library's <sys/syscall.h> at build time, by name; system calls
 * newer than those headers use the number every architecture shares for
 * calls added since 5.1, and the rest are attached by name only.
 *
 * Arguments, as DTrace on Linux defines them:
 *
 *	entry	arg0 .. argN-1: the system call's arguments, as the raw
 *		register values.  Through its own tracepoint a call has N
 *		arguments (N from the tracepoint's format) and the rest
 *		read 0; through the shared raw_syscalls one, all six
 *		argument registers are passed, since reading 360 format
 *		files would double the start-up time of syscall:::entry
 *	return	arg0 = arg1 = the return value as the kernel returns it;
 *		errno = -return value when that is in [-4095, -1], else 0
 *
 * probefunc is the system call's name ("read", "openat", "newfstat").
 *
 * The typed arguments (args[N], dtrace -lv) are those of the tracepoint's
 * format file, as Oracle Linux DTrace gives them: for entry, the fields
 * of sys_enter_<name> after __syscall_nr ("unsigned int", "char *",
 * "size_t" for read); for return, those of sys_exit_<name> (args[0] is
 * the "long" return value).  Reading a format file per probe would slow
 * every listing, so each probe reads its own on first use.  Stability is
 * DTrace's for syscall: names Evolving, arguments Private and ISA-bound.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dt_impl.h"
#include "common/probe/dt_probe.h"
#include "isa/dt_isa.h"
#include "os/linux/dt_linux_features.h"
#include "os/linux/prov/dt_kevent.h"
#include "os/linux/prov/dt_linux_prov.h"

typedef struct dt_syscall_nr {
	const char *sn_name;
	int sn_nr;
} dt_syscall_nr_t;

/* The numbers of the C library's headers: { "read", 0 }, ... */
static const dt_syscall_nr_t dt_syscall_nrs[] = {
#include "os/linux/prov/dt_syscall_nr.h"
	{ NULL, -1 }
};

/*
 * Calls added since 5.1 have the same number on every architecture, so
 * they are known even when the headers we were built with predate them.
 */
static const dt_syscall_nr_t dt_syscall_nrs_new[] = {
	{ "cachestat", 451 }, { "fchmodat2", 452 },
	{ "map_shadow_stack", 453 }, { "futex_wake", 454 },
	{ "futex_wait", 455 }, { "futex_requeue", 456 },
	{ "statmount", 457 }, { "listmount", 458 },
	{ "lsm_get_self_attr", 459 }, { "lsm_set_self_attr", 460 },
	{ "lsm_list_modules", 461 }, { "mseal", 462 },
	{ "setxattrat", 463 }, { "getxattrat", 464 },
	{ "listxattrat", 465 }, { "removexattrat", 466 },
	{ "open_tree_attr", 467 }, { "file_getattr", 468 },
	{ "file_setattr", 469 },
	{ NULL, -1 }
};

/* Tracepoint names that differ from the __NR_ names. */
static const struct {
	const char *alias;
	const char *name;
} dt_syscall_aliases[] = {
	{ "newfstat", "fstat" }, { "newlstat", "lstat" },
	{ "newstat", "stat" }, { "newuname", "uname" },
	{ "sendfile64", "sendfile" }, { "umount", "umount2" },
};

static int
dt_syscall_lookup(const dt_syscall_nr_t *t, const char *name)
{
	for (; t->sn_name != NULL; t++) {
		if (strcmp(t->sn_name, name) == 0)
			return t->sn_nr;
	}
	return -1;
}

static int
dt_syscall_number(const char *name)
{
	int nr;

	if ((nr = dt_syscall_lookup(dt_syscall_nrs, name)) >= 0)
		return nr;
	for (size_t i = 0; i < sizeof (dt_syscall_aliases) /
	    sizeof (dt_syscall_aliases[0]); i++) {
		if (strcmp(dt_syscall_aliases[i].alias, name) == 0 &&
		    (nr = dt_syscall_lookup(dt_syscall_nrs,
		    dt_syscall_aliases[i].name)) >= 0)
			return nr;
	}
	if ((nr = dt_syscall_lookup(dt_syscall_nrs_new, name)) >= 0)
		return nr;
	/* The ISA's own calls (x86-64's uprobe trampolines). */
	for (const dt_isa_syscall_t *is = dt_isa_linux_syscalls;
	    is->is_name != NULL; is++) {
		if (strcmp(is->is_name, name) == 0)
			return is->is_nr;
	}
	return -1;
}

static const dt_provattr_t dt_prov_syscall_attr = {
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_COMMON },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_ISA },
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_COMMON },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_ISA },
};

static int
dt_syscall_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *) a, *(const char *const *) b);
}

/* The entry and return probes of system call name. */
static int
dt_prov_syscall_create(dtrace_hdl_t *dtp, dt_provider_t *pvp,
    const char *name)
{
	for (int ret = 0; ret < 2; ret++) {
		dt_syscall_probe_t *sp = calloc(1, sizeof (*sp));

		if (sp == NULL || (sp->sp_name = strdup(name)) == NULL) {
			free(sp);
			return dt_set_errno(dtp, EDT_NOMEM);
		}
		sp->sp_nr = dt_syscall_number(name);
		sp->sp_return = ret != 0;
		if (dt_probe_create(dtp, pvp, "vmlinux", name,
		    ret ? "return" : "entry", -1, NULL, sp) == NULL) {
			free((char *) sp->sp_name);
			free(sp);
			return -1;
		}
	}
	return 0;
}

/* Every call of the C library's headers, named as tracefs names them. */
static int
dt_prov_syscall_populate_nrs(dtrace_hdl_t *dtp, dt_provider_t *pvp)
{
	size_t n = sizeof (dt_syscall_nrs) / sizeof (dt_syscall_nrs[0]) - 1;
	const char **names = calloc(n + 1, sizeof (*names));
	int rc = 0;

	if (names == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	for (size_t i = 0; i < n; i++) {
		names[i] = dt_syscall_nrs[i].sn_name;
		for (size_t k = 0; k < sizeof (dt_syscall_aliases) /
		    sizeof (dt_syscall_aliases[0]); k++) {
			if (strcmp(dt_syscall_aliases[k].name, names[i]) == 0)
				names[i] = dt_syscall_aliases[k].alias;
		}
	}
	qsort(names, n, sizeof (*names), dt_syscall_cmp);
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = dt_prov_syscall_create(dtp, pvp, names[i]);
	free(names);
	return rc;
}

static int
dt_prov_syscall_populate(dtrace_hdl_t *dtp, dt_provider_t *pvp)
{
	const char *tfs = dt_linux_tracefs();
	char path[PATH_MAX];
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	DIR *d;

	/*
	 * Without tracefs (a user who may not read it), the names are the C
	 * library's, as tracefs would spell them: the ptrace engine fires
	 * them by number for the processes it traces.
	 */
	snprintf(path, sizeof (path), "%s/events/syscalls", tfs != NULL ? tfs :
	    "/nonexistent");
	if (tfs == NULL || (d = opendir(path)) == NULL)
		return dt_prov_syscall_populate_nrs(dtp, pvp);
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "sys_enter_", 10) != 0)
			continue;
		if (n == cap) {
			char **p;

			cap = cap ? cap * 2 : 512;
			if ((p = realloc(names, cap * sizeof (*p))) == NULL) {
				rc = dt_set_errno(dtp, EDT_NOMEM);
				break;
			}
			names = p;
		}
		if ((names[n] = strdup(de->d_name + 10)) == NULL) {
			rc = dt_set_errno(dtp, EDT_NOMEM);
			break;
		}
		n++;
	}
	(void) closedir(d);
	/* tracefs lists in no useful order: list probes by name. */
	if (rc == 0 && n > 0)
		qsort(names, n, sizeof (*names), dt_syscall_cmp);
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = dt_prov_syscall_create(dtp, pvp, names[i]);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

static void
dt_prov_syscall_probe_fini(dtrace_hdl_t *dtp, dt_probe_t *prp)
{
	dt_syscall_probe_t *sp = prp->pr_data;

	(void) dtp;
	if (sp != NULL) {
		free((char *) sp->sp_name);
		free(sp);
	}
	prp->pr_data = NULL;
}

/*
 * The argument types of a syscalls tracepoint, from its format file: the
 * fields after __syscall_nr, at most 6 of them.
 */
static int
dt_prov_syscall_probe_args(dtrace_hdl_t *dtp, dt_probe_t *prp)
{
	const dt_syscall_probe_t *sp = prp->pr_data;
	const char *types[6];
	dt_kevent_field_t *fields;
	char event[256];
	int n, nargs = 0, rc;
	bool after = false;

	snprintf(event, sizeof (event), "sys_%s_%s",
	    sp->sp_return ? "exit" : "enter", sp->sp_name);
	if ((n = dt_kevent_format("syscalls", event, &fields)) < 0)
		return dt_set_errno(dtp, errno == ENOMEM ? EDT_NOMEM : errno);
	for (int i = 0; i < n && nargs < 6; i++) {
		if (after)
			types[nargs++] = fields[i].kf_type;
		else if (strcmp(fields[i].kf_name, "__syscall_nr") == 0)
			after = true;
	}
	rc = dt_probe_set_args(dtp, prp, nargs, types, NULL);
	dt_kevent_fields_free(fields, n);
	return rc;
}

/* Every probe is vmlinux:<call>:entry or :return. */
static bool
dt_prov_syscall_maymatch(dtrace_hdl_t *dtp, dt_provider_t *pvp,
    const dt_probedesc_t *pdp)
{
	(void) dtp;
	(void) pvp;
	return dt_probedesc_may(pdp, "vmlinux", NULL, "entry") ||
	    dt_probedesc_may(pdp, "vmlinux", NULL, "return");
}

static const dt_provops_t dt_prov_syscall_ops = {
	.po_populate = dt_prov_syscall_populate,
	.po_maymatch = dt_prov_syscall_maymatch,
	.po_probe_fini = dt_prov_syscall_probe_fini,
	.po_probe_args = dt_prov_syscall_probe_args,
	.po_mech = DT_MECH_SYSCALL,
};

int
dt_prov_syscall_init(dtrace_hdl_t *dtp)
{
	/* The ptrace engine fires them for the processes it traces. */
	return dt_provider_register(dtp, "syscall", &dt_prov_syscall_ops,
	    &dt_prov_syscall_attr, DT_ENGINE_F_KERNEL | DT_ENGINE_F_USER, NULL);
}

const dt_syscall_probe_t *
dt_prov_syscall_info(const dt_probe_t *prp)
{
	if (strcmp(prp->pr_prov->pv_name, "syscall") != 0)
		return NULL;
	return prp->pr_data;
}

int
dt_prov_syscall_nargs(dtrace_hdl_t *dtp, dt_probe_t *prp)
{
	const dt_syscall_probe_t *sp = dt_prov_syscall_info(prp);
	const dt_argdesc_t *args;
	int n;

	if (sp == NULL)
		return 0;
	if (sp->sp_return)
		return 2;	/* arg0 and arg1: the return value */
	/* Unknown: pass every argument register, as the group does. */
	if ((n = dt_probe_args(dtp, prp, &args)) < 0)
		return 6;
	return n;
}
