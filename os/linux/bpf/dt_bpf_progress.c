/* SPDX-License-Identifier: MIT */
/*
 * dt_bpf_progress.c: a progress line on standard error while the BPF
 * engine loads and attaches its programs, or detaches them, when that
 * takes more than a second and standard error is a terminal.  Without
 * the kernel's uprobe_multi links every uprobe is a perf event of its
 * own, and closing one waits for the kernel (an eighth of a second here,
 * under a lock that closing from several threads only queues on): for
 * thousands of pid probes that is minutes, and the line says that
 * dtrace is working and how far it has got.  Elsewhere (a pipe, a file)
 * nothing is written, so output that scripts read is unchanged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "os/linux/bpf/dt_bpf_engine_impl.h"


/* After this long, the line shows; it is redrawn at most this often. */
#define DT_BPF_PROGRESS_DELAY_NS  1000000000ULL
#define DT_BPF_PROGRESS_REDRAW_NS  100000000ULL

static uint64_t
dt_bpf_progress_now(void)
{
	struct timespec ts;

	(void) clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000ULL + (uint64_t) ts.tv_nsec;
}

void
dt_bpf_progress_start(dt_bpf_progress_t *pg, uint32_t total, const char *end)
{
	/* The delay may be lowered for tests (DTRACE_PROGRESS_DELAY_MS). */
	const char *env = getenv("DTRACE_PROGRESS_DELAY_MS");

	pg->pg_t0 = dt_bpf_progress_now();
	pg->pg_last = 0;
	pg->pg_total = total;
	pg->pg_end = end;
	pg->pg_shown = false;
	pg->pg_tty = isatty(STDERR_FILENO) == 1;
	pg->pg_delay = env != NULL ? strtoull(env, NULL, 10) * 1000000ULL :
	    DT_BPF_PROGRESS_DELAY_NS;
}

void
dt_bpf_progress(dt_bpf_progress_t *pg, const char *what, uint32_t done)
{
	uint64_t now;

	if (!pg->pg_tty)
		return;
	now = dt_bpf_progress_now();
	if (now - pg->pg_t0 < pg->pg_delay ||
	    (pg->pg_shown && now - pg->pg_last < DT_BPF_PROGRESS_REDRAW_NS &&
	    done < pg->pg_total))
		return;
	/* \r and erase to the end: the line is drawn over itself. */
	(void) fprintf(stderr, "\rdtrace: %s probes: %u of %u\033[K", what,
	    done, pg->pg_total);
	(void) fflush(stderr);
	pg->pg_shown = true;
	pg->pg_last = now;
}

void
dt_bpf_progress_end(dt_bpf_progress_t *pg, bool ok)
{
	uint64_t ms;

	if (!pg->pg_shown)
		return;
	pg->pg_shown = false;
	if (!ok) {
		/* The error that follows goes on a line of its own. */
		(void) fputc('\n', stderr);
		return;
	}
	ms = (dt_bpf_progress_now() - pg->pg_t0) / 1000000ULL;
	(void) fprintf(stderr, "\rdtrace: %u %s in %llu.%llu s\033[K\n",
	    pg->pg_total, pg->pg_end, (unsigned long long) (ms / 1000),
	    (unsigned long long) (ms % 1000 / 100));
	(void) fflush(stderr);
}
