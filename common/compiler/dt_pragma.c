/* SPDX-License-Identifier: MIT */
/*
 * dt_pragma.c: control lines -- #pragma, #line (and the "# N file" lines
 * of the C preprocessor), #ident, #error.
 *
 * The lexer hands over each control line whole.  The D pragmas are:
 *
 *	#pragma D option name[=value]		dtrace_setopt() from the script
 *	#pragma D depends_on class name		library, module or provider;
 *						member (libraries: dt_lib.c)
 *	#pragma D attributes a/b/c ident	stability of an identifier
 *	#pragma D binding "version" ident	version an identifier needs
 *	#pragma error "message"			fail with the message
 *	#pragma ident "..."			ignored
 *
 * Pragmas of other namespaces are ignored, as C compilers do.
 */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/compiler/dt_cc.h"
#include "common/probe/dt_probe.h"

#define DT_PRAGMA_MAXARGS 16

/* Split a control line into words; quoted words keep their quotes. */
static int
dt_pragma_split(dt_pcb_t *pcb, const char *line, char **argv)
{
	char *s = dt_cc_strdup(pcb, line), *p = s;
	int argc = 0;

	while (*p != '\0' && argc < DT_PRAGMA_MAXARGS) {
		while (isspace((unsigned char) *p))
			p++;
		if (*p == '\0')
			break;
		argv[argc++] = p;
		if (*p == '"') {
			p++;
			while (*p != '\0' && *p != '"') {
				if (*p == '\\' && p[1] != '\0')
					p++;
				p++;
			}
			if (*p == '"')
				p++;
		} else {
			while (*p != '\0' && !isspace((unsigned char) *p))
				p++;
		}
		if (*p != '\0')
			*p++ = '\0';
	}
	return argc;
}

static char *
dt_unquote(dt_pcb_t *pcb, const char *s)
{
	size_t n = strlen(s);

	if (n >= 2 && s[0] == '"' && s[n - 1] == '"')
		return dt_cc_strndup(pcb, s + 1, n - 2);
	return dt_cc_strdup(pcb, s);
}

/*
 * #error, #pragma error and #pragma D error: the compile fails with the
 * directive's words, strings unquoted, each followed by a space, as
 * DTrace prints them.
 */
static void __attribute__((noreturn))
dt_pragma_error(dt_pcb_t *pcb, const char *prefix, int argc, char **argv)
{
	char msg[1024];
	size_t o = 0;

	msg[0] = '\0';
	for (int i = 0; i < argc && o < sizeof(msg); i++)
		o += snprintf(
		    msg + o, sizeof(msg) - o, "%s ", dt_unquote(pcb, argv[i]));
	dt_cc_error(pcb, D_PRAGERR, "%s: %s", prefix, msg);
}

static void
dt_pragma_line(dt_pcb_t *pcb, const char *name, int argc, char **argv)
{
	char *end;
	long line;

	if (argc < 1 || (line = strtol(argv[0], &end, 10), *end != '\0') ||
	    line < 0 || (argc > 1 && argv[1][0] != '"'))
		dt_cc_error(pcb, D_PRAGMA_MALFORM, "malformed #%s <line> "
		    "[ [\"file\"] state ]", name);
	/* Line numbers are ints, and the next line's must be one too. */
	if (line >= INT_MAX)
		dt_cc_error(pcb, D_PRAGMA_MALFORM, "#%s %s: line number "
		    "out of range (at most %d)", name, argv[0], INT_MAX - 1);
	if (argc > 1) {
		char *f = dt_unquote(pcb, argv[1]);

		/*
		 * The preprocessor names its input "/dev/stdin" (as dtrace
		 * runs it) or "<stdin>"; that is the script itself, whose
		 * name the caller prints.
		 */
		if (strcmp(f, "/dev/stdin") == 0 || strcmp(f, "<stdin>") == 0 ||
		    f[0] == '\0' || strncmp(f, "/dev/fd/", 8) == 0)
			pcb->pcb_filetag = NULL;
		else if (f[0] == '<')
			;	/* <built-in>, <command-line> */
		else
			pcb->pcb_filetag = f;
	}
	/* The newline ending this line will count one. */
	dt_yyset_lineno_pcb(pcb, (int) line - 1);
}

