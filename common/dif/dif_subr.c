/* SPDX-License-Identifier: MIT */
/*
 * dif_subr.c: D's subroutines, as the interpreter runs them.
 *
 * Each subroutine takes its arguments from the tuple stack and leaves its
 * result in rd.  String arguments are first copied (bounded by strsize)
 * into the mstate's work buffers, so the code below works on ordinary C
 * strings whatever memory they came from; strings it returns are built in
 * scratch, strsize bytes each, as in DTrace.  strchr(), strrchr() and
 * strstr() return addresses inside their argument, not copies.
 *
 * Edge cases follow DTrace: substr() with negative index and length,
 * index()/rindex() with Perl's position rules, lltostr() bases and
 * prefixes, basename()/dirname() of "", "/" and "a/", cleanpath() (which,
 * like DTrace's, does not resolve symbolic links), strjoin() faulting "out
 * of scratch space" past strsize, inet_ntop()'s "::" compression and
 * embedded IPv4 forms.
 *
 * On Linux some subroutines have no meaning of their own:
 *
 *   mutex_owned() etc. read a struct mutex (owner word: task pointer with
 *	flag bits 0-2) and rw_*() a struct rw_semaphore (count: bit 0
 *	writer, readers from bit 8) through the engine's kernel reads; with
 *	no kernel memory they fault "invalid address";
 *   getmajor()/getminor() split a kernel dev_t (major above bit 20);
 *   speculation(), progenyof(), getf(), ddi_pathname(), msgsize() and
 *	msgdsize() ask the engine (dif_ops_t.do_subr); without one,
 *	speculation() returns 0 (no buffer), progenyof() walks the
 *	process's ancestors as the OS tells them (dt_os_proc_parent()),
 *	and the others fault "illegal operation".
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/dif/dif_impl.h"
#include "common/dt_os.h"


/* Copies string argument i into work buffer w; NULL after a fault. */
static char *
dif_sarg(dif_mstate_t *ms, const dif_tuple_t *tup, int i, int w)
{
	char *buf = ms->ms_work[w];

	if (dif_getstr(ms, DIF_AS_KERNEL, tup[i].tu_value, buf,
	    ms->ms_state->st_strsize) < 0)
		return NULL;
	return buf;
}

/* A new string of strsize bytes in scratch, or NULL after a fault. */
static char *
dif_snew(dif_mstate_t *ms)
{
	return dif_scratch_alloc(ms, ms->ms_state->st_strsize);
}

static uint64_t
dif_addr(const void *p)
{
	return (uint64_t) (uintptr_t) p;
}

/* Returns a copy of s[0..len) as a new string. */
static uint64_t
dif_sret(dif_mstate_t *ms, const char *s, size_t len)
{
	size_t max = ms->ms_state->st_strsize - 1;
	char *d;

	if ((d = dif_snew(ms)) == NULL)
		return 0;
	if (len > max)
		len = max;
	memcpy(d, s, len);
	d[len] = '\0';
	return dif_addr(d);
}

static uint64_t
dif_substr(dif_mstate_t *ms, const dif_tuple_t *tup, int nargs)
{
	int64_t size = (int64_t) ms->ms_state->st_strsize;
	int64_t len, idx, rem;
	const int64_t big = (int64_t) 1 << 40;
	char *s;

	if ((s = dif_sarg(ms, tup, 0, 0)) == NULL)
		return 0;
	len = (int64_t) strlen(s);
	idx = (int64_t) tup[1].tu_value;
	rem = nargs > 2 ? (int64_t) tup[2].tu_value : size;
	/* Clamp so that the sums below cannot overflow. */
	idx = idx > big ? big : idx < -big ? -big : idx;
	rem = rem > big ? big : rem < -big ? -big : rem;

	if (idx < 0) {
		idx += len;
		if (idx < 0 && idx + rem > 0) {
			rem += idx;
			idx = 0;
		}
	}
	if (idx >= len || idx < 0)
		rem = 0;
	else if (rem < 0)
		rem += len - idx;
	else if (idx + rem > size)
		rem = size - idx;
	if (rem < 0)
		rem = 0;
	if (rem > len - idx)
		rem = len - idx > 0 ? len - idx : 0;
	return dif_sret(ms, s + (idx > 0 ? idx : 0), (size_t) rem);
}

/*
 * index(), rindex() and strstr().  Positions are those of Perl's index
 * and rindex, including their treatment of an empty substring.
 */
