/* SPDX-License-Identifier: MIT */
/*
 * dt_print_type.c: print(), a value shown with its D type.
 *
 * trace() chooses a layout from a record's size; print() walks the
 * record's CTF type (rd_ctf, rd_ctftype, set by the compiler for D types
 * and for kernel types imported from BTF alike) and prints it as DTrace
 * does, in the style of mdb's "::print -tn":
 *
 *	struct foo {
 *	    int a = 0x1
 *	    char name[8] = [ "abc" ]
 *	    struct bar inner = {
 *	        long x = 0xffffffffffffffff
 *	    }
 *	    unsigned int flags :3 = 0x5
 *	}
 *
 * Each line is the member's type, its name, ":bits" for a bit-field, " = "
 * and the value: integers and pointers in hex by size ("%#x", so zero is
 * "0"), chars as 'c', floats as "%+.7e", enums by name, arrays inline as
 * "[ 0x1, 0x2 ]" (char arrays holding a string as "[ \"abc\" ]"), structs
 * and unions as a brace block indented four columns a level.  A top-level
 * scalar is "type value" and a newline; a top-level struct ends at its
 * closing brace, as in DTrace.  Arrays of structs put each element on its
 * own lines, indented one more level.
 *
 * The value is the record's bytes: nothing beyond rd_size is read, so a
 * type larger than its record (a string longer than strsize) prints what
 * the record holds.
 */
#include <ctf-api.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "common/consumer/dt_cons_impl.h"

/* One print(): where the bytes are and where the text goes. */
typedef struct dt_ptype {
	FILE *pt_fp;
	ctf_dict_t *pt_ctf;
	const unsigned char *pt_data;
	size_t pt_size;
} dt_ptype_t;

static void dt_ptype_member(dt_ptype_t *pt, const char *name, ctf_id_t type,
    uint64_t bitoff, int depth, int nest);

static void
dt_ptype_indent(dt_ptype_t *pt, int level)
{
	(void) fprintf(pt->pt_fp, "%*s", level * 4, "");
}

/* Do size bytes at byte offset off lie within the record? */
static bool
dt_ptype_has(const dt_ptype_t *pt, uint64_t off, uint64_t size)
{
	return off <= pt->pt_size && size <= pt->pt_size - off;
}

static uint64_t
dt_ptype_read(const dt_ptype_t *pt, uint64_t off, size_t size)
{
	uint64_t v = 0;

	/* Little-endian: the low bytes of v hold the value. */
	memcpy(&v, pt->pt_data + off, size);
	return v;
}

static bool
dt_ptype_structlike(int kind)
{
	return kind == CTF_K_STRUCT || kind == CTF_K_UNION;
}

/*
 * A plain char (signed, 8 bits), which DTrace prints as a character.  BTF
 * may not mark the kernel's char as one, so its name counts too.
 */
static bool
dt_ptype_ischar(ctf_dict_t *ctf, ctf_id_t rtype)
{
	ctf_encoding_t e;
	char name[16];

	if (ctf_type_kind(ctf, rtype) != CTF_K_INTEGER ||
	    ctf_type_encoding(ctf, rtype, &e) != 0 || e.cte_bits != 8)
		return false;
	if ((e.cte_format & (CTF_INT_CHAR | CTF_INT_SIGNED)) ==
	    (CTF_INT_CHAR | CTF_INT_SIGNED))
		return true;
	return ctf_type_name(ctf, rtype, name, sizeof(name)) != NULL &&
	    strcmp(name, "char") == 0;
}

/*
 * The encoding of an integer: a bit-field member's own (a slice: its
 * width and bit offset), else that of the type its typedefs name.
 */
static int
dt_ptype_encoding(dt_ptype_t *pt, ctf_id_t type, ctf_encoding_t *ep)
{
	if (ctf_type_encoding(pt->pt_ctf, type, ep) == 0)
		return 0;
	return ctf_type_encoding(
	    pt->pt_ctf, ctf_type_resolve(pt->pt_ctf, type), ep);
}

/*
 * Is this integer member a bit-field: not a whole number of bytes, not
 * byte-aligned, or narrower than its type?
 */
