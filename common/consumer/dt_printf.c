/* SPDX-License-Identifier: MIT */
/*
 * dt_printf.c: D format strings -- parsing, checking against argument
 * types, and formatting records.
 *
 * The conversion dictionary below is D's: printf(3)'s conversions, each
 * with the argument types it accepts (the "prototype" DTrace names in its
 * error messages), plus D's own -- %a and %A (kernel and user symbols),
 * %k (a stack), %S (an escaped string), %Y and %T (wall-clock times), %I
 * (an IP address), %P (a port) and the '@' flag that takes an
 * aggregation's value in printa().  One size prefix DTrace lacks, hh
 * (a char), is accepted as well; it only widens what is valid.  The
 * size prefixes are type checks, as in DTrace: %hd takes a short.
 *
 * Formatting builds, for each conversion, the printf(3) format DTrace
 * would build (flags, width, precision, size prefix) and hands it the
 * value read from the record, so padding and rounding are libc's, exactly
 * as in DTrace.  Two DTrace behaviours are kept on purpose: a precision of
 * zero is no precision ("%.0f" prints six decimals), and a record of 1, 2
 * or 4 bytes is widened to 32 bits before printing.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <limits.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include "common/consumer/dt_cons_impl.h"

/* How a conversion prints its value. */
typedef enum dt_pfkind {
	DT_PFK_SINT,	/* signed integer */
	DT_PFK_UINT,	/* unsigned integer */
	DT_PFK_DINT,	/* %d: signed or not as the record is */
	DT_PFK_FP,	/* floating point */
	DT_PFK_ADDR,	/* %a: kernel symbol+offset */
	DT_PFK_UADDR,	/* %A: user symbol+offset */
	DT_PFK_STACK,	/* %k */
	DT_PFK_CSTR,	/* %s */
	DT_PFK_ESTR,	/* %S */
	DT_PFK_ECHR,	/* %C */
	DT_PFK_WSTR,	/* %ls, %ws */
	DT_PFK_TIME,	/* %Y */
	DT_PFK_TIME822, /* %T */
	DT_PFK_PORT,	/* %P */
	DT_PFK_INET,	/* %I */
	DT_PFK_PCT,	/* %% */
} dt_pfkind_t;

/* Which argument types a conversion accepts. */
typedef enum dt_pfcheck {
	DT_PFC_INT,	/* any integer */
	DT_PFC_CSI,	/* an integer of at most int's size */
	DT_PFC_TYPE,	/* an integer of exactly pc_size bytes and sign */
	DT_PFC_SIZE,	/* an integer of exactly pc_size bytes */
	DT_PFC_FP,	/* any floating-point type */
	DT_PFC_LDOUBLE, /* long double */
	DT_PFC_ADDR,	/* pointer or integer */
	DT_PFC_KADDR,	/* pointer, integer or _symaddr */
	DT_PFC_UADDR,	/* _usymaddr, or pointer/integer with -p/-c */
	DT_PFC_STACK,
	DT_PFC_TIME, /* a 64-bit integer */
	DT_PFC_STR,
	DT_PFC_WSTR,
	DT_PFC_NONE, /* %%: no argument */
} dt_pfcheck_t;

typedef struct dt_pfconv {
	const char *pc_name;  /* as written after the flags: "lld" */
	const char *pc_ofmt;  /* printf(3) conversion used: "d", "s" */
	const char *pc_proto; /* accepted types, for messages */
	dt_pfcheck_t pc_check;
	uint32_t pc_size; /* DT_PFC_TYPE, DT_PFC_SIZE */
	bool pc_signed;	  /* DT_PFC_TYPE */
	dt_pfkind_t pc_kind;
} dt_pfconv_t;

static const char pf_xint[] = "char, short, int, long, or long long";
static const char pf_csi[] = "char, short, or int";
static const char pf_fp[] = "float, double, or long double";
static const char pf_addr[] = "pointer or integer";
static const char pf_uaddr[] =
    "pointer or integer (with -p/-c) or _usymaddr (without -p/-c)";
static const char pf_cstr[] = "char [] or string (or use stringof)";
static const char pf_wstr[] = "wchar_t []";

#define INTCONV(n, o, proto, chk, sz, sg, k)                                   \
	{                                                                      \
		n, o, proto, chk, sz, sg, k                                    \
	}

