/* SPDX-License-Identifier: MIT */
/*
 * dt_cc.c: the compile API -- dtrace_program_strcompile() and
 * dtrace_program_fcompile() -- with the C preprocessor, error reporting
 * and the per-handle compiler state.
 *
 * A compile runs in a parse control block (dt_pcb_t) on the stack.  Errors
 * anywhere (lexer, grammar, declarations, cooking) go through
 * dt_cc_error(), which formats DTrace's message into cc_errmsg and
 * longjmps back here; the compile then frees its nodes and declarations,
 * removes the identifiers, translators and providers it created and rolls
 * the CTF dictionary back to its snapshot, so a failed compile leaves the
 * handle as it found it.
 *
 * The message format is DTrace's:
 *
 *	[D_TAG] "file", line N: message	(-x errtags; after #line "file")
 *	line N: message			(programs from files)
 *	message				(programs from strings: -n, -P ...)
 *
 * and dtrace(1) prefixes "failed to compile script X: " or "invalid probe
 * specifier X: ".
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/compiler/dt_cc.h"
#include "common/compiler/dt_cg.h"
#include "common/dt_os.h"
#include "common/probe/dt_probe.h"
#include "common/dif/dif.h"

extern char **environ;

#define DT_ERRTAG_NAME(name) #name,
static const char *const dt_errtag_names[] = {
	DT_ERRTAG_LIST(DT_ERRTAG_NAME)
};

const char *
dt_errtag(dt_errtag_t tag)
{
	if ((unsigned) tag < D_NTAGS)
		return dt_errtag_names[tag];
	return "D_UNKNOWN";
}

/*
 * esc: the arguments' text is escaped (always, but for a message that
 * was escaped when it was made: dt_cc_nerror_made()).
 */
static void __attribute__((noreturn))
dt_cc_verror(dt_pcb_t *pcb, int line, dt_errtag_t tag, bool esc,
    const char *fmt, va_list ap)
{
	dt_cc_t *cc = pcb->pcb_cc;
	char *s = cc->cc_errmsg;
	size_t n = sizeof (cc->cc_errmsg), len;

	s[0] = '\0';
	/*
	 * A negative line: a limit of the implementation rather than of the
	 * program's text, which DTrace reports as a library error -- no
	 * tag, no line.
	 */
	if ((pcb->pcb_cflags & DTRACE_C_ETAGS) && line >= 0)
		snprintf(s, n, "[%s] ", dt_errtag(tag));
	len = strlen(s);
	if (line < 0)
		;
	else if (pcb->pcb_filetag != NULL) {
		char tag[256];

		(void) dt_strescape(tag, sizeof (tag), pcb->pcb_filetag,
		    strlen(pcb->pcb_filetag), NULL);
		snprintf(s + len, n - len, "\"%s\", line %d: ", tag, line);
	} else if (pcb->pcb_fileptr != NULL && line != 0)
		snprintf(s + len, n - len, "line %d: ", line);
	else if (pcb->pcb_region != NULL)
		snprintf(s + len, n - len, "in %s: ", pcb->pcb_region);
	len = strlen(s);
	/*
	 * The text a message quotes from the program is escaped: a NUL in
	 * it would end the message, a raw byte reach the terminal.
	 */
	if (esc) {
		len += dt_msg_vformat(s + len, n - len, fmt, ap);
	} else {
		(void) vsnprintf(s + len, n - len, fmt, ap);
		len = strlen(s);
	}
	while (len > 0 && s[len - 1] == '\n')
		s[--len] = '\0';
	cc->cc_errtag = dt_errtag(tag);
	longjmp(pcb->pcb_jmpbuf, EDT_COMPILER);
}

void
dt_cc_error(dt_pcb_t *pcb, dt_errtag_t tag, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	dt_cc_verror(pcb, pcb->pcb_line, tag, true, fmt, ap);
}

/* An error at a given line (code generation reports lines, not nodes). */
static void __attribute__((noreturn, format(printf, 4, 5)))
dt_cc_lerror(dt_pcb_t *pcb, int line, dt_errtag_t tag, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	dt_cc_verror(pcb, line, tag, true, fmt, ap);
}

void
dt_cc_nomatch(dt_pcb_t *pcb, int line, const dt_probedesc_t *pdp)
{
	dtrace_hdl_t *dtp = pcb->pcb_hdl;

	/* A provider that knows why (a function a process lacks) says so. */
	for (dt_provider_t *pvp = dtp->dt_provs; pvp != NULL;
	    pvp = pvp->pv_next) {
		const char *fam = pvp->pv_ops->po_family;
		char msg[256];
		int tag;

		if (pvp->pv_ops->po_nomatch == NULL ||
		    (strcmp(pvp->pv_name, pdp->pd_provider) != 0 &&
		    (fam == NULL || strncmp(pdp->pd_provider, fam,
		    strlen(fam)) != 0)))
			continue;
		if ((tag = pvp->pv_ops->po_nomatch(dtp, pvp, pdp, msg,
		    sizeof (msg))) >= 0)
			dt_cc_lerror(pcb, line, (dt_errtag_t) tag, "%s", msg);
	}
	dtp->dt_errhint = dt_os_provider_hint(pdp->pd_provider);
	dt_cc_lerror(pcb, line, D_PDESC_ZERO, "probe description %s:%s:%s:%s "
	    "does not match any probes", pdp->pd_provider, pdp->pd_module,
	    pdp->pd_function, pdp->pd_name);
}

