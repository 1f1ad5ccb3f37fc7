/* SPDX-License-Identifier: MIT */
/*
 * dt_perfmap.c: reading /tmp/perf-<pid>.map files (see dt_perfmap.h):
 * safely, as they are anyone's to make, and within a bound.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
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

/* Read a chunk at a time, so that a big append is no one allocation. */
#define DT_PERFMAP_CHUNK (1UL << 20)
/* No symbol's line is longer: a longer one is dropped, not kept whole. */
#define DT_PERFMAP_LINE (64UL << 10)

static void
dt_perfmap_why(dt_perfmap_t *pm, const char *fmt, ...)
{
	va_list ap;

	if (pm->pm_said || pm->pm_why[0] != '\0')
		return;
	va_start(ap, fmt);
	(void) vsnprintf(pm->pm_why, sizeof(pm->pm_why), fmt, ap);
	va_end(ap);
}

const char *
dt_perfmap_warning(dt_perfmap_t *pm)
{
	if (pm->pm_said || pm->pm_why[0] == '\0')
		return NULL;
	pm->pm_said = true;
	return pm->pm_why;
}

/*
 * The lines of buf (len bytes and a NUL), after pm_tail: 0, or -1
 * (ENOMEM).  A last line not yet ended is kept in pm_tail; *skipp says
 * that what comes first is the rest of a line not to be read.
 */
static int
dt_perfmap_parse(dt_perfmap_t *pm, char *buf, size_t len, bool *skipp)
{
	char *p = buf, *nl;
	int rc = 0;

	if (*skipp) {
		if ((nl = memchr(buf, '\n', len)) == NULL)
			return 0;
		*skipp = false;
		p = nl + 1;
	}
	for (; rc == 0 &&
	     (nl = memchr(p, '\n', len - (size_t) (p - buf))) != NULL;
	     p = nl + 1)
		rc = dt_perfmap_line(pm, p, (size_t) (nl - p));
	free(pm->pm_tail);
	pm->pm_tail = NULL;
	if (rc != 0 || *p == '\0')
		return rc;
	if (strlen(p) > DT_PERFMAP_LINE) {
		*skipp = true;
		return 0;
	}
	return (pm->pm_tail = strdup(p)) == NULL ? -1 : 0;
}

int
dt_perfmap_update(dt_perfmap_t *pm, const char *path, uid_t owner)
{
	struct stat st;
	off_t from, to, budget;
	bool skip = false;
	int fd, rc = 0;

	/*
	 * Opening a FIFO for reading waits for a writer, for ever and
	 * deaf to signals; a link planted in /tmp names whatever file its
	 * maker likes.  Neither is followed: the file is checked by what
	 * was opened, not by its name.
	 */
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC)) <
	    0) {
		if (errno == ELOOP)
			dt_perfmap_why(
			    pm, "%s not read: a symbolic link", path);
		return 0;
	}
	if (fstat(fd, &st) != 0) {
		(void) close(fd);
		return 0;
	}
	if (!S_ISREG(st.st_mode) || (st.st_uid != owner && st.st_uid != 0)) {
		if (!S_ISREG(st.st_mode))
			dt_perfmap_why(
			    pm, "%s not read: not a regular file", path);
		else
			dt_perfmap_why(pm,
			    "%s not read: owned by uid %u, not by the "
			    "process's user (uid %u) or root",
			    path, (unsigned) st.st_uid, (unsigned) owner);
		(void) close(fd);
		return 0;
	}
	if (st.st_size == pm->pm_read) {
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
	from = pm->pm_read;
	to = st.st_size;
	budget = (off_t) DT_PERFMAP_MAX - pm->pm_parsed;
	if (to - from > budget) {
		dt_perfmap_why(pm,
		    "%s read in part: %lld MB, of which %lu MB are read at "
		    "most",
		    path, (long long) (st.st_size >> 20),
		    (unsigned long) (DT_PERFMAP_MAX >> 20));
		if (from == 0 && budget > 0) {
			/* The newest code, from a line's start. */
			from = to - budget;
			skip = true;
		} else {
			to = from + budget;
		}
	}
	while (rc == 0 && from < to) {
		size_t tail = pm->pm_tail != NULL ? strlen(pm->pm_tail) : 0;
		size_t want = (size_t) (to - from) < DT_PERFMAP_CHUNK
		    ? (size_t) (to - from)
		    : DT_PERFMAP_CHUNK;
		char *buf;
		ssize_t n;

		if ((buf = malloc(tail + want + 1)) == NULL) {
			rc = -1;
			break;
		}
		if (tail > 0)
			memcpy(buf, pm->pm_tail, tail);
		if ((n = pread(fd, buf + tail, want, from)) <= 0) {
			/* Cut short while being read: what was read stands. */
			free(buf);
			break;
		}
		from += n;
		pm->pm_read = from;
		pm->pm_parsed += n;
		buf[tail + (size_t) n] = '\0';
		rc = dt_perfmap_parse(pm, buf, tail + (size_t) n, &skip);
		free(buf);
	}
	(void) close(fd);
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
