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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "isa/dt_isa.h"
#include "os/linux/bpf/dt_bpf_attach.h"
#include "os/linux/bpf/dt_bpf_uprobes.h"

/*
 * x86 uprobes take no lock, segment-override or notrack prefix, among
 * others (ENOTSUPP, 524), and the kernel says ENOEXEC of a site whose
 * instruction it cannot decode (data in text a symbol covers); other
 * errors fail the enabling.
 */
bool
dt_bpf_urefused(const dt_probe_t *prp, const dt_pid_probe_t *pi, size_t i)
{
	int fd = -1;
	bool evex;

	if (errno != DT_BPF_ENOTSUPP && errno != EINVAL &&
	    errno != ENOEXEC)
		return false;
	if (pi->pi_quiet)
		return true;	/* a pattern's: what can be traced */
	evex = dt_bpf_usite_unsafe(pi->pi_path, pi->pi_sites[i], &fd);
	if (fd >= 0)
		(void) close(fd);
	(void) fprintf(stderr, "dtrace: skipped %s:%s:%s:%s at %s offset "
	    "0x%" PRIx64 ": %s\n", prp->pr_prov->pv_name, prp->pr_mod,
	    prp->pr_func, prp->pr_name, pi->pi_path, pi->pi_sites[i], evex ?
	    "the kernel cannot single-step its AVX-512 instruction (the "
	    "ptrace engine can: -x engine=ptrace)" :
	    "the kernel cannot place a uprobe there");
	return true;
}

bool
dt_bpf_usite_unsafe(const char *path, uint64_t off, int *fdp)
{
	uint8_t b[16];
	ssize_t n;

	if (*fdp < 0 && (*fdp = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;	/* the kernel will say what it thinks */
	if ((n = pread(*fdp, b, sizeof (b), (off_t) off)) <= 0)
		return false;
	if (dt_isa_uprobe_unsafe(b, (size_t) n)) {
		errno = DT_BPF_ENOTSUPP;
		return true;
	}
	return false;
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
	const dt_probe_t *prp;
	const dt_pid_probe_t *pi;
	size_t i = 0;

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
	prp = ug->ug_probes[(uint32_t) cookies[0]];
	pi = dt_prov_pid_info(prp);
	while (i + 1 < pi->pi_nsites && pi->pi_sites[i] != offs[0])
		i++;
	if (!dt_bpf_urefused(prp, pi, i))
		return -1;
	ug->ug_refused++;
	return 0;
}

/*
 * The sites in file path of probes [first, n): offsets and cookies;
 * those that would break the program are skipped as refused.
 */
static size_t
dt_bpf_ug_sites(dt_bpf_ugroup_t *ug, uint32_t first, const char *path,
    uint64_t *offs, uint64_t *cookies)
{
	size_t n = 0;
	int fd = -1;

	for (uint32_t q = first; q < ug->ug_nprobes; q++) {
		const dt_pid_probe_t *pi = dt_prov_pid_info(ug->ug_probes[q]);

		if (strcmp(pi->pi_path, path) != 0)
			continue;
		for (size_t i = 0; i < pi->pi_nsites; i++) {
			if (dt_bpf_usite_unsafe(path, pi->pi_sites[i], &fd)) {
				if (!dt_bpf_urefused(ug->ug_probes[q], pi, i))
					continue;	/* (cannot be) */
				ug->ug_refused++;
				continue;
			}
			offs[n] = pi->pi_sites[i];
			cookies[n++] = q | (ug->ug_siteoff ?
			    (pi->pi_sites[i] - (pi->pi_func - pi->pi_base)) <<
			    32 : 0);
		}
	}
	if (fd >= 0)
		(void) close(fd);
	return n;
}

int
dt_bpf_uattach_group(dt_bpf_ugroup_t *ug)
{
	uint64_t *offs, *cookies;
	size_t max = 0;

	for (uint32_t p = 0; p < ug->ug_nprobes; p++)
		max += dt_prov_pid_info(ug->ug_probes[p])->pi_nsites;
	offs = calloc(max + 1, sizeof (*offs));
	cookies = calloc(max + 1, sizeof (*cookies));
	if (offs == NULL || cookies == NULL) {
		free(offs);
		free(cookies);
		(void) snprintf(ug->ug_err, sizeof (ug->ug_err), "attaching "
		    "pid probes: out of memory");
		return -1;
	}
	for (uint32_t p = 0; p < ug->ug_nprobes; p++) {
		const char *path = dt_prov_pid_info(ug->ug_probes[p])->pi_path;
		bool seen = false;
		size_t n;

		/* Each file once, with every site in it. */
		for (uint32_t q = 0; q < p && !seen; q++)
			seen = strcmp(dt_prov_pid_info(ug->ug_probes[q])->
			    pi_path, path) == 0;
		if (seen)
			continue;
		n = dt_bpf_ug_sites(ug, p, path, offs, cookies);
		if (n > 0 && dt_bpf_ug_link(ug, path, offs, cookies,
		    (uint32_t) n) != 0) {
			(void) snprintf(ug->ug_err, sizeof (ug->ug_err),
			    "attaching the pid probes of %s: %s", path,
			    errno == DT_BPF_ENOTSUPP ? "the kernel does not "
			    "support it here" : strerror(errno));
			free(offs);
			free(cookies);
			return -1;
		}
	}
	free(offs);
	free(cookies);
	return 0;
}
