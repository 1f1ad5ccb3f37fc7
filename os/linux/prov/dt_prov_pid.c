/* SPDX-License-Identifier: MIT */
/*
 * dt_prov_pid.c: the pid provider -- any function, or any instruction, of
 * a running process.
 *
 *	pid<N>:<module>:<function>:entry	the function's first instruction
 *	pid<N>:<module>:<function>:return	every return site: each ret,
 *						and each jmp or jcc out of the
 *						function (a tail call)
 *	pid<N>:<module>:<function>:<hex>	the instruction at that offset
 *
 * <module> is the basename of a file the process maps executable
 * (libc.so.6), or a.out for its executable; a module that is not a
 * pattern is also named, as DTrace names a process's objects, by the
 * file's path or its basename up to a '.' (libc.so, libc).  Every field
 * may be a glob, and an empty or glob name also creates a probe per instruction offset
 * (pid123::foo: is every instruction of foo).  Probes are made on demand,
 * when a description names pid<N> (pid$target after macro expansion):
 * the provider "pid<N>" is registered then, from the process's
 * /proc/<N>/maps and the symbol tables of its files (dt_elfsym.c).
 * Instruction boundaries, return sites and tail calls come from the
 * ISA's decoder (dt_isa_sites_scan(), isa/dt_isa.h); a function it refuses
 * gets its entry probe only.
 *
 * The BPF engine places a uprobe at each site (file + offset, filtered to
 * the process); the ptrace engine (os/linux/ptrace/) an int3 at the
 * site's runtime address.  Arguments, as DTrace defines them:
 *
 *	entry, offset	arg0..arg5: the argument registers; arg6..arg9
 *			the stack words above the return address the
 *			stack pointer points to (meaningful at entry)
 *	return		arg0: the offset of the return site in the
 *			function; arg1: the return value (rax)
 *
 * A C++ or Rust function's probes carry its demangled name
 * (ns::K::f(int), unless -x nodemangle), as stacks print it; a
 * description's function field matches either that or the symbol's
 * mangled name (pi_altname, through po_funcmatch; under -x nodemangle,
 * the other way round).
 *
 * A function named exactly by a weak alias is the probe of the symbol
 * DTrace prefers at its address (global, then fewer leading underscores:
 * weak _go is go's probe), and a description naming a function, probe
 * name or offset that does not exist says why (po_nomatch: D_PROC_FUNC,
 * D_PROC_NAME, D_PROC_OFF, D_PROC_BADPID).  An offset probe a pattern
 * made skips a site the kernel refuses without a word.
 *
 * The arguments are untyped (dtrace -lv lists None), and the stability is
 * DTrace's for pid: provider and probe names Evolving and ISA-bound, the
 * rest Private.
 *
 * A tail call through a conditional branch (jcc out of the function)
 * returns only when taken: such a site is a return site with its
 * condition (pi_conds), and the engines fire its return probe only when
 * the flags at the branch say it is taken -- the BPF program reads them
 * from the uprobe's registers, the ptrace engine from the stopped
 * thread's.  loop and jrcxz out of a function (which no compiler emits as
 * a tail call) are not return sites.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/compiler/dt_errtags.h"
#include "common/dt_demangle.h"
#include "common/dt_impl.h"
#include "common/probe/dt_probe.h"
#include "isa/dt_isa.h"
#include "os/linux/dt_elfsym.h"
#include "os/linux/prov/dt_linux_prov.h"

static const dt_provattr_t dt_pid_attr = {
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_ISA },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_ISA },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
};

/* Probes made so far for one symbol, so none is made twice. */
#define DT_PID_MADE_ENTRY   0x1
#define DT_PID_MADE_RETURN  0x2
#define DT_PID_MADE_OFFSETS 0x4	/* every offset */
#define DT_PID_MADE_SOME    0x8	/* some offsets */

/* The provider pid<N>, or pid* (DT_PID_ANY) with pp_pid -1. */
typedef struct dt_pid_prov {
	char pp_name[24];
	int pp_pid;
	uint32_t pp_gen;	/* its image: one more at each exec */
	dt_pid_module_t *pp_mods;
	size_t pp_nmods;
	/*
	 * pid*: the last module name resolved to a file, and the file (""
	 * when it names none), since every probe's match asks again.
	 */
	char *pp_lastname;
	char pp_lastpath[PATH_MAX];
	int pp_lasterr;		/* errno when it names none */
} dt_pid_prov_t;

/*
 * The provider of system-wide probes: pid*:<file>:<function>:<name>
 * traces the function in every process that maps the file, now or
 * later, through uprobes on the file with no process filter.
 */
#define DT_PID_ANY "pid*"

static const dt_provops_t dt_pid_ops, dt_pid_any_ops;

/* Is pvp a pid<N> or the pid* provider? */
static bool
dt_pid_isprov(const dt_provider_t *pvp)
{
	return pvp->pv_ops == &dt_pid_ops || pvp->pv_ops == &dt_pid_any_ops;
}

void
dt_pid_modules_free(dt_pid_module_t *mods, size_t nmods)
{
	for (size_t i = 0; i < nmods; i++) {
		free(mods[i].pm_path);
		free(mods[i].pm_made);
		free(mods[i].pm_byname);
		dt_elfsym_free(&mods[i].pm_syms);
	}
	free(mods);
}

static void
dt_pid_prov_free(dt_pid_prov_t *pp)
{
	dt_pid_modules_free(pp->pp_mods, pp->pp_nmods);
	free(pp->pp_lastname);
	free(pp);
}

