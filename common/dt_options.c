/* SPDX-License-Identifier: MIT */
/*
 * dt_options.c: the option table, value parsing and option defaults.
 *
 * The table maps an option's name to its id and kind (see dt_options.h).
 * Defaults are those of DTrace, so a script relying on, say, the default
 * strsize of 256 sees the same behaviour here.
 */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <unistd.h>

#include "common/compiler/dt_cc.h"
#include "common/dif/dif.h"
#include "common/dt_impl.h"
#include "common/dt_metrics.h"
#include "common/dt_os.h"

typedef struct dt_option {
	const char *o_name;
	dt_optid_t o_id;
	dt_optkind_t o_kind;
	const char *const *o_words; /* DT_OPTK_ENUM: the accepted words */
	unsigned o_flags;
} dt_option_t;

/*
 * Options that shape how a program is read or linked (the preprocessor's
 * arguments, the linker) are for the command line: by the time a D
 * program's #pragma is seen, they have done their work.
 */
#define DT_OPTF_NOPROG 0x1
/* Options whose value is added to the preprocessor's arguments. */
#define DT_OPTF_CPPARG 0x2
/* Counts of registers and the like, which must be at least 1. */
#define DT_OPTF_POSITIVE 0x4

static const char *const dt_bufpolicy_words[] = { "switch", "fill", "ring",
	NULL };
static const char *const dt_bufresize_words[] = { "auto", "manual", NULL };
static const char *const dt_oformat_words[] = { "text", "json", "folded",
	"pprof", NULL };
static const char *const dt_encoding_words[] = { "ascii", "utf8", NULL };
static const char *const dt_evaltime_words[] = { "exec", "preinit",
	"postinit", "main", NULL };
static const char *const dt_linkmode_words[] = { "kernel", "static",
	"dynamic", NULL };
static const char *const dt_linktype_words[] = { "elf", "dof", NULL };
static const char *const dt_stdc_words[] = { "a", "c", "s", "t", NULL };

