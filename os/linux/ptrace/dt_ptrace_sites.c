/* SPDX-License-Identifier: MIT */
/*
 * dt_ptrace_sites.c: where the ptrace engine's breakpoints go -- the sites
 * of each traced process, collected from the enabled pid and USDT probes,
 * placed when tracing starts and again whenever a process's image changes
 * (exec) or grows (dlopen).
 *
 * The enabled pid and USDT probes are kept with the owner and image they
 * were resolved for (dt_pt_pidp_t, see dt_ptrace_impl.h).  The sites of a
 * process are those of the probes of its owner and image, each at the
 * file offset the probe names plus the address where the process maps
 * that file now (/proc/<pid>/maps): the same probes serve a fork child and
 * a library mapped again, elsewhere, after a dlclose.  Placing a site:
 * its instruction is decoded (dt_isa_ptrace_decode()), a copy that runs out of line
 * is written in a scratch area of the process (mapped by an injected
 * mmap(2)), then the breakpoint; USDT semaphores are raised.
 *
 * Following a process.  The descriptions of the clauses are matched again
 * as on the BPF engine -- dt_prov_pid_refresh() and dt_prov_usdt_refresh()
 * take in what the process maps now, dt_work_rematch() enables what the
 * descriptions match now, which dt_ptrace.c's eo_enable notes with the
 * process's image -- then the process's sites are collected and placed,
 * all while it is stopped, so that no probe is missed:
 *
 *	exec	PTRACE_EVENT_EXEC, before the new image runs an instruction:
 *		the old image took every breakpoint with it; the process
 *		becomes its own owner with a new image number, and the
 *		probes of the executable are placed (the libraries are not
 *		mapped yet: the dynamic linker's breakpoint catches them)
 *	dlopen	a breakpoint of the engine's own at the dynamic linker's
 *		_dl_debug_state (r_debug.r_brk), which it calls before and
 *		after it changes the list of libraries: at start-up too,
 *		once the libraries a program needs are mapped, before any
 *		of their code runs.  Sites in files no longer mapped there
 *		(dlclose) are forgotten, never written back.
 *
 * The breakpoint rather than reading /proc/<pid>/maps at some cheap moment
 * (a system call, a timer): it costs nothing until libraries change, and
 * it stops the process before a new library's code (its constructors)
 * runs.  A static program has no dynamic linker and no such breakpoint.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/dt_impl.h"
#include "common/dt_work.h"
#include "common/probe/dt_probe.h"
#include "os/linux/ptrace/dt_ptrace_impl.h"

/* An executable mapping of a file. */
typedef struct dt_pt_map {
	uint64_t mp_lo, mp_hi;
	uint64_t mp_base;	/* the address of the file's offset 0 */
	char *mp_path;
} dt_pt_map_t;

typedef struct dt_pt_maps {
	dt_pt_map_t *ms_maps;
	size_t ms_n;
} dt_pt_maps_t;

static void
dt_pt_maps_free(dt_pt_maps_t *ms)
{
	for (size_t i = 0; i < ms->ms_n; i++)
		free(ms->ms_maps[i].mp_path);
	free(ms->ms_maps);
	ms->ms_maps = NULL;
	ms->ms_n = 0;
}

/* The executable file mappings of pid: 0, or -1 with errno. */
static int
dt_pt_maps_read(int pid, dt_pt_maps_t *ms)
{
	char path[64], line[4096 + 128];
	FILE *fp;

	ms->ms_maps = NULL;
	ms->ms_n = 0;
	(void) snprintf(path, sizeof (path), "/proc/%d/maps", pid);
	if ((fp = fopen(path, "re")) == NULL)
		return -1;
	while (fgets(line, sizeof (line), fp) != NULL) {
		uint64_t lo, hi, pgoff;
		char perms[8];
		dt_pt_map_t *m;
		int k = 0;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64
		    " %*s %*s %n", &lo, &hi, perms, &pgoff, &k) < 4 || k == 0)
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (perms[2] != 'x' || line[k] != '/')
			continue;
		if ((m = realloc(ms->ms_maps, (ms->ms_n + 1) *
		    sizeof (*m))) == NULL)
			goto nomem;
		ms->ms_maps = m;
		m += ms->ms_n;
		if ((m->mp_path = strdup(line + k)) == NULL)
			goto nomem;
		ms->ms_n++;
		m->mp_lo = lo;
		m->mp_hi = hi;
		m->mp_base = lo - pgoff;
	}
	(void) fclose(fp);
	return 0;