void
dt_cc_nerror(dt_pcb_t *pcb, const dt_node_t *dnp, dt_errtag_t tag,
    const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	dt_cc_verror(pcb, dnp != NULL && dnp->dn_line != 0 ? dnp->dn_line :
	    pcb->pcb_line, tag, true, fmt, ap);
}

static void __attribute__((noreturn, format(printf, 4, 5)))
dt_cc_rawerror(dt_pcb_t *pcb, int line, dt_errtag_t tag, const char *fmt,
    ...)
{
	va_list ap;

	va_start(ap, fmt);
	dt_cc_verror(pcb, line, tag, false, fmt, ap);
}

void
dt_cc_nerror_made(dt_pcb_t *pcb, const dt_node_t *dnp, dt_errtag_t tag,
    const char *msg)
{
	dt_cc_rawerror(pcb, dnp != NULL && dnp->dn_line != 0 ? dnp->dn_line :
	    pcb->pcb_line, tag, "%s", msg);
}

/*
 * Syntax errors.  The parser's own "syntax error" gets the token it
 * stopped at appended, as DTrace does (up to its first newline, escaped:
 * the token is the lexer's, whose length counts a NUL in a string); the
 * lexer's messages are complete.
 */
void
dt_cc_syntax(dt_pcb_t *pcb, const char *yytext, const char *msg)
{
	char near[256];

	if (msg == NULL || strcmp(msg, "syntax error") == 0) {
		size_t len = yytext == NULL ? 0 : yytext == dt_lex_text(pcb) ?
		    dt_lex_textlen(pcb) : strlen(yytext);
		const char *nl = len == 0 ? NULL : memchr(yytext, '\n', len);

		if (len == 0)
			dt_cc_error(pcb, D_SYNTAX,
			    "syntax error near end of input");
		if (yytext[0] == '\n')
			dt_cc_error(pcb, D_SYNTAX,
			    "syntax error near end of line");
		(void) dt_strescape(near, sizeof (near), yytext,
		    nl != NULL ? (size_t) (nl - yytext) : len, NULL);
		dt_cc_error(pcb, D_SYNTAX, "syntax error near \"%s\"", near);
	}
	if (strcmp(msg, "memory exhausted") == 0)
		dt_cc_error(pcb, D_SYNTAX, "program too deeply nested");
	dt_cc_error(pcb, D_SYNTAX, "%s", msg);
}

void
dt_cc_nomem(dt_pcb_t *pcb)
{
	snprintf(pcb->pcb_cc->cc_errmsg, sizeof (pcb->pcb_cc->cc_errmsg),
	    "%s", "Memory allocation failure");
	longjmp(pcb->pcb_jmpbuf, EDT_NOMEM);
}

/* Allocations that live as long as the compile (or its program). */
void *
dt_cc_zalloc(dt_pcb_t *pcb, size_t size)
{
	void *p = calloc(1, size ? size : 1);

	if (p == NULL)
		dt_cc_nomem(pcb);
	if (pcb->pcb_nstrs == pcb->pcb_maxstrs) {
		size_t n = pcb->pcb_maxstrs ? pcb->pcb_maxstrs * 2 : 64;
		char **v = realloc(pcb->pcb_strs, n * sizeof (char *));

		if (v == NULL) {
			free(p);
			dt_cc_nomem(pcb);
		}
		pcb->pcb_strs = v;
		pcb->pcb_maxstrs = n;
	}
	pcb->pcb_strs[pcb->pcb_nstrs++] = p;
	return p;
}

char *
dt_cc_strndup(dt_pcb_t *pcb, const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = dt_cc_zalloc(pcb, len + 1);

	memcpy(p, s, len);
	return p;
}

char *
dt_cc_strdup(dt_pcb_t *pcb, const char *s)
{
	return dt_cc_strndup(pcb, s, strlen(s));
}

/*
 * Memory a successful compile keeps: its nodes and strings stay with the
 * handle, since later programs may use its inlines and translators.
 */
typedef struct dt_keep {
	dt_node_t *k_nodes;
	char **k_strs;
	size_t k_nstrs;
	struct dt_keep *k_next;
} dt_keep_t;

static void
dt_keep_free(dt_keep_t *k)
{
	dt_keep_t *next;

	for (; k != NULL; k = next) {
		next = k->k_next;
		dt_node_free_list(k->k_nodes);
		for (size_t i = 0; i < k->k_nstrs; i++)
			free(k->k_strs[i]);
		free(k->k_strs);
		free(k);
	}
}

/* The types D programs see without declaring them. */
static const char dt_prelude[] =
	"struct task_struct;\n"
	/* curcpu: filled by the engines from dt_os_cpuinfo() (dt_os.h) */
	"typedef struct processor_info {\n"
	"	int pi_state; char pi_processor_type[16];\n"
	"	char pi_fputypes[32]; int pi_clock;\n"
	"} processor_info_t;\n"
	"typedef struct cpuinfo {\n"
	"	processorid_t cpu_id; psetid_t cpu_pset; chipid_t cpu_chip;\n"
	"	lgrp_id_t cpu_lgrp; processor_info_t cpu_info;\n"
	"} cpuinfo_t;\n"
	"typedef struct psinfo {\n"
	"	int pr_flag; int pr_nlwp; pid_t pr_pid; pid_t pr_ppid;\n"
	"	pid_t pr_pgid; pid_t pr_sid; uid_t pr_uid; uid_t pr_euid;\n"
	"	gid_t pr_gid; gid_t pr_egid; uintptr_t pr_addr;\n"
	"	size_t pr_size; size_t pr_rssize; dev_t pr_ttydev;\n"
	"	char pr_fname[16]; char pr_psargs[80]; int pr_wstat;\n"
	"	int pr_argc; uintptr_t pr_argv; uintptr_t pr_envp;\n"
	"	char pr_dmodel; taskid_t pr_taskid; projid_t pr_projid;\n"
	"	int pr_nzomb; poolid_t pr_poolid; zoneid_t pr_zoneid;\n"
	"	ctid_t pr_contract;\n"
	"} psinfo_t;\n"
	"typedef struct lwpsinfo {\n"
	"	int pr_flag; id_t pr_lwpid; uintptr_t pr_addr;\n"
	"	uintptr_t pr_wchan; char pr_stype; char pr_state;\n"
	"	char pr_sname; char pr_nice; short pr_syscall;\n"
	"	char pr_oldpri; char pr_cpu; int pr_pri; ushort_t pr_pctcpu;\n"
	"	char pr_clname[8]; char pr_name[16]; processorid_t pr_onpro;\n"
	"	processorid_t pr_bindpro; psetid_t pr_bindpset;\n"
	"} lwpsinfo_t;\n"
	/* DTrace's null pointer: strtok(NULL, ","), x == NULL. */
	"enum { NULL = 0 };\n";

