/* SPDX-License-Identifier: MIT */
/*
 * dtrace.c: the dtrace(1) command.
 *
 * This file is deliberately thin: it turns the command line into calls on
 * libdtrace and reports what the library says, in DTrace's words.  It does
 * its work in two passes over argv, as DTrace does:
 *
 *   1. Collect every option.  Program descriptions (-n -P -m -f -i -s) are
 *	kept in command-line order in g_progs[]; options that set something
 *	are kept in order in g_sets[] so they apply as the user wrote them;
 *	operands that are not options become the macro arguments $1..$N.
 *   2. Check the combination, open the library, apply the settings, then
 *	run the mode the options asked for.
 *
 * Exit status is DTrace's: 0 on success, 1 on an error, 2 on a usage error.
 * An option whose feature is not available fails with one line naming the
 * option and status 2; it is never silently ignored.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/dtrace.h"
#include "dtrace_guard.h"

#define E_SUCCESS 0
#define E_ERROR	  1
#define E_USAGE	  2

/*
 * The getopt string.  -3 and -6 take "2" and "4" so that -32 and -64 parse
 * as options with arguments, the way DTrace spells them.  No -B: illumos's
 * dtrace takes it, undocumented, to route its output through libdtrace's
 * buffered-output handler for that library's tests; DTrace's guides list
 * no -B, so here it is an unknown option like any other.
 */
#define DTRACE_OPTSTR "3:6:aAb:c:CD:ef:FGhHi:I:lL:m:n:o:p:P:qs:SU:vVwx:X:Z"

typedef enum dtrace_mode {
	DMODE_EXEC,   /* compile, enable and trace (the default) */
	DMODE_LIST,   /* -l: list matching probes */
	DMODE_HEADER, /* -h: generate a header from provider definitions */
	DMODE_LINK,   /* -G: generate an ELF object with USDT probes */
} dtrace_mode_t;

/* One program description, in command-line order. */
typedef struct dtrace_prog_arg {
	char pa_opt;	   /* 'n' 'P' 'm' 'f' 'i' or 's' */
	const char *pa_arg;
} dtrace_prog_arg_t;

/* One option that sets something in the library, in command-line order. */
typedef struct dtrace_set_arg {
	char sa_opt;
	const char *sa_arg;
} dtrace_set_arg_t;

static const char *g_pname = "dtrace";
static const char *g_argv0 = "dtrace";	  /* $0 of -n, -P ... programs */
static dtrace_prog_arg_t *g_progs;
static int g_nprogs;
static dtrace_set_arg_t *g_sets;
static int g_nsets;
static const char **g_macro_argv; /* operands: $1 .. $N */
static int g_macro_argc;
static const char **g_cmds;	  /* -c commands */
static int g_ncmds;
static const char **g_pids;	  /* -p process IDs */
static int g_npids;
static dtrace_mode_t g_mode = DMODE_EXEC;
static bool g_compile_only;	  /* -e */
static bool g_version;		  /* -V */
static bool g_verbose;		  /* -v */
static bool g_quiet;		  /* -q: no banner lines */
static bool g_difv;		  /* -S: print the DIF */
static int g_datamodel;		  /* DTRACE_O_LP64 or _ILP32 */
static const char *g_ofile;	  /* -o */
static bool g_ofile_made;	  /* -o names no file yet */
static FILE *g_ofp;		  /* where tracing output goes: -o, else
				     stdout (-c commands keep stdout) */
static dtrace_hdl_t *g_dtp;

/*
 * Options whose feature does not exist (yet, or on Linux).  Naming one is an
 * error, never silently ignored.  An entry is removed when its feature
 * lands.
 */
static const char *const g_unavailable[128] = {
	['a'] = "claiming anonymous tracing state is not supported on Linux",
	['A'] = "anonymous tracing (driver.conf directives) is not supported "
		"on Linux",
};

