/* SPDX-License-Identifier: MIT */
/*
 * dt_ident.c: identifiers -- the tables that say what a name in a D
 * program is, and the checks of calls and array references against
 * signatures.
 *
 * Tables (dt_idhash_t, chained hashes) hang off the compiler state:
 *
 *	cc_globals	built-in variables (with their DIF variable IDs and
 *			types), subroutines, actions and aggregating functions
 *			(with DTrace's prototypes), enumerators, inlines and
 *			user globals
 *	cc_tls		self-> variables
 *	cc_aggs		aggregations
 *	cc_macros	$pid, $target ... (values for the lexer)
 *	pcb_locals	this-> variables (per compile)
 *
 * Every identifier created by a compile carries that compile's generation;
 * if the compile fails, dt_idhash_rollback() removes them again.
 *
 * A prototype is written as DTrace writes them: "rtype(arg, arg, ...)",
 * where "@" accepts any type, "..." any number of further arguments and
 * "[type]" an optional argument.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/compiler/dt_cc.h"
#include "common/dif/dif.h"

static unsigned
dt_strhash(const char *s)
{
	unsigned h = 5381;

	while (*s != '\0')
		h = h * 33 + (unsigned char) *s++;
	return h;
}

dt_idhash_t *
dt_idhash_create(const char *name, uint32_t base, uint32_t max)
{
	dt_idhash_t *dhp = calloc(1, sizeof (*dhp));

	if (dhp == NULL)
		return NULL;
	dhp->dh_name = name;
	dhp->dh_nbuckets = 211;
	dhp->dh_nextid = base;
	dhp->dh_maxid = max;
	if ((dhp->dh_buckets = calloc(dhp->dh_nbuckets,
	    sizeof (dt_ident_t *))) == NULL) {
		free(dhp);
		return NULL;
	}
	return dhp;
}

void
dt_ident_sig_free(dt_idsig_t *sig)
{
	if (sig == NULL)
		return;
	free(sig->ds_ctfp);
	free(sig->ds_type);
	free(sig->ds_flags);
	free(sig);
}

static void
dt_ident_free(dt_ident_t *idp)
{
	dt_ident_sig_free(idp->di_sig);
	if (idp->di_iparam != NULL) {
		free(idp->di_iparam->di_name);
		free(idp->di_iparam);
	}
	if (idp->di_kind == DT_IDENT_SCALAR && (idp->di_flags &
	    DT_IDFLG_BUILTIN) == 0)
		(void) 0;
	free(idp->di_name);
	free(idp);
}

void
dt_idhash_destroy(dt_idhash_t *dhp)
{
	if (dhp == NULL)
		return;
	for (unsigned i = 0; i < dhp->dh_nbuckets; i++) {
		dt_ident_t *idp, *next;

		for (idp = dhp->dh_buckets[i]; idp != NULL; idp = next) {
			next = idp->di_next;
			dt_ident_free(idp);
		}
	}
	free(dhp->dh_buckets);
	free(dhp);
}

dt_ident_t *
dt_idhash_lookup(dt_idhash_t *dhp, const char *name)
{
	dt_ident_t *idp;

	if (dhp == NULL)
		return NULL;
	for (idp = dhp->dh_buckets[dt_strhash(name) % dhp->dh_nbuckets];
	    idp != NULL; idp = idp->di_next) {
		if (strcmp(idp->di_name, name) == 0)
			return idp;
	}
	return NULL;
}

dt_ident_t *
dt_idhash_insert(dt_idhash_t *dhp, const char *name, dt_idkind_t kind,
    uint32_t flags, uint32_t id, unsigned gen)
{
	dt_ident_t *idp = calloc(1, sizeof (*idp));
	unsigned h = dt_strhash(name) % dhp->dh_nbuckets;

	if (idp == NULL || (idp->di_name = strdup(name)) == NULL) {
		free(idp);
		return NULL;
	}
	idp->di_kind = kind;
	idp->di_flags = flags;
	idp->di_id = id;
	idp->di_type = CTF_ERR;
	idp->di_offset = DIFV_OFFSET_NONE;
	idp->di_gen = gen;
	idp->di_next = dhp->dh_buckets[h];
	dhp->dh_buckets[h] = idp;
	return idp;
}

/* Remove every identifier a failed compile of generation gen created. */
void
dt_idhash_rollback(dt_idhash_t *dhp, unsigned gen)
{
	if (dhp == NULL)
		return;
	for (unsigned i = 0; i < dhp->dh_nbuckets; i++) {
		dt_ident_t **pp = &dhp->dh_buckets[i], *idp;

		while ((idp = *pp) != NULL) {
			if (idp->di_gen == gen) {
				*pp = idp->di_next;
				dt_ident_free(idp);
			} else {
				/* Types given by the failed compile go too. */
				pp = &idp->di_next;
			}
		}
	}
}

int
dt_idhash_nextid(dt_idhash_t *dhp, uint32_t *idp)
{
	if (dhp->dh_nextid > dhp->dh_maxid)
		return -1;
	*idp = dhp->dh_nextid++;
	return 0;
}

const char *
dt_idkind_name(dt_idkind_t kind)
{
	switch (kind) {
	case DT_IDENT_ARRAY: return "associative array";
	case DT_IDENT_SCALAR: return "scalar";
	case DT_IDENT_PTR: return "pointer";
	case DT_IDENT_AGG: return "aggregation";
	case DT_IDENT_AGGFUNC: return "aggregating function";
	case DT_IDENT_ACTFUNC: return "tracing function";
	case DT_IDENT_FUNC: return "function";
	case DT_IDENT_XLSOU: return "translated data";
	case DT_IDENT_XLPTR: return "pointer to translated data";
	case DT_IDENT_SYMBOL: return "external symbol reference";
	case DT_IDENT_ENUM: return "enumerator";
	case DT_IDENT_PRAGAT: return "#pragma attributes";
	case DT_IDENT_PRAGBN: return "#pragma binding";
	case DT_IDENT_PROBE: return "probe definition";
	}
	return "<unknown>";
}

