/* SPDX-License-Identifier: MIT */
/*
 * dt_type.c: the D type system on libctf.
 *
 * One writable CTF dictionary per handle (cc_ctf) holds D's intrinsic
 * types -- the C integer and floating-point types, void, the fixed-width
 * typedefs, "string" and the internal types of dynamic values -- and every
 * type a program declares.  Kernel types (from BTF) will be further
 * dictionaries; every type is therefore a (dictionary, id) pair.
 *
 * Layout follows the data model of the handle: LP64 (the default) or
 * ILP32 (-32), with x86-64 System V sizes and alignments; dt_decl.c lays
 * out structs and bit-fields by the same rules.
 *
 * The predicates here (is_integer, is_scalar, is_string, ...) and the
 * compatibility and promotion rules are those of ANSI C as D adopts them,
 * plus D's own: "string" is a first-class type compatible with char arrays
 * and char pointers, and <DYN> is the type of associative arrays,
 * aggregations and args[] before their element type is known.
 */
#include <stdlib.h>
#include <string.h>

#include "common/compiler/dt_cc.h"
#include "common/dt_os.h"

typedef struct dt_inttype {
	const char *it_name;
	unsigned it_format;
	unsigned it_bits;	/* LP64 */
	unsigned it_bits32;	/* ILP32 */
} dt_inttype_t;

static const dt_inttype_t dt_inttypes[] = {
	{ "char", CTF_INT_SIGNED | CTF_INT_CHAR, 8, 8 },
	{ "signed char", CTF_INT_SIGNED | CTF_INT_CHAR, 8, 8 },
	{ "unsigned char", CTF_INT_CHAR, 8, 8 },
	{ "short", CTF_INT_SIGNED, 16, 16 },
	{ "unsigned short", 0, 16, 16 },
	{ "int", CTF_INT_SIGNED, 32, 32 },
	{ "unsigned int", 0, 32, 32 },
	{ "long", CTF_INT_SIGNED, 64, 32 },
	{ "unsigned long", 0, 64, 32 },
	{ "long long", CTF_INT_SIGNED, 64, 64 },
	{ "unsigned long long", 0, 64, 64 },
	{ "_Bool", CTF_INT_BOOL, 8, 8 },
	{ NULL, 0, 0, 0 }
};

/* typedef name, target type name */
static const char *const dt_typedefs[][2] = {
	{ "int8_t", "signed char" }, { "int16_t", "short" },
	{ "int32_t", "int" }, { "int64_t", "long long" },
	{ "uint8_t", "unsigned char" }, { "uint16_t", "unsigned short" },
	{ "uint32_t", "unsigned int" }, { "uint64_t", "unsigned long long" },
	{ "intptr_t", "long" }, { "uintptr_t", "unsigned long" },
	{ "intmax_t", "long long" }, { "uintmax_t", "unsigned long long" },
	{ "size_t", "unsigned long" }, { "ssize_t", "long" },
	{ "ptrdiff_t", "long" }, { "off_t", "long" }, { "off64_t", "long long" },
	{ "id_t", "int" }, { "pid_t", "int" }, { "uid_t", "unsigned int" },
	{ "gid_t", "unsigned int" }, { "zoneid_t", "int" },
	{ "processorid_t", "int" }, { "psetid_t", "int" },
	{ "chipid_t", "int" }, { "lgrp_id_t", "int" },
	{ "taskid_t", "int" }, { "projid_t", "int" }, { "poolid_t", "int" },
	{ "ctid_t", "int" }, { "hrtime_t", "long long" },
	{ "time_t", "long" }, { "clock_t", "long" }, { "mode_t", "unsigned int" },
	{ "dev_t", "unsigned long" }, { "ino_t", "unsigned long" },
	{ "nlink_t", "unsigned long" }, { "major_t", "unsigned int" },
	{ "minor_t", "unsigned int" }, { "uchar_t", "unsigned char" },
	{ "ushort_t", "unsigned short" }, { "uint_t", "unsigned int" },
	{ "ulong_t", "unsigned long" }, { "longlong_t", "long long" },
	{ "u_longlong_t", "unsigned long long" }, { "boolean_t", "int" },
	{ "caddr_t", "char *" }, { "lwpid_t", "int" }, { "int_t", "int" },
	{ NULL, NULL }
};

static ctf_id_t
dt_type_need(dt_cc_t *cc, const char *name)
{
	return ctf_lookup_by_name(cc->cc_ctf, name);
}