/*
 * The prelude with the processor's uregs[] names (dt_os_regname()) after
 * its types: integer inlines, as DTrace declares them, which uregs[]
 * takes.  Returns malloc'd text, or NULL.
 */
static char *
dt_prelude_text(void)
{
	size_t len = sizeof (dt_prelude), n;
	const char *name;
	char *text, *p;
	int index;

	for (unsigned i = 0; (name = dt_os_regname(i, &index)) != NULL; i++)
		len += strlen(name) + 32;
	if ((text = malloc(len)) == NULL)
		return NULL;
	p = text + snprintf(text, len, "%s", dt_prelude);
	for (unsigned i = 0; (name = dt_os_regname(i, &index)) != NULL; i++) {
		n = (size_t) snprintf(p, len - (size_t) (p - text),
		    "inline int %s = %d;\n", name, index);
		p += n;
	}
	return text;
}

static dtrace_prog_t *dt_compile(dtrace_hdl_t *dtp, const char *text,
    size_t len, bool isfile, dtrace_probespec_t spec, unsigned cflags,
    int argc, char *const argv[]);

int
dt_cc_create(dtrace_hdl_t *dtp)
{
	dt_cc_t *cc = calloc(1, sizeof (*cc));
	dtrace_prog_t *pgp;
	char *text;

	if (cc == NULL)
		return -1;
	cc->cc_hdl = dtp;
	cc->cc_maxdepth = 1000;	/* the prelude is compiled on our stack */
	dtp->dt_cc = cc;
	if (dt_type_init(cc) != 0 || dt_ident_init(cc) != 0) {
		dt_cc_destroy(dtp);
		return -1;
	}
	/*
	 * The prelude's types are permanent: generation 0.  It needs no
	 * kernel types, and must not load them: -x btfpath is not set yet.
	 */
	cc->cc_noktypes = true;
	if ((text = dt_prelude_text()) == NULL) {
		dt_cc_destroy(dtp);
		return dt_set_errno(dtp, EDT_NOMEM);
	}
	pgp = dt_compile(dtp, text, strlen(text), false,
	    DTRACE_PROBESPEC_NAME, DTRACE_C_EMPTY | DTRACE_C_ARGREF, 0, NULL);
	free(text);
	if (pgp == NULL || dt_ident_types(cc) != 0) {
		dt_cc_destroy(dtp);
		return -1;
	}
	cc->cc_noktypes = false;
	dtrace_program_destroy(dtp, pgp);
	cc->cc_errmsg[0] = '\0';
	return 0;
}

void
dt_cc_destroy(dtrace_hdl_t *dtp)
{
	dt_cc_t *cc = dtp->dt_cc;
	dt_xlator_t *dxp, *dnext;
	dt_provdecl_t *pvp, *pnext;

	if (cc == NULL)
		return;
	for (dxp = cc->cc_xlators; dxp != NULL; dxp = dnext) {
		dnext = dxp->dx_next;
		free(dxp->dx_argid->di_name);
		free(dxp->dx_argid);
		free(dxp->dx_arg);
		free(dxp);
	}
	for (pvp = cc->cc_providers; pvp != NULL; pvp = pnext) {
		pnext = pvp->pv_next;
		dt_provdecl_free(pvp);
	}
	if (cc->cc_macros != NULL) {
		dt_ident_t *idp;

		if ((idp = dt_idhash_lookup(cc->cc_macros, "cwd")) != NULL)
			free(idp->di_data);
		if ((idp = dt_idhash_lookup(cc->cc_macros, "zonename")) != NULL)
			free(idp->di_data);
	}
	for (size_t i = 0; i < cc->cc_nlibs; i++)
		free(cc->cc_libnames[i]);
	free(cc->cc_libnames);
	dt_lib_names_free(cc);
	dt_idhash_destroy(cc->cc_globals);
	dt_idhash_destroy(cc->cc_tls);
	dt_idhash_destroy(cc->cc_aggs);
	dt_idhash_destroy(cc->cc_macros);
	dt_keep_free((dt_keep_t *) cc->cc_keep);
	for (size_t i = 0; i < cc->cc_ncpp; i++)
		free(cc->cc_cpp[i]);
	free(cc->cc_cpp);
	dt_type_fini(cc);
	free(cc);
	dtp->dt_cc = NULL;
}

