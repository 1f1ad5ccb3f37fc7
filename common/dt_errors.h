/* SPDX-License-Identifier: MIT */
/*
 * dt_errors.h: libdtrace's error codes.
 *
 * A handle's dt_errno holds either an ordinary errno value (from a system
 * call) or one of these codes, which start above every errno value.  The
 * messages, in dt_error.c, are DTrace's own wording wherever DTrace has a
 * message for the same condition, because users and scripts match on them.
 */
#ifndef DT_ERRORS_H
#define DT_ERRORS_H

enum {
	EDT_BASE = 1000,
	EDT_VERSION = EDT_BASE, /* client wants a newer API than ours */
	EDT_NOMEM,		/* memory allocation failure */
	EDT_COMPILER,		/* error in D program compilation */
	EDT_BADOPTNAME,		/* unknown option name */
	EDT_BADOPTVAL,		/* bad value for an option */
	EDT_BADOPTCTX,		/* option cannot be set from a D program */
	EDT_FIO,		/* error reading a program file */
	EDT_NOPROBE,		/* no probe matches description */
	EDT_ACCESS,		/* missing privileges */
	EDT_NOTSUP,		/* not supported on this system */
	EDT_ACTIVE,		/* operation illegal while tracing */
	EDT_NOENGINE,		/* the requested engine is not available */
	EDT_DMISMATCH,		/* record description does not match data */
	EDT_DOFFSET,		/* record offset beyond the buffer */
	EDT_BADEPID,		/* record with an unknown enabled probe ID */
	EDT_BADAGG,		/* unknown aggregation ID */
	EDT_BADNORMAL,		/* normalize() by zero */
	EDT_PROC,		/* process control (-c, -p) failed */
	EDT_DESTRUCTIVE,	/* destructive actions without -w */
	EDT_VERSINVAL,		/* malformed version string */
	EDT_VERSUNDEF,		/* version not defined */
	EDT_CPPERR,		/* the C preprocessor failed */
	EDT_BUFTOOSMALL,	/* a record is larger than the buffer */
	EDT_NOTUPREG,		/* a tuple has more keys than -x tregs */
	EDT_OPTTOOBIG,		/* option value past the option's limit */
	EDT_MAX
};

#endif /* DT_ERRORS_H */