int
dt_pid_read_maps(int pid, dt_pid_module_t **modsp, size_t *nmodsp)
{
	char path[64], exe[PATH_MAX], line[PATH_MAX + 128];
	ssize_t n;
	FILE *fp;

	(void) snprintf(path, sizeof (path), "/proc/%d/exe", pid);
	if ((n = readlink(path, exe, sizeof (exe) - 1)) < 0)
		exe[0] = '\0';
	else
		exe[n] = '\0';
	(void) snprintf(path, sizeof (path), "/proc/%d/maps", pid);
	if ((fp = fopen(path, "re")) == NULL)
		return -1;
	while (fgets(line, sizeof (line), fp) != NULL) {
		uint64_t lo, pgoff;
		char perms[8], *file;
		dt_pid_module_t *pm = NULL;
		int k = 0;

		if (sscanf(line, "%" SCNx64 "-%*x %7s %" SCNx64 " %*s %*s %n",
		    &lo, perms, &pgoff, &k) < 3 || k == 0)
			continue;
		line[strcspn(line, "\n")] = '\0';
		file = line + k;
		if (perms[2] != 'x' || file[0] != '/')
			continue;
		for (size_t i = 0; i < *nmodsp; i++) {
			if (strcmp((*modsp)[i].pm_path, file) == 0)
				pm = &(*modsp)[i];
		}
		if (pm != NULL)
			continue;
		pm = realloc(*modsp, (*nmodsp + 1) * sizeof (*pm));
		if (pm == NULL)
			goto nomem;
		*modsp = pm;
		pm += *nmodsp;
		memset(pm, 0, sizeof (*pm));
		if ((pm->pm_path = strdup(file)) == NULL)
			goto nomem;
		(*nmodsp)++;
		pm->pm_name = strrchr(pm->pm_path, '/') + 1;
		pm->pm_aout = strcmp(file, exe) == 0;
		pm->pm_base = lo - pgoff;
	}
	(void) fclose(fp);
	return 0;
nomem:
	(void) fclose(fp);
	errno = ENOMEM;
	return -1;
}

/*
 * pid*: the file a module name names (dt_pid_lib_resolve()), or NULL
 * with errno.
 */
static const char *
dt_pid_any_path(dt_pid_prov_t *pp, const char *name)
{
	if (pp->pp_lastname == NULL || strcmp(pp->pp_lastname, name) != 0) {
		free(pp->pp_lastname);
		if ((pp->pp_lastname = strdup(name)) == NULL) {
			errno = ENOMEM;
			return NULL;
		}
		if (dt_pid_lib_resolve(name, pp->pp_lastpath,
		    sizeof (pp->pp_lastpath)) != 0) {
			pp->pp_lastpath[0] = '\0';
			pp->pp_lasterr = errno;
		}
	}
	if (pp->pp_lastpath[0] == '\0') {
		errno = pp->pp_lasterr;
		return NULL;
	}
	return pp->pp_lastpath;
}

/*
 * The module of the current image a name that is not a pattern names, as
 * DTrace resolves a process's object by name: the file's path or basename
 * (libc.so.6), else its basename up to a '.' (libc.so, libc), else a.out
 * for the executable.  The first module in map order wins.  pid*'s
 * modules are the files names have resolved to.
 */
static const dt_pid_module_t *
dt_pid_module_named(dt_pid_prov_t *pp, const char *name)
{
	if (pp->pp_pid < 0) {
		const char *path = dt_pid_any_path(pp, name);

		for (size_t m = 0; path != NULL && m < pp->pp_nmods; m++) {
			if (strcmp(pp->pp_mods[m].pm_path, path) == 0)
				return &pp->pp_mods[m];
		}
		return NULL;
	}
	for (int rank = 1; rank <= 2; rank++) {
		for (size_t m = 0; m < pp->pp_nmods; m++) {
			const dt_pid_module_t *pm = &pp->pp_mods[m];

			if (pm->pm_gen == pp->pp_gen &&
			    dt_pid_name_rank(pm->pm_path, pm->pm_name, name) ==
			    rank)
				return pm;
		}
	}
	for (size_t m = 0; m < pp->pp_nmods; m++) {
		const dt_pid_module_t *pm = &pp->pp_mods[m];

		if (pm->pm_gen == pp->pp_gen && pm->pm_aout &&
		    strcmp(name, "a.out") == 0)
			return pm;
	}
	return NULL;
}

/* A probe's module named by what DTrace resolves a name to (libc). */
static bool
dt_pid_modmatch(const dt_probe_t *prp, const char *mod)
{
	dt_pid_prov_t *pp = prp->pr_prov->pv_data;
	const dt_pid_module_t *pm = dt_pid_module_named(pp, mod);
	const dt_pid_probe_t *pi = prp->pr_data;

	if (pp->pp_pid < 0)	/* pid*: modules may share a basename */
		return pm != NULL && pm->pm_path == pi->pi_path;
	return pm != NULL && strcmp(pm->pm_name, prp->pr_mod) == 0;
}

static int
dt_pid_byname_cmp(const void *a, const void *b, void *arg)
{
	const dt_elfsyms_t *ess = arg;
	uint32_t i = *(const uint32_t *) a, j = *(const uint32_t *) b;
	int c = strcmp(ess->ess_syms[i].es_name, ess->ess_syms[j].es_name);

	return c != 0 ? c : (i > j) - (i < j);
}

/*
 * The first symbol of pm (in its table's order) called name, or NULL:
 * a binary search of its symbols sorted by name, sorted when first
 * asked, since every description naming a function asks of every probe.
 */