static bool
dt_ptype_isbitfield(
    dt_ptype_t *pt, ctf_id_t type, uint64_t bitoff, ctf_encoding_t *ep)
{
	ssize_t size;

	if (dt_ptype_encoding(pt, type, ep) != 0) {
		memset(ep, 0, sizeof(*ep));
		return false;
	}
	size = ctf_type_size(pt->pt_ctf, ctf_type_resolve(pt->pt_ctf, type));
	return ep->cte_bits % 8 != 0 || (bitoff + ep->cte_offset) % 8 != 0 ||
	    ep->cte_bits > 64 || size < 0 ||
	    (uint64_t) size * 8 != ep->cte_bits;
}

/* An unsigned value of 1, 2, 4 or 8 bytes, in hex as DTrace shows it. */
static void
dt_ptype_hex(dt_ptype_t *pt, uint64_t off, ssize_t size)
{
	if (size != 1 && size != 2 && size != 4 && size != 8) {
		(void) fprintf(pt->pt_fp, "<invalid size %zd>", size);
		return;
	}
	if (!dt_ptype_has(pt, off, (uint64_t) size)) {
		(void) fputs("<beyond the record>", pt->pt_fp);
		return;
	}
	(void) fprintf(pt->pt_fp, "%#llx",
	    (unsigned long long) dt_ptype_read(pt, off, (size_t) size));
}

static void
dt_ptype_int(dt_ptype_t *pt, ctf_id_t type, ctf_id_t rtype, uint64_t bitoff)
{
	ctf_encoding_t e;
	uint64_t pos, first, v;
	size_t n;
	unsigned char c;

	if (dt_ptype_isbitfield(pt, type, bitoff, &e)) {
		if (e.cte_bits == 0 || e.cte_bits > 64) {
			(void) fputs("<unknown encoding>", pt->pt_fp);
			return;
		}
		pos = bitoff + e.cte_offset;
		first = pos / 8;
		n = (size_t) ((pos % 8 + e.cte_bits + 7) / 8);
		if (n > 8 || !dt_ptype_has(pt, first, n)) {
			(void) fputs("<beyond the record>", pt->pt_fp);
			return;
		}
		v = dt_ptype_read(pt, first, n) >> (pos % 8);
		if (e.cte_bits < 64)
			v &= (1ULL << e.cte_bits) - 1;
		(void) fprintf(pt->pt_fp, "%#llx", (unsigned long long) v);
		return;
	}
	if (dt_ptype_ischar(pt->pt_ctf, rtype) &&
	    dt_ptype_has(pt, bitoff / 8, 1)) {
		c = pt->pt_data[bitoff / 8];
		if (isprint(c))
			(void) fprintf(pt->pt_fp, "'%c'", c);
		else if (c == 0)
			(void) fputs("'\\0'", pt->pt_fp);
		else
			(void) fprintf(pt->pt_fp, "'\\%03o'", c);
		return;
	}
	dt_ptype_hex(pt, bitoff / 8, (ssize_t) (e.cte_bits / 8));
}

static void
dt_ptype_float(dt_ptype_t *pt, ctf_id_t rtype, uint64_t off)
{
	ctf_encoding_t e;
	float f;
	double d;
	long double ld;

	if (ctf_type_encoding(pt->pt_ctf, rtype, &e) != 0 ||
	    !dt_ptype_has(pt, off, e.cte_bits / 8)) {
		(void) fputs("<unknown encoding>", pt->pt_fp);
		return;
	}
	if (e.cte_format == CTF_FP_SINGLE && e.cte_bits == 8 * sizeof(f)) {
		memcpy(&f, pt->pt_data + off, sizeof(f));
		(void) fprintf(pt->pt_fp, "%+.7e", f);
	} else if (e.cte_format == CTF_FP_DOUBLE &&
	    e.cte_bits == 8 * sizeof(d)) {
		memcpy(&d, pt->pt_data + off, sizeof(d));
		(void) fprintf(pt->pt_fp, "%+.7e", d);
	} else if (e.cte_format == CTF_FP_LDOUBLE &&
	    e.cte_bits == 8 * sizeof(ld)) {
		memcpy(&ld, pt->pt_data + off, sizeof(ld));
		(void) fprintf(pt->pt_fp, "%+.16LE", ld);
	} else {
		(void) fputs("<unknown encoding>", pt->pt_fp);
	}
}