int
dt_type_init(dt_cc_t *cc)
{
	bool ilp32 = (cc->cc_hdl->dt_oflags & DTRACE_O_ILP32) != 0;
	ctf_dict_t *fp;
	ctf_encoding_t e;
	ctf_arinfo_t ar;
	ctf_id_t t, base;
	int err;

	if ((fp = cc->cc_ctf = ctf_create(&err)) == NULL)
		return -1;
	ctf_setmodel(fp, ilp32 ? CTF_MODEL_ILP32 : CTF_MODEL_LP64);

	for (const dt_inttype_t *it = dt_inttypes; it->it_name != NULL;
	    it++) {
		e.cte_format = it->it_format;
		e.cte_offset = 0;
		e.cte_bits = ilp32 ? it->it_bits32 : it->it_bits;
		if (ctf_add_integer(fp, CTF_ADD_ROOT, it->it_name, &e) ==
		    CTF_ERR)
			return -1;
	}
	e.cte_format = CTF_FP_SINGLE, e.cte_offset = 0, e.cte_bits = 32;
	ctf_add_float(fp, CTF_ADD_ROOT, "float", &e);
	e.cte_format = CTF_FP_DOUBLE, e.cte_bits = 64;
	ctf_add_float(fp, CTF_ADD_ROOT, "double", &e);
	e.cte_format = CTF_FP_LDOUBLE, e.cte_bits = 128;
	ctf_add_float(fp, CTF_ADD_ROOT, "long double", &e);
	e.cte_format = CTF_INT_SIGNED, e.cte_bits = 0;
	cc->cc_type_void = ctf_add_integer(fp, CTF_ADD_ROOT, "void", &e);
	cc->cc_type_voidp = ctf_add_pointer(fp, CTF_ADD_ROOT,
	    cc->cc_type_void);
	t = ctf_add_pointer(fp, CTF_ADD_ROOT, dt_type_need(cc, "char"));
	(void) t;

	for (int i = 0; dt_typedefs[i][0] != NULL; i++) {
		const char *bname = dt_typedefs[i][1];

		/* The system's C ABI decides some (dt_os.h). */
		for (int j = 0; dt_os_typedefs[j][0] != NULL; j++) {
			if (strcmp(dt_os_typedefs[j][0], dt_typedefs[i][0]) == 0)
				bname = dt_os_typedefs[j][1];
		}
		if ((base = dt_type_need(cc, bname)) == CTF_ERR ||
		    ctf_add_typedef(fp, CTF_ADD_ROOT, dt_typedefs[i][0],
		    base) == CTF_ERR)
			return -1;
	}

	/* string: char[strsize]; sizeof uses the strsize option. */
	ar.ctr_contents = dt_type_need(cc, "char");
	ar.ctr_index = dt_type_need(cc, "long");
	ar.ctr_nelems = 256;
	if ((base = ctf_add_array(fp, CTF_ADD_ROOT, &ar)) == CTF_ERR)
		return -1;
	cc->cc_type_str = ctf_add_typedef(fp, CTF_ADD_ROOT, "string", base);
	cc->cc_type_dyn = ctf_add_typedef(fp, CTF_ADD_ROOT, "<DYN>",
	    cc->cc_type_void);
	cc->cc_type_stack = ctf_add_typedef(fp, CTF_ADD_ROOT, "stack",
	    dt_type_need(cc, "uint64_t"));
	cc->cc_type_symaddr = ctf_add_typedef(fp, CTF_ADD_ROOT, "_symaddr",
	    dt_type_need(cc, "uintptr_t"));
	cc->cc_type_usymaddr = ctf_add_typedef(fp, CTF_ADD_ROOT, "_usymaddr",
	    dt_type_need(cc, "uintptr_t"));

	cc->cc_type_int = dt_type_need(cc, "int");
	cc->cc_type_uint = dt_type_need(cc, "unsigned int");
	cc->cc_type_long = dt_type_need(cc, "long");
	cc->cc_type_ulong = dt_type_need(cc, "unsigned long");
	cc->cc_type_llong = dt_type_need(cc, "long long");
	cc->cc_type_ullong = dt_type_need(cc, "unsigned long long");
	cc->cc_type_char = dt_type_need(cc, "char");
	cc->cc_type_int64 = dt_type_need(cc, "int64_t");
	cc->cc_type_uint64 = dt_type_need(cc, "uint64_t");
	cc->cc_type_sizet = dt_type_need(cc, "size_t");
	cc->cc_type_ptrdiff = dt_type_need(cc, "ptrdiff_t");
	if (cc->cc_type_str == CTF_ERR || cc->cc_type_dyn == CTF_ERR ||
	    cc->cc_type_int == CTF_ERR)
		return -1;
	return 0;
}

void
dt_type_fini(dt_cc_t *cc)
{
	if (cc->cc_ctf != NULL)
		ctf_dict_close(cc->cc_ctf);
	cc->cc_ctf = NULL;
}

/*
 * Split a scoped type name -- "mod`T" or "struct mod`T" -- into its scope
 * (module) and "T" or "struct T" (in buf).  Returns false for a name with
 * no backquote.
 */
static bool
dt_type_scope(const char *name, char *mod, size_t modlen, char *buf,
    size_t len)
{
	static const char *const kws[] = { "struct ", "union ", "enum ", NULL };
	const char *kw = "", *rest = name, *bq;

	for (int i = 0; kws[i] != NULL; i++)
		if (strncmp(name, kws[i], strlen(kws[i])) == 0) {
			kw = kws[i];
			rest = name + strlen(kws[i]);
		}
	if ((bq = strchr(rest, '`')) == NULL || (size_t) (bq - rest) >= modlen)
		return false;
	memcpy(mod, rest, bq - rest);
	mod[bq - rest] = '\0';
	snprintf(buf, len, "%s%s", kw, bq + 1);
	return true;
}

static bool
dt_type_is_forward(ctf_dict_t *ctfp, ctf_id_t type)
{
	ctf_id_t base = ctf_type_resolve(ctfp, type);

	return base != CTF_ERR && ctf_type_kind(ctfp, base) == CTF_K_FORWARD;
}

/*
 * Look a type up by name in the namespaces D programs see: the C and D
 * types first (cc_ctf: the intrinsics and the program's declarations),
 * then the kernel's (dt_os_ktype_lookup, loaded on demand).  A forward
 * declaration in D ("struct task_struct;" in the prelude) defers to the
 * kernel's definition of the tag.  "mod`T" and "struct mod`T" look in
 * one module only; "C`T" and "D`T" in cc_ctf.  "T *" derives a pointer,
 * made in T's dictionary when it is not there yet.
 */