nomem:
	(void) fclose(fp);
	dt_pt_maps_free(ms);
	errno = ENOMEM;
	return -1;
}

/*
 * Where path's offset 0 is: its first executable mapping's, as the pid
 * and USDT providers reckon it (dt_pid_read_maps()), or 0.
 */
static uint64_t
dt_pt_maps_base(const dt_pt_maps_t *ms, const char *path)
{
	for (size_t i = 0; i < ms->ms_n; i++) {
		if (strcmp(ms->ms_maps[i].mp_path, path) == 0)
			return ms->ms_maps[i].mp_base;
	}
	return 0;
}

/* Is addr in an executable mapping of path? */
static bool
dt_pt_maps_has(const dt_pt_maps_t *ms, const char *path, uint64_t addr)
{
	for (size_t i = 0; i < ms->ms_n; i++) {
		const dt_pt_map_t *m = &ms->ms_maps[i];

		if (addr >= m->mp_lo && addr < m->mp_hi &&
		    strcmp(m->mp_path, path) == 0)
			return true;
	}
	return false;
}

dt_pt_site_t *
dt_pt_site(dt_pt_proc_t *pp, uint64_t addr)
{
	size_t lo = 0, hi;

	pp = pp->pp_mm;
	hi = pp->pp_nsites;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (pp->pp_sites[mid].ps_addr == addr)
			return &pp->pp_sites[mid];
		if (pp->pp_sites[mid].ps_addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int
dt_pt_pidp_add(dt_ptrace_t *pt, const dt_probe_t *prp,
    const dt_pid_probe_t *pi)
{
	dt_pt_pidp_t *p = realloc(pt->pt_pidps, (pt->pt_npidps + 1) *
	    sizeof (*p));

	if (p == NULL)
		return -1;
	pt->pt_pidps = p;
	p[pt->pt_npidps++] = (dt_pt_pidp_t) { prp, pi, pi->pi_pid,
		pt->pt_image };
	return 0;
}

/* A firing to place: at address ca_addr, in file ca_path. */
typedef struct dt_pt_cand {
	uint64_t ca_addr;
	const char *ca_path;
	uint64_t ca_base;	/* where the process maps its offset 0 */
	bool ca_rtld;
	dt_pt_fire_t ca_fire;
} dt_pt_cand_t;

typedef struct dt_pt_cands {
	dt_pt_cand_t *cs_v;
	size_t cs_n, cs_cap;
} dt_pt_cands_t;

static int
dt_pt_cand_add(dt_pt_cands_t *cs, const dt_pt_cand_t *c)
{
	if (cs->cs_n == cs->cs_cap) {
		size_t cap = cs->cs_cap ? cs->cs_cap * 2 : 64;
		dt_pt_cand_t *v = realloc(cs->cs_v, cap * sizeof (*v));

		if (v == NULL)
			return -1;
		cs->cs_v = v;
		cs->cs_cap = cap;
	}
	cs->cs_v[cs->cs_n++] = *c;
	return 0;
}

static int
dt_pt_cand_cmp(const void *a, const void *b)
{
	uint64_t x = ((const dt_pt_cand_t *) a)->ca_addr;
	uint64_t y = ((const dt_pt_cand_t *) b)->ca_addr;

	return x < y ? -1 : x > y;
}

/* Add a firing to site s, once per probe. */
static int
dt_pt_fire_add(dt_pt_site_t *s, const dt_pt_cand_t *c)
{
	dt_pt_fire_t *f;

	if (c->ca_rtld) {
		s->ps_rtld = true;
		return 0;
	}
	if (s->ps_path == NULL) {
		s->ps_path = c->ca_path;
		s->ps_base = c->ca_base;
	}
	for (uint32_t i = 0; i < s->ps_nfires; i++) {
		if (s->ps_fires[i].pf_id == c->ca_fire.pf_id)
			return 0;
	}
	if ((f = realloc(s->ps_fires, (s->ps_nfires + 1) * sizeof (*f))) ==
	    NULL)
		return -1;
	s->ps_fires = f;
	f[s->ps_nfires++] = c->ca_fire;
	return 0;
}

/*
 * Merge the candidates (sorted by address) into pp's sites, which stay
 * sorted: a site already there keeps its state and gains the firings.
 */
static int
dt_pt_sites_merge(dt_pt_proc_t *pp, const dt_pt_cands_t *cs)
{
	dt_pt_site_t *out, *old = pp->pp_sites;
	size_t n = 0, i = 0;

	if (cs->cs_n == 0)
		return 0;
	if ((out = calloc(pp->pp_nsites + cs->cs_n, sizeof (*out))) == NULL)
		return -1;
	for (size_t j = 0; j < cs->cs_n; j++) {
		const dt_pt_cand_t *c = &cs->cs_v[j];

		while (i < pp->pp_nsites && old[i].ps_addr < c->ca_addr)
			out[n++] = old[i++];
		if (n == 0 || out[n - 1].ps_addr != c->ca_addr) {
			if (i < pp->pp_nsites && old[i].ps_addr == c->ca_addr)
				out[n++] = old[i++];
			else
				out[n++].ps_addr = c->ca_addr;
		}
		if (dt_pt_fire_add(&out[n - 1], c) != 0) {
			/* Keep what is placed; free only what is new. */
			while (i < pp->pp_nsites)
				out[n++] = old[i++];
			free(old);
			pp->pp_sites = out;
			pp->pp_nsites = n;
			return -1;
		}
	}
	while (i < pp->pp_nsites)
		out[n++] = old[i++];
	free(old);
	pp->pp_sites = out;
	pp->pp_nsites = n;
	return 0;
}

/* A USDT semaphore of pp to raise: its file offset in path. */
static int
dt_pt_sema_add(dt_pt_proc_t *pp, const char *path, uint64_t off)
{
	dt_pt_sema_t *v;

	for (size_t i = 0; i < pp->pp_nsemas; i++) {
		if (pp->pp_semas[i].sm_off == off &&
		    strcmp(pp->pp_semas[i].sm_path, path) == 0)
			return 0;
	}
	if ((v = realloc(pp->pp_semas, (pp->pp_nsemas + 1) * sizeof (*v))) ==
	    NULL)
		return -1;
	pp->pp_semas = v;
	v[pp->pp_nsemas++] = (dt_pt_sema_t) { path, off, 0 };
	return 0;
}

/*
 * Where file offset off of path is mapped in pid (/proc/<pid>/maps: the
 * mapping of that file whose file range holds it), or 0.  A semaphore
 * lives in a data segment, mapped at another bias than the text.
 */
static uint64_t
dt_pt_file_addr(int pid, const char *path, uint64_t off)
{
	char mpath[64], line[4096 + 128];
	uint64_t addr = 0;
	FILE *fp;

	(void) snprintf(mpath, sizeof (mpath), "/proc/%d/maps", pid);
	if ((fp = fopen(mpath, "re")) == NULL)
		return 0;
	while (addr == 0 && fgets(line, sizeof (line), fp) != NULL) {
		unsigned long long lo, hi, pgoff;
		int n = 0;

		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %n", &lo, &hi,
		    &pgoff, &n) != 3 || n == 0)
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (strcmp(line + n, path) == 0 && off >= pgoff &&
		    off - pgoff < hi - lo)
			addr = lo + (off - pgoff);
	}
	(void) fclose(fp);
	return addr;
}

