/*
 * dt_options.c: the option table, value parsing and option defaults.
 *
 * The table maps an option's name to its id and kind (see dt_options.h).
 * Defaults are those of DTrace, so a script relying on, say, the default
 * strsize of 256 sees the same behaviour here.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/dt_impl.h"

typedef struct dt_option {
	const char *o_name;
	dt_optid_t o_id;
	dt_optkind_t o_kind;
	const char *const *o_words; /* DT_OPTK_ENUM: the accepted words */
} dt_option_t;

static const char *const dt_bufpolicy_words[] = { "switch", "fill", "ring",
	NULL };
static const char *const dt_bufresize_words[] = { "auto", "manual", NULL };
static const char *const dt_engine_words[] = { "auto", "bpf", "interp",
	"ptrace", NULL };
static const char *const dt_oformat_words[] = { "text", "json", NULL };
static const char *const dt_evaltime_words[] = { "exec", "preinit",
	"postinit", "main", NULL };
static const char *const dt_linkmode_words[] = { "kernel", "static",
	"dynamic", NULL };
static const char *const dt_linktype_words[] = { "elf", "dof", NULL };
static const char *const dt_stdc_words[] = { "a", "c", "s", "t", NULL };

static const dt_option_t dt_option_table[] = {
	{ "aggrate", DT_OPT_AGGRATE, DT_OPTK_TIME, NULL },
	{ "aggsize", DT_OPT_AGGSIZE, DT_OPTK_SIZE, NULL },
	{ "aggsortkey", DT_OPT_AGGSORTKEY, DT_OPTK_BOOL, NULL },
	{ "aggsortkeypos", DT_OPT_AGGSORTKEYPOS, DT_OPTK_INT, NULL },
	{ "aggsortpos", DT_OPT_AGGSORTPOS, DT_OPTK_INT, NULL },
	{ "aggsortrev", DT_OPT_AGGSORTREV, DT_OPTK_BOOL, NULL },
	{ "agghist", DT_OPT_AGGHIST, DT_OPTK_BOOL, NULL },
	{ "aggpack", DT_OPT_AGGPACK, DT_OPTK_BOOL, NULL },
	{ "aggzoom", DT_OPT_AGGZOOM, DT_OPTK_BOOL, NULL },
	{ "aggpercpu", DT_OPT_AGGPERCPU, DT_OPTK_BOOL, NULL },
	{ "bufpolicy", DT_OPT_BUFPOLICY, DT_OPTK_ENUM, dt_bufpolicy_words },
	{ "bufresize", DT_OPT_BUFRESIZE, DT_OPTK_ENUM, dt_bufresize_words },
	{ "bufsize", DT_OPT_BUFSIZE, DT_OPTK_SIZE, NULL },
	{ "cleanrate", DT_OPT_CLEANRATE, DT_OPTK_TIME, NULL },
	{ "cpu", DT_OPT_CPU, DT_OPTK_INT, NULL },
	{ "defaultargs", DT_OPT_DEFAULTARGS, DT_OPTK_BOOL, NULL },
	{ "destructive", DT_OPT_DESTRUCTIVE, DT_OPTK_BOOL, NULL },
	{ "dynvarsize", DT_OPT_DYNVARSIZE, DT_OPTK_SIZE, NULL },
	{ "flowindent", DT_OPT_FLOWINDENT, DT_OPTK_BOOL, NULL },
	{ "grabanon", DT_OPT_GRABANON, DT_OPTK_BOOL, NULL },
	{ "jstackframes", DT_OPT_JSTACKFRAMES, DT_OPTK_INT, NULL },
	{ "jstackstrsize", DT_OPT_JSTACKSTRSIZE, DT_OPTK_SIZE, NULL },
	/* Oracle Linux DTrace's cap on the frames of any stack. */
	{ "maxframes", DT_OPT_MAXFRAMES, DT_OPTK_INT, NULL },
	{ "nspec", DT_OPT_NSPEC, DT_OPTK_INT, NULL },
	{ "quiet", DT_OPT_QUIET, DT_OPTK_BOOL, NULL },
	{ "rawbytes", DT_OPT_RAWBYTES, DT_OPTK_BOOL, NULL },
	{ "specsize", DT_OPT_SPECSIZE, DT_OPTK_SIZE, NULL },
	{ "stackframes", DT_OPT_STACKFRAMES, DT_OPTK_INT, NULL },
	{ "stackindent", DT_OPT_STACKINDENT, DT_OPTK_INT, NULL },
	{ "statusrate", DT_OPT_STATUSRATE, DT_OPTK_TIME, NULL },
	{ "strsize", DT_OPT_STRSIZE, DT_OPTK_SIZE, NULL },
	{ "switchrate", DT_OPT_SWITCHRATE, DT_OPTK_TIME, NULL },
	{ "temporal", DT_OPT_TEMPORAL, DT_OPTK_BOOL, NULL },
	{ "ustackframes", DT_OPT_USTACKFRAMES, DT_OPTK_INT, NULL },
	{ "amin", DT_OPT_AMIN, DT_OPTK_STRING, NULL },
	{ "argref", DT_OPT_ARGREF, DT_OPTK_BOOL, NULL },
	{ "btfpath", DT_OPT_BTFPATH, DT_OPTK_STRING, NULL },
	/* Oracle Linux DTrace's name for where kernel types come from. */
	{ "ctfpath", DT_OPT_BTFPATH, DT_OPTK_STRING, NULL },
	{ "cpp", DT_OPT_CPP, DT_OPTK_BOOL, NULL },
	{ "cpphdrs", DT_OPT_CPPHDRS, DT_OPTK_BOOL, NULL },
	{ "cpppath", DT_OPT_CPPPATH, DT_OPTK_STRING, NULL },
	{ "ctypes", DT_OPT_CTYPES, DT_OPTK_STRING, NULL },
	{ "debug", DT_OPT_DEBUG, DT_OPTK_BOOL, NULL },
	{ "define", DT_OPT_DEFINE, DT_OPTK_STRING, NULL },
	{ "droptags", DT_OPT_DROPTAGS, DT_OPTK_BOOL, NULL },
	{ "dtypes", DT_OPT_DTYPES, DT_OPTK_STRING, NULL },
	{ "empty", DT_OPT_EMPTY, DT_OPTK_BOOL, NULL },
	{ "errtags", DT_OPT_ERRTAGS, DT_OPTK_BOOL, NULL },
	{ "evaltime", DT_OPT_EVALTIME, DT_OPTK_ENUM, dt_evaltime_words },
	{ "incdir", DT_OPT_INCDIR, DT_OPTK_STRING, NULL },
	{ "iregs", DT_OPT_IREGS, DT_OPTK_INT, NULL },
	{ "kdefs", DT_OPT_KDEFS, DT_OPTK_BOOL, NULL },
	{ "knodefs", DT_OPT_KNODEFS, DT_OPTK_BOOL, NULL },
	{ "late", DT_OPT_LATE, DT_OPTK_BOOL, NULL },
	{ "lazyload", DT_OPT_LAZYLOAD, DT_OPTK_BOOL, NULL },
	{ "ldpath", DT_OPT_LDPATH, DT_OPTK_STRING, NULL },
	{ "libdir", DT_OPT_LIBDIR, DT_OPTK_STRING, NULL },
	{ "linkmode", DT_OPT_LINKMODE, DT_OPTK_ENUM, dt_linkmode_words },
	{ "linktype", DT_OPT_LINKTYPE, DT_OPTK_ENUM, dt_linktype_words },
	{ "nolibs", DT_OPT_NOLIBS, DT_OPTK_BOOL, NULL },
	{ "pgmax", DT_OPT_PGMAX, DT_OPTK_INT, NULL },
	{ "pspec", DT_OPT_PSPEC, DT_OPTK_BOOL, NULL },
	{ "stdc", DT_OPT_STDC, DT_OPTK_ENUM, dt_stdc_words },
	{ "syslibdir", DT_OPT_SYSLIBDIR, DT_OPTK_STRING, NULL },
	{ "tree", DT_OPT_TREE, DT_OPTK_INT, NULL },
	{ "tregs", DT_OPT_TREGS, DT_OPTK_INT, NULL },
	{ "udefs", DT_OPT_UDEFS, DT_OPTK_BOOL, NULL },
	{ "undef", DT_OPT_UNDEF, DT_OPTK_STRING, NULL },
	{ "unodefs", DT_OPT_UNODEFS, DT_OPTK_BOOL, NULL },
	{ "verbose", DT_OPT_VERBOSE, DT_OPTK_BOOL, NULL },
	{ "version", DT_OPT_VERSION, DT_OPTK_STRING, NULL },
	{ "zdefs", DT_OPT_ZDEFS, DT_OPTK_BOOL, NULL },
	{ "ctfpath", DT_OPT_CTFPATH, DT_OPTK_STRING, NULL },
	{ "engine", DT_OPT_ENGINE, DT_OPTK_ENUM, dt_engine_words },
	{ "followfork", DT_OPT_FOLLOWFORK, DT_OPTK_BOOL, NULL },
	{ "oformat", DT_OPT_OFORMAT, DT_OPTK_ENUM, dt_oformat_words },
};

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

