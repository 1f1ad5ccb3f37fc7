/* SPDX-License-Identifier: MIT */
/*
 * dt_btf.c: the kernel's types, from BTF, for the D compiler.
 *
 * This answers dt_os_ktype_lookup() (common/dt_os.h): given a type name
 * ("struct task_struct", "u64", "union bpf_attr"), optionally scoped to a
 * module as D's backquote operator scopes it ("vmlinux`struct file"), find
 * the type among the running kernel's and hand back a (libctf dictionary,
 * type ID) pair the compiler uses like any of its own types.
 *
 * Sources: /sys/kernel/btf/vmlinux, then each module's split BTF under
 * /sys/kernel/btf/<module> (searched in directory order, as DTrace
 * searches loadable modules after the core kernel); with -x btfpath=FILE
 * only that file (raw BTF or an ELF file with a .BTF section), which tests
 * use to get fixed types.
 *
 * Everything is lazy, because a one-liner must start in milliseconds:
 *
 *   - nothing is read until the compiler asks for a type D itself does not
 *     have (the lexer asks whether an unknown identifier is a kernel
 *     typedef, so any program with a variable of its own gets here);
 *   - then the module's raw BTF is mapped (read where sysfs cannot be
 *     mapped), its type records are located in one pass and its names
 *     indexed (one open-addressing hash per module: "s"/"u"/"e"/"t" +
 *     name, for struct, union, enum, and typedef/base names; the first
 *     definition wins).  libbpf's btf.h accessors read the records; its
 *     full parse (which copies and validates all of it, ~10x slower) is
 *     not needed to answer lookups;
 *   - a type is converted to CTF only when named, with what it references;
 *     a pointer to a named struct or union becomes a pointer to a CTF
 *     forward declaration, so importing task_struct does not drag in the
 *     whole kernel.  When a D program dereferences such a pointer, the
 *     compiler looks the tag up by name, the struct is imported, and
 *     libctf promotes the forward to the definition in place, so every
 *     pointer made earlier now points at the complete type.
 *
 * Each module gets its own writable CTF dictionary (LP64), kept for the
 * life of the handle; map[] remembers which BTF type became which CTF
 * type.  BTF's C base types are imported under their own names ("long
 * int"); D's own and C's base types are found first by the compiler, so
 * they win, as in DTrace.  Only structs, unions and forwards are visible
 * by name in these dictionaries (forwards are completed by name); the
 * rest are added unnamed-at-root, so that copying a kernel type into D's
 * dictionary never clashes with D's own "char" (signed in D, unsigned in
 * the kernel) or "pid_t".
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <ctf-api.h>
#include <gelf.h>
#include <libelf.h>

#include "common/dt_impl.h"
#include "common/dt_os.h"
#include "os/linux/dt_btf.h"
#include "os/linux/dt_elfsym.h"
#include "os/linux/dt_kdwarf.h"
#include "os/linux/dt_ksyms.h"

#define DT_BTF_SYSFS	"/sys/kernel/btf"
#define DT_BTF_DEPTH	64	/* nesting of embedded types we follow */

typedef struct dt_btf_mod {
	char *bm_name;		/* "vmlinux" or the module's name */
	char *bm_path;
	bool bm_tried;		/* load attempted (bm_types NULL: failed) */
	struct dt_btf_mod *bm_base; /* split BTF: the kernel's; or NULL */
	char *bm_data;		/* the raw BTF */
	size_t bm_size;
	bool bm_mapped;		/* bm_data is mmap()ed, not malloc()ed */
	const char *bm_strs;	/* string section */
	uint32_t bm_stroff;	/* offset of its first string (split BTF) */
	uint32_t bm_strlen;
	const struct btf_type **bm_types; /* own types, from ID bm_first */
	uint32_t bm_first;	/* first type ID of this module's own */
	uint32_t bm_ntypes;	/* IDs below this exist */
	uint32_t *bm_hash;	/* name index: type IDs, 0 = empty */
	uint32_t bm_hmask;
	ctf_dict_t *bm_ctf;	/* the imported types */
	ctf_id_t *bm_map;	/* BTF ID -> CTF ID, 0 = not yet */
	ctf_id_t bm_void;	/* CTF "void" of bm_ctf */
	ctf_id_t bm_long;	/* array index type */
	struct dt_btf_mod *bm_next;
} dt_btf_mod_t;

typedef struct dt_btf {
	bool bt_listed;		/* modules found */
	dt_btf_mod_t *bt_mods;	/* vmlinux first */
	bool bt_dwarf_tried;	/* the kernel's DWARF looked for */
	dt_kdwarf_t *bt_dwarf;	/* its variables, or NULL: */
	char bt_dwarf_why[1536]; /* why there are none */
} dt_btf_t;

/* Type id of module bm (or of the kernel's, for split BTF), or NULL. */
static const struct btf_type *
dt_btf_type(const dt_btf_mod_t *bm, uint32_t id)
{
	if (id < bm->bm_first)
		return bm->bm_base != NULL ? dt_btf_type(bm->bm_base, id) :
		    NULL;
	return id < bm->bm_ntypes ? bm->bm_types[id - bm->bm_first] : NULL;
}

/* The string at offset off, "" when out of range. */
static const char *
dt_btf_str(const dt_btf_mod_t *bm, uint32_t off)
{
	if (off < bm->bm_stroff)
		return bm->bm_base != NULL ? dt_btf_str(bm->bm_base, off) : "";
	off -= bm->bm_stroff;
	return off < bm->bm_strlen ? bm->bm_strs + off : "";
}