static const dt_elfsym_t *
dt_pid_symbol_named(dt_pid_module_t *pm, const char *name)
{
	size_t n = pm->pm_syms.ess_nsyms, lo = 0, hi = n;

	if (pm->pm_byname == NULL && n > 0) {
		if ((pm->pm_byname = malloc(n * sizeof (uint32_t))) == NULL)
			return NULL;
		for (size_t i = 0; i < n; i++)
			pm->pm_byname[i] = (uint32_t) i;
		qsort_r(pm->pm_byname, n, sizeof (uint32_t),
		    dt_pid_byname_cmp, &pm->pm_syms);
	}
	while (lo < hi) {	/* the first index whose name is >= name */
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(pm->pm_syms.ess_syms[pm->pm_byname[mid]].es_name,
		    name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == n ||
	    strcmp(pm->pm_syms.ess_syms[pm->pm_byname[lo]].es_name, name) != 0)
		return NULL;
	return &pm->pm_syms.ess_syms[pm->pm_byname[lo]];
}

/*
 * A probe's function named by another symbol at its address (a weak
 * alias): DTrace resolves a function name to its address and names the
 * probe by the symbol it prefers there, so either name finds it.
 */
static bool
dt_pid_funcmatch(const dt_probe_t *prp, const char *func)
{
	const dt_pid_prov_t *pp = prp->pr_prov->pv_data;
	const dt_pid_probe_t *pi = prp->pr_data;

	/* A C++ or Rust function is matched by its other name too. */
	if (dt_pid_altmatch(prp, func))
		return true;
	/*
	 * Without an alias, only its name names it: with ten thousand
	 * descriptions, each met against every probe made so far, the
	 * search below was most of the time spent.
	 */
	if (!pi->pi_aliased || dt_strisglob(func))
		return false;
	for (size_t m = 0; m < pp->pp_nmods; m++) {
		dt_pid_module_t *pm = &pp->pp_mods[m];
		const dt_elfsym_t *es;

		if (pm->pm_path != pi->pi_path || !pm->pm_loaded)
			continue;
		if ((es = dt_pid_symbol_named(pm, func)) != NULL)
			return pm->pm_base + (uint64_t) dt_elfsym_fileoff(
			    &pm->pm_syms, es->es_addr) == pi->pi_func;
	}
	return false;
}

static bool
dt_pid_field(const char *s, const char *glob)
{
	return glob[0] == '\0' || dt_gmatch(s, glob);
}

const char *
dt_pid_funcname(dtrace_hdl_t *dtp, const char *sym)
{
	const char *dem;

	if (dtp->dt_options[DT_OPT_NODEMANGLE] == DTRACEOPT_UNSET &&
	    (dem = dt_demangle(sym)) != NULL)
		return dem;
	return sym;
}

int
dt_pid_setaltname(dt_pid_probe_t *pi, const char *func, const char *sym)
{
	const char *alt = sym;

	if (strcmp(func, sym) == 0 && (alt = dt_demangle(sym)) == NULL)
		return 0;	/* not a C++ or Rust name */
	if ((pi->pi_altname = strdup(alt)) == NULL) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

bool
dt_pid_altmatch(const dt_probe_t *prp, const char *func)
{
	const dt_pid_probe_t *pi = prp->pr_data;

	return pi->pi_altname != NULL && dt_gmatch(pi->pi_altname, func);
}

/* Does a function glob name es, by its own or its demangled name? */
static bool
dt_pid_symmatch(const dt_elfsym_t *es, const char *glob)
{
	const char *dem;

	return dt_pid_field(es->es_name, glob) ||
	    ((dem = dt_demangle(es->es_name)) != NULL && dt_gmatch(dem, glob));
}

/*
 * Whether symbol i makes the probes of its address for a function glob:
 * no alias at that address that ranks before it (they are sorted best
 * first) is named by the glob too, by either name.  So a probe is made
 * once per address, even for aliases that demangle alike (a C++
 * constructor's C1 and C2 symbols are both A::A()).
 */
static bool
dt_pid_preferred(const dt_elfsyms_t *ess, size_t i, const char *glob)
{
	uint64_t addr = ess->ess_syms[i].es_addr;

	while (i > 0 && ess->ess_syms[i - 1].es_addr == addr) {
		if (dt_pid_symmatch(&ess->ess_syms[--i], glob))
			return false;
	}
	return true;
}

static dt_pid_probe_t *
dt_pid_probe_new(const dt_pid_module_t *pm, const dt_pid_prov_t *pp,
    const dt_elfsym_t *es, int kind)
{
	dt_pid_probe_t *pi = calloc(1, sizeof (*pi));

	if (pi == NULL)
		return NULL;
	pi->pi_pid = pp->pp_pid;
	pi->pi_gen = pp->pp_gen;
	pi->pi_kind = kind;
	pi->pi_path = pm->pm_path;
	pi->pi_base = pm->pm_base;
	pi->pi_func = pm->pm_base + (uint64_t) dt_elfsym_fileoff(&pm->pm_syms,
	    es->es_addr);
	/* (The symbols are sorted by address: aliases are neighbours.) */
	pi->pi_aliased = (es > pm->pm_syms.ess_syms &&
			     es[-1].es_addr == es->es_addr) ||
	    (es + 1 < pm->pm_syms.ess_syms + pm->pm_syms.ess_nsyms &&
		es[1].es_addr == es->es_addr);
	return pi;
}

static int
dt_pid_addsite(dt_pid_probe_t *pi, uint64_t fileoff)
{
	uint64_t *p = realloc(pi->pi_sites, (pi->pi_nsites + 1) *
	    sizeof (*p));

	if (p == NULL)
		return -1;
	pi->pi_sites = p;
	p[pi->pi_nsites++] = fileoff;
	if (pi->pi_conds != NULL) {
		uint16_t *c = realloc(pi->pi_conds, pi->pi_nsites *
		    sizeof (*c));

		if (c == NULL)
			return -1;
		pi->pi_conds = c;
		c[pi->pi_nsites - 1] = 0;
	}
	return 0;
}

/* The last site added returns only when condition cc holds. */
static int
dt_pid_sitecond(dt_pid_probe_t *pi, unsigned cc)
{
	if (pi->pi_conds == NULL &&
	    (pi->pi_conds = calloc(pi->pi_nsites, sizeof (uint16_t))) ==
	    NULL)
		return -1;
	pi->pi_conds[pi->pi_nsites - 1] = (uint16_t) (cc + 1);
	return 0;
}

/*
 * Enters probe prp, of symbol es, under the other names dt_pid_funcmatch()
 * accepts for it: its other name (mangled or demangled) and those of the
 * symbols at its address.
 */
static int
dt_pid_index_names(dtrace_hdl_t *dtp, const dt_probe_t *prp,
    const dt_pid_module_t *pm, const dt_elfsym_t *es)
{
	const dt_pid_probe_t *pi = prp->pr_data;
	const dt_elfsym_t *first = pm->pm_syms.ess_syms;
	const dt_elfsym_t *end = first + pm->pm_syms.ess_nsyms, *a = es;

	if (pi->pi_altname != NULL &&
	    dt_probe_funcname_add(dtp, prp, pi->pi_altname) != 0)
		return dt_set_errno(dtp, EDT_NOMEM);
	if (!pi->pi_aliased)
		return 0;
	while (a > first && a[-1].es_addr == es->es_addr)
		a--;
	for (; a < end && a->es_addr == es->es_addr; a++) {
		if (a != es && dt_probe_funcname_add(dtp, prp, a->es_name) != 0)
			return dt_set_errno(dtp, EDT_NOMEM);
	}
	return 0;
}

static int
dt_pid_create(dtrace_hdl_t *dtp, dt_provider_t *pvp, const dt_pid_module_t *pm,
    const dt_elfsym_t *es, const char *name, dt_pid_probe_t *pi)
{
	const char *func = dt_pid_funcname(dtp, es->es_name);
	dt_probe_t *prp = NULL;

	if (dt_pid_setaltname(pi, func, es->es_name) == 0)
		prp = dt_probe_create(dtp, pvp, pm->pm_name, func, name, 0,
		    NULL, pi);
	if (prp == NULL) {
		free(pi->pi_sites);
		free(pi->pi_conds);
		free(pi->pi_altname);
		free(pi);
		return -1;
	}
	if (pm->pm_aout)
		prp->pr_modalias = "a.out";
	return dt_pid_index_names(dtp, prp, pm, es);
}

/* The probe pid<N>:mod:func:name of the current image, if made already. */
static dt_probe_t *
dt_pid_exists(dtrace_hdl_t *dtp, dt_provider_t *pvp, const char *mod,
    const char *func, const char *name)
{
	const dt_pid_prov_t *pp = pvp->pv_data;

	for (uint32_t id = 1; id <= dtp->dt_nprobes; id++) {
		dt_probe_t *prp = dtp->dt_probes[id];

		if (prp->pr_prov == pvp &&
		    ((const dt_pid_probe_t *) prp->pr_data)->pi_gen ==
		    pp->pp_gen && strcmp(prp->pr_func, func) == 0 &&
		    strcmp(prp->pr_name, name) == 0 &&
		    strcmp(prp->pr_mod, mod) == 0)
			return prp;
	}
	return NULL;
}

/* Make the probes of one function that the name glob asks for. */
static int
dt_pid_function(dtrace_hdl_t *dtp, dt_provider_t *pvp, dt_pid_prov_t *pp,
    dt_pid_module_t *pm, size_t si, const char *nglob)
{
	const dt_elfsym_t *es = &pm->pm_syms.ess_syms[si];
	int64_t foff = dt_elfsym_fileoff(&pm->pm_syms, es->es_addr);
	uint8_t *made = &pm->pm_made[si];
	bool want_entry = dt_pid_field("entry", nglob);
	bool want_return = dt_pid_field("return", nglob);
	bool want_offsets = !(*made & DT_PID_MADE_OFFSETS);
	bool quiet = nglob[0] == '\0' || dt_strisglob(nglob);
	dt_probe_t *prp;
	dt_isa_sites_t sites;
	uint8_t *code;
	int fd, rc = 0;
	ssize_t n;

	if (foff < 0)
		return 0;
	if (want_entry && !(*made & DT_PID_MADE_ENTRY)) {
		dt_pid_probe_t *pi = dt_pid_probe_new(pm, pp, es,
		    DT_PID_ENTRY);

		if (pi == NULL || dt_pid_addsite(pi, (uint64_t) foff) != 0 ||
		    dt_pid_create(dtp, pvp, pm, es, "entry", pi) != 0)
			return -1;
		*made |= DT_PID_MADE_ENTRY;
	}
	/* An offset name: hex digits only, or a glob that could be one. */
	if (nglob[0] != '\0' && strspn(nglob, "0123456789abcdefABCDEF*?[]-!")
	    != strlen(nglob))
		want_offsets = false;
	if (!want_offsets && (!want_return || (*made & DT_PID_MADE_RETURN)))
		return 0;

	if ((code = malloc(es->es_size)) == NULL)
		return -1;
	if ((fd = dt_elfsym_open(pm->pm_path)) < 0) {
		free(code);
		return 0;
	}
	n = pread(fd, code, es->es_size, (off_t) foff);
	(void) close(fd);
	if (n != (ssize_t) es->es_size ||
	    dt_isa_sites_scan(code, es->es_size, es->es_addr, &sites) !=
	    DT_ISA_SITES_OK) {
		free(code);
		if (n == (ssize_t) es->es_size)
			dt_isa_sites_free(&sites);
		return 0;	/* refused: the entry probe only */
	}

	if (want_return && !(*made & DT_PID_MADE_RETURN)) {
		dt_pid_probe_t *pi = dt_pid_probe_new(pm, pp, es,
		    DT_PID_RETURN);

		for (size_t i = 0; pi != NULL && i < sites.nsites; i++) {
			const dt_isa_site_t *s = &sites.sites[i];

			if (s->kind != DT_ISA_SITE_RETURN ||
			    s->cond == DT_ISA_COND_UNTESTED)
				continue;
			if (dt_pid_addsite(pi, (uint64_t) foff + s->off) != 0)
				rc = -1;
			else if (s->cond != DT_ISA_COND_ALWAYS &&
			    dt_pid_sitecond(pi, s->cond - 1) != 0)
				rc = -1;
		}
		if (pi == NULL || rc != 0 ||
		    dt_pid_create(dtp, pvp, pm, es, "return", pi) != 0)
			rc = -1;
		*made |= DT_PID_MADE_RETURN;
	}
	for (size_t i = 0; want_offsets && rc == 0 && i < sites.nsites; i++) {
		const dt_isa_site_t *s = &sites.sites[i];
		dt_pid_probe_t *pi;
		char name[24];

		if (s->kind != DT_ISA_SITE_OFFSET)
			continue;
		(void) snprintf(name, sizeof (name), "%x", s->off);
		if (!dt_pid_field(name, nglob))
			continue;
		if ((*made & DT_PID_MADE_SOME) && (prp = dt_pid_exists(dtp,
		    pvp, pm->pm_name, dt_pid_funcname(dtp, es->es_name), name)) !=
		    NULL) {
			/* Named now: a refused site is said again. */
			if (!quiet)
				((dt_pid_probe_t *) prp->pr_data)->pi_quiet =
				    false;
			continue;
		}
		if ((pi = dt_pid_probe_new(pm, pp, es, DT_PID_OFFSET)) ==
		    NULL || dt_pid_addsite(pi, (uint64_t) foff + s->off) != 0)
			rc = -1;
		else if ((pi->pi_quiet = quiet), (pi->pi_atcall = s->atcall),
		    dt_pid_create(dtp, pvp, pm, es, name, pi) != 0)
			rc = -1;
	}
	free(code);
	if (want_offsets && (nglob[0] == '\0' || strcmp(nglob, "*") == 0))
		*made |= DT_PID_MADE_OFFSETS;
	else if (want_offsets)
		*made |= DT_PID_MADE_SOME;
	dt_isa_sites_free(&sites);
	return rc;
}

/*
 * Make the probes of pp's modules of the current image that pdp names:
 * the module named (when not NULL), else those its module field matches.
 */
static int
dt_pid_provide_mods(dtrace_hdl_t *dtp, dt_provider_t *pvp, dt_pid_prov_t *pp,
    const dt_pid_module_t *named, const dt_probedesc_t *pdp)
{
	bool funcnamed = pdp->pd_function[0] != '\0' &&
	    !dt_strisglob(pdp->pd_function);

	for (size_t m = 0; m < pp->pp_nmods; m++) {
		dt_pid_module_t *pm = &pp->pp_mods[m];

		if (pm->pm_gen != pp->pp_gen)
			continue;	/* an image the process left by exec */
		if (named != NULL && pm != named)
			continue;
		if (named == NULL && pdp->pd_module[0] != '\0' &&
		    !dt_gmatch(pm->pm_name, pdp->pd_module) &&
		    !(pm->pm_aout && dt_gmatch("a.out", pdp->pd_module)))
			continue;
		if (!pm->pm_loaded) {
			pm->pm_loaded = true;
			if (dt_elfsym_load(pm->pm_path, &pm->pm_syms) != 0 &&
			    errno == ENOMEM)
				return dt_set_errno(dtp, EDT_NOMEM);
			if (pm->pm_syms.ess_nsyms > 0 && (pm->pm_made = calloc(
			    pm->pm_syms.ess_nsyms, 1)) == NULL)
				return dt_set_errno(dtp, EDT_NOMEM);
		}
		for (size_t i = 0; i < pm->pm_syms.ess_nsyms; i++) {
			const dt_elfsym_t *es = &pm->pm_syms.ess_syms[i];
			size_t si = i;

			if (!dt_pid_symmatch(es, pdp->pd_function) ||
			    !dt_pid_preferred(&pm->pm_syms, i,
			    pdp->pd_function))
				continue;
			/* A name: the probe is the preferred alias's. */
			while (funcnamed && si > 0 &&
			    pm->pm_syms.ess_syms[si - 1].es_addr == es->es_addr)
				si--;
			if (dt_pid_function(dtp, pvp, pp, pm, si,
			    pdp->pd_name) != 0)
				return dt_set_errno(dtp, EDT_NOMEM);
		}
	}
	return 0;
}

/*
 * pid*:<module>:...: the provider pid*, made when first named, and its
 * module for the file the module field names (a path or a library, not a
 * pattern: there is no process to match one against), added when first
 * named.  Its probes are those of the file at file offsets (base 0), in
 * no process in particular.
 */
static int
dt_pid_any_provide(dtrace_hdl_t *dtp, const dt_probedesc_t *pdp)
{
	dt_provider_t *pvp = dt_provider_lookup(dtp, DT_PID_ANY);
	const dt_pid_module_t *named;
	dt_pid_module_t *pm;
	dt_pid_prov_t *pp;
	const char *path;

	if (pdp->pd_module[0] == '\0' || dt_strisglob(pdp->pd_module))
		return 0;
	if (pvp == NULL) {
		if ((pp = calloc(1, sizeof (*pp))) == NULL)
			return dt_set_errno(dtp, EDT_NOMEM);
		(void) snprintf(pp->pp_name, sizeof (pp->pp_name), "%s",
		    DT_PID_ANY);
		pp->pp_pid = -1;
		/* In-kernel only: breakpoints need a process to go in. */
		if (dt_provider_register(dtp, pp->pp_name, &dt_pid_any_ops,
		    &dt_pid_attr, DT_ENGINE_F_KERNEL, pp) != 0) {
			dt_pid_prov_free(pp);
			return -1;
		}
		pvp = dt_provider_lookup(dtp, DT_PID_ANY);
	}
	pp = pvp->pv_data;
	if ((named = dt_pid_module_named(pp, pdp->pd_module)) == NULL) {
		if ((path = dt_pid_any_path(pp, pdp->pd_module)) == NULL)
			return errno == ENOMEM ? dt_set_errno(dtp, EDT_NOMEM) :
			    0;	/* po_nomatch says why */
		if ((pm = realloc(pp->pp_mods, (pp->pp_nmods + 1) *
		    sizeof (*pm))) == NULL)
			return dt_set_errno(dtp, EDT_NOMEM);
		pp->pp_mods = pm;
		pm += pp->pp_nmods;
		memset(pm, 0, sizeof (*pm));
		if ((pm->pm_path = strdup(path)) == NULL)
			return dt_set_errno(dtp, EDT_NOMEM);
		pm->pm_name = strrchr(pm->pm_path, '/') + 1;
		pp->pp_nmods++;
		named = pm;
	}
	return dt_pid_provide_mods(dtp, pvp, pp, named, pdp);
}

static int
dt_pid_provide(dtrace_hdl_t *dtp, dt_provider_t *meta,
    const dt_probedesc_t *pdp)
{
	const char *s = pdp->pd_provider;
	const dt_pid_module_t *named;
	dt_pid_prov_t *pp;
	dt_provider_t *pvp;
	char *end;
	long pid;

	(void) meta;
	if (strcmp(s, DT_PID_ANY) == 0)
		return dt_pid_any_provide(dtp, pdp);
	/* Only pid<digits> names a process; a glob makes nothing. */
	if (strncmp(s, "pid", 3) != 0 || !isdigit((unsigned char) s[3]))
		return 0;
	errno = 0;
	pid = strtol(s + 3, &end, 10);
	if (*end != '\0' || errno != 0 || pid <= 0 || pid > INT32_MAX)
		return 0;

	if ((pvp = dt_provider_lookup(dtp, s)) == NULL) {
		if ((pp = calloc(1, sizeof (*pp))) == NULL)
			return dt_set_errno(dtp, EDT_NOMEM);
		(void) snprintf(pp->pp_name, sizeof (pp->pp_name), "pid%ld",
		    pid);
		pp->pp_pid = (int) pid;
		if (dt_pid_read_maps(pp->pp_pid, &pp->pp_mods,
		    &pp->pp_nmods) != 0) {
			dt_pid_prov_free(pp);
			/* No such process: its probes simply do not exist. */
			return errno == ENOMEM ? dt_set_errno(dtp, EDT_NOMEM) :
			    0;
		}
		if (dt_provider_register(dtp, pp->pp_name, &dt_pid_ops,
		    &dt_pid_attr, DT_ENGINE_F_KERNEL | DT_ENGINE_F_USER, pp) != 0) {
			dt_pid_prov_free(pp);
			return -1;
		}
		pvp = dt_provider_lookup(dtp, pp->pp_name);
	}
	pp = pvp->pv_data;
	named = pdp->pd_module[0] != '\0' && !dt_strisglob(pdp->pd_module) ?
	    dt_pid_module_named(pp, pdp->pd_module) : NULL;
	return dt_pid_provide_mods(dtp, pvp, pp, named, pdp);
}

int
dt_prov_pid_refresh(dtrace_hdl_t *dtp, int pid, int from, bool exec)
{
	char name[24];
	dt_provider_t *pvp;
	dt_pid_prov_t *pp;

	(void) snprintf(name, sizeof (name), "pid%d", pid);
	if ((pvp = dt_provider_lookup(dtp, name)) == NULL ||
	    pvp->pv_ops != &dt_pid_ops)
		return 0;	/* made from what it maps when first named */
	pp = pvp->pv_data;
	/*
	 * After a dlopen, a file already seen keeps its probes: uprobes are
	 * placed per file, so they fire wherever this process maps it.
	 */
	if (dt_pid_modules_merge(&pp->pp_mods, &pp->pp_nmods, from,
	    pp->pp_gen + (exec ? 1 : 0), exec) < 0)
		return errno == ENOMEM ? dt_set_errno(dtp, EDT_NOMEM) : 0;
	if (exec)
		pp->pp_gen++;
	return 0;
}

ssize_t
dt_pid_modules_merge(dt_pid_module_t **modsp, size_t *nmodsp, int from,
    uint32_t gen, bool exec)
{
	dt_pid_module_t *mods = NULL, *p;
	size_t nmods = 0, n0 = *nmodsp, n = n0;

	if (dt_pid_read_maps(from, &mods, &nmods) != 0) {
		dt_pid_modules_free(mods, nmods);
		return -1;
	}
	for (size_t i = 0; !exec && i < nmods; i++) {
		for (size_t m = 0; m < n0; m++) {
			if ((*modsp)[m].pm_gen == gen &&
			    mods[i].pm_path != NULL && strcmp(mods[i].pm_path,
			    (*modsp)[m].pm_path) == 0) {
				free(mods[i].pm_path);
				mods[i].pm_path = NULL;
			}
		}
	}
	if ((p = realloc(*modsp, (n0 + nmods) * sizeof (*p))) == NULL) {
		dt_pid_modules_free(mods, nmods);
		errno = ENOMEM;
		return -1;
	}
	*modsp = p;
	for (size_t i = 0; i < nmods; i++) {
		if (mods[i].pm_path == NULL)
			continue;
		mods[i].pm_gen = gen;
		p[n++] = mods[i];
	}
	*nmodsp = n;
	free(mods);
	return (ssize_t) n0;
}

uint32_t
dt_prov_pid_gen(dtrace_hdl_t *dtp, int pid)
{
	char name[24];
	dt_provider_t *pvp;

	(void) snprintf(name, sizeof (name), "pid%d", pid);
	if ((pvp = dt_provider_lookup(dtp, name)) == NULL ||
	    pvp->pv_ops != &dt_pid_ops)
		return 0;
	return ((const dt_pid_prov_t *) pvp->pv_data)->pp_gen;
}

int
dt_pid_rtld_brk(int pid, char *path, size_t len, uint64_t *offp)
{
	dt_pid_module_t *mods = NULL;
	size_t nmods = 0;
	int rc = -1;

	if (dt_pid_read_maps(pid, &mods, &nmods) != 0) {
		dt_pid_modules_free(mods, nmods);
		return -1;
	}
	for (size_t m = 0; m < nmods && rc != 0; m++) {
		dt_pid_module_t *pm = &mods[m];

		/* ld-linux-x86-64.so.2, ld-linux-aarch64.so.1, ld.so ... */
		if (strncmp(pm->pm_name, "ld-", 3) != 0 &&
		    strncmp(pm->pm_name, "ld.", 3) != 0)
			continue;
		if (dt_elfsym_load(pm->pm_path, &pm->pm_syms) != 0)
			continue;
		for (size_t i = 0; i < pm->pm_syms.ess_nsyms; i++) {
			const dt_elfsym_t *es = &pm->pm_syms.ess_syms[i];
			int64_t off;

			if (strcmp(es->es_name, "_dl_debug_state") != 0 ||
			    (off = dt_elfsym_fileoff(&pm->pm_syms,
			    es->es_addr)) < 0)
				continue;
			(void) snprintf(path, len, "%s", pm->pm_path);
			*offp = (uint64_t) off;
			rc = 0;
			break;
		}
	}
	dt_pid_modules_free(mods, nmods);
	return rc;
}

static void
dt_pid_probe_fini(dtrace_hdl_t *dtp, dt_probe_t *prp)
{
	dt_pid_probe_t *pi = prp->pr_data;

	(void) dtp;
	free(pi->pi_sites);
	free(pi->pi_conds);
	free(pi->pi_altname);
	free(pi);
}

static void
dt_pid_fini(dtrace_hdl_t *dtp, dt_provider_t *pvp)
{
	(void) dtp;
	if (pvp->pv_data != NULL)
		dt_pid_prov_free(pvp->pv_data);
}

/*
 * pid*:<file>:... names the system-wide probes of the file only: a
 * process's own probe of it would fire a second time in that process.
 * pid* with no module or a module pattern is DTrace's pattern, every
 * pid<N>.
 */
static bool
dt_pid_descmatch(const dt_probe_t *prp, const dt_probedesc_t *pdp)
{
	(void) prp;
	return strcmp(pdp->pd_provider, DT_PID_ANY) != 0 ||
	    pdp->pd_module[0] == '\0' || dt_strisglob(pdp->pd_module);
}

/* pid<N> providers: their probes; made by the family's po_provide. */
static const dt_provops_t dt_pid_ops = {
	.po_probe_fini = dt_pid_probe_fini,
	.po_fini = dt_pid_fini,
	.po_modmatch = dt_pid_modmatch,
	.po_funcmatch = dt_pid_funcmatch,
	.po_descmatch = dt_pid_descmatch,
	.po_mech = DT_MECH_USITE,
};

/*
 * pid*: the same probes, of a file in every process; only the in-kernel
 * engine can place them (po_engines_why).
 */
static const dt_provops_t dt_pid_any_ops = {
	.po_probe_fini = dt_pid_probe_fini,
	.po_fini = dt_pid_fini,
	.po_modmatch = dt_pid_modmatch,
	.po_funcmatch = dt_pid_funcmatch,
	.po_mech = DT_MECH_USITE,
	.po_engines_why = "pid* traces a file in every process, which only "
	    "the in-kernel engine can (the ptrace engine needs a process "
	    "ID: pid$target, -p PID)",
};

/* Is name no probe of function es: neither entry, return nor an offset? */
static int
dt_pid_badname(const dt_elfsym_t *es, const char *name, char *msg,
    size_t len)
{
	unsigned long long off;
	char *end;

	if (name[0] == '\0' || dt_strisglob(name) ||
	    strcmp(name, "entry") == 0 || strcmp(name, "return") == 0)
		return -1;
	errno = 0;
	off = strtoull(name, &end, 16);
	if (*end != '\0' || errno != 0) {
		(void) snprintf(msg, len, "'%s' is an invalid probe name", name);
		return D_PROC_NAME;
	}
	if (off >= es->es_size) {
		(void) snprintf(msg, len, "offset 0x%llx outside of function "
		    "'%s'", off, es->es_name);
		return D_PROC_OFF;
	}
	return -1;
}

static int dt_pid_nomatch_func(dt_pid_prov_t *pp, const dt_probedesc_t *pdp,
    char *msg, size_t len);

/*
 * Why a pid* description matched none: its module names no file (or is
 * a pattern), or the file has no such function or probe.
 */
static int
dt_pid_any_nomatch(dtrace_hdl_t *dtp, const dt_probedesc_t *pdp, char *msg,
    size_t len)
{
	dt_provider_t *pvp = dt_provider_lookup(dtp, DT_PID_ANY);
	const char *mod = pdp->pd_module;
	dt_pid_prov_t *pp;

	if (mod[0] == '\0' || dt_strisglob(mod)) {
		(void) snprintf(msg, len, "pid* probes need a module that "
		    "names one file, by path or library name "
		    "(pid*:libc.so.6:malloc:entry)%s%s%s", mod[0] != '\0' ?
		    ", not the pattern '" : "", mod, mod[0] != '\0' ? "'" : "");
		return D_PROC_LIB;
	}
	if (pvp == NULL)
		return -1;
	pp = pvp->pv_data;
	if (dt_pid_module_named(pp, mod) == NULL) {
		(void) snprintf(msg, len, "pid* module '%s' names no file: %s",
		    mod, errno == ENOEXEC ? "it is not an ELF file" :
		    errno == EISDIR ? "it is not a regular file" :
		    strchr(mod, '/') != NULL ? strerror(errno) :
		    "no such library in the dynamic linker's cache "
		    "(/etc/ld.so.cache; give a path)");
		return D_PROC_LIB;
	}
	return dt_pid_nomatch_func(pp, pdp, msg, len);
}

/*
 * Why a description of a process's probes matched none, as DTrace tells
 * it when the description names them exactly: a provider without a
 * valid process ID, a function the named module lacks, a probe name that
 * is neither entry, return nor an offset, an offset past the function's
 * end, or the absolute-address function "-" without one address.
 */
static int
dt_pid_nomatch(dtrace_hdl_t *dtp, dt_provider_t *fam,
    const dt_probedesc_t *pdp, char *msg, size_t len)
{
	const char *s = pdp->pd_provider, *name = pdp->pd_name;
	dt_provider_t *pvp;
	char *end;
	long pid;

	(void) fam;
	if (strcmp(s, DT_PID_ANY) == 0)
		return dt_pid_any_nomatch(dtp, pdp, msg, len);
	if (strncmp(s, "pid", 3) != 0 || !isdigit((unsigned char) s[3]))
		return -1;
	errno = 0;
	pid = strtol(s + 3, &end, 10);
	if (*end != '\0')
		return -1;
	if (errno != 0 || pid <= 0 || pid > INT32_MAX) {
		(void) snprintf(msg, len, "%s does not contain a valid pid", s);
		return D_PROC_BADPID;
	}
	if (strcmp(pdp->pd_function, "-") == 0) {
		if (name[0] == '\0' || dt_strisglob(name)) {
			(void) snprintf(msg, len, "only individual addresses "
			    "may be specified with the '-' function");
			return D_PROC_NAME;
		}
		return -1;
	}
	if ((pvp = dt_provider_lookup(dtp, s)) == NULL) {
		char path[64];
		int fd;

		/*
		 * A process that exists but whose maps we may not read (an
		 * other user's, without privilege) has no probes for us:
		 * that is the reason, not that it has none.
		 */
		(void) snprintf(path, sizeof (path), "/proc/%ld/maps", pid);
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
			(void) close(fd);
			return -1;
		}
		if (errno != EACCES && errno != EPERM)
			return -1;
		(void) snprintf(msg, len, "failed to grab process %ld: "
		    "permission denied", pid);
		return D_PROC_GRAB;
	}
	if (pvp->pv_ops != &dt_pid_ops)
		return -1;
	return dt_pid_nomatch_func(pvp->pv_data, pdp, msg, len);
}

/*
 * Why a description of pp's probes that names a function matched none:
 * the function is in no module it names, or has no such probe.
 */
static int
dt_pid_nomatch_func(dt_pid_prov_t *pp, const dt_probedesc_t *pdp, char *msg,
    size_t len)
{
	const dt_pid_module_t *pm = NULL;
	bool named;

	if (pdp->pd_function[0] == '\0' || dt_strisglob(pdp->pd_function))
		return -1;
	named = pdp->pd_module[0] != '\0' && !dt_strisglob(pdp->pd_module);
	if (named && (pm = dt_pid_module_named(pp, pdp->pd_module)) == NULL)
		return -1;
	/* The function in the named module, or in any the glob names. */
	for (size_t m = 0; m < pp->pp_nmods; m++) {
		const dt_pid_module_t *mm = &pp->pp_mods[m];

		if (mm->pm_gen != pp->pp_gen || !mm->pm_loaded ||
		    (named ? mm != pm : pdp->pd_module[0] != '\0' &&
		    !dt_gmatch(mm->pm_name, pdp->pd_module)))
			continue;
		for (size_t i = 0; i < mm->pm_syms.ess_nsyms; i++) {
			if (dt_pid_symmatch(&mm->pm_syms.ess_syms[i],
			    pdp->pd_function))
				return dt_pid_badname(&mm->pm_syms.ess_syms[i],
				    pdp->pd_name, msg, len);
		}
	}
	if (!named)
		return -1;
	(void) snprintf(msg, len, "failed to lookup '%s' in module '%s'",
	    pdp->pd_function, pdp->pd_module);
	return D_PROC_FUNC;
}

/* The family: asked for every description whose provider is pid... */
static const dt_provops_t dt_pid_family_ops = {
	.po_provide = dt_pid_provide,
	.po_family = "pid",
	.po_nomatch = dt_pid_nomatch,
};

int
dt_prov_pid_init(dtrace_hdl_t *dtp)
{
	return dt_provider_register(dtp, "pid", &dt_pid_family_ops,
	    &dt_pid_attr, DT_ENGINE_F_KERNEL | DT_ENGINE_F_USER, NULL);
}

const dt_pid_probe_t *
dt_prov_pid_info(const dt_probe_t *prp)
{
	return dt_pid_isprov(prp->pr_prov) ? prp->pr_data :
	    dt_prov_usdt_info(prp);
}