static const dt_option_t dt_option_table[] = {
	{ "aggrate", DT_OPT_AGGRATE, DT_OPTK_TIME, NULL, 0 },
	{ "aggsize", DT_OPT_AGGSIZE, DT_OPTK_SIZE, NULL, 0 },
	{ "aggsortkey", DT_OPT_AGGSORTKEY, DT_OPTK_RTBOOL, NULL, 0 },
	{ "aggsortkeypos", DT_OPT_AGGSORTKEYPOS, DT_OPTK_INT, NULL, 0 },
	{ "aggsortpos", DT_OPT_AGGSORTPOS, DT_OPTK_INT, NULL, 0 },
	{ "aggsortrev", DT_OPT_AGGSORTREV, DT_OPTK_RTBOOL, NULL, 0 },
	{ "agghist", DT_OPT_AGGHIST, DT_OPTK_RTBOOL, NULL, 0 },
	{ "aggpack", DT_OPT_AGGPACK, DT_OPTK_RTBOOL, NULL, 0 },
	{ "aggzoom", DT_OPT_AGGZOOM, DT_OPTK_RTBOOL, NULL, 0 },
	{ "aggpercpu", DT_OPT_AGGPERCPU, DT_OPTK_BOOL, NULL, 0 },
	{ "bufpolicy", DT_OPT_BUFPOLICY, DT_OPTK_ENUM, dt_bufpolicy_words, 0 },
	{ "bufresize", DT_OPT_BUFRESIZE, DT_OPTK_ENUM, dt_bufresize_words, 0 },
	{ "bufsize", DT_OPT_BUFSIZE, DT_OPTK_SIZE, NULL, 0 },
	{ "cleanrate", DT_OPT_CLEANRATE, DT_OPTK_TIME, NULL, 0 },
	{ "cpu", DT_OPT_CPU, DT_OPTK_INT, NULL, 0 },
	{ "defaultargs", DT_OPT_DEFAULTARGS, DT_OPTK_BOOL, NULL, 0 },
	{ "destructive", DT_OPT_DESTRUCTIVE, DT_OPTK_BOOL, NULL, 0 },
	{ "dynvarsize", DT_OPT_DYNVARSIZE, DT_OPTK_SIZE, NULL, 0 },
	{ "flowindent", DT_OPT_FLOWINDENT, DT_OPTK_RTBOOL, NULL, 0 },
	{ "grabanon", DT_OPT_GRABANON, DT_OPTK_BOOL, NULL, 0 },
	{ "jstackframes", DT_OPT_JSTACKFRAMES, DT_OPTK_INT, NULL, 0 },
	{ "jstackstrsize", DT_OPT_JSTACKSTRSIZE, DT_OPTK_SIZE, NULL, 0 },
	/* Oracle Linux DTrace's cap on the frames of any stack. */
	{ "maxframes", DT_OPT_MAXFRAMES, DT_OPTK_INT, NULL, 0 },
	{ "nspec", DT_OPT_NSPEC, DT_OPTK_INT, NULL, 0 },
	{ "quiet", DT_OPT_QUIET, DT_OPTK_RTBOOL, NULL, 0 },
	{ "rawbytes", DT_OPT_RAWBYTES, DT_OPTK_RTBOOL, NULL, 0 },
	{ "specsize", DT_OPT_SPECSIZE, DT_OPTK_SIZE, NULL, 0 },
	{ "stackframes", DT_OPT_STACKFRAMES, DT_OPTK_INT, NULL, 0 },
	{ "stackindent", DT_OPT_STACKINDENT, DT_OPTK_INT, NULL, 0 },
	{ "statusrate", DT_OPT_STATUSRATE, DT_OPTK_TIME, NULL, 0 },
	{ "strsize", DT_OPT_STRSIZE, DT_OPTK_SIZE, NULL, 0 },
	{ "switchrate", DT_OPT_SWITCHRATE, DT_OPTK_TIME, NULL, 0 },
	{ "temporal", DT_OPT_TEMPORAL, DT_OPTK_BOOL, NULL, 0 },
	{ "ustackframes", DT_OPT_USTACKFRAMES, DT_OPTK_INT, NULL, 0 },
	{ "amin", DT_OPT_AMIN, DT_OPTK_STRING, NULL, 0 },
	{ "argref", DT_OPT_ARGREF, DT_OPTK_BOOL, NULL, 0 },
	{ "btfpath", DT_OPT_BTFPATH, DT_OPTK_STRING, NULL, 0 },
	/* Oracle Linux DTrace's name for where kernel types come from. */
	{ "ctfpath", DT_OPT_BTFPATH, DT_OPTK_STRING, NULL, 0 },
	{ "cpp", DT_OPT_CPP, DT_OPTK_BOOL, NULL, 0 },
	{ "cpphdrs", DT_OPT_CPPHDRS, DT_OPTK_BOOL, NULL, DT_OPTF_NOPROG },
	{ "cpppath", DT_OPT_CPPPATH, DT_OPTK_STRING, NULL, DT_OPTF_NOPROG },
	{ "ctypes", DT_OPT_CTYPES, DT_OPTK_STRING, NULL, 0 },
	{ "debug", DT_OPT_DEBUG, DT_OPTK_BOOL, NULL, 0 },
	{ "define", DT_OPT_DEFINE, DT_OPTK_STRING, NULL,
	    DT_OPTF_NOPROG | DT_OPTF_CPPARG },
	{ "droptags", DT_OPT_DROPTAGS, DT_OPTK_BOOL, NULL, 0 },
	{ "dtypes", DT_OPT_DTYPES, DT_OPTK_STRING, NULL, 0 },
	{ "dwarfpath", DT_OPT_DWARFPATH, DT_OPTK_STRING, NULL, 0 },
	{ "empty", DT_OPT_EMPTY, DT_OPTK_BOOL, NULL, 0 },
	{ "errtags", DT_OPT_ERRTAGS, DT_OPTK_BOOL, NULL, 0 },
	{ "evaltime", DT_OPT_EVALTIME, DT_OPTK_ENUM, dt_evaltime_words, 0 },
	{ "incdir", DT_OPT_INCDIR, DT_OPTK_STRING, NULL,
	    DT_OPTF_NOPROG | DT_OPTF_CPPARG },
	{ "iregs", DT_OPT_IREGS, DT_OPTK_INT, NULL, DT_OPTF_POSITIVE },
	{ "kdefs", DT_OPT_KDEFS, DT_OPTK_BOOL, NULL, 0 },
	{ "knodefs", DT_OPT_KNODEFS, DT_OPTK_BOOL, NULL, 0 },
	{ "late", DT_OPT_LATE, DT_OPTK_BOOL, NULL, 0 },
	{ "lazyload", DT_OPT_LAZYLOAD, DT_OPTK_BOOL, NULL, 0 },
	{ "ldpath", DT_OPT_LDPATH, DT_OPTK_STRING, NULL, DT_OPTF_NOPROG },
	{ "libdir", DT_OPT_LIBDIR, DT_OPTK_STRING, NULL, 0 },
	{ "linkmode", DT_OPT_LINKMODE, DT_OPTK_ENUM, dt_linkmode_words, 0 },
	{ "linktype", DT_OPT_LINKTYPE, DT_OPTK_ENUM, dt_linktype_words, 0 },
	{ "nolibs", DT_OPT_NOLIBS, DT_OPTK_BOOL, NULL, 0 },
	{ "pgmax", DT_OPT_PGMAX, DT_OPTK_INT, NULL, 0 },
	{ "pspec", DT_OPT_PSPEC, DT_OPTK_BOOL, NULL, 0 },
	{ "stdc", DT_OPT_STDC, DT_OPTK_ENUM, dt_stdc_words, DT_OPTF_NOPROG },
	{ "syslibdir", DT_OPT_SYSLIBDIR, DT_OPTK_STRING, NULL, 0 },
	{ "tree", DT_OPT_TREE, DT_OPTK_INT, NULL, DT_OPTF_POSITIVE },
	{ "tregs", DT_OPT_TREGS, DT_OPTK_INT, NULL, DT_OPTF_POSITIVE },
	{ "udefs", DT_OPT_UDEFS, DT_OPTK_BOOL, NULL, 0 },
	{ "undef", DT_OPT_UNDEF, DT_OPTK_STRING, NULL,
	    DT_OPTF_NOPROG | DT_OPTF_CPPARG },
	{ "unodefs", DT_OPT_UNODEFS, DT_OPTK_BOOL, NULL, 0 },
	{ "verbose", DT_OPT_VERBOSE, DT_OPTK_BOOL, NULL, 0 },
	{ "version", DT_OPT_VERSION, DT_OPTK_VERSION, NULL, 0 },
	{ "zdefs", DT_OPT_ZDEFS, DT_OPTK_BOOL, NULL, 0 },
	{ "ctfpath", DT_OPT_CTFPATH, DT_OPTK_STRING, NULL, 0 },
	{ "engine", DT_OPT_ENGINE, DT_OPTK_ENGINE, NULL, 0 },
	{ "followfork", DT_OPT_FOLLOWFORK, DT_OPTK_BOOL, NULL, 0 },
	{ "oformat", DT_OPT_OFORMAT, DT_OPTK_ENUM, dt_oformat_words, 0 },
	/* Aggregations over HTTP for Prometheus (common/dt_metrics.c). */
	{ "metrics", DT_OPT_METRICS, DT_OPTK_STRING, NULL, 0 },
	{ "metricslabels", DT_OPT_METRICSLABELS, DT_OPTK_STRING, NULL, 0 },
	{ "encoding", DT_OPT_ENCODING, DT_OPTK_ENUM, dt_encoding_words, 0 },
	/* User addresses as object:offset, unresolved (Oracle's option). */
	{ "noresolve", DT_OPT_NORESOLVE, DT_OPTK_BOOL, NULL, 0 },
	/* C++ and Rust symbols as the object files spell them. */
	{ "nodemangle", DT_OPT_NODEMANGLE, DT_OPTK_BOOL, NULL, 0 },
	/*
	 * Linux's limit on locked memory bounds what BPF maps a consumer
	 * may create; raising it is a matter for the command line.
	 */
	{ "lockmem", DT_OPT_LOCKMEM, DT_OPTK_SIZE, NULL, DT_OPTF_NOPROG },
	/* Oracle Linux DTrace's: the bytes alloca() and copyin() may take. */
	{ "scratchsize", DT_OPT_SCRATCHSIZE, DT_OPTK_SIZE, NULL, 0 },
	/* The BPF verifier's log of every program loaded (Linux). */
	{ "bpflog", DT_OPT_BPFLOG, DT_OPTK_BOOL, NULL, 0 },
	/* Dump core at exit, to debug dtrace itself. */
	{ "core", DT_OPT_CORE, DT_OPTK_BOOL, NULL, 0 },
};