static bool dt_btf_load(struct dt_btf *bt, dt_btf_mod_t *bm);

/* The index class of a BTF type: what D's namespaces tell apart. */
static char
dt_btf_class(const struct btf_type *t)
{
	switch (btf_kind(t)) {
	case BTF_KIND_STRUCT:
		return 's';
	case BTF_KIND_UNION:
		return 'u';
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		return 'e';
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
		return 't';
	case BTF_KIND_VAR:
		return 'v';
	default:
		return 0;
	}
}

static uint32_t
dt_btf_strhash(char cls, const char *s)
{
	uint32_t h = 2166136261u ^ (unsigned char) cls;

	for (; *s != '\0'; s++)
		h = (h ^ (unsigned char) *s) * 16777619u;
	return h;
}

static int
dt_btf_index(dt_btf_mod_t *bm)
{
	uint32_t n = bm->bm_ntypes - bm->bm_first, size = 1024;

	while (size < n * 2)
		size <<= 1;
	if ((bm->bm_hash = calloc(size, sizeof (uint32_t))) == NULL)
		return -1;
	bm->bm_hmask = size - 1;
	for (uint32_t id = bm->bm_first; id < bm->bm_ntypes; id++) {
		const struct btf_type *t = dt_btf_type(bm, id);
		const char *name = dt_btf_str(bm, t->name_off);
		char cls = dt_btf_class(t);
		uint32_t h, o;

		if (cls == 0 || name == NULL || name[0] == '\0')
			continue;
		h = dt_btf_strhash(cls, name) & bm->bm_hmask;
		for (;; h = (h + 1) & bm->bm_hmask) {
			if ((o = bm->bm_hash[h]) == 0) {
				bm->bm_hash[h] = id;
				break;
			}
			t = dt_btf_type(bm, o);
			if (dt_btf_class(t) == cls && strcmp(name,
			    dt_btf_str(bm, t->name_off)) == 0)
				break;	/* the first definition wins */
		}
	}
	return 0;
}

/* The module's own type of this class and name, or 0. */
static uint32_t
dt_btf_find(dt_btf_mod_t *bm, char cls, const char *name)
{
	uint32_t h = dt_btf_strhash(cls, name) & bm->bm_hmask, id;

	for (; (id = bm->bm_hash[h]) != 0; h = (h + 1) & bm->bm_hmask) {
		const struct btf_type *t = dt_btf_type(bm, id);

		if (dt_btf_class(t) == cls && strcmp(name,
		    dt_btf_str(bm, t->name_off)) == 0)
			return id;
	}
	return 0;
}

static dt_btf_mod_t *
dt_btf_mod_add(dt_btf_t *bt, const char *name, const char *path)
{
	dt_btf_mod_t *bm = calloc(1, sizeof (*bm)), **pp;

	if (bm == NULL || (bm->bm_name = strdup(name)) == NULL ||
	    (bm->bm_path = strdup(path)) == NULL) {
		if (bm != NULL)
			free(bm->bm_name);
		free(bm);
		return NULL;
	}
	for (pp = &bt->bt_mods; *pp != NULL; pp = &(*pp)->bm_next)
		continue;
	*pp = bm;
	return bm;
}

/* Find the kernel's and the modules' BTF files, without reading them. */
static void
dt_btf_list(dtrace_hdl_t *dtp, dt_btf_t *bt)
{
	const char *path = dtp->dt_optstr[DT_OPT_BTFPATH];
	DIR *dir;
	struct dirent *de;
	char buf[4096];

	bt->bt_listed = true;
	if (path != NULL) {
		(void) dt_btf_mod_add(bt, "vmlinux", path);
		return;
	}
	if (dt_btf_mod_add(bt, "vmlinux", DT_BTF_SYSFS "/vmlinux") == NULL ||
	    (dir = opendir(DT_BTF_SYSFS)) == NULL)
		return;
	while ((de = readdir(dir)) != NULL) {
		if (de->d_name[0] == '.' || strcmp(de->d_name, "vmlinux") == 0)
			continue;
		snprintf(buf, sizeof (buf), DT_BTF_SYSFS "/%s", de->d_name);
		if (dt_btf_mod_add(bt, de->d_name, buf) == NULL)
			break;
	}
	closedir(dir);
}

/* dt_btf_load() is below, with the raw reader. */

static ctf_id_t dt_btf_import(dt_btf_mod_t *bm, uint32_t id, int depth);

/*
 * What a pointer refers to: a named struct or union is referred to by a
 * forward declaration (its definition is imported when needed), anything
 * else is imported now.
 */
static ctf_id_t
dt_btf_import_ref(dt_btf_mod_t *bm, uint32_t id, int depth)
{
	const struct btf_type *t = dt_btf_type(bm, id);
	const char *name;
	char tag[512];
	ctf_id_t ct;
	int kind;

	if (id == 0 || bm->bm_map[id] != 0 || t == NULL ||
	    (!btf_is_struct(t) && !btf_is_union(t)))
		return dt_btf_import(bm, id, depth);
	name = dt_btf_str(bm, t->name_off);
	if (name == NULL || name[0] == '\0')
		return dt_btf_import(bm, id, depth);
	kind = btf_is_struct(t) ? CTF_K_STRUCT : CTF_K_UNION;
	snprintf(tag, sizeof (tag), "%s %s", kind == CTF_K_STRUCT ? "struct" :
	    "union", name);
	if ((ct = ctf_lookup_by_name(bm->bm_ctf, tag)) != CTF_ERR)
		return ct;
	return ctf_add_forward(bm->bm_ctf, CTF_ADD_ROOT, name, kind);
}