void
dt_ident_type_assign(dt_ident_t *idp, ctf_dict_t *ctfp, ctf_id_t type)
{
	idp->di_ctfp = ctfp;
	idp->di_type = type;
}

/*
 * Gives a user scalar its place in DTrace's layout of its scope's
 * storage, once it has a type: globals and clause-locals one after the
 * other in the order they are declared (or first used), each aligned to
 * its type -- structs and unions to 8 bytes -- and each thread-local at 0,
 * a dynamic variable of its own.  Associative arrays and built-ins have
 * no place.  dtrace -S shows it (OFFSET); the engines find variables by
 * ID.
 */
void
dt_ident_layout(dt_pcb_t *pcb, dt_ident_t *idp)
{
	uint32_t *sizep;
	ctf_id_t base;
	ssize_t size, align;

	if (idp->di_offset != DIFV_OFFSET_NONE ||
	    idp->di_kind != DT_IDENT_SCALAR ||
	    (idp->di_flags & (DT_IDFLG_BUILTIN | DT_IDFLG_INLINE)) ||
	    idp->di_id < DIF_VAR_OTHER_UBASE || dt_ident_unref(idp))
		return;
	if (idp->di_flags & DT_IDFLG_TLS) {
		idp->di_offset = 0;
		return;
	}
	sizep = (idp->di_flags & DT_IDFLG_LOCAL) ? &pcb->pcb_localsize :
	    &pcb->pcb_cc->cc_globalsize;
	base = ctf_type_resolve(idp->di_ctfp, idp->di_type);
	if ((size = ctf_type_size(idp->di_ctfp, base)) < 0)
		size = 8;
	switch (ctf_type_kind(idp->di_ctfp, base)) {
	case CTF_K_STRUCT:
	case CTF_K_UNION:
		align = 8;
		break;
	default:
		if ((align = ctf_type_align(idp->di_ctfp, base)) <= 0)
			align = 1;
		break;
	}
	*sizep = (uint32_t) ((*sizep + align - 1) / align * align);
	idp->di_offset = *sizep;
	*sizep += (uint32_t) size;
}

/* A variable nothing has given a type yet (not declared nor assigned). */
bool
dt_ident_unref(const dt_ident_t *idp)
{
	return idp->di_ctfp == NULL || idp->di_type == CTF_ERR;
}

/* The built-in variables of D. */
typedef struct dt_bivar {
	const char *bv_name;
	dt_idkind_t bv_kind;
	uint32_t bv_id;
	const char *bv_type;
} dt_bivar_t;


static const dt_bivar_t dt_bivars[] = {
	{ "args", DT_IDENT_ARRAY, DIF_VAR_ARGS, "<DYN>" },
	{ "regs", DT_IDENT_ARRAY, DIF_VAR_REGS, "uint64_t" },
	{ "uregs", DT_IDENT_ARRAY, DIF_VAR_UREGS, "uint64_t" },
	{ "curthread", DT_IDENT_SCALAR, DIF_VAR_CURTHREAD,
	    "struct task_struct *" },
	{ "timestamp", DT_IDENT_SCALAR, DIF_VAR_TIMESTAMP, "uint64_t" },
	{ "vtimestamp", DT_IDENT_SCALAR, DIF_VAR_VTIMESTAMP, "uint64_t" },
	{ "walltimestamp", DT_IDENT_SCALAR, DIF_VAR_WALLTIMESTAMP,
	    "int64_t" },
	{ "ipl", DT_IDENT_SCALAR, DIF_VAR_IPL, "uint_t" },
	{ "epid", DT_IDENT_SCALAR, DIF_VAR_EPID, "uint_t" },
	{ "id", DT_IDENT_SCALAR, DIF_VAR_ID, "uint_t" },
	{ "arg0", DT_IDENT_SCALAR, DIF_VAR_ARG0, "int64_t" },
	{ "arg1", DT_IDENT_SCALAR, DIF_VAR_ARG1, "int64_t" },
	{ "arg2", DT_IDENT_SCALAR, DIF_VAR_ARG2, "int64_t" },
	{ "arg3", DT_IDENT_SCALAR, DIF_VAR_ARG3, "int64_t" },
	{ "arg4", DT_IDENT_SCALAR, DIF_VAR_ARG4, "int64_t" },
	{ "arg5", DT_IDENT_SCALAR, DIF_VAR_ARG5, "int64_t" },
	{ "arg6", DT_IDENT_SCALAR, DIF_VAR_ARG6, "int64_t" },
	{ "arg7", DT_IDENT_SCALAR, DIF_VAR_ARG7, "int64_t" },
	{ "arg8", DT_IDENT_SCALAR, DIF_VAR_ARG8, "int64_t" },
	{ "arg9", DT_IDENT_SCALAR, DIF_VAR_ARG9, "int64_t" },
	{ "stackdepth", DT_IDENT_SCALAR, DIF_VAR_STACKDEPTH, "uint32_t" },
	{ "ustackdepth", DT_IDENT_SCALAR, DIF_VAR_USTACKDEPTH, "uint32_t" },
	{ "caller", DT_IDENT_SCALAR, DIF_VAR_CALLER, "uintptr_t" },
	{ "ucaller", DT_IDENT_SCALAR, DIF_VAR_UCALLER, "uint64_t" },
	{ "probeprov", DT_IDENT_SCALAR, DIF_VAR_PROBEPROV, "string" },
	{ "probemod", DT_IDENT_SCALAR, DIF_VAR_PROBEMOD, "string" },
	{ "probefunc", DT_IDENT_SCALAR, DIF_VAR_PROBEFUNC, "string" },
	{ "probename", DT_IDENT_SCALAR, DIF_VAR_PROBENAME, "string" },
	{ "pid", DT_IDENT_SCALAR, DIF_VAR_PID, "pid_t" },
	{ "ppid", DT_IDENT_SCALAR, DIF_VAR_PPID, "pid_t" },
	{ "tid", DT_IDENT_SCALAR, DIF_VAR_TID, "id_t" },
	{ "uid", DT_IDENT_SCALAR, DIF_VAR_UID, "uid_t" },
	{ "gid", DT_IDENT_SCALAR, DIF_VAR_GID, "gid_t" },
	{ "execname", DT_IDENT_SCALAR, DIF_VAR_EXECNAME, "string" },
	{ "execargs", DT_IDENT_SCALAR, DIF_VAR_EXECARGS, "string" },
	{ "zonename", DT_IDENT_SCALAR, DIF_VAR_ZONENAME, "string" },
	{ "errno", DT_IDENT_SCALAR, DIF_VAR_ERRNO, "int" },
	{ "cwd", DT_IDENT_SCALAR, DIF_VAR_CWD, "string" },
	{ "root", DT_IDENT_SCALAR, DIF_VAR_ROOT, "string" },
	{ "cpu", DT_IDENT_SCALAR, DIF_VAR_CPU, "processorid_t" },
	{ "curcpu", DT_IDENT_SCALAR, DIF_VAR_CURCPU, "cpuinfo_t *" },
	{ "curpsinfo", DT_IDENT_SCALAR, DT_VAR_NONE, "psinfo_t *" },
	{ "curlwpsinfo", DT_IDENT_SCALAR, DT_VAR_NONE, "lwpsinfo_t *" },
	{ NULL, 0, 0, NULL }
};