int
dt_type_lookup(dt_cc_t *cc, const char *name, ctf_dict_t **ctfpp,
    ctf_id_t *typep)
{
	char base[512], mod[128], scoped[512];
	ctf_dict_t *fp = cc->cc_ctf, *kfp;
	ctf_id_t type, kt;
	size_t n = strlen(name);

	if (n > 0 && name[n - 1] == '*') {
		ctf_id_t bt;

		if (n >= sizeof (base))
			return -1;
		memcpy(base, name, n - 1);
		base[n - 1] = '\0';
		while (strlen(base) > 0 && base[strlen(base) - 1] == ' ')
			base[strlen(base) - 1] = '\0';
		if (dt_type_lookup(cc, base, &fp, &bt) != 0)
			return -1;
		if ((type = ctf_type_pointer(fp, bt)) == CTF_ERR &&
		    (type = ctf_add_pointer(fp, CTF_ADD_ROOT, bt)) == CTF_ERR) {
			/* A read-only dictionary: derive it in D's. */
			if (fp == cc->cc_ctf ||
			    (bt = ctf_add_type(cc->cc_ctf, fp, bt)) == CTF_ERR)
				return -1;
			fp = cc->cc_ctf;
			if ((type = ctf_type_pointer(fp, bt)) == CTF_ERR &&
			    (type = ctf_add_pointer(fp, CTF_ADD_ROOT, bt)) ==
			    CTF_ERR)
				return -1;
		}
		*ctfpp = fp;
		*typep = type;
		return 0;
	}
	if (dt_type_scope(name, mod, sizeof (mod), scoped, sizeof (scoped))) {
		if (strcmp(mod, "C") == 0 || strcmp(mod, "D") == 0) {
			if ((type = ctf_lookup_by_name(fp, scoped)) == CTF_ERR)
				return -1;
		} else {
			if (cc->cc_noktypes || dt_os_ktype_lookup(cc->cc_hdl,
			    mod, scoped, &fp, &type) != 0)
				return -1;
		}
		*ctfpp = fp;
		*typep = type;
		return 0;
	}
	type = ctf_lookup_by_name(fp, name);
	if ((type == CTF_ERR || dt_type_is_forward(fp, type)) &&
	    !cc->cc_noktypes && dt_os_ktype_lookup(cc->cc_hdl, NULL, name, &kfp, &kt) == 0) {
		fp = kfp;
		type = kt;
	}
	if (type == CTF_ERR)
		return -1;
	*ctfpp = fp;
	*typep = type;
	return 0;
}

/*
 * A type's name in C declarator syntax, as DTrace prints it:
 * "char *", "int [10]", "int (*)(int, char *)", "struct foo".
 */
static void
dt_type_name_r(ctf_dict_t *ctfp, ctf_id_t type, const char *inner,
    char *buf, size_t len, int depth)
{
	char tmp[512], sub[512];
	int kind;

	if (depth > 32 || type == CTF_ERR) {
		snprintf(buf, len, "<unknown>%s%s", *inner ? " " : "", inner);
		return;
	}
	kind = ctf_type_kind(ctfp, type);
	switch (kind) {
	case CTF_K_POINTER: {
		ctf_id_t ref = ctf_type_reference(ctfp, type);
		int rk = ctf_type_kind(ctfp, ref);

		if (rk == CTF_K_FUNCTION || rk == CTF_K_ARRAY)
			snprintf(tmp, sizeof (tmp), "(*%s)", inner);
		else
			snprintf(tmp, sizeof (tmp), "*%s", inner);
		dt_type_name_r(ctfp, ref, tmp, buf, len, depth + 1);
		return;
	}
	case CTF_K_ARRAY: {
		ctf_arinfo_t ar;

		if (ctf_array_info(ctfp, type, &ar) != 0)
			break;
		snprintf(tmp, sizeof (tmp), "%s[%lu]", inner,
		    (unsigned long) ar.ctr_nelems);
		dt_type_name_r(ctfp, ar.ctr_contents, tmp, buf, len,
		    depth + 1);
		return;
	}
	case CTF_K_FUNCTION: {
		ctf_funcinfo_t fi;
		ctf_id_t args[32];
		size_t o;

		if (ctf_func_type_info(ctfp, type, &fi) != 0)
			break;
		o = snprintf(tmp, sizeof (tmp), "%s(", inner);
		if (fi.ctc_argc > 32)
			fi.ctc_argc = 32;
		if (ctf_func_type_args(ctfp, type, fi.ctc_argc, args) == 0) {
			for (unsigned i = 0; i < fi.ctc_argc &&
			    o < sizeof (tmp); i++) {
				dt_type_name_r(ctfp, args[i], "", sub,
				    sizeof (sub), depth + 1);
				o += snprintf(tmp + o, sizeof (tmp) - o, "%s%s",
				    i ? ", " : "", sub);
			}
		}
		if (o < sizeof (tmp) && (fi.ctc_flags & CTF_FUNC_VARARG))
			o += snprintf(tmp + o, sizeof (tmp) - o, "%s...",
			    fi.ctc_argc ? ", " : "");
		if (o < sizeof (tmp))
			snprintf(tmp + o, sizeof (tmp) - o, ")");
		dt_type_name_r(ctfp, fi.ctc_return, tmp, buf, len, depth + 1);
		return;
	}
	default:
		break;
	}
	if (ctf_type_name(ctfp, type, sub, sizeof (sub)) == NULL)
		snprintf(sub, sizeof (sub), "<unknown>");
	else if (kind == CTF_K_STRUCT || kind == CTF_K_UNION ||
	    kind == CTF_K_ENUM) {
		/* libctf names anonymous aggregates "struct "; use DTrace's. */
		size_t n = strlen(sub);

		if (n > 0 && sub[n - 1] == ' ')
			snprintf(sub + n, sizeof (sub) - n, "(anon)");
	}
	snprintf(buf, len, "%s%s%s", sub, *inner ? " " : "", inner);
}