/* An enum by the name of its value; the number when it has none. */
static void
dt_ptype_enum(dt_ptype_t *pt, ctf_id_t rtype, uint64_t off)
{
	ssize_t size = ctf_type_size(pt->pt_ctf, rtype);
	const char *name;
	int64_t v;

	if (size != 1 && size != 2 && size != 4 && size != 8) {
		(void) fprintf(pt->pt_fp, "<invalid size %zd>", size);
		return;
	}
	if (!dt_ptype_has(pt, off, (uint64_t) size)) {
		(void) fputs("<beyond the record>", pt->pt_fp);
		return;
	}
	v = (int64_t) (dt_ptype_read(pt, off, (size_t) size)
	    << (64 - 8 * size)) >> (64 - 8 * size);
	if ((name = ctf_enum_name(pt->pt_ctf, rtype, (int) v)) != NULL)
		(void) fputs(name, pt->pt_fp);
	else
		(void) fprintf(pt->pt_fp, "%lld", (long long) v);
}

/*
 * An array: scalars inline, "[ 0x1, 0x2 ]"; a char array holding a
 * string (printable characters up to a NUL) as "[ "abc" ]", without the
 * brackets at the top level (print("abc") shows string "abc"); structs
 * one block per element, each nested one level deeper.
 */
static void
dt_ptype_array(dt_ptype_t *pt, ctf_id_t rtype, uint64_t off, int depth,
    int nest)
{
	FILE *fp = pt->pt_fp;
	ctf_arinfo_t ar;
	ssize_t esize;
	ctf_id_t etype;
	uint64_t n, i;
	bool isstr = false, brackets;
	int ekind;

	if (ctf_array_info(pt->pt_ctf, rtype, &ar) != 0 ||
	    (esize = ctf_type_size(pt->pt_ctf, ar.ctr_contents)) <= 0 ||
	    (etype = ctf_type_resolve(pt->pt_ctf, ar.ctr_contents)) ==
	    CTF_ERR) {
		(void) fprintf(fp, "<invalid type %ld>", (long) rtype);
		return;
	}
	ekind = ctf_type_kind(pt->pt_ctf, etype);
	/* What of the array the record holds (a string is strsize bytes). */
	n = ar.ctr_nelems;
	if (off >= pt->pt_size)
		n = 0;
	else if (n > (pt->pt_size - off) / (uint64_t) esize)
		n = (pt->pt_size - off) / (uint64_t) esize;

	if (esize == 1 && dt_ptype_ischar(pt->pt_ctf, etype)) {
		for (i = 0; i < n; i++) {
			unsigned char c = pt->pt_data[off + i];

			if (c == '\0' || !isprint(c))
				break;
		}
		isstr = i < n && pt->pt_data[off + i] == '\0';
	}
	brackets = !isstr || depth != 0;
	if (brackets)
		(void) fputs("[ ", fp);
	if (isstr) {
		(void) fprintf(fp, "\"%s\"", (const char *) pt->pt_data + off);
	} else {
		for (i = 0; i < n; i++) {
			dt_ptype_member(pt, "", ar.ctr_contents,
			    (off + i * (uint64_t) esize) * 8, 0,
			    nest + depth + 1);
			if (i + 1 < n)
				(void) fputs(", ", fp);
			else if (dt_ptype_structlike(ekind))
				(void) fputc('\n', fp);
		}
	}
	if (brackets) {
		if (dt_ptype_structlike(ekind))
			dt_ptype_indent(pt, depth + nest);
		else
			(void) fputc(' ', fp);
		(void) fputc(']', fp);
	}
}

/*
 * One value at bit offset bitoff: its line (type, name, value) unless it
 * is a scalar element of an array, then its members for a struct.  depth
 * counts struct levels, nest the indentation of enclosing arrays.
 */
