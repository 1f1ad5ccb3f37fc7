/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_uprobes.c: where the BPF engine's uprobes go.  A pid probe
 * programmed alone has a uprobe per site (dt_bpf_engine.c places them and
 * asks dt_bpf_urefused() about a refusal); a group of them, one program for
 * thousands of probes, is placed here with the kernel's uprobe_multi links:
 * one per mapped file, whatever the number of sites, which is what makes
 * pid$target:::entry of a whole program attach in a moment.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "isa/dt_isa.h"
#include "os/linux/bpf/dt_bpf_attach.h"
#include "os/linux/bpf/dt_bpf_uprobes.h"
#include "os/linux/dt_elfsym.h"

/*
 * The sites refused since the last dt_bpf_urefused_flush(), by reason: a
 * few are named one by one, but a whole program's pid$target:::entry
 * meets dozens of AVX-512 functions in libc, and says so in one line.
 */
enum { DT_UREF_EVEX, DT_UREF_OTHER, DT_UREF_NKINDS };
#define DT_UREF_NAMED 4	/* more than this: one line counting them */

static struct {
	uint32_t ur_count;
	char ur_sites[DT_UREF_NAMED][512];	/* the first, named in full */
} dt_bpf_urefs[DT_UREF_NKINDS];
static pthread_mutex_t dt_bpf_urefs_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const dt_bpf_uref_why[DT_UREF_NKINDS][2] = {
	[DT_UREF_EVEX] = { "the kernel cannot single-step its AVX-512 "
	    "instruction (the ptrace engine can: -x engine=ptrace)",
	    "the kernel cannot single-step their AVX-512 instructions (the "
	    "ptrace engine can: -x engine=ptrace)" },
	[DT_UREF_OTHER] = { "the kernel cannot place a uprobe there",
	    "the kernel cannot place a uprobe there" },
};

/*
 * x86 uprobes take no lock, segment-override or notrack prefix, among
 * others (ENOTSUPP, 524), and the kernel says ENOEXEC of a site whose
 * instruction it cannot decode (data in text a symbol covers); other
 * errors fail the enabling.
 */
bool
dt_bpf_urefused(const dt_probe_t *prp, const dt_pid_probe_t *pi, size_t i)
{
	int fd = -1, kind;

	if (errno != DT_BPF_ENOTSUPP && errno != EINVAL &&
	    errno != ENOEXEC)
		return false;
	if (pi->pi_quiet)
		return true;	/* a pattern's: what can be traced */
	kind = dt_bpf_usite_unsafe(pi->pi_path, pi->pi_sites[i], &fd)
	    ? DT_UREF_EVEX : DT_UREF_OTHER;
	if (fd >= 0)
		(void) close(fd);
	(void) pthread_mutex_lock(&dt_bpf_urefs_lock);
	if (dt_bpf_urefs[kind].ur_count < DT_UREF_NAMED)
		(void) snprintf(
		    dt_bpf_urefs[kind].ur_sites[dt_bpf_urefs[kind].ur_count],
		    sizeof (dt_bpf_urefs[kind].ur_sites[0]),
		    "%s:%s:%s:%s at %s offset 0x%" PRIx64,
		    prp->pr_prov->pv_name, prp->pr_mod, prp->pr_func,
		    prp->pr_name, pi->pi_path, pi->pi_sites[i]);
	dt_bpf_urefs[kind].ur_count++;
	(void) pthread_mutex_unlock(&dt_bpf_urefs_lock);
	return true;
}

void
dt_bpf_urefused_flush(void)
{
	(void) pthread_mutex_lock(&dt_bpf_urefs_lock);
	for (int k = 0; k < DT_UREF_NKINDS; k++) {
		uint32_t n = dt_bpf_urefs[k].ur_count;

		for (uint32_t i = 0; n <= DT_UREF_NAMED && i < n; i++)
			(void) fprintf(stderr, "dtrace: skipped %s: %s\n",
			    dt_bpf_urefs[k].ur_sites[i], dt_bpf_uref_why[k][0]);
		if (n > DT_UREF_NAMED)
			(void) fprintf(stderr, "dtrace: skipped %u probe sites "
			    "(the first %s): %s\n", n,
			    dt_bpf_urefs[k].ur_sites[0], dt_bpf_uref_why[k][1]);
		dt_bpf_urefs[k].ur_count = 0;
	}
	(void) pthread_mutex_unlock(&dt_bpf_urefs_lock);
}

/* What a site's instruction is to a uprobe. */
typedef enum dt_bpf_usite {
	DT_BPF_USITE_OK,	/* as far as can be told, fine */
	DT_BPF_USITE_UNSAFE,	/* dt_bpf_usite_unsafe() */
	DT_BPF_USITE_DOUBTFUL	/* dt_isa_uprobe_doubtful(): try it alone */
} dt_bpf_usite_t;