static uint64_t
dif_index(dif_mstate_t *ms, uint32_t subr, const dif_tuple_t *tup,
    int nargs)
{
	char *s, *sub;
	int64_t len, sublen, pos, end, step;

	if ((s = dif_sarg(ms, tup, 0, 0)) == NULL ||
	    (sub = dif_sarg(ms, tup, 1, 1)) == NULL)
		return 0;
	len = (int64_t) strlen(s);
	sublen = (int64_t) strlen(sub);
	if (len == 0 && sublen == 0)
		return subr == DIF_SUBR_STRSTR ? tup[0].tu_value : 0;

	if (subr == DIF_SUBR_RINDEX) {
		pos = len;
		end = -1;
		step = -1;
	} else {
		pos = 0;
		end = len;
		step = 1;
	}
	if (subr != DIF_SUBR_STRSTR && nargs == 3) {
		int64_t p = (int64_t) tup[2].tu_value;

		if (subr == DIF_SUBR_RINDEX) {
			if (p < 0)
				return sublen == 0 ? 0 : (uint64_t) -1;
			pos = p > len ? len : p;
		} else {
			if (p < 0)
				p = 0;
			if (p >= len)
				return sublen == 0 ? (uint64_t) len :
				    (uint64_t) -1;
			pos = p;
		}
	}
	for (; pos != end; pos += step) {
		if (pos + sublen <= len &&
		    memcmp(s + pos, sub, (size_t) sublen) == 0) {
			if (subr == DIF_SUBR_STRSTR)
				return tup[0].tu_value + (uint64_t) pos;
			return (uint64_t) pos;
		}
	}
	return subr == DIF_SUBR_STRSTR ? 0 : (uint64_t) -1;
}

static uint64_t
dif_strchr(dif_mstate_t *ms, uint32_t subr, const dif_tuple_t *tup)
{
	char target = (char) tup[1].tu_value, *s;
	uint64_t result = 0;
	size_t i;

	if ((s = dif_sarg(ms, tup, 0, 0)) == NULL)
		return 0;
	for (i = 0;; i++) {
		if (s[i] == target) {
			result = tup[0].tu_value + i;
			if (subr == DIF_SUBR_STRCHR)
				break;
		}
		if (s[i] == '\0')
			break;
	}
	return result;
}

static uint64_t
dif_strjoin(dif_mstate_t *ms, const dif_tuple_t *tup)
{
	size_t l1, l2;
	char *a, *b, *d;

	if ((a = dif_sarg(ms, tup, 0, 0)) == NULL ||
	    (b = dif_sarg(ms, tup, 1, 1)) == NULL)
		return 0;
	l1 = strlen(a);
	l2 = strlen(b);
	if (l1 + l2 >= ms->ms_state->st_strsize) {
		dif_fault(ms, DIF_FLT_NOSCRATCH, 0);
		return 0;
	}
	if ((d = dif_snew(ms)) == NULL)
		return 0;
	memcpy(d, a, l1);
	memcpy(d + l1, b, l2 + 1);
	return dif_addr(d);
}

static uint64_t
dif_strtok(dif_mstate_t *ms, const dif_tuple_t *tup)
{
	size_t ss = ms->ms_state->st_strsize;
	unsigned char map[32];
	char *delim, *s, *d;
	size_t i, n;

	if (tup[0].tu_value != 0) {
		if (dif_getstr(ms, DIF_AS_KERNEL, tup[0].tu_value,
		    ms->ms_strtok, ss) < 0)
			return 0;
		ms->ms_strtok_valid = true;
		ms->ms_strtok_pos = 0;
	} else if (!ms->ms_strtok_valid) {
		return 0;
	}
	if ((delim = dif_sarg(ms, tup, 1, 1)) == NULL)
		return 0;
	memset(map, 0, sizeof (map));
	for (i = 0; delim[i] != '\0'; i++)
		map[(unsigned char) delim[i] >> 3] |=
		    (unsigned char) (1U << ((unsigned char) delim[i] & 7));
#define DELIM(c) (map[(unsigned char) (c) >> 3] & (1U << ((c) & 7)))
	s = ms->ms_strtok + ms->ms_strtok_pos;
	while (*s != '\0' && DELIM((unsigned char) *s))
		s++;
	if (*s == '\0') {
		ms->ms_strtok_valid = false;
		return 0;
	}
	if ((d = dif_snew(ms)) == NULL)
		return 0;
	for (n = 0; s[n] != '\0' && !DELIM((unsigned char) s[n]); n++)
		d[n] = s[n];
	d[n] = '\0';
#undef DELIM
	ms->ms_strtok_pos = (size_t) (s + n - ms->ms_strtok);
	return dif_addr(d);
}