char *
dt_type_name(ctf_dict_t *ctfp, ctf_id_t type, char *buf, size_t len)
{
	dt_type_name_r(ctfp, type, "", buf, len, 0);
	return buf;
}

char *
dt_node_type_name(const dt_cc_t *cc, const dt_node_t *dnp, char *buf,
    size_t len)
{
	char n[512];

	if (dt_node_is_dynamic(cc, dnp) && dnp->dn_ident != NULL) {
		snprintf(buf, len, "%s %s%s",
		    dt_idkind_name(dnp->dn_ident->di_kind),
		    dnp->dn_ident->di_kind == DT_IDENT_AGG ? "@" : "",
		    dnp->dn_ident->di_name);
		return buf;
	}
	if (dnp->dn_ctfp == NULL || dnp->dn_type == CTF_ERR) {
		snprintf(buf, len, "<untyped>");
		return buf;
	}
	if (dnp->dn_flags & DT_NF_USERLAND) {
		dt_type_name(dnp->dn_ctfp, dnp->dn_type, n, sizeof (n));
		snprintf(buf, len, "userland %s", n);
		return buf;
	}
	return dt_type_name(dnp->dn_ctfp, dnp->dn_type, buf, len);
}

/*
 * A pointer of another dictionary (with any pointers and qualifiers
 * between) to a named struct or union, made in D's as a pointer to the
 * tag: D's own struct of that name, or a forward declaration that
 * dt_type_complete() resolves by name when the pointer is dereferenced.
 * Copying the kernel's definition instead would copy all it holds by
 * value, as it stood then: a snapshot of struct sock in D's dictionary
 * that later lookups of "struct sock" would find before the kernel's.
 * CTF_ERR (and nothing made) for any other type.
 */
static ctf_id_t
dt_type_import_ptr(dt_cc_t *cc, ctf_dict_t *ctfp, ctf_id_t type, int depth)
{
	ctf_dict_t *dfp = cc->cc_ctf;
	int kind = ctf_type_kind(ctfp, type);
	char name[512];
	ctf_id_t ref, t;

	if (depth > 8)
		return CTF_ERR;
	switch (kind) {
	case CTF_K_STRUCT:
	case CTF_K_UNION:
	case CTF_K_FORWARD:
		if (depth == 0 || ctf_type_name(ctfp, type, name,
		    sizeof (name)) == NULL || name[strlen(name) - 1] == ' ')
			return CTF_ERR;		/* anonymous: copy it */
		if ((t = ctf_lookup_by_name(dfp, name)) != CTF_ERR)
			return t;
		if (kind == CTF_K_FORWARD)
			kind = ctf_type_kind_forwarded(ctfp, type);
		return ctf_add_forward(dfp, CTF_ADD_ROOT, strchr(name, ' ') + 1,
		    kind);
	case CTF_K_POINTER:
		if ((ref = dt_type_import_ptr(cc, ctfp,
		    ctf_type_reference(ctfp, type), depth + 1)) == CTF_ERR)
			return CTF_ERR;
		if ((t = ctf_type_pointer(dfp, ref)) != CTF_ERR)
			return t;
		return ctf_add_pointer(dfp, CTF_ADD_ROOT, ref);
	case CTF_K_CONST:
	case CTF_K_VOLATILE:
	case CTF_K_RESTRICT:
		if (depth == 0 || (ref = dt_type_import_ptr(cc, ctfp,
		    ctf_type_reference(ctfp, type), depth + 1)) == CTF_ERR)
			return CTF_ERR;
		return kind == CTF_K_CONST ?
		    ctf_add_const(dfp, CTF_ADD_NONROOT, ref) :
		    kind == CTF_K_VOLATILE ?
		    ctf_add_volatile(dfp, CTF_ADD_NONROOT, ref) :
		    ctf_add_restrict(dfp, CTF_ADD_NONROOT, ref);
	default:
		return CTF_ERR;
	}
}

/*
 * Copy a type from another dictionary into the D dictionary, so that
 * derived types (pointers, arrays) can be made of it.  Pointers to
 * structs and unions refer to them by tag (dt_type_import_ptr()).
 */
ctf_id_t
dt_type_import(dt_pcb_t *pcb, ctf_dict_t *ctfp, ctf_id_t type)
{
	dt_cc_t *cc = pcb->pcb_cc;
	ctf_id_t t;

	if (ctfp == cc->cc_ctf)
		return type;
	if ((t = dt_type_import_ptr(cc, ctfp, type, 0)) != CTF_ERR)
		return t;
	if ((t = ctf_add_type(cc->cc_ctf, ctfp, type)) == CTF_ERR)
		dt_cc_error(pcb, D_TYPE_ERR, "failed to copy type: %s",
		    ctf_errmsg(ctf_errno(cc->cc_ctf)));
	return t;
}

/*
 * The type "pointer to type", made if needed: in the type's own
 * dictionary when it is a kernel one (they are writable, and copying a
 * kernel struct into D's would copy all it refers to), else in D's.
 * *ctfpp is updated to the pointer's dictionary.
 */