static dt_bpf_usite_t
dt_bpf_usite_check(const char *path, uint64_t off, int *fdp)
{
	uint8_t b[16];
	ssize_t n;

	if (*fdp < 0 && (*fdp = dt_elfsym_open(path)) < 0)
		return DT_BPF_USITE_OK;	/* the kernel will say what it thinks */
	if ((n = pread(*fdp, b, sizeof (b), (off_t) off)) <= 0)
		return DT_BPF_USITE_OK;
	if (dt_isa_uprobe_unsafe(b, (size_t) n)) {
		errno = DT_BPF_ENOTSUPP;
		return DT_BPF_USITE_UNSAFE;
	}
	return dt_isa_uprobe_doubtful(b, (size_t) n) ? DT_BPF_USITE_DOUBTFUL
						     : DT_BPF_USITE_OK;
}

bool
dt_bpf_usite_unsafe(const char *path, uint64_t off, int *fdp)
{
	return dt_bpf_usite_check(path, off, fdp) == DT_BPF_USITE_UNSAFE;
}

static int
dt_bpf_ug_addlink(dt_bpf_ugroup_t *ug, int fd)
{
	int *p = realloc(ug->ug_links, (ug->ug_nlinks + 1) * sizeof (int));

	if (p == NULL) {
		(void) close(fd);
		errno = ENOMEM;
		return -1;
	}
	ug->ug_links = p;
	p[ug->ug_nlinks++] = fd;
	return 0;
}

/*
 * A site with cookie the kernel just refused (errno says why): skipped
 * and counted if dt_bpf_urefused() says so, else -1.
 */
static int
dt_bpf_ug_refused(dt_bpf_ugroup_t *ug, uint64_t off, uint64_t cookie)
{
	const dt_probe_t *prp = ug->ug_probes[(uint32_t) cookie];
	const dt_pid_probe_t *pi = dt_prov_pid_info(prp);
	size_t i = 0;

	while (i + 1 < pi->pi_nsites && pi->pi_sites[i] != off)
		i++;
	if (!dt_bpf_urefused(prp, pi, i))
		return -1;
	ug->ug_refused++;
	return 0;
}

/*
 * Links sites [0, n) of file path (file offsets offs, cookies the probes'
 * indexes): one link, or where the kernel refuses a site, the halves
 * apart, down to the refused sites, which are skipped as
 * dt_bpf_urefused() says.
 */
static int
dt_bpf_ug_link(dt_bpf_ugroup_t *ug, const char *path, const uint64_t *offs,
    const uint64_t *cookies, uint32_t n)
{
	int fd = dt_bpf_attach_uprobe_multi(ug->ug_prog_fd, path, offs,
	    cookies, n, ug->ug_pid);

	if (fd >= 0) {
		ug->ug_placed += n;
		return dt_bpf_ug_addlink(ug, fd);
	}
	if (errno != DT_BPF_ENOTSUPP && errno != EINVAL &&
	    errno != ENOEXEC)
		return -1;
	if (n > 1)
		return dt_bpf_ug_link(ug, path, offs, cookies, n / 2) == 0 &&
		    dt_bpf_ug_link(ug, path, offs + n / 2, cookies + n / 2,
			n - n / 2) == 0 ? 0 : -1;
	return dt_bpf_ug_refused(ug, offs[0], cookies[0]);
}

/* One doubtful site's link, made in a thread of its own. */
typedef struct dt_bpf_utry {
	const dt_bpf_ugroup_t *ut_ug;
	const char *ut_path;
	const uint64_t *ut_off, *ut_cookie;
	pthread_t ut_thread;
	int ut_fd, ut_errno;
} dt_bpf_utry_t;

static void *
dt_bpf_utry_run(void *arg)
{
	dt_bpf_utry_t *t = arg;

	t->ut_fd = dt_bpf_attach_uprobe_multi(t->ut_ug->ug_prog_fd,
	    t->ut_path, t->ut_off, t->ut_cookie, 1, t->ut_ug->ug_pid);
	t->ut_errno = errno;
	return NULL;
}

/*
 * Links the n doubtful sites of path, each alone.  Each refusal costs
 * the kernel a grace period or two as it takes the link apart (tens of
 * milliseconds; more on a busy machine), so they are tried at once, in
 * threads whose waits overlap: libc's 23 refusals then cost one wait,
 * not 23.
 */