/*
 * If type id is a struct or union (under any qualifiers), import its
 * definition now; else nothing.  Returns CTF_ERR only on failure.
 */
static ctf_id_t
dt_btf_byvalue_sou(dt_btf_mod_t *bm, uint32_t id, int depth)
{
	const struct btf_type *t = dt_btf_type(bm, id);

	while (t != NULL && id != 0 && (btf_is_mod(t) || btf_is_typedef(t) ||
	    btf_kind(t) == BTF_KIND_TYPE_TAG)) {
		id = t->type;
		t = dt_btf_type(bm, id);
	}
	if (id == 0 || t == NULL || (!btf_is_struct(t) && !btf_is_union(t)))
		return 0;
	return dt_btf_import(bm, id, depth);
}

static ctf_id_t
dt_btf_import_int(dt_btf_mod_t *bm, const struct btf_type *t,
    const char *name)
{
	uint8_t enc = btf_int_encoding(t);
	ctf_encoding_t e = { 0, 0, t->size * 8 };

	if (enc & BTF_INT_SIGNED)
		e.cte_format |= CTF_INT_SIGNED;
	if (enc & BTF_INT_BOOL)
		e.cte_format |= CTF_INT_BOOL;
	/* BTF rarely marks chars; D needs it to see char arrays as strings. */
	if ((enc & BTF_INT_CHAR) || (t->size == 1 && strstr(name, "char")))
		e.cte_format |= CTF_INT_CHAR;
	return ctf_add_integer(bm->bm_ctf, CTF_ADD_NONROOT, name, &e);
}

static ctf_id_t
dt_btf_import_sou(dt_btf_mod_t *bm, uint32_t id, const struct btf_type *t,
    const char *name, int depth)
{
	const struct btf_member *m = btf_members(t);
	ctf_dict_t *fp = bm->bm_ctf;
	int flag = CTF_ADD_ROOT;
	ctf_id_t ct;

	/*
	 * Only the definition the name index knows is visible by name (and
	 * completes the forward declarations); other structs of the same
	 * name, which C allows in different files, are imported unnamed.
	 */
	if (name[0] != '\0' && dt_btf_find(bm, btf_is_struct(t) ? 's' : 'u',
	    name) != id)
		flag = CTF_ADD_NONROOT;
	ct = btf_is_struct(t) ? ctf_add_struct_sized(fp, flag, name, t->size) :
	    ctf_add_union_sized(fp, flag, name, t->size);
	if (ct == CTF_ERR)
		return CTF_ERR;
	bm->bm_map[id] = ct;	/* members may point back at it */
	for (unsigned i = 0; i < btf_vlen(t); i++, m++) {
		const char *mname = dt_btf_str(bm, m->name_off);
		uint32_t bits = btf_member_bitfield_size(t, i);
		unsigned long off = btf_member_bit_offset(t, i);
		const struct btf_type *mt;
		ctf_id_t mct;
		int r;

		/*
		 * A struct held by value (struct tcp_sock's inet_conn) must
		 * be defined, not a forward: its size places the members
		 * after it, and "." reaches into it.
		 */
		if (dt_btf_byvalue_sou(bm, m->type, depth + 1) == CTF_ERR ||
		    (mct = dt_btf_import_ref(bm, m->type, depth + 1)) ==
		    CTF_ERR)
			return CTF_ERR;
		mt = dt_btf_type(bm, m->type);
		if (mname != NULL && mname[0] == '\0')
			mname = NULL;
		if (bits != 0) {
			ctf_encoding_t e = { 0, 0, bits };
			ctf_id_t base = ctf_type_resolve(fp, mct);

			if (base != CTF_ERR && ctf_type_kind(fp, base) ==
			    CTF_K_INTEGER)
				ctf_type_encoding(fp, base, &e);
			else if (mt != NULL)	/* enum bit-field */
				e.cte_format = CTF_INT_SIGNED;
			e.cte_offset = 0;
			e.cte_bits = bits;
			/* libctf slices the base type, not a typedef (u8). */
			if (base != CTF_ERR)
				mct = base;
			r = ctf_add_member_encoded(fp, ct, mname, mct, off, e);
		} else
			r = ctf_add_member_offset(fp, ct, mname, mct, off);
		if (r != 0)
			return CTF_ERR;
	}
	return ct;
}

static ctf_id_t
dt_btf_import_enum(dt_btf_mod_t *bm, const struct btf_type *t,
    const char *name)
{
	ctf_dict_t *fp = bm->bm_ctf;
	ctf_encoding_t e = { 0, 0, t->size * 8 };
	ctf_id_t ct;

	/*
	 * CTF enums are ints with int-sized values; other enums keep their
	 * size (so loads read the right width) as integers.
	 */
	if (btf_is_enum64(t) || t->size != 4) {
		if (btf_kflag(t))
			e.cte_format = CTF_INT_SIGNED;
		return ctf_add_integer(fp, CTF_ADD_NONROOT, name[0] ? name :
		    "int", &e);
	}
	if ((ct = ctf_add_enum(fp, CTF_ADD_NONROOT, name[0] ? name : NULL)) ==
	    CTF_ERR)
		return CTF_ERR;
	for (unsigned i = 0; i < btf_vlen(t); i++) {
		const struct btf_enum *v = btf_enum(t) + i;
		const char *vn = dt_btf_str(bm, v->name_off);

		/* Enumerator names clash across enums in C headers: skip. */
		(void) ctf_add_enumerator(fp, ct, vn, v->val);
	}
	return ct;
}

