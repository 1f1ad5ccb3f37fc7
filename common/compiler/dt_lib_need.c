/* SPDX-License-Identifier: MIT */
/*
 * dt_lib_need.c: whether a program needs the D library files at all.
 *
 * Compiling the library files (dt_lib.c) costs more than the rest of
 * dtrace's start-up together: they declare translators from the kernel's
 * structs, so compiling them reads and imports the kernel's BTF.  A
 * program that names nothing they declare (BEGIN { exit(0); }, most
 * one-liners on syscall probes) compiles the same without them, so they
 * are compiled before the first program that might, not before the first
 * program.
 *
 * "Might" is decided from the text, conservatively: the program needs
 * them when one of its identifiers (or of its macro arguments, which can
 * become identifiers) is one the library files declare -- an inline, a
 * typedef, a struct, union or enum tag, an enumerator, a global, a
 * translator's output type -- or is one through which a library's
 * declarations are reached without being named: args (a probe's
 * arguments may be translated to a library's types), xlate, the
 * placeholders the libraries take over (curpsinfo...), and "depends_on".
 * The declared names come from a light scan of the library files' text:
 * at the top level, the last identifier before the '=' or ';' ending a
 * declaration; tags followed by '{'; enumerators; the words between
 * "translator" and '<'.  It may say yes when the program would compile
 * without them, never no when it would not.
 *
 * They are compiled first, as before, whenever laziness could change what
 * a program means: -C (the text is not known before the preprocessor
 * runs, inside the compile), -x version (built-ins are hidden after the
 * first program), or a -L directory (the user's library may do anything).
 */
#include <stdlib.h>
#include <string.h>

#include "common/compiler/dt_cc.h"

/* Reached without being named: a program using them needs the files. */
static const char *const dt_lib_implicit[] = { "args", "xlate",
	"curpsinfo", "curlwpsinfo", "depends_on", NULL };

/* A set of names: sorted, for bsearch. */
typedef struct dt_lib_names {
	char **ln_names;
	size_t ln_n, ln_cap;
	bool ln_failed;		/* out of memory: assume every name */
} dt_lib_names_t;

static void
dt_lib_names_add(dt_lib_names_t *ln, const char *s, size_t len)
{
	char *p;

	if (ln->ln_failed)
		return;
	if (ln->ln_n == ln->ln_cap) {
		size_t cap = ln->ln_cap ? ln->ln_cap * 2 : 256;
		char **n = realloc(ln->ln_names, cap * sizeof (*n));

		if (n == NULL) {
			ln->ln_failed = true;
			return;
		}
		ln->ln_names = n;
		ln->ln_cap = cap;
	}
	if ((p = strndup(s, len)) == NULL) {
		ln->ln_failed = true;
		return;
	}
	ln->ln_names[ln->ln_n++] = p;
}

static int
dt_lib_names_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *) a, *(char *const *) b);
}

static bool
dt_lib_names_has(const dt_lib_names_t *ln, const char *s)
{
	return ln->ln_n > 0 && bsearch(&s, ln->ln_names, ln->ln_n,
	    sizeof (char *), dt_lib_names_cmp) != NULL;
}

void
dt_lib_names_free(dt_cc_t *cc)
{
	dt_lib_names_t *ln = cc->cc_libdecls;

	if (ln == NULL)
		return;
	for (size_t i = 0; i < ln->ln_n; i++)
		free(ln->ln_names[i]);
	free(ln->ln_names);
	free(ln);
	cc->cc_libdecls = NULL;
}

/*
 * The next token of D text at *pp: an identifier (returns its length,
 * *startp its start), or a single punctuation character (returns 0, its
 * character in *cp); -1 at the end.  Comments, strings, character
 * constants and preprocessor lines are skipped (but for the words of a
 * #pragma when pragmas is true).
 */