/*
 * The versions of the D language a program may ask for (-x version), as
 * DTrace defines them: each adds to the one before.
 */
static const char *const dt_d_versions[] = { "1.0", "1.1", "1.2", "1.2.1",
	"1.2.2", "1.3", "1.4", "1.4.1", "1.5", "1.6", "1.6.1", "1.6.2",
	"1.6.3", "1.7", "1.7.1", "1.8", "1.8.1", "1.9", "1.9.1", "1.10",
	"1.11", "1.12", "1.12.1", DTRACE_D_VERSION, NULL };

/*
 * "major.minor[.micro]" as DTrace encodes it (8, 12 and 12 bits), or -1
 * if malformed or too large.
 */
static int64_t
dt_version_parse(const char *s)
{
	unsigned long part[3] = { 0, 0, 0 };
	int n = 0;

	for (;;) {
		char *end;

		if (!isdigit((unsigned char) *s))
			return -1;
		errno = 0;
		part[n] = strtoul(s, &end, 10);
		if (errno != 0 || part[n] > (n == 0 ? 0xffUL : 0xfffUL))
			return -1;
		n++;
		if (*end == '\0')
			break;
		if (*end != '.' || n == 3)
			return -1;
		s = end + 1;
	}
	if (n < 2)
		return -1;
	return (int64_t) (part[0] << 24 | part[1] << 12 | part[2]);
}

