/* SPDX-License-Identifier: MIT */
/*
 * dt_kdwarf.c: the types of kernel variables, from the kernel's DWARF.
 *
 * D's backquote operator (`max_pfn, vmlinux`nr_cpu_ids) needs a
 * variable's address, which kallsyms gives, and its type.  The BTF of a
 * stock kernel (pahole's) holds every type but, of the variables, only the
 * per-CPU ones.  Distributions ship the kernel's DWARF apart (Debian:
 * linux-image-<release>-dbg, /usr/lib/debug/boot/vmlinux-<release>); this
 * reads its .debug_info.
 *
 * Only what a variable's type is called is taken from DWARF: for each
 * variable at the top level of a compilation unit, the chain of its type
 * down to the first type with a name (dt_kdwarf.h).  dt_btf.c finds that
 * name in BTF, so the type D uses is the kernel's BTF type, as for any
 * other kernel type, and DWARF's copies of the types are never read.
 *
 * One pass reads every unit's top-level entries, stepping over each
 * entry's children by its DW_AT_sibling (which GCC writes) or, without
 * one, by reading them; a variable's type entries are read where they are.
 * For each name the best description is kept: a definition with external
 * linkage, then a static definition, then a declaration (jiffies has only
 * declarations: the linker script defines it).  The pass reads the whole
 * section (150-220 MB for Debian's kernels); its result, a line per
 * variable, is written to a cache file named by the kernel's build ID, so
 * only the first run pays for it.
 *
 * An array declared without a bound (extern const char linux_banner[])
 * and defined where DWARF does not describe it takes its size from the
 * file's symbol table: its chain starts with "=SIZE".
 *
 * The file is untrusted input: every read is bounded, and an entry the
 * reader cannot make sense of ends that unit, not the program.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/linux/dt_kdwarf.h"

/* DWARF's constants, those this reader needs (DWARF 5, section 7). */
enum {
	DW_TAG_array_type = 0x01,
	DW_TAG_enumeration_type = 0x04,
	DW_TAG_pointer_type = 0x0f,
	DW_TAG_structure_type = 0x13,
	DW_TAG_subroutine_type = 0x15,
	DW_TAG_typedef = 0x16,
	DW_TAG_union_type = 0x17,
	DW_TAG_subrange_type = 0x21,
	DW_TAG_base_type = 0x24,
	DW_TAG_const_type = 0x26,
	DW_TAG_variable = 0x34,
	DW_TAG_volatile_type = 0x35,
	DW_TAG_restrict_type = 0x37,
	DW_TAG_unspecified_type = 0x3b,
	DW_TAG_atomic_type = 0x47,

	DW_AT_sibling = 0x01,
	DW_AT_location = 0x02,
	DW_AT_name = 0x03,
	DW_AT_byte_size = 0x0b,
	DW_AT_upper_bound = 0x2f,
	DW_AT_count = 0x37,
	DW_AT_declaration = 0x3c,
	DW_AT_encoding = 0x3e,
	DW_AT_external = 0x3f,
	DW_AT_specification = 0x47,
	DW_AT_type = 0x49,
	DW_AT_str_offsets_base = 0x72,

	DW_ATE_boolean = 0x02,
	DW_ATE_float = 0x04,
	DW_ATE_signed = 0x05,
	DW_ATE_signed_char = 0x06,
	DW_ATE_unsigned = 0x07,
	DW_ATE_unsigned_char = 0x08,

	DW_UT_compile = 0x01,
	DW_UT_partial = 0x03,
};

#define DW_CHAIN_MAX	256	/* bytes of a chain */
#define DW_CHAIN_DEPTH	16	/* types followed before the named one */
#define DW_NEST_MAX	4096	/* nesting of entries when skipping */

/* A bounded reader over a section. */
typedef struct dw_cur {
	const uint8_t *p, *end;
	bool bad;
} dw_cur_t;

typedef struct dw_sec {
	const uint8_t *d;
	size_t n;
} dw_sec_t;

typedef struct dw_attr {
	uint16_t at_name, at_form;
	int64_t at_implicit;	/* DW_FORM_implicit_const's value */
} dw_attr_t;

typedef struct dw_abbrev {
	uint64_t ab_code;
	uint16_t ab_tag;
	bool ab_children;
	uint32_t ab_nattr;
	dw_attr_t *ab_attrs;
} dw_abbrev_t;

/* A unit: its bounds in .debug_info and what reading its entries needs. */
typedef struct dw_unit {
	size_t u_off, u_end;	/* header start, end (section offsets) */
	size_t u_die;		/* its first entry */
	uint8_t u_ver, u_asz, u_osz;
	uint64_t u_abbrev_off;
	uint64_t u_stroff;	/* DW_AT_str_offsets_base */
	dw_abbrev_t *u_ab;
	size_t u_nab;
} dw_unit_t;