static const dt_pfconv_t dt_pfconvs[] = {
    {"a", "s", pf_addr, DT_PFC_KADDR, 0, false, DT_PFK_ADDR},
    {"A", "s", pf_uaddr, DT_PFC_UADDR, 0, false, DT_PFK_UADDR},
    {"c", "c", pf_csi, DT_PFC_CSI, 0, false, DT_PFK_SINT},
    {"C", "s", pf_csi, DT_PFC_CSI, 0, false, DT_PFK_ECHR},
    {"d", "d", pf_xint, DT_PFC_INT, 0, false, DT_PFK_DINT},
    {"e", "e", pf_fp, DT_PFC_FP, 0, false, DT_PFK_FP},
    {"E", "E", pf_fp, DT_PFC_FP, 0, false, DT_PFK_FP},
    {"f", "f", pf_fp, DT_PFC_FP, 0, false, DT_PFK_FP},
    {"g", "g", pf_fp, DT_PFC_FP, 0, false, DT_PFK_FP},
    {"G", "G", pf_fp, DT_PFC_FP, 0, false, DT_PFK_FP},
    {"hd", "d", "short", DT_PFC_TYPE, 2, true, DT_PFK_SINT},
    {"hi", "i", "short", DT_PFC_TYPE, 2, true, DT_PFK_SINT},
    {"ho", "o", "unsigned short", DT_PFC_TYPE, 2, false, DT_PFK_UINT},
    {"hu", "u", "unsigned short", DT_PFC_TYPE, 2, false, DT_PFK_UINT},
    {"hx", "x", "short", DT_PFC_SIZE, 2, false, DT_PFK_UINT},
    {"hX", "X", "short", DT_PFC_SIZE, 2, false, DT_PFK_UINT},
    {"hhd", "d", "char", DT_PFC_TYPE, 1, true, DT_PFK_SINT},
    {"hhi", "i", "char", DT_PFC_TYPE, 1, true, DT_PFK_SINT},
    {"hho", "o", "unsigned char", DT_PFC_TYPE, 1, false, DT_PFK_UINT},
    {"hhu", "u", "unsigned char", DT_PFC_TYPE, 1, false, DT_PFK_UINT},
    {"hhx", "x", "char", DT_PFC_SIZE, 1, false, DT_PFK_UINT},
    {"hhX", "X", "char", DT_PFC_SIZE, 1, false, DT_PFK_UINT},
    {"i", "i", pf_xint, DT_PFC_INT, 0, false, DT_PFK_SINT},
    {"I", "s", pf_cstr, DT_PFC_STR, 0, false, DT_PFK_INET},
    {"k", "s", "stack", DT_PFC_STACK, 0, false, DT_PFK_STACK},
    {"lc", "lc", "int", DT_PFC_TYPE, 4, true, DT_PFK_SINT},
    {"ld", "d", "long", DT_PFC_TYPE, 8, true, DT_PFK_SINT},
    {"li", "i", "long", DT_PFC_TYPE, 8, true, DT_PFK_SINT},
    {"lo", "o", "unsigned long", DT_PFC_TYPE, 8, false, DT_PFK_UINT},
    {"lu", "u", "unsigned long", DT_PFC_TYPE, 8, false, DT_PFK_UINT},
    {"ls", "ls", pf_wstr, DT_PFC_WSTR, 0, false, DT_PFK_WSTR},
    {"lx", "x", "long", DT_PFC_SIZE, 8, false, DT_PFK_UINT},
    {"lX", "X", "long", DT_PFC_SIZE, 8, false, DT_PFK_UINT},
    {"lld", "d", "long long", DT_PFC_TYPE, 8, true, DT_PFK_SINT},
    {"lli", "i", "long long", DT_PFC_TYPE, 8, true, DT_PFK_SINT},
    {"llo", "o", "unsigned long long", DT_PFC_TYPE, 8, false, DT_PFK_UINT},
    {"llu", "u", "unsigned long long", DT_PFC_TYPE, 8, false, DT_PFK_UINT},
    {"llx", "x", "long long", DT_PFC_SIZE, 8, false, DT_PFK_UINT},
    {"llX", "X", "long long", DT_PFC_SIZE, 8, false, DT_PFK_UINT},
    {"Le", "e", "long double", DT_PFC_LDOUBLE, 0, false, DT_PFK_FP},
    {"LE", "E", "long double", DT_PFC_LDOUBLE, 0, false, DT_PFK_FP},
    {"Lf", "f", "long double", DT_PFC_LDOUBLE, 0, false, DT_PFK_FP},
    {"Lg", "g", "long double", DT_PFC_LDOUBLE, 0, false, DT_PFK_FP},
    {"LG", "G", "long double", DT_PFC_LDOUBLE, 0, false, DT_PFK_FP},
    {"o", "o", pf_xint, DT_PFC_INT, 0, false, DT_PFK_UINT},
    {"p", "x", pf_addr, DT_PFC_ADDR, 0, false, DT_PFK_UINT},
    {"P", "s", "uint16_t", DT_PFC_TYPE, 2, false, DT_PFK_PORT},
    {"s", "s", pf_cstr, DT_PFC_STR, 0, false, DT_PFK_CSTR},
    {"S", "s", pf_cstr, DT_PFC_STR, 0, false, DT_PFK_ESTR},
    {"T", "s", "int64_t", DT_PFC_TIME, 0, false, DT_PFK_TIME822},
    {"u", "u", pf_xint, DT_PFC_INT, 0, false, DT_PFK_UINT},
    {"wc", "lc", "int", DT_PFC_TYPE, 4, true, DT_PFK_SINT},
    {"ws", "ls", pf_wstr, DT_PFC_WSTR, 0, false, DT_PFK_WSTR},
    {"x", "x", pf_xint, DT_PFC_INT, 0, false, DT_PFK_UINT},
    {"X", "X", pf_xint, DT_PFC_INT, 0, false, DT_PFK_UINT},
    {"Y", "s", "int64_t", DT_PFC_TIME, 0, false, DT_PFK_TIME},
    {"%", "%", "void", DT_PFC_NONE, 0, false, DT_PFK_PCT},
};

#define DT_NPFCONVS (sizeof(dt_pfconvs) / sizeof(dt_pfconvs[0]))

static const dt_pfconv_t *
dt_pfconv_lookup(const char *name)
{
	for (size_t i = 0; i < DT_NPFCONVS; i++) {
		if (strcmp(dt_pfconvs[i].pc_name, name) == 0)
			return &dt_pfconvs[i];
	}
	return NULL;
}

