/* SPDX-License-Identifier: MIT */
/*
 * dt_error.c: error state of a handle and the text of each error code.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/dt_impl.h"

static const char *const dt_errmsgs[EDT_MAX - EDT_BASE] = {
    [EDT_VERSION - EDT_BASE] = "Client requested version newer than library",
    [EDT_NOMEM - EDT_BASE] = "Memory allocation failure",
    [EDT_COMPILER - EDT_BASE] = "Error in D program compilation",
    [EDT_BADOPTNAME - EDT_BASE] = "Invalid option name",
    [EDT_BADOPTVAL - EDT_BASE] = "Invalid value for specified option",
    [EDT_BADOPTCTX - EDT_BASE] =
	"Option cannot be used from within a D program",
    [EDT_FIO - EDT_BASE] = "Error reading file for program compilation",
    [EDT_NOPROBE - EDT_BASE] = "No probe matches description",
    [EDT_ACCESS - EDT_BASE] = "DTrace requires additional privileges",
    [EDT_NOTSUP - EDT_BASE] = "Operation not supported on this system",
    [EDT_ACTIVE - EDT_BASE] = "Operation illegal when tracing is active",
    [EDT_NOENGINE - EDT_BASE] = "The requested engine is not available",
    [EDT_DMISMATCH - EDT_BASE] = "Data record description does not match data",
    [EDT_DOFFSET - EDT_BASE] = "Data record offset exceeds buffer boundary",
    [EDT_BADEPID - EDT_BASE] = "Invalid enabled probe ID",
    [EDT_BADAGG - EDT_BASE] = "Invalid aggregation ID",
    [EDT_BADNORMAL - EDT_BASE] = "Invalid normalization",
    [EDT_PROC - EDT_BASE] = "Failed to control a process",
    [EDT_DESTRUCTIVE - EDT_BASE] = "Destructive actions not allowed",
    [EDT_VERSINVAL - EDT_BASE] =
	"Version is not properly formatted or is too large",
    [EDT_VERSUNDEF - EDT_BASE] =
	"Requested version is not supported by compiler",
    [EDT_CPPERR - EDT_BASE] = "Preprocessor failed to process input program",
    [EDT_BUFTOOSMALL - EDT_BASE] = "Enabling exceeds size of buffer",
    [EDT_NOTUPREG - EDT_BASE] = "Insufficient tuple registers to generate code",
    [EDT_OPTTOOBIG - EDT_BASE] = "Value is larger than the option allows",
};

int
dt_set_errno(dtrace_hdl_t *dtp, int err)
{
	dtp->dt_errno = err;
	dtp->dt_errdetail[0] = '\0';
	return -1;
}

int
dt_set_errdetail(dtrace_hdl_t *dtp, int err, const char *fmt, ...)
{
	va_list ap;

	dtp->dt_errno = err;
	va_start(ap, fmt);
	vsnprintf(dtp->dt_errdetail, sizeof (dtp->dt_errdetail), fmt, ap);
	va_end(ap);
	return -1;
}

const char *
dtrace_errhint(dtrace_hdl_t *dtp)
{
	return dtp != NULL ? dtp->dt_errhint : NULL;
}

int
dtrace_errno(dtrace_hdl_t *dtp)
{
	return dtp->dt_errno;
}

const char *
dtrace_errmsg(dtrace_hdl_t *dtp, int error)
{
	if (dtp != NULL && error == dtp->dt_errno &&
	    dtp->dt_errdetail[0] != '\0')
		return dtp->dt_errdetail;
	if (dtp != NULL && error == EDT_COMPILER && dt_cc_errmsg(dtp) != NULL)
		return dt_cc_errmsg(dtp);
	if (error >= EDT_BASE && error < EDT_MAX &&
	    dt_errmsgs[error - EDT_BASE] != NULL)
		return dt_errmsgs[error - EDT_BASE];
	if (error >= 0 && error < EDT_BASE)
		return strerror(error);
	return "Unknown libdtrace error";
}
