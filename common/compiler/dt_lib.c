/* SPDX-License-Identifier: MIT */
/*
 * dt_lib.c: D library files -- the *.d files that define translators,
 * inlines and types for every program (psinfo_t and curpsinfo, ...).
 *
 * Before the first program a handle compiles that may use what they
 * declare (dt_lib_need.c), every *.d file of the library path is
 * compiled, in name order except that a file naming another with
 * "#pragma D depends_on library other.d" comes after it.
 * The path is the system library directory (-x syslibdir, by default
 * where "make install" puts the files of common/lib/, the portable ones,
 * and of os/<os>/lib/, the OS's: the directory "dtrace" beside the
 * libdtrace that is running, so that an installed tree works wherever it
 * was copied to; in the build tree, those two source directories)
 * followed by each -L directory (-x libdir).  Both are colon-separated
 * lists of directories.  A file saying "#pragma D
 * depends_on module M" is skipped when the kernel has no types for
 * module M (no BTF), as DTrace skips libraries for absent modules.
 *
 * Kernels rename and move the members translators read (task_struct's
 * state became __state in Linux 5.14; a request's disk moved from
 * rq_disk to q->disk).  A file saying "#pragma D depends_on member
 * S.M" is left out unless the kernel's struct S has a member M, and one
 * saying "... member !S.M" when it has one: what differs between kernels
 * goes into a small translator written once per variant, each file
 * depending on the members it reads, and the file using it depends on
 * every variant by "depends_on library" (a variant left out counts as
 * resolved).  This asks the kernel's types, never its version.  Any
 * other error in a library fails the compile with the file's name.
 * -x nolibs (or DTRACE_C_NOLIBS) skips them all.
 *
 * A library may take over a built-in placeholder (curpsinfo,
 * curlwpsinfo: DT_VAR_NONE in dt_ident.c) with an inline of the same
 * name; see dt_decl_inline().
 */
#include <dirent.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/compiler/dt_cc.h"
#include "common/dt_os.h"

typedef struct dt_lib {
	char *dl_name;		/* file name, "psinfo.d" */
	char *dl_path;
	char *dl_text;
	size_t dl_len;
	int dl_state;		/* 0 not yet, 1 compiling, 2 done, 3 left out */
} dt_lib_t;

typedef struct dt_libset {
	dt_lib_t *ls_libs;
	size_t ls_n, ls_cap;
} dt_libset_t;

static char *
dt_lib_slurp(const char *path, size_t *lenp)
{
	FILE *fp = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	if (fp == NULL)
		return NULL;
	do {
		char *p;

		if (n + 4096 >= cap) {
			if ((p = realloc(buf, cap = cap * 2 + 8192)) == NULL) {
				free(buf);
				fclose(fp);
				return NULL;
			}
			buf = p;
		}
		r = fread(buf + n, 1, cap - n - 1, fp);
		n += r;
	} while (r > 0);
	fclose(fp);
	buf[n] = '\0';
	*lenp = n;
	return buf;
}

static int
dt_lib_cmp(const void *a, const void *b)
{
	return strcmp(((const dt_lib_t *) a)->dl_name,
	    ((const dt_lib_t *) b)->dl_name);
}

/* Add the *.d files of dir; a later directory's file replaces one of
   the same name from an earlier one. */
static void
dt_lib_scan(dt_libset_t *ls, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[4096];

	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		size_t n = strlen(de->d_name);
		dt_lib_t *lp = NULL;

		if (n < 3 || strcmp(de->d_name + n - 2, ".d") != 0 ||
		    de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof (path), "%s/%s", dir, de->d_name);
		for (size_t i = 0; i < ls->ls_n; i++)
			if (strcmp(ls->ls_libs[i].dl_name, de->d_name) == 0)
				lp = &ls->ls_libs[i];
		if (lp == NULL) {
			if (ls->ls_n == ls->ls_cap) {
				dt_lib_t *nl = realloc(ls->ls_libs,
				    (ls->ls_cap = ls->ls_cap * 2 + 8) *
				    sizeof (*nl));

				if (nl == NULL)
					break;
				ls->ls_libs = nl;
			}
			lp = &ls->ls_libs[ls->ls_n++];
			memset(lp, 0, sizeof (*lp));
			lp->dl_name = strdup(de->d_name);
		} else {
			free(lp->dl_path);
			free(lp->dl_text);
		}
		lp->dl_path = strdup(path);
		lp->dl_text = dt_lib_slurp(path, &lp->dl_len);
	}
	closedir(d);
}

/*
 * The argument of each "#pragma D depends_on CLASS name" line of a
 * library, one at a time: *posp is where to look from.
 */