int
dtrace_setopt(dtrace_hdl_t *dtp, const char *name, const char *value)
{
	const dt_option_t *op;
	int64_t v = 0;
	char *copy;

	if (name == NULL || (op = dt_option_lookup(name)) == NULL)
		return dt_set_errno(dtp, EDT_BADOPTNAME);

	switch (op->o_kind) {
	case DT_OPTK_BOOL:
		if (value != NULL)
			return dt_set_errno(dtp, EDT_BADOPTVAL);
		v = 1;
		break;
	case DT_OPTK_SIZE:
		if (dt_parse_size(value, &v) != 0)
			return dt_set_errno(dtp, EDT_BADOPTVAL);
		break;
	case DT_OPTK_TIME:
		if (dt_parse_time(value, &v) != 0)
			return dt_set_errno(dtp, EDT_BADOPTVAL);
		break;
	case DT_OPTK_INT: {
		char *end;

		if (value == NULL || dt_parse_uint(value, &v, &end) != 0 ||
		    *end != '\0')
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
	case DT_OPTK_STRING:
		if (value == NULL)
			return dt_set_errno(dtp, EDT_BADOPTVAL);
		if ((copy = strdup(value)) == NULL)
			return dt_set_errno(dtp, EDT_NOMEM);
		free(dtp->dt_optstr[op->o_id]);
		dtp->dt_optstr[op->o_id] = copy;
		v = 1;
		break;
	}
	dtp->dt_options[op->o_id] = v;
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
