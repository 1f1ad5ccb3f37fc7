/* SPDX-License-Identifier: MIT */
/*
 * dt_options.h: the options a consumer can set (-x name=value, #pragma D
 * option, and the dtrace(1) flags that are shorthands for them).
 *
 * Each option has an id, indexing dt_options[] and dt_optstr[] in the
 * handle, and a kind saying how its value is parsed:
 *
 *	bool	no value; setting it turns it on (value 1)
 *	size	bytes, with an optional k/m/g/t suffix
 *	time	nanoseconds, with an optional ns/us/ms/s/m/h/d suffix, or a
 *		rate with the hz suffix (converted to its period)
 *	int	a non-negative decimal integer
 *	enum	one word from a fixed list, stored as its index
 *	engine	"auto", "interp" or the name of one of the OS's engines
 *		(dt_os_engines), stored as DT_ENGINE_AUTO, DT_ENGINE_INTERP
 *		or DT_ENGINE_OS + its index
 *	string	any text, kept in dt_optstr[]
 *	version	a D language version DTrace defines, "1.13", stored encoded
 *		as major << 24 | minor << 12 | micro
 */
#ifndef DT_OPTIONS_H
#define DT_OPTIONS_H

#include <stdint.h>

typedef enum dt_optid {
	/* Consumer options of the Dynamic Tracing Guide. */
	DT_OPT_AGGRATE,
	DT_OPT_AGGSIZE,
	DT_OPT_AGGSORTKEY,
	DT_OPT_AGGSORTKEYPOS,
	DT_OPT_AGGSORTPOS,
	DT_OPT_AGGSORTREV,
	DT_OPT_AGGHIST,
	DT_OPT_AGGPACK,
	DT_OPT_AGGZOOM,
	DT_OPT_AGGPERCPU,
	DT_OPT_BUFPOLICY,
	DT_OPT_BUFRESIZE,
	DT_OPT_BUFSIZE,
	DT_OPT_CLEANRATE,
	DT_OPT_CPU,
	DT_OPT_DEFAULTARGS,
	DT_OPT_DESTRUCTIVE,
	DT_OPT_DYNVARSIZE,
	DT_OPT_FLOWINDENT,
	DT_OPT_GRABANON,
	DT_OPT_JSTACKFRAMES,
	DT_OPT_JSTACKSTRSIZE,
	DT_OPT_MAXFRAMES,
	DT_OPT_NSPEC,
	DT_OPT_QUIET,
	DT_OPT_RAWBYTES,
	DT_OPT_SPECSIZE,
	DT_OPT_STACKFRAMES,
	DT_OPT_STACKINDENT,
	DT_OPT_STATUSRATE,
	DT_OPT_STRSIZE,
	DT_OPT_SWITCHRATE,
	DT_OPT_TEMPORAL,
	DT_OPT_USTACKFRAMES,
	/* Compiler and library options. */
	DT_OPT_AMIN,
	DT_OPT_ARGREF,
	DT_OPT_BTFPATH,
	DT_OPT_CPP,
	DT_OPT_CPPHDRS,
	DT_OPT_CPPPATH,
	DT_OPT_CTYPES,
	DT_OPT_DEBUG,
	DT_OPT_DEFINE,
	DT_OPT_DROPTAGS,
	DT_OPT_DTYPES,
	DT_OPT_DWARFPATH,
	DT_OPT_EMPTY,
	DT_OPT_ERRTAGS,
	DT_OPT_EVALTIME,
	DT_OPT_INCDIR,
	DT_OPT_IREGS,
	DT_OPT_KDEFS,
	DT_OPT_KNODEFS,
	DT_OPT_LATE,
	DT_OPT_LAZYLOAD,
	DT_OPT_LDPATH,
	DT_OPT_LIBDIR,
	DT_OPT_LINKMODE,
	DT_OPT_LINKTYPE,
	DT_OPT_NOLIBS,
	DT_OPT_PGMAX,
	DT_OPT_PSPEC,
	DT_OPT_STDC,
	DT_OPT_SYSLIBDIR,
	DT_OPT_TREE,
	DT_OPT_TREGS,
	DT_OPT_UDEFS,
	DT_OPT_UNDEF,
	DT_OPT_UNODEFS,
	DT_OPT_VERBOSE,
	DT_OPT_VERSION,
	DT_OPT_ZDEFS,
	/* Options of this implementation. */
	DT_OPT_CTFPATH,	   /* kernel type source instead of the running BTF */
	DT_OPT_ENGINE,	   /* auto, interp or an OS engine's name */
	DT_OPT_FOLLOWFORK, /* trace every descendant of -c/-p processes */
	DT_OPT_OFORMAT,	   /* text, json, folded or pprof */
	DT_OPT_ENCODING,   /* ascii or utf8 bars (unset: by the terminal) */
	DT_OPT_LOCKMEM,	   /* RLIMIT_MEMLOCK for BPF maps (Linux) */
	DT_OPT_NORESOLVE,  /* user addresses as object:offset */
	DT_OPT_NODEMANGLE, /* C++ and Rust symbols as mangled */
	DT_OPT_BPFLOG,	   /* print the BPF verifier's log (Linux) */
	DT_OPT_CORE,	   /* dump core at exit */
	/* Oracle Linux DTrace's: the bytes alloca() and copyin() may take. */
	DT_OPT_SCRATCHSIZE,
	DT_OPT_METRICS,	      /* ADDR:PORT of the metrics endpoint */
	DT_OPT_METRICSLABELS, /* agg:label,label;... (accumulates) */
	DT_OPT_COUNT
} dt_optid_t;

typedef enum dt_optkind {
	DT_OPTK_BOOL,
	DT_OPTK_RTBOOL,	/* a consumer's switch: also yes/no, on/off, ... */
	DT_OPTK_SIZE,
	DT_OPTK_TIME,
	DT_OPTK_INT,
	DT_OPTK_ENUM,
	DT_OPTK_ENGINE,
	DT_OPTK_STRING,
	DT_OPTK_VERSION
} dt_optkind_t;

/* Values of the enum options, in the order of their word lists. */
enum { DT_BUFPOLICY_SWITCH, DT_BUFPOLICY_FILL, DT_BUFPOLICY_RING };
enum { DT_BUFRESIZE_AUTO, DT_BUFRESIZE_MANUAL };
enum { DT_ENGINE_AUTO, DT_ENGINE_INTERP, DT_ENGINE_OS };
enum { DT_OFORMAT_TEXT, DT_OFORMAT_JSON, DT_OFORMAT_FOLDED, DT_OFORMAT_PPROF };
enum { DT_ENCODING_ASCII, DT_ENCODING_UTF8 };

/*
 * Parsers shared with the rest of the library (the compiler parses sizes in
 * pragmas the same way).  Each returns 0 and stores the value, or -1.
 */
extern int dt_parse_size(const char *s, int64_t *valp);
extern int dt_parse_time(const char *s, int64_t *valp);
/* A D version: 0 and *valp encoded, or EDT_VERSINVAL / EDT_VERSUNDEF. */
extern int dt_version_check(const char *s, int64_t *valp);

#endif /* DT_OPTIONS_H */
