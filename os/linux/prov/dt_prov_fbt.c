/* SPDX-License-Identifier: MIT */
/*
 * dt_prov_fbt.c: the fbt provider -- a probe at the entry to and the
 * return from every traceable kernel function.
 *
 *	fbt:<module>:<function>:entry	fentry tracing program on the
 *					function (BTF attach_btf_id), else
 *					a kprobe perf event on it
 *	fbt:<module>:<function>:return	fexit on it, else a kretprobe
 *
 * (kernel event probes of kinds DT_KEVENT_FENTRY/FEXIT/KPROBE/KRETPROBE,
 * dt_kevent.h).  <module> is "vmlinux" for the kernel itself, else the
 * loadable module's name.
 *
 * The functions: tracefs's available_filter_functions (the functions
 * ftrace can patch, a module's marked "name [module]"), less compiler
 * clones ("name.isra.0", "name.cold"), each name once per module.  With
 * kprobes, every one of them is probed; without, only those the kernel's
 * BTF describes (fentry needs their BTF ID).  Where the kernel has
 * neither fentry nor kprobes (or refuses both), there are no fbt probes,
 * and dt_prov_fbt_why() says why (dtrace(1) prints it after "does not
 * match any probes").  A function the BTF of its module describes is
 * traced with fentry/fexit when the kernel allows them, otherwise with
 * kprobes; DTRACE_LINUX_NOFEATURE=fentry forces the kprobes.  When the
 * kernel refuses one function's fentry program (6.1's trampolines take
 * at most six arguments: do_mmap's fexit cannot attach), the engine asks
 * for a kprobe instead (dt_prov_fbt_kprobe()), where there are kprobes.
 *
 * Probes are made on demand: some 40,000 functions make 80,000 probes,
 * which only a description naming fbt (or any provider) pays for.
 *
 * Arguments, from the function's BTF prototype (its FUNC_PROTO):
 *
 *	entry	args[0..n-1] typed as the function's parameters (at most
 *		ten); arg0..argN their values: the context's words
 *		(fentry), or the ISA's argument registers then the stack
 *		(kprobe; isa/dt_isa.h's layout).  Without BTF (kprobes
 *		only), they are the argument registers, untyped.
 *	return	arg0 is -1: DTrace gives the offset of the returning
 *		instruction in the function, but fexit and kretprobes run
 *		after the function has returned, from no particular
 *		instruction (Oracle Linux DTrace does the same).  arg1 is
 *		the return value, args[1] typed as the function returns it;
 *		a void function's return probe has args[0] only.
 *
 * stack() at an fbt probe starts at the function's caller, as DTrace's
 * does: the engine skips the BPF trampoline's frames and the function's
 * own (dt_bpf_gen.c); `caller` is that first frame.
 *
 * Stability as DTrace's fbt: modules, functions and arguments Private
 * (they are the kernel's implementation).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "common/dt_impl.h"
#include "common/probe/dt_probe.h"
#include "isa/dt_isa.h"
#include "os/linux/dt_linux_features.h"
#include "os/linux/prov/dt_kevent.h"
#include "os/linux/prov/dt_linux_prov.h"

#define DT_FBT_ENTRY 0x1
#define DT_FBT_RETURN 0x2

/* One traceable function. */
typedef struct dt_fbt_func {
	char *ff_mod;		/* "vmlinux" or the module */
	char *ff_name;
	uint8_t ff_made;	/* DT_FBT_ENTRY, DT_FBT_RETURN: probes made */
} dt_fbt_func_t;

/* One module's BTF, and its functions' type IDs sorted by name. */
typedef struct dt_fbt_btf {
	char *fb_mod;
	struct btf *fb_btf;	/* NULL: none */
	uint32_t *fb_funcs;
	uint32_t fb_nfuncs;
} dt_fbt_btf_t;

typedef struct dt_fbt {
	bool fp_listed;
	dt_fbt_func_t *fp_funcs;
	size_t fp_nfuncs;
	dt_fbt_btf_t *fp_btfs;	/* [0]: vmlinux, once loaded */
	size_t fp_nbtfs;
} dt_fbt_t;

