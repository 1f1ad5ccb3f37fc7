/* SPDX-License-Identifier: MIT */
/*
 * dt_ksyms.c: the kernel's symbol table, from /proc/kallsyms.
 *
 * Each line of kallsyms is "address type name", followed by "\t[module]"
 * for a loadable module's symbols (the kernel's own carry no module; we
 * call it "vmlinux" as DTrace on Linux does).  The table is one array of
 * entries sorted by address, searched by bisection; names and modules
 * point into the table's own copy of the text, cut into strings in place.
 *
 * Only text symbols (t, T, w, W) name code.  Every other symbol is kept as
 * a boundary, because kallsyms gives no sizes: a symbol is taken to run
 * up to the next entry, and without boundaries the last function before
 * a data section would swallow the whole section.  A lookup in one gives
 * the variable's name (%a of a variable's address); a text symbol at the
 * same address is preferred.  At one address
 * several names may sit (aliases, a global and its local twin); the one
 * kept is the first of: global before weak before local, then fewer
 * leading underscores (the public name rather than its internal alias),
 * native system call entry points before their compat twins (__x64_sys_
 * before __ia32_sys_, which share the code of calls without arguments),
 * then the order of the file.
 *
 * Without CAP_SYSLOG, or with kernel.kptr_restrict = 2, the kernel prints
 * every address as zero: the table is then empty and says it is
 * restricted, so the caller can say why nothing resolves.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/linux/dt_ksyms.h"

typedef struct dt_ksym {
	uint64_t ks_addr;
	const char *ks_name; /* NULL: a boundary, not code */
	const char *ks_sym;  /* the name, whatever the symbol's type */
	const char *ks_mod;
	uint32_t ks_rank;    /* lower is preferred at equal addresses */
	uint32_t ks_seq;     /* line number, to keep the sort stable */
} dt_ksym_t;

struct dt_ksyms {
	char *kt_text; /* the copy the names point into */
	dt_ksym_t *kt_syms;
	size_t kt_nsyms;
	dt_ksym_t *kt_data; /* the other symbols, for lookups by name */
	size_t kt_ndata;
	size_t kt_ntext;
	uint64_t kt_textlo;	/* the lowest text symbol's address */
	bool kt_restricted;
};

static const char dt_ksyms_kernel[] = "vmlinux";

/* Rank of a symbol type and name; UINT32_MAX marks a non-text symbol. */
static uint32_t
dt_ksyms_rank(char type, const char *name)
{
	uint32_t r, us = 0;

	switch (type) {
	case 'T':
		r = 0;
		break;
	case 'W':
	case 'w':
		r = 1;
		break;
	case 't':
		r = 2;
		break;
	default:
		return UINT32_MAX;
	}
	while (name[us] == '_' && us < 14)
		us++;
	if (strncmp(name, "__ia32_", 7) == 0)
		us++;
	return r * 16 + us;
}

static int
dt_ksyms_cmp(const void *lp, const void *rp)
{
	const dt_ksym_t *l = lp, *r = rp;

	if (l->ks_addr != r->ks_addr)
		return l->ks_addr < r->ks_addr ? -1 : 1;
	if (l->ks_rank != r->ks_rank)
		return l->ks_rank < r->ks_rank ? -1 : 1;
	return l->ks_seq < r->ks_seq ? -1 : l->ks_seq > r->ks_seq;
}

static int
dt_ksyms_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Parse one line, cutting its strings in place.  Returns false for a
 * line that is not a symbol (blank, malformed).
 */