static uint64_t
dif_lltostr(dif_mstate_t *ms, const dif_tuple_t *tup, int nargs)
{
	int64_t v = (int64_t) tup[0].tu_value;
	uint64_t base = 10, u;
	char buf[72], *p = buf + sizeof (buf) - 1;
	unsigned digit;

	if (nargs > 1) {
		base = tup[1].tu_value;
		if (base <= 1 || base > 36) {
			dif_fault(ms, DIF_FLT_ILLOP, 0);
			return 0;
		}
	}
	u = base == 10 && v < 0 ? 0 - (uint64_t) v : (uint64_t) v;
	*p = '\0';
	for (; u != 0; u /= base) {
		digit = (unsigned) (u % base);
		*--p = (char) (digit < 10 ? '0' + digit : 'a' + digit - 10);
	}
	if (v == 0 && base == 16)
		*--p = '0';
	if (base == 16)
		*--p = 'x';
	if (v == 0 || base == 8 || base == 16)
		*--p = '0';
	if (v < 0 && base == 10)
		*--p = '-';
	return dif_sret(ms, p, strlen(p));
}

static uint64_t
dif_basename(dif_mstate_t *ms, uint32_t subr, const dif_tuple_t *tup)
{
	int64_t len, i, firstbase, lastbase, lastdir, start, end;
	char *s;

	if ((s = dif_sarg(ms, tup, 0, 0)) == NULL)
		return 0;
	if ((len = (int64_t) strlen(s)) == 0)
		return dif_sret(ms, ".", 1);
	for (i = len - 1; i >= 0 && s[i] == '/'; i--)
		continue;
	lastbase = i;
	for (; i >= 0 && s[i] != '/'; i--)
		continue;
	firstbase = i + 1;
	for (; i >= 0 && s[i] == '/'; i--)
		continue;
	lastdir = i;
	if (lastbase < 0)	/* all slashes */
		return dif_sret(ms, "/", 1);
	if (subr == DIF_SUBR_BASENAME) {
		start = firstbase;
		end = lastbase;
	} else if (lastdir < 0) {
		return s[0] == '/' ? dif_sret(ms, "/", 1) :
		    dif_sret(ms, ".", 1);
	} else {
		start = 0;
		end = lastdir;
	}
	return dif_sret(ms, s + start, (size_t) (end - start + 1));
}

/*
 * cleanpath(): "//" becomes "/", "/./" becomes "/", and "/../" removes
 * the component before it (never going above the start), as DTrace
 * does it: a trailing "/." stays, and a trailing "/.." keeps the byte
 * the removal stops at, the '/' before the component or else the first
 * byte written ("a/.." is "a", "../../.." is "."; '/' if none was).
 */
static uint64_t
dif_cleanpath(dif_mstate_t *ms, const dif_tuple_t *tup)
{
	size_t max = ms->ms_state->st_strsize - 1, i = 0, j = 0, high = 0;
	char *s, *d;
	char c;

	if ((s = dif_sarg(ms, tup, 0, 0)) == NULL || (d = dif_snew(ms)) ==
	    NULL)
		return 0;
#define PUT(ch)                                                              \
	do {                                                                 \
		if (j < max)                                                 \
			d[j++] = (ch);                                       \
	} while (0)
	do {
		/* DTrace stops while "/..c" and the NUL would still fit. */
		if (j + 5 >= max + 1)
			break;
		c = s[i++];
		if (c != '/') {
			if (c != '\0')
				PUT(c);
			continue;
		}
		c = s[i++];
		if (c == '/') {		/* "//" */
			i--;
			continue;
		}
		if (c != '.') {
			PUT('/');
			if (c != '\0')
				PUT(c);
			continue;
		}
		c = s[i++];
		if (c == '/') {		/* "/./" */
			i--;
			continue;
		}
		if (c == '\0') {	/* trailing "/." */
			PUT('/');
			PUT('.');
			break;
		}
		if (c != '.') {
			PUT('/');
			PUT('.');
			PUT(c);
			continue;
		}
		c = s[i++];
		if (c != '/' && c != '\0') {
			PUT('/');
			PUT('.');
			PUT('.');
			PUT(c);
			continue;
		}
		/* "/../" or a trailing "/..": drop the last component. */
		if (j > high)
			high = j;
		while (j != 0 && d[--j] != '/')
			continue;
		if (c == '\0' && j < high)
			j++;
		else if (c == '\0')
			PUT('/');
		else
			i--;
	} while (c != '\0');
#undef PUT
	d[j] = '\0';
	return dif_addr(d);
}

static uint64_t
dif_case(dif_mstate_t *ms, bool upper, const dif_tuple_t *tup)
{
	char *s;
	size_t i;

	if ((s = dif_sarg(ms, tup, 0, 0)) == NULL)
		return 0;
	for (i = 0; s[i] != '\0'; i++) {
		if (upper && s[i] >= 'a' && s[i] <= 'z')
			s[i] = (char) (s[i] - 'a' + 'A');
		else if (!upper && s[i] >= 'A' && s[i] <= 'Z')
			s[i] = (char) (s[i] - 'A' + 'a');
	}
	return dif_sret(ms, s, i);
}