int
dt_version_check(const char *s, int64_t *valp)
{
	int64_t v = dt_version_parse(s);

	if (v < 0)
		return EDT_VERSINVAL;
	for (int i = 0; dt_d_versions[i] != NULL; i++) {
		if (dt_version_parse(dt_d_versions[i]) == v) {
			*valp = v;
			return 0;
		}
	}
	return EDT_VERSUNDEF;
}

#define DT_NOPTIONS (sizeof (dt_option_table) / sizeof (dt_option_table[0]))

#define NANOSEC 1000000000LL

/* Parse an unsigned decimal (or 0x hex) prefix; *endp is left after it. */
static int
dt_parse_uint(const char *s, int64_t *valp, char **endp)
{
	unsigned long long v;

	if (!isdigit((unsigned char) *s))
		return -1;
	errno = 0;
	v = strtoull(s, endp, 0);
	if (errno != 0 || v > INT64_MAX)
		return -1;
	*valp = (int64_t) v;
	return 0;
}

/*
 * The switches a consumer reads as it goes (aggsortkey, quiet, ...) take,
 * as in DTrace, no value or an empty one for on and off, the word pairs
 * below, or a number.
 */
static int
dt_parse_switch(const char *s, int64_t *valp)
{
	static const char *const words[][2] = {
		{ "yes", "no" }, { "enable", "disable" },
		{ "enabled", "disabled" }, { "true", "false" },
		{ "on", "off" }, { "set", "unset" },
	};
	char *end;

	if (s == NULL) {
		*valp = 1;
		return 0;
	}
	if (*s == '\0') {
		*valp = DTRACEOPT_UNSET;
		return 0;
	}
	for (size_t i = 0; i < sizeof (words) / sizeof (words[0]); i++) {
		if (strcasecmp(s, words[i][0]) == 0) {
			*valp = 1;
			return 0;
		}
		if (strcasecmp(s, words[i][1]) == 0) {
			*valp = DTRACEOPT_UNSET;
			return 0;
		}
	}
	return dt_parse_uint(s, valp, &end) != 0 || *end != '\0' ? -1 : 0;
}

int
dt_parse_size(const char *s, int64_t *valp)
{
	static const char suffixes[] = "kmgt";
	int64_t v;
	char *end;
	const char *p;

	if (s == NULL || dt_parse_uint(s, &v, &end) != 0)
		return -1;
	if (*end != '\0') {
		if (end[1] != '\0' ||
		    (p = strchr(suffixes, tolower((unsigned char) *end))) ==
			NULL)
			return -1;
		for (int shift = (int) (p - suffixes) + 1; shift > 0; shift--) {
			if (v > INT64_MAX / 1024)
				return -1;
			v *= 1024;
		}
	}
	*valp = v;
	return 0;
}