static ctf_id_t
dt_btf_import_func(dt_btf_mod_t *bm, const struct btf_type *t, int depth)
{
	const struct btf_param *p = btf_params(t);
	ctf_funcinfo_t fi = { 0 };
	ctf_id_t args[64];
	unsigned n = btf_vlen(t);

	if ((fi.ctc_return = dt_btf_import_ref(bm, t->type, depth + 1)) ==
	    CTF_ERR)
		return CTF_ERR;
	for (unsigned i = 0; i < n && fi.ctc_argc < 64; i++) {
		if (i == n - 1 && p[i].type == 0) {
			fi.ctc_flags |= CTF_FUNC_VARARG;
			break;
		}
		if ((args[fi.ctc_argc++] = dt_btf_import_ref(bm, p[i].type,
		    depth + 1)) == CTF_ERR)
			return CTF_ERR;
	}
	return ctf_add_function(bm->bm_ctf, CTF_ADD_NONROOT, &fi, args);
}

/* BTF type id of module bm as a CTF type of bm->bm_ctf. */
static ctf_id_t
dt_btf_import(dt_btf_mod_t *bm, uint32_t id, int depth)
{
	ctf_dict_t *fp = bm->bm_ctf;
	const struct btf_type *t;
	const char *name;
	ctf_encoding_t e = { 0, 0, 0 };
	ctf_arinfo_t ar;
	ctf_id_t ct, ref;

	if (id == 0)
		return bm->bm_void;
	if (id >= bm->bm_ntypes || depth > DT_BTF_DEPTH ||
	    (t = dt_btf_type(bm, id)) == NULL)
		return CTF_ERR;
	if (bm->bm_map[id] != 0)
		return bm->bm_map[id];
	name = dt_btf_str(bm, t->name_off);
	if (name == NULL)
		name = "";

	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		ct = dt_btf_import_int(bm, t, name);
		break;
	case BTF_KIND_FLOAT:
		e.cte_format = t->size == 4 ? CTF_FP_SINGLE : t->size == 8 ?
		    CTF_FP_DOUBLE : CTF_FP_LDOUBLE;
		e.cte_bits = t->size * 8;
		ct = ctf_add_float(fp, CTF_ADD_NONROOT, name, &e);
		break;
	case BTF_KIND_PTR:
		if ((ref = dt_btf_import_ref(bm, t->type, depth + 1)) ==
		    CTF_ERR)
			return CTF_ERR;
		if ((ct = ctf_type_pointer(fp, ref)) == CTF_ERR)
			ct = ctf_add_pointer(fp, CTF_ADD_ROOT, ref);
		break;
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = btf_array(t);

		if ((ar.ctr_contents = dt_btf_import(bm, a->type,
		    depth + 1)) == CTF_ERR)
			return CTF_ERR;
		ar.ctr_index = bm->bm_long;
		ar.ctr_nelems = a->nelems;	/* 0: a flexible array */
		ct = ctf_add_array(fp, CTF_ADD_ROOT, &ar);
		break;
	}
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return dt_btf_import_sou(bm, id, t, name, depth);
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		ct = dt_btf_import_enum(bm, t, name);
		break;
	case BTF_KIND_FWD:
		ct = ctf_add_forward(fp, CTF_ADD_ROOT, name, btf_kflag(t) ?
		    CTF_K_UNION : CTF_K_STRUCT);
		break;
	case BTF_KIND_TYPEDEF:
		if ((ref = dt_btf_import(bm, t->type, depth + 1)) == CTF_ERR)
			return CTF_ERR;
		ct = ctf_add_typedef(fp, CTF_ADD_NONROOT, name, ref);
		break;
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
		if ((ref = dt_btf_import_ref(bm, t->type, depth + 1)) ==
		    CTF_ERR)
			return CTF_ERR;
		ct = btf_kind(t) == BTF_KIND_CONST ?
		    ctf_add_const(fp, CTF_ADD_NONROOT, ref) :
		    btf_kind(t) == BTF_KIND_VOLATILE ?
		    ctf_add_volatile(fp, CTF_ADD_NONROOT, ref) :
		    ctf_add_restrict(fp, CTF_ADD_NONROOT, ref);
		break;
	case BTF_KIND_TYPE_TAG:
		/* An annotation (__user, __rcu): the type itself. */
		ct = dt_btf_import_ref(bm, t->type, depth + 1);
		break;
	case BTF_KIND_FUNC_PROTO:
		ct = dt_btf_import_func(bm, t, depth);
		break;
	default:
		/* FUNC, VAR, DATASEC, DECL_TAG are not types of values. */
		return CTF_ERR;
	}
	if (ct != CTF_ERR)
		bm->bm_map[id] = ct;
	return ct;
}

/*
 * Split "struct foo" / "union foo" / "enum foo" / "foo" into its index
 * class and bare name.
 */
static const char *
dt_btf_split(const char *name, char *clsp)
{
	static const struct {
		const char *kw;
		char cls;
	} kws[] = { { "struct ", 's' }, { "union ", 'u' }, { "enum ", 'e' } };

	for (size_t i = 0; i < sizeof (kws) / sizeof (kws[0]); i++) {
		size_t n = strlen(kws[i].kw);

		if (strncmp(name, kws[i].kw, n) == 0) {
			*clsp = kws[i].cls;
			return name + n;
		}
	}
	*clsp = 't';
	return name;
}