static bool
dt_ksyms_line(char *p, char *end, dt_ksym_t *ks, bool *zerop)
{
	uint64_t addr = 0;
	int ndig = 0, d;
	char type, *name, *mod = NULL;

	while (p < end && (d = dt_ksyms_hexval(*p)) >= 0 && ndig < 16) {
		addr = addr << 4 | (uint64_t) d;
		ndig++;
		p++;
	}
	if (ndig == 0 || p + 3 > end || *p != ' ' || p[2] != ' ')
		return false;
	type = p[1];
	name = p + 3;
	for (p = name; p < end && *p != '\t' && *p != ' '; p++)
		;
	if (p == name)
		return false;
	if (p < end) {
		*p++ = '\0';
		while (p < end && (*p == '\t' || *p == ' '))
			p++;
		if (p < end && *p == '[') {
			char *close = memchr(p, ']', (size_t) (end - p));

			if (close != NULL && close > p + 1) {
				*close = '\0';
				mod = p + 1;
			}
		}
	}
	*end = '\0';
	*zerop = addr == 0;
	ks->ks_addr = addr;
	ks->ks_rank = dt_ksyms_rank(type, name);
	ks->ks_name = ks->ks_rank == UINT32_MAX ? NULL : name;
	ks->ks_sym = name;
	ks->ks_mod = mod != NULL ? mod : dt_ksyms_kernel;
	return true;
}

dt_ksyms_t *
dt_ksyms_parse(const char *text, size_t len)
{
	dt_ksyms_t *kt = calloc(1, sizeof (*kt));
	size_t nlines = 1, n = 0, nzero = 0, i, j;
	char *p, *end, *limit;

	if (kt == NULL)
		return NULL;
	if ((kt->kt_text = malloc(len + 1)) == NULL)
		goto nomem;
	memcpy(kt->kt_text, text, len);
	kt->kt_text[len] = '\0';
	for (i = 0; i < len; i++)
		nlines += text[i] == '\n';
	if ((kt->kt_syms = calloc(nlines, sizeof (dt_ksym_t))) == NULL)
		goto nomem;

	limit = kt->kt_text + len;
	for (p = kt->kt_text; p < limit; p = end + 1) {
		dt_ksym_t *ks = &kt->kt_syms[n];
		bool zero;

		if ((end = memchr(p, '\n', (size_t) (limit - p))) == NULL)
			end = limit;
		if (!dt_ksyms_line(p, end, ks, &zero))
			continue;
		if (zero) {
			/* Hidden, or an undefined weak symbol: no place. */
			nzero++;
			continue;
		}
		ks->ks_seq = (uint32_t) n;
		n++;
	}
	kt->kt_restricted = n == 0 && nzero > 0;
	/* Data symbols go into a table of their own, before the sort. */
	kt->kt_textlo = UINT64_MAX;
	for (i = 0; i < n; i++) {
		kt->kt_ndata += kt->kt_syms[i].ks_name == NULL;
		if (kt->kt_syms[i].ks_name != NULL &&
		    kt->kt_syms[i].ks_addr < kt->kt_textlo)
			kt->kt_textlo = kt->kt_syms[i].ks_addr;
	}
	if (kt->kt_ndata > 0 &&
	    (kt->kt_data = calloc(kt->kt_ndata, sizeof (dt_ksym_t))) == NULL)
		goto nomem;
	for (i = j = 0; i < n; i++) {
		if (kt->kt_syms[i].ks_name == NULL)
			kt->kt_data[j++] = kt->kt_syms[i];
	}

	qsort(kt->kt_syms, n, sizeof (dt_ksym_t), dt_ksyms_cmp);
	/* One entry per address: the preferred name sorts first. */
	for (i = j = 0; i < n; i++) {
		if (j > 0 && kt->kt_syms[j - 1].ks_addr == kt->kt_syms[i].ks_addr)
			continue;
		kt->kt_syms[j++] = kt->kt_syms[i];
		kt->kt_ntext += kt->kt_syms[i].ks_name != NULL;
	}
	kt->kt_nsyms = j;
	return kt;

nomem:
	dt_ksyms_free(kt);
	return NULL;
}

dt_ksyms_t *
dt_ksyms_load(const char *path)
{
	size_t len = 0, cap = 1 << 20;
	char *buf = malloc(cap);
	dt_ksyms_t *kt = NULL;
	int fd, err;
	ssize_t r;

	if (buf == NULL)
		return NULL;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		err = errno;
		free(buf);
		errno = err;
		return NULL;
	}
	/* A proc file has no size to ask for: read until the end. */
	for (;;) {
		if (len == cap) {
			char *nbuf = realloc(buf, cap * 2);

			if (nbuf == NULL) {
				err = ENOMEM;
				goto out;
			}
			buf = nbuf;
			cap *= 2;
		}
		r = read(fd, buf + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			err = errno;
			goto out;
		}
		if (r == 0)
			break;
		len += (size_t) r;
	}
	err = 0;
	if ((kt = dt_ksyms_parse(buf, len)) == NULL)
		err = ENOMEM;