static uint64_t
dif_ntoa4(dif_mstate_t *ms, const uint8_t *a)
{
	char buf[16];
	int n;

	n = snprintf(buf, sizeof (buf), "%u.%u.%u.%u", a[0], a[1], a[2], a[3]);
	return dif_sret(ms, buf, (size_t) n);
}

/*
 * An IPv6 address with a run of zero groups written "::", chosen as DTrace
 * chooses it: DTrace measures runs in bytes, scanning from each zero high
 * byte to the next non-zero byte, so a run counts the zero high byte of
 * the group after it, and a run that ends the address counts one byte
 * less; a run is taken when it measures more than the bytes of the run
 * taken so far (at least one byte).  So a lone zero group at the end is
 * written "0", and of two runs of the same length the first is taken
 * unless the group after the second is below 0x100.  IPv4-mapped and
 * -compatible addresses end in dotted form, or are only that when v4only
 * (inet_ntoa6()); a run reaching into the dotted part is not compressed.
 */
static uint64_t
dif_ntoa6(dif_mstate_t *ms, const uint8_t *a, bool v4only)
{
	static const uint8_t zero[12];
	uint16_t g[8];
	int ngroups = 8, best = -1, bestlen = 0, i, j, run, len;
	bool mapped, compat;
	char buf[64];
	size_t n = 0;

	mapped = memcmp(a, zero, 10) == 0 && a[10] == 0xff && a[11] == 0xff;
	compat = memcmp(a, zero, 12) == 0 && !(a[12] == 0 && a[13] == 0 &&
	    a[14] == 0 && a[15] <= 1);
	if ((mapped || compat) && v4only)
		return dif_ntoa4(ms, a + 12);
	if (mapped || compat)
		ngroups = 6;
	for (i = 0; i < 8; i++)
		g[i] = (uint16_t) (a[2 * i] << 8 | a[2 * i + 1]);
	for (i = 0; i < 8; i = j + 1) {
		for (j = i; j < 8 && g[j] == 0; j++)
			continue;
		if ((run = j - i) == 0)
			continue;
		len = j == 8 ? 2 * run - 1 : 2 * run + (a[2 * j] == 0);
		if (len > (bestlen > 0 ? 2 * bestlen : 1)) {
			best = i;
			bestlen = run;
		}
	}
	if (best + bestlen > ngroups) {
		best = -1;
		bestlen = 0;
	}
	for (i = 0; i < ngroups; i++) {
		if (i == best) {
			n += (size_t) snprintf(buf + n, sizeof (buf) - n, "::");
			i += bestlen - 1;
			continue;
		}
		if (i > 0 && i != best + bestlen)
			buf[n++] = ':';
		n += (size_t) snprintf(buf + n, sizeof (buf) - n, "%x", g[i]);
	}
	if (mapped || compat) {
		if (best + bestlen != ngroups)
			buf[n++] = ':';
		n += (size_t) snprintf(buf + n, sizeof (buf) - n,
		    "%u.%u.%u.%u", a[12], a[13], a[14], a[15]);
	}
	return dif_sret(ms, buf, n);
}

static uint64_t
dif_inet(dif_mstate_t *ms, uint32_t subr, const dif_tuple_t *tup)
{
	uint8_t a[16];
	uint64_t af, addr;

	if (subr == DIF_SUBR_INET_NTOP) {
		af = tup[0].tu_value;
		addr = tup[1].tu_value;
	} else {
		af = subr == DIF_SUBR_INET_NTOA ? (uint64_t) dt_os_af_inet :
		    (uint64_t) dt_os_af_inet6;
		addr = tup[0].tu_value;
	}
	/* The OS's numbers, as its D library gives them to programs. */
	if (af == (uint64_t) dt_os_af_inet) {
		if (dif_copyin(ms, DIF_AS_KERNEL, addr, a, 4) != 0)
			return 0;
		return dif_ntoa4(ms, a);
	}
	if (af != (uint64_t) dt_os_af_inet6) {
		dif_fault(ms, DIF_FLT_ILLOP, 0);
		return 0;
	}
	if (dif_copyin(ms, DIF_AS_KERNEL, addr, a, 16) != 0)
		return 0;
	return dif_ntoa6(ms, a, subr == DIF_SUBR_INET_NTOA6);
}

/*
 * link_ntop(type, addr): a link-layer address as hex bytes joined by ':'.
 * The type (Linux's ARPHRD_*) says how long: Ethernet's 6 bytes,
 * InfiniBand's 20; any other type is an illegal operation.
 */
#define DIF_ARPHRD_ETHER 1
#define DIF_ARPHRD_INFINIBAND 32