static void
usage(FILE *fp)
{
	fprintf(fp, "Usage: %s [-32|-64] [-aACeFGhHlqSvVwZ] "
		    "[-b bufsz] [-c cmd] [-D name[=def]]\n"
		    "\t[-I path] [-L path] [-o output] [-p pid] [-s script] "
		    "[-U name]\n"
		    "\t[-x opt[=val]] [-X a|c|s|t]\n\n"
		    "\t[-P provider [[ predicate ] action ]]\n"
		    "\t[-m [ provider: ] module [[ predicate ] action ]]\n"
		    "\t[-f [[ provider: ] module: ] func "
		    "[[ predicate ] action ]]\n"
		    "\t[-n [[[ provider: ] module: ] func: ] name "
		    "[[ predicate ] action ]]\n"
		    "\t[-i probe-id [[ predicate ] action ]] [ args ... ]\n\n",
	    g_pname);
	fprintf(fp,
	    "\tpredicate -> '/' D-expression '/'\n"
	    "\t   action -> '{' D-statements '}'\n"
	    "\n"
	    "\t-32 compile for the 32-bit data model\n"
	    "\t-64 compile for the 64-bit data model (the default)\n\n"
	    "\t-a  claim anonymous tracing state\n"
	    "\t-A  generate driver.conf(4) directives for anonymous tracing\n"
	    "\t-b  set trace buffer size (suffixes k, m, g, t)\n"
	    "\t-c  run specified command and exit upon its completion\n"
	    "\t-C  run the C preprocessor on script files\n"
	    "\t-D  define symbol when invoking the preprocessor\n"
	    "\t-e  exit after compiling the request, before enabling probes\n"
	    "\t-f  enable or list probes matching the function name\n"
	    "\t-F  coalesce trace output by function\n"
	    "\t-G  generate an ELF file containing the D programs\n"
	    "\t-h  generate a header file with the probe definitions\n"
	    "\t-H  print the names of included files when invoking the "
	    "preprocessor\n"
	    "\t-i  enable or list probes matching the probe id\n"
	    "\t-I  add an include directory to the preprocessor search "
	    "path\n"
	    "\t-l  list probes matching the description\n"
	    "\t-L  add a library directory to the library search path\n"
	    "\t-m  enable or list probes matching the module name\n"
	    "\t-n  enable or list probes matching the probe name\n"
	    "\t-o  set output file\n"
	    "\t-p  grab the process id and cache its symbol tables\n"
	    "\t-P  enable or list probes matching the provider name\n"
	    "\t-q  set quiet mode (only output explicitly traced data)\n"
	    "\t-s  enable or list probes according to the script file\n"
	    "\t-S  print the D compiler's intermediate code (DIF)\n"
	    "\t-U  undefine symbol when invoking the preprocessor\n"
	    "\t-v  set verbose mode (report stability attributes, "
	    "arguments)\n"
	    "\t-V  report the DTrace API version\n"
	    "\t-w  permit destructive actions\n"
	    "\t-x  enable or modify a compiler or tracing option\n"
	    "\t-X  specify ISO C conformance settings for the preprocessor\n"
	    "\t-Z  permit probe descriptions that match zero probes\n"
	    "\n"
	    "\t--help  print this message and exit\n");
}

/* Print "dtrace: <message>" on stderr. */
static void
warn_msg(const char *fmt, va_list ap)
{
	char msg[4096];

	/* What the user typed is quoted safely: no byte reaches the
	 * terminal raw. */
	(void) dtrace_msg_vformat(msg, sizeof (msg), fmt, ap);
	fprintf(stderr, "%s: %s", g_pname, msg);
}