/* Add delta to the 16-bit semaphore at addr, in the memory of memfd. */
static void
dt_pt_sema_bump(int memfd, uint64_t addr, int delta)
{
	uint16_t v;

	if (pread(memfd, &v, sizeof (v), (off_t) addr) != sizeof (v))
		return;
	v = (uint16_t) (v + delta);
	(void) pwrite(memfd, &v, sizeof (v), (off_t) addr);
}

/*
 * Raise every semaphore of pp not raised yet, so that the program's
 * FOO_ENABLED() tests say the probe is traced.
 */
static void
dt_pt_semas_raise(dt_pt_proc_t *pp)
{
	for (size_t i = 0; i < pp->pp_nsemas; i++) {
		dt_pt_sema_t *sm = &pp->pp_semas[i];

		if (sm->sm_addr != 0 || (sm->sm_addr = dt_pt_file_addr(
		    pp->pp_pid, sm->sm_path, sm->sm_off)) == 0)
			continue;
		dt_pt_sema_bump(pp->pp_memfd, sm->sm_addr, 1);
	}
}

void
dt_pt_disarm(const dt_pt_proc_t *pp, int memfd)
{
	for (size_t i = 0; i < pp->pp_nsites; i++) {
		const dt_pt_site_t *s = &pp->pp_sites[i];

		if (s->ps_armed)
			(void) pwrite(memfd, s->ps_insn, DT_PT_BRKLEN,
			    (off_t) s->ps_addr);
		if (s->ps_fast)
			(void) pwrite(memfd, s->ps_insn, DT_PT_JMPLEN,
			    (off_t) s->ps_addr);
	}
	for (size_t i = 0; i < pp->pp_nsemas; i++) {
		if (pp->pp_semas[i].sm_addr != 0)
			dt_pt_sema_bump(memfd, pp->pp_semas[i].sm_addr, -1);
	}
}

