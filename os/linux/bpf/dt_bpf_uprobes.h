/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_uprobes.h: placing the uprobes of pid probes for the BPF engine
 * (dt_bpf_engine.c decides which programs serve which probes; this says
 * where their uprobes go and what to do when the kernel refuses one).
 */
#ifndef DT_BPF_UPROBES_H
#define DT_BPF_UPROBES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/probe/dt_probe.h"
#include "os/linux/prov/dt_linux_prov.h"

/* The kernel's own "operation not supported", which uprobes return. */
#define DT_BPF_ENOTSUPP 524

/*
 * Did the kernel refuse a uprobe at site i of pid probe prp for the
 * instruction there (errno says)?  Such a site is skipped, and counted
 * unless a pattern made the probe; dt_bpf_urefused_flush() then says so
 * in a line per reason: the site, or how many and the first.
 */
extern bool dt_bpf_urefused(const dt_probe_t *prp, const dt_pid_probe_t *pi,
    size_t i);
extern void dt_bpf_urefused_flush(void);

/*
 * Would a uprobe at file offset off of path break the traced program?  On
 * x86-64 the kernel refuses VEX-encoded instructions but takes AVX-512
 * (EVEX) ones, and 6.18 has been seen to lose the result of one it
 * single-steps out of line (glibc's __strchr_evex then finds nothing, and
 * ls rejects its options); such a site is skipped as one the kernel
 * refuses, with errno ENOTSUPP.  fdp caches the open file (-1 at first;
 * the caller closes it).
 */
extern bool dt_bpf_usite_unsafe(const char *path, uint64_t off, int *fdp);

/*
 * A group of pid probes of one process image, served by one program that
 * finds the probe by the uprobe's attach cookie, its index in ug_probes:
 * dt_bpf_uattach_group() places every site with a uprobe_multi link per
 * file, and says what it made.
 */
typedef struct dt_bpf_ugroup {
	int ug_prog_fd;
	const dt_probe_t *const *ug_probes;
	uint32_t ug_nprobes;
	pid_t ug_pid;		/* <= 0: every process */
	/*
	 * Each cookie's high word is the site's offset in its function
	 * (ps_ucookieoff).
	 */
	bool ug_siteoff;
	/* out: */
	int *ug_links;		/* malloc'ed; the caller owns them */
	uint32_t ug_nlinks;
	uint32_t ug_placed;	/* sites with a uprobe */
	uint32_t ug_refused;	/* sites the kernel would not probe */
	char ug_err[256];	/* why, when it fails */
} dt_bpf_ugroup_t;

/* 0, or -1 with ug_err said (links made so far are still given). */
extern int dt_bpf_uattach_group(dt_bpf_ugroup_t *ug);

#endif /* DT_BPF_UPROBES_H */