static void
dt_pferr_set(dt_pferr_t *errp, const char *tag, const char *fmt, ...)
{
	va_list ap;

	if (errp == NULL)
		return;
	errp->pe_tag = tag;
	va_start(ap, fmt);
	(void) vsnprintf(errp->pe_msg, sizeof(errp->pe_msg), fmt, ap);
	va_end(ap);
}

void
dt_printf_free(dt_pfargv_t *pfv)
{
	if (pfv == NULL)
		return;
	free(pfv->pfv_argv);
	free(pfv->pfv_format);
	free(pfv);
}

static dt_pfargd_t *
dt_pfargv_add(dt_pfargv_t *pfv, uint32_t *capp)
{
	dt_pfargd_t *pfd;

	if (pfv->pfv_argc == *capp) {
		uint32_t cap = *capp ? *capp * 2 : 8;

		pfd = realloc(pfv->pfv_argv, cap * sizeof(*pfd));
		if (pfd == NULL)
			return NULL;
		pfv->pfv_argv = pfd;
		*capp = cap;
	}
	pfd = &pfv->pfv_argv[pfv->pfv_argc++];
	memset(pfd, 0, sizeof(*pfd));
	return pfd;
}

/*
 * The grammar is DTrace's: after '%', flags, width, '.' and precision may
 * come in any order ('0' is the zero-pad flag only before any digit);
 * size prefixes accumulate into the conversion's name, which ends at the
 * first other character.
 */
dt_pfargv_t *
dt_printf_parse(const char *fmt, dt_pferr_t *errp)
{
	dt_pfargv_t *pfv;
	dt_pfargd_t *pfd;
	const char *p, *q;
	uint32_t cap = 0;

	if ((pfv = calloc(1, sizeof(*pfv))) == NULL ||
	    (pfv->pfv_format = strdup(fmt)) == NULL) {
		free(pfv);
		dt_pferr_set(errp, "D_NOMEM", "out of memory");
		return NULL;
	}

	for (q = pfv->pfv_format; (p = strchr(q, '%')) != NULL;
	     q = *p ? p + 1 : p) {
		char name[8];
		size_t namelen = 0;
		int digits = 0, dot = 0;
		char c;

		if ((pfd = dt_pfargv_add(pfv, &cap)) == NULL)
			goto nomem;
		pfd->pfd_prefix = q;
		pfd->pfd_preflen = (size_t) (p - q);
		for (;;) {
			c = *++p;
			if (isdigit((unsigned char) c)) {
				int n = 0;

				if (dot == 0 && digits == 0 && c == '0') {
					pfd->pfd_flags |= DT_PFCONV_ZPAD;
					pfd->pfd_flags &= ~DT_PFCONV_LEFT;
					continue;
				}
				for (; isdigit((unsigned char) c); c = *++p) {
					/* C's printf takes an int. */
					if (n > (INT_MAX - (c - '0')) / 10) {
						dt_pferr_set(errp, "D_SYNTAX",
						    "format conversion #%u has "
						    "a %s larger than %d",
						    pfv->pfv_argc, dot ?
						    "precision" : "width",
						    INT_MAX);
						goto fail;
					}
					/* (c - '0') first: n * 10 + c may not fit. */
					n = n * 10 + (c - '0');
				}
				p--;
				if (dot)
					pfd->pfd_prec = n;
				else
					pfd->pfd_width = n;
				digits++;
				continue;
			}
			switch (c) {
			case '#':
				pfd->pfd_flags |= DT_PFCONV_ALT;
				continue;
			case '*': {
				uint32_t f =
				    dot ? DT_PFCONV_DYNPREC : DT_PFCONV_DYNWID;

				if (pfd->pfd_flags & f) {
					/* DTrace's wording, "precision" both
					 * times included. */
					dt_pferr_set(errp, "D_SYNTAX",
					    "format conversion #%u has more "
					    "than one '*' specified for the "
					    "output precision",
					    pfv->pfv_argc);
					goto fail;
				}
				pfd->pfd_flags |= f;
				continue;
			}
			case '+':
				pfd->pfd_flags |= DT_PFCONV_SPOS;
				continue;
			case '-':
				pfd->pfd_flags |= DT_PFCONV_LEFT;
				pfd->pfd_flags &= ~DT_PFCONV_ZPAD;
				continue;
			case '.':
				if (dot++ != 0) {
					dt_pferr_set(errp, "D_SYNTAX",
					    "format conversion #%u has more "
					    "than one '.' specified",
					    pfv->pfv_argc);
					goto fail;
				}
				digits = 0;
				continue;
			case '?':
				pfd->pfd_width = 16;
				continue;
			case '@':
				pfd->pfd_flags |= DT_PFCONV_AGG;
				pfv->pfv_hasagg = true;
				continue;
			case '\'':
				pfd->pfd_flags |= DT_PFCONV_GROUP;
				continue;
			case ' ':
				pfd->pfd_flags |= DT_PFCONV_SPACE;
				continue;
			case '$':
				dt_pferr_set(errp, "D_SYNTAX",
				    "format conversion #%u uses unsupported "
				    "positional format (%%n$)",
				    pfv->pfv_argc);
				goto fail;
			case '%':
				if (p[-1] == '%')
					break;
				dt_pferr_set(errp, "D_SYNTAX",
				    "format conversion #%u cannot be combined "
				    "with other format flags: %%%%",
				    pfv->pfv_argc);
				goto fail;
			case '\0':
				dt_pferr_set(errp, "D_SYNTAX",
				    "format conversion #%u name expected "
				    "before end of format string",
				    pfv->pfv_argc);
				goto fail;
			case 'h':
			case 'l':
			case 'L':
			case 'w':
				if (namelen < sizeof(name) - 2)
					name[namelen++] = c;
				continue;
			default:
				break;
			}
			break;
		}
		name[namelen++] = c;
		name[namelen] = '\0';
		if ((pfd->pfd_conv = dt_pfconv_lookup(name)) == NULL) {
			dt_pferr_set(errp, "D_SYNTAX",
			    "format conversion #%u is undefined: %%%s",
			    pfv->pfv_argc, name);
			goto fail;
		}
		if (pfd->pfd_conv->pc_kind != DT_PFK_PCT)
			pfv->pfv_nconv++;
	}

	/* Text after the last conversion (or an empty format). */
	if (*q != '\0' || pfv->pfv_format[0] == '\0') {
		if ((pfd = dt_pfargv_add(pfv, &cap)) == NULL)
			goto nomem;
		pfd->pfd_prefix = q;
		pfd->pfd_preflen = strlen(q);
	}
	return pfv;

nomem:
	dt_pferr_set(errp, "D_NOMEM", "out of memory");
fail:
	dt_printf_free(pfv);
	return NULL;
}