/*
 * Files unmapped (dlclose): their sites are forgotten, not written back
 * -- the address may hold another file's code by now -- and their
 * semaphores are no longer raised.  Mapped again, they are collected and
 * placed again.
 */
static void
dt_pt_sites_unmapped(dt_pt_proc_t *pp, const dt_pt_maps_t *ms)
{
	size_t n = 0;

	for (size_t i = 0; i < pp->pp_nsites; i++) {
		dt_pt_site_t *s = &pp->pp_sites[i];

		if (s->ps_path != NULL &&
		    !dt_pt_maps_has(ms, s->ps_path, s->ps_addr)) {
			free(s->ps_fires);
			continue;
		}
		pp->pp_sites[n++] = *s;
	}
	pp->pp_nsites = n;
	for (size_t i = 0; i < pp->pp_nsemas; i++) {
		if (dt_pt_maps_base(ms, pp->pp_semas[i].sm_path) == 0)
			pp->pp_semas[i].sm_addr = 0;
	}
}

/*
 * The sites of pp: every site of the enabled probes of its owner and
 * image, where pp maps their files now, and the dynamic linker's
 * breakpoint when pp is followed.
 */
static int
dt_pt_collect(dtrace_hdl_t *dtp, dt_ptrace_t *pt, dt_pt_proc_t *pp,
    const dt_pt_maps_t *ms)
{
	dt_pt_cands_t cs = { 0 };
	int rc = 0;

	for (size_t e = 0; e < pt->pt_npidps && rc == 0; e++) {
		const dt_pt_pidp_t *pd = &pt->pt_pidps[e];
		const dt_pid_probe_t *pi = pd->pd_pi;
		uint64_t base, obase;

		if (pd->pd_owner != pp->pp_owner ||
		    pd->pd_image != pp->pp_image ||
		    (base = dt_pt_maps_base(ms, pi->pi_path)) == 0)
			continue;
		/* Where the provider saw the file: a USDT probe's pi_func. */
		obase = pi->pi_kind == DT_PID_USDT ? pi->pi_func : pi->pi_base;
		for (size_t k = 0; k < pi->pi_nsites && rc == 0; k++) {
			dt_pt_cand_t c = {
				.ca_addr = base + pi->pi_sites[k],
				.ca_path = pi->pi_path,
				.ca_base = base,
				.ca_fire = { pd->pd_probe->pr_id, pi->pi_kind,
				    pi->pi_func - obase + base,
				    pi->pi_args != NULL ? &pi->pi_args[k] :
				    NULL, pi->pi_kind == DT_PID_ENTRY ||
				    pi->pi_kind == DT_PID_RETURN ||
				    (pi->pi_kind == DT_PID_OFFSET &&
				    pi->pi_atcall) },
			};

			rc = dt_pt_cand_add(&cs, &c);
			if (rc == 0 && pi->pi_semas != NULL &&
			    pi->pi_semas[k] != 0)
				rc = dt_pt_sema_add(pp, pi->pi_path,
				    pi->pi_semas[k]);
		}
	}
	if (rc == 0 && pp->pp_follow && !pp->pp_rtld) {
		char path[4096];
		uint64_t off, base;

		/* Once per image; a static program has none. */
		pp->pp_rtld = true;
		if (dt_pid_rtld_brk(pp->pp_pid, path, sizeof (path), &off) ==
		    0 && (base = dt_pt_maps_base(ms, path)) != 0) {
			dt_pt_cand_t c = { .ca_addr = base + off,
				.ca_rtld = true };

			rc = dt_pt_cand_add(&cs, &c);
		}
	}
	if (rc == 0) {
		if (cs.cs_n > 1)
			qsort(cs.cs_v, cs.cs_n, sizeof (*cs.cs_v),
			    dt_pt_cand_cmp);
		rc = dt_pt_sites_merge(pp, &cs);
	}
	free(cs.cs_v);
	return rc == 0 ? 0 : dt_set_errno(dtp, EDT_NOMEM);
}

