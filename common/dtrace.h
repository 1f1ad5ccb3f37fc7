/* SPDX-License-Identifier: MIT */
/*
 * dtrace.h: the public interface of libdtrace.
 *
 * libdtrace is the whole of DTrace as a library: the D compiler, the tracing
 * engines behind an OS backend, and the consumer that formats what the
 * engines record.  dtrace(1) is a thin command-line front end to it.
 *
 * A consumer opens a handle, sets options, compiles programs, starts
 * tracing, calls dtrace_work() until it is done and closes the handle.
 * Errors are reported through dtrace_errno() and dtrace_errmsg(); no
 * function here prints anything on its own except through the callbacks and
 * output stream the consumer passes in.
 */
#ifndef DTRACE_H
#define DTRACE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The API version a consumer is written against, passed to dtrace_open(). */
#define DTRACE_VERSION 1

/* The version of the D language this library implements. */
#define DTRACE_D_VERSION "1.13"

typedef struct dtrace_hdl dtrace_hdl_t;
typedef int64_t dtrace_optval_t;

/* An option that has not been set has this value. */
#define DTRACEOPT_UNSET ((dtrace_optval_t) -2)

/* Flags for dtrace_open(). */
#define DTRACE_O_NODEV	0x01 /* do not touch the tracing backend */
#define DTRACE_O_LP64	0x02 /* compile for the LP64 data model (default) */
#define DTRACE_O_ILP32	0x04 /* compile for the ILP32 data model */

extern dtrace_hdl_t *dtrace_open(int version, int flags, int *errp);
extern void dtrace_close(dtrace_hdl_t *dtp);

extern int dtrace_errno(dtrace_hdl_t *dtp);
extern const char *dtrace_errmsg(dtrace_hdl_t *dtp, int error);
/*
 * vsnprintf() for a message that quotes the user's text (a probe
 * description, a file name): control bytes other than newlines and tabs,
 * and bytes that are not UTF-8, escaped as C writes them, as the
 * compiler's own messages quote a script.  Returns the length written.
 */
extern size_t dtrace_msg_vformat(char *dst, size_t dstlen, const char *fmt,
    va_list ap) __attribute__((format(printf, 3, 0)));
/*
 * A line explaining the last error when something in this system (a
 * privilege, a kernel feature) is its cause, or NULL.
 */
extern const char *dtrace_errhint(dtrace_hdl_t *dtp);

/* "dtrace x.y.z" and the D version, for -V. */
extern const char *dtrace_version(void);

/*
 * Options, as -x name=value and #pragma D option set them.  A value of NULL
 * sets a boolean option.  dtrace_getopt() yields DTRACEOPT_UNSET for an
 * option never set; string-valued options are read with
 * dtrace_getopt_string().
 */
extern int dtrace_setopt(dtrace_hdl_t *dtp, const char *name,
    const char *value);
extern int dtrace_getopt(dtrace_hdl_t *dtp, const char *name,
    dtrace_optval_t *valp);
extern const char *dtrace_getopt_string(dtrace_hdl_t *dtp, const char *name);

/*
 * Running enabled programs.  dtrace_go() starts tracing (BEGIN fires);
 * a consumer then loops on dtrace_sleep() and dtrace_work(), which prints
 * what the programs recorded to fp, until dtrace_work() says DONE (after
 * exit()) or the consumer decides to stop; dtrace_stop() fires END, and a
 * last dtrace_work() prints what END recorded.
 */
typedef enum dtrace_workstatus {
	DTRACE_WORKSTATUS_ERROR = -1,
	DTRACE_WORKSTATUS_OKAY,
	DTRACE_WORKSTATUS_DONE
} dtrace_workstatus_t;

extern int dtrace_go(dtrace_hdl_t *dtp);
/*
 * After dtrace_go(): when the engine was chosen because the one the
 * probes would run on is not available, the line saying so ("tracing with
 * ptrace: <why>"), for the consumer to show once; else NULL.
 */
extern const char *dtrace_engine_notice(dtrace_hdl_t *dtp);
extern int dtrace_stop(dtrace_hdl_t *dtp);
extern void dtrace_sleep(dtrace_hdl_t *dtp);
extern dtrace_workstatus_t dtrace_work(dtrace_hdl_t *dtp, FILE *fp);
/*
 * After the last dtrace_work(): print the end-of-run output (every
 * aggregation not printed by printa(), in DTrace's default format).
 */