static uint64_t
dif_link_ntop(dif_mstate_t *ms, const dif_tuple_t *tup)
{
	uint8_t a[20];
	char buf[3 * sizeof (a)];
	size_t len, n = 0;

	if (tup[0].tu_value == DIF_ARPHRD_ETHER)
		len = 6;
	else if (tup[0].tu_value == DIF_ARPHRD_INFINIBAND)
		len = 20;
	else {
		dif_fault(ms, DIF_FLT_ILLOP, 0);
		return 0;
	}
	if (dif_copyin(ms, DIF_AS_KERNEL, tup[1].tu_value, a, len) != 0)
		return 0;
	for (size_t i = 0; i < len; i++)
		n += (size_t) snprintf(buf + n, sizeof (buf) - n, "%s%02x",
		    i > 0 ? ":" : "", a[i]);
	return dif_sret(ms, buf, n);
}

static uint64_t
dif_strtoll(dif_mstate_t *ms, const dif_tuple_t *tup, int nargs)
{
	uint64_t base = 10, val = 0;
	bool neg = false;
	unsigned digit;
	char *s;

	if (nargs > 1) {
		base = tup[1].tu_value;
		if (base <= 1 || base > 36) {
			dif_fault(ms, DIF_FLT_ILLOP, 0);
			return 0;
		}
	}
	if ((s = dif_sarg(ms, tup, 0, 0)) == NULL)
		return 0;
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' ||
	    *s == '\f' || *s == '\v')
		s++;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (;; s++) {
		if (*s >= '0' && *s <= '9')
			digit = (unsigned) (*s - '0');
		else if (*s >= 'a' && *s <= 'z')
			digit = (unsigned) (*s - 'a' + 10);
		else if (*s >= 'A' && *s <= 'Z')
			digit = (unsigned) (*s - 'A' + 10);
		else
			break;
		if (digit >= base)
			break;
		val = val * base + digit;
	}
	return neg ? 0 - val : val;
}

/*
 * json(): the value at a selector such as "a.b[2].c" in a JSON text.
 * Strings yield their contents (escapes as written), numbers and the
 * literals their text; objects, arrays, a missing member and malformed
 * JSON yield NULL.
 */
typedef struct dif_json {
	const char *js;
} dif_json_t;

static void
dif_json_ws(dif_json_t *j)
{
	while (*j->js == ' ' || *j->js == '\t' || *j->js == '\n' ||
	    *j->js == '\r')
		j->js++;
}

/* Skips one value; false if malformed.  depth bounds the recursion. */
static bool
dif_json_skip(dif_json_t *j, int depth)
{
	char close;

	dif_json_ws(j);
	if (depth > 32)
		return false;
	if (*j->js == '"') {
		for (j->js++; *j->js != '"'; j->js++) {
			if (*j->js == '\0')
				return false;
			if (*j->js == '\\' && j->js[1] != '\0')
				j->js++;
		}
		j->js++;
		return true;
	}
	if (*j->js == '{' || *j->js == '[') {
		close = *j->js == '{' ? '}' : ']';
		j->js++;
		dif_json_ws(j);
		if (*j->js == close) {
			j->js++;
			return true;
		}
		for (;;) {
			if (close == '}') {
				if (!dif_json_skip(j, depth + 1))
					return false;
				dif_json_ws(j);
				if (*j->js++ != ':')
					return false;
			}
			if (!dif_json_skip(j, depth + 1))
				return false;
			dif_json_ws(j);
			if (*j->js == ',') {
				j->js++;
				continue;
			}
			if (*j->js++ != close)
				return false;
			return true;
		}
	}
	if (*j->js == '\0' || strchr(",:]}", *j->js) != NULL)
		return false;
	while (*j->js != '\0' && strchr(" \t\r\n,:]}", *j->js) == NULL)
		j->js++;
	return true;
}

static uint64_t
dif_json(dif_mstate_t *ms, const dif_tuple_t *tup)
{
	dif_json_t j;
	char *sel, name[256], *p;
	const char *start;
	size_t n;

	if ((j.js = dif_sarg(ms, tup, 0, 0)) == NULL ||
	    (sel = dif_sarg(ms, tup, 1, 1)) == NULL)
		return 0;
	for (p = sel; *p != '\0';) {
		dif_json_ws(&j);
		if (*p == '[') {
			uint64_t idx = 0, k;

			for (p++; *p >= '0' && *p <= '9'; p++)
				idx = idx * 10 + (uint64_t) (*p - '0');
			if (*p++ != ']' || *j.js != '[')
				return 0;
			j.js++;
			for (k = 0; k < idx; k++) {
				if (!dif_json_skip(&j, 0))
					return 0;
				dif_json_ws(&j);
				if (*j.js++ != ',')
					return 0;
			}
			if (*p == '.')
				p++;
			continue;
		}
		for (n = 0; *p != '\0' && *p != '.' && *p != '['; p++)
			if (n + 1 < sizeof (name))
				name[n++] = *p;
		name[n] = '\0';
		if (*p == '.')
			p++;
		if (*j.js != '{')
			return 0;
		j.js++;
		for (;;) {
			dif_json_ws(&j);
			if (*j.js != '"')
				return 0;
			start = ++j.js;
			j.js--;
			if (!dif_json_skip(&j, 0))
				return 0;
			n = (size_t) (j.js - 1 - start);
			dif_json_ws(&j);
			if (*j.js++ != ':')
				return 0;
			if (n == strlen(name) && memcmp(start, name, n) == 0)
				break;
			if (!dif_json_skip(&j, 0))
				return 0;
			dif_json_ws(&j);
			if (*j.js++ != ',')
				return 0;
		}
	}
	dif_json_ws(&j);
	if (*j.js == '{' || *j.js == '[')
		return 0;
	start = j.js;
	if (!dif_json_skip(&j, 0))
		return 0;
	if (*start == '"')
		return dif_sret(ms, start + 1, (size_t) (j.js - start - 2));
	return dif_sret(ms, start, (size_t) (j.js - start));
}