/* What an entry says, of what this reader asks. */
typedef struct dw_die {
	uint16_t d_tag;
	bool d_children;
	size_t d_end;		/* offset just past its attributes */
	const char *d_name;
	size_t d_type, d_sibling, d_spec; /* section offsets, 0: none */
	bool d_decl, d_external, d_location;
	bool d_has_ub, d_has_count;
	uint64_t d_ub, d_count, d_size, d_enc;
	uint64_t d_stroff;	/* DW_AT_str_offsets_base, or 0 */
} dw_die_t;

typedef struct dw_file {
	dw_sec_t f_info, f_abbrev, f_str, f_line_str, f_str_off;
	dw_unit_t *f_units;
	size_t f_nunits;
} dw_file_t;

/* The index: name -> chain, an open-addressing hash. */
typedef struct dt_kdwarf_ent {
	char *e_name;
	char *e_chain;
	int e_rank;
} dt_kdwarf_ent_t;

struct dt_kdwarf {
	dt_kdwarf_ent_t *kd_tab;
	size_t kd_mask, kd_count;
	char *kd_text;		/* the cache file's text, when read */
	bool kd_owned;		/* names and chains are malloc()ed */
};

static uint64_t
dw_u(dw_cur_t *c, size_t n)
{
	uint64_t v = 0;

	if (c->bad || (size_t) (c->end - c->p) < n) {
		c->bad = true;
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		v |= (uint64_t) c->p[i] << (8 * i);
	c->p += n;
	return v;
}

static uint64_t
dw_uleb(dw_cur_t *c)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (!c->bad) {
		uint8_t b;

		if (c->p >= c->end) {
			c->bad = true;
			break;
		}
		b = *c->p++;
		if (shift < 64)
			v |= (uint64_t) (b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	return v;
}

static int64_t
dw_sleb(dw_cur_t *c)
{
	uint64_t v = 0;
	unsigned shift = 0;
	uint8_t b = 0;

	while (!c->bad) {
		if (c->p >= c->end) {
			c->bad = true;
			return 0;
		}
		b = *c->p++;
		if (shift < 64)
			v |= (uint64_t) (b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	if (shift < 64 && (b & 0x40))
		v |= ~(uint64_t) 0 << shift;
	return (int64_t) v;
}

static void
dw_skip(dw_cur_t *c, uint64_t n)
{
	if (c->bad || (uint64_t) (c->end - c->p) < n)
		c->bad = true;
	else
		c->p += n;
}

/* A NUL-terminated string at off of section s, or NULL. */
static const char *
dw_str(const dw_sec_t *s, uint64_t off)
{
	if (s->d == NULL || off >= s->n ||
	    memchr(s->d + off, '\0', s->n - off) == NULL)
		return NULL;
	return (const char *) s->d + off;
}

static const char *
dw_strx(const dw_file_t *f, const dw_unit_t *u, uint64_t idx)
{
	uint64_t at = u->u_stroff + idx * u->u_osz;
	dw_cur_t c;

	if (f->f_str_off.d == NULL || at < u->u_stroff ||
	    at + u->u_osz > f->f_str_off.n)
		return NULL;
	c.p = f->f_str_off.d + at;
	c.end = f->f_str_off.d + f->f_str_off.n;
	c.bad = false;
	return dw_str(&f->f_str, dw_u(&c, u->u_osz));
}

/*
 * Read one attribute value of the given form.  Constants and references
 * go to *vp (references as section offsets), strings to *sp; anything
 * else is stepped over.  Returns false on a form not known here (the
 * unit cannot be read further).
 */
static bool
dw_form(const dw_file_t *f, const dw_unit_t *u, dw_cur_t *c, uint64_t form,
    int64_t implicit, uint64_t *vp, const char **sp, int depth)
{
	*vp = 0;
	*sp = NULL;
	switch (form) {
	case 0x01: /* addr */
		*vp = dw_u(c, u->u_asz);
		break;
	case 0x0b: /* data1 */
	case 0x11: /* ref1 */
	case 0x0c: /* flag */
	case 0x25: /* strx1 */
	case 0x29: /* addrx1 */
		*vp = dw_u(c, 1);
		break;
	case 0x05: /* data2 */
	case 0x12: /* ref2 */
	case 0x26: /* strx2 */
	case 0x2a: /* addrx2 */
		*vp = dw_u(c, 2);
		break;
	case 0x27: /* strx3 */
	case 0x2b: /* addrx3 */
		*vp = dw_u(c, 3);
		break;
	case 0x06: /* data4 */
	case 0x13: /* ref4 */
	case 0x28: /* strx4 */
	case 0x2c: /* addrx4 */
	case 0x1c: /* ref_sup4 */
		*vp = dw_u(c, 4);
		break;
	case 0x07: /* data8 */
	case 0x14: /* ref8 */
	case 0x20: /* ref_sig8 */
	case 0x24: /* ref_sup8 */
		*vp = dw_u(c, 8);
		break;
	case 0x1e: /* data16 */
		dw_skip(c, 16);
		break;
	case 0x0d: /* sdata */
		*vp = (uint64_t) dw_sleb(c);
		break;
	case 0x0f: /* udata */
	case 0x15: /* ref_udata */
	case 0x1a: /* strx */
	case 0x1b: /* addrx */
	case 0x22: /* loclistx */
	case 0x23: /* rnglistx */
	case 0x1f01: /* GNU_addr_index */
	case 0x1f02: /* GNU_str_index */
		*vp = dw_uleb(c);
		break;
	case 0x08: { /* string */
		const uint8_t *nul = c->bad ? NULL :
		    memchr(c->p, '\0', (size_t) (c->end - c->p));

		if (nul == NULL) {
			c->bad = true;
			break;
		}
		*sp = (const char *) c->p;
		c->p = nul + 1;
		break;
	}
	case 0x0e: /* strp */
	case 0x1f: /* line_strp */
	case 0x17: /* sec_offset */
	case 0x1d: /* strp_sup */
	case 0x1f20: /* GNU_ref_alt */
	case 0x1f21: /* GNU_strp_alt */
		*vp = dw_u(c, u->u_osz);
		break;
	case 0x10: /* ref_addr: an address's size in DWARF 2 */
		*vp = dw_u(c, u->u_ver <= 2 ? u->u_asz : u->u_osz);
		break;
	case 0x0a: /* block1 */
		dw_skip(c, dw_u(c, 1));
		break;
	case 0x03: /* block2 */
		dw_skip(c, dw_u(c, 2));
		break;
	case 0x04: /* block4 */
		dw_skip(c, dw_u(c, 4));
		break;
	case 0x09: /* block */
	case 0x18: /* exprloc */
		dw_skip(c, dw_uleb(c));
		break;
	case 0x19: /* flag_present */
		*vp = 1;
		break;
	case 0x21: /* implicit_const */
		*vp = (uint64_t) implicit;
		break;
	case 0x16: /* indirect */
		if (depth > 4)
			return false;
		return dw_form(f, u, c, dw_uleb(c), implicit, vp, sp,
		    depth + 1);
	default:
		return false;
	}
	switch (form) {
	case 0x0e:
		*sp = dw_str(&f->f_str, *vp);
		break;
	case 0x1f:
		*sp = dw_str(&f->f_line_str, *vp);
		break;
	case 0x1a:
	case 0x25:
	case 0x26:
	case 0x27:
	case 0x28:
		*sp = dw_strx(f, u, *vp);
		break;
	case 0x11:
	case 0x12:
	case 0x13:
	case 0x14:
	case 0x15:
		*vp += u->u_off;	/* unit-relative references */
		break;
	default:
		break;
	}
	return !c->bad;
}

static void
dw_abbrevs_free(dw_unit_t *u)
{
	for (size_t i = 0; i < u->u_nab; i++)
		free(u->u_ab[i].ab_attrs);
	free(u->u_ab);
	u->u_ab = NULL;
	u->u_nab = 0;
}

/* Read the unit's abbreviation table.  Returns false if it is bad. */
static bool
dw_abbrevs(const dw_file_t *f, dw_unit_t *u)
{
	dw_cur_t c;
	size_t cap = 0;

	if (u->u_ab != NULL)
		return true;
	if (u->u_abbrev_off >= f->f_abbrev.n)
		return false;
	c.p = f->f_abbrev.d + u->u_abbrev_off;
	c.end = f->f_abbrev.d + f->f_abbrev.n;
	c.bad = false;
	for (;;) {
		dw_abbrev_t *ab;
		uint64_t code = dw_uleb(&c);
		size_t acap = 0;

		if (c.bad)
			break;
		if (code == 0)
			return true;
		if (u->u_nab == cap) {
			dw_abbrev_t *n = realloc(u->u_ab, (cap = cap ?
			    cap * 2 : 64) * sizeof (*n));

			if (n == NULL)
				break;
			u->u_ab = n;
		}
		ab = &u->u_ab[u->u_nab++];
		memset(ab, 0, sizeof (*ab));
		ab->ab_code = code;
		ab->ab_tag = (uint16_t) dw_uleb(&c);
		ab->ab_children = dw_u(&c, 1) != 0;
		for (;;) {
			uint64_t name = dw_uleb(&c), form = dw_uleb(&c);
			int64_t implicit = 0;

			if (c.bad)
				goto bad;
			if (name == 0 && form == 0)
				break;
			if (form == 0x21)
				implicit = dw_sleb(&c);
			if (ab->ab_nattr == acap) {
				dw_attr_t *n = realloc(ab->ab_attrs, (acap =
				    acap ? acap * 2 : 8) * sizeof (*n));

				if (n == NULL)
					goto bad;
				ab->ab_attrs = n;
			}
			ab->ab_attrs[ab->ab_nattr].at_name = (uint16_t) name;
			ab->ab_attrs[ab->ab_nattr].at_form = (uint16_t) form;
			ab->ab_attrs[ab->ab_nattr++].at_implicit = implicit;
		}
	}
bad:
	dw_abbrevs_free(u);
	return false;
}

static const dw_abbrev_t *
dw_abbrev_find(const dw_unit_t *u, uint64_t code)
{
	/* Codes are usually numbered 1, 2, 3... in order. */
	if (code >= 1 && code <= u->u_nab && u->u_ab[code - 1].ab_code == code)
		return &u->u_ab[code - 1];
	for (size_t i = 0; i < u->u_nab; i++) {
		if (u->u_ab[i].ab_code == code)
			return &u->u_ab[i];
	}
	return NULL;
}

/*
 * Read the entry at section offset off of unit u.  Returns 1, 0 for a null
 * entry (the end of a list of children), -1 when it cannot be read.
 */
static int
dw_die(const dw_file_t *f, const dw_unit_t *u, size_t off, dw_die_t *d)
{
	const dw_abbrev_t *ab;
	dw_cur_t c;
	uint64_t code;

	memset(d, 0, sizeof (*d));
	if (off < u->u_die || off >= u->u_end)
		return -1;
	c.p = f->f_info.d + off;
	c.end = f->f_info.d + u->u_end;
	c.bad = false;
	code = dw_uleb(&c);
	if (c.bad)
		return -1;
	if (code == 0) {
		d->d_end = (size_t) (c.p - f->f_info.d);
		return 0;
	}
	if ((ab = dw_abbrev_find(u, code)) == NULL)
		return -1;
	d->d_tag = ab->ab_tag;
	d->d_children = ab->ab_children;
	for (uint32_t i = 0; i < ab->ab_nattr; i++) {
		const dw_attr_t *a = &ab->ab_attrs[i];
		const char *s;
		uint64_t v;

		if (!dw_form(f, u, &c, a->at_form, a->at_implicit, &v, &s, 0))
			return -1;
		switch (a->at_name) {
		case DW_AT_name:
			d->d_name = s;
			break;
		case DW_AT_type:
			d->d_type = (size_t) v;
			break;
		case DW_AT_sibling:
			d->d_sibling = (size_t) v;
			break;
		case DW_AT_specification:
			d->d_spec = (size_t) v;
			break;
		case DW_AT_declaration:
			d->d_decl = v != 0;
			break;
		case DW_AT_external:
			d->d_external = v != 0;
			break;
		case DW_AT_location:
			d->d_location = true;
			break;
		case DW_AT_upper_bound:
			/* An expression (a variable length) tells no bound. */
			d->d_has_ub = a->at_form != 0x18;
			d->d_ub = v;
			break;
		case DW_AT_count:
			d->d_has_count = a->at_form != 0x18;
			d->d_count = v;
			break;
		case DW_AT_byte_size:
			d->d_size = v;
			break;
		case DW_AT_encoding:
			d->d_enc = v;
			break;
		case DW_AT_str_offsets_base:
			d->d_stroff = v;	/* the unit's own entry's */
			break;
		default:
			break;
		}
	}
	d->d_end = (size_t) (c.p - f->f_info.d);
	return 1;
}

/* The unit holding section offset off (for DW_FORM_ref_addr), or NULL. */
static dw_unit_t *
dw_unit_of(const dw_file_t *f, size_t off)
{
	size_t lo = 0, hi = f->f_nunits;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		dw_unit_t *u = &f->f_units[mid];

		if (off < u->u_off)
			hi = mid;
		else if (off >= u->u_end)
			lo = mid + 1;
		else
			return u;
	}
	return NULL;
}

/*
 * Read the entry at off, in unit *up or (a reference into another unit)
 * the one holding it, whose abbreviations are then read; *up is set to
 * the unit read.  Returns what dw_die() does.
 */
static int
dw_die_at(const dw_file_t *f, dw_unit_t **up, size_t off, dw_die_t *d)
{
	dw_unit_t *u = *up;

	if (off < u->u_die || off >= u->u_end) {
		if ((u = dw_unit_of(f, off)) == NULL || !dw_abbrevs(f, u))
			return -1;
		*up = u;
	}
	return dw_die(f, u, off, d);
}

/* Append to a chain; false when it is full. */
static bool
dw_put(char *buf, size_t *lenp, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static bool
dw_put(char *buf, size_t *lenp, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + *lenp, DW_CHAIN_MAX - *lenp, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t) n >= DW_CHAIN_MAX - *lenp)
		return false;
	*lenp += (size_t) n;
	return true;
}

/* The bounds of an array entry's dimensions, as "[N] " words. */
static bool
dw_array_dims(const dw_file_t *f, dw_unit_t *u, const dw_die_t *arr,
    char *buf, size_t *lenp)
{
	size_t off = arr->d_end;
	int ndim = 0, depth = 0;
	dw_die_t d;

	if (!arr->d_children)
		return dw_put(buf, lenp, "[0] ");
	for (;;) {
		int r = dw_die(f, u, off, &d);

		if (r < 0)
			return false;
		off = d.d_end;
		if (r == 0) {
			if (depth-- == 0)
				break;
			continue;
		}
		if (depth == 0 && d.d_tag == DW_TAG_subrange_type) {
			uint64_t n = d.d_has_count ? d.d_count :
			    d.d_has_ub && d.d_ub < UINT32_MAX ? d.d_ub + 1 : 0;

			if (!dw_put(buf, lenp, "[%llu] ",
			    (unsigned long long) n))
				return false;
			ndim++;
		}
		if (d.d_children)
			depth++;
	}
	return ndim > 0 || dw_put(buf, lenp, "[0] ");
}

/*
 * The chain (dt_kdwarf.h) of the type at section offset type, in unit u,
 * into buf (DW_CHAIN_MAX bytes).  Returns false when it cannot be told:
 * an unnamed struct with no typedef, a type unit's signature, a chain too
 * long.
 */
static bool
dw_chain(const dw_file_t *f, dw_unit_t *u, size_t type, char *buf)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < DW_CHAIN_DEPTH; i++) {
		const char *kw = NULL;
		dw_die_t d;

		if (type == 0)
			return dw_put(buf, &len, "void");
		if (dw_die_at(f, &u, type, &d) != 1)
			return false;
		switch (d.d_tag) {
		case DW_TAG_pointer_type:
			if (!dw_put(buf, &len, "* "))
				return false;
			break;
		case DW_TAG_const_type:
			if (!dw_put(buf, &len, "const "))
				return false;
			break;
		case DW_TAG_volatile_type:
			if (!dw_put(buf, &len, "volatile "))
				return false;
			break;
		case DW_TAG_restrict_type:
		case DW_TAG_atomic_type:
			break;
		case DW_TAG_array_type:
			if (!dw_array_dims(f, u, &d, buf, &len))
				return false;
			break;
		case DW_TAG_subroutine_type:
			return dw_put(buf, &len, "func");
		case DW_TAG_unspecified_type:
			return dw_put(buf, &len, "void");
		case DW_TAG_base_type: {
			char enc;

			switch (d.d_enc) {
			case DW_ATE_boolean: enc = 'b'; break;
			case DW_ATE_float: enc = 'f'; break;
			case DW_ATE_signed: enc = 's'; break;
			case DW_ATE_signed_char: enc = 'c'; break;
			case DW_ATE_unsigned_char: enc = 'C'; break;
			case DW_ATE_unsigned: enc = 'u'; break;
			default: return false;
			}
			return d.d_name != NULL && d.d_size > 0 &&
			    d.d_size <= 16 && dw_put(buf, &len, "int %u %c %s",
			    (unsigned) d.d_size, enc, d.d_name);
		}
		case DW_TAG_typedef:
			kw = "typedef";
			break;
		case DW_TAG_structure_type:
			kw = "struct";
			break;
		case DW_TAG_union_type:
			kw = "union";
			break;
		case DW_TAG_enumeration_type:
			kw = "enum";
			break;
		default:
			return false;
		}
		if (kw != NULL) {
			/* An unnamed struct has no name BTF could find. */
			return d.d_name != NULL && d.d_name[0] != '\0' &&
			    dw_put(buf, &len, "%s %s", kw, d.d_name);
		}
		type = d.d_type;
	}
	return false;
}