extern int dtrace_aggregate_print(dtrace_hdl_t *dtp, FILE *fp);
/*
 * With -x metrics, once dtrace_go() has succeeded: the address the
 * aggregations are served at, "127.0.0.1:9464" (GET /metrics); NULL
 * without the option.
 */
extern const char *dtrace_metrics_address(dtrace_hdl_t *dtp);
/*
 * The file dtrace(1)'s -o names, for the output formats that write files
 * of their own rather than to the stream dtrace_work() is given: with
 * -x oformat=pprof, each aggregation's profile goes to a file named
 * after it (docs/output.md).  Set it before dtrace_go(); NULL forgets
 * it.  0, or -1 (EDT_NOMEM).
 */
extern int dtrace_output_file(dtrace_hdl_t *dtp, const char *path);
/*
 * Whether the output format writes files of its own (-x oformat=pprof):
 * the -o file then holds no text, and what is printed as text (printf(),
 * trace(), notes) goes to the stream given to dtrace_work() all the same.
 */
extern bool dtrace_output_is_files(dtrace_hdl_t *dtp);
/* 1 and the status if a program called exit(), else 0. */
extern int dtrace_exit_status(dtrace_hdl_t *dtp, int *statusp);

/*
 * Compiling D programs.  A program comes from a string (dtrace -n, -P, -m,
 * -f, -i: spec says which probe description field the text starts at) or
 * from a file (-s).  argv[0..argc-1] are the macro arguments $0..$N.  On
 * failure NULL is returned, dtrace_errno() is EDT_COMPILER and
 * dtrace_errmsg() gives the compiler's message in DTrace's form, e.g.
 * "line 3: syntax error near \"}\"".
 */
typedef struct dtrace_prog dtrace_prog_t;

typedef enum dtrace_probespec {
	DTRACE_PROBESPEC_NONE = -1,
	DTRACE_PROBESPEC_PROVIDER = 0,	/* -P */
	DTRACE_PROBESPEC_MOD,		/* -m */
	DTRACE_PROBESPEC_FUNC,		/* -f */
	DTRACE_PROBESPEC_NAME,		/* -n, and scripts */
	DTRACE_PROBESPEC_ID		/* -i */
} dtrace_probespec_t;

/* Compile flags (cflags); options such as -x errtags add to them. */
#define DTRACE_C_DIFV	0x0001	/* show the DIF of each compiled object */
#define DTRACE_C_EMPTY	0x0002	/* permit empty D source files */
#define DTRACE_C_ZDEFS	0x0004	/* permit descriptions matching no probe */
#define DTRACE_C_EATTR	0x0008	/* error if attributes are below amin */
#define DTRACE_C_CPP	0x0010	/* run the C preprocessor first (-C) */
#define DTRACE_C_KNODEF	0x0020	/* permit unresolved kernel symbols */
#define DTRACE_C_UNODEF	0x0040	/* permit unresolved user symbols */
#define DTRACE_C_PSPEC	0x0080	/* read ambiguous words as probe specs */
#define DTRACE_C_ETAGS	0x0100	/* prefix messages with error tags */
#define DTRACE_C_ARGREF	0x0200	/* do not require all macro args used */
#define DTRACE_C_DEFARG	0x0800	/* unset macro args are 0 or "" */
#define DTRACE_C_NOLIBS	0x1000	/* do not process D system libraries */
#define DTRACE_C_CTL	0x2000	/* only process control directives */

extern dtrace_prog_t *dtrace_program_strcompile(dtrace_hdl_t *dtp,
    const char *s, dtrace_probespec_t spec, unsigned cflags, int argc,
    char *const argv[]);
extern dtrace_prog_t *dtrace_program_fcompile(dtrace_hdl_t *dtp, FILE *fp,
    unsigned cflags, int argc, char *const argv[]);
extern void dtrace_program_destroy(dtrace_hdl_t *dtp, dtrace_prog_t *pgp);

/*
 * Enable a compiled program when tracing starts (dtrace_go()).  The handle
 * takes over the generated code; dtrace_program_destroy() still frees the
 * rest.  dpi_matches is the number of probes the program's clauses match;
 * dpi_descattr and dpi_stmtattr the lowest stability attributes of its
 * probe descriptions and of its statements (dtrace -v reports them).
 */
typedef struct dtrace_attribute {
	int dtat_name;	/* stability of identifier names */
	int dtat_data;	/* stability of data semantics */
	int dtat_class; /* dependency class */
} dtrace_attribute_t;