/* Undo what a failed compile of generation gen added to the handle. */
static void
dt_cc_rollback(dt_cc_t *cc, unsigned gen, ctf_snapshot_id_t snap)
{
	dt_xlator_t **xpp = &cc->cc_xlators, *dxp;
	dt_provdecl_t **ppp = &cc->cc_providers, *pvp;

	dt_idhash_rollback(cc->cc_globals, gen);
	dt_idhash_rollback(cc->cc_tls, gen);
	dt_idhash_rollback(cc->cc_aggs, gen);
	while ((dxp = *xpp) != NULL) {
		if (dxp->dx_gen == gen) {
			*xpp = dxp->dx_next;
			free(dxp->dx_argid->di_name);
			free(dxp->dx_argid);
			free(dxp->dx_arg);
			free(dxp);
		} else
			xpp = &dxp->dx_next;
	}
	while ((pvp = *ppp) != NULL) {
		if (pvp->pv_gen == gen) {
			*ppp = pvp->pv_next;
			dt_provdecl_free(pvp);
		} else
			ppp = &pvp->pv_next;
	}
	/*
	 * Identifiers of earlier compiles may have been given types or
	 * signatures by this one: forget those too.
	 */
	for (int t = 0; t < 3; t++) {
		dt_idhash_t *dhp = t == 0 ? cc->cc_globals : t == 1 ?
		    cc->cc_tls : cc->cc_aggs;

		for (unsigned i = 0; i < dhp->dh_nbuckets; i++) {
			for (dt_ident_t *idp = dhp->dh_buckets[i]; idp != NULL;
			    idp = idp->di_next) {
				if (idp->di_typegen == gen) {
					idp->di_ctfp = NULL;
					idp->di_type = CTF_ERR;
				}
				if (idp->di_kind == DT_IDENT_AGG &&
				    idp->di_aggfirst != NULL &&
				    idp->di_agggen == gen) {
					idp->di_aggfirst = NULL;
					idp->di_aggfunc = NULL;
				}
			}
		}
	}
	ctf_rollback(cc->cc_ctf, snap);
}

/*
 * Run the C preprocessor over the program text: the text goes in on a
 * temporary file, the output comes back on a pipe, the preprocessor's own
 * messages go straight to our stderr.
 */