/* FNV-1a: the index's hash. */
static uint64_t
dt_kdwarf_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (*s != '\0')
		h = (h ^ (uint8_t) *s++) * 0x100000001b3ULL;
	return h;
}

static dt_kdwarf_ent_t *
dt_kdwarf_slot(dt_kdwarf_ent_t *tab, size_t mask, const char *name)
{
	size_t i = (size_t) dt_kdwarf_hash(name) & mask;

	while (tab[i].e_name != NULL && strcmp(tab[i].e_name, name) != 0)
		i = (i + 1) & mask;
	return &tab[i];
}

static bool
dt_kdwarf_grow(dt_kdwarf_t *kd)
{
	size_t nmask = kd->kd_mask ? kd->kd_mask * 2 + 1 : 4095;
	dt_kdwarf_ent_t *n = calloc(nmask + 1, sizeof (*n));

	if (n == NULL)
		return false;
	for (size_t i = 0; kd->kd_tab != NULL && i <= kd->kd_mask; i++) {
		if (kd->kd_tab[i].e_name != NULL)
			*dt_kdwarf_slot(n, nmask, kd->kd_tab[i].e_name) =
			    kd->kd_tab[i];
	}
	free(kd->kd_tab);
	kd->kd_tab = n;
	kd->kd_mask = nmask;
	return true;
}