/* Subroutines, actions and aggregating functions, with prototypes. */
typedef struct dt_bifunc {
	const char *bf_name;
	dt_idkind_t bf_kind;
	uint32_t bf_id;
	const char *bf_proto;
	bool bf_destructive;
} dt_bifunc_t;

static const dt_bifunc_t dt_bifuncs[] = {
	/* Subroutines. */
	{ "alloca", DT_IDENT_FUNC, DIF_SUBR_ALLOCA, "void *(size_t)", 0 },
	{ "basename", DT_IDENT_FUNC, DIF_SUBR_BASENAME, "string(char *)", 0 },
	{ "bcopy", DT_IDENT_FUNC, DIF_SUBR_BCOPY, "void(void *, void *, "
	    "size_t)", 0 },
	{ "cleanpath", DT_IDENT_FUNC, DIF_SUBR_CLEANPATH, "string(char *)",
	    0 },
	{ "copyin", DT_IDENT_FUNC, DIF_SUBR_COPYIN, "void *(uintptr_t, "
	    "size_t)", 0 },
	{ "copyinstr", DT_IDENT_FUNC, DIF_SUBR_COPYINSTR, "string(uintptr_t, "
	    "[size_t])", 0 },
	{ "copyinto", DT_IDENT_FUNC, DIF_SUBR_COPYINTO, "void(uintptr_t, "
	    "size_t, void *)", 0 },
	{ "ddi_pathname", DT_IDENT_FUNC, DIF_SUBR_DDI_PATHNAME,
	    "string(void *, int64_t)", 0 },
	{ "dirname", DT_IDENT_FUNC, DIF_SUBR_DIRNAME, "string(char *)", 0 },
	{ "getmajor", DT_IDENT_FUNC, DIF_SUBR_GETMAJOR, "major_t(dev_t)", 0 },
	{ "getminor", DT_IDENT_FUNC, DIF_SUBR_GETMINOR, "minor_t(dev_t)", 0 },
	{ "getf", DT_IDENT_FUNC, DIF_SUBR_GETF, "void *(int)", 0 },
	{ "htonl", DT_IDENT_FUNC, DIF_SUBR_HTONL, "uint32_t(uint32_t)", 0 },
	{ "htonll", DT_IDENT_FUNC, DIF_SUBR_HTONLL, "uint64_t(uint64_t)", 0 },
	{ "htons", DT_IDENT_FUNC, DIF_SUBR_HTONS, "uint16_t(uint16_t)", 0 },
	{ "index", DT_IDENT_FUNC, DIF_SUBR_INDEX, "int(char *, char *, "
	    "[int])", 0 },
	{ "inet_ntoa", DT_IDENT_FUNC, DIF_SUBR_INET_NTOA, "string(void *)",
	    0 },
	/* [strict]: Oracle Linux DTrace's, see dt_cook_ntoa6(). */
	{ "inet_ntoa6", DT_IDENT_FUNC, DIF_SUBR_INET_NTOA6,
	    "string(struct in6_addr *, [int])", 0 },
	{ "inet_ntop", DT_IDENT_FUNC, DIF_SUBR_INET_NTOP, "string(int, "
	    "void *)", 0 },
	{ "json", DT_IDENT_FUNC, DIF_SUBR_JSON, "string(char *, char *)", 0 },
	{ "link_ntop", DT_IDENT_FUNC, DIF_SUBR_LINK_NTOP, "string(int, "
	    "void *)", 0 },
	/* Oracle Linux DTrace's: a struct path * of the kernel's. */
	{ "d_path", DT_IDENT_FUNC, DIF_SUBR_D_PATH, "string(void *, [int])",
	    0 },
	{ "lltostr", DT_IDENT_FUNC, DIF_SUBR_LLTOSTR, "string(int64_t, "
	    "[int])", 0 },
	{ "memref", DT_IDENT_FUNC, DIF_SUBR_MEMREF, "uintptr_t *(void *, "
	    "size_t)", 0 },
	{ "msgdsize", DT_IDENT_FUNC, DIF_SUBR_MSGDSIZE, "size_t(void *)", 0 },
	{ "msgsize", DT_IDENT_FUNC, DIF_SUBR_MSGSIZE, "size_t(void *)", 0 },
	/* The kernel's mutex, as DTrace's take kmutex_t * (see below). */
	{ "mutex_owned", DT_IDENT_FUNC, DIF_SUBR_MUTEX_OWNED,
	    "int(struct mutex *)", 0 },
	{ "mutex_owner", DT_IDENT_FUNC, DIF_SUBR_MUTEX_OWNER,
	    "struct task_struct *(struct mutex *)", 0 },
	{ "mutex_type_adaptive", DT_IDENT_FUNC, DIF_SUBR_MUTEX_TYPE_ADAPTIVE,
	    "int(struct mutex *)", 0 },
	{ "mutex_type_spin", DT_IDENT_FUNC, DIF_SUBR_MUTEX_TYPE_SPIN,
	    "int(struct mutex *)", 0 },
	{ "ntohl", DT_IDENT_FUNC, DIF_SUBR_NTOHL, "uint32_t(uint32_t)", 0 },
	{ "ntohll", DT_IDENT_FUNC, DIF_SUBR_NTOHLL, "uint64_t(uint64_t)", 0 },
	{ "ntohs", DT_IDENT_FUNC, DIF_SUBR_NTOHS, "uint16_t(uint16_t)", 0 },
	{ "progenyof", DT_IDENT_FUNC, DIF_SUBR_PROGENYOF, "int(pid_t)", 0 },
	{ "rand", DT_IDENT_FUNC, DIF_SUBR_RAND, "int()", 0 },
	{ "rindex", DT_IDENT_FUNC, DIF_SUBR_RINDEX, "int(char *, char *, "
	    "[int])", 0 },
	{ "rw_iswriter", DT_IDENT_FUNC, DIF_SUBR_RW_ISWRITER, "int(void *)",
	    0 },
	{ "rw_read_held", DT_IDENT_FUNC, DIF_SUBR_RW_READ_HELD, "int(void *)",
	    0 },
	{ "rw_write_held", DT_IDENT_FUNC, DIF_SUBR_RW_WRITE_HELD,
	    "int(void *)", 0 },
	{ "speculation", DT_IDENT_FUNC, DIF_SUBR_SPECULATION, "int()", 0 },
	{ "strchr", DT_IDENT_FUNC, DIF_SUBR_STRCHR, "string(char *, char)",
	    0 },
	{ "strjoin", DT_IDENT_FUNC, DIF_SUBR_STRJOIN, "string(char *, "
	    "char *)", 0 },
	{ "strlen", DT_IDENT_FUNC, DIF_SUBR_STRLEN, "size_t(char *)", 0 },
	{ "strrchr", DT_IDENT_FUNC, DIF_SUBR_STRRCHR, "string(char *, char)",
	    0 },
	{ "strstr", DT_IDENT_FUNC, DIF_SUBR_STRSTR, "string(char *, char *)",
	    0 },
	{ "strtok", DT_IDENT_FUNC, DIF_SUBR_STRTOK, "string(char *, char *)",
	    0 },
	{ "strtoll", DT_IDENT_FUNC, DIF_SUBR_STRTOLL, "int64_t(char *, "
	    "[int])", 0 },
	{ "substr", DT_IDENT_FUNC, DIF_SUBR_SUBSTR, "string(char *, int, "
	    "[int])", 0 },
	{ "tolower", DT_IDENT_FUNC, DIF_SUBR_TOLOWER, "string(char *)", 0 },
	{ "toupper", DT_IDENT_FUNC, DIF_SUBR_TOUPPER, "string(char *)", 0 },

	/* Actions. */
	{ "breakpoint", DT_IDENT_ACTFUNC, DT_ACT_BREAKPOINT, "void()", 1 },
	{ "chill", DT_IDENT_ACTFUNC, DT_ACT_CHILL, "void(int)", 1 },
	{ "clear", DT_IDENT_ACTFUNC, DT_ACT_CLEAR, "void(...)", 0 },
	{ "commit", DT_IDENT_ACTFUNC, DT_ACT_COMMIT, "void(int)", 0 },
	{ "copyout", DT_IDENT_ACTFUNC, DT_ACT_COPYOUT, "void(void *, "
	    "uintptr_t, size_t)", 1 },
	{ "copyoutstr", DT_IDENT_ACTFUNC, DT_ACT_COPYOUTSTR, "void(char *, "
	    "uintptr_t, size_t)", 1 },
	{ "denormalize", DT_IDENT_ACTFUNC, DT_ACT_DENORMALIZE, "void(...)",
	    0 },
	{ "discard", DT_IDENT_ACTFUNC, DT_ACT_DISCARD, "void(int)", 0 },
	{ "exit", DT_IDENT_ACTFUNC, DT_ACT_EXIT, "void(int)", 0 },
	{ "freopen", DT_IDENT_ACTFUNC, DT_ACT_FREOPEN, "void(@, ...)", 1 },
	{ "ftruncate", DT_IDENT_ACTFUNC, DT_ACT_FTRUNCATE, "void()", 0 },
	{ "func", DT_IDENT_ACTFUNC, DT_ACT_SYM, "_symaddr(uintptr_t)", 0 },
	{ "jstack", DT_IDENT_ACTFUNC, DT_ACT_JSTACK, "stack(...)", 0 },
	{ "mod", DT_IDENT_ACTFUNC, DT_ACT_MOD, "_symaddr(uintptr_t)", 0 },
	{ "normalize", DT_IDENT_ACTFUNC, DT_ACT_NORMALIZE, "void(...)", 0 },
	{ "panic", DT_IDENT_ACTFUNC, DT_ACT_PANIC, "void()", 1 },
	{ "print", DT_IDENT_ACTFUNC, DT_ACT_PRINT, "void(@)", 0 },
	{ "printa", DT_IDENT_ACTFUNC, DT_ACT_PRINTA, "void(@, ...)", 0 },
	{ "printf", DT_IDENT_ACTFUNC, DT_ACT_PRINTF, "void(@, ...)", 0 },
	{ "printm", DT_IDENT_ACTFUNC, DT_ACT_PRINTM, "void(size_t, "
	    "uintptr_t *)", 0 },
	{ "raise", DT_IDENT_ACTFUNC, DT_ACT_RAISE, "void(int)", 1 },
	{ "setopt", DT_IDENT_ACTFUNC, DT_ACT_SETOPT, "void(char *, "
	    "[char *])", 0 },
	{ "speculate", DT_IDENT_ACTFUNC, DT_ACT_SPECULATE, "void(int)", 0 },
	{ "stack", DT_IDENT_ACTFUNC, DT_ACT_STACK, "stack(...)", 0 },
	{ "stop", DT_IDENT_ACTFUNC, DT_ACT_STOP, "void()", 1 },
	{ "sym", DT_IDENT_ACTFUNC, DT_ACT_SYM, "_symaddr(uintptr_t)", 0 },
	{ "system", DT_IDENT_ACTFUNC, DT_ACT_SYSTEM, "void(@, ...)", 1 },
	{ "trace", DT_IDENT_ACTFUNC, DT_ACT_TRACE, "void(@)", 0 },
	{ "tracemem", DT_IDENT_ACTFUNC, DT_ACT_TRACEMEM, "void(@, size_t, "
	    "...)", 0 },
	{ "trunc", DT_IDENT_ACTFUNC, DT_ACT_TRUNC, "void(...)", 0 },
	{ "uaddr", DT_IDENT_ACTFUNC, DT_ACT_UADDR, "_usymaddr(uintptr_t)", 0 },
	{ "ufunc", DT_IDENT_ACTFUNC, DT_ACT_USYM, "_usymaddr(uintptr_t)", 0 },
	{ "umod", DT_IDENT_ACTFUNC, DT_ACT_UMOD, "_usymaddr(uintptr_t)", 0 },
	{ "ustack", DT_IDENT_ACTFUNC, DT_ACT_USTACK, "stack(...)", 0 },
	{ "usym", DT_IDENT_ACTFUNC, DT_ACT_USYM, "_usymaddr(uintptr_t)", 0 },

	/* Aggregating functions. */
	{ "avg", DT_IDENT_AGGFUNC, DT_AGG_AVG, "void(@)", 0 },
	{ "count", DT_IDENT_AGGFUNC, DT_AGG_COUNT, "void()", 0 },
	{ "llquantize", DT_IDENT_AGGFUNC, DT_AGG_LLQUANTIZE, "void(@, "
	    "int32_t, int32_t, int32_t, int32_t, ...)", 0 },
	{ "lquantize", DT_IDENT_AGGFUNC, DT_AGG_LQUANTIZE, "void(@, int32_t, "
	    "int32_t, ...)", 0 },
	{ "max", DT_IDENT_AGGFUNC, DT_AGG_MAX, "void(@)", 0 },
	{ "min", DT_IDENT_AGGFUNC, DT_AGG_MIN, "void(@)", 0 },
	{ "quantize", DT_IDENT_AGGFUNC, DT_AGG_QUANTIZE, "void(@, ...)", 0 },
	{ "stddev", DT_IDENT_AGGFUNC, DT_AGG_STDDEV, "void(@)", 0 },
	{ "sum", DT_IDENT_AGGFUNC, DT_AGG_SUM, "void(@)", 0 },
	{ NULL, 0, 0, NULL, 0 }
};