static bool
dt_attr_valid(const char *s)
{
	char buf[128], *a, *b, *c;

	snprintf(buf, sizeof (buf), "%s", s);
	a = buf;
	if ((b = strchr(a, '/')) == NULL)
		return false;
	*b++ = '\0';
	if ((c = strchr(b, '/')) == NULL)
		return false;
	*c++ = '\0';
	return dt_stability_lookup(a) >= 0 && dt_stability_lookup(b) >= 0 &&
	    dt_class_lookup(c) >= 0;
}

static void
dt_pragma_d(dt_pcb_t *pcb, int argc, char **argv)
{
	dtrace_hdl_t *dtp = pcb->pcb_hdl;
	const char *what = argv[0];

	if (strcmp(what, "option") == 0) {
		/* One option a pragma, as DTrace: "nspec=24 * 44" is not. */
		if (argc < 2)
			dt_cc_error(pcb, D_PRAGMA_MALFORM,
			    "missing option name for #pragma %s", what);
		if (argc > 2)
			dt_cc_error(pcb, D_PRAGMA_MALFORM,
			    "superfluous arguments specified for #pragma %s",
			    what);
		for (int i = 1; i < argc; i++) {
			char *opt = dt_cc_strdup(pcb, argv[i]), *val;

			if ((val = strchr(opt, '=')) != NULL)
				*val++ = '\0';
			if (dtrace_setopt(dtp, opt, val) != 0) {
				int err = dtrace_errno(dtp);

				if (val == NULL)
					dt_cc_error(pcb, D_PRAGMA_OPTSET,
					    "failed to set option '%s': %s",
					    opt, dtrace_errmsg(dtp, err));
				dt_cc_error(pcb, D_PRAGMA_OPTSET, "failed to "
				    "set option '%s' to '%s': %s", opt, val,
				    dtrace_errmsg(dtp, err));
			}
			/*
			 * As DTrace, an option that is a compiler flag takes
			 * effect in the rest of the program being compiled.
			 */
			if (strcmp(opt, "defaultargs") == 0)
				pcb->pcb_cflags |= DTRACE_C_DEFARG;
			else if (strcmp(opt, "pspec") == 0)
				pcb->pcb_cflags |= DTRACE_C_PSPEC;
			else if (strcmp(opt, "zdefs") == 0)
				pcb->pcb_cflags |= DTRACE_C_ZDEFS;
			else if (strcmp(opt, "argref") == 0)
				pcb->pcb_cflags |= DTRACE_C_ARGREF;
			else if (strcmp(opt, "errtags") == 0)
				pcb->pcb_cflags |= DTRACE_C_ETAGS;
		}
		return;
	}
	if (strcmp(what, "depends_on") == 0) {
		if (argc != 3)
			dt_cc_error(pcb, D_PRAGMA_MALFORM, "malformed #pragma "
			    "%s <class> <name>", what);
		if (strcmp(argv[1], "library") != 0 &&
		    strcmp(argv[1], "module") != 0 &&
		    strcmp(argv[1], "provider") != 0 &&
		    strcmp(argv[1], "member") != 0)
			dt_cc_error(pcb, D_PRAGMA_INVAL, "invalid class %s "
			    "specified by #pragma %s", argv[1], what);
		if (strcmp(argv[1], "library") == 0 &&
		    !pcb->pcb_cc->cc_inlib &&
		    !dt_lib_loaded(pcb->pcb_cc, argv[2]))
			dt_cc_error(pcb, D_PRAGMA_DEPEND, "failed to resolve "
			    "dependency: library %s", argv[2]);
		/*
		 * Modules and providers are checked once a backend exists;
		 * members choose among library files (dt_lib.c).
		 */
		return;
	}
	if (strcmp(what, "attributes") == 0) {
		if (argc < 3 || argc > 4 || (argc == 4 &&
		    strcmp(argv[2], "provider") != 0))
			dt_cc_error(pcb, D_PRAGMA_MALFORM, "malformed #pragma "
			    "%s <attributes> <ident>", what);
		if (!dt_attr_valid(argv[1]))
			dt_cc_error(pcb, D_PRAGMA_INVAL, "invalid attributes "
			    "specified by #pragma %s", what);
		if (argc == 3 && dt_ident_lookup_global(pcb,
		    argv[2]) == NULL && dt_idhash_lookup(pcb->pcb_cc->cc_tls,
		    argv[2]) == NULL)
			dt_cc_error(pcb, D_PRAGMA_UNUSED, "unused #pragma %s",
			    what);
		return;
	}
	if (strcmp(what, "error") == 0)
		dt_pragma_error(pcb, "#error", argc - 1, argv + 1);
	if (strcmp(what, "binding") == 0) {
		const char *v;
		int major, minor, micro, n = 0;

		if (argc != 3 || argv[1][0] != '"')
			dt_cc_error(pcb, D_PRAGMA_MALFORM, "malformed #pragma "
			    "%s \"version\" <ident>", what);
		v = dt_unquote(pcb, argv[1]);
		if (sscanf(v, "%d.%d.%d%n", &major, &minor, &micro, &n) < 2 ||
		    major < 0 || minor < 0)
			dt_cc_error(pcb, D_PRAGMA_INVAL, "invalid version "
			    "string specified by #pragma %s", what);
		return;
	}
	/*
	 * As DTrace, the control lines #ident and #line may also be written
	 * as D pragmas (#pragma D error is above).
	 */
	if (strcmp(what, "ident") == 0)
		return;
	if (strcmp(what, "line") == 0) {
		dt_pragma_line(pcb, "pragma D line", argc - 1, argv + 1);
		return;
	}
	dt_cc_error(pcb, D_PRAGMA_INVAL, "invalid control directive: "
	    "#pragma D %s", what);
}