/*
 * Record name's chain at rank (higher wins; the first of equal ranks is
 * kept).  name and chain are the caller's when !kd_owned (the cache's
 * text), else copied.
 */
static bool
dt_kdwarf_add(dt_kdwarf_t *kd, const char *name, const char *chain, int rank)
{
	dt_kdwarf_ent_t *e;

	if ((kd->kd_count + 1) * 2 > kd->kd_mask && !dt_kdwarf_grow(kd))
		return false;
	e = dt_kdwarf_slot(kd->kd_tab, kd->kd_mask, name);
	if (e->e_name != NULL) {
		char *c;

		if (rank <= e->e_rank)
			return true;
		if (!kd->kd_owned) {
			e->e_chain = (char *) chain;
		} else {
			if ((c = strdup(chain)) == NULL)
				return false;
			free(e->e_chain);
			e->e_chain = c;
		}
		e->e_rank = rank;
		return true;
	}
	if (!kd->kd_owned) {
		e->e_name = (char *) name;
		e->e_chain = (char *) chain;
	} else {
		e->e_name = strdup(name);
		e->e_chain = strdup(chain);
		if (e->e_name == NULL || e->e_chain == NULL) {
			free(e->e_name);
			free(e->e_chain);
			e->e_name = e->e_chain = NULL;
			return false;
		}
	}
	e->e_rank = rank;
	kd->kd_count++;
	return true;
}