int
dt_ident_init(dt_cc_t *cc)
{
	dt_ident_t *idp;
	char cwd[4096];

	if ((cc->cc_globals = dt_idhash_create("global",
	    DIF_VAR_OTHER_UBASE, DIF_VAR_OTHER_MAX)) == NULL ||
	    (cc->cc_tls = dt_idhash_create("thread-local",
	    DIF_VAR_OTHER_UBASE, DIF_VAR_OTHER_MAX)) == NULL ||
	    (cc->cc_aggs = dt_idhash_create("aggregation", 0,
	    UINT32_MAX - 1)) == NULL ||
	    (cc->cc_macros = dt_idhash_create("macro", 0, 0)) == NULL)
		return -1;

	for (const dt_bivar_t *bv = dt_bivars; bv->bv_name != NULL; bv++) {
		if ((idp = dt_idhash_insert(cc->cc_globals, bv->bv_name,
		    bv->bv_kind, DT_IDFLG_BUILTIN, bv->bv_id, 0)) == NULL)
			return -1;
		if (strcmp(bv->bv_name, "args") == 0)
			idp->di_flags |= DT_IDFLG_DIFR;
	}
	for (const dt_bifunc_t *bf = dt_bifuncs; bf->bf_name != NULL; bf++) {
		if ((idp = dt_idhash_insert(cc->cc_globals, bf->bf_name,
		    bf->bf_kind, DT_IDFLG_BUILTIN | (bf->bf_destructive ?
		    DT_IDFLG_DESTRUCT : 0), bf->bf_id, 0)) == NULL)
			return -1;
		idp->di_proto = bf->bf_proto;
	}

	/* Macro variables: values of this process, as DTrace takes them. */
	static const char *const names[] = { "pid", "ppid", "uid", "gid",
		"euid", "egid", "pgid", "sid", "projid", "taskid", "target",
		NULL };
	int64_t vals[] = { getpid(), getppid(), getuid(), getgid(),
		geteuid(), getegid(), getpgrp(), getsid(0), 0, 0, 0 };
	for (int i = 0; names[i] != NULL; i++) {
		if ((idp = dt_idhash_insert(cc->cc_macros, names[i],
		    DT_IDENT_ENUM, DT_IDFLG_BUILTIN, 0, 0)) == NULL)
			return -1;
		idp->di_value = vals[i];
	}
	if ((idp = dt_idhash_insert(cc->cc_macros, "zonename",
	    DT_IDENT_SCALAR, DT_IDFLG_BUILTIN, 0, 0)) == NULL)
		return -1;
	idp->di_data = strdup("global");
	if ((idp = dt_idhash_insert(cc->cc_macros, "cwd", DT_IDENT_SCALAR,
	    DT_IDFLG_BUILTIN, 0, 0)) == NULL)
		return -1;
	idp->di_data = strdup(getcwd(cwd, sizeof (cwd)) ? cwd : "/");
	return 0;
}