typedef struct dtrace_proginfo {
	uint32_t dpi_matches;
	dtrace_attribute_t dpi_descattr;
	dtrace_attribute_t dpi_stmtattr;
} dtrace_proginfo_t;

/* DTrace's names of stabilities ("Stable") and dependency classes. */
extern const char *dtrace_stability_name(int stability);
extern const char *dtrace_class_name(int depclass);

extern int dtrace_program_exec(dtrace_hdl_t *dtp, dtrace_prog_t *pgp,
    dtrace_proginfo_t *pip);
/* What dtrace_program_exec() would report, without enabling (dtrace -e). */
extern int dtrace_program_info(
    dtrace_hdl_t *dtp, dtrace_prog_t *pgp, dtrace_proginfo_t *pip);
/*
 * dtrace -l: print the probes the descriptions of the compiled programs
 * match (every probe when npgps is 0) in DTrace's columns; verbose (-lv)
 * adds each probe's stability attributes and argument types.  A
 * description that matches nothing is passed to nomatch (if not NULL) as
 * "provider:module:function:name".  Returns the number printed, or -1.
 */
typedef void dtrace_nomatch_f(const char *desc, void *arg);
extern int dtrace_probe_list(dtrace_hdl_t *dtp, dtrace_prog_t *const *pgps,
    int npgps, bool verbose, FILE *fp, dtrace_nomatch_f *nomatch,
    void *arg);
/* Print the DIF of every clause of a compiled program (dtrace -S). */
extern void dtrace_program_dif(dtrace_hdl_t *dtp, dtrace_prog_t *pgp,
    FILE *fp);
/* Print a program's checked parse tree (a debugging aid). */
extern void dtrace_program_dump(dtrace_hdl_t *dtp, dtrace_prog_t *pgp,
    FILE *fp);
/*
 * dtrace -h: write a C header with the probe macros of the providers the
 * compiled programs define (fname names the header, for its guard).
 */
extern int dtrace_program_header(dtrace_hdl_t *dtp, FILE *fp,
    const char *fname);
/*
 * dtrace -G: write the object file those providers' probes link with
 * (the objects objv[] are the program's, which must exist).
 */
extern int dtrace_program_link(dtrace_hdl_t *dtp, const char *ofile,
    int objc, char *const objv[]);
/* An argument for the C preprocessor: "-Dname=def", "-Uname", "-Idir". */
extern int dtrace_cpp_arg(dtrace_hdl_t *dtp, const char *arg);
/* The value of $target (the process of -c or -p). */
extern void dtrace_set_target(dtrace_hdl_t *dtp, int pid);

/*
 * Processes to trace: -c starts a command (argv[0] is found in PATH)
 * stopped before it runs any code of its own and returns its pid;
 * dtrace_proc_continue() lets every such process run once tracing is on.
 * -p grabs a running process.  dtrace_proc_reap() calls fn for each
 * process that ended since the last call (status: its wait(2) status, or
 * -1 when unknown) and returns how many still run.  dtrace_close() kills
 * the processes created and not yet ended.
 */
typedef void dtrace_proc_f(int pid, int status, void *arg);
extern int dtrace_proc_create(dtrace_hdl_t *dtp, char *const argv[]);
extern int dtrace_proc_grab(dtrace_hdl_t *dtp, int pid);
extern int dtrace_proc_continue(dtrace_hdl_t *dtp);
extern int dtrace_proc_reap(dtrace_hdl_t *dtp, dtrace_proc_f *fn, void *arg);
/*
 * After dtrace_close(): processes dtrace must go on serving as their
 * tracer, or they would not run as if never traced (on Linux, descendants
 * of a -c process under the ptrace engine's seccomp filter).
 * dtrace_proc_lingering() says whether there are any; dtrace_proc_linger()
 * serves them until they have all ended.
 */
extern bool dtrace_proc_lingering(void);
extern void dtrace_proc_linger(void);
/*
 * For a guard process that starts the one that traces and outlives it:
 * dtrace_proc_rescue_open(), called before the guard forks, sets up what
 * the tracer notes its unfinished changes to a process in (0, or -1);
 * dtrace_proc_rescue(), called in the guard once the tracer has died,
 * undoes them (on Linux, a system call the ptrace engine was injecting).
 */
extern int dtrace_proc_rescue_open(void);
extern void dtrace_proc_rescue(void);

#ifdef __cplusplus
}
#endif

#endif /* DTRACE_H */