static bool
dt_pfarg_isint(const dt_pfargtype_t *at)
{
	return at->pt_kind == DT_PFARG_INT || at->pt_kind == DT_PFARG_SYMADDR ||
	    at->pt_kind == DT_PFARG_USYMADDR;
}

static bool
dt_pfarg_issigned(const dt_pfargtype_t *at)
{
	return at->pt_kind == DT_PFARG_INT && at->pt_signed;
}

static bool
dt_pfcheck(const dt_pfconv_t *pc, const dt_pfargtype_t *at, uint32_t flags)
{
	bool isint = dt_pfarg_isint(at);

	switch (pc->pc_check) {
	case DT_PFC_INT:
		return isint;
	case DT_PFC_CSI:
		return isint && at->pt_size <= 4;
	case DT_PFC_TYPE:
		return isint && at->pt_size == pc->pc_size &&
		    dt_pfarg_issigned(at) == pc->pc_signed;
	case DT_PFC_SIZE:
		return isint && at->pt_size == pc->pc_size;
	case DT_PFC_FP:
		return at->pt_kind == DT_PFARG_FLOAT;
	case DT_PFC_LDOUBLE:
		return at->pt_kind == DT_PFARG_FLOAT && at->pt_size == 16;
	case DT_PFC_ADDR:
	case DT_PFC_KADDR:
		return isint || at->pt_kind == DT_PFARG_POINTER || at->pt_array;
	case DT_PFC_UADDR:
		if (at->pt_kind == DT_PFARG_USYMADDR)
			return true;
		return (flags & DT_PRINTF_TARGET) &&
		    (isint || at->pt_kind == DT_PFARG_POINTER || at->pt_array);
	case DT_PFC_STACK:
		return at->pt_kind == DT_PFARG_STACK;
	case DT_PFC_TIME:
		return isint && at->pt_size == 8;
	case DT_PFC_STR:
		return at->pt_kind == DT_PFARG_STRING;
	case DT_PFC_WSTR:
		return at->pt_kind == DT_PFARG_WSTRING;
	case DT_PFC_NONE:
		return false;
	}
	return false;
}