static int
dt_bpf_ug_link_each(dt_bpf_ugroup_t *ug, const char *path,
    const uint64_t *offs, const uint64_t *cookies, size_t n)
{
	enum { DT_BPF_UTRY_MAX = 64 };	/* threads at once */
	dt_bpf_utry_t t[DT_BPF_UTRY_MAX];
	int rc = 0;

	for (size_t at = 0; at < n && rc == 0; at += DT_BPF_UTRY_MAX) {
		size_t k = n - at < DT_BPF_UTRY_MAX ? n - at : DT_BPF_UTRY_MAX;

		for (size_t j = 0; j < k; j++) {
			t[j] = (dt_bpf_utry_t){.ut_ug = ug, .ut_path = path,
			    .ut_off = &offs[at + j],
			    .ut_cookie = &cookies[at + j], .ut_fd = -1};
			if (pthread_create(&t[j].ut_thread, NULL,
			    dt_bpf_utry_run, &t[j]) != 0)
				(void) dt_bpf_utry_run(&t[j]), t[j].ut_thread = 0;
		}
		for (size_t j = 0; j < k; j++) {
			if (t[j].ut_thread != 0)
				(void) pthread_join(t[j].ut_thread, NULL);
			if (t[j].ut_fd >= 0) {
				ug->ug_placed++;
				if (dt_bpf_ug_addlink(ug, t[j].ut_fd) != 0)
					rc = -1;
				continue;
			}
			errno = t[j].ut_errno;
			if (rc == 0 && (errno == DT_BPF_ENOTSUPP ||
			    errno == EINVAL || errno == ENOEXEC))
				rc = dt_bpf_ug_refused(ug, *t[j].ut_off,
				    *t[j].ut_cookie);
			else
				rc = -1;
		}
	}
	return rc;
}

/*
 * The sites in file path of probes [first, n): offsets and cookies,
 * those the kernel is likely to refuse (*ndoubtp of them) last; those
 * that would break the program are skipped as refused.
 */
static size_t
dt_bpf_ug_sites(dt_bpf_ugroup_t *ug, uint32_t first, const char *path,
    uint64_t *offs, uint64_t *cookies, size_t max, size_t *ndoubtp)
{
	size_t n = 0, ndoubt = 0;
	int fd = -1;

	for (uint32_t q = first; q < ug->ug_nprobes; q++) {
		const dt_pid_probe_t *pi = dt_prov_pid_info(ug->ug_probes[q]);

		if (strcmp(pi->pi_path, path) != 0)
			continue;
		for (size_t i = 0; i < pi->pi_nsites; i++) {
			uint64_t cookie = q | (ug->ug_siteoff ?
			    (pi->pi_sites[i] - (pi->pi_func - pi->pi_base)) <<
			    32 : 0);
			size_t at;

			switch (dt_bpf_usite_check(path, pi->pi_sites[i],
			    &fd)) {
			case DT_BPF_USITE_UNSAFE:
				if (dt_bpf_urefused(ug->ug_probes[q], pi, i))
					ug->ug_refused++;
				continue;
			case DT_BPF_USITE_DOUBTFUL:
				/* (from the end of the arrays, down) */
				at = max - ++ndoubt;
				break;
			default:
				at = n++;
				break;
			}
			offs[at] = pi->pi_sites[i];
			cookies[at] = cookie;
		}
	}
	if (fd >= 0)
		(void) close(fd);
	*ndoubtp = ndoubt;
	return n;
}

int
dt_bpf_uattach_group(dt_bpf_ugroup_t *ug)
{
	uint64_t *offs, *cookies;
	const char **files;
	size_t max = 0, nfiles = 0, f;
	int rc = 0;

	for (uint32_t p = 0; p < ug->ug_nprobes; p++)
		max += dt_prov_pid_info(ug->ug_probes[p])->pi_nsites;
	offs = calloc(max + 1, sizeof (*offs));
	cookies = calloc(max + 1, sizeof (*cookies));
	files = calloc(ug->ug_nprobes + 1, sizeof (*files));
	if (offs == NULL || cookies == NULL || files == NULL) {
		free(offs);
		free(cookies);
		free(files);
		(void) snprintf(ug->ug_err, sizeof (ug->ug_err), "attaching "
		    "pid probes: out of memory");
		return -1;
	}
	for (uint32_t p = 0; p < ug->ug_nprobes; p++) {
		const char *path = dt_prov_pid_info(ug->ug_probes[p])->pi_path;
		size_t n, ndoubt;

		/*
		 * Each file once, with every site in it: the files met so
		 * far are few, where the probes before this one can be
		 * tens of thousands.
		 */
		for (f = 0; f < nfiles && strcmp(files[f], path) != 0; f++)
			continue;
		if (f < nfiles)
			continue;
		files[nfiles++] = path;
		n = dt_bpf_ug_sites(ug, p, path, offs, cookies, max, &ndoubt);
		rc = n > 0 ? dt_bpf_ug_link(ug, path, offs, cookies,
				 (uint32_t) n)
			   : 0;
		if (rc == 0 && ndoubt > 0)
			rc = dt_bpf_ug_link_each(ug, path, &offs[max - ndoubt],
			    &cookies[max - ndoubt], ndoubt);
		if (rc != 0) {
			(void) snprintf(ug->ug_err, sizeof (ug->ug_err),
			    "attaching the pid probes of %s: %s", path,
			    errno == DT_BPF_ENOTSUPP ? "the kernel does not "
			    "support it here" : strerror(errno));
			break;
		}
	}
	free(offs);
	free(cookies);
	free(files);
	return rc != 0 ? -1 : 0;
}