/*
 * The D version (major << 24 | minor << 12 | micro) that introduced each
 * built-in that is not in D 1.0, as DTrace dates them.  Built-ins that
 * only Oracle's DTrace has are left undated: they are always there.
 */
static const struct {
	const char *name;
	int64_t vers;
} dt_ident_versions[] = {
#define DT_VERS(maj, min) ((int64_t) (maj) << 24 | (int64_t) (min) << 12)
	{ "freopen", DT_VERS(1, 1) }, { "index", DT_VERS(1, 1) },
	{ "rindex", DT_VERS(1, 1) }, { "strchr", DT_VERS(1, 1) },
	{ "strrchr", DT_VERS(1, 1) }, { "strstr", DT_VERS(1, 1) },
	{ "strtok", DT_VERS(1, 1) }, { "substr", DT_VERS(1, 1) },
	{ "func", DT_VERS(1, 2) }, { "mod", DT_VERS(1, 2) },
	{ "sym", DT_VERS(1, 2) }, { "uaddr", DT_VERS(1, 2) },
	{ "ufunc", DT_VERS(1, 2) }, { "umod", DT_VERS(1, 2) },
	{ "usym", DT_VERS(1, 2) }, { "ucaller", DT_VERS(1, 2) },
	{ "ustackdepth", DT_VERS(1, 2) }, { "setopt", DT_VERS(1, 2) },
	{ "htonl", DT_VERS(1, 3) }, { "htonll", DT_VERS(1, 3) },
	{ "htons", DT_VERS(1, 3) }, { "ntohl", DT_VERS(1, 3) },
	{ "ntohll", DT_VERS(1, 3) }, { "ntohs", DT_VERS(1, 3) },
	{ "inet_ntoa", DT_VERS(1, 5) }, { "inet_ntoa6", DT_VERS(1, 5) },
	{ "inet_ntop", DT_VERS(1, 5) }, { "stddev", DT_VERS(1, 6) },
	{ "llquantize", DT_VERS(1, 7) }, { "tolower", DT_VERS(1, 8) },
	{ "toupper", DT_VERS(1, 8) }, { "print", DT_VERS(1, 9) },
	{ "getf", DT_VERS(1, 10) }, { "json", DT_VERS(1, 11) },
	{ "strtoll", DT_VERS(1, 11) },
#undef DT_VERS
	{ NULL, 0 }
};