ctf_id_t
dt_type_pointer(dt_pcb_t *pcb, ctf_dict_t **ctfpp, ctf_id_t type)
{
	dt_cc_t *cc = pcb->pcb_cc;
	ctf_dict_t *ctfp = *ctfpp;
	ctf_id_t t;

	if (ctfp != cc->cc_ctf &&
	    ((t = ctf_type_pointer(ctfp, type)) != CTF_ERR ||
	    (t = ctf_add_pointer(ctfp, CTF_ADD_ROOT, type)) != CTF_ERR))
		return t;
	type = dt_type_import(pcb, ctfp, type);
	*ctfpp = cc->cc_ctf;
	if ((t = ctf_type_pointer(cc->cc_ctf, type)) != CTF_ERR)
		return t;
	if ((t = ctf_add_pointer(cc->cc_ctf, CTF_ADD_ROOT, type)) == CTF_ERR)
		dt_cc_error(pcb, D_TYPE_ERR, "failed to create pointer type: "
		    "%s", ctf_errmsg(ctf_errno(cc->cc_ctf)));
	return t;
}

/*
 * The definition of a forward declaration ("struct task_struct;" in D, or
 * a kernel struct a pointer refers to before it is imported), looked up
 * by its tag; other types unchanged.  The type is resolved (typedefs
 * stripped) either way.  False when a forward has no definition.
 */
bool
dt_type_complete(dt_cc_t *cc, ctf_dict_t **ctfpp, ctf_id_t *typep)
{
	ctf_dict_t *fp = *ctfpp, *dfp;
	ctf_id_t t = ctf_type_resolve(fp, *typep), dt;
	char tag[512];

	if (t == CTF_ERR)
		return false;
	*typep = t;
	if (ctf_type_kind(fp, t) != CTF_K_FORWARD)
		return true;
	if (ctf_type_name(fp, t, tag, sizeof (tag)) == NULL ||
	    dt_type_lookup(cc, tag, &dfp, &dt) != 0 ||
	    (dt = ctf_type_resolve(dfp, dt)) == CTF_ERR ||
	    ctf_type_kind(dfp, dt) == CTF_K_FORWARD)
		return false;
	*ctfpp = dfp;
	*typep = dt;
	return true;
}

/*
 * ctf_member_info(), also through unnamed struct and union members (C11
 * anonymous members, everywhere in kernel structs), with the offset from
 * the start of the outer type: libctf finds such members but counts their
 * offset from the unnamed member.
 */
int
dt_type_member_info(ctf_dict_t *ctfp, ctf_id_t type, const char *name,
    ctf_membinfo_t *mip)
{
	ctf_next_t *it = NULL;
	const char *mname;
	ctf_id_t mtype, base;
	ssize_t off;
	int kind;

	if ((type = ctf_type_resolve(ctfp, type)) == CTF_ERR)
		return -1;
	while ((off = ctf_member_next(ctfp, type, &it, &mname, &mtype,
	    0)) >= 0) {
		if (mname != NULL && mname[0] != '\0') {
			if (strcmp(mname, name) != 0)
				continue;
			mip->ctm_type = mtype;
			mip->ctm_offset = (unsigned long) off;
			ctf_next_destroy(it);
			return 0;
		}
		base = ctf_type_resolve(ctfp, mtype);
		kind = base == CTF_ERR ? CTF_K_UNKNOWN :
		    ctf_type_kind(ctfp, base);
		if ((kind == CTF_K_STRUCT || kind == CTF_K_UNION) &&
		    dt_type_member_info(ctfp, base, name, mip) == 0) {
			mip->ctm_offset += (unsigned long) off;
			ctf_next_destroy(it);
			return 0;
		}
	}
	return -1;
}

static int
dt_kind(ctf_dict_t *ctfp, ctf_id_t type, ctf_id_t *basep)
{
	ctf_id_t base;

	if (ctfp == NULL || type == CTF_ERR)
		return CTF_K_UNKNOWN;
	if ((base = ctf_type_resolve(ctfp, type)) == CTF_ERR)
		return CTF_K_UNKNOWN;
	if (basep != NULL)
		*basep = base;
	return ctf_type_kind(ctfp, base);
}

bool
dt_type_is_void(ctf_dict_t *ctfp, ctf_id_t type)
{
	ctf_encoding_t e;
	ctf_id_t base;

	return dt_kind(ctfp, type, &base) == CTF_K_INTEGER &&
	    ctf_type_encoding(ctfp, base, &e) == 0 && e.cte_bits == 0;
}

static bool
dt_is_dyn(const dt_cc_t *cc, ctf_dict_t *ctfp, ctf_id_t type)
{
	return ctfp == cc->cc_ctf && type == cc->cc_type_dyn;
}

bool
dt_node_is_dynamic(const dt_cc_t *cc, const dt_node_t *dnp)
{
	if (dnp->dn_kind == DT_NODE_VAR && dnp->dn_ident != NULL &&
	    (dnp->dn_ident->di_flags & DT_IDFLG_INLINE))
		return false;
	return dt_is_dyn(cc, dnp->dn_ctfp, dnp->dn_type);
}

bool
dt_node_is_void(const dt_node_t *dnp)
{
	/* <DYN> is a typedef of void but is not void. */
	if (dnp->dn_ctfp == NULL || dnp->dn_type == CTF_ERR)
		return false;
	if (ctf_type_kind(dnp->dn_ctfp, dnp->dn_type) == CTF_K_TYPEDEF) {
		char n[16];

		if (ctf_type_name(dnp->dn_ctfp, dnp->dn_type, n,
		    sizeof (n)) != NULL && strcmp(n, "<DYN>") == 0)
			return false;
	}
	return dt_type_is_void(dnp->dn_ctfp, dnp->dn_type);
}

