/* SPDX-License-Identifier: MIT */
/*
 * dt_perfmap.c: reading /tmp/perf-<pid>.map files (see dt_perfmap.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/linux/dt_perfmap.h"

/* A name read, kept until the map is freed (lookups hand them out). */
typedef struct dt_perfname {
	struct dt_perfname *pn_next;
	char pn_name[];
} dt_perfname_t;

/* How far back a lookup looks for an enclosing function. */
#define DT_PERFMAP_BACK 64

static int
dt_perfsym_cmp(const void *a, const void *b)
{
	const dt_perfsym_t *l = a, *r = b;

	if (l->ps_addr != r->ps_addr)
		return l->ps_addr < r->ps_addr ? -1 : 1;
	return l->ps_seq < r->ps_seq ? -1 : l->ps_seq > r->ps_seq;
}

/* One line: 0 (also for a line that is not a symbol), or -1 (ENOMEM). */
static int
dt_perfmap_line(dt_perfmap_t *pm, const char *line, size_t len)
{
	unsigned long long addr, size;
	dt_perfname_t *pn;
	char *end;
	const char *name;
	size_t n;

	errno = 0;
	addr = strtoull(line, &end, 16);
	if (errno != 0 || end == line || *end != ' ')
		return 0;
	size = strtoull(end + 1, &end, 16);
	if (errno != 0 || *end != ' ' || size == 0)
		return 0;
	name = end + 1;
	n = len - (size_t) (name - line);
	if (n == 0)
		return 0;
	if (pm->pm_nsyms == pm->pm_cap) {
		size_t cap = pm->pm_cap ? 2 * pm->pm_cap : 256;
		dt_perfsym_t *v = realloc(pm->pm_syms, cap * sizeof(*v));

		if (v == NULL)
			return -1;
		pm->pm_syms = v;
		pm->pm_cap = cap;
	}
	if ((pn = malloc(sizeof(*pn) + n + 1)) == NULL)
		return -1;
	memcpy(pn->pn_name, name, n);
	pn->pn_name[n] = '\0';
	pn->pn_next = pm->pm_names;
	pm->pm_names = pn;
	pm->pm_syms[pm->pm_nsyms++] =
	    (dt_perfsym_t){addr, size, pm->pm_seq++, pn->pn_name};
	return 0;
}

int
dt_perfmap_update(dt_perfmap_t *pm, const char *path)
{
	struct stat st;
	char *buf, *p, *nl;
	size_t have, tail;
	ssize_t n;
	int fd, rc = 0;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	if (fstat(fd, &st) != 0 || st.st_size == pm->pm_read) {
		(void) close(fd);
		return 0;
	}
	if (st.st_size < pm->pm_read) {
		/* Rewritten: read it all again (old names stay valid). */
		pm->pm_nsyms = 0;
		pm->pm_read = 0;
		free(pm->pm_tail);
		pm->pm_tail = NULL;
	}
	tail = pm->pm_tail != NULL ? strlen(pm->pm_tail) : 0;
	have = (size_t) (st.st_size - pm->pm_read);
	if ((buf = malloc(tail + have + 1)) == NULL) {
		(void) close(fd);
		return -1;
	}
	if (tail > 0)
		memcpy(buf, pm->pm_tail, tail);
	n = pread(fd, buf + tail, have, pm->pm_read);
	(void) close(fd);
	if (n <= 0) {
		free(buf);
		return 0;
	}
	pm->pm_read += n;
	have = tail + (size_t) n;
	buf[have] = '\0';
	for (p = buf; rc == 0 &&
	     (nl = memchr(p, '\n', have - (size_t) (p - buf))) != NULL;
	     p = nl + 1)
		rc = dt_perfmap_line(pm, p, (size_t) (nl - p));
	/* A line the runtime is still writing: kept for the next read. */
	free(pm->pm_tail);
	pm->pm_tail = NULL;
	if (rc == 0 && *p != '\0' && (pm->pm_tail = strdup(p)) == NULL)
		rc = -1;
	free(buf);
	if (pm->pm_nsyms > 1)
		qsort(pm->pm_syms, pm->pm_nsyms, sizeof(*pm->pm_syms),
		    dt_perfsym_cmp);
	return rc;
}

const char *
dt_perfmap_lookup(const dt_perfmap_t *pm, uint64_t addr, uint64_t *startp)
{
	size_t lo = 0, hi = pm->pm_nsyms;

	/* lo: the first function starting above addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pm->pm_syms[mid].ps_addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* The nearest start covering addr; of one start, the latest line. */
	for (size_t i = lo, k = 0; i-- > 0 && k < DT_PERFMAP_BACK; k++) {
		const dt_perfsym_t *ps = &pm->pm_syms[i];

		if (addr - ps->ps_addr < ps->ps_size) {
			*startp = ps->ps_addr;
			return ps->ps_name;
		}
	}
	return NULL;
}

void
dt_perfmap_free(dt_perfmap_t *pm)
{
	while (pm->pm_names != NULL) {
		dt_perfname_t *pn = pm->pm_names;

		pm->pm_names = pn->pn_next;
		free(pn);
	}
	free(pm->pm_syms);
	free(pm->pm_tail);
	memset(pm, 0, sizeof(*pm));
}