int
dt_printf_validate(const dt_pfargv_t *pfv, const char *func, int foff,
    const dt_pfargtype_t *args, uint32_t nargs, uint32_t flags, bool aggsigned,
    dt_pferr_t *errp)
{
	dt_pfargtype_t aggtype;
	uint32_t j = 0;

	if (pfv->pfv_format[0] == '\0') {
		dt_pferr_set(errp, "D_PRINTF_FMT_EMPTY",
		    "%s( ) format string is empty", func);
		return -1;
	}

	/* What an '@' conversion formats: count() is unsigned. */
	aggtype.pt_kind = DT_PFARG_INT;
	aggtype.pt_size = 8;
	aggtype.pt_signed = aggsigned;
	aggtype.pt_name = aggsigned ? "int64_t" : "uint64_t";

	for (uint32_t i = 0; i < pfv->pfv_argc; i++) {
		const dt_pfargd_t *pfd = &pfv->pfv_argv[i];
		const dt_pfconv_t *pc = pfd->pfd_conv;
		const char *dyns[2];
		const dt_pfargtype_t *at;
		char vname[64];
		int dync = 0;

		if (pc == NULL || pc->pc_kind == DT_PFK_PCT)
			continue;
		if (pfd->pfd_flags & DT_PFCONV_DYNPREC)
			dyns[dync++] = ".*";
		if (pfd->pfd_flags & DT_PFCONV_DYNWID)
			dyns[dync++] = "*";
		for (; dync != 0; dync--) {
			if (j >= nargs) {
				dt_pferr_set(errp, "D_PRINTF_DYN_PROTO",
				    "%s( ) prototype mismatch: conversion #%u "
				    "(%%%s) is missing a corresponding \"%s\" "
				    "argument",
				    func, i + 1, pc->pc_name, dyns[dync - 1]);
				return -1;
			}
			if (!dt_pfarg_isint(&args[j])) {
				dt_pferr_set(errp, "D_PRINTF_DYN_TYPE",
				    "%s( ) argument #%d is incompatible with "
				    "conversion #%u prototype:\n"
				    "\tconversion: %% %s %s\n"
				    "\t prototype: int\n\t  argument: %s",
				    func, (int) j + foff + 1, i + 1,
				    dyns[dync - 1], pc->pc_name,
				    args[j].pt_name);
				return -1;
			}
			j++;
		}

		if (pfd->pfd_flags & DT_PFCONV_AGG) {
			if (!(flags & DT_PRINTF_PRINTA)) {
				dt_pferr_set(errp, "D_PRINTF_AGG_CONV",
				    "%%@ conversion requires an aggregation "
				    "and is not for use with %s( )",
				    func);
				return -1;
			}
			(void) snprintf(
			    vname, sizeof(vname), "aggregating action");
			at = &aggtype;
		} else if (j >= nargs) {
			dt_pferr_set(errp, "D_PRINTF_ARG_PROTO",
			    "%s( ) prototype mismatch: conversion #%u (%%%s) "
			    "is missing a corresponding value argument",
			    func, i + 1, pc->pc_name);
			return -1;
		} else {
			(void) snprintf(vname, sizeof(vname), "argument #%d",
			    (int) j + foff + 1);
			at = &args[j++];
		}

		if (!dt_pfcheck(pc, at, flags)) {
			dt_pferr_set(errp, "D_PRINTF_ARG_TYPE",
			    "%s( ) %s is incompatible with conversion #%u "
			    "prototype:\n\tconversion: %%%s\n"
			    "\t prototype: %s\n\t  argument: %s",
			    func, vname, i + 1, pc->pc_name, pc->pc_proto,
			    at->pt_name);
			return -1;
		}
	}

	if ((flags & DT_PRINTF_EXACTLEN) && j < nargs) {
		dt_pferr_set(errp, "D_PRINTF_ARG_EXTRA",
		    "%s( ) prototype mismatch: only %u arguments required "
		    "by this format string",
		    func, j);
		return -1;
	}
	return 0;
}

/*
 * %S: C escapes for the unprintable, octal for the rest.  Like DTrace, a
 * NUL within n bytes ends the string and is shown as \0.
 */
char *
dt_strchr2esc(const char *s, size_t n)
{
	char *out, *q;

	if ((out = malloc(n * 4 + 1)) == NULL)
		return NULL;
	q = out;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		const char *esc = NULL;

		switch (c) {
		case '\0':
			esc = "\\0";
			break;
		case '\a':
			esc = "\\a";
			break;
		case '\b':
			esc = "\\b";
			break;
		case '\f':
			esc = "\\f";
			break;
		case '\n':
			esc = "\\n";
			break;
		case '\r':
			esc = "\\r";
			break;
		case '\t':
			esc = "\\t";
			break;
		case '\v':
			esc = "\\v";
			break;
		case '"':
			esc = "\\\"";
			break;
		case '\\':
			esc = "\\\\";
			break;
		default:
			break;
		}
		if (esc != NULL) {
			*q++ = esc[0];
			*q++ = esc[1];
		} else if (c != ' ' && (c < '!' || c > '~')) {
			unsigned char u = (unsigned char) c;

			*q++ = '\\';
			*q++ = (char) ('0' + ((u >> 6) & 3));
			*q++ = (char) ('0' + ((u >> 3) & 7));
			*q++ = (char) ('0' + (u & 7));
		} else {
			*q++ = c;
		}
		if (c == '\0')
			break;
	}
	*q = '\0';
	return out;
}

/* The pieces of one conversion's printf(3) format, before the type. */
typedef struct dt_pfspec {
	char ps_head[48]; /* "%-08.3" */
	const dt_pfargd_t *ps_pfd;
	int ps_width; /* after '*' */
	int ps_prec;
} dt_pfspec_t;

static void
dt_pfspec_build(
    dt_pfspec_t *ps, const dt_pfargd_t *pfd, int width, int prec, bool nowidth)
{
	char *f = ps->ps_head;
	size_t room = sizeof(ps->ps_head);
	int n;

	*f++ = '%';
	if (pfd->pfd_flags & DT_PFCONV_ALT)
		*f++ = '#';
	if (pfd->pfd_flags & DT_PFCONV_ZPAD)
		*f++ = '0';
	if (width < 0 || (pfd->pfd_flags & DT_PFCONV_LEFT))
		*f++ = '-';
	if (pfd->pfd_flags & DT_PFCONV_SPOS)
		*f++ = '+';
	if (pfd->pfd_flags & DT_PFCONV_GROUP)
		*f++ = '\'';
	if (pfd->pfd_flags & DT_PFCONV_SPACE)
		*f++ = ' ';
	room -= (size_t) (f - ps->ps_head);
	if (width != 0 && !nowidth) {
		n = snprintf(f, room, "%d", width < 0 ? -width : width);
		f += n;
		room -= (size_t) n;
	}
	if (prec > 0) {
		n = snprintf(f, room, ".%d", prec);
		f += n;
	}
	*f = '\0';
	ps->ps_pfd = pfd;
	ps->ps_width = width;
	ps->ps_prec = prec;
}

