/* SPDX-License-Identifier: MIT */
/*
 * dt_printf.h: D format strings -- parsed once, checked against argument
 * types by the compiler, then applied to records by the consumer.
 *
 * A format string becomes a dt_pfargv_t: a list of dt_pfargd_t, each the
 * literal text before one conversion and the conversion itself (flags,
 * width, precision, size prefix and name), plus a final entry holding the
 * text after the last conversion.  The same parsed format serves printf(),
 * printa(), system() and freopen().
 *
 * The compiler calls dt_printf_parse() and dt_printf_validate() with the
 * D types of the arguments (dt_pfargtype_t, filled from its own type
 * system) and gets DTrace's error tag and message on failure.  The consumer
 * calls dt_printf_format() with the records of a firing, or (printa) with
 * an aggregation's key records and values.
 */
#ifndef DT_PRINTF_H
#define DT_PRINTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/dt_program.h"

typedef struct dt_consumer dt_consumer_t;

/* Conversion flags, as written in the format. */
#define DT_PFCONV_ALT	  0x0001 /* '#' */
#define DT_PFCONV_ZPAD	  0x0002 /* '0' */
#define DT_PFCONV_LEFT	  0x0004 /* '-' */
#define DT_PFCONV_SPOS	  0x0008 /* '+' */
#define DT_PFCONV_SPACE	  0x0010 /* ' ' */
#define DT_PFCONV_GROUP	  0x0020 /* '\'' */
#define DT_PFCONV_DYNWID  0x0040 /* '*' width from an argument */
#define DT_PFCONV_DYNPREC 0x0080 /* '.*' precision from an argument */
#define DT_PFCONV_AGG	  0x0100 /* '@': the aggregation value (printa) */

struct dt_pfconv;

typedef struct dt_pfargd {
	const char *pfd_prefix; /* literal text before the conversion */
	size_t pfd_preflen;
	const struct dt_pfconv *pfd_conv; /* NULL: trailing text only */
	uint32_t pfd_flags;		  /* DT_PFCONV_* */
	int pfd_width;
	int pfd_prec; /* 0 also means "none", as in DTrace */
} dt_pfargd_t;

typedef struct dt_pfargv {
	char *pfv_format; /* copy of the format; prefixes point in it */
	dt_pfargd_t *pfv_argv;
	uint32_t pfv_argc;
	uint32_t pfv_nconv; /* conversions, %% excluded */
	bool pfv_hasagg;    /* some conversion has the '@' flag */
} dt_pfargv_t;

/* An error from parsing or validating a format: DTrace's tag and text. */
typedef struct dt_pferr {
	const char *pe_tag; /* "D_PRINTF_ARG_TYPE", "D_SYNTAX", ... */
	char pe_msg[512];   /* one message, without a final newline */
} dt_pferr_t;

/*
 * Parse a format.  Returns NULL and fills *errp (which may be NULL) when
 * the format is malformed; the messages are DTrace's ("format conversion
 * #2 is undefined: %y").
 */
extern dt_pfargv_t *dt_printf_parse(const char *fmt, dt_pferr_t *errp);
extern void dt_printf_free(dt_pfargv_t *pfv);

/* What the compiler knows of one argument, for dt_printf_validate(). */
typedef enum dt_pfargkind {
	DT_PFARG_INT,	   /* integer or enum */
	DT_PFARG_FLOAT,	   /* float, double, long double */
	DT_PFARG_POINTER,  /* any pointer */
	DT_PFARG_STRING,   /* string, or char [n] */
	DT_PFARG_WSTRING,  /* wchar_t [n] */
	DT_PFARG_STACK,	   /* stack(), ustack(), jstack() */
	DT_PFARG_SYMADDR,  /* _symaddr: sym(), func() */
	DT_PFARG_USYMADDR, /* _usymaddr: usym(), ufunc(), uaddr() */
	DT_PFARG_OTHER,	   /* struct, union, void, an aggregation, ... */
} dt_pfargkind_t;

typedef struct dt_pfargtype {
	dt_pfargkind_t pt_kind;
	uint32_t pt_size;    /* bytes */
	bool pt_signed;	     /* DT_PFARG_INT */
	const char *pt_name; /* D type name for messages: "char [16]" */
	bool pt_array;	     /* an array: also passes where a pointer does */
} dt_pfargtype_t;

/* Flags for dt_printf_validate(). */
#define DT_PRINTF_EXACTLEN 0x1 /* printf(): extra arguments are an error */
#define DT_PRINTF_PRINTA   0x2 /* printa(): '@' conversions allowed */
#define DT_PRINTF_TARGET   0x4 /* -p/-c given: %A takes plain integers */

/*
 * Check a parsed format against the arguments of the action named func
 * ("printf", "printa", "system", "freopen").  foff is how many arguments
 * precede the values (1 for the format itself) so that messages number
 * arguments as the user wrote them.  For printa, aggsigned says whether
 * the aggregating function's result is signed (all but count()).
 * Returns 0, or -1 with *errp filled in.
 */
extern int dt_printf_validate(const dt_pfargv_t *pfv, const char *func,
    int foff, const dt_pfargtype_t *args, uint32_t nargs, uint32_t flags,
    bool aggsigned, dt_pferr_t *errp);

/* The aggregation values a printa() conversion with '@' consumes. */
typedef struct dt_pfaggval {
	const dt_aggdesc_t *pa_agg;
	const int64_t *pa_vals; /* ag_nvals words */
	uint64_t pa_normal;	/* normalize() factor, 1 when none */
} dt_pfaggval_t;

/*
 * Format records: recs[0..nrecs-1] describe the values in data (offsets
 * relative to data).  For printa, aggs[0..naggs-1] are the aggregation
 * values that successive '@' conversions take (the last one repeats).
 * Returns the number of records consumed, or -1 with the handle's error
 * set.  Output goes to fp.
 */
extern int dt_printf_format(dt_consumer_t *dc, FILE *fp, const dt_pfargv_t *pfv,
    const dt_recdesc_t *recs, uint32_t nrecs, const void *data, size_t len,
    const dt_pfaggval_t *aggs, uint32_t naggs);

/* %S's escaping of a string of at most n bytes; the caller frees. */
extern char *dt_strchr2esc(const char *s, size_t n);

#endif /* DT_PRINTF_H */