static char *
dt_cc_preproc(dtrace_hdl_t *dtp, const char *text, size_t len,
    size_t *outlen)
{
	dt_cc_t *cc = dtp->dt_cc;
	const char *cpp = dtp->dt_optstr[DT_OPT_CPPPATH] ?
	    dtp->dt_optstr[DT_OPT_CPPPATH] : "cpp";
	char *args[64 + 16];
	char ver[64];
	posix_spawn_file_actions_t fa;
	int pfd[2], status;
	FILE *in;
	pid_t pid;
	char *out = NULL;
	size_t cap = 0, n = 0;
	int nargs = 0;
	ssize_t r;

	if ((in = tmpfile()) == NULL)
		return NULL;
	/* A #! line is not for cpp; keep its line for numbering. */
	if (len >= 2 && text[0] == '#' && text[1] == '!') {
		size_t skip = strcspn(text, "\n");

		text += skip;
		len -= skip;
	}
	if (fwrite(text, 1, len, in) != len || fflush(in) != 0 ||
	    fseek(in, 0, SEEK_SET) != 0) {
		fclose(in);
		return NULL;
	}
	/* The version a program asked for with -x version, else ours. */
	snprintf(ver, sizeof (ver), "-D__SUNW_D_VERSION=0x%08llx",
	    dtp->dt_options[DT_OPT_VERSION] != DTRACEOPT_UNSET ?
	    (unsigned long long) dtp->dt_options[DT_OPT_VERSION] :
	    0x01000d00ULL);
	/* As DTrace, the preprocessor sees its own name as argv[0]. */
	args[nargs++] = strrchr(cpp, '/') != NULL ? strrchr(cpp, '/') + 1 :
	    (char *) cpp;
	args[nargs++] = "-D__SUNW_D=1";
	args[nargs++] = (dtp->dt_oflags & DTRACE_O_ILP32) ? "-D__SUNW_D_32" :
	    "-D__SUNW_D_64";
	args[nargs++] = ver;
	/* The OS backend's own, as its C compiler predefines them. */
	for (size_t i = 0; dt_os_cpp_defines[i] != NULL && nargs < 32; i++)
		args[nargs++] = (char *) dt_os_cpp_defines[i];
	args[nargs++] = "-x";
	args[nargs++] = "c";
	/*
	 * Headers then take D for a C compiler other than GCC: without
	 * __GNUC__, glibc defines __attribute__, __extension__, __asm__ and
	 * the like away and declares only what a plain C compiler parses.
	 */
	args[nargs++] = "-U__GNUC__";
	/*
	 * The kernel's headers assume GCC whatever it says: its spellings
	 * of signed and of attributes mean nothing more to D.
	 */
	args[nargs++] = "-D__signed__=signed";
	args[nargs++] = "-D__attribute__(x)=";
	args[nargs++] = "-D__extension__=";
	/*
	 * -Xs is K&R C, where __STDC__ is not defined; -Xt is ISO C with K&R
	 * extensions, where it is (GNU cpp cannot give it DTrace's 0).
	 */
	if (dtp->dt_options[DT_OPT_STDC] == 2)	/* -Xs */
		args[nargs++] = "-traditional-cpp";
	else if (dtp->dt_options[DT_OPT_STDC] == 1)	/* -Xc */
		args[nargs++] = "-std=c99";
	if (dtp->dt_options[DT_OPT_CPPHDRS] == 1)
		args[nargs++] = "-H";
	for (size_t i = 0; i < cc->cc_ncpp && nargs < 64 + 10; i++)
		args[nargs++] = cc->cc_cpp[i];
	/*
	 * cpp's messages as DTrace's users see them: "/dev/stdin:17: error:
	 * ...", the program's line without a column or a quote of the text.
	 */
	args[nargs++] = "-fno-show-column";
	args[nargs++] = "-fno-diagnostics-show-caret";
	args[nargs++] = "/dev/stdin";
	args[nargs] = NULL;

	if (pipe(pfd) != 0) {
		fclose(in);
		return NULL;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fileno(in), 0);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
	posix_spawn_file_actions_addclose(&fa, pfd[0]);
	if (posix_spawnp(&pid, cpp, &fa, NULL, args, environ) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		close(pfd[0]);
		close(pfd[1]);
		fclose(in);
		return NULL;
	}
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	fclose(in);
	for (;;) {
		if (n + 4096 + 1 > cap) {
			char *p = realloc(out, cap = cap * 2 + 8192);

			if (p == NULL)
				break;
			out = p;
		}
		if ((r = read(pfd[0], out + n, cap - n - 1)) <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			break;
		}
		n += (size_t) r;
	}
	close(pfd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		continue;
	if (out == NULL || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		free(out);
		return NULL;
	}
	out[n] = '\0';
	*outlen = n;
	return out;
}

/*
 * Whether a line of cpp output is a line marker ("# 33 "file" 3"); if so,
 * *fromp and *fromlen are set to the file name it gives.
 */
static bool
dt_cc_linemarker(const char *p, const char *end, const char **fromp,
    size_t *fromlen)
{
	const char *q;

	if (p >= end || *p != '#')
		return false;
	for (p++; p < end && (*p == ' ' || *p == '\t'); p++)
		continue;
	if (p >= end || *p < '0' || *p > '9')
		return false;
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	while (p < end && *p == ' ')
		p++;
	if (p >= end || *p != '"')
		return false;
	for (q = ++p; q < end && *q != '"' && *q != '\n'; q++)
		continue;
	*fromp = p;
	*fromlen = (size_t) (q - p);
	return true;
}

/*
 * Blank out the C function definitions of included files, keeping their
 * newlines so that line numbers stay right.  D can declare what a C
 * header declares, but not define functions, and system headers (glibc's
 * <endian.h>, for one) define inline functions beside the types and
 * macros a D program includes them for.  In an included file no D clause
 * can appear, so a "{" right after a ")" at the outermost level opens a
 * function body: the definition, from the end of the previous
 * declaration to the matching "}", goes.
 */
static void
dt_cc_strip_cfuncs(char *text, size_t len)
{
	char *end = text + len, *p = text, *decl = text;
	const char *top = NULL, *from;
	size_t toplen = 0, fromlen;
	bool included = false, bol = true;
	char last = 0;

	while (p < end) {
		if (bol && dt_cc_linemarker(p, end, &from, &fromlen)) {
			if (top == NULL) {
				top = from;
				toplen = fromlen;
			}
			included = fromlen != toplen ||
			    strncmp(from, top, toplen) != 0;
			p = memchr(p, '\n', (size_t) (end - p));
			p = p == NULL ? end : p + 1;
			decl = p;
			last = 0;
			continue;
		}
		bol = *p == '\n';
		if (!included || *p == ' ' || *p == '\t' || *p == '\n') {
			p++;
			continue;
		}
		if (*p == '"' || *p == '\'') {
			char q = *p++;

			while (p < end && *p != q && *p != '\n')
				p += (*p == '\\' && p + 1 < end) ? 2 : 1;
			p += p < end && *p == q;
			last = q;
			continue;
		}
		if (*p == '{' && last == ')') {
			int depth = 0;
			char *q;

			for (q = p; q < end; q++) {
				if (*q == '{')
					depth++;
				else if (*q == '}' && --depth == 0)
					break;
			}
			q = q < end ? q + 1 : end;
			for (char *r = decl; r < q; r++) {
				if (*r != '\n')
					*r = ' ';
			}
			p = decl = q;
			bol = false;
			last = '}';
			continue;
		}
		if (*p == '{') {
			/* A struct, union or enum body: skip over it whole. */
			int depth = 0;

			for (; p < end; p++) {
				if (*p == '\n')
					bol = true;
				else if (*p == '{')
					depth++;
				else if (*p == '}' && --depth == 0)
					break;
			}
			p += p < end;
			bol = false;
			last = '}';
			continue;
		}
		last = *p++;
		if (last == ';')
			decl = p;
	}
}

/*
 * glibc's <errno.h> (which <sys/errno.h> includes) makes errno a macro
 * for (*__errno_location ()), a C function D cannot call; a D program
 * including it for the E* names means D's own errno variable, as it does
 * on systems whose <sys/errno.h> gives only the names.  The expansion is
 * put back, padded with spaces so that columns stay where they were.
 */
static void
dt_cc_unexpand_errno(char *text)
{
	static const char expansion[] = "(*__errno_location ())";
	char *p = text, *end = text + strlen(text);

	/*
	 * memmem() over the rest, not strstr(): AddressSanitizer's strstr()
	 * measures the whole rest of the text at each call, quadratic in
	 * the number of matches.
	 */
	while ((p = memmem(p, (size_t) (end - p), expansion,
	    sizeof (expansion) - 1)) != NULL) {
		memcpy(p, "errno", 5);
		memset(p + 5, ' ', sizeof (expansion) - 1 - 5);
		p += sizeof (expansion) - 1;
	}
}

/* Program options that are compile flags. */
static unsigned
dt_cc_optflags(dtrace_hdl_t *dtp)
{
	unsigned f = 0;

	if (dtp->dt_options[DT_OPT_ERRTAGS] == 1)
		f |= DTRACE_C_ETAGS;
	if (dtp->dt_options[DT_OPT_DEFAULTARGS] == 1)
		f |= DTRACE_C_DEFARG;
	if (dtp->dt_options[DT_OPT_ARGREF] == 1)
		f |= DTRACE_C_ARGREF;
	if (dtp->dt_options[DT_OPT_CPP] == 1)
		f |= DTRACE_C_CPP;
	if (dtp->dt_options[DT_OPT_ZDEFS] == 1)
		f |= DTRACE_C_ZDEFS;
	if (dtp->dt_options[DT_OPT_PSPEC] == 1)
		f |= DTRACE_C_PSPEC;
	if (dtp->dt_options[DT_OPT_EMPTY] == 1)
		f |= DTRACE_C_EMPTY;
	return f;
}

static dtrace_prog_t *
dt_compile(dtrace_hdl_t *dtp, const char *intext, size_t inlen, bool isfile,
    dtrace_probespec_t spec, unsigned cflags, int argc, char *const argv[])
{
	dt_cc_t *cc = dtp->dt_cc;
	dt_pcb_t pcb;
	dtrace_prog_t *volatile pgp = NULL;
	char *volatile cpptext = NULL;
	const char *volatile text = intext;
	volatile size_t len = inlen;
	ctf_snapshot_id_t snap;
	bool *volatile flags = NULL;
	dt_program_t *volatile program = NULL;
	unsigned gen;
	int err;

	if (cc->cc_pcb != NULL) {
		dt_set_errno(dtp, EDT_COMPILER);
		snprintf(cc->cc_errmsg, sizeof (cc->cc_errmsg),
		    "compiler is already in use");
		return NULL;
	}
	/*
	 * The D library files come before the first program that may use
	 * them (dt_lib_need.c).
	 */
	if (!cc->cc_noktypes && !cc->cc_libs_loaded && !cc->cc_inlib &&
	    !(cflags & DTRACE_C_NOLIBS) &&
	    dtp->dt_options[DT_OPT_NOLIBS] == DTRACEOPT_UNSET &&
	    dt_lib_needed(dtp, intext, inlen, cflags | dt_cc_optflags(dtp),
	    argc, argv) && dt_lib_load(dtp) != 0)
		return NULL;
	/*
	 * The library files were compiled with every built-in, as DTrace
	 * compiles them before any option; the programs see only those of
	 * the D version they ask for (-x version).
	 */
	if (!cc->cc_noktypes && !cc->cc_inlib && !cc->cc_programs) {
		cc->cc_programs = true;
		if (dtp->dt_options[DT_OPT_VERSION] != DTRACEOPT_UNSET)
			dt_ident_reduce(cc, dtp->dt_options[DT_OPT_VERSION]);
	}
	memset(&pcb, 0, sizeof (pcb));
	pcb.pcb_cc = cc;
	pcb.pcb_hdl = dtp;
	pcb.pcb_pspec = spec;
	pcb.pcb_cflags = cflags | dt_cc_optflags(dtp);
	pcb.pcb_sargc = argc;
	pcb.pcb_sargv = argv;
	pcb.pcb_fileptr = isfile ? stdin : NULL;	/* marks "from a file" */
	pcb.pcb_line = 1;
	if (argc > 0 && (flags = calloc(argc, sizeof (bool))) == NULL) {
		dt_set_errno(dtp, EDT_NOMEM);
		return NULL;
	}
	pcb.pcb_sflagv = flags;
	gen = cc->cc_noktypes ? 0 : ++cc->cc_gen;	/* the prelude: 0 */
	cc->cc_gen = gen ? gen : cc->cc_gen;
	pcb.pcb_gen = gen;
	snap = ctf_snapshot(cc->cc_ctf);
	cc->cc_errmsg[0] = '\0';
	cc->cc_errtag = NULL;
	cc->cc_pcb = &pcb;
	dtp->dt_errhint = NULL;

	if ((err = setjmp(pcb.pcb_jmpbuf)) != 0) {
		dt_lex_fini(&pcb);
		dt_node_free_list(pcb.pcb_list);
		dt_decl_free_all(&pcb);
		dt_idhash_destroy(pcb.pcb_locals);
		if (pcb.pcb_iparam != NULL) {
			free(pcb.pcb_iparam->di_name);
			free(pcb.pcb_iparam);
		}
		for (size_t i = 0; i < pcb.pcb_nstrs; i++)
			free(pcb.pcb_strs[i]);
		free(pcb.pcb_strs);
		dt_cc_rollback(cc, gen, snap);
		dt_program_free(program);
		free(flags);
		free(cpptext);
		cc->cc_pcb = NULL;
		dt_set_errno(dtp, err);
		return NULL;
	}

	if ((pcb.pcb_locals = dt_idhash_create("clause-local",
	    DIF_VAR_OTHER_UBASE, 0xffff)) == NULL)
		dt_cc_nomem(&pcb);

	/*
	 * The D library files are plain D: -C is for the user's programs.
	 * A preprocessor failure is reported as DTrace does, without a line:
	 * the preprocessor has said where.
	 */
	if (cc->cc_inlib)
		pcb.pcb_cflags &= ~DTRACE_C_CPP;
	if (pcb.pcb_cflags & DTRACE_C_CPP) {
		size_t n;

		if ((cpptext = dt_cc_preproc(dtp, text, len, &n)) == NULL)
			longjmp(pcb.pcb_jmpbuf, EDT_CPPERR);
		dt_cc_strip_cfuncs(cpptext, n);
		dt_cc_unexpand_errno(cpptext);
		text = cpptext;
		len = n;
	}
	pcb.pcb_string = text;
	pcb.pcb_strlen = len;
	if (dt_lex_init(&pcb) != 0)
		dt_cc_nomem(&pcb);
	if (dt_parse(&pcb) != 0)
		dt_cc_syntax(&pcb, dt_lex_text(&pcb), "syntax error");

	if (pcb.pcb_root->dn_body == NULL && !(pcb.pcb_cflags &
	    DTRACE_C_EMPTY))
		dt_cc_error(&pcb, D_EMPTY, "empty D program translation unit");

	for (dt_node_t *dnp = pcb.pcb_root->dn_body; dnp != NULL;
	    dnp = dnp->dn_list) {
		if (dnp->dn_kind == DT_NODE_CLAUSE) {
			dt_cook_clause(&pcb, dnp);
			pcb.pcb_nclauses++;
		}
	}

	/*
	 * As DTrace (dt_compile()): only the last operand must be used, so
	 * that $3 alone says that $1 and $2 are there too.
	 */
	if (!(pcb.pcb_cflags & DTRACE_C_ARGREF) && argc > 1 &&
	    !flags[argc - 1])
		dt_cc_error(&pcb, D_MACRO_UNUSED, "extraneous argument '%s' "
		    "($%d is not referenced)", argv[argc - 1], argc - 1);

	/*
	 * Code generation runs now, while the clause-local identifiers the
	 * tree points at still exist.
	 */
	{
		dt_cg_error_t cge;
		dt_program_t *made = NULL;

		memset(&cge, 0, sizeof (cge));
		if (dt_cg_program(dtp, pcb.pcb_root, &made, &cge) != 0) {
			if (dtp->dt_errno == EDT_NOMEM)
				dt_cc_nomem(&pcb);
			dt_cc_lerror(&pcb, cge.ce_line != 0 ? cge.ce_line :
			    pcb.pcb_line, cge.ce_tag, "%s", cge.ce_msg);
		}
		program = made;
	}

	/*
	 * Every probe description must match a probe, unless -Z.  Matching
	 * also creates on-demand probes (tick-N, ...) now.
	 */
	for (uint32_t i = 0; program != NULL && i < program->pg_nstmts; i++) {
		const dt_stmt_t *stp = &program->pg_stmts[i];

		for (uint32_t d = 0; d < stp->st_ndescs; d++) {
			const dt_probedesc_t *pdp = &stp->st_descs[d];
			int n = dt_probe_iter(dtp, pdp, NULL, NULL);

			if (n < 0)
				dt_cc_nomem(&pcb);
			if (n > 0 || (pcb.pcb_cflags & DTRACE_C_ZDEFS))
				continue;
			dt_cc_nomatch(&pcb, stp->st_line, pdp);
		}
	}

	/* Success: the program keeps the tree; the handle keeps memory. */
	{
		dt_keep_t *k = calloc(1, sizeof (*k));

		if (k == NULL || (pgp = calloc(1, sizeof (*pgp))) == NULL) {
			free(k);
			dt_cc_nomem(&pcb);
		}
		k->k_nodes = pcb.pcb_list;
		k->k_strs = pcb.pcb_strs;
		k->k_nstrs = pcb.pcb_nstrs;
		k->k_next = (dt_keep_t *) cc->cc_keep;
		cc->cc_keep = (dt_node_t *) k;
		pgp->dp_hdl = dtp;
		pgp->dp_root = pcb.pcb_root;
		pgp->dp_gen = gen;
		pgp->dp_program = program;
		program = NULL;
	}
	dt_lex_fini(&pcb);
	dt_decl_free_all(&pcb);
	dt_idhash_destroy(pcb.pcb_locals);
	free(flags);
	free(cpptext);
	cc->cc_pcb = NULL;
	return pgp;
}

/* A D library file's text: compiled as a file, so errors carry lines. */
dtrace_prog_t *
dt_cc_libcompile(dtrace_hdl_t *dtp, const char *text, size_t len)
{
	return dt_compile(dtp, text, len, true, DTRACE_PROBESPEC_NAME,
	    DTRACE_C_EMPTY | DTRACE_C_NOLIBS, 0, NULL);
}

/* A program's compile, run on a stack of its own (dt_cc_run.c). */
typedef struct dt_compile_args {
	dtrace_hdl_t *ca_dtp;
	const char *ca_text;
	size_t ca_len;
	bool ca_isfile;
	dtrace_probespec_t ca_spec;
	unsigned ca_cflags;
	int ca_argc;
	char *const *ca_argv;
	dtrace_prog_t *ca_pgp;
} dt_compile_args_t;

static void
dt_compile_job(void *arg)
{
	dt_compile_args_t *ca = arg;

	ca->ca_pgp = dt_compile(ca->ca_dtp, ca->ca_text, ca->ca_len,
	    ca->ca_isfile, ca->ca_spec, ca->ca_cflags, ca->ca_argc,
	    ca->ca_argv);
}

static dtrace_prog_t *
dt_compile_run(dtrace_hdl_t *dtp, const char *text, size_t len, bool isfile,
    dtrace_probespec_t spec, unsigned cflags, int argc, char *const argv[])
{
	dt_compile_args_t ca = { dtp, text, len, isfile, spec, cflags, argc,
		argv, NULL };

	dt_cc_run(dtp->dt_cc, dt_compile_job, &ca);
	return ca.ca_pgp;
}

dtrace_prog_t *
dtrace_program_strcompile(dtrace_hdl_t *dtp, const char *s,
    dtrace_probespec_t spec, unsigned cflags, int argc, char *const argv[])
{
	if (dtp->dt_cc == NULL) {
		dt_set_errno(dtp, EDT_NOMEM);
		return NULL;
	}
	return dt_compile_run(dtp, s, strlen(s), false, spec, cflags, argc,
	    argv);
}

dtrace_prog_t *
dtrace_program_fcompile(dtrace_hdl_t *dtp, FILE *fp, unsigned cflags,
    int argc, char *const argv[])
{
	dtrace_prog_t *pgp;
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	if (dtp->dt_cc == NULL) {
		dt_set_errno(dtp, EDT_NOMEM);
		return NULL;
	}
	for (;;) {
		/*
		 * A bound, so that -s /dev/zero (or a runaway generator) is
		 * an error, not memory exhausted.
		 */
		if (n > DT_CC_MAXSCRIPT) {
			free(buf);
			dt_set_errno(dtp, EDT_COMPILER);
			snprintf(dtp->dt_cc->cc_errmsg,
			    sizeof (dtp->dt_cc->cc_errmsg), "script is larger "
			    "than %d MB, the largest D program read",
			    DT_CC_MAXSCRIPT >> 20);
			return NULL;
		}
		if (n + 4096 > cap) {
			char *p = realloc(buf, cap = cap * 2 + 8192);

			if (p == NULL) {
				free(buf);
				dt_set_errno(dtp, EDT_NOMEM);
				return NULL;
			}
			buf = p;
		}
		if ((r = fread(buf + n, 1, cap - n - 1, fp)) == 0)
			break;
		n += r;
	}
	if (ferror(fp)) {
		free(buf);
		dt_set_errno(dtp, EDT_FIO);
		return NULL;
	}
	buf[n] = '\0';
	pgp = dt_compile_run(dtp, buf, n, true, DTRACE_PROBESPEC_NAME, cflags,
	    argc, argv);
	free(buf);
	return pgp;
}

void
dtrace_program_destroy(dtrace_hdl_t *dtp, dtrace_prog_t *pgp)
{
	(void) dtp;
	if (pgp == NULL)
		return;
	/* An executed program belongs to the handle (dtrace_program_exec). */
	dt_program_free(pgp->dp_program);
	free(pgp);
}

/*
 * Print the checked tree of a program (for debugging the compiler, and
 * for tests that look at what the front end produced).
 */
void
dtrace_program_dump(dtrace_hdl_t *dtp, dtrace_prog_t *pgp, FILE *fp)
{
	(void) dtp;
	dt_node_printr(pgp->dp_root, fp, 0);
}

/*
 * dtrace -h and -G: the providers the compiled programs define, in the
 * OS's format of user-space static probes (dt_os.h).
 */
int
dtrace_program_header(dtrace_hdl_t *dtp, FILE *fp, const char *fname)
{
	return dt_os_usdt_header(dtp, fp, fname);
}

int
dtrace_program_link(dtrace_hdl_t *dtp, const char *ofile, int objc,
    char *const objv[])
{
	return dt_os_usdt_link(dtp, ofile, objc, objv);
}

void
dt_cc_write_types(dtrace_hdl_t *dtp)
{
	static const dt_optid_t opts[] = {DT_OPT_DTYPES, DT_OPT_CTYPES};

	if (dtp->dt_cc == NULL)
		return;
	/*
	 * The D intrinsics and the types programs declared (C's among them:
	 * one container holds both) as a CTF dictionary, for tools that read
	 * CTF.
	 */
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		const char *path = dtp->dt_optstr[opts[i]];
		unsigned char *buf;
		size_t size;
		FILE *fp;

		if (path == NULL ||
		    (buf = ctf_write_mem(
			 dtp->dt_cc->cc_ctf, &size, (size_t) -1)) == NULL)
			continue;
		if ((fp = fopen(path, "we")) != NULL) {
			(void) fwrite(buf, 1, size, fp);
			(void) fclose(fp);
		}
		free(buf);
	}
}

