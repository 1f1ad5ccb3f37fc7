/* SPDX-License-Identifier: MIT */
/*
 * dt_error.c: error state of a handle, the text of each error code, and
 * the escaping of the user's text that messages quote.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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

/*
 * The length of the well-formed UTF-8 character at s (of at most n
 * bytes), or 0 when it is not one: a stray continuation byte, a lead byte
 * without its continuations, an overlong form, a surrogate or a code
 * point past U+10FFFF (Unicode's Table 3-7).
 */
static size_t
dt_utf8_len(const unsigned char *s, size_t n)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4;
	else
		return 0;
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++) {
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	}
	return len;
}

/*
 * Append the character at s[*ip] (of n bytes) to dst, escaped unless
 * it is well-formed UTF-8, or a control byte that keep says is the
 * message's own.  false when it does not fit.
 */
static bool
dt_esc_one(char *dst, size_t dstlen, size_t *lenp, const unsigned char *s,
    size_t *ip, size_t n, bool keep)
{
	static const char cesc[] = "0......abtnvfr";	/* \0, \a ... \r */
	unsigned char c = s[*ip];
	const char *out = (const char *) s + *ip;
	size_t k = 1, used = 1;
	char buf[8];

	if (c >= 0x80 && (k = used = dt_utf8_len(s + *ip, n - *ip)) == 0) {
		k = (size_t) snprintf(buf, sizeof (buf), "\\x%02x", c);
		out = buf;
		used = 1;
	} else if ((c < 0x20 || c == 0x7f) && !keep) {
		if (c < sizeof (cesc) - 1 && cesc[c] != '.')
			k = (size_t) snprintf(buf, sizeof (buf), "\\%c",
			    cesc[c]);
		else
			k = (size_t) snprintf(buf, sizeof (buf), "\\x%02x", c);
		out = buf;
	}
	if (*lenp + k >= dstlen)
		return false;
	memcpy(dst + *lenp, out, k);
	*lenp += k;
	*ip += used;
	return true;
}

size_t
dt_strescape(char *dst, size_t dstlen, const char *src, size_t srclen,
    const char *keep)
{
	const unsigned char *s = (const unsigned char *) src;
	size_t len = 0, i = 0;

	if (dstlen == 0)
		return 0;
	while (i < srclen && dt_esc_one(dst, dstlen, &len, s, &i, srclen,
	    keep != NULL && s[i] != '\0' && strchr(keep, s[i]) != NULL))
		continue;
	dst[len] = '\0';
	return len;
}

/*
 * Which bytes of the result are the format's own is found by formatting
 * twice, the second time with the format's control bytes replaced: where
 * the two differ, the byte is the format's (a newline and tab that lay a
 * message out); where they agree, an argument put it there.  The
 * length vsnprintf() returns counts a NUL that %c wrote, so the text
 * after it is kept too.
 */
size_t
dt_msg_vformat(char *dst, size_t dstlen, const char *fmt, va_list ap)
{
	char *a = NULL, *b = NULL, *fmt2 = NULL;
	size_t len = 0, i = 0, n;
	va_list ap2;
	int na, nb;

	if (dstlen == 0)
		return 0;
	va_copy(ap2, ap);
	if ((a = malloc(dstlen)) == NULL || (b = malloc(dstlen)) == NULL ||
	    (fmt2 = strdup(fmt)) == NULL) {
		/* No memory to escape with: the message as it is. */
		(void) vsnprintf(dst, dstlen, fmt, ap);
		va_end(ap2);
		free(a);
		free(b);
		return strlen(dst);
	}
	for (char *p = fmt2; *p != '\0'; p++) {
		if ((unsigned char) *p < 0x20)
			*p = 'x';
	}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	na = vsnprintf(a, dstlen, fmt, ap);
	nb = vsnprintf(b, dstlen, fmt2, ap2);
#pragma GCC diagnostic pop
	va_end(ap2);
	n = na < 0 ? 0 : (size_t) na < dstlen ? (size_t) na : dstlen - 1;
	while (i < n && dt_esc_one(dst, dstlen, &len, (unsigned char *) a, &i,
	    n, na == nb && a[i] != b[i]))
		continue;
	dst[len] = '\0';
	free(fmt2);
	free(b);
	free(a);
	return len;
}

int
dt_set_errdetail(dtrace_hdl_t *dtp, int err, const char *fmt, ...)
{
	va_list ap;

	dtp->dt_errno = err;
	va_start(ap, fmt);
	(void) dt_msg_vformat(dtp->dt_errdetail, sizeof (dtp->dt_errdetail),
	    fmt, ap);
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

size_t
dtrace_msg_vformat(char *dst, size_t dstlen, const char *fmt, va_list ap)
{
	char raw[4096];
	int n = vsnprintf(raw, sizeof (raw), fmt, ap);

	if (n < 0)
		n = 0;
	if ((size_t) n >= sizeof (raw))
		n = (int) sizeof (raw) - 1;
	/* A multi-line -n program is quoted with its lines, as DTrace does. */
	return dt_strescape(dst, dstlen, raw, (size_t) n, "\n\t");
}