/* A top-level variable entry: its name and chain into the index. */
static void
dw_variable(dt_kdwarf_t *kd, const dw_file_t *f, dw_unit_t *u,
    const dw_die_t *d)
{
	const char *name = d->d_name;
	size_t type = d->d_type;
	bool external = d->d_external;
	char chain[DW_CHAIN_MAX];
	int rank;

	/* A definition apart from its declaration names it there. */
	if (d->d_spec != 0) {
		dw_unit_t *su = u;
		dw_die_t s;

		if (dw_die_at(f, &su, d->d_spec, &s) != 1)
			return;
		if (name == NULL)
			name = s.d_name;
		if (type == 0) {
			type = s.d_type;
			u = su;
		}
		external = external || s.d_external;
	}
	if (name == NULL || name[0] == '\0' || type == 0)
		return;
	rank = d->d_decl ? 1 : external ? 3 : 2;
	if (!dw_chain(f, u, type, chain))
		return;
	(void) dt_kdwarf_add(kd, name, chain, rank);
}

/* Every top-level variable of unit u. */
static void
dw_unit_scan(dt_kdwarf_t *kd, dw_file_t *f, dw_unit_t *u)
{
	size_t off = u->u_die;
	int depth = 0;
	dw_die_t d;

	/* The unit's own entry; it may say where its string offsets are. */
	u->u_stroff = 8;	/* the first entry past the table's header */
	if (dw_die(f, u, off, &d) != 1 || !d.d_children)
		return;
	if (d.d_stroff != 0)
		u->u_stroff = d.d_stroff;
	off = d.d_end;
	while (off < u->u_end) {
		int r = dw_die(f, u, off, &d);

		if (r < 0)
			return;
		off = d.d_end;
		if (r == 0) {
			if (depth == 0)
				return;
			depth--;
			continue;
		}
		if (depth == 0 && d.d_tag == DW_TAG_variable)
			dw_variable(kd, f, u, &d);
		if (!d.d_children)
			continue;
		if (depth == 0 && d.d_sibling > off && d.d_sibling <= u->u_end)
			off = d.d_sibling;
		else if (++depth > DW_NEST_MAX)
			return;
	}
}