static bool
dt_lib_depends(const dt_lib_t *lp, const char *class, size_t *posp,
    char *buf, size_t len)
{
	const char *s = lp->dl_text + *posp;

	while ((s = strstr(s, "#pragma")) != NULL) {
		char c[32], name[256];
		const char *eol = strchr(s, '\n');

		*posp = (eol ? eol : s + strlen(s)) - lp->dl_text;
		if (sscanf(s, "#pragma D depends_on %31s %255s", c, name) ==
		    2 && strcmp(c, class) == 0) {
			snprintf(buf, len, "%s", name);
			return true;
		}
		s = lp->dl_text + *posp;
	}
	return false;
}

/* Whether the kernel's struct S has a member M, for "S.M". */
static bool
dt_lib_has_member(dtrace_hdl_t *dtp, const char *sm)
{
	const char *dot = strchr(sm, '.');
	char tag[300];
	ctf_membinfo_t mi;
	ctf_dict_t *fp;
	ctf_id_t t;

	if (dot == NULL || snprintf(tag, sizeof (tag), "struct %.*s",
	    (int) (dot - sm), sm) >= (int) sizeof (tag))
		return false;
	return dt_os_ktype_lookup(dtp, NULL, tag, &fp, &t) == 0 &&
	    ctf_member_info(fp, t, dot + 1, &mi) == 0;
}

static int dt_lib_compile(dtrace_hdl_t *dtp, dt_libset_t *ls,
    dt_lib_t *lp);

static int
dt_lib_fail(dtrace_hdl_t *dtp, const dt_lib_t *lp, const char *msg)
{
	dt_cc_t *cc = dtp->dt_cc;
	char *buf;

	/* msg may be cc_errmsg itself. */
	if (asprintf(&buf, "\"%s\", %s", lp->dl_path, msg) >= 0) {
		snprintf(cc->cc_errmsg, sizeof (cc->cc_errmsg), "%s", buf);
		free(buf);
	}
	dt_set_errno(dtp, EDT_COMPILER);
	return -1;
}

static int
dt_lib_compile(dtrace_hdl_t *dtp, dt_libset_t *ls, dt_lib_t *lp)
{
	dtrace_prog_t *pgp;
	char dep[256];
	size_t pos = 0;

	if (lp->dl_state >= 2)
		return 0;
	if (lp->dl_state == 1)
		return dt_lib_fail(dtp, lp, "circular library dependency");
	lp->dl_state = 1;
	if (lp->dl_text == NULL)
		return dt_lib_fail(dtp, lp, "cannot read library file");

	/* Libraries for kernel modules without types are left out. */
	while (dt_lib_depends(lp, "module", &pos, dep, sizeof (dep))) {
		ctf_dict_t *fp;
		ctf_id_t t;

		if (dt_os_ktype_lookup(dtp, dep, "int", &fp, &t) != 0) {
			lp->dl_state = 3;
			return 0;
		}
	}
	pos = 0;
	while (dt_lib_depends(lp, "member", &pos, dep, sizeof (dep))) {
		bool want = dep[0] != '!';

		if (dt_lib_has_member(dtp, want ? dep : dep + 1) != want) {
			lp->dl_state = 3;
			return 0;
		}
	}
	pos = 0;
	while (dt_lib_depends(lp, "library", &pos, dep, sizeof (dep))) {
		dt_lib_t *dp = NULL;

		for (size_t i = 0; i < ls->ls_n; i++)
			if (strcmp(ls->ls_libs[i].dl_name, dep) == 0)
				dp = &ls->ls_libs[i];
		if (dp == NULL) {
			char msg[512];

			snprintf(msg, sizeof (msg), "failed to resolve "
			    "dependency: library %s", dep);
			return dt_lib_fail(dtp, lp, msg);
		}
		if (dt_lib_compile(dtp, ls, dp) != 0)
			return -1;
	}
	dtp->dt_cc->cc_inlib = true;
	pgp = dt_cc_libcompile(dtp, lp->dl_text, lp->dl_len);
	dtp->dt_cc->cc_inlib = false;
	if (pgp == NULL)
		return dt_lib_fail(dtp, lp, dtp->dt_cc->cc_errmsg);
	dtrace_program_destroy(dtp, pgp);
	lp->dl_state = 2;
	return 0;
}

/* Remember a loaded library, for "#pragma D depends_on library". */
static int
dt_lib_note(dt_cc_t *cc, const char *name)
{
	char **n = realloc(cc->cc_libnames, (cc->cc_nlibs + 1) *
	    sizeof (char *));

	if (n == NULL)
		return -1;
	cc->cc_libnames = n;
	if ((n[cc->cc_nlibs] = strdup(name)) == NULL)
		return -1;
	cc->cc_nlibs++;
	return 0;
}