/* Print with ps_head + tail, where tail is the type part: "lld", "s". */
static int
dt_pfprint(FILE *fp, const dt_pfspec_t *ps, const char *tail, ...)
{
	char fmt[64];
	va_list ap;
	int n;

	(void) snprintf(fmt, sizeof(fmt), "%s%s", ps->ps_head, tail);
	va_start(ap, tail);
	n = vfprintf(fp, fmt, ap);
	va_end(ap);
	return n < 0 ? -1 : 0;
}

static int
dt_pfprint_str(FILE *fp, const dt_pfspec_t *ps, const char *s)
{
	return dt_pfprint(fp, ps, "s", s);
}

/* Integers: 1, 2 and 4 byte values widen to 32 bits, as in DTrace. */
static int
dt_pfprint_int(FILE *fp, const dt_pfspec_t *ps, const char *ofmt, bool issigned,
    uint32_t size, uint64_t raw, uint64_t normal)
{
	char tail[8];

	if (normal == 0)
		normal = 1;
	/* %d of an unsigned value is %u, as DTrace's compiler rewrites it. */
	if (strcmp(ofmt, "d") == 0 || strcmp(ofmt, "i") == 0)
		ofmt = issigned ? "d" : "u";
	if (size == 8) {
		(void) snprintf(tail, sizeof(tail), "ll%s", ofmt);
		if (issigned)
			return dt_pfprint(fp, ps, tail,
			    (long long) ((int64_t) raw / (int64_t) normal));
		return dt_pfprint(
		    fp, ps, tail, (unsigned long long) (raw / normal));
	}
	if (strcmp(ofmt, "lc") == 0)
		return dt_pfprint(fp, ps, ofmt, (wint_t) (int32_t) raw);
	if (issigned)
		return dt_pfprint(
		    fp, ps, ofmt, (int) ((int32_t) raw / (int32_t) normal));
	return dt_pfprint(
	    fp, ps, ofmt, (unsigned int) ((uint32_t) raw / (uint32_t) normal));
}

static int
dt_pfprint_time(FILE *fp, const dt_pfspec_t *ps, uint64_t ns, bool rfc822)
{
	time_t sec = (time_t) (ns / 1000000000ULL);
	struct tm tm;
	char buf[64];

	if (localtime_r(&sec, &tm) == NULL)
		return dt_pfprint_str(fp, ps, "?");
	/* %Y is mdb's /Y format: "2026 Nov 22 16:45:12" (day space-padded). */
	if (rfc822)
		(void) strftime(buf, sizeof(buf), "%a, %d %b %G %T %Z", &tm);
	else
		(void) strftime(buf, sizeof(buf), "%Y %b %e %T", &tm);
	return dt_pfprint_str(fp, ps, buf);
}

static int
dt_pfprint_port(FILE *fp, const dt_pfspec_t *ps, uint16_t port)
{
	struct servent se, *sp = NULL;
	char buf[1024];

	if (getservbyport_r(htons(port), NULL, &se, buf, sizeof(buf), &sp) ==
		0 &&
	    sp != NULL)
		return dt_pfprint_str(fp, ps, sp->s_name);
	(void) snprintf(buf, sizeof(buf), "%d", port);
	return dt_pfprint_str(fp, ps, buf);
}

static int
dt_pfprint_fp(FILE *fp, const dt_pfspec_t *ps, const char *ofmt,
    const void *addr, uint32_t size, uint64_t normal)
{
	char tail[4];

	if (normal == 0)
		normal = 1;
	switch (size) {
	case sizeof(float): {
		float f;

		memcpy(&f, addr, sizeof(f));
		return dt_pfprint(fp, ps, ofmt, (double) f / (double) normal);
	}
	case sizeof(double): {
		double d;

		memcpy(&d, addr, sizeof(d));
		return dt_pfprint(fp, ps, ofmt, d / (double) normal);
	}
	case sizeof(long double): {
		long double ld;

		memcpy(&ld, addr, sizeof(ld));
		(void) snprintf(tail, sizeof(tail), "L%s", ofmt);
		return dt_pfprint(fp, ps, tail, ld / (long double) normal);
	}
	default:
		return -2;
	}
}

static int
dt_pfprint_wstr(
    FILE *fp, const dt_pfspec_t *ps, const void *addr, uint32_t size)
{
	size_t n = size / sizeof(wchar_t);
	wchar_t *ws;
	int rv;

	if ((ws = calloc(n + 1, sizeof(wchar_t))) == NULL)
		return -1;
	memcpy(ws, addr, n * sizeof(wchar_t));
	rv = dt_pfprint(fp, ps, "ls", ws);
	free(ws);
	return rv;
}

/* A string record: at most size bytes, NUL-terminated or not. */
static char *
dt_pfstrdup(const void *addr, uint32_t size)
{
	char *s = malloc((size_t) size + 1);

	if (s == NULL)
		return NULL;
	memcpy(s, addr, size);
	s[size] = '\0';
	return s;
}

static int dt_pfprint_rec(dt_consumer_t *dc, FILE *fp, const dt_pfspec_t *ps,
    const dt_pfconv_t *pc, const dt_recdesc_t *rd, const void *addr);