/* Map len bytes, readable, writable and executable, in pp: 0 on failure. */
static uint64_t
dt_pt_inject_mmap(dt_pt_proc_t *pp, dt_pt_thread_t *t, size_t len)
{
	uint64_t a[6] = { 0, len, PROT_READ | PROT_WRITE | PROT_EXEC,
		MAP_PRIVATE | MAP_ANONYMOUS, (uint64_t) -1, 0 };
	int64_t ret = dt_pt_inject_syscall(pp, t, SYS_mmap, a);

	return ret > 0 ? (uint64_t) ret : 0;
}

/* Site s cannot be placed: why, for pp, as the handle's error. */
static int
dt_pt_site_bad(dtrace_hdl_t *dtp, const dt_pt_proc_t *pp, dt_pt_site_t *s,
    const char *why)
{
	s->ps_bad = true;
	return dt_set_errdetail(dtp, EDT_PROC, "pid %d: the instruction at "
	    "0x%" PRIx64 " %s", pp->pp_pid, s->ps_addr, why);
}

/*
 * Read and decode the instruction of site s.  Bytes of other sites placed
 * within its length are their original bytes, not our breakpoints.
 */
static int
dt_pt_decode(dt_pt_proc_t *pp, dt_pt_site_t *s)
{
	/* Short near the end of the text: decoding says if it is enough. */
	ssize_t n = pread(pp->pp_memfd, s->ps_insn, DT_ISA_MAX_INSN_LEN,
	    (off_t) s->ps_addr);

	if (n <= 0)
		return -1;
	memset(s->ps_insn + n, 0, DT_ISA_MAX_INSN_LEN - (size_t) n);
	for (const dt_pt_site_t *o = s + 1; o < pp->pp_sites +
	    pp->pp_nsites && o->ps_addr < s->ps_addr + DT_ISA_MAX_INSN_LEN;
	    o++) {
		size_t at = o->ps_addr - s->ps_addr, k = DT_PT_BRKLEN;

		if (k > DT_ISA_MAX_INSN_LEN - at)
			k = DT_ISA_MAX_INSN_LEN - at;
		if (o->ps_armed)
			memcpy(s->ps_insn + at, o->ps_insn, k);
	}
	if (dt_isa_ptrace_decode(s->ps_insn, (size_t) n, s->ps_addr,
	    &s->ps_in, &s->ps_strategy) != 0)
		return -1;
	s->ps_decoded = true;
	return 0;
}