/* The handle's kernel types, their files listed (not read) on first use. */
static dt_btf_t *
dt_btf_get(dtrace_hdl_t *dtp)
{
	dt_btf_t *bt = dtp->dt_ktypes;

	if (bt == NULL) {
		if ((bt = calloc(1, sizeof (*bt))) == NULL)
			return NULL;
		dtp->dt_ktypes = bt;
	}
	if (!bt->bt_listed)
		dt_btf_list(dtp, bt);
	return bt;
}

static int
dt_btf_mod_lookup(dt_btf_t *bt, dt_btf_mod_t *bm, char cls,
    const char *name, ctf_dict_t **ctfpp, ctf_id_t *typep)
{
	uint32_t id;
	ctf_id_t ct;

	if (!dt_btf_load(bt, bm) || (id = dt_btf_find(bm, cls, name)) == 0 ||
	    (ct = dt_btf_import(bm, id, 0)) == CTF_ERR) {
		return -1;
	}
	*ctfpp = bm->bm_ctf;
	*typep = ct;
	return 0;
}

int
dt_os_ktype_lookup(dtrace_hdl_t *dtp, const char *module, const char *name,
    ctf_dict_t **ctfpp, ctf_id_t *typep)
{
	dt_btf_t *bt = dt_btf_get(dtp);
	const char *bare;
	char cls;

	if (bt == NULL)
		return -1;
	bare = dt_btf_split(name, &cls);
	/* "genunix" is the core kernel's name on Solaris: accept it too. */
	if (module != NULL && strcmp(module, "genunix") == 0)
		module = "vmlinux";
	for (dt_btf_mod_t *bm = bt->bt_mods; bm != NULL; bm = bm->bm_next) {
		if (module != NULL && strcmp(module, bm->bm_name) != 0)
			continue;
		if (dt_btf_mod_lookup(bt, bm, cls, bare, ctfpp, typep) == 0)
			return 0;
		if (module != NULL)
			break;
	}
	return -1;
}

/* Whether BTF variable var lies in the module's per-CPU data section. */
static bool
dt_btf_percpu(dt_btf_mod_t *bm, uint32_t var)
{
	for (uint32_t id = bm->bm_first; id < bm->bm_ntypes; id++) {
		const struct btf_type *t = dt_btf_type(bm, id);
		const struct btf_var_secinfo *vs;

		if (t == NULL || !btf_is_datasec(t) ||
		    strcmp(dt_btf_str(bm, t->name_off), ".data..percpu") != 0)
			continue;
		vs = btf_var_secinfos(t);
		for (unsigned i = 0; i < btf_vlen(t); i++) {
			if (vs[i].type == var)
				return true;
		}
	}
	return false;
}

/*
 * Where the running kernel's DWARF is: -x dwarfpath, else where Debian's
 * linux-image-<release>-dbg puts it, then where other distributions and a
 * kernel build tree do.  NULL, with *whyp set, when it is nowhere.
 */
static const char *
dt_btf_dwarf_path(dtrace_hdl_t *dtp, const char *release, char *buf,
    size_t len, const char **whyp)
{
	static const char *const where[] = {
		"/usr/lib/debug/boot/vmlinux-%s",
		"/usr/lib/debug/lib/modules/%s/vmlinux",
		"/boot/vmlinux-%s",
		"/lib/modules/%s/build/vmlinux",
	};
	const char *opt = dtp->dt_optstr[DT_OPT_DWARFPATH];

	if (opt != NULL) {
		if (access(opt, R_OK) == 0)
			return opt;
		*whyp = "-x dwarfpath names no readable file";
		return NULL;
	}
	for (size_t i = 0; i < sizeof (where) / sizeof (where[0]); i++) {
		snprintf(buf, len, where[i], release);
		if (access(buf, R_OK) == 0)
			return buf;
	}
	*whyp = NULL;
	return NULL;
}

/*
 * The cache of the variables of the DWARF with build ID id: in
 * /var/cache/dtrace when it can be written there (root), else in the
 * user's cache directory.
 */
static const char *
dt_btf_dwarf_cache(const char *id, char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char dir[1024];

	if (mkdir("/var/cache/dtrace", 0755) == 0 || access("/var/cache/dtrace",
	    W_OK) == 0) {
		snprintf(buf, len, "/var/cache/dtrace/kvars-%s", id);
		return buf;
	}
	if (xdg != NULL && xdg[0] == '/')
		snprintf(dir, sizeof (dir), "%s/dtrace", xdg);
	else if (home != NULL && home[0] == '/')
		snprintf(dir, sizeof (dir), "%s/.cache/dtrace", home);
	else
		return NULL;
	if (mkdir(dir, 0755) != 0 && errno != EEXIST)
		return NULL;
	snprintf(buf, len, "%s/kvars-%s", dir, id);
	return buf;
}

/*
 * The variables of the kernel's DWARF, found and indexed on first use.
 * NULL, with bt_dwarf_why saying why, when there are none.
 */