/* One '@' conversion: the value of an aggregating function. */
static int
dt_pfprint_agg(dt_consumer_t *dc, FILE *fp, const dt_pfspec_t *ps,
    const dt_pfconv_t *pc, const dt_pfaggval_t *av)
{
	const dt_aggdesc_t *agg = av->pa_agg;
	uint64_t normal = av->pa_normal ? av->pa_normal : 1;
	bool issigned;
	uint64_t v;

	switch (agg->ag_kind) {
	case DT_AGG_QUANTIZE:
	case DT_AGG_LQUANTIZE:
	case DT_AGG_LLQUANTIZE:
		return dt_print_quantize(dc, fp, agg, av->pa_vals, normal);
	case DT_AGG_AVG:
		v = (uint64_t) dt_agg_avg(av->pa_vals, normal);
		normal = 1;
		break;
	case DT_AGG_STDDEV:
		v = dt_agg_stddev(av->pa_vals, normal);
		normal = 1;
		break;
	default:
		v = (uint64_t) av->pa_vals[0];
		break;
	}

	switch (pc->pc_kind) {
	case DT_PFK_DINT:
		issigned = agg->ag_kind != DT_AGG_COUNT;
		break;
	case DT_PFK_SINT:
		issigned = true;
		break;
	case DT_PFK_UINT:
		issigned = false;
		break;
	default: {
		/*
		 * Any other conversion the compiler let through takes the
		 * value as a 64-bit integer record: %@Y and %@T a time, %@a
		 * a kernel address.
		 */
		dt_recdesc_t rd;
		int64_t val = (int64_t) v / (int64_t) normal;

		memset(&rd, 0, sizeof(rd));
		rd.rd_type =
		    agg->ag_kind == DT_AGG_COUNT ? DT_REC_UINT : DT_REC_SINT;
		rd.rd_size = sizeof(val);
		rd.rd_align = sizeof(val);
		return dt_pfprint_rec(dc, fp, ps, pc, &rd, &val);
	}
	}
	return dt_pfprint_int(fp, ps, pc->pc_ofmt, issigned, 8, v, normal);
}

static int
dt_pf_getint(dtrace_hdl_t *dtp, const dt_recdesc_t *rd, const void *data,
    size_t len, int *ip)
{
	if ((size_t) rd->rd_offset + rd->rd_size > len)
		return dt_set_errno(dtp, EDT_DOFFSET);
	switch (rd->rd_size) {
	case 1:
	case 2:
	case 4:
	case 8:
		*ip =
		    (int) dt_rec_sint(rd, (const char *) data + rd->rd_offset);
		return 0;
	default:
		return dt_set_errno(dtp, EDT_DMISMATCH);
	}
}

/* One conversion applied to one record. */
static int
dt_pfprint_rec(dt_consumer_t *dc, FILE *fp, const dt_pfspec_t *ps,
    const dt_pfconv_t *pc, const dt_recdesc_t *rd, const void *addr)
{
	char buf[4096];
	uint64_t u;
	char *s;
	int rv;

	switch (pc->pc_kind) {
	case DT_PFK_SINT:
	case DT_PFK_UINT:
	case DT_PFK_DINT: {
		bool issigned = pc->pc_kind == DT_PFK_SINT ||
		    (pc->pc_kind == DT_PFK_DINT && rd->rd_type == DT_REC_SINT);

		/*
		 * usym(), umod(), uaddr(): an integer like sym(), whose
		 * record also holds the pid; the number is the address.
		 */
		if (rd->rd_size == 16 &&
		    (rd->rd_type == DT_REC_USYM || rd->rd_type == DT_REC_UMOD ||
			rd->rd_type == DT_REC_UADDR)) {
			memcpy(&u, (const char *) addr + 8, sizeof(u));
			return dt_pfprint_int(
			    fp, ps, pc->pc_ofmt, false, 8, u, 1);
		}
		if (rd->rd_size != 1 && rd->rd_size != 2 && rd->rd_size != 4 &&
		    rd->rd_size != 8)
			return -2;
		return dt_pfprint_int(fp, ps, pc->pc_ofmt, issigned,
		    rd->rd_size,
		    issigned ? (uint64_t) dt_rec_sint(rd, addr)
			     : dt_rec_uint(rd, addr),
		    1);
	}
	case DT_PFK_FP:
		return dt_pfprint_fp(fp, ps, pc->pc_ofmt, addr, rd->rd_size, 1);
	case DT_PFK_ADDR:
		if (rd->rd_size != 4 && rd->rd_size != 8)
			return -2;
		dt_addr2str(dc, dt_rec_uint(rd, addr), true, buf, sizeof(buf));
		return dt_pfprint_str(fp, ps, buf);
	case DT_PFK_UADDR: {
		uint64_t pid = 0, pc2;

		if (rd->rd_size == 16) {
			memcpy(&pid, addr, 8);
			memcpy(&pc2, (const char *) addr + 8, 8);
		} else if (rd->rd_size == 4 || rd->rd_size == 8) {
			/* A plain address (-c, -p): one in $target. */
			pc2 = dt_rec_uint(rd, addr);
			pid = (uint64_t) dt_proc_target(dc->dc_dtp);
		} else {
			return -2;
		}
		dt_uaddr2str(dc, pid, pc2, true, buf, sizeof(buf));
		return dt_pfprint_str(fp, ps, buf);
	}
	case DT_PFK_STACK: {
		/*
		 * As in DTrace: a left-aligned width is the indent of each
		 * frame; any other width pads each frame's text.
		 */
		const dt_pfargd_t *pfd = ps->ps_pfd;
		int indent = 0;
		dt_pfspec_t fps;

		if (ps->ps_width < 0)
			indent = -ps->ps_width;
		else if (pfd->pfd_flags & DT_PFCONV_LEFT)
			indent = ps->ps_width;
		dt_pfspec_build(&fps, pfd, ps->ps_width, ps->ps_prec,
		    (pfd->pfd_flags & DT_PFCONV_LEFT) || ps->ps_width < 0);
		(void) snprintf(buf, sizeof(buf), "%ss", fps.ps_head);
		if (rd->rd_type == DT_REC_USTACK)
			return dt_print_ustack(
			    dc, fp, buf, addr, rd->rd_arg, indent);
		if (rd->rd_type == DT_REC_STACK)
			return dt_print_stack(
			    dc, fp, buf, addr, rd->rd_arg, indent);
		return -2;
	}
	case DT_PFK_CSTR:
	case DT_PFK_INET:
		if ((s = dt_pfstrdup(addr, rd->rd_size)) == NULL)
			return dt_cons_nomem(dc);
		rv = dt_pfprint_str(fp, ps, s);
		free(s);
		return rv;
	case DT_PFK_ESTR:
		if ((s = dt_strchr2esc(addr, rd->rd_size)) == NULL)
			return dt_cons_nomem(dc);
		rv = dt_pfprint_str(fp, ps, s);
		free(s);
		return rv;
	case DT_PFK_ECHR: {
		char c;

		if (rd->rd_size != 1 && rd->rd_size != 2 && rd->rd_size != 4)
			return -2;
		c = (char) dt_rec_sint(rd, addr);
		if ((s = dt_strchr2esc(&c, 1)) == NULL)
			return dt_cons_nomem(dc);
		rv = dt_pfprint_str(fp, ps, s);
		free(s);
		return rv;
	}
	case DT_PFK_WSTR:
		return dt_pfprint_wstr(fp, ps, addr, rd->rd_size);
	case DT_PFK_TIME:
	case DT_PFK_TIME822:
		if (rd->rd_size != 8)
			return -2;
		memcpy(&u, addr, 8);
		return dt_pfprint_time(
		    fp, ps, u, pc->pc_kind == DT_PFK_TIME822);
	case DT_PFK_PORT:
		if (rd->rd_size != 2 && rd->rd_size != 4 && rd->rd_size != 8)
			return -2;
		return dt_pfprint_port(
		    fp, ps, (uint16_t) dt_rec_uint(rd, addr));
	case DT_PFK_PCT:
		break;
	}
	return 0;
}