bool
dt_cc_compiling(const dtrace_hdl_t *dtp)
{
	return dtp->dt_cc != NULL && dtp->dt_cc->cc_pcb != NULL;
}

/* Arguments for the C preprocessor (-D, -U, -I of dtrace(1)). */
int
dtrace_cpp_arg(dtrace_hdl_t *dtp, const char *arg)
{
	dt_cc_t *cc = dtp->dt_cc;
	char **v, *s;

	if (cc == NULL || cc->cc_ncpp >= 64)
		return dt_set_errno(dtp, EDT_NOMEM);
	if ((s = strdup(arg)) == NULL ||
	    (v = realloc(cc->cc_cpp, (cc->cc_ncpp + 1) * sizeof (char *))) ==
	    NULL) {
		free(s);
		return dt_set_errno(dtp, EDT_NOMEM);
	}
	cc->cc_cpp = v;
	cc->cc_cpp[cc->cc_ncpp++] = s;
	return 0;
}

/* Give $target its value (the process of -c or -p). */
void
dtrace_set_target(dtrace_hdl_t *dtp, int pid)
{
	dt_ident_t *idp;

	if (dtp->dt_cc == NULL)
		return;
	if ((idp = dt_idhash_lookup(dtp->dt_cc->cc_macros, "target")) != NULL)
		idp->di_value = pid;
	dtp->dt_cc->cc_target_set = 1;
}

const char *
dt_cc_errmsg(dtrace_hdl_t *dtp)
{
	if (dtp == NULL || dtp->dt_cc == NULL ||
	    dtp->dt_cc->cc_errmsg[0] == '\0')
		return NULL;
	return dtp->dt_cc->cc_errmsg;
}