/* Host to network order (and back) of the low bytes of v. */
static uint64_t
dif_bswap(uint64_t v, int bytes)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return bytes == 8 ? v : v & ((1ULL << (8 * bytes)) - 1);
#else
	uint64_t r = 0;
	int i;

	for (i = 0; i < bytes; i++)
		r = (r << 8) | ((v >> (8 * i)) & 0xff);
	return r;
#endif
}

/* Asks the engine; 1 when it answered (or faulted), 0 when it did not. */
static int
dif_engine_subr(dif_mstate_t *ms, uint32_t subr, const dif_tuple_t *tup,
    int nargs, uint64_t *rdp)
{
	const dif_state_t *st = ms->ms_state;
	uint64_t args[DIF_DTR_NREGS];
	int i, flt;

	if (st->st_ops == NULL || st->st_ops->do_subr == NULL)
		return 0;
	for (i = 0; i < nargs; i++)
		args[i] = tup[i].tu_value;
	flt = st->st_ops->do_subr(st->st_arg, subr, args, nargs, rdp);
	if (flt < 0)
		return 0;
	if (flt > 0)
		dif_fault(ms, flt, 0);
	return 1;
}

static uint64_t
dif_kword(dif_mstate_t *ms, uint64_t addr)
{
	uint64_t w = 0;

	if (addr & 7) {
		dif_fault(ms, DIF_FLT_BADALIGN, addr);
		return 0;
	}
	(void) dif_copyin(ms, DIF_AS_KERNEL, addr, &w, 8);
	return w;
}

/*
 * rand(): xorshift128+, its high 32 bits as the int rand() returns (so
 * negative half the time), every bit as random as DTrace's.
 */
static uint64_t
dif_rand(dif_state_t *st)
{
	uint64_t s1 = st->st_rand[0];
	const uint64_t s0 = st->st_rand[1];

	st->st_rand[0] = s0;
	s1 ^= s1 << 23;
	st->st_rand[1] = s1 ^ s0 ^ (s1 >> 17) ^ (s0 >> 26);
	return (uint64_t) (int64_t) (int32_t) ((st->st_rand[1] + s0) >> 32);
}