/*
 * -x version=V (or #pragma D option version=V): as in DTrace, the
 * built-ins of later versions are not defined, so a program written for V
 * may use their names for its own variables.
 */
void
dt_ident_reduce(dt_cc_t *cc, int64_t vers)
{
	for (int i = 0; dt_ident_versions[i].name != NULL; i++) {
		const char *name = dt_ident_versions[i].name;
		unsigned h;
		dt_ident_t **pp, *idp;

		if (dt_ident_versions[i].vers <= vers)
			continue;
		h = dt_strhash(name) % cc->cc_globals->dh_nbuckets;
		for (pp = &cc->cc_globals->dh_buckets[h]; (idp = *pp) != NULL;
		    pp = &idp->di_next) {
			if (strcmp(idp->di_name, name) == 0 &&
			    (idp->di_flags & DT_IDFLG_BUILTIN)) {
				*pp = idp->di_next;
				dt_ident_free(idp);
				break;
			}
		}
	}
}

/*
 * Give the built-in variables their types.  Some (curpsinfo, curthread)
 * are types the D prelude declares, so this runs after it is compiled.
 */
int
dt_ident_types(dt_cc_t *cc)
{
	for (const dt_bivar_t *bv = dt_bivars; bv->bv_name != NULL; bv++) {
		dt_ident_t *idp = dt_idhash_lookup(cc->cc_globals,
		    bv->bv_name);
		ctf_dict_t *ctfp;
		ctf_id_t type;

		if (idp == NULL || dt_type_lookup(cc, bv->bv_type, &ctfp,
		    &type) != 0)
			return -1;
		dt_ident_type_assign(idp, ctfp, type);
	}
	return 0;
}

