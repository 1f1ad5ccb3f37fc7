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
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/dt_impl.h"
#include "common/probe/dt_probe.h"
#include "os/linux/dt_linux_features.h"
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
#if defined(__x86_64__)
	/* x86-64's own uprobe trampolines (not in the shared range). */
	{ "uretprobe", 335 }, { "uprobe", 336 },
#endif
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
	return dt_syscall_lookup(dt_syscall_nrs_new, name);
}

static int
dt_syscall_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *) a, *(const char *const *) b);
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

	if (tfs == NULL)
		return 0;	/* no tracefs: no syscall probes */
	snprintf(path, sizeof (path), "%s/events/syscalls", tfs);
	if ((d = opendir(path)) == NULL)
		return 0;
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
	for (size_t i = 0; rc == 0 && i < n; i++) {
		for (int ret = 0; ret < 2 && rc == 0; ret++) {
			dt_syscall_probe_t *sp = calloc(1, sizeof (*sp));

			if (sp == NULL || (sp->sp_name = strdup(names[i])) ==
			    NULL) {
				free(sp);
				rc = dt_set_errno(dtp, EDT_NOMEM);
				break;
			}
			sp->sp_nr = dt_syscall_number(names[i]);
			sp->sp_nargs = ret ? 2 : -1;
			sp->sp_return = ret != 0;
			if (dt_probe_create(dtp, pvp, "vmlinux", names[i],
			    ret ? "return" : "entry", 0, NULL, sp) == NULL) {
				free((char *) sp->sp_name);
				free(sp);
				rc = -1;
			}
		}
	}
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

static const dt_provops_t dt_prov_syscall_ops = {
	.po_populate = dt_prov_syscall_populate,
	.po_probe_fini = dt_prov_syscall_probe_fini,
};

int
dt_prov_syscall_init(dtrace_hdl_t *dtp)
{
	return dt_provider_register(dtp, "syscall", &dt_prov_syscall_ops,
	    DT_ENGINE_F_BPF, NULL);
}

/* The number of argument fields after __syscall_nr in the format. */
static int
dt_syscall_nargs(const char *name)
{
	const char *tfs = dt_linux_tracefs();
	char path[PATH_MAX], line[512];
	int n = -1;
	FILE *fp;

	if (tfs == NULL)
		return 6;
	snprintf(path, sizeof (path), "%s/events/syscalls/sys_enter_%s/format",
	    tfs, name);
	if ((fp = fopen(path, "re")) == NULL)
		return 6;
	while (fgets(line, sizeof (line), fp) != NULL) {
		if (strstr(line, "__syscall_nr") != NULL)
			n = 0;
		else if (n >= 0 && strstr(line, "field:") != NULL)
			n++;
	}
	(void) fclose(fp);
	return n < 0 ? 6 : n > 6 ? 6 : n;
}

const dt_syscall_probe_t *
dt_prov_syscall_info(const dt_probe_t *prp)
{
	if (strcmp(prp->pr_prov->pv_name, "syscall") != 0)
		return NULL;
	return prp->pr_data;
}

int
dt_prov_syscall_nargs(const dt_probe_t *prp)
{
	dt_syscall_probe_t *sp;

	if (strcmp(prp->pr_prov->pv_name, "syscall") != 0 ||
	    (sp = prp->pr_data) == NULL)
		return 0;
	if (sp->sp_nargs < 0)
		sp->sp_nargs = dt_syscall_nargs(sp->sp_name);
	return sp->sp_nargs;
}