/* Is site s to be placed now (decoded, placeable, not placed)? */
static bool
dt_pt_to_place(const dt_pt_site_t *s)
{
	return s->ps_decoded && !s->ps_armed && !s->ps_bad && !s->ps_fast;
}

int
dt_pt_place(dtrace_hdl_t *dtp, dt_ptrace_t *pt, dt_pt_proc_t *pp,
    dt_pt_thread_t *t, bool late)
{
	size_t nool = 0, nplace = 0, sz;
	uint8_t buf[DT_PT_SLOT];
	char why_buf[256];
	dt_pt_maps_t ms;
	dt_isa_memops_t mem;
	uint64_t area = 0;
	int rc = 0;

	if (pp->pp_mm != pp)
		return 0;	/* a vfork child: its parent's sites */
	dt_pt_memops(pp, &mem);
	/* What a tracer killed before us left, first: its text is read. */
	if (pp->pp_trap == 0)
		dt_pt_trap_mend(pp);
	/* Sites of files gone are forgotten: their counts first. */
	dt_pt_fast_collect(dtp, pp, false);
	if (dt_pt_maps_read(pp->pp_pid, &ms) != 0)
		return errno == ENOMEM ? dt_set_errno(dtp, EDT_NOMEM) : 0;
	dt_pt_sites_unmapped(pp, &ms);
	rc = dt_pt_collect(dtp, pt, pp, &ms);
	dt_pt_maps_free(&ms);
	if (rc != 0)
		return -1;
	for (size_t i = 0; i < pp->pp_nsites; i++) {
		dt_pt_site_t *s = &pp->pp_sites[i];
		const char *why = NULL;

		if (s->ps_armed || s->ps_bad || s->ps_fast)
			continue;
		if (dt_pt_fast_covers(pp, s))
			why = "is displaced by a counting site's jump";
		else if (!s->ps_decoded && dt_pt_decode(pp, s) != 0)
			why = "cannot be decoded";
		else if (s->ps_strategy == DT_ISA_STRAT_REFUSE)
			why = "cannot be probed";
		/*
		 * The dynamic linker's breakpoint is the engine's own: where
		 * it cannot go (another tracer's breakpoint, a uprobe, is
		 * there already), libraries loaded later go unseen.
		 */
		if (why != NULL && s->ps_nfires == 0) {
			s->ps_bad = true;
			continue;
		}
		if (why != NULL)
			rc = dt_pt_site_bad(dtp, pp, s, why);
		if (rc != 0 && !late)
			return -1;
		if (!dt_pt_to_place(s))
			continue;
		nplace++;
		nool += s->ps_strategy == DT_ISA_STRAT_OOL;
	}
	/*
	 * The handler that mends these patches should we die.  Without it
	 * a process that outlives us would die at the first patch reached,
	 * so none is placed: the process is refused, in one line, rather
	 * than traced unprotected.  Our -c child is killed with us, and
	 * only where no call can be injected into it (its own seccomp
	 * filter) is it refused too.
	 */
	if (nplace > 0 && pp->pp_trap == 0 &&
	    dt_pt_trap_install(pp, t, why_buf, sizeof (why_buf)) != 0 &&
	    (!pp->pp_created || pp->pp_sandbox)) {
		for (size_t i = 0; i < pp->pp_nsites; i++) {
			if (dt_pt_to_place(&pp->pp_sites[i]))
				pp->pp_sites[i].ps_bad = true;
		}
		return dt_set_errdetail(dtp, EDT_PROC, "pid %d: not traced: "
		    "%s (as root, the bpf engine traces it without ptrace)",
		    pp->pp_pid, why_buf);
	}
	if (nplace > 0) {
		/* Sites that only count need no breakpoint: patched. */
		dt_pt_fast_place(dtp, pt, pp, t);
		nplace = nool = 0;
		for (size_t i = 0; i < pp->pp_nsites; i++) {
			if (!dt_pt_to_place(&pp->pp_sites[i]))
				continue;
			nplace++;
			nool += pp->pp_sites[i].ps_strategy == DT_ISA_STRAT_OOL;
		}
	}
	if (nplace > 0) {
		/* The per-thread slots come with the first area. */
		sz = (nool + (pp->pp_tslots == 0 ? DT_PT_NTSLOTS : 0)) *
		    DT_PT_SLOT;
		sz = (sz + 4095) & ~(size_t) 4095;
		if (sz > 0 && (area = dt_pt_inject_mmap(pp, t, sz)) == 0)
			return dt_set_errdetail(dtp, EDT_PROC, "pid %d: failed "
			    "to map a scratch area for probes", pp->pp_pid);
		if (pp->pp_tslots == 0) {
			pp->pp_tslots = area;
			area += DT_PT_NTSLOTS * DT_PT_SLOT;
		}
	}

	for (size_t i = 0; i < pp->pp_nsites && nplace > 0; i++) {
		dt_pt_site_t *s = &pp->pp_sites[i];
		uint64_t at = area;
		size_t len;
		int priv;

		if (!dt_pt_to_place(s) || s->ps_strategy != DT_ISA_STRAT_OOL)
			continue;
		area += DT_PT_SLOT;
		if (dt_isa_ptrace_ool(&s->ps_in, s->ps_insn, at, &mem, buf,
		    sizeof (buf), &len, &priv) != 0) {
			rc = dt_pt_site_bad(dtp, pp, s,
			    "cannot run out of line");
			if (!late)
				return -1;
			continue;
		}
		/* A borrowed register's slot must be private to a thread. */
		if (priv)
			continue;
		if (dt_pt_text_write(pp, at, buf, len) != 0)
			return dt_set_errdetail(dtp, EDT_PROC, "pid %d: failed "
			    "to write the scratch area", pp->pp_pid);
		s->ps_ool = at;
	}
	for (size_t i = 0; i < pp->pp_nsites && nplace > 0; i++) {
		dt_pt_site_t *s = &pp->pp_sites[i];
		if (!dt_pt_to_place(s))
			continue;
		(void) dt_pt_trap_note(pp, t, s->ps_addr, s->ps_insn,
		    DT_PT_BRKLEN);
		if (dt_pt_text_write(pp, s->ps_addr, dt_isa_ptrace.ip_brk,
		    DT_PT_BRKLEN) != 0)
			return dt_set_errdetail(dtp, EDT_PROC, "pid %d: failed "
			    "to write a breakpoint at 0x%" PRIx64, pp->pp_pid,
			    s->ps_addr);
		s->ps_armed = true;
	}
	dt_pt_semas_raise(pp);
	return rc;
}