dt_ident_t *
dt_ident_lookup_global(dt_pcb_t *pcb, const char *name)
{
	return dt_idhash_lookup(pcb->pcb_cc->cc_globals, name);
}

/*
 * Parse a built-in prototype into a signature, on first use.  Errors here
 * are bugs in the tables above, reported as internal errors.
 */
static dt_idsig_t *
dt_ident_proto(dt_pcb_t *pcb, dt_ident_t *idp)
{
	dt_cc_t *cc = pcb->pcb_cc;
	char buf[256], *p, *q, *args;
	dt_idsig_t *sig;
	int n = 0;

	if (idp->di_sig != NULL)
		return idp->di_sig;
	snprintf(buf, sizeof (buf), "%s", idp->di_proto);
	if ((p = strchr(buf, '(')) == NULL || (q = strrchr(buf, ')')) == NULL)
		dt_cc_error(pcb, D_UNKNOWN, "internal error: malformed entry "
		    "for built-in function %s", idp->di_name);
	*p = '\0';
	*q = '\0';
	args = p + 1;
	if ((sig = calloc(1, sizeof (*sig))) == NULL ||
	    (sig->ds_ctfp = calloc(16, sizeof (ctf_dict_t *))) == NULL ||
	    (sig->ds_type = calloc(16, sizeof (ctf_id_t))) == NULL) {
		dt_ident_sig_free(sig);
		dt_cc_nomem(pcb);
	}
	idp->di_sig = sig;
	sig->ds_varargs = sig->ds_optargs = -1;

	if (idp->di_kind == DT_IDENT_AGGFUNC)
		dt_ident_type_assign(idp, cc->cc_ctf, cc->cc_type_dyn);
	else {
		ctf_dict_t *ctfp;
		ctf_id_t type;

		while (buf[0] != '\0' && isspace((unsigned char)
		    buf[strlen(buf) - 1]))
			buf[strlen(buf) - 1] = '\0';
		if (dt_type_lookup(cc, buf, &ctfp, &type) != 0)
			dt_cc_error(pcb, D_UNKNOWN, "failed to resolve type "
			    "of %s (%s)", idp->di_name, buf);
		dt_ident_type_assign(idp, ctfp, type);
	}

	for (p = args; *p != '\0' && n < 16; n++) {
		char *end = strchr(p, ',');

		if (end != NULL)
			*end = '\0';
		while (isspace((unsigned char) *p))
			p++;
		if (strcmp(p, "@") == 0) {
			sig->ds_ctfp[n] = NULL;
		} else if (strcmp(p, "...") == 0) {
			sig->ds_varargs = n;
			sig->ds_ctfp[n] = NULL;
		} else {
			if (*p == '[') {
				if (sig->ds_optargs < 0)
					sig->ds_optargs = n;
				p++;
				p[strlen(p) - 1] = '\0';
			}
			/*
			 * A kernel struct (struct mutex) is void * where
			 * the kernel's types are not known.
			 */
			if (dt_type_lookup(cc, p, &sig->ds_ctfp[n],
			    &sig->ds_type[n]) != 0 &&
			    (strncmp(p, "struct ", 7) != 0 ||
			    dt_type_lookup(cc, "void *", &sig->ds_ctfp[n],
			    &sig->ds_type[n]) != 0))
				dt_cc_error(pcb, D_UNKNOWN, "failed to resolve "
				    "type of %s arg#%d (%s)", idp->di_name,
				    n + 1, p);
		}
		if (end == NULL)
			break;
		p = end + 1;
	}
	if (args[0] != '\0')
		n++;
	sig->ds_argc = n;
	return sig;
}

/*
 * Check an argument (or key) list against a signature: the count, then
 * each type, with DTrace's messages.
 */
static void
dt_ident_check_sig(dt_pcb_t *pcb, dt_ident_t *idp, dt_idsig_t *sig,
    dt_node_t *args, const char *prefix, const char *suffix, bool iskey)
{
	dt_cc_t *cc = pcb->pcb_cc;
	int argc = (int) dt_node_list_len(args), limit, cmp = 0;
	bool mismatch;
	char n1[512], n2[512];

	if (sig->ds_varargs >= 0) {
		mismatch = argc < sig->ds_varargs;
		limit = sig->ds_varargs;
		cmp = 1;
	} else if (sig->ds_optargs >= 0) {
		if (argc < sig->ds_optargs) {
			mismatch = true, cmp = 1, limit = sig->ds_optargs;
		} else if (argc > sig->ds_argc) {
			mismatch = true, cmp = -1, limit = sig->ds_argc;
		} else {
			mismatch = false, limit = argc;
		}
	} else {
		mismatch = argc != sig->ds_argc;
		limit = sig->ds_argc;
	}
	if (mismatch)
		dt_cc_error(pcb, D_PROTO_LEN, "%s%s%s prototype mismatch: %d "
		    "%s%spassed, %s%d expected", prefix, idp->di_name, suffix,
		    argc, iskey ? "key" : "arg", argc == 1 ? " " : "s ",
		    cmp > 0 ? "at least " : cmp < 0 ? "at most " : "", limit);

	for (int i = 0; i < limit && args != NULL;
	    i++, args = args->dn_list) {
		dt_node_t formal = { 0 };

		if (sig->ds_ctfp[i] == NULL)
			continue;
		dt_node_type_assign(&formal, sig->ds_ctfp[i], sig->ds_type[i]);
		if (sig->ds_flags != NULL)
			formal.dn_flags |= sig->ds_flags[i] & DT_NF_USERLAND;
		if (!dt_node_is_argcompat(cc, &formal, args))
			dt_cc_error(pcb, D_PROTO_ARG, "%s%s%s %s #%d is "
			    "incompatible with prototype:\n\tprototype: %s\n\t"
			    "%9s: %s", prefix, idp->di_name, suffix,
			    iskey ? "key" : "argument", i + 1,
			    dt_node_type_name(cc, &formal, n1, sizeof (n1)),
			    iskey ? "key" : "argument",
			    dt_node_type_name(cc, args, n2, sizeof (n2)));
	}
}