/* The Dynamic Tracing Guide's table for fbt. */
static const dt_provattr_t dt_prov_fbt_attr = {
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_ISA },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_ISA },
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_ISA },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_ISA },
};

/*
 * BTF.
 */

static int
dt_fbt_func_cmp(const void *a, const void *b, void *arg)
{
	const struct btf *btf = arg;

	return strcmp(btf__name_by_offset(btf, btf__type_by_id(btf,
	    *(const uint32_t *) a)->name_off), btf__name_by_offset(btf,
	    btf__type_by_id(btf, *(const uint32_t *) b)->name_off));
}

/*
 * The BTF of a module ("vmlinux" first, which the others are split
 * from), loaded once; NULL when it has none.
 */
static dt_fbt_btf_t *
dt_fbt_btf(dt_fbt_t *fp, const char *mod)
{
	dt_fbt_btf_t *fb, *p;
	uint32_t first, n;

	for (size_t i = 0; i < fp->fp_nbtfs; i++) {
		if (strcmp(fp->fp_btfs[i].fb_mod, mod) == 0)
			return fp->fp_btfs[i].fb_btf != NULL ?
			    &fp->fp_btfs[i] : NULL;
	}
	if (strcmp(mod, "vmlinux") != 0 && dt_fbt_btf(fp, "vmlinux") == NULL)
		return NULL;
	if ((p = realloc(fp->fp_btfs, (fp->fp_nbtfs + 1) * sizeof (*p))) ==
	    NULL)
		return NULL;
	fp->fp_btfs = p;
	fb = &p[fp->fp_nbtfs];
	memset(fb, 0, sizeof (*fb));
	if ((fb->fb_mod = strdup(mod)) == NULL)
		return NULL;
	fp->fp_nbtfs++;
	if (strcmp(mod, "vmlinux") == 0) {
		fb->fb_btf = btf__load_vmlinux_btf();
		first = 1;
	} else {
		fb->fb_btf = btf__load_module_btf(mod, p[0].fb_btf);
		first = btf__type_cnt(p[0].fb_btf);
	}
	if (fb->fb_btf == NULL)
		return NULL;
	/* Only the module's own functions: names repeat across modules. */
	n = btf__type_cnt(fb->fb_btf);
	if ((fb->fb_funcs = calloc(n > first ? n - first : 1,
	    sizeof (uint32_t))) == NULL) {
		btf__free(fb->fb_btf);
		fb->fb_btf = NULL;
		return NULL;
	}
	for (uint32_t id = first; id < n; id++) {
		if (btf_is_func(btf__type_by_id(fb->fb_btf, id)))
			fb->fb_funcs[fb->fb_nfuncs++] = id;
	}
	qsort_r(fb->fb_funcs, fb->fb_nfuncs, sizeof (uint32_t),
	    dt_fbt_func_cmp, fb->fb_btf);
	return fb;
}

/* The BTF ID of function name in its module's BTF, or 0. */
static uint32_t
dt_fbt_btf_func(const dt_fbt_btf_t *fb, const char *name)
{
	size_t lo = 0, hi = fb->fb_nfuncs;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		uint32_t id = fb->fb_funcs[mid];
		int c = strcmp(name, btf__name_by_offset(fb->fb_btf,
		    btf__type_by_id(fb->fb_btf, id)->name_off));

		if (c == 0)
			return id;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return 0;
}

/*
 * The function list.
 */

static int
dt_fbt_cmp(const void *a, const void *b)
{
	const dt_fbt_func_t *x = a, *y = b;
	bool xk = strcmp(x->ff_mod, "vmlinux") == 0;
	bool yk = strcmp(y->ff_mod, "vmlinux") == 0;
	int c;

	/* The kernel's own first, then the modules by name. */
	if (xk != yk)
		return xk ? -1 : 1;
	if ((c = strcmp(x->ff_mod, y->ff_mod)) != 0)
		return c;
	return strcmp(x->ff_name, y->ff_name);
}