int
dt_parse_time(const char *s, int64_t *valp)
{
	static const struct {
		const char *name;
		int64_t mul; /* 0: a rate per second */
	} units[] = {
		{ "ns", 1 },
		{ "nsec", 1 },
		{ "us", 1000 },
		{ "usec", 1000 },
		{ "ms", 1000000 },
		{ "msec", 1000000 },
		{ "s", NANOSEC },
		{ "sec", NANOSEC },
		{ "m", NANOSEC * 60 },
		{ "min", NANOSEC * 60 },
		{ "h", NANOSEC * 3600 },
		{ "hour", NANOSEC * 3600 },
		{ "d", NANOSEC * 86400 },
		{ "day", NANOSEC * 86400 },
		{ "hz", 0 },
	};
	int64_t v, mul = 1;
	char *end;
	size_t i;

	if (s == NULL || dt_parse_uint(s, &v, &end) != 0)
		return -1;
	if (*end != '\0') {
		for (i = 0; i < sizeof (units) / sizeof (units[0]); i++) {
			if (strcasecmp(end, units[i].name) == 0)
				break;
		}
		if (i == sizeof (units) / sizeof (units[0]))
			return -1;
		mul = units[i].mul;
	}
	if (mul == 0) {
		if (v == 0)
			return -1;
		v = NANOSEC / v;
	} else {
		if (v > INT64_MAX / mul)
			return -1;
		v *= mul;
	}
	*valp = v;
	return 0;
}

static const dt_option_t *
dt_option_lookup(const char *name)
{
	for (size_t i = 0; i < DT_NOPTIONS; i++) {
		if (strcmp(dt_option_table[i].o_name, name) == 0)
			return &dt_option_table[i];
	}
	return NULL;
}

/*
 * -x core: dtrace dumps core when it exits, for debugging the consumer
 * itself.  The core size limit is raised as far as it may be.
 */
static void
dt_opt_coredump(void)
{
	static const char msg[] = "dtrace: -x core: dumping core at exit\n";
	struct sigaction sa;
	struct rlimit rl;

	(void) !write(STDERR_FILENO, msg, sizeof(msg) - 1);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	(void) sigemptyset(&sa.sa_mask);
	(void) sigaction(SIGABRT, &sa, NULL);
	if (getrlimit(RLIMIT_CORE, &rl) == 0) {
		rl.rlim_cur = rl.rlim_max;
		(void) setrlimit(RLIMIT_CORE, &rl);
	}
	abort();
}

/* Set the defaults DTrace documents; called once from dtrace_open(). */
void
dt_options_init(dtrace_hdl_t *dtp)
{
	for (int i = 0; i < DT_OPT_COUNT; i++) {
		dtp->dt_options[i] = DTRACEOPT_UNSET;
		dtp->dt_optstr[i] = NULL;
	}
	dtp->dt_options[DT_OPT_BUFSIZE] = 4 << 20;
	dtp->dt_options[DT_OPT_AGGSIZE] = 4 << 20;
	dtp->dt_options[DT_OPT_DYNVARSIZE] = 1 << 20;
	dtp->dt_options[DT_OPT_STRSIZE] = 256;
	dtp->dt_options[DT_OPT_NSPEC] = 1;
	dtp->dt_options[DT_OPT_SPECSIZE] = 32 << 10;
	dtp->dt_options[DT_OPT_STACKFRAMES] = 20;
	dtp->dt_options[DT_OPT_USTACKFRAMES] = 100;
	dtp->dt_options[DT_OPT_JSTACKFRAMES] = 50;
	dtp->dt_options[DT_OPT_JSTACKSTRSIZE] = 512;
	dtp->dt_options[DT_OPT_STACKINDENT] = 14;
	dtp->dt_options[DT_OPT_SWITCHRATE] = NANOSEC;
	dtp->dt_options[DT_OPT_AGGRATE] = NANOSEC;
	dtp->dt_options[DT_OPT_STATUSRATE] = NANOSEC;
	dtp->dt_options[DT_OPT_CLEANRATE] = NANOSEC / 101;
	dtp->dt_options[DT_OPT_BUFPOLICY] = DT_BUFPOLICY_SWITCH;
	dtp->dt_options[DT_OPT_BUFRESIZE] = DT_BUFRESIZE_AUTO;
	dtp->dt_options[DT_OPT_ENGINE] = DT_ENGINE_AUTO;
	dtp->dt_options[DT_OPT_OFORMAT] = DT_OFORMAT_TEXT;
}

void
dt_options_fini(dtrace_hdl_t *dtp)
{
	for (int i = 0; i < DT_OPT_COUNT; i++) {
		free(dtp->dt_optstr[i]);
		dtp->dt_optstr[i] = NULL;
	}
}

