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

#ifdef __cplusplus
}
#endif

#endif /* DTRACE_H */