static void
dt_fbt_funcs_free(dt_fbt_t *fp)
{
	for (size_t i = 0; i < fp->fp_nfuncs; i++)
		free(fp->fp_funcs[i].ff_name);	/* ff_mod is in it */
	free(fp->fp_funcs);
	fp->fp_funcs = NULL;
	fp->fp_nfuncs = 0;
}

/* Add "name" or "name [module]" (a line of the file) to the list. */
static int
dt_fbt_add(dt_fbt_t *fp, char *line, size_t *capp)
{
	char *sp = strchr(line, ' '), *mod = "vmlinux", *buf;
	dt_fbt_func_t *ff;

	line[strcspn(line, "\n")] = '\0';
	if (sp != NULL) {
		*sp = '\0';
		if (sp[1] == '[') {
			mod = sp + 2;
			mod[strcspn(mod, "]")] = '\0';
		}
	}
	/* Compiler clones and parts are not functions of the source. */
	if (line[0] == '\0' || strchr(line, '.') != NULL || mod[0] == '\0')
		return 0;
	if (fp->fp_nfuncs == *capp) {
		size_t ncap = *capp ? *capp * 2 : 16384;
		dt_fbt_func_t *p = realloc(fp->fp_funcs, ncap * sizeof (*p));

		if (p == NULL)
			return -1;
		fp->fp_funcs = p;
		*capp = ncap;
	}
	if ((buf = malloc(strlen(line) + strlen(mod) + 2)) == NULL)
		return -1;
	ff = &fp->fp_funcs[fp->fp_nfuncs++];
	ff->ff_name = strcpy(buf, line);
	ff->ff_mod = strcpy(buf + strlen(line) + 1, mod);
	ff->ff_made = 0;
	return 0;
}

/* Whether fentry can trace the function: its module's BTF has it. */
static bool
dt_fbt_has_btf(dt_fbt_t *fp, const dt_fbt_func_t *ff)
{
	const dt_fbt_btf_t *fb = dt_fbt_btf(fp, ff->ff_mod);

	return fb != NULL && dt_fbt_btf_func(fb, ff->ff_name) != 0;
}

/*
 * The list of traceable functions, opened; or NULL with one line in why
 * saying what is missing (why is "" when BPF itself is: the hint for
 * every kernel provider then says so).
 */
static FILE *
dt_fbt_open(char *path, size_t pathlen, char *why, size_t whylen)
{
	const char *tfs;
	FILE *f;

	why[0] = '\0';
	if (!dt_linux_feature(DT_LF_BPF))
		return NULL;
	if (!dt_linux_feature(DT_LF_FENTRY) &&
	    !dt_linux_feature(DT_LF_KPROBE)) {
		snprintf(why, whylen, "%s and %s",
		    dt_linux_feature_why(DT_LF_FENTRY),
		    dt_linux_feature_why(DT_LF_KPROBE));
		return NULL;
	}
	if ((tfs = dt_linux_tracefs()) == NULL) {
		snprintf(why, whylen, "tracefs is not mounted and could not "
		    "be mounted");
		return NULL;
	}
	snprintf(path, pathlen, "%s/available_filter_functions", tfs);
	if ((f = fopen(path, "re")) == NULL)
		snprintf(why, whylen, "cannot read %s: %s", path,
		    strerror(errno));
	return f;
}

/*
 * Read the function list once: available_filter_functions, sorted, each
 * name once per module; without kprobes, only functions in BTF.
 */