/* The units' headers, in one pass over .debug_info. */
static bool
dw_units(dw_file_t *f)
{
	size_t off = 0, cap = 0;

	while (off + 11 <= f->f_info.n) {
		dw_cur_t c = { f->f_info.d + off, f->f_info.d + f->f_info.n,
		    false };
		dw_unit_t u;
		uint64_t len = dw_u(&c, 4);
		uint8_t type = DW_UT_compile;

		memset(&u, 0, sizeof (u));
		u.u_off = off;
		u.u_osz = 4;
		if (len == 0xffffffff) {
			len = dw_u(&c, 8);
			u.u_osz = 8;
		} else if (len >= 0xfffffff0) {
			break;
		}
		if (c.bad || len > (uint64_t) (c.end - c.p))
			break;
		u.u_end = (size_t) (c.p - f->f_info.d) + (size_t) len;
		c.end = f->f_info.d + u.u_end;
		u.u_ver = (uint8_t) dw_u(&c, 2);
		if (u.u_ver >= 5) {
			type = (uint8_t) dw_u(&c, 1);
			u.u_asz = (uint8_t) dw_u(&c, 1);
			u.u_abbrev_off = dw_u(&c, u.u_osz);
		} else {
			u.u_abbrev_off = dw_u(&c, u.u_osz);
			u.u_asz = (uint8_t) dw_u(&c, 1);
		}
		u.u_die = (size_t) (c.p - f->f_info.d);
		off = u.u_end;
		/* Type units and split units hold no variables we read. */
		if (c.bad || u.u_ver < 2 || u.u_ver > 5 ||
		    (type != DW_UT_compile && type != DW_UT_partial) ||
		    (u.u_asz != 4 && u.u_asz != 8))
			continue;
		if (f->f_nunits == cap) {
			dw_unit_t *n = realloc(f->f_units, (cap = cap ?
			    cap * 2 : 1024) * sizeof (*n));

			if (n == NULL)
				return false;
			f->f_units = n;
		}
		f->f_units[f->f_nunits++] = u;
	}
	return true;
}