void
dif_subr(dif_mstate_t *ms, uint32_t subr, const dif_tuple_t *tup, int nargs,
    uint64_t *rdp)
{
	dif_state_t *st = ms->ms_state;
	const dif_ops_t *ops = st->st_ops;
	uint64_t v, size, ss = st->st_strsize;
	void *p;
	char *s;

	/* The verifier checks counts it can see; guard the rest here. */
	if (subr > DIF_SUBR_MAX || nargs < 0 || nargs > DIF_DTR_NREGS) {
		dif_fault(ms, DIF_FLT_ILLOP, 0);
		return;
	}
	switch (subr) {
	case DIF_SUBR_STRLEN: case DIF_SUBR_TOUPPER: case DIF_SUBR_TOLOWER:
	case DIF_SUBR_BASENAME: case DIF_SUBR_DIRNAME:
	case DIF_SUBR_CLEANPATH: case DIF_SUBR_HTONS: case DIF_SUBR_HTONL:
	case DIF_SUBR_HTONLL: case DIF_SUBR_NTOHS: case DIF_SUBR_NTOHL:
	case DIF_SUBR_NTOHLL: case DIF_SUBR_INET_NTOA:
	case DIF_SUBR_INET_NTOA6: case DIF_SUBR_ALLOCA:
	case DIF_SUBR_GETMAJOR: case DIF_SUBR_GETMINOR:
	case DIF_SUBR_MUTEX_OWNED: case DIF_SUBR_MUTEX_OWNER:
	case DIF_SUBR_MUTEX_TYPE_ADAPTIVE: case DIF_SUBR_MUTEX_TYPE_SPIN:
	case DIF_SUBR_RW_READ_HELD: case DIF_SUBR_RW_WRITE_HELD:
	case DIF_SUBR_RW_ISWRITER: case DIF_SUBR_COPYINSTR:
	case DIF_SUBR_LLTOSTR: case DIF_SUBR_STRTOLL: case DIF_SUBR_PROGENYOF:
	case DIF_SUBR_D_PATH:
		if (nargs < 1)
			goto illop;
		break;
	case DIF_SUBR_RAND: case DIF_SUBR_SPECULATION:
		break;
	case DIF_SUBR_COPYOUT: case DIF_SUBR_COPYOUTSTR: case DIF_SUBR_BCOPY:
	case DIF_SUBR_COPYINTO:
		if (nargs < 3)
			goto illop;
		break;
	default:
		if (nargs < 2 && subr != DIF_SUBR_GETF &&
		    subr != DIF_SUBR_MSGSIZE && subr != DIF_SUBR_MSGDSIZE)
			goto illop;
		if (nargs < 1)
			goto illop;
		break;
	}

	switch (subr) {
	case DIF_SUBR_RAND:
		*rdp = dif_rand(st);
		return;
	case DIF_SUBR_MUTEX_OWNED:
		v = dif_kword(ms, tup[0].tu_value);
		*rdp = (v & ~7ULL) != 0;
		return;
	case DIF_SUBR_MUTEX_OWNER:
		*rdp = dif_kword(ms, tup[0].tu_value) & ~7ULL;
		return;
	case DIF_SUBR_MUTEX_TYPE_ADAPTIVE:
	case DIF_SUBR_MUTEX_TYPE_SPIN:
		(void) dif_kword(ms, tup[0].tu_value);
		*rdp = subr == DIF_SUBR_MUTEX_TYPE_ADAPTIVE;
		return;
	case DIF_SUBR_RW_READ_HELD:
		v = dif_kword(ms, tup[0].tu_value);
		*rdp = !(v & 1) && (v >> 8) != 0;
		return;
	case DIF_SUBR_RW_WRITE_HELD:
	case DIF_SUBR_RW_ISWRITER:
		*rdp = dif_kword(ms, tup[0].tu_value) & 1;
		return;
	case DIF_SUBR_COPYIN:
		size = tup[1].tu_value;
		if ((p = dif_alloca(ms, size)) == NULL)
			return;
		if (dif_copyin(ms, DIF_AS_USER, tup[0].tu_value, p, size) == 0)
			*rdp = dif_addr(p);
		return;
	case DIF_SUBR_COPYINSTR:
		size = ss;
		if (nargs > 1 && tup[1].tu_value < size)
			size = tup[1].tu_value + 1;
		if ((s = dif_snew(ms)) == NULL)
			return;
		if (dif_getstr(ms, DIF_AS_USER, tup[0].tu_value, s, size) >= 0)
			*rdp = dif_addr(s);
		return;
	case DIF_SUBR_COPYINTO:
		size = tup[1].tu_value;
		if ((p = dif_writable(ms, tup[2].tu_value, size)) != NULL)
			(void) dif_copyin(ms, DIF_AS_USER, tup[0].tu_value, p,
			    size);
		return;
	case DIF_SUBR_COPYOUT:
	case DIF_SUBR_COPYOUTSTR:
		size = tup[2].tu_value;
		if (subr == DIF_SUBR_COPYOUTSTR) {
			if ((s = dif_sarg(ms, tup, 0, 0)) == NULL)
				return;
			if (strlen(s) + 1 < size)
				size = strlen(s) + 1;
			p = s;
		} else {
			if (size > ms->ms_scratchsize ||
			    (p = dif_scratch_alloc(ms, size)) == NULL) {
				dif_fault(ms, DIF_FLT_NOSCRATCH, 0);
				return;
			}
			if (dif_copyin(ms, DIF_AS_KERNEL, tup[0].tu_value, p,
			    size) != 0)
				return;
		}
		if (ops == NULL || ops->do_write == NULL ||
		    ops->do_write(st->st_arg, tup[1].tu_value, p, size) != 0)
			dif_fault(ms, DIF_FLT_BADADDR, tup[1].tu_value);
		return;
	case DIF_SUBR_SPECULATION:
		if (!dif_engine_subr(ms, subr, tup, nargs, rdp))
			*rdp = 0;
		return;
	case DIF_SUBR_PROGENYOF:
		if (dif_engine_subr(ms, subr, tup, nargs, rdp))
			return;
		/* The process, then its ancestors, as the OS tells them. */
		v = 0;
		*rdp = 0;
		if (ops == NULL || ops->do_var == NULL ||
		    ops->do_var(st->st_arg, DIF_VAR_PID, 0, &v) != 0)
			return;
		for (int depth = 0; depth < 64 && (int64_t) v > 0; depth++) {
			if (v == tup[0].tu_value) {
				*rdp = 1;
				return;
			}
			v = (uint64_t) (int64_t) dt_os_proc_parent((int) v);
		}
		return;
	case DIF_SUBR_GETF:
	case DIF_SUBR_DDI_PATHNAME:
	case DIF_SUBR_MSGSIZE:
	case DIF_SUBR_MSGDSIZE:
		if (!dif_engine_subr(ms, subr, tup, nargs, rdp))
			goto illop;
		return;
	case DIF_SUBR_STRLEN:
		if ((s = dif_sarg(ms, tup, 0, 0)) != NULL)
			*rdp = strlen(s);
		return;
	case DIF_SUBR_ALLOCA:
		size = tup[0].tu_value;
		if ((p = dif_alloca(ms, size)) != NULL)
			*rdp = dif_addr(p);
		return;
	case DIF_SUBR_BCOPY:
		size = tup[2].tu_value;
		/* As in DTrace, the destination must be scratch (alloca). */
		if (!dif_in_scratch(ms, tup[1].tu_value, size, true)) {
			dif_fault(ms, DIF_FLT_BADADDR, tup[1].tu_value);
			return;
		}
		(void) dif_copyin(ms, DIF_AS_KERNEL, tup[0].tu_value,
		    (void *) (uintptr_t) tup[1].tu_value, size);
		return;
	case DIF_SUBR_GETMAJOR:
		*rdp = (tup[0].tu_value >> 20) & 0xfff;
		return;
	case DIF_SUBR_GETMINOR:
		*rdp = tup[0].tu_value & 0xfffff;
		return;
	case DIF_SUBR_STRJOIN:
		*rdp = dif_strjoin(ms, tup);
		return;
	case DIF_SUBR_LLTOSTR:
		*rdp = dif_lltostr(ms, tup, nargs);
		return;
	case DIF_SUBR_BASENAME:
	case DIF_SUBR_DIRNAME:
		*rdp = dif_basename(ms, subr, tup);
		return;
	case DIF_SUBR_CLEANPATH:
		*rdp = dif_cleanpath(ms, tup);
		return;
	case DIF_SUBR_STRCHR:
	case DIF_SUBR_STRRCHR:
		*rdp = dif_strchr(ms, subr, tup);
		return;
	case DIF_SUBR_STRSTR:
	case DIF_SUBR_INDEX:
	case DIF_SUBR_RINDEX:
		*rdp = dif_index(ms, subr, tup, nargs);
		return;
	case DIF_SUBR_STRTOK:
		*rdp = dif_strtok(ms, tup);
		return;
	case DIF_SUBR_SUBSTR:
		*rdp = dif_substr(ms, tup, nargs);
		return;
	case DIF_SUBR_HTONS:
	case DIF_SUBR_NTOHS:
		*rdp = dif_bswap(tup[0].tu_value, 2);
		return;
	case DIF_SUBR_HTONL:
	case DIF_SUBR_NTOHL:
		*rdp = dif_bswap(tup[0].tu_value, 4);
		return;
	case DIF_SUBR_HTONLL:
	case DIF_SUBR_NTOHLL:
		*rdp = dif_bswap(tup[0].tu_value, 8);
		return;
	case DIF_SUBR_INET_NTOP:
	case DIF_SUBR_INET_NTOA:
	case DIF_SUBR_INET_NTOA6:
		*rdp = dif_inet(ms, subr, tup);
		return;
	case DIF_SUBR_TOUPPER:
	case DIF_SUBR_TOLOWER:
		*rdp = dif_case(ms, subr == DIF_SUBR_TOUPPER, tup);
		return;
	case DIF_SUBR_JSON:
		*rdp = dif_json(ms, tup);
		return;
	case DIF_SUBR_STRTOLL:
		*rdp = dif_strtoll(ms, tup, nargs);
		return;
	case DIF_SUBR_LINK_NTOP:
		*rdp = dif_link_ntop(ms, tup);
		return;
	case DIF_SUBR_D_PATH:
		/*
		 * The path is the kernel's: an engine that reads kernel
		 * memory walks it; here, reading its first word faults as
		 * any kernel load does, and an address that does not fault
		 * is still no path.
		 */
		if (dif_engine_subr(ms, subr, tup, nargs, rdp))
			return;
		(void) dif_kword(ms, tup[0].tu_value);
		if (ms->ms_fault.df_kind == 0)
			goto illop;
		return;
	case DIF_SUBR_MEMREF:
		if ((p = dif_scratch_alloc(ms, 16)) == NULL)
			return;
		memcpy(p, &tup[0].tu_value, 8);
		memcpy((char *) p + 8, &tup[1].tu_value, 8);
		*rdp = dif_addr(p);
		return;
	default:
		break;
	}
illop:
	dif_fault(ms, DIF_FLT_ILLOP, 0);
}