static dt_kdwarf_t *
dt_btf_dwarf(dtrace_hdl_t *dtp, dt_btf_t *bt)
{
	char path[1024], cache[1200], id[130], kid[130], why[400];
	const char *file, *reason, *cp = NULL;
	struct utsname u;

	if (bt->bt_dwarf_tried)
		return bt->bt_dwarf;
	bt->bt_dwarf_tried = true;
	if (uname(&u) != 0)
		snprintf(u.release, sizeof (u.release), "RELEASE");
	if ((file = dt_btf_dwarf_path(dtp, u.release, path, sizeof (path),
	    &reason)) == NULL) {
		if (reason != NULL) {
			snprintf(bt->bt_dwarf_why, sizeof (bt->bt_dwarf_why),
			    "%s", reason);
		} else {
			snprintf(bt->bt_dwarf_why, sizeof (bt->bt_dwarf_why),
			    "the kernel's BTF types no variable but per-CPU "
			    "ones, and its DWARF is not installed (Debian: "
			    "linux-image-%s-dbg; or -x dwarfpath=VMLINUX)",
			    u.release);
		}
		return NULL;
	}
	/* Types of another kernel would be read wrong: refuse them. */
	if (dt_elf_build_id(file, id, sizeof (id)) == 0) {
		if (dt_elf_build_id(NULL, kid, sizeof (kid)) == 0 &&
		    strcmp(id, kid) != 0) {
			snprintf(bt->bt_dwarf_why, sizeof (bt->bt_dwarf_why),
			    "%s is not the running kernel's (its build ID "
			    "differs)", file);
			return NULL;
		}
		cp = dt_btf_dwarf_cache(id, cache, sizeof (cache));
	}
	if ((bt->bt_dwarf = dt_kdwarf_open(file, cp, why, sizeof (why))) ==
	    NULL)
		snprintf(bt->bt_dwarf_why, sizeof (bt->bt_dwarf_why), "%s",
		    why);
	return bt->bt_dwarf;
}

/* Words of a chain (dt_kdwarf.h), split at spaces; NULL at its end. */
static const char *
dt_btf_chain_word(const char **sp, char *buf, size_t len)
{
	const char *s = *sp;
	size_t n = strcspn(s, " ");

	if (*s == '\0' || n >= len)
		return NULL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	*sp = s[n] == ' ' ? s + n + 1 : s + n;
	return buf;
}

/*
 * The CTF type, in the kernel's dictionary, of a chain: its named type
 * found in the kernel's BTF, with the pointers, qualifiers and arrays
 * around it made here.  CTF_ERR when the named type is not in BTF.
 */
ctf_id_t
dt_btf_chain(dtrace_hdl_t *dtp, const char *chain, ctf_dict_t **ctfpp)
{
	dt_btf_t *bt = dt_btf_get(dtp);
	const char *ops[32], *s = chain, *leaf = NULL;
	char words[32][24], w[24];
	dt_btf_mod_t *bm;
	ctf_dict_t *fp;
	ctf_id_t ct = CTF_ERR;
	unsigned long long objsize = 0;
	int nops = 0, outer = -1;

	if (bt == NULL || (bm = bt->bt_mods) == NULL || !dt_btf_load(bt, bm))
		return CTF_ERR;
	fp = bm->bm_ctf;
	/* An array's size from the symbol table, when DWARF has no bound. */
	if (*s == '=') {
		objsize = strtoull(s + 1, NULL, 10);
		if ((s = strchr(s, ' ')) == NULL)
			return CTF_ERR;
		s++;
	}
	/* The words before the named type, outermost first. */
	while (nops < 32) {
		const char *rest = s;

		if (dt_btf_chain_word(&s, w, sizeof (w)) == NULL)
			return CTF_ERR;
		if (strcmp(w, "*") != 0 && strcmp(w, "const") != 0 &&
		    strcmp(w, "volatile") != 0 && w[0] != '[') {
			leaf = rest;
			break;
		}
		if (w[0] == '[' && outer < 0)
			outer = nops;
		memcpy(words[nops], w, sizeof (w));
		ops[nops] = words[nops];
		nops++;
	}
	if (leaf == NULL)
		return CTF_ERR;
	if (strcmp(leaf, "void") == 0 || strcmp(leaf, "func") == 0) {
		ct = bm->bm_void;
	} else if (strncmp(leaf, "int ", 4) == 0) {
		unsigned size;
		char enc, name[128];
		uint32_t id;

		if (sscanf(leaf + 4, "%u %c %127[^\n]", &size, &enc, name) != 3)
			return CTF_ERR;
		if ((id = dt_btf_find(bm, 't', name)) != 0) {
			ct = dt_btf_import(bm, id, 0);
		} else {
			ctf_encoding_t e = { 0, 0, size * 8 };

			if (enc == 's' || enc == 'c')
				e.cte_format = CTF_INT_SIGNED;
			if (enc == 'c' || enc == 'C')
				e.cte_format |= CTF_INT_CHAR;
			if (enc == 'b')
				e.cte_format = CTF_INT_BOOL;
			ct = enc == 'f' ? CTF_ERR : ctf_add_integer(fp,
			    CTF_ADD_NONROOT, name, &e);
		}
	} else {
		char cls;
		const char *name;
		uint32_t id;

		if (strncmp(leaf, "typedef ", 8) == 0) {
			cls = 't';
			name = leaf + 8;
		} else {
			name = dt_btf_split(leaf, &cls);
			if (cls == 't')
				return CTF_ERR;
		}
		if ((id = dt_btf_find(bm, cls, name)) == 0)
			return CTF_ERR;
		/* Pointed to, a struct is a forward until it is used. */
		ct = nops > 0 && strcmp(ops[nops - 1], "*") == 0 ?
		    dt_btf_import_ref(bm, id, 0) : dt_btf_import(bm, id, 0);
	}
	/* Then what is around it, innermost first. */
	while (ct != CTF_ERR && nops-- > 0) {
		const char *op = ops[nops];

		if (strcmp(op, "*") == 0) {
			ctf_id_t p = ctf_type_pointer(fp, ct);

			ct = p != CTF_ERR ? p : ctf_add_pointer(fp,
			    CTF_ADD_ROOT, ct);
		} else if (strcmp(op, "const") == 0) {
			ct = ctf_add_const(fp, CTF_ADD_NONROOT, ct);
		} else if (strcmp(op, "volatile") == 0) {
			ct = ctf_add_volatile(fp, CTF_ADD_NONROOT, ct);
		} else {
			ctf_arinfo_t ar;

			ar.ctr_contents = ct;
			ar.ctr_index = bm->bm_long;
			ar.ctr_nelems = (uint32_t) strtoul(op + 1, NULL, 10);
			if (ar.ctr_nelems == 0 && nops == outer && objsize > 0) {
				ssize_t esize = ctf_type_size(fp, ct);

				if (esize > 0 && objsize / (size_t) esize <
				    UINT32_MAX)
					ar.ctr_nelems = (uint32_t) (objsize /
					    (size_t) esize);
			}
			ct = ctf_add_array(fp, CTF_ADD_ROOT, &ar);
		}
	}
	if (ct != CTF_ERR)
		*ctfpp = fp;
	return ct;
}