out:
	(void) close(fd);
	free(buf);
	errno = err;
	return kt;
}

void
dt_ksyms_free(dt_ksyms_t *kt)
{
	if (kt == NULL)
		return;
	free(kt->kt_syms);
	free(kt->kt_data);
	free(kt->kt_text);
	free(kt);
}

size_t
dt_ksyms_count(const dt_ksyms_t *kt)
{
	return kt->kt_ntext;
}

bool
dt_ksyms_restricted(const dt_ksyms_t *kt)
{
	return kt->kt_restricted;
}

int
dt_ksyms_lookup(const dt_ksyms_t *kt, uint64_t addr, const char **modp,
    const char **namep, uint64_t *valuep)
{
	size_t lo = 0, hi = kt->kt_nsyms;
	const dt_ksym_t *ks;

	/* The last entry at or below addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (kt->kt_syms[mid].ks_addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return -1;
	ks = &kt->kt_syms[lo - 1];
	/*
	 * The last entry has nothing after it to end it: only its own
	 * address is surely inside it.
	 */
	/*
	 * Per-CPU variables are listed at their offsets in the per-CPU area
	 * (cpu_debug_store at 0x1000), below the kernel's text: not
	 * addresses, so a small number is not taken for one of them.
	 */
	if ((ks->ks_name == NULL && ks->ks_sym == NULL) ||
	    (lo == kt->kt_nsyms && addr != ks->ks_addr) ||
	    (ks->ks_name == NULL && addr < kt->kt_textlo))
		return -1;
	*modp = ks->ks_mod;
	/* A variable names its bytes, as DTrace's %a of `&`max_pfn does. */
	*namep = ks->ks_name != NULL ? ks->ks_name : ks->ks_sym;
	*valuep = ks->ks_addr;
	return 0;
}

int
dt_ksyms_addr(const dt_ksyms_t *kt, const char *mod, const char *name,
    uint64_t *addrp)
{
	for (int pass = 0; pass < 2; pass++) {
		const dt_ksym_t *v = pass == 0 ? kt->kt_data : kt->kt_syms;
		size_t n = pass == 0 ? kt->kt_ndata : kt->kt_nsyms;

		for (size_t i = 0; i < n; i++) {
			if (v[i].ks_sym == NULL || strcmp(v[i].ks_sym, name) != 0 ||
			    (mod != NULL && strcmp(v[i].ks_mod, mod) != 0))
				continue;
			*addrp = v[i].ks_addr;
			return 0;
		}
	}
	return -1;
}

int
dt_ksyms_text_range(const dt_ksyms_t *kt, const char *mod, uint64_t *startp,
    uint64_t *endp)
{
	size_t first = SIZE_MAX, last = 0;

	for (size_t i = 0; i < kt->kt_nsyms; i++) {
		const dt_ksym_t *ks = &kt->kt_syms[i];

		if (ks->ks_name == NULL || strcmp(ks->ks_mod, mod) != 0)
			continue;
		if (first == SIZE_MAX)
			first = i;
		last = i;
	}
	if (first == SIZE_MAX)
		return -1;
	*startp = kt->kt_syms[first].ks_addr;
	*endp = last + 1 < kt->kt_nsyms ? kt->kt_syms[last + 1].ks_addr :
	    kt->kt_syms[last].ks_addr + 1;
	return 0;
}

int
dt_ksyms_range(const dt_ksyms_t *kt, const char *name, uint64_t *startp,
    uint64_t *endp)
{
	for (size_t i = 0; i < kt->kt_nsyms; i++) {
		const dt_ksym_t *ks = &kt->kt_syms[i];

		if (ks->ks_name == NULL || strcmp(ks->ks_name, name) != 0)
			continue;
		*startp = ks->ks_addr;
		*endp = i + 1 < kt->kt_nsyms ? kt->kt_syms[i + 1].ks_addr :
		    ks->ks_addr + 1;
		return 0;
	}
	return -1;
}