int
dt_pt_sites_copy(dt_pt_proc_t *pp, const dt_pt_proc_t *parent)
{
	if (parent->pp_nsites > 0 && (pp->pp_sites = calloc(parent->pp_nsites,
	    sizeof (*pp->pp_sites))) == NULL)
		return -1;
	for (size_t i = 0; i < parent->pp_nsites; i++) {
		dt_pt_site_t *s = &pp->pp_sites[i];

		*s = parent->pp_sites[i];
		s->ps_fires = NULL;
		if (s->ps_nfires > 0 && (s->ps_fires = malloc(s->ps_nfires *
		    sizeof (*s->ps_fires))) == NULL) {
			s->ps_nfires = 0;
			return -1;
		}
		if (s->ps_nfires > 0)
			memcpy(s->ps_fires, parent->pp_sites[i].ps_fires,
			    s->ps_nfires * sizeof (*s->ps_fires));
		pp->pp_nsites++;
	}
	/* Raised in the memory it inherited: lowered at the end. */
	if (parent->pp_nsemas > 0 && (pp->pp_semas = malloc(
	    parent->pp_nsemas * sizeof (*pp->pp_semas))) == NULL)
		return -1;
	if (parent->pp_nsemas > 0)
		memcpy(pp->pp_semas, parent->pp_semas, parent->pp_nsemas *
		    sizeof (*pp->pp_semas));
	pp->pp_nsemas = parent->pp_nsemas;
	pp->pp_tslots = parent->pp_tslots;
	pp->pp_rtld = parent->pp_rtld;
	/* Its handler and table too, which fork copied. */
	pp->pp_trap = parent->pp_trap;
	pp->pp_traplast = parent->pp_traplast;
	pp->pp_trapn = parent->pp_trapn;
	return 0;
}