int
dt_btf_kvar(dtrace_hdl_t *dtp, const char *module, const char *name,
    ctf_dict_t **ctfpp, ctf_id_t *typep, const char **whyp)
{
	dt_btf_t *bt;
	const char *chain;
	dt_kdwarf_t *kd;
	ctf_id_t ct;

	*whyp = "the kernel's type information has no variable of that name";
	if ((bt = dt_btf_get(dtp)) == NULL)
		return -2;
	for (dt_btf_mod_t *bm = bt->bt_mods; bm != NULL; bm = bm->bm_next) {
		const struct btf_type *t;
		uint32_t id;

		if (module != NULL && strcmp(module, bm->bm_name) != 0)
			continue;
		if (!dt_btf_load(bt, bm) || (id = dt_btf_find(bm, 'v',
		    name)) == 0 || (t = dt_btf_type(bm, id)) == NULL)
			continue;
		if (dt_btf_percpu(bm, id)) {
			*whyp = "it is a per-CPU variable";
			return -2;
		}
		if ((ct = dt_btf_byvalue_sou(bm, t->type, 0)) == CTF_ERR ||
		    (ct = dt_btf_import(bm, t->type, 0)) == CTF_ERR)
			return -2;
		*ctfpp = bm->bm_ctf;
		*typep = ct;
		*whyp = NULL;
		return 0;
	}
	/*
	 * Not in BTF, which on stock kernels has only per-CPU variables:
	 * the kernel's DWARF says which type it has (the core kernel's
	 * variables: modules' DWARF is not read).
	 */
	if (module != NULL && strcmp(module, "vmlinux") != 0)
		return -2;
	if ((kd = dt_btf_dwarf(dtp, bt)) == NULL) {
		*whyp = bt->bt_dwarf_why;
		return -2;
	}
	if ((chain = dt_kdwarf_var(kd, name)) == NULL) {
		*whyp = "neither the kernel's BTF nor its DWARF has a variable "
		    "of that name";
		return -2;
	}
	if ((ct = dt_btf_chain(dtp, chain, ctfpp)) == CTF_ERR) {
		*whyp = "its type, as the kernel's DWARF names it, is not in "
		    "the kernel's BTF";
		return -2;
	}
	*typep = ct;
	*whyp = NULL;
	return 0;
}

int
dt_os_kvar_lookup(dtrace_hdl_t *dtp, const char *module, const char *name,
    uint64_t *addrp, ctf_dict_t **ctfpp, ctf_id_t *typep, const char **whyp)
{
	const dt_ksyms_t *ks = dt_linux_ksyms();

	if (module != NULL && strcmp(module, "genunix") == 0)
		module = "vmlinux";
	if (ks == NULL || dt_ksyms_addr(ks, module, name, addrp) != 0) {
		*whyp = dt_os_ksym_why();
		return -1;
	}
	return dt_btf_kvar(dtp, module, name, ctfpp, typep, whyp);
}

/*
 * Bytes of a BTF type record after struct btf_type, by kind; -1 for a
 * kind this reader does not know, which cannot be stepped over.
 */