static void __attribute__((noreturn, format(printf, 2, 3)))
fatal(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	warn_msg(fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (g_dtp != NULL)
		dtrace_close(g_dtp);
	exit(status);
}

/*
 * fatal(), with the library's message for its last error appended, and the
 * library's explanation of it (a missing privilege, say) on a second line.
 */
static void __attribute__((noreturn, format(printf, 1, 2)))
dfatal(const char *fmt, ...)
{
	const char *hint = g_dtp != NULL ? dtrace_errhint(g_dtp) : NULL;
	va_list ap;

	va_start(ap, fmt);
	warn_msg(fmt, ap);
	va_end(ap);
	fprintf(stderr, ": %s\n",
	    dtrace_errmsg(g_dtp, g_dtp ? dtrace_errno(g_dtp) : 0));
	if (hint != NULL)
		fprintf(stderr, "%s: %s\n", g_pname, hint);
	dtrace_close(g_dtp);
	exit(E_ERROR);
}

static void *
xrealloc(void *p, size_t n)
{
	if ((p = realloc(p, n)) == NULL)
		fatal(E_ERROR, "failed to allocate memory");
	return p;
}

static void
add_prog(char opt, const char *arg)
{
	g_progs = xrealloc(g_progs, (g_nprogs + 1) * sizeof (*g_progs));
	g_progs[g_nprogs].pa_opt = opt;
	g_progs[g_nprogs++].pa_arg = arg;
}

static void
add_set(char opt, const char *arg)
{
	g_sets = xrealloc(g_sets, (g_nsets + 1) * sizeof (*g_sets));
	g_sets[g_nsets].sa_opt = opt;
	g_sets[g_nsets++].sa_arg = arg;
}

static void
add_str(const char ***vecp, int *np, const char *s)
{
	*vecp = xrealloc(*vecp, (*np + 1) * sizeof (**vecp));
	(*vecp)[(*np)++] = s;
}

/*
 * Pass 1: collect every option.  Operands may appear between options (as in
 * "dtrace -s x.d arg1 -q"), so getopt is restarted after each operand rather
 * than letting it permute argv.
 */
static void
parse_args(int argc, char **argv)
{
	int c;

	opterr = 0;
	optind = 1;
	while (optind < argc) {
		if (strcmp(argv[optind], "--help") == 0) {
			usage(stdout);
			exit(E_SUCCESS);
		}
		if ((c = getopt(argc, argv, "+" DTRACE_OPTSTR)) == -1) {
			if (optind < argc &&
			    strcmp(argv[optind - 1], "--") == 0) {
				/* Everything after "--" is an operand. */
				while (optind < argc)
					add_str(&g_macro_argv, &g_macro_argc,
					    argv[optind++]);
				break;
			}
			if (optind < argc)
				add_str(&g_macro_argv, &g_macro_argc,
				    argv[optind++]);
			continue;
		}
		switch (c) {
		case '3':
		case '6':
			if (strcmp(optarg, c == '3' ? "2" : "4") != 0) {
				fprintf(stderr, "%s: illegal option -- %c%s\n",
				    g_pname, c, optarg);
				usage(stderr);
				exit(E_USAGE);
			}
			g_datamodel = c == '3' ? DTRACE_O_ILP32 : DTRACE_O_LP64;
			break;
		case 'n':
		case 'P':
		case 'm':
		case 'f':
		case 'i':
		case 's':
			add_prog((char) c, optarg);
			break;
		case 'c':
			add_str(&g_cmds, &g_ncmds, optarg);
			break;
		case 'p':
			add_str(&g_pids, &g_npids, optarg);
			break;
		case 'e':
			g_compile_only = true;
			break;
		case 'G':
			g_mode = DMODE_LINK;
			break;
		case 'h':
			g_mode = DMODE_HEADER;
			break;
		case 'l':
			g_mode = DMODE_LIST;
			break;
		case 'o':
			g_ofile = optarg;
			break;
		case 'v':
			g_verbose = true;
			break;
		case 'V':
			g_version = true;
			break;
		case 'X':
			if (strlen(optarg) != 1 || strchr("acst", *optarg) ==
			    NULL) {
				fprintf(stderr, "%s: -X requires one of a, c, "
						"s or t\n",
				    g_pname);
				usage(stderr);
				exit(E_USAGE);
			}
			add_set((char) c, optarg);
			break;
		case '?':
		case ':':
			if (optopt != 0 && strchr(DTRACE_OPTSTR, optopt) !=
			    NULL)
				fprintf(stderr, "%s: option requires an "
						"argument -- %c\n",
				    g_pname, optopt);
			else
				fprintf(stderr, "%s: illegal option -- %c\n",
				    g_pname, optopt ? optopt : '?');
			usage(stderr);
			exit(E_USAGE);
		default:
			/* a A b C D F H I L q S U w x Z: settings */
			add_set((char) c, optarg);
			break;
		}
	}
}

/* Refuse, with one line, an option whose feature is not available. */
static void
check_available(char opt)
{
	if (g_unavailable[(unsigned char) opt] != NULL)
		fatal(E_USAGE, "-%c: %s", opt, g_unavailable[(unsigned char) opt]);
}

/* Refuse the program descriptions and modes that are not available. */
static void
check_modes_available(void)
{
	for (int i = 0; i < g_nprogs; i++)
		check_available(g_progs[i].pa_opt);
	if (g_ncmds > 0)
		check_available('c');
	if (g_npids > 0)
		check_available('p');
	if (g_mode == DMODE_LIST)
		check_available('l');
	if (g_mode == DMODE_HEADER)
		check_available('h');
	if (g_mode == DMODE_LINK)
		check_available('G');
}

/* Reject combinations of options that make no sense, as DTrace does. */
static void
check_combination(void)
{
	int nscripts = 0;

	for (int i = 0; i < g_nprogs; i++)
		nscripts += g_progs[i].pa_opt == 's';

	if (g_mode == DMODE_HEADER || g_mode == DMODE_LINK) {
		char opt = g_mode == DMODE_HEADER ? 'h' : 'G';

		if (nscripts == 0)
			fatal(E_USAGE, "-%c requires one or more scripts "
				       "specified with -s",
			    opt);
		if (nscripts != g_nprogs)
			fatal(E_USAGE, "-%c may only be used with scripts "
				       "(-s), not probe descriptions",
			    opt);
		if (g_ncmds > 0 || g_npids > 0)
			fatal(E_USAGE, "-%c may not be used with -c or -p",
			    opt);
	}
}

/* Pass 2: apply the settings in the order the user gave them. */
static void
apply_settings(void)
{
	for (int i = 0; i < g_nsets; i++) {
		const char *arg = g_sets[i].sa_arg;
		char *name, *value;

		check_available(g_sets[i].sa_opt);
		switch (g_sets[i].sa_opt) {
		case 'b':
			if (dtrace_setopt(g_dtp, "bufsize", arg) != 0)
				dfatal("failed to set -b %s", arg);
			break;
		case 'F':
			if (dtrace_setopt(g_dtp, "flowindent", NULL) != 0)
				dfatal("failed to set -F");
			break;
		case 'L': {
			/* Each -L adds a directory: libdir is a path. */
			const char *old = dtrace_getopt_string(g_dtp,
			    "libdir");
			char *path = NULL;

			if (old != NULL && asprintf(&path, "%s:%s", old,
			    arg) < 0)
				dfatal("failed to set -L %s", arg);
			if (dtrace_setopt(g_dtp, "libdir", path ? path :
			    arg) != 0)
				dfatal("failed to set -L %s", arg);
			free(path);
			break;
		}
		case 'q':
			if (dtrace_setopt(g_dtp, "quiet", NULL) != 0)
				dfatal("failed to set -q");
			g_quiet = true;
			break;
		case 'S':
			g_difv = true;
			break;
		case 'w':
			if (dtrace_setopt(g_dtp, "destructive", NULL) != 0)
				dfatal("failed to set -w");
			break;
		case 'Z':
			if (dtrace_setopt(g_dtp, "zdefs", NULL) != 0)
				dfatal("failed to set -Z");
			break;
		case 'C':
			if (dtrace_setopt(g_dtp, "cpp", NULL) != 0)
				dfatal("failed to set -C");
			break;
		case 'H':
			if (dtrace_setopt(g_dtp, "cpphdrs", NULL) != 0)
				dfatal("failed to set -H");
			break;
		case 'X':
			if (dtrace_setopt(g_dtp, "stdc", arg) != 0)
				dfatal("failed to set -X %s", arg);
			break;
		case 'D':
		case 'U':
		case 'I': {
			char buf[4096];

			snprintf(buf, sizeof (buf), "-%c%s", g_sets[i].sa_opt,
			    arg);
			if (dtrace_cpp_arg(g_dtp, buf) != 0)
				dfatal("failed to set -%c %s", g_sets[i].sa_opt,
				    arg);
			break;
		}
		case 'x':
			if ((name = strdup(arg)) == NULL)
				fatal(E_ERROR, "failed to allocate memory");
			if ((value = strchr(name, '=')) != NULL)
				*value++ = '\0';
			if (dtrace_setopt(g_dtp, name, value) != 0) {
				fprintf(stderr, "%s: failed to set -x %s: %s\n",
				    g_pname, name,
				    dtrace_errmsg(g_dtp,
					dtrace_errno(g_dtp)));
				free(name);
				dtrace_close(g_dtp);
				exit(E_ERROR);
			}
			free(name);
			break;
		default:
			/* Every other setting was refused above. */
			fatal(E_USAGE, "-%c: not supported", g_sets[i].sa_opt);
		}
	}
}

/*
 * Compile every program description in command-line order, with the
 * operands as macro arguments ($0 is the script's name for -s).  Errors
 * are printed as DTrace prints them, with status 1.
 */
static dtrace_prog_t **g_compiled;

static void
compile_programs(void)
{
	const char **av;
	/* -G's operands are the program's objects, not macro arguments */
	int nmacro = g_mode == DMODE_LINK ? 0 : g_macro_argc;

	if (g_nprogs == 0)
		return;
	g_compiled = xrealloc(NULL, g_nprogs * sizeof (*g_compiled));
	av = xrealloc(NULL, (nmacro + 2) * sizeof (*av));
	for (int i = 0; i < nmacro; i++)
		av[i + 1] = g_macro_argv[i];
	av[nmacro + 1] = NULL;

	for (int i = 0; i < g_nprogs; i++) {
		const char *arg = g_progs[i].pa_arg;
		dtrace_probespec_t spec;
		dtrace_prog_t *pgp;
		FILE *fp;

		av[0] = g_progs[i].pa_opt == 's' ? arg : g_argv0;
		switch (g_progs[i].pa_opt) {
		case 's':
			if (strcmp(arg, "-") == 0)
				fp = stdin;
			else if ((fp = fopen(arg, "r")) == NULL) {
				free(av);
				fatal(E_ERROR, "failed to open %s: %s", arg,
				    strerror(errno));
			}
			pgp = dtrace_program_fcompile(g_dtp, fp, 0,
			    nmacro + 1, (char *const *) av);
			if (fp != stdin)
				fclose(fp);
			if (pgp == NULL) {
				free(av);
				dfatal("failed to compile script %s", arg);
			}
			break;
		default:
			spec = g_progs[i].pa_opt == 'P' ?
			    DTRACE_PROBESPEC_PROVIDER :
			    g_progs[i].pa_opt == 'm' ? DTRACE_PROBESPEC_MOD :
			    g_progs[i].pa_opt == 'f' ? DTRACE_PROBESPEC_FUNC :
			    DTRACE_PROBESPEC_NAME;
			pgp = dtrace_program_strcompile(g_dtp, arg, spec, 0,
			    nmacro + 1, (char *const *) av);
			if (pgp == NULL) {
				free(av);
				dfatal("invalid probe specifier %s", arg);
			}
			break;
		}
		g_compiled[i] = pgp;
	}
	free(av);
}

/*
 * -l: a description that matches nothing is reported, not an error, with
 * the reason its provider has no probes here when the library knows it.
 */
static void
list_nomatch(const char *desc, void *arg)
{
	const char *hint = dtrace_errhint(g_dtp);

	(void) arg;
	fflush(stdout);
	fprintf(stderr, "%s: failed to match %s: No probe matches "
			"description\n",
	    g_pname, desc);
	if (hint != NULL)
		fprintf(stderr, "%s: %s\n", g_pname, hint);
}

static void
free_programs(void)
{
	for (int i = 0; g_compiled != NULL && i < g_nprogs; i++)
		dtrace_program_destroy(g_dtp, g_compiled[i]);
	free(g_compiled);
	g_compiled = NULL;
}

/*
 * Set by SIGINT, SIGTERM (and SIGHUP, SIGPIPE): stop tracing, run END and
 * print what is left, as DTrace does on ^C.
 */
static volatile sig_atomic_t g_intr;
static volatile sig_atomic_t g_pipe; /* a write met a reader gone */

static void
intr(int sig)
{
	if (sig == SIGPIPE)
		g_pipe = 1;
	g_intr = 1;
}

/*
 * Start the commands of -c (split at white space, as DTrace does: no
 * shell) and grab the processes of -p, before compiling, so that $target
 * and pid<N> probes name them.
 */
static void
grab_processes(void)
{
	for (int i = 0; i < g_ncmds; i++) {
		char *copy = strdup(g_cmds[i]), *tok, *save = NULL;
		char **argv = NULL;
		int argc = 0;

		if (copy == NULL)
			fatal(E_ERROR, "failed to allocate memory");
		for (tok = strtok_r(copy, " \t\n", &save); tok != NULL;
		    tok = strtok_r(NULL, " \t\n", &save)) {
			argv = xrealloc(argv, (argc + 2) * sizeof (*argv));
			argv[argc++] = tok;
		}
		if (argc == 0)
			fatal(E_USAGE, "-c requires a command");
		argv[argc] = NULL;
		if (dtrace_proc_create(g_dtp, argv) < 0) {
			free(argv);
			free(copy);
			fatal(E_ERROR, "%s", dtrace_errmsg(g_dtp,
			    dtrace_errno(g_dtp)));
		}
		free(argv);
		free(copy);
	}
	for (int i = 0; i < g_npids; i++) {
		char *end;
		long pid;

		errno = 0;
		pid = strtol(g_pids[i], &end, 10);
		if (errno != 0 || end == g_pids[i] || *end != '\0' || pid <= 0 ||
		    pid > INT32_MAX)
			fatal(E_USAGE, "invalid process ID: %s", g_pids[i]);
		if (pid == guard_pid())
			fatal(E_ERROR, "failed to grab pid %ld: process is "
			    "dtrace itself", pid);
		if (dtrace_proc_grab(g_dtp, (int) pid) != 0)
			fatal(E_ERROR, "%s", dtrace_errmsg(g_dtp,
			    dtrace_errno(g_dtp)));
	}
}

/* "dtrace: pid N has exited", as DTrace says it (not under -q). */
static void
proc_ended(int pid, int status, void *arg)
{
	dtrace_optval_t quiet = DTRACEOPT_UNSET;

	(void) arg;
	(void) dtrace_getopt(g_dtp, "quiet", &quiet);
	if (g_quiet || quiet != DTRACEOPT_UNSET)
		return;
	if (status != -1 && WIFSIGNALED(status)) {
		const char *abbr = sigabbrev_np(WTERMSIG(status));

		if (abbr != NULL)
			fprintf(stderr, "%s: pid %d terminated by SIG%s\n",
			    g_pname, pid, abbr);
		else
			fprintf(stderr, "%s: pid %d terminated by signal %d\n",
			    g_pname, pid, WTERMSIG(status));
	} else if (status != -1 && WEXITSTATUS(status) != 0) {
		fprintf(stderr, "%s: pid %d exited with status %d\n", g_pname,
		    pid, WEXITSTATUS(status));
	} else {
		fprintf(stderr, "%s: pid %d has exited\n", g_pname, pid);
	}
}

/* One block of dtrace -v's stability report. */
static void
print_attr(const char *title, const dtrace_attribute_t *a)
{
	fprintf(g_ofp, "\n\t%s\n", title);
	fprintf(g_ofp, "\t\tIdentifier Names: %s\n",
	    dtrace_stability_name(a->dtat_name));
	fprintf(g_ofp, "\t\tData Semantics:   %s\n",
	    dtrace_stability_name(a->dtat_data));
	fprintf(g_ofp, "\t\tDependency Class: %s\n",
	    dtrace_class_name(a->dtat_class));
}

/* dtrace -v: a program's stability report, on the output. */
static void
print_report(const dtrace_prog_arg_t *pa, const dtrace_proginfo_t *info)
{
	int len = (int) strcspn(pa->pa_arg, "{/;");

	fprintf(g_ofp, "\nStability attributes for %s %.*s:\n",
	    pa->pa_opt == 's' ? "script" : "description",
	    pa->pa_opt == 's' ? (int) strlen(pa->pa_arg) : len, pa->pa_arg);
	print_attr("Minimum Probe Description Attributes", &info->dpi_descattr);
	print_attr("Minimum Statement Attributes", &info->dpi_stmtattr);
	fputc('\n', g_ofp);
}

/*
 * "dtrace: description 'BEGIN ' matched 1 probe" for each program, and
 * with -v its stability report; returns the number of probes matched in
 * all.
 */
static unsigned
exec_programs(void)
{
	unsigned total = 0;

	for (int i = 0; i < g_nprogs; i++) {
		const dtrace_prog_arg_t *pa = &g_progs[i];
		dtrace_proginfo_t info;

		dtrace_optval_t quiet = DTRACEOPT_UNSET;

		if (dtrace_program_exec(g_dtp, g_compiled[i], &info) != 0)
			dfatal("failed to enable '%s'", pa->pa_arg);
		total += info.dpi_matches;
		/* -q, or #pragma D option quiet in a script: no banner. */
		if (g_quiet ||
		    (dtrace_getopt(g_dtp, "quiet", &quiet) == 0 &&
			quiet != DTRACEOPT_UNSET)) {
			/* nothing */
		} else if (pa->pa_opt == 's') {
			fprintf(stderr, "%s: script '%s' matched %u probe%s\n",
			    g_pname, pa->pa_arg, info.dpi_matches,
			    info.dpi_matches == 1 ? "" : "s");
		} else {
			/* The description alone: up to a predicate or body. */
			int len = (int) strcspn(pa->pa_arg, "{/;");

			fprintf(stderr, "%s: description '%.*s' matched %u "
					"probe%s\n",
			    g_pname, len, pa->pa_arg, info.dpi_matches,
			    info.dpi_matches == 1 ? "" : "s");
		}
		if (g_verbose)
			print_report(pa, &info);
	}
	return total;
}

/* The sizes an engine may lower when it cannot allocate them (bufresize). */
static const struct {
	const char *bs_opt;
	const char *bs_name;
} g_bufsizes[] = {
	{ "bufsize", "buffer size" },
	{ "aggsize", "aggregation size" },
	{ "specsize", "speculation size" },
	{ "dynvarsize", "dynamic variable size" },
};
#define NBUFSIZES (sizeof (g_bufsizes) / sizeof (g_bufsizes[0]))

static void
get_bufsizes(dtrace_optval_t *vals)
{
	for (size_t i = 0; i < NBUFSIZES; i++) {
		if (dtrace_getopt(g_dtp, g_bufsizes[i].bs_opt, &vals[i]) != 0)
			vals[i] = 0;
	}
}

/* "dtrace: buffer size lowered to 1g", for each size the engine cut. */
static void
report_lowered(const dtrace_optval_t *before)
{
	dtrace_optval_t after[NBUFSIZES];

	get_bufsizes(after);
	for (size_t i = 0; i < NBUFSIZES; i++) {
		const char *units = "kmgt";
		dtrace_optval_t v = after[i];
		int u = -1;

		if (v <= 0 || v >= before[i])
			continue;
		while (u < 3 && v >= 1024 && v % 1024 == 0) {
			v /= 1024;
			u++;
		}
		if (u < 0)
			fprintf(stderr, "%s: %s lowered to %lld\n", g_pname,
			    g_bufsizes[i].bs_name, (long long) v);
		else
			fprintf(stderr, "%s: %s lowered to %lld%c\n", g_pname,
			    g_bufsizes[i].bs_name, (long long) v, units[u]);
	}
}

/*
 * Output that cannot be written (-o /dev/full, a full disk) ends the run
 * with one line naming the file and the system's error, as DTrace's
 * "processing aborted: No space left on device" does, but saying what
 * failed.  A reader that has gone away (dtrace | head) ends it as it
 * ends a filter, quietly, by SIGPIPE -- as DTrace, which leaves SIGPIPE
 * alone, dies -- once tracing is undone (probes out, processes let go).
 */
static void __attribute__((noreturn))
output_failed(int err)
{
	sigset_t pipe;

	if (err != EPIPE)
		fatal(E_ERROR, "failed to write to %s: %s",
		    g_ofile != NULL && g_ofp != stdout ? g_ofile :
							 "standard output",
		    err > 0 ? strerror(err) :
			      dtrace_errmsg(g_dtp, dtrace_errno(g_dtp)));
	dtrace_close(g_dtp);
	(void) signal(SIGPIPE, SIG_DFL);
	sigemptyset(&pipe);
	sigaddset(&pipe, SIGPIPE);
	(void) sigprocmask(SIG_UNBLOCK, &pipe, NULL);
	(void) raise(SIGPIPE);
	_exit(E_ERROR);
}

/*
 * Why the output failed, once the library has said it did: what writing
 * the rest says now (stdio keeps what it could not write), else 0 for
 * the library's own error (the system's: ENOSPC, EPIPE).
 */
static int
output_errno(void)
{
	if (g_pipe || dtrace_errno(g_dtp) == EPIPE)
		return EPIPE;
	clearerr(g_ofp);
	errno = 0;
	if (fflush(g_ofp) == EOF && errno != 0)
		return errno;
	return 0;
}

static void
flush_output(void)
{
	if (fflush(g_ofp) == EOF)
		output_failed(errno);
}

/* Trace until exit(), a signal or an error; returns the exit status. */
static int
run_programs(void)
{
	struct sigaction sa;
	sigset_t ending;
	dtrace_optval_t sizes[NBUFSIZES];
	int done = 0, status = E_SUCCESS;
	dtrace_optval_t w = DTRACEOPT_UNSET, q = DTRACEOPT_UNSET;
	dtrace_optval_t z = DTRACEOPT_UNSET;

	/*
	 * As DTrace: with nothing to trace, say so rather than wait for
	 * nothing, unless -Z asked for descriptions that may match nothing.
	 */
	if (exec_programs() == 0 &&
	    (dtrace_getopt(g_dtp, "zdefs", &z) != 0 || z == DTRACEOPT_UNSET))
		fatal(E_ERROR, "no probes %s", g_nprogs > 0 ? "matched" :
		    "specified");

	memset(&sa, 0, sizeof (sa));
	sa.sa_handler = intr;
	sigemptyset(&sa.sa_mask);
	(void) sigaction(SIGINT, &sa, NULL);
	(void) sigaction(SIGTERM, &sa, NULL);
	(void) sigaction(SIGHUP, &sa, NULL);
	(void) sigaction(SIGPIPE, &sa, NULL);

	get_bufsizes(sizes);
	/*
	 * A signal that ends dtrace waits until tracing is on: attaching
	 * and placing probes in a process must not stop half-way (a system
	 * call injected into it, say), and once on, stopping undoes it all.
	 */
	sigemptyset(&ending);
	sigaddset(&ending, SIGINT);
	sigaddset(&ending, SIGTERM);
	sigaddset(&ending, SIGHUP);
	(void) sigprocmask(SIG_BLOCK, &ending, NULL);
	if (dtrace_go(g_dtp) != 0)
		dfatal("could not enable tracing");
	/* (and those that came while a guarded child grabbed processes) */
	(void) sigprocmask(SIG_UNBLOCK, &ending, NULL);
	report_lowered(sizes);
	/* Even under -q: with port 0 this is the only way to know it. */
	if (dtrace_metrics_address(g_dtp) != NULL)
		fprintf(stderr, "%s: metrics at http://%s/metrics\n", g_pname,
		    dtrace_metrics_address(g_dtp));
	/*
	 * As DTrace says it: once tracing has started, after the programs'
	 * banners, unless quiet by -q or the programs' own quiet pragma.
	 */
	(void) dtrace_getopt(g_dtp, "quiet", &q);
	if (!g_quiet && q == DTRACEOPT_UNSET &&
	    dtrace_getopt(g_dtp, "destructive", &w) == 0 &&
	    w != DTRACEOPT_UNSET)
		fprintf(stderr, "%s: allowing destructive actions\n", g_pname);
	if (dtrace_engine_notice(g_dtp) != NULL)
		fprintf(stderr, "%s: %s\n", g_pname,
		    dtrace_engine_notice(g_dtp));
	if (dtrace_proc_continue(g_dtp) != 0)
		dfatal("could not start the traced processes");

	while (!done) {
		bool stop = g_intr;

		if (!g_intr)
			dtrace_sleep(g_dtp);
		/* With -c or -p, tracing ends when the last process has. */
		if (g_ncmds + g_npids > 0 &&
		    dtrace_proc_reap(g_dtp, proc_ended, NULL) == 0)
			stop = true;
		if ((stop || g_intr) && dtrace_stop(g_dtp) != 0)
			dfatal("couldn't stop tracing");
		switch (dtrace_work(g_dtp, g_ofp)) {
		case DTRACE_WORKSTATUS_DONE:
			done = 1;
			break;
		case DTRACE_WORKSTATUS_OKAY:
			break;
		default:
			if (ferror(g_ofp))
				output_failed(output_errno());
			dfatal("processing aborted");
		}
		flush_output();
	}
	if (dtrace_aggregate_print(g_dtp, g_ofp) != 0) {
		if (ferror(g_ofp))
			output_failed(output_errno());
		dfatal("failed to print aggregations");
	}
	if (dtrace_exit_status(g_dtp, &status) == 0)
		status = E_SUCCESS;
	flush_output();
	return status;
}

/*
 * -h and -G: the header or object of the scripts' provider definitions,
 * named by -o or, as DTrace names it, in the current directory after the
 * first script (dir/probes.d: probes.h, probes.o).  Without a script
 * named *.d, -G writes d.out and -h needs -o.
 */
static int
generate(void)
{
	const char *ext = g_mode == DMODE_HEADER ? ".h" : ".o";
	char *name = NULL;
	const char *out = g_ofile;
	int rc;

	if (out == NULL) {
		const char *s = g_progs[0].pa_opt == 's' ? g_progs[0].pa_arg : "";
		const char *base = strrchr(s, '/') ? strrchr(s, '/') + 1 : s;
		size_t len = strlen(base);

		if (len > 2 && strcmp(base + len - 2, ".d") == 0) {
			len -= 2;
			name = xrealloc(NULL, len + 3);
			memcpy(name, base, len);
			strcpy(name + len, ext);
			out = name;
		} else if (g_mode == DMODE_HEADER) {
			fatal(E_USAGE, "-h requires an output file (-o) when "
			    "no script named *.d is given");
		} else {
			out = "d.out";
		}
	}
	if (g_mode == DMODE_HEADER) {
		FILE *fp = fopen(out, "w");

		if (fp == NULL)
			fatal(E_ERROR, "failed to open output file '%s': %s",
			    out, strerror(errno));
		rc = dtrace_program_header(g_dtp, fp, out);
		if (fclose(fp) != 0 && rc == 0)
			fatal(E_ERROR, "failed to write header file '%s': %s",
			    out, strerror(errno));
		if (rc != 0)
			dfatal("failed to create header file %s", out);
	} else {
		for (int i = 0; i < g_macro_argc; i++) {
			if (access(g_macro_argv[i], R_OK) != 0)
				fatal(E_ERROR, "failed to open %s: %s",
				    g_macro_argv[i], strerror(errno));
		}
		if (dtrace_program_link(g_dtp, out, g_macro_argc,
		    (char *const *) g_macro_argv) != 0)
			dfatal("failed to link %s", out);
	}
	free(name);
	free_programs();
	dtrace_close(g_dtp);
	return E_SUCCESS;
}

int
main(int argc, char **argv)
{
	dtrace_optval_t opt = DTRACEOPT_UNSET;
	int err, status;

	if (argc > 0 && argv[0] != NULL) {
		const char *slash = strrchr(argv[0], '/');

		g_pname = slash != NULL ? slash + 1 : argv[0];
		g_argv0 = argv[0];
	}

	/* As DTrace, the usage is for a dtrace given nothing at all. */
	if (argc == 1) {
		usage(stderr);
		return E_USAGE;
	}
	parse_args(argc, argv);

	if (g_version) {
		printf("%s: %s\n", g_pname, dtrace_version());
		return E_SUCCESS;
	}
	check_combination();

	if ((g_dtp = dtrace_open(DTRACE_VERSION,
		 g_datamodel ? g_datamodel : DTRACE_O_LP64, &err)) == NULL)
		fatal(E_ERROR, "failed to initialize dtrace: %s",
		    dtrace_errmsg(NULL, err));
	apply_settings();
	check_modes_available();
	/* -l lists what descriptions match: matching nothing is no error. */
	if (g_mode == DMODE_LIST && dtrace_setopt(g_dtp, "zdefs", NULL) != 0)
		dfatal("failed to set -Z");

	/*
	 * As DTrace: tracing output is appended to the -o file, opened on
	 * its own, so that -c commands still write to dtrace's stdout.  An
	 * output format of files (-x oformat=pprof) names its files after
	 * it instead, and the text goes to stdout.
	 */
	g_ofp = stdout;
	if (g_ofile != NULL && g_mode == DMODE_EXEC &&
	    dtrace_output_file(g_dtp, g_ofile) != 0)
		dfatal("failed to set the output file");
	if (g_ofile != NULL && g_mode == DMODE_EXEC) {
		g_ofile_made = access(g_ofile, F_OK) != 0;
		if (!dtrace_output_is_files(g_dtp) &&
		    (g_ofp = fopen(g_ofile, "a")) == NULL)
			fatal(E_ERROR, "failed to open output file '%s': %s",
			    g_ofile, strerror(errno));
	}

	/*
	 * Processes are traced from a child, so that no signal to the
	 * dtrace the user started leaves them broken (dtrace_guard.c).
	 */
	if (g_mode == DMODE_EXEC && !g_compile_only && g_ncmds + g_npids > 0)
		guard_fork();
	grab_processes();
	compile_programs();
	/*
	 * A program's pragma chose a format of files: the -o file opened
	 * for text is not wanted, nor left behind empty if we made it.
	 */
	if (g_ofp != stdout && dtrace_output_is_files(g_dtp)) {
		(void) fclose(g_ofp);
		if (g_ofile_made)
			(void) unlink(g_ofile);
		g_ofp = stdout;
	}
	/* -x verbose is -S's option, as in DTrace (it may come from a pragma). */
	if (dtrace_getopt(g_dtp, "verbose", &opt) == 0 && opt != DTRACEOPT_UNSET)
		g_difv = true;
	/* -x tree: the checked parse tree of each program, on stderr. */
	if (dtrace_getopt(g_dtp, "tree", &opt) == 0 && opt != DTRACEOPT_UNSET) {
		for (int i = 0; i < g_nprogs; i++)
			dtrace_program_dump(g_dtp, g_compiled[i], stderr);
	}
	if (g_difv) {
		for (int i = 0; i < g_nprogs; i++)
			dtrace_program_dif(g_dtp, g_compiled[i], stderr);
	}
	if (g_mode == DMODE_LIST) {
		if (dtrace_probe_list(g_dtp, g_compiled, g_nprogs, g_verbose,
			stdout, list_nomatch, NULL) < 0) {
			if (ferror(stdout))
				output_failed(output_errno());
			dfatal("failed to list probes");
		}
		/* A listing is output too: a full disk is said, not hidden. */
		if (fflush(stdout) == EOF)
			output_failed(errno);
		if (ferror(stdout))
			output_failed(output_errno());
	}
	if (g_mode == DMODE_HEADER || g_mode == DMODE_LINK)
		return generate();
	/* -e -v: the stability report of what would have been enabled. */
	if (g_compile_only && g_mode == DMODE_EXEC && g_verbose) {
		for (int i = 0; i < g_nprogs; i++) {
			dtrace_proginfo_t info;

			if (dtrace_program_info(g_dtp, g_compiled[i], &info) !=
			    0)
				dfatal("failed to get information on '%s'",
				    g_progs[i].pa_arg);
			print_report(&g_progs[i], &info);
		}
	}
	if (g_compile_only || g_mode == DMODE_LIST) {
		free_programs();
		dtrace_close(g_dtp);
		return E_SUCCESS;
	}
	status = run_programs();
	free_programs();
	dtrace_close(g_dtp);
	if (dtrace_proc_lingering())
		guard_linger(status);
	return status;
}