/* A section's bytes, decompressed when the file compresses it. */
static bool
dw_section(Elf_Scn *scn, dw_sec_t *s)
{
	GElf_Shdr sh;
	Elf_Data *data;

	if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type == SHT_NOBITS)
		return false;
	if ((sh.sh_flags & SHF_COMPRESSED) && elf_compress(scn, 0, 0) < 0)
		return false;
	if ((data = elf_getdata(scn, NULL)) == NULL || data->d_buf == NULL)
		return false;
	s->d = data->d_buf;
	s->n = data->d_size;
	return true;
}

/*
 * An array of no known bound ("[0]" outermost, under qualifiers) gets its
 * object's size from the symbol table: "=SIZE " before its chain.
 */
static void
dt_kdwarf_sizes(dt_kdwarf_t *kd, Elf *elf)
{
	Elf_Scn *scn = NULL;

	if (kd->kd_tab == NULL)
		return;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		Elf_Data *data;
		size_t n;

		if (gelf_getshdr(scn, &sh) == NULL ||
		    sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0 ||
		    (data = elf_getdata(scn, NULL)) == NULL)
			continue;
		n = sh.sh_size / sh.sh_entsize;
		for (size_t i = 0; i < n; i++) {
			dt_kdwarf_ent_t *e;
			const char *name, *c;
			char *nc;
			GElf_Sym sym;

			if (gelf_getsym(data, (int) i, &sym) == NULL ||
			    GELF_ST_TYPE(sym.st_info) != STT_OBJECT ||
			    sym.st_size == 0 || (name = elf_strptr(elf,
			    sh.sh_link, sym.st_name)) == NULL ||
			    name[0] == '\0')
				continue;
			e = dt_kdwarf_slot(kd->kd_tab, kd->kd_mask, name);
			if (e->e_name == NULL)
				continue;
			for (c = e->e_chain; strncmp(c, "const ", 6) == 0 ||
			    strncmp(c, "volatile ", 9) == 0;)
				c = strchr(c, ' ') + 1;
			if (strncmp(c, "[0] ", 4) != 0 || asprintf(&nc,
			    "=%llu %s", (unsigned long long) sym.st_size,
			    e->e_chain) < 0)
				continue;
			free(e->e_chain);
			e->e_chain = nc;
		}
	}
}