long
dt_btf_extra(const struct btf_type *t)
{
	long vlen = btf_vlen(t);

	switch (btf_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_ARRAY:
		return (long) sizeof (struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return vlen * (long) sizeof (struct btf_member);
	case BTF_KIND_ENUM:
		return vlen * (long) sizeof (struct btf_enum);
	case BTF_KIND_ENUM64:
		return vlen * 12;	/* struct btf_enum64 */
	case BTF_KIND_FUNC_PROTO:
		return vlen * (long) sizeof (struct btf_param);
	case BTF_KIND_DATASEC:
		return vlen * (long) sizeof (struct btf_var_secinfo);
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case BTF_KIND_FLOAT:
	case BTF_KIND_TYPE_TAG:
		return 0;
	default:
		return -1;
	}
}

static void
dt_btf_unload(dt_btf_mod_t *bm)
{
	if (bm->bm_mapped)
		munmap(bm->bm_data, bm->bm_size);
	else
		free(bm->bm_data);
	bm->bm_data = NULL;
	free(bm->bm_types);
	bm->bm_types = NULL;
}

/* Map (or read) a raw BTF file: sysfs BTF maps since Linux 6.16. */
static bool
dt_btf_read(dt_btf_mod_t *bm)
{
	size_t cap = 8 << 20, size = 0;
	struct stat st;
	ssize_t r;
	void *m;
	int fd;

	if ((fd = open(bm->bm_path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	if (fstat(fd, &st) == 0 && st.st_size > 0 &&
	    (m = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) !=
	    MAP_FAILED) {
		bm->bm_data = m;
		bm->bm_size = st.st_size;
		bm->bm_mapped = true;
		close(fd);
		return true;
	}
	/* sysfs does not say the size in advance: read until EOF. */
	if ((bm->bm_data = malloc(cap)) == NULL) {
		close(fd);
		return false;
	}
	while ((r = read(fd, bm->bm_data + size, cap - size)) > 0) {
		char *n;

		if ((size += r) < cap)
			continue;
		if ((n = realloc(bm->bm_data, cap *= 2)) == NULL)
			break;
		bm->bm_data = n;
	}
	close(fd);
	bm->bm_size = size;
	return r == 0;
}

/* Locate the type records and strings of a raw BTF image. */
static bool
dt_btf_parse(dt_btf_mod_t *bm)
{
	const struct btf_header *hdr = (const void *) bm->bm_data;
	const char *p, *end;
	uint32_t n = 0, cap = 0;

	if (bm->bm_size < sizeof (*hdr) || hdr->magic != BTF_MAGIC ||
	    hdr->hdr_len < sizeof (*hdr) || (hdr->hdr_len & 3) ||
	    (uint64_t) hdr->hdr_len + hdr->type_off + hdr->type_len >
	    bm->bm_size ||
	    (uint64_t) hdr->hdr_len + hdr->str_off + hdr->str_len >
	    bm->bm_size || hdr->str_len == 0)
		return false;
	bm->bm_strs = bm->bm_data + hdr->hdr_len + hdr->str_off;
	bm->bm_strlen = hdr->str_len;
	if (bm->bm_strs[bm->bm_strlen - 1] != '\0')
		return false;
	if (bm->bm_base != NULL) {
		bm->bm_stroff = bm->bm_base->bm_stroff +
		    bm->bm_base->bm_strlen;
		bm->bm_first = bm->bm_base->bm_ntypes;
	} else
		bm->bm_first = 1;
	p = bm->bm_data + hdr->hdr_len + hdr->type_off;
	end = p + hdr->type_len;
	while (p + sizeof (struct btf_type) <= end) {
		const struct btf_type *t = (const void *) p;

		long extra = dt_btf_extra(t);

		if (extra < 0)
			return false;	/* a kind we cannot step over */
		p += sizeof (*t) + (size_t) extra;
		if (p > end)
			return false;
		if (n == cap) {
			const struct btf_type **nt = realloc(bm->bm_types,
			    (cap = cap ? cap * 2 : 4096) * sizeof (*nt));

			if (nt == NULL)
				return false;
			bm->bm_types = nt;
		}
		bm->bm_types[n++] = t;
	}
	bm->bm_ntypes = bm->bm_first + n;
	return true;
}

/* Read a module's BTF and index it, once. */
static bool
dt_btf_load(dt_btf_t *bt, dt_btf_mod_t *bm)
{
	ctf_encoding_t e = { CTF_INT_SIGNED, 0, 0 };
	int err;

	if (bm->bm_tried)
		return bm->bm_types != NULL;
	bm->bm_tried = true;
	if (bm != bt->bt_mods) {
		/* Module BTF is split BTF on top of the kernel's. */
		if (!dt_btf_load(bt, bt->bt_mods))
			return false;
		bm->bm_base = bt->bt_mods;
	}
	if (!dt_btf_read(bm) || !dt_btf_parse(bm) || dt_btf_index(bm) != 0)
		goto fail;
	if ((bm->bm_map = calloc(bm->bm_ntypes, sizeof (ctf_id_t))) == NULL ||
	    (bm->bm_ctf = ctf_create(&err)) == NULL)
		goto fail;
	ctf_setmodel(bm->bm_ctf, CTF_MODEL_LP64);
	/* void as D has it: a zero-width integer. */
	if ((bm->bm_void = ctf_add_integer(bm->bm_ctf, CTF_ADD_ROOT, "void",
	    &e)) == CTF_ERR)
		goto fail;
	e.cte_bits = 64;
	if ((bm->bm_long = ctf_add_integer(bm->bm_ctf, CTF_ADD_NONROOT,
	    "long", &e)) == CTF_ERR)
		goto fail;
	return true;
fail:
	dt_btf_unload(bm);
	return false;
}

bool
dt_os_ktype_typename(dtrace_hdl_t *dtp, const char *name)
{
	dt_btf_t *bt = dt_btf_get(dtp);

	return bt != NULL && bt->bt_mods != NULL &&
	    dt_btf_load(bt, bt->bt_mods) &&
	    dt_btf_find(bt->bt_mods, 't', name) != 0;
}

void
dt_os_ktypes_fini(dtrace_hdl_t *dtp)
{
	dt_btf_t *bt = dtp->dt_ktypes;
	dt_btf_mod_t *bm, *next;

	if (bt == NULL)
		return;
	for (bm = bt->bt_mods; bm != NULL; bm = next) {
		next = bm->bm_next;
		dt_btf_unload(bm);
		if (bm->bm_ctf != NULL)
			ctf_dict_close(bm->bm_ctf);
		free(bm->bm_hash);
		free(bm->bm_map);
		free(bm->bm_name);
		free(bm->bm_path);
		free(bm);
	}
	dt_kdwarf_close(bt->bt_dwarf);
	free(bt);
	dtp->dt_ktypes = NULL;
}