bool
dt_node_is_integer(const dt_node_t *dnp)
{
	ctf_id_t base;
	int kind = dt_kind(dnp->dn_ctfp, dnp->dn_type, &base);

	if (kind == CTF_K_ENUM)
		return true;
	return kind == CTF_K_INTEGER && !dt_node_is_void(dnp) &&
	    !dt_type_is_void(dnp->dn_ctfp, dnp->dn_type);
}

bool
dt_node_is_arith(const dt_node_t *dnp)
{
	/*
	 * D has no floating-point operators: a float can only be traced
	 * and formatted, so arithmetic is on integers alone, as in DTrace.
	 */
	return dt_node_is_integer(dnp);
}

bool
dt_node_is_float(const dt_node_t *dnp)
{
	return dt_kind(dnp->dn_ctfp, dnp->dn_type, NULL) == CTF_K_FLOAT;
}

bool
dt_node_is_scalar(const dt_node_t *dnp)
{
	int kind = dt_kind(dnp->dn_ctfp, dnp->dn_type, NULL);

	return dt_node_is_integer(dnp) || kind == CTF_K_POINTER;
}

bool
dt_node_is_string(const dt_cc_t *cc, const dt_node_t *dnp)
{
	ctf_id_t base, sbase;

	if (dnp->dn_ctfp != cc->cc_ctf || dnp->dn_type == CTF_ERR)
		return false;
	if (dnp->dn_type == cc->cc_type_str)
		return true;
	base = ctf_type_resolve(dnp->dn_ctfp, dnp->dn_type);
	sbase = ctf_type_resolve(cc->cc_ctf, cc->cc_type_str);
	return base == sbase;
}

/* Is type (resolved) a char, the element of a string-compatible type? */
static bool
dt_type_is_char(ctf_dict_t *ctfp, ctf_id_t type)
{
	ctf_encoding_t e;
	ctf_id_t base;

	return dt_kind(ctfp, type, &base) == CTF_K_INTEGER &&
	    ctf_type_encoding(ctfp, base, &e) == 0 &&
	    (e.cte_format & CTF_INT_CHAR) && e.cte_bits == 8;
}

bool
dt_node_is_strcompat(const dt_cc_t *cc, const dt_node_t *dnp)
{
	ctf_id_t base;
	int kind;

	if (dt_node_is_string(cc, dnp))
		return true;
	kind = dt_kind(dnp->dn_ctfp, dnp->dn_type, &base);
	if (kind == CTF_K_POINTER)
		return dt_type_is_char(dnp->dn_ctfp,
		    ctf_type_reference(dnp->dn_ctfp, base));
	if (kind == CTF_K_ARRAY) {
		ctf_arinfo_t ar;

		return ctf_array_info(dnp->dn_ctfp, base, &ar) == 0 &&
		    dt_type_is_char(dnp->dn_ctfp, ar.ctr_contents);
	}
	return false;
}

bool
dt_node_is_pointer(const dt_node_t *dnp)
{
	int kind = dt_kind(dnp->dn_ctfp, dnp->dn_type, NULL);

	return kind == CTF_K_POINTER || kind == CTF_K_ARRAY;
}

/*
 * A translated pointer: xlate<T *>(e) (args[N] of a translated argument
 * is one), an inline defined by one (curpsinfo), or a variable assigned
 * one.  Its value is e's; its members are the translator's.
 */
bool
dt_node_is_xlptr(const dt_node_t *dnp)
{
	const dt_ident_t *idp = dnp->dn_ident;

	if (dnp->dn_xlator == NULL ||
	    dt_kind(dnp->dn_ctfp, dnp->dn_type, NULL) != CTF_K_POINTER)
		return false;
	if (dnp->dn_kind == DT_NODE_OP2)
		return dnp->dn_op == DT_OP_XLATE;
	if (dnp->dn_kind != DT_NODE_VAR || idp == NULL)
		return false;
	if (idp->di_flags & DT_IDFLG_XLPTR)
		return true;
	return (idp->di_flags & DT_IDFLG_INLINE) && idp->di_inline != NULL &&
	    dt_node_is_xlptr(idp->di_inline);
}

bool
dt_node_is_vfptr(const dt_node_t *dnp)
{
	ctf_id_t base, ref;

	if (dt_kind(dnp->dn_ctfp, dnp->dn_type, &base) != CTF_K_POINTER)
		return false;
	ref = ctf_type_reference(dnp->dn_ctfp, base);
	return dt_type_is_void(dnp->dn_ctfp, ref) ||
	    dt_kind(dnp->dn_ctfp, ref, NULL) == CTF_K_FUNCTION;
}

bool
dt_node_is_stack(const dt_cc_t *cc, const dt_node_t *dnp)
{
	return dnp->dn_ctfp == cc->cc_ctf && dnp->dn_type == cc->cc_type_stack;
}

bool
dt_node_is_symaddr(const dt_cc_t *cc, const dt_node_t *dnp)
{
	return dnp->dn_ctfp == cc->cc_ctf &&
	    (dnp->dn_type == cc->cc_type_symaddr ||
	    dnp->dn_type == cc->cc_type_usymaddr);
}

bool
dt_node_is_actfunc(const dt_node_t *dnp)
{
	return dnp->dn_kind == DT_NODE_FUNC && dnp->dn_ident != NULL &&
	    dnp->dn_ident->di_kind == DT_IDENT_ACTFUNC;
}

/*
 * libctf's compatibility, plus: a forward declaration is compatible with
 * a struct or union of its tag (D's "struct task_struct;" and the
 * kernel's definition), also under pointers.
 */