static void
dt_ptype_member(dt_ptype_t *pt, const char *name, ctf_id_t type,
    uint64_t bitoff, int depth, int nest)
{
	FILE *fp = pt->pt_fp;
	ctf_dict_t *ctf = pt->pt_ctf;
	ctf_id_t rtype = ctf_type_resolve(ctf, type);
	int kind = rtype == CTF_ERR ? CTF_ERR : ctf_type_kind(ctf, rtype);
	bool elem = nest != 0 && depth == 0;
	bool brief = elem && !dt_ptype_structlike(kind);
	ctf_encoding_t e;
	ctf_next_t *it = NULL;
	const char *mname;
	ctf_id_t mtype;
	ssize_t moff;
	char *tname;
	size_t len;

	if (!brief) {
		if (elem)
			(void) fputc('\n', fp);
		dt_ptype_indent(pt, depth + nest);
		if (kind == CTF_ERR) {
			(void) fprintf(fp, "%s = <invalid type %ld>\n", name,
			    (long) type);
			return;
		}
		tname = ctf_type_aname(ctf, type);
		(void) fputs(tname != NULL ? tname : "<unknown>", fp);
		len = tname != NULL ? strlen(tname) : 0;
		if (name[0] != '\0') {
			/* "void *p", not "void * p"; "union " has its space. */
			if (len > 0 && tname[len - 1] != '*' &&
			    tname[len - 1] != ' ')
				(void) fputc(' ', fp);
			(void) fputs(name, fp);
			if (kind == CTF_K_INTEGER &&
			    dt_ptype_isbitfield(pt, type, bitoff, &e))
				(void) fprintf(fp, " :%u", e.cte_bits);
			(void) fputs(" =", fp);
		}
		(void) fputc(' ', fp);
		free(tname);
	}

	switch (kind) {
	case CTF_K_INTEGER:
		dt_ptype_int(pt, type, rtype, bitoff);
		break;
	case CTF_K_FLOAT:
		dt_ptype_float(pt, rtype, bitoff / 8);
		break;
	case CTF_K_POINTER:
	case CTF_K_FUNCTION:
		dt_ptype_hex(pt, bitoff / 8, ctf_type_size(ctf, rtype));
		break;
	case CTF_K_ARRAY:
		dt_ptype_array(pt, rtype, bitoff / 8, depth, nest);
		break;
	case CTF_K_ENUM:
		dt_ptype_enum(pt, rtype, bitoff / 8);
		break;
	case CTF_K_STRUCT:
	case CTF_K_UNION:
		(void) fputc('{', fp);
		break;
	case CTF_K_FORWARD:
		(void) fputs("<forward decl>", fp);
		break;
	default:
		(void) fprintf(fp, "<invalid type %ld>", (long) type);
		break;
	}
	if (!brief)
		(void) fputc('\n', fp);
	if (!dt_ptype_structlike(kind))
		return;
	while ((moff = ctf_member_next(ctf, rtype, &it, &mname, &mtype, 0)) >=
	    0)
		dt_ptype_member(pt, mname != NULL ? mname : "", mtype,
		    bitoff + (uint64_t) moff, depth + 1, nest);
	/*
	 * The closing brace sits at the struct's own indentation; what
	 * follows it (a newline, or ", " in an array) is the enclosing
	 * level's to print, and nothing follows the outermost one.
	 */
	dt_ptype_indent(pt, depth + nest);
	(void) fputc('}', fp);
	if (depth > 0)
		(void) fputc('\n', fp);
}

int
dt_print_typed(dt_consumer_t *dc, FILE *fp, const dt_recdesc_t *rd,
    const void *addr, bool quiet)
{
	dt_ptype_t pt;

	if (rd->rd_ctf == NULL || rd->rd_ctftype == 0 ||
	    ctf_type_kind(rd->rd_ctf, rd->rd_ctftype) == CTF_ERR ||
	    rd->rd_type == DT_REC_NONE)
		return dt_print_datum(dc, fp, rd, addr, quiet, false);
	pt.pt_fp = fp;
	pt.pt_ctf = rd->rd_ctf;
	pt.pt_data = addr;
	pt.pt_size = rd->rd_size;
	dt_ptype_member(&pt, "", rd->rd_ctftype, 0, 0, 0);
	return ferror(fp) ? -1 : 0;
}