void
dt_pragma(dt_pcb_t *pcb, const char *line)
{
	char *argv[DT_PRAGMA_MAXARGS];
	const char *p = line;
	int argc;

	while (isspace((unsigned char) *p))
		p++;
	p++;	/* '#' */
	argc = dt_pragma_split(pcb, p, argv);
	if (argc == 0)
		return;	/* a lone '#' is a null directive */

	if (isdigit((unsigned char) argv[0][0])) {
		dt_pragma_line(pcb, "line", argc, argv);
		return;
	}
	if (strcmp(argv[0], "line") == 0) {
		dt_pragma_line(pcb, "line", argc - 1, argv + 1);
		return;
	}
	if (strcmp(argv[0], "ident") == 0)
		return;
	if (strcmp(argv[0], "error") == 0)
		dt_pragma_error(pcb, "#error", argc - 1, argv + 1);
	if (strcmp(argv[0], "pragma") != 0)
		dt_cc_error(pcb, D_PRAGCTL_INVAL, "invalid control "
		    "directive: #%s", argv[0]);
	if (argc < 2)
		return;
	if (strcmp(argv[1], "D") == 0) {
		if (argc < 3)
			dt_cc_error(pcb, D_PRAGMA_MALFORM, "malformed #pragma "
			    "D <directive> ...");
		dt_pragma_d(pcb, argc - 2, argv + 2);
		return;
	}
	if (strcmp(argv[1], "ident") == 0)
		return;
	if (strcmp(argv[1], "error") == 0)
		dt_pragma_error(pcb, "#pragma error", argc - 2, argv + 2);
	/* #pragma of another compiler: ignored. */
}