int
dt_printf_format(dt_consumer_t *dc, FILE *fp, const dt_pfargv_t *pfv,
    const dt_recdesc_t *recs, uint32_t nrecs, const void *data, size_t len,
    const dt_pfaggval_t *aggs, uint32_t naggs)
{
	dtrace_hdl_t *dtp = dc->dc_dtp;
	uint32_t r = 0, curagg = 0;

	for (uint32_t i = 0; i < pfv->pfv_argc; i++) {
		const dt_pfargd_t *pfd = &pfv->pfv_argv[i];
		const dt_pfconv_t *pc = pfd->pfd_conv;
		int width = pfd->pfd_width, prec = pfd->pfd_prec, rv;
		dt_pfspec_t ps;

		if (pfd->pfd_preflen != 0 &&
		    fwrite(pfd->pfd_prefix, 1, pfd->pfd_preflen, fp) !=
			pfd->pfd_preflen)
			return dt_cons_ioerr(dtp);
		if (pc == NULL)
			continue;
		if (pc->pc_kind == DT_PFK_PCT) {
			(void) fputc('%', fp);
			continue;
		}
		if (pfd->pfd_flags & DT_PFCONV_DYNWID) {
			if (r >= nrecs)
				return dt_set_errno(dtp, EDT_DMISMATCH);
			if (dt_pf_getint(dtp, &recs[r++], data, len, &width))
				return -1;
		}
		if (pfd->pfd_flags & DT_PFCONV_DYNPREC) {
			if (r >= nrecs)
				return dt_set_errno(dtp, EDT_DMISMATCH);
			if (dt_pf_getint(dtp, &recs[r++], data, len, &prec))
				return -1;
		}
		dt_pfspec_build(&ps, pfd, width, prec,
		    pc->pc_kind == DT_PFK_STACK &&
			(pfd->pfd_flags & DT_PFCONV_LEFT));

		if (pfd->pfd_flags & DT_PFCONV_AGG) {
			if (aggs == NULL || naggs == 0)
				return dt_set_errno(dtp, EDT_DMISMATCH);
			rv = dt_pfprint_agg(dc, fp, &ps, pc, &aggs[curagg]);
			/* '@' conversions past the last aggregation repeat
			 * its value. */
			if (curagg < naggs - 1)
				curagg++;
		} else {
			const dt_recdesc_t *rd;

			if (r >= nrecs)
				return dt_set_errno(dtp, EDT_DMISMATCH);
			rd = &recs[r++];
			if ((size_t) rd->rd_offset + rd->rd_size > len)
				return dt_set_errno(dtp, EDT_DOFFSET);
			rv = dt_pfprint_rec(dc, fp, &ps, pc, rd,
			    (const char *) data + rd->rd_offset);
		}
		if (rv == -2)
			return dt_set_errno(dtp, EDT_DMISMATCH);
		if (rv < 0)
			return -1;
	}
	return (int) r;
}