static int
dt_fbt_list(dtrace_hdl_t *dtp, dt_fbt_t *fp)
{
	char path[PATH_MAX], line[512], why[320];
	size_t cap = 0, n = 0;
	bool kprobe;
	FILE *f;

	if (fp->fp_listed)
		return 0;
	fp->fp_listed = true;
	/* No probes; dt_prov_fbt_why() tells why when one is named. */
	if ((f = dt_fbt_open(path, sizeof (path), why, sizeof (why))) ==
	    NULL)
		return 0;
	kprobe = dt_linux_feature(DT_LF_KPROBE);
	while (fgets(line, sizeof (line), f) != NULL) {
		if (dt_fbt_add(fp, line, &cap) != 0) {
			(void) fclose(f);
			dt_fbt_funcs_free(fp);
			return dt_set_errno(dtp, EDT_NOMEM);
		}
	}
	(void) fclose(f);
	if (fp->fp_nfuncs > 0)
		qsort(fp->fp_funcs, fp->fp_nfuncs, sizeof (dt_fbt_func_t),
		    dt_fbt_cmp);
	for (size_t i = 0; i < fp->fp_nfuncs; i++) {
		dt_fbt_func_t *ff = &fp->fp_funcs[i];

		if ((n > 0 && dt_fbt_cmp(&fp->fp_funcs[n - 1], ff) == 0) ||
		    (!kprobe && !dt_fbt_has_btf(fp, ff))) {
			free(ff->ff_name);
			continue;
		}
		fp->fp_funcs[n++] = *ff;
	}
	fp->fp_nfuncs = n;
	return 0;
}

/* Whether a description field matches s (an empty field matches all). */
static bool
dt_fbt_match(const char *s, const char *pattern)
{
	return pattern[0] == '\0' || dt_gmatch(s, pattern);
}