static int
dt_lib_token(const char **pp, const char **startp, char *cp, bool pragmas)
{
	const char *p = *pp;

	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
			p++;
		if (p[0] == '/' && p[1] == '*') {
			/*
			 * Not strstr(): AddressSanitizer's checks the whole
			 * rest of the text at each call, which made a script
			 * of many comments quadratic.
			 */
			for (p += 2; *p != '\0' && (p[0] != '*' || p[1] != '/');
			    p++)
				continue;
			if (*p != '\0')
				p += 2;
		} else if (p[0] == '/' && p[1] == '/') {
			p += strcspn(p, "\n");
		} else if (*p == '#' && (p == *pp || p[-1] == '\n' ||
		    p[-1] == ' ' || p[-1] == '\t')) {
			/* A program's pragmas may name a library. */
			const char *w = p + 1 + strspn(p + 1, " \t");

			if (!pragmas || strncmp(w, "pragma", 6) != 0)
				p += strcspn(p, "\n");
			else
				p = w + 6;
		} else if (*p == '"' || *p == '\'') {
			char q = *p++;

			while (*p != '\0' && *p != q && *p != '\n')
				p += (*p == '\\' && p[1] != '\0') ? 2 : 1;
			if (*p == q)
				p++;
		} else {
			break;
		}
	}
	*pp = p;
	if (*p == '\0')
		return -1;
	if (*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')) {
		const char *s = p;

		while (*p == '_' || (*p >= 'a' && *p <= 'z') ||
		    (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'))
			p++;
		*startp = s;
		*pp = p;
		return (int) (p - s);
	}
	/* Numbers go whole, so that 0x1f is not an identifier x1f. */
	if (*p >= '0' && *p <= '9') {
		while (*p == '.' || *p == '_' || (*p >= '0' && *p <= '9') ||
		    (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))
			p++;
		*pp = p;
		*cp = '0';
		return 0;
	}
	*cp = *p;
	*pp = p + 1;
	return 0;
}

static bool
dt_lib_word(const char *s, int len, const char *w)
{
	return (size_t) len == strlen(w) && strncmp(s, w, (size_t) len) == 0;
}

/* What one library file declares, by the rules above. */
static void
dt_lib_names_scan(dt_lib_names_t *ln, const char *text)
{
	const char *p = text, *s, *last = NULL, *tag = NULL;
	size_t lastlen = 0, taglen = 0;
	int depth = 0, len, enumdepth = -1, bdepth = 0;
	bool cut = false, xlator = false, tagword = false, isenum = false;
	bool enumstart = false;
	char c;

	while ((len = dt_lib_token(&p, &s, &c, false)) >= 0) {
		bool kw;

		if (len > 0) {
			kw = dt_lib_word(s, len, "struct") ||
			    dt_lib_word(s, len, "union") ||
			    dt_lib_word(s, len, "enum");
			if (enumstart && depth == enumdepth)
				dt_lib_names_add(ln, s, (size_t) len);
			enumstart = false;
			/* A tag counts when a body follows: struct T { */
			tag = tagword ? s : NULL;
			taglen = (size_t) len;
			tagword = kw;
			if (kw)
				isenum = dt_lib_word(s, len, "enum");
			/* An inline's index (fds[int fd]) is not its name. */
			if (depth != 0 || cut || bdepth > 0)
				continue;
			if (dt_lib_word(s, len, "translator"))
				xlator = true;
			else if (xlator && !kw)
				dt_lib_names_add(ln, s, (size_t) len);
			last = s;
			lastlen = (size_t) len;
			continue;
		}
		tagword = enumstart = false;
		switch (c) {
		case '{':
			if (tag != NULL)
				dt_lib_names_add(ln, tag, taglen);
			if (isenum && enumdepth < 0) {
				enumdepth = depth + 1;
				enumstart = true;
			}
			depth++;
			break;
		case '}':
			if (depth == enumdepth)
				enumdepth = -1;
			if (depth > 0)
				depth--;
			break;
		case ',':
			enumstart = depth == enumdepth;
			break;
		case '[':
			bdepth++;
			break;
		case ']':
			if (bdepth > 0)
				bdepth--;
			break;
		case '<':
		case '=':
			/* The name is before: the output type, the inline. */
			if (depth == 0 && (c == '=' || xlator))
				cut = true;
			break;
		case ';':
			if (depth != 0)
				break;
			if (last != NULL && !xlator)
				dt_lib_names_add(ln, last, lastlen);
			last = NULL;
			cut = xlator = false;
			bdepth = 0;
			break;
		default:
			break;
		}
		tag = NULL;
		isenum = isenum && c != ';' && c != '{';
	}
}

/* The names every library file declares, scanned once per handle. */
static const dt_lib_names_t *
dt_lib_names(dtrace_hdl_t *dtp)
{
	dt_cc_t *cc = dtp->dt_cc;
	dt_lib_names_t *ln;
	char **texts;
	size_t n;

	if (cc->cc_libdecls != NULL)
		return cc->cc_libdecls;
	if ((texts = dt_lib_texts(dtp, &n)) == NULL ||
	    (ln = calloc(1, sizeof (*ln))) == NULL) {
		free(texts);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		/* An unreadable file: its compile will say so. */
		if (texts[i] == NULL)
			ln->ln_failed = true;
		else
			dt_lib_names_scan(ln, texts[i]);
		free(texts[i]);
	}
	free(texts);
	for (size_t i = 0; dt_lib_implicit[i] != NULL; i++)
		dt_lib_names_add(ln, dt_lib_implicit[i],
		    strlen(dt_lib_implicit[i]));
	if (ln->ln_n > 0)
		qsort(ln->ln_names, ln->ln_n, sizeof (char *),
		    dt_lib_names_cmp);
	cc->cc_libdecls = ln;
	return ln;
}

/* Does text (len bytes, not NUL-terminated) name one of ln's names? */
static bool
dt_lib_text_names(const dt_lib_names_t *ln, const char *text, size_t len)
{
	char *copy = strndup(text, len);
	const char *p = copy, *s;
	char name[256], c;
	int n;

	if (copy == NULL)
		return true;
	while ((n = dt_lib_token(&p, &s, &c, true)) >= 0) {
		if (n == 0)
			continue;
		if ((size_t) n >= sizeof (name))
			n = sizeof (name) - 1;
		memcpy(name, s, (size_t) n);
		name[n] = '\0';
		if (dt_lib_names_has(ln, name)) {
			free(copy);
			return true;
		}
	}
	free(copy);
	return false;
}

bool
dt_lib_needed(dtrace_hdl_t *dtp, const char *text, size_t len,
    unsigned cflags, int argc, char *const argv[])
{
	const dt_lib_names_t *ln;

	if ((cflags & DTRACE_C_CPP) ||
	    dtp->dt_options[DT_OPT_VERSION] != DTRACEOPT_UNSET ||
	    dtp->dt_optstr[DT_OPT_LIBDIR] != NULL)
		return true;
	if ((ln = dt_lib_names(dtp)) == NULL || ln->ln_failed)
		return true;
	if (dt_lib_text_names(ln, text, len))
		return true;
	for (int i = 0; i < argc; i++) {
		if (dt_lib_text_names(ln, argv[i], strlen(argv[i])))
			return true;
	}
	return false;
}