void
dt_pt_sites_free(dt_pt_proc_t *pp)
{
	for (size_t i = 0; i < pp->pp_nsites; i++)
		free(pp->pp_sites[i].ps_fires);
	free(pp->pp_sites);
	pp->pp_sites = NULL;
	pp->pp_nsites = 0;
	free(pp->pp_semas);
	pp->pp_semas = NULL;
	pp->pp_nsemas = 0;
}

/*
 * Match the descriptions again for process pp, owner's probes for pp's
 * image, and place what they match now.  One line when it fails.
 */
static void
dt_pt_rematch(dtrace_hdl_t *dtp, dt_ptrace_t *pt, dt_pt_proc_t *pp,
    dt_pt_thread_t *t, bool exec)
{
	int owner = pp->pp_owner;

	pt->pt_image = pp->pp_image;
	if (dt_prov_pid_refresh(dtp, owner, pp->pp_pid, exec) != 0 ||
	    dt_prov_usdt_refresh(dtp, owner, pp->pp_pid, exec) != 0 ||
	    dt_work_rematch(dtp, owner) != 0 ||
	    dt_pt_place(dtp, pt, pp, t, true) != 0)
		(void) fprintf(stderr, "dtrace: pid %d: probes not placed "
		    "after %s: %s\n", pp->pp_pid, exec ? "exec" : "dlopen",
		    dtrace_errmsg(dtp, dtrace_errno(dtp)));
	pt->pt_image = 0;
	/* Unwind rows are read again at the next stack. */
	dt_cfi_free(&pp->pp_cfi);
	pp->pp_cfi_read = false;
}

void
dt_pt_exec(dtrace_hdl_t *dtp, dt_ptrace_t *pt, dt_pt_thread_t *t)
{
	dt_pt_proc_t *pp = t->pt_proc;

	/* Nothing of ours is in the new image: a memory of its own. */
	for (size_t i = 0; i < pt->pt_nthreads; i++) {
		dt_pt_thread_t *o = &pt->pt_threads[i];

		if (o->pt_proc == pp && o->pt_slot >= 0)
			pp->pp_mm->pp_slotused[o->pt_slot] = 0;
		if (o->pt_proc == pp)
			o->pt_slot = -1;
	}
	if (pp->pp_mm == pp)
		dt_pt_sites_free(pp);
	pp->pp_mm = pp;
	if (pp->pp_memfd >= 0)
		(void) close(pp->pp_memfd);
	pp->pp_memfd = dt_pt_memfd(pp->pp_pid);
	pp->pp_tslots = 0;
	/* exec reset the handler, and the area went with the image. */
	pp->pp_trap = pp->pp_traplast = pp->pp_trapn = 0;
	pp->pp_rtld = false;
	pp->pp_owner = pp->pp_pid;
	pp->pp_image = ++pt->pt_nimages;
	dt_pt_proc_facts(pp);
	if (pp->pp_follow && pp->pp_memfd >= 0)
		dt_pt_rematch(dtp, pt, pp, t, true);
}

void
dt_pt_dlopen(dtrace_hdl_t *dtp, dt_ptrace_t *pt, dt_pt_thread_t *t)
{
	dt_pt_proc_t *pp = t->pt_proc;

	if (pp->pp_mm == pp && pp->pp_follow)
		dt_pt_rematch(dtp, pt, pp, t, false);
}