bool
dt_lib_loaded(const dt_cc_t *cc, const char *name)
{
	for (size_t i = 0; i < cc->cc_nlibs; i++)
		if (strcmp(cc->cc_libnames[i], name) == 0)
			return true;
	return false;
}

/* Scan each directory of a colon-separated list, in order. */
static void
dt_lib_scan_path(dt_libset_t *ls, const char *path)
{
	char *dirs = strdup(path), *save = NULL;

	for (char *d = dirs ? strtok_r(dirs, ":", &save) : NULL; d != NULL;
	    d = strtok_r(NULL, ":", &save))
		dt_lib_scan(ls, d);
	free(dirs);
}

/*
 * The system library directory when -x syslibdir does not name one:
 * $(libdir)/dtrace is the directory "dtrace" beside libdtrace.so, so it
 * is looked for there first (an installed tree moved, or installed with
 * DESTDIR, finds its own files rather than another installation's);
 * then where configure said it would be installed; then, for dtrace run
 * from its build tree, where the sources are (common/lib and the OS's
 * lib, as a list), unless configure --disable-srcdir-libs left that path
 * out of the library.  (Linked statically, the
 * object beside which "dtrace" is looked for is the program itself, so
 * a file of that name is no answer: it must be a directory.)
 */
static const char *
dt_lib_sysdir(char *buf, size_t len)
{
	Dl_info di;
	struct stat st;
	const char *slash;

	if (dladdr((void *) dt_lib_sysdir, &di) != 0 && di.dli_fname != NULL &&
	    (slash = strrchr(di.dli_fname, '/')) != NULL &&
	    (size_t) snprintf(buf, len, "%.*s/dtrace",
	    (int) (slash - di.dli_fname), di.dli_fname) < len &&
	    stat(buf, &st) == 0 && S_ISDIR(st.st_mode))
		return buf;
#ifdef DTRACE_SRC_LIBDIR
	if (access(DTRACE_LIBDIR, F_OK) == 0)
		return DTRACE_LIBDIR;
	return DTRACE_SRC_LIBDIR;
#else
	/* Built for a package (configure --disable-srcdir-libs). */
	return DTRACE_LIBDIR;
#endif
}

/* Every library file of the system directory and the -L ones. */
static void
dt_lib_find(dtrace_hdl_t *dtp, dt_libset_t *ls)
{
	char sysbuf[PATH_MAX];
	const char *sys = dtp->dt_optstr[DT_OPT_SYSLIBDIR];
	const char *user = dtp->dt_optstr[DT_OPT_LIBDIR];

	if (sys == NULL)
		sys = dt_lib_sysdir(sysbuf, sizeof(sysbuf));
	dt_lib_scan_path(ls, sys);
	if (user != NULL)
		dt_lib_scan_path(ls, user);
}

char **
dt_lib_texts(dtrace_hdl_t *dtp, size_t *np)
{
	dt_libset_t ls = { 0 };
	char **texts;

	dt_lib_find(dtp, &ls);
	if ((texts = calloc(ls.ls_n + 1, sizeof (char *))) != NULL) {
		for (size_t i = 0; i < ls.ls_n; i++) {
			texts[i] = ls.ls_libs[i].dl_text;
			ls.ls_libs[i].dl_text = NULL;
		}
	}
	*np = ls.ls_n;
	for (size_t i = 0; i < ls.ls_n; i++) {
		free(ls.ls_libs[i].dl_name);
		free(ls.ls_libs[i].dl_path);
		free(ls.ls_libs[i].dl_text);
	}
	free(ls.ls_libs);
	return texts;
}

int
dt_lib_load(dtrace_hdl_t *dtp)
{
	dt_cc_t *cc = dtp->dt_cc;
	dt_libset_t ls = { 0 };
	int rv = 0;

	cc->cc_libs_loaded = true;
	dt_lib_find(dtp, &ls);
	if (ls.ls_n > 0)
		qsort(ls.ls_libs, ls.ls_n, sizeof (dt_lib_t), dt_lib_cmp);
	for (size_t i = 0; i < ls.ls_n && rv == 0; i++)
		rv = dt_lib_compile(dtp, &ls, &ls.ls_libs[i]);
	for (size_t i = 0; i < ls.ls_n; i++) {
		if (rv == 0 && ls.ls_libs[i].dl_state == 2)
			rv = dt_lib_note(cc, ls.ls_libs[i].dl_name);
		free(ls.ls_libs[i].dl_name);
		free(ls.ls_libs[i].dl_path);
		free(ls.ls_libs[i].dl_text);
	}
	free(ls.ls_libs);
	return rv;
}