static int
dt_fbt_make(dtrace_hdl_t *dtp, dt_provider_t *pvp, dt_fbt_func_t *ff,
    int which)
{
	dt_kevent_t *ke;

	/* The kind is settled when the arguments are described. */
	if ((ke = dt_kevent_new(which == DT_FBT_ENTRY ? DT_KEVENT_FENTRY :
	    DT_KEVENT_FEXIT, ff->ff_mod, ff->ff_name)) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	ke->ke_nargs = -1;
	if (dt_probe_create(dtp, pvp, ff->ff_mod, ff->ff_name,
	    which == DT_FBT_ENTRY ? "entry" : "return", -1, NULL, ke) ==
	    NULL) {
		dt_kevent_free(ke);
		return -1;
	}
	ff->ff_made |= (uint8_t) which;
	return 0;
}

static int
dt_prov_fbt_provide(dtrace_hdl_t *dtp, dt_provider_t *pvp,
    const dt_probedesc_t *pdp)
{
	dt_fbt_t *fp = pvp->pv_data;
	int which = 0, n = 0;

	if (dt_fbt_match("entry", pdp->pd_name))
		which |= DT_FBT_ENTRY;
	if (dt_fbt_match("return", pdp->pd_name))
		which |= DT_FBT_RETURN;
	if (which == 0 || dt_fbt_list(dtp, fp) != 0)
		return which == 0 ? 0 : -1;
	for (size_t i = 0; i < fp->fp_nfuncs; i++) {
		dt_fbt_func_t *ff = &fp->fp_funcs[i];

		if (!dt_fbt_match(ff->ff_name, pdp->pd_function) ||
		    !dt_fbt_match(ff->ff_mod, pdp->pd_module))
			continue;
		for (int w = DT_FBT_ENTRY; w <= DT_FBT_RETURN; w <<= 1) {
			if (!(which & w) || (ff->ff_made & w))
				continue;
			if (dt_fbt_make(dtp, pvp, ff, w) != 0)
				return -1;
			n++;
		}
	}
	return n;
}

/*
 * Arguments.
 */

/*
 * How a value of BTF type id is passed: its size (1, 2, 4, 8; 8 for
 * pointers and what is no integer) and sign, and the 64-bit words it
 * takes (a struct of 9-16 bytes by value takes two).
 */
static int
dt_fbt_argsize(const struct btf *btf, uint32_t id, bool *signedp,
    int *wordsp)
{
	const struct btf_type *t;
	int rid = btf__resolve_type(btf, id);

	*signedp = false;
	*wordsp = 1;
	if (rid < 0 || (t = btf__type_by_id(btf, (uint32_t) rid)) == NULL)
		return 8;
	if (btf_is_int(t) || btf_is_enum(t) || btf_is_enum64(t)) {
		*signedp = btf_is_int(t) ?
		    (btf_int_encoding(t) & BTF_INT_SIGNED) != 0 :
		    btf_kflag(t);
		return t->size == 1 || t->size == 2 || t->size == 4 ? (int)
		    t->size : 8;
	}
	if (btf_is_composite(t) && t->size > 8)
		*wordsp = (int) ((t->size + 7) / 8);
	return 8;
}

/* A type args[] can show: a struct passed by value is only words. */
static void
dt_fbt_argtype(const struct btf *btf, uint32_t id, char *buf, size_t len)
{
	int rid = btf__resolve_type(btf, id);
	const struct btf_type *t = rid < 0 ? NULL :
	    btf__type_by_id(btf, (uint32_t) rid);

	if (t == NULL || btf_is_composite(t) || btf_is_float(t))
		snprintf(buf, len, "uint64_t");
	else
		dt_kevent_btf_decl(btf, id, buf, len);
}

/*
 * The recipe for the value at word w of the arguments: a context word
 * (fentry, fexit), or a register or stack slot (kprobe: the ISA's
 * argument registers in struct pt_regs, then the stack from where the
 * first argument past them is at a function's entry).
 */
static void
dt_fbt_recipe(dt_kevent_arg_t *ka, bool kprobe, int w, int size, bool sgn)
{
	const dt_isa_layout_t *il = &dt_isa_layout;

	memset(ka, 0, sizeof (*ka));
	ka->ka_size = (uint8_t) size;
	ka->ka_signed = sgn;
	ka->ka_kind = DT_KEVENT_ARG_RAW;
	ka->ka_index = (uint8_t) w;
	if (!kprobe)
		return;
	if (w < il->il_nargs) {
		ka->ka_index = (uint8_t) (il->il_args[w] / 8);
		return;
	}
	ka->ka_kind = DT_KEVENT_ARG_RAWMEM;
	ka->ka_index = (uint8_t) (il->il_sp / 8);
	ka->ka_off = (uint32_t) (il->il_stackargs + 8 * (w - il->il_nargs));
}

/*
 * Describe a probe: its mechanism (fentry/fexit when its module's BTF
 * has the function and the kernel allows them, unless forced to
 * kprobes), the recipes of its arguments and their types.
 */
static int
dt_fbt_describe(dtrace_hdl_t *dtp, dt_probe_t *prp, bool force_kprobe)
{
	dt_fbt_t *fp = prp->pr_prov->pv_data;
	dt_kevent_t *ke = prp->pr_data;
	bool ret = strcmp(prp->pr_name, "return") == 0, sgn;
	char types[DT_KEVENT_MAXARGS][128];
	const char *tp[DT_KEVENT_MAXARGS];
	const struct btf_type *fn = NULL, *proto = NULL;
	const struct btf_param *pa;
	const dt_fbt_btf_t *fb;
	int nargs = 0, words = 0, size, nw;
	bool kprobe;
	uint32_t id = 0;

	if ((fb = dt_fbt_btf(fp, ke->ke_group)) != NULL &&
	    (id = dt_fbt_btf_func(fb, ke->ke_event)) != 0 &&
	    (fn = btf__type_by_id(fb->fb_btf, id)) != NULL)
		proto = btf__type_by_id(fb->fb_btf, fn->type);
	if (proto != NULL && !btf_is_func_proto(proto))
		proto = NULL;
	kprobe = force_kprobe || proto == NULL ||
	    !dt_linux_feature(DT_LF_FENTRY);
	if (kprobe && !dt_linux_feature(DT_LF_KPROBE))
		return dt_set_errno(dtp, EDT_NOTSUP);
	ke->ke_kind = kprobe ? (ret ? DT_KEVENT_KRETPROBE : DT_KEVENT_KPROBE) :
	    (ret ? DT_KEVENT_FEXIT : DT_KEVENT_FENTRY);
	ke->ke_btf_id = kprobe ? 0 : id;

	if (proto == NULL) {
		/* No prototype: the argument registers, untyped. */
		for (int i = 0; i < 6 && !ret; i++)
			dt_fbt_recipe(&ke->ke_args[i], true, i, 8, false);
		ke->ke_nargs = ret ? 2 : 6;
		nargs = ret ? 1 : 0;
	} else {
		pa = btf_params(proto);
		for (int i = 0; i < btf_vlen(proto) && pa[i].type != 0; i++) {
			size = dt_fbt_argsize(fb->fb_btf, pa[i].type, &sgn,
			    &nw);
			if (!ret && nargs < DT_KEVENT_MAXARGS) {
				dt_fbt_recipe(&ke->ke_args[nargs], kprobe,
				    words, size, sgn);
				dt_fbt_argtype(fb->fb_btf, pa[i].type,
				    types[nargs], sizeof (types[0]));
				nargs++;
			}
			words += nw;
		}
		ke->ke_nargs = nargs;
	}
	if (ret) {
		/* arg0: no return offset (see the top); arg1: the value. */
		memset(ke->ke_args, 0, 2 * sizeof (ke->ke_args[0]));
		ke->ke_args[0].ka_kind = DT_KEVENT_ARG_CONST;
		ke->ke_args[0].ka_val = -1;
		snprintf(types[0], sizeof (types[0]), "int");
		nargs = 1;
		ke->ke_nargs = 2;
		if (proto == NULL || proto->type != 0) {
			size = proto == NULL ? 8 : dt_fbt_argsize(fb->fb_btf,
			    proto->type, &sgn, &nw);
			if (proto == NULL)
				sgn = false;
			/* kretprobe: the return value's register */
			dt_fbt_recipe(&ke->ke_args[1], false, kprobe ?
			    dt_isa_layout.il_ret / 8 : words, size, sgn);
			if (proto == NULL)
				snprintf(types[1], sizeof (types[1]),
				    "uint64_t");
			else
				dt_fbt_argtype(fb->fb_btf, proto->type,
				    types[1], sizeof (types[1]));
			nargs = 2;
		}
	}
	for (int i = 0; i < nargs; i++)
		tp[i] = types[i];
	return dt_probe_set_args(dtp, prp, nargs, tp, NULL);
}

static int
dt_prov_fbt_probe_args(dtrace_hdl_t *dtp, dt_probe_t *prp)
{
	return dt_fbt_describe(dtp, prp, false);
}

int
dt_prov_fbt_kprobe(dtrace_hdl_t *dtp, dt_probe_t *prp)
{
	if (!dt_linux_feature(DT_LF_KPROBE))
		return -1;
	return dt_fbt_describe(dtp, prp, true);
}

static void
dt_prov_fbt_fini(dtrace_hdl_t *dtp, dt_provider_t *pvp)
{
	dt_fbt_t *fp = pvp->pv_data;

	(void) dtp;
	if (fp == NULL)
		return;
	dt_fbt_funcs_free(fp);
	/* Modules split from vmlinux's BTF go first. */
	for (size_t i = fp->fp_nbtfs; i-- > 0;) {
		btf__free(fp->fp_btfs[i].fb_btf);
		free(fp->fp_btfs[i].fb_funcs);
		free(fp->fp_btfs[i].fb_mod);
	}
	free(fp->fp_btfs);
	free(fp);
	pvp->pv_data = NULL;
}

static const dt_provops_t dt_prov_fbt_ops = {
	.po_provide = dt_prov_fbt_provide,
	.po_probe_fini = dt_kevent_probe_fini,
	.po_mech = DT_MECH_KEVENT,
	.po_probe_args = dt_prov_fbt_probe_args,
	.po_fini = dt_prov_fbt_fini,
};

const char *
dt_prov_fbt_why(void)
{
	static char why[320];
	char path[PATH_MAX];
	FILE *f;

	if ((f = dt_fbt_open(path, sizeof (path), why, sizeof (why))) !=
	    NULL)
		(void) fclose(f);
	return why[0] != '\0' ? why : NULL;
}

int
dt_prov_fbt_init(dtrace_hdl_t *dtp)
{
	dt_fbt_t *fp = calloc(1, sizeof (*fp));

	if (fp == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	if (dt_provider_register(dtp, "fbt", &dt_prov_fbt_ops,
	    &dt_prov_fbt_attr, DT_ENGINE_F_KERNEL, fp) != 0) {
		free(fp);
		return -1;
	}
	return 0;
}