static bool
dt_type_compat_r(ctf_dict_t *lfp, ctf_id_t ltype, ctf_dict_t *rfp,
    ctf_id_t rtype, int depth)
{
	ctf_id_t lb = ctf_type_resolve(lfp, ltype);
	ctf_id_t rb = ctf_type_resolve(rfp, rtype);
	int lk, rk;

	if (lb == CTF_ERR || rb == CTF_ERR || depth > 16)
		return false;
	lk = ctf_type_kind(lfp, lb);
	rk = ctf_type_kind(rfp, rb);
	if (lk == CTF_K_POINTER && rk == CTF_K_POINTER)
		return dt_type_compat_r(lfp, ctf_type_reference(lfp, lb), rfp,
		    ctf_type_reference(rfp, rb), depth + 1);
	if ((lk == CTF_K_FORWARD || rk == CTF_K_FORWARD) &&
	    (lk == CTF_K_FORWARD || lk == CTF_K_STRUCT || lk == CTF_K_UNION) &&
	    (rk == CTF_K_FORWARD || rk == CTF_K_STRUCT || rk == CTF_K_UNION)) {
		char ln[512], rn[512];

		return ctf_type_name(lfp, lb, ln, sizeof (ln)) != NULL &&
		    ctf_type_name(rfp, rb, rn, sizeof (rn)) != NULL &&
		    strcmp(ln, rn) == 0;
	}
	return ctf_type_compat(lfp, ltype, rfp, rtype) != 0;
}

bool
dt_type_compat(ctf_dict_t *lfp, ctf_id_t ltype, ctf_dict_t *rfp,
    ctf_id_t rtype)
{
	if (lfp == NULL || rfp == NULL || ltype == CTF_ERR ||
	    rtype == CTF_ERR)
		return false;
	if (lfp == rfp && ctf_type_resolve(lfp, ltype) ==
	    ctf_type_resolve(rfp, rtype))
		return true;
	return dt_type_compat_r(lfp, ltype, rfp, rtype, 0);
}

/*
 * Pointer compatibility (K&R A7.9-10, A7.16), relaxed as DTrace does for
 * void pointers.  On success the result type of ?: is stored.
 */
bool
dt_node_is_ptrcompat(const dt_cc_t *cc, const dt_node_t *lp,
    const dt_node_t *rp, ctf_dict_t **ctfpp, ctf_id_t *typep)
{
	ctf_id_t lbase = CTF_ERR, rbase = CTF_ERR, lref, rref;
	bool lnull, rnull;
	int lk, rk;

	lnull = lp->dn_kind == DT_NODE_INT && lp->dn_value == 0 &&
	    dt_node_is_integer(lp);
	rnull = rp->dn_kind == DT_NODE_INT && rp->dn_value == 0 &&
	    dt_node_is_integer(rp);
	if (lnull && dt_node_is_pointer(rp)) {
		if (ctfpp != NULL)
			*ctfpp = rp->dn_ctfp, *typep = rp->dn_type;
		return true;
	}
	if (rnull && dt_node_is_pointer(lp)) {
		if (ctfpp != NULL)
			*ctfpp = lp->dn_ctfp, *typep = lp->dn_type;
		return true;
	}
	if (!dt_node_is_pointer(lp) || !dt_node_is_pointer(rp))
		return false;
	if (dt_node_is_string(cc, lp) || dt_node_is_string(cc, rp))
		return false;
	if ((lp->dn_flags & DT_NF_USERLAND) != (rp->dn_flags & DT_NF_USERLAND))
		return false;
	lk = dt_kind(lp->dn_ctfp, lp->dn_type, &lbase);
	rk = dt_kind(rp->dn_ctfp, rp->dn_type, &rbase);
	if (lk == CTF_K_ARRAY) {
		ctf_arinfo_t ar;

		ctf_array_info(lp->dn_ctfp, lbase, &ar);
		lref = ar.ctr_contents;
	} else
		lref = ctf_type_reference(lp->dn_ctfp, lbase);
	if (rk == CTF_K_ARRAY) {
		ctf_arinfo_t ar;

		ctf_array_info(rp->dn_ctfp, rbase, &ar);
		rref = ar.ctr_contents;
	} else
		rref = ctf_type_reference(rp->dn_ctfp, rbase);

	if (dt_type_is_void(lp->dn_ctfp, lref)) {
		if (ctfpp != NULL)
			*ctfpp = lp->dn_ctfp, *typep = lp->dn_type;
		return true;
	}
	if (dt_type_is_void(rp->dn_ctfp, rref)) {
		if (ctfpp != NULL)
			*ctfpp = rp->dn_ctfp, *typep = rp->dn_type;
		return true;
	}
	if (!dt_type_compat(lp->dn_ctfp, lref, rp->dn_ctfp, rref))
		return false;
	if (ctfpp != NULL)
		*ctfpp = lp->dn_ctfp, *typep = lp->dn_type;
	return true;
}

/*
 * Can a value of rp's type be assigned to (or passed as) lp's type?
 */
bool
dt_node_is_argcompat(const dt_cc_t *cc, const dt_node_t *lp,
    const dt_node_t *rp)
{
	ctf_id_t base;

	if (dt_type_compat(lp->dn_ctfp, lp->dn_type, rp->dn_ctfp,
	    rp->dn_type))
		return true;
	if (dt_node_is_integer(lp) && dt_node_is_integer(rp))
		return true;
	/* string, char * and char arrays pass for one another (DTrace). */
	if (dt_node_is_strcompat(cc, lp) && dt_node_is_strcompat(cc, rp))
		return true;
	/*
	 * A D string is an array of char, so, as in C, it may be passed
	 * where a void pointer is expected (bcopy(), copyout()).
	 */
	if (dt_node_is_string(cc, rp) &&
	    dt_kind(lp->dn_ctfp, lp->dn_type, &base) == CTF_K_POINTER &&
	    dt_type_is_void(lp->dn_ctfp,
	    ctf_type_reference(lp->dn_ctfp, base)))
		return true;
	return dt_node_is_ptrcompat(cc, lp, rp, NULL, NULL);
}