/* Index the file's variables by reading its DWARF. */
static int
dt_kdwarf_read(dt_kdwarf_t *kd, const char *path, char *why, size_t len)
{
	dw_file_t f;
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	Elf *elf;
	int fd;

	memset(&f, 0, sizeof (f));
	if (elf_version(EV_CURRENT) == EV_NONE ||
	    (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		snprintf(why, len, "cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	if ((elf = elf_begin(fd, ELF_C_READ_MMAP, NULL)) == NULL ||
	    elf_kind(elf) != ELF_K_ELF ||
	    elf_getshdrstrndx(elf, &shstrndx) != 0) {
		snprintf(why, len, "%s is not an ELF file", path);
		goto fail;
	}
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		static const struct {
			const char *name;
			size_t off;
		} want[] = {
			{ ".debug_info", offsetof(dw_file_t, f_info) },
			{ ".debug_abbrev", offsetof(dw_file_t, f_abbrev) },
			{ ".debug_str", offsetof(dw_file_t, f_str) },
			{ ".debug_line_str", offsetof(dw_file_t, f_line_str) },
			{ ".debug_str_offsets", offsetof(dw_file_t, f_str_off) },
		};
		GElf_Shdr sh;
		const char *name;

		if (gelf_getshdr(scn, &sh) == NULL || (name =
		    elf_strptr(elf, shstrndx, sh.sh_name)) == NULL)
			continue;
		for (size_t i = 0; i < sizeof (want) / sizeof (want[0]); i++) {
			if (strcmp(name, want[i].name) == 0)
				(void) dw_section(scn, (dw_sec_t *) (void *)
				    ((char *) &f + want[i].off));
		}
	}
	if (f.f_info.d == NULL || f.f_abbrev.d == NULL) {
		snprintf(why, len, "%s has no DWARF (.debug_info)", path);
		goto fail;
	}
	if (!dw_units(&f)) {
		snprintf(why, len, "out of memory reading %s", path);
		goto fail;
	}
	for (size_t i = 0; i < f.f_nunits; i++) {
		dw_unit_t *u = &f.f_units[i];

		if (!dw_abbrevs(&f, u))
			continue;
		dw_unit_scan(kd, &f, u);
		dw_abbrevs_free(u);
	}
	for (size_t i = 0; i < f.f_nunits; i++)
		dw_abbrevs_free(&f.f_units[i]);
	free(f.f_units);
	dt_kdwarf_sizes(kd, elf);
	elf_end(elf);
	close(fd);
	return 0;
fail:
	free(f.f_units);
	if (elf != NULL)
		elf_end(elf);
	close(fd);
	return -1;
}

/* The cache's first line: the file's format. */
#define DT_KDWARF_MAGIC	"dtrace kernel variable types 1\n"

/* Read the index from a cache file.  Returns false when it is not one. */
static bool
dt_kdwarf_load(dt_kdwarf_t *kd, const char *cachepath)
{
	struct stat st;
	char *text, *p, *end;
	ssize_t r;
	int fd;

	if ((fd = open(cachepath, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > (256 << 20) ||
	    (text = malloc((size_t) st.st_size + 1)) == NULL) {
		close(fd);
		return false;
	}
	r = read(fd, text, (size_t) st.st_size);
	close(fd);
	if (r != st.st_size || strncmp(text, DT_KDWARF_MAGIC,
	    strlen(DT_KDWARF_MAGIC)) != 0) {
		free(text);
		return false;
	}
	text[r] = '\0';
	kd->kd_text = text;
	kd->kd_owned = false;
	end = text + r;
	for (p = text + strlen(DT_KDWARF_MAGIC); p < end;) {
		char *nl = memchr(p, '\n', (size_t) (end - p)), *tab;

		if (nl == NULL)
			break;
		*nl = '\0';
		if ((tab = strchr(p, '\t')) != NULL) {
			*tab = '\0';
			if (!dt_kdwarf_add(kd, p, tab + 1, 1))
				return false;
		}
		p = nl + 1;
	}
	return true;
}

/* Write the index to a cache file, atomically; errors are ignored. */
static void
dt_kdwarf_save(const dt_kdwarf_t *kd, const char *cachepath)
{
	char tmp[4096];
	FILE *fp;
	int fd;

	if (snprintf(tmp, sizeof (tmp), "%s.XXXXXX", cachepath) >=
	    (int) sizeof (tmp) || (fd = mkstemp(tmp)) < 0)
		return;
	if ((fp = fdopen(fd, "w")) == NULL) {
		close(fd);
		unlink(tmp);
		return;
	}
	fputs(DT_KDWARF_MAGIC, fp);
	for (size_t i = 0; kd->kd_tab != NULL && i <= kd->kd_mask; i++) {
		const dt_kdwarf_ent_t *e = &kd->kd_tab[i];

		if (e->e_name != NULL)
			fprintf(fp, "%s\t%s\n", e->e_name, e->e_chain);
	}
	if (fchmod(fd, 0644) != 0 || fclose(fp) != 0 ||
	    rename(tmp, cachepath) != 0)
		unlink(tmp);
}

dt_kdwarf_t *
dt_kdwarf_open(const char *path, const char *cachepath, char *why,
    size_t len)
{
	dt_kdwarf_t *kd = calloc(1, sizeof (*kd));

	if (kd == NULL) {
		snprintf(why, len, "out of memory");
		return NULL;
	}
	if (cachepath != NULL && dt_kdwarf_load(kd, cachepath))
		return kd;
	dt_kdwarf_close(kd);
	if ((kd = calloc(1, sizeof (*kd))) == NULL) {
		snprintf(why, len, "out of memory");
		return NULL;
	}
	kd->kd_owned = true;
	if (dt_kdwarf_read(kd, path, why, len) != 0) {
		dt_kdwarf_close(kd);
		return NULL;
	}
	if (cachepath != NULL)
		dt_kdwarf_save(kd, cachepath);
	return kd;
}

const char *
dt_kdwarf_var(const dt_kdwarf_t *kd, const char *name)
{
	const dt_kdwarf_ent_t *e;

	if (kd == NULL || kd->kd_tab == NULL)
		return NULL;
	e = dt_kdwarf_slot(kd->kd_tab, kd->kd_mask, name);
	return e->e_name != NULL ? e->e_chain : NULL;
}

size_t
dt_kdwarf_count(const dt_kdwarf_t *kd)
{
	return kd != NULL ? kd->kd_count : 0;
}

void
dt_kdwarf_close(dt_kdwarf_t *kd)
{
	if (kd == NULL)
		return;
	for (size_t i = 0; kd->kd_owned && kd->kd_tab != NULL &&
	    i <= kd->kd_mask; i++) {
		free(kd->kd_tab[i].e_name);
		free(kd->kd_tab[i].e_chain);
	}
	free(kd->kd_tab);
	free(kd->kd_text);
	free(kd);
}

int
dt_kdwarf_build_id(const void *notes, size_t len, char *buf, size_t buflen)
{
	const uint8_t *p = notes, *end = p + len;

	while ((size_t) (end - p) >= 12) {
		uint32_t namesz, descsz, type;
		size_t nlen, dlen;

		memcpy(&namesz, p, 4);
		memcpy(&descsz, p + 4, 4);
		memcpy(&type, p + 8, 4);
		p += 12;
		nlen = ((size_t) namesz + 3) & ~(size_t) 3;
		dlen = ((size_t) descsz + 3) & ~(size_t) 3;
		if (nlen > (size_t) (end - p) || dlen > (size_t) (end - p) -
		    nlen)
			return -1;
		if (type == 3 /* NT_GNU_BUILD_ID */ && namesz == 4 &&
		    memcmp(p, "GNU", 4) == 0 && descsz > 0 &&
		    (size_t) descsz * 2 < buflen) {
			for (uint32_t i = 0; i < descsz; i++)
				snprintf(buf + 2 * i, 3, "%02x", p[nlen + i]);
			return 0;
		}
		p += nlen + dlen;
	}
	return -1;
}