/*
 * Give a variable, array reference or call its type, checking keys or
 * arguments against the identifier's signature.  An associative array's
 * key signature is set by its first use.
 */
void
dt_ident_cook(dt_pcb_t *pcb, dt_node_t *dnp, dt_ident_t *idp,
    dt_node_t *args)
{
	dt_cc_t *cc = pcb->pcb_cc;
	char n[512];

	switch (idp->di_kind) {
	case DT_IDENT_FUNC:
	case DT_IDENT_ACTFUNC:
	case DT_IDENT_AGGFUNC:
		dt_ident_check_sig(pcb, idp, dt_ident_proto(pcb, idp), args,
		    "", "( )", false);
		dt_node_type_assign(dnp, idp->di_ctfp, idp->di_type);
		return;

	case DT_IDENT_ARRAY:
	case DT_IDENT_AGG:
		if (idp->di_flags & DT_IDFLG_DIFR) {
			/* args[]: typed per probe, see dt_cook.c */
			return;
		}
		if (idp->di_id == DIF_VAR_REGS || idp->di_id == DIF_VAR_UREGS) {
			if ((idp->di_flags & DT_IDFLG_BUILTIN)) {
				int argc = (int) dt_node_list_len(args);

				if (argc != 1)
					dt_cc_error(pcb, D_PROTO_LEN, "%s[ ] "
					    "prototype mismatch: %d arg%s"
					    "passed, 1 expected", idp->di_name,
					    argc, argc == 1 ? " " : "s ");
				if (args->dn_kind != DT_NODE_INT)
					dt_cc_error(pcb, D_PROTO_ARG, "%s[ ] "
					    "argument #1 is incompatible with "
					    "prototype:\n\tprototype: %s\n\t "
					    "argument: %s", idp->di_name,
					    "integer constant",
					    dt_node_type_name(cc, args, n,
					    sizeof (n)));
				if ((args->dn_flags & DT_NF_SIGNED) &&
				    (int64_t) args->dn_value < 0)
					dt_cc_error(pcb, D_REGS_IDX, "index "
					    "%lld is out of range for array %s",
					    (long long) args->dn_value,
					    idp->di_name);
				dt_node_type_assign(dnp, idp->di_ctfp,
				    idp->di_type);
				return;
			}
		}
		if (idp->di_sig == NULL) {
			int argc = (int) dt_node_list_len(args), i = 0;
			dt_idsig_t *sig = calloc(1, sizeof (*sig));

			if (sig == NULL)
				dt_cc_nomem(pcb);
			idp->di_sig = sig;
			sig->ds_varargs = sig->ds_optargs = -1;
			sig->ds_argc = argc;
			sig->ds_ctfp = calloc(argc + 1, sizeof (ctf_dict_t *));
			sig->ds_type = calloc(argc + 1, sizeof (ctf_id_t));
			sig->ds_flags = calloc(argc + 1, sizeof (uint32_t));
			if (sig->ds_ctfp == NULL || sig->ds_type == NULL ||
			    sig->ds_flags == NULL)
				dt_cc_nomem(pcb);
			for (dt_node_t *a = args; a != NULL;
			    a = a->dn_list, i++) {
				/*
				 * A translated pointer (curpsinfo) is
				 * dynamic in DTrace: its value is not what
				 * its members read, so it keys nothing.
				 */
				if (dt_node_is_dynamic(cc, a) ||
				    dt_node_is_xlptr(a) || dt_node_is_void(a))
					dt_cc_error(pcb, D_KEY_TYPE, "%s "
					    "expression may not be used as %s "
					    "index: key #%d",
					    dt_node_type_name(cc, a, n,
					    sizeof (n)),
					    dt_idkind_name(idp->di_kind), i + 1);
				sig->ds_ctfp[i] = a->dn_ctfp;
				sig->ds_type[i] = a->dn_type;
				sig->ds_flags[i] = a->dn_flags;
			}
			if (idp->di_kind == DT_IDENT_AGG ||
			    dt_ident_unref(idp))
				dt_node_type_assign(dnp, cc->cc_ctf,
				    cc->cc_type_dyn);
			else
				dt_node_type_assign(dnp, idp->di_ctfp,
				    idp->di_type);
			return;
		}
		dt_ident_check_sig(pcb, idp, idp->di_sig, args,
		    idp->di_kind == DT_IDENT_AGG ? "@" : "", "[ ]", true);
		if (idp->di_kind == DT_IDENT_AGG || dt_ident_unref(idp))
			dt_node_type_assign(dnp, cc->cc_ctf, cc->cc_type_dyn);
		else
			dt_node_type_assign(dnp, idp->di_ctfp, idp->di_type);
		return;

	default:
		if (!dt_ident_unref(idp))
			dt_node_type_assign(dnp, idp->di_ctfp, idp->di_type);
		return;
	}
}