/*
 * The options tracing is set up with (buffers, dynamic variable space,
 * speculations, record sizes), which DTrace does not let setopt() change
 * once tracing is active; the others (quiet, aggrate, switchrate, the
 * aggregation sorting and printing options) take effect as they are set.
 */
static bool
dt_option_fixed(dt_optid_t id)
{
	switch (id) {
	case DT_OPT_AGGSIZE: case DT_OPT_BUFPOLICY: case DT_OPT_BUFRESIZE:
	case DT_OPT_BUFSIZE: case DT_OPT_CLEANRATE: case DT_OPT_CPU:
	case DT_OPT_DESTRUCTIVE: case DT_OPT_DYNVARSIZE:
	case DT_OPT_GRABANON: case DT_OPT_JSTACKFRAMES:
	case DT_OPT_JSTACKSTRSIZE: case DT_OPT_NSPEC: case DT_OPT_SPECSIZE:
	case DT_OPT_STACKFRAMES: case DT_OPT_STATUSRATE: case DT_OPT_STRSIZE:
	case DT_OPT_USTACKFRAMES: case DT_OPT_TEMPORAL:
		return true;
	default:
		return false;
	}
}

int
dtrace_setopt(dtrace_hdl_t *dtp, const char *name, const char *value)
{
	const dt_option_t *op;
	int64_t v = 0;
	char *copy;

	if (name == NULL || (op = dt_option_lookup(name)) == NULL)
		return dt_set_errno(dtp, EDT_BADOPTNAME);
	if (dtp->dt_active && dt_option_fixed(op->o_id))
		return dt_set_errno(dtp, EDT_ACTIVE);
	if ((op->o_flags & DT_OPTF_NOPROG) && dt_cc_compiling(dtp))
		return dt_set_errno(dtp, EDT_BADOPTCTX);

	switch (op->o_kind) {
	case DT_OPTK_BOOL: {
		char *end;

		/*
		 * As DTrace, a number may be given: any value sets the option
		 * (scripts write quiet=1).
		 */
		if (value != NULL && (dt_parse_uint(value, &v, &end) != 0 ||
		    *end != '\0'))
			return dt_set_errno(dtp, EDT_BADOPTVAL);
		v = 1;
		break;
	}
	case DT_OPTK_VERSION: {
		int err;

		if (value == NULL)
			return dt_set_errno(dtp, EDT_BADOPTVAL);
		if ((err = dt_version_check(value, &v)) != 0)
			return dt_set_errno(dtp, err);
		break;
	}
	case DT_OPTK_RTBOOL:
		if (dt_parse_switch(value, &v) != 0)
			return dt_set_errno(dtp, EDT_BADOPTVAL);
		break;
	case DT_OPTK_SIZE:
		if (dt_parse_size(value, &v) != 0)
			return dt_set_errno(dtp, EDT_BADOPTVAL);
		/* A string is a by-reference DIF value: at most 1 MB. */
		if ((op->o_id == DT_OPT_STRSIZE ||
		    op->o_id == DT_OPT_JSTACKSTRSIZE) && v > DIF_BYREF_MAX)
			return dt_set_errno(dtp, EDT_OPTTOOBIG);
		break;
	case DT_OPTK_TIME:
		if (dt_parse_time(value, &v) != 0)
			return dt_set_errno(dtp, EDT_BADOPTVAL);
		break;
	case DT_OPTK_INT: {
		char *end;

		if (value == NULL || dt_parse_uint(value, &v, &end) != 0 ||
		    *end != '\0' ||
		    (v == 0 && (op->o_flags & DT_OPTF_POSITIVE)))
			return dt_set_errno(dtp, EDT_BADOPTVAL);
		break;
	}
	case DT_OPTK_ENUM:
		if (value == NULL)
			return dt_set_errno(dtp, EDT_BADOPTVAL);
		for (v = 0; op->o_words[v] != NULL; v++) {
			if (strcmp(op->o_words[v], value) == 0)
				break;
		}
		if (op->o_words[v] == NULL)
			return dt_set_errno(dtp, EDT_BADOPTVAL);
		break;
	case DT_OPTK_ENGINE:
		/* The OS's engines are known by the names it gives them. */
		if (value == NULL)
			return dt_set_errno(dtp, EDT_BADOPTVAL);
		if (strcmp(value, "auto") == 0) {
			v = DT_ENGINE_AUTO;
			break;
		}
		if (strcmp(value, "interp") == 0) {
			v = DT_ENGINE_INTERP;
			break;
		}
		for (v = 0; dt_os_engines[v].oe_name != NULL; v++) {
			if (strcmp(dt_os_engines[v].oe_name, value) == 0)
				break;
		}
		if (dt_os_engines[v].oe_name == NULL)
			return dt_set_errno(dtp, EDT_BADOPTVAL);
		v += DT_ENGINE_OS;
		break;
	case DT_OPTK_STRING:
		if (value == NULL)
			return dt_set_errno(dtp, EDT_BADOPTVAL);
		/*
		 * -x dtypes, ctypes: the file the types are written to when
		 * the handle is closed; as in DTrace, it is created now, so
		 * that a bad path is an error of the option.
		 */
		if (op->o_id == DT_OPT_DTYPES || op->o_id == DT_OPT_CTYPES) {
			int fd =
			    open(value, O_CREAT | O_WRONLY | O_CLOEXEC, 0666);

			if (fd < 0)
				return dt_set_errno(dtp, errno);
			(void) close(fd);
		}
		if (op->o_flags & DT_OPTF_CPPARG) {
			char arg[4096];

			snprintf(arg, sizeof (arg), "-%c%s",
			    op->o_id == DT_OPT_DEFINE ? 'D' :
			    op->o_id == DT_OPT_UNDEF ? 'U' : 'I', value);
			if (dtrace_cpp_arg(dtp, arg) != 0)
				return -1;
		}
		/*
		 * -x metricslabels names the labels of some aggregations;
		 * each setting (a pragma per aggregation) adds to the last.
		 */
		if (op->o_id == DT_OPT_METRICSLABELS) {
			const char *old = dtp->dt_optstr[op->o_id];

			if (!dt_metrics_labels_valid(value))
				return dt_set_errno(dtp, EDT_BADOPTVAL);
			if (old != NULL &&
			    asprintf(&copy, "%s;%s", old, value) < 0)
				return dt_set_errno(dtp, EDT_NOMEM);
			if (old == NULL && (copy = strdup(value)) == NULL)
				return dt_set_errno(dtp, EDT_NOMEM);
		} else if ((copy = strdup(value)) == NULL)
			return dt_set_errno(dtp, EDT_NOMEM);
		free(dtp->dt_optstr[op->o_id]);
		dtp->dt_optstr[op->o_id] = copy;
		v = 1;
		break;
	}
	if (op->o_id == DT_OPT_CORE &&
	    dtp->dt_options[DT_OPT_CORE] == DTRACEOPT_UNSET &&
	    atexit(dt_opt_coredump) != 0)
		return dt_set_errno(dtp, errno);
#ifdef RLIMIT_MEMLOCK
	if (op->o_id == DT_OPT_LOCKMEM) {
		struct rlimit rl;

		/* The hard limit is raised if need be, never lowered. */
		if (getrlimit(RLIMIT_MEMLOCK, &rl) != 0)
			return dt_set_errno(dtp, errno);
		rl.rlim_cur = (rlim_t) v;
		if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < rl.rlim_cur)
			rl.rlim_max = rl.rlim_cur;
		if (setrlimit(RLIMIT_MEMLOCK, &rl) != 0)
			return dt_set_errno(dtp, errno);
	}
#endif
	dtp->dt_options[op->o_id] = v;
	/* An older D asked for: its programs do not see later built-ins. */
	if (op->o_id == DT_OPT_VERSION && dtp->dt_cc != NULL &&
	    dtp->dt_cc->cc_programs)
		dt_ident_reduce(dtp->dt_cc, v);
	return 0;
}

int
dtrace_getopt(dtrace_hdl_t *dtp, const char *name, dtrace_optval_t *valp)
{
	const dt_option_t *op;

	if (name == NULL || (op = dt_option_lookup(name)) == NULL)
		return dt_set_errno(dtp, EDT_BADOPTNAME);
	*valp = dtp->dt_options[op->o_id];
	return 0;
}

const char *
dtrace_getopt_string(dtrace_hdl_t *dtp, const char *name)
{
	const dt_option_t *op;

	if (name == NULL || (op = dt_option_lookup(name)) == NULL) {
		(void) dt_set_errno(dtp, EDT_BADOPTNAME);
		return NULL;
	}
	return dtp->dt_optstr[op->o_id];
}