/*
 * DTrace's usual arithmetic conversions: the wider type wins, and at equal
 * width the unsigned one (there is no promotion to int first).
 */
void
dt_type_promote(dt_cc_t *cc, const dt_node_t *lp, const dt_node_t *rp,
    ctf_dict_t **ctfpp, ctf_id_t *typep)
{
	ctf_dict_t *lfp = lp->dn_ctfp, *rfp = rp->dn_ctfp;
	ctf_id_t lt = lp->dn_type, rt = rp->dn_type;
	ssize_t ls, rs;
	bool lsig = (lp->dn_flags & DT_NF_SIGNED) != 0;
	bool rsig = (rp->dn_flags & DT_NF_SIGNED) != 0;

	if (dt_kind(lfp, lt, NULL) == CTF_K_ENUM)
		lfp = cc->cc_ctf, lt = cc->cc_type_int, lsig = true;
	if (dt_kind(rfp, rt, NULL) == CTF_K_ENUM)
		rfp = cc->cc_ctf, rt = cc->cc_type_int, rsig = true;
	ls = ctf_type_size(lfp, lt);
	rs = ctf_type_size(rfp, rt);
	/*
	 * Unlike C, DTrace does not promote char and short to int first:
	 * the operand of higher rank (size, then unsignedness) is the type
	 * of the result, so unsigned char + char is an unsigned char.
	 */
	if (lp->dn_flags & DT_NF_BITFIELD)
		lfp = cc->cc_ctf, lt = cc->cc_type_int, ls = 4, lsig = true;
	if (rp->dn_flags & DT_NF_BITFIELD)
		rfp = cc->cc_ctf, rt = cc->cc_type_int, rs = 4, rsig = true;

	if (ls > rs || (ls == rs && !lsig)) {
		*ctfpp = lfp, *typep = lt;
		return;
	}
	if (rs > ls || (ls == rs && !rsig)) {
		*ctfpp = rfp, *typep = rt;
		return;
	}
	*ctfpp = lfp, *typep = lt;
}

/*
 * The alignment of a type in bytes, as the C compiler sees it.  libctf
 * takes a struct's alignment from its first member; C takes the largest
 * alignment of any member, and so does D.
 */
typedef struct dt_align_arg {
	ctf_dict_t *aa_ctfp;
	ssize_t aa_align;
	int aa_depth;
} dt_align_arg_t;

static ssize_t dt_type_align_r(ctf_dict_t *ctfp, ctf_id_t type, int depth);

static int
dt_type_align_member(const char *name, ctf_id_t type, unsigned long off,
    void *arg)
{
	dt_align_arg_t *aa = arg;
	ssize_t a;

	(void) off;
	if (ctf_type_kind(aa->aa_ctfp, type) == CTF_K_INTEGER) {
		ctf_encoding_t e;
		ctf_id_t ref;

		if (ctf_type_encoding(aa->aa_ctfp, type, &e) == 0 &&
		    (e.cte_bits % 8 != 0 || e.cte_bits == 0 ||
		    e.cte_offset != 0)) {
			/* An unnamed bit-field does not align its struct. */
			if (name == NULL || name[0] == '\0')
				return 0;
			/* A named one aligns it as its declared type. */
			if ((ref = ctf_type_reference(aa->aa_ctfp, type)) !=
			    CTF_ERR)
				type = ref;
		}
	}
	a = dt_type_align_r(aa->aa_ctfp, type, aa->aa_depth + 1);
	if (a > aa->aa_align)
		aa->aa_align = a;
	return 0;
}

static ssize_t
dt_type_align_r(ctf_dict_t *ctfp, ctf_id_t type, int depth)
{
	ctf_id_t base = ctf_type_resolve(ctfp, type);
	dt_align_arg_t aa = { ctfp, 1, depth };
	ctf_arinfo_t ar;

	if (base == CTF_ERR || depth > 64)
		return 1;
	switch (ctf_type_kind(ctfp, base)) {
	case CTF_K_STRUCT:
	case CTF_K_UNION:
		ctf_member_iter(ctfp, base, dt_type_align_member, &aa);
		return aa.aa_align;
	case CTF_K_ARRAY:
		if (ctf_array_info(ctfp, base, &ar) != 0)
			return 1;
		return dt_type_align_r(ctfp, ar.ctr_contents, depth + 1);
	default: {
		ssize_t a = ctf_type_align(ctfp, base);

		return a > 0 ? a : 1;
	}
	}
}

ssize_t
dt_type_align(ctf_dict_t *ctfp, ctf_id_t type)
{
	return dt_type_align_r(ctfp, type, 0);
}

/* The size of a node's value in bytes; strings are strsize long. */
size_t
dt_node_sizeof(const dt_cc_t *cc, const dt_node_t *dnp)
{
	ssize_t size;

	if (dt_node_is_string(cc, dnp)) {
		dtrace_optval_t v = cc->cc_hdl->dt_options[DT_OPT_STRSIZE];

		return v > 0 ? (size_t) v : 256;
	}
	if (dnp->dn_ctfp == NULL || dnp->dn_type == CTF_ERR)
		return 0;
	if (dt_node_is_dynamic(cc, dnp) || dt_node_is_void(dnp))
		return 0;
	size = ctf_type_size(dnp->dn_ctfp, dnp->dn_type);
	return size < 0 ? 0 : (size_t) size;
}
