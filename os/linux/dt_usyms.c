/* SPDX-License-Identifier: MIT */
/*
 * dt_usyms.c: symbolising user addresses from /proc/<pid>/maps and the
 * symbol tables of the mapped files.
 *
 * See dt_usyms.h.  An address a in a mapping [lo, hi) of file F at page
 * offset pgoff is at file offset a - lo + pgoff; the loadable segment of F
 * holding that offset turns it into F's link-time address, which is what
 * F's symbol table (dt_elfsym.c) is sorted by.  The function holding it is
 * the last symbol starting at or below it whose size covers it; of several
 * names at one address, the one dt_elfsym.c sorts first (global before
 * weak before local).
 *
 * Every mapping of a process is kept, anonymous ones too, so that an
 * address in a JIT's or the stack's memory does not send us back to
 * /proc for a fresh snapshot: only an address outside all of them does
 * (a library dlopen()ed since the snapshot).  Files are shared between
 * processes by path, and their symbols are read once.
 *
 * An address in no file (a JIT's code: anonymous memory) is looked up in
 * the process's /tmp/perf-<pid>.map when it has one (dt_perfmap.c), read
 * on the first such address and again, for what was appended, when
 * DT_USYMS_REREAD_NS has passed since it was last looked at; such a
 * function's module is the process's executable (node, java), as the
 * runtime is what made it.  The map is read only when it is owned by
 * the process's user (its effective uid, read with its maps so that it
 * is known after the process has gone) or root: anyone may make a file
 * of that name in /tmp.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/dt_os.h"
#include "os/linux/dt_elfsym.h"
#include "os/linux/dt_perfmap.h"
#include "os/linux/dt_usyms.h"

/* A mapped file, shared by every process mapping it. */
typedef struct dt_ufile {
	struct dt_ufile *uf_next;
	char *uf_path;
	const char *uf_name;	/* basename, in uf_path */
	bool uf_loaded;		/* uf_syms read (or failed to be) */
	dt_elfsyms_t uf_syms;
	bool uf_idread;		/* uf_buildid read (or failed to be) */
	char uf_buildid[DT_OS_BUILDID_MAX];
} dt_ufile_t;

typedef struct dt_umap {
	uint64_t um_lo, um_hi;
	uint64_t um_pgoff;
	dt_ufile_t *um_file;	/* NULL: anonymous, or a pseudo-file */
} dt_umap_t;

typedef struct dt_uproc {
	struct dt_uproc *up_next;
	int up_pid;
	bool up_fixed;		/* maps given by dt_usyms_setmaps() */
	bool up_gone;		/* its maps can no longer be read */
	uint64_t up_readat;	/* when they were last read (ns) */
	dt_umap_t *up_maps;	/* sorted by address */
	size_t up_nmaps;
	char *up_exe;		/* basename of its executable, once known */
	uid_t up_uid;		/* its effective uid, (uid_t) -1 unknown */
	char *up_perfpath;	/* its JIT's perf map */
	uint64_t up_perfat;	/* when that was last looked at (ns) */
	dt_perfmap_t up_perf;
} dt_uproc_t;

struct dt_usyms {
	dt_ufile_t *us_files;
	dt_uproc_t *us_procs;
	const char *us_warning;	/* a perf map's, not yet handed out */
};

dt_usyms_t *
dt_usyms_create(void)
{
	return calloc(1, sizeof (dt_usyms_t));
}

void
dt_usyms_destroy(dt_usyms_t *us)
{
	if (us == NULL)
		return;
	while (us->us_procs != NULL) {
		dt_uproc_t *up = us->us_procs;

		us->us_procs = up->up_next;
		free(up->up_maps);
		free(up->up_exe);
		free(up->up_perfpath);
		dt_perfmap_free(&up->up_perf);
		free(up);
	}
	while (us->us_files != NULL) {
		dt_ufile_t *uf = us->us_files;

		us->us_files = uf->uf_next;
		dt_elfsym_free(&uf->uf_syms);
		free(uf->uf_path);
		free(uf);
	}
	free(us);
}

static dt_ufile_t *
dt_usyms_file(dt_usyms_t *us, const char *path)
{
	dt_ufile_t *uf;
	char *slash;

	for (uf = us->us_files; uf != NULL; uf = uf->uf_next) {
		if (strcmp(uf->uf_path, path) == 0)
			return uf;
	}
	if ((uf = calloc(1, sizeof (*uf))) == NULL ||
	    (uf->uf_path = strdup(path)) == NULL) {
		free(uf);
		return NULL;
	}
	slash = strrchr(uf->uf_path, '/');
	uf->uf_name = slash != NULL ? slash + 1 : uf->uf_path;
	uf->uf_next = us->us_files;
	us->us_files = uf;
	return uf;
}

static dt_uproc_t *
dt_usyms_proc(dt_usyms_t *us, int pid, bool create)
{
	dt_uproc_t *up;

	for (up = us->us_procs; up != NULL; up = up->up_next) {
		if (up->up_pid == pid)
			return up;
	}
	if (!create || (up = calloc(1, sizeof (*up))) == NULL)
		return NULL;
	up->up_pid = pid;
	up->up_uid = (uid_t) -1;
	up->up_next = us->us_procs;
	us->us_procs = up;
	return up;
}

static int
dt_umap_cmp(const void *a, const void *b)
{
	const dt_umap_t *l = a, *r = b;

	return l->um_lo < r->um_lo ? -1 : l->um_lo > r->um_lo;
}

/*
 * One line of a maps file: "lo-hi perms pgoff dev inode [path]".  Files
 * replaced or removed since they were mapped carry " (deleted)"; their
 * symbols are read from the path all the same, while it exists.
 */
static int
dt_usyms_line(dt_usyms_t *us, char *line, dt_umap_t *um)
{
	static const char deleted[] = " (deleted)";
	size_t n, dl = sizeof (deleted) - 1;
	char *path;
	int k = 0;

	if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64
	    " %*s %*s %n", &um->um_lo, &um->um_hi, &um->um_pgoff, &k) < 3 ||
	    k == 0 || um->um_hi <= um->um_lo)
		return 1;
	path = line + k;
	path[strcspn(path, "\n")] = '\0';
	n = strlen(path);
	if (n > dl && strcmp(path + n - dl, deleted) == 0)
		path[n - dl] = '\0';
	um->um_file = NULL;
	if (path[0] == '/' && (um->um_file = dt_usyms_file(us, path)) == NULL)
		return -1;
	return 0;
}

/* Replace up's snapshot by the maps text: 0, or -1 (ENOMEM). */
static int
dt_usyms_parse(dt_usyms_t *us, dt_uproc_t *up, const char *text)
{
	dt_umap_t *maps = NULL;
	size_t nmaps = 0, cap = 0;
	char *copy, *line, *save = NULL;

	if ((copy = strdup(text)) == NULL) {
		errno = ENOMEM;
		return -1;
	}
	for (line = strtok_r(copy, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		dt_umap_t um;
		int rc = dt_usyms_line(us, line, &um);

		if (rc > 0)
			continue;
		if (rc == 0 && nmaps == cap) {
			dt_umap_t *v;

			cap = cap ? 2 * cap : 64;
			if ((v = realloc(maps, cap * sizeof (*v))) == NULL)
				rc = -1;
			else
				maps = v;
		}
		if (rc < 0) {
			free(maps);
			free(copy);
			errno = ENOMEM;
			return -1;
		}
		maps[nmaps++] = um;
	}
	free(copy);
	if (nmaps > 1)
		qsort(maps, nmaps, sizeof (*maps), dt_umap_cmp);
	free(up->up_maps);
	up->up_maps = maps;
	up->up_nmaps = nmaps;
	return 0;
}

int
dt_usyms_setmaps(dt_usyms_t *us, int pid, const char *text)
{
	dt_uproc_t *up = dt_usyms_proc(us, pid, true);

	if (up == NULL) {
		errno = ENOMEM;
		return -1;
	}
	up->up_fixed = true;
	return dt_usyms_parse(us, up, text);
}

/*
 * The basename of pid's executable, the module of its JIT's functions:
 * read with its maps, so that it is known after the process has gone.
 */
static void
dt_usyms_exe(dt_uproc_t *up)
{
	char path[64], exe[PATH_MAX], *slash, *name;
	ssize_t n;

	(void) snprintf(path, sizeof (path), "/proc/%d/exe", up->up_pid);
	if ((n = readlink(path, exe, sizeof (exe) - 1)) <= 0)
		return;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if ((name = strdup(slash != NULL ? slash + 1 : exe)) == NULL)
		return;
	free(up->up_exe);
	up->up_exe = name;
}

/*
 * The effective uid of pid, the owner its perf map must have: read with
 * its maps, so that it is known after the process has gone.
 */
static void
dt_usyms_uid(dt_uproc_t *up)
{
	char path[64], line[256];
	unsigned real, eff;
	FILE *fp;

	(void) snprintf(path, sizeof (path), "/proc/%d/status", up->up_pid);
	if ((fp = fopen(path, "re")) == NULL)
		return;
	while (fgets(line, sizeof (line), fp) != NULL) {
		if (sscanf(line, "Uid: %u %u", &real, &eff) == 2) {
			up->up_uid = (uid_t) eff;
			break;
		}
	}
	(void) fclose(fp);
}

/* A fresh snapshot of pid's maps: 0, or -1 (its old one is kept). */
static int
dt_usyms_read(dt_usyms_t *us, dt_uproc_t *up)
{
	char path[64], *text = NULL;
	size_t len = 0;
	FILE *fp, *mem;
	int c, rc;

	up->up_readat = dt_os_timestamp();
	dt_usyms_exe(up);
	dt_usyms_uid(up);
	(void) snprintf(path, sizeof (path), "/proc/%d/maps", up->up_pid);
	if ((fp = fopen(path, "re")) == NULL) {
		up->up_gone = true;
		return -1;
	}
	if ((mem = open_memstream(&text, &len)) == NULL) {
		(void) fclose(fp);
		return -1;
	}
	while ((c = getc(fp)) != EOF)
		(void) putc(c, mem);
	(void) fclose(fp);
	if (fclose(mem) != 0) {
		free(text);
		return -1;
	}
	/* A process that has exited leaves an empty maps file behind. */
	if (len == 0) {
		up->up_gone = true;
		free(text);
		return -1;
	}
	rc = dt_usyms_parse(us, up, text);
	free(text);
	return rc;
}

int
dt_usyms_hold(dt_usyms_t *us, int pid)
{
	dt_uproc_t *up = dt_usyms_proc(us, pid, false);

	if (up != NULL && up->up_maps != NULL)
		return 0;
	if (up == NULL && (up = dt_usyms_proc(us, pid, true)) == NULL)
		return -1;
	return dt_usyms_read(us, up);
}

int
dt_usyms_refresh(dt_usyms_t *us, int pid)
{
	dt_uproc_t *up = dt_usyms_proc(us, pid, true);

	if (up == NULL || up->up_fixed)
		return -1;
	return dt_usyms_read(us, up);
}

static const dt_umap_t *
dt_usyms_find(const dt_uproc_t *up, uint64_t addr)
{
	size_t lo = 0, hi = up->up_nmaps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const dt_umap_t *um = &up->up_maps[mid];

		if (addr < um->um_lo)
			hi = mid;
		else if (addr >= um->um_hi)
			lo = mid + 1;
		else
			return um;
	}
	return NULL;
}

/* The preferred function symbol covering link-time address v, or NULL. */
static const dt_elfsym_t *
dt_usyms_func(const dt_elfsyms_t *ess, uint64_t v)
{
	size_t lo = 0, hi = ess->ess_nsyms;

	/* lo: the first symbol starting above v. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ess->ess_syms[mid].es_addr <= v)
			lo = mid + 1;
		else
			hi = mid;
	}
	/*
	 * Look back for a symbol that covers v (one nested in a bigger one
	 * wins, being the nearer); of those at one address, the first.
	 */
	for (size_t i = lo; i-- > 0;) {
		const dt_elfsym_t *es = &ess->ess_syms[i];

		if (v - es->es_addr >= es->es_size)
			continue;
		while (i > 0 && ess->ess_syms[i - 1].es_addr == es->es_addr)
			es = &ess->ess_syms[--i];
		return es;
	}
	return NULL;
}

/*
 * Whether an address outside every mapping is worth a fresh snapshot: it
 * must look like a user address (a frame-pointer walk through code
 * without frame pointers yields small integers and other junk), and the
 * maps are read at most every DT_USYMS_REREAD_NS, so that a stack full of
 * junk does not read them once per frame.
 */
#define DT_USYMS_REREAD_NS 100000000ULL /* 100 ms */
#define DT_USYMS_USER_MIN  0x1000ULL
#define DT_USYMS_USER_MAX  (1ULL << 57) /* 5-level paging */

static bool
dt_usyms_reread(const dt_uproc_t *up, uint64_t addr)
{
	return addr >= DT_USYMS_USER_MIN && addr < DT_USYMS_USER_MAX &&
	    (up->up_maps == NULL ||
	    dt_os_timestamp() - up->up_readat >= DT_USYMS_REREAD_NS);
}

/*
 * An address in no file: the function of the process's perf map holding
 * it, 0 with *uip filled, or -1.  The map is looked at again (for what
 * the runtime appended) at most every DT_USYMS_REREAD_NS.
 */
static int
dt_usyms_jit(dt_usyms_t *us, dt_uproc_t *up, uint64_t addr,
    dt_usym_info_t *uip)
{
	const char *name, *why;
	uint64_t start, now;

	if (addr < DT_USYMS_USER_MIN || addr >= DT_USYMS_USER_MAX)
		return -1;
	if (up->up_perfpath == NULL) {
		char path[64];

		(void) snprintf(path, sizeof (path), "/tmp/perf-%d.map",
		    up->up_pid);
		if ((up->up_perfpath = strdup(path)) == NULL)
			return -1;
		up->up_perfat = 0;
	}
	now = dt_os_timestamp();
	if (up->up_perfat == 0 || now - up->up_perfat >= DT_USYMS_REREAD_NS) {
		up->up_perfat = now;
		/* Its uid if it lives; never seen alive, only root's map. */
		if (up->up_uid == (uid_t) -1 && !up->up_fixed)
			dt_usyms_uid(up);
		(void) dt_perfmap_update(&up->up_perf, up->up_perfpath,
		    up->up_uid == (uid_t) -1 ? 0 : up->up_uid);
		if ((why = dt_perfmap_warning(&up->up_perf)) != NULL)
			us->us_warning = why;
	}
	if ((name = dt_perfmap_lookup(&up->up_perf, addr, &start)) == NULL)
		return -1;
	memset(uip, 0, sizeof (*uip));
	uip->ui_module = up->up_exe != NULL ? up->up_exe : "jit";
	uip->ui_name = name;
	uip->ui_value = start;
	return 0;
}

int
dt_usyms_setperfmap(dt_usyms_t *us, int pid, const char *path)
{
	dt_uproc_t *up = dt_usyms_proc(us, pid, true);
	char *copy;

	if (up == NULL || (copy = strdup(path)) == NULL) {
		errno = ENOMEM;
		return -1;
	}
	free(up->up_perfpath);
	up->up_perfpath = copy;
	up->up_perfat = 0;
	up->up_uid = geteuid();
	dt_perfmap_free(&up->up_perf);
	return 0;
}

const char *
dt_usyms_warning(dt_usyms_t *us)
{
	const char *why = us->us_warning;

	us->us_warning = NULL;
	return why;
}

int
dt_usyms_lookup(dt_usyms_t *us, int pid, uint64_t addr, dt_usym_info_t *uip)
{
	dt_uproc_t *up = dt_usyms_proc(us, pid, true);
	const dt_umap_t *um;
	const dt_elfsyms_t *ess;
	const dt_elfsym_t *es;
	uint64_t off, v;
	size_t i;

	if (up == NULL)
		return -1;
	if ((um = dt_usyms_find(up, addr)) == NULL && !up->up_fixed &&
	    !up->up_gone && dt_usyms_reread(up, addr) &&
	    dt_usyms_read(us, up) == 0)
		um = dt_usyms_find(up, addr);
	if (um == NULL || um->um_file == NULL)
		return dt_usyms_jit(us, up, addr, uip);
	memset(uip, 0, sizeof (*uip));
	uip->ui_module = um->um_file->uf_name;
	uip->ui_base = um->um_lo - um->um_pgoff;
	if (!um->um_file->uf_loaded) {
		um->um_file->uf_loaded = true;
		(void) dt_elfsym_load(um->um_file->uf_path,
		    &um->um_file->uf_syms);
	}
	ess = &um->um_file->uf_syms;
	off = addr - uip->ui_base;
	for (i = 0; i < ess->ess_nsegs; i++) {
		const dt_elfseg_t *eg = &ess->ess_segs[i];

		if (off >= eg->eg_offset && off - eg->eg_offset < eg->eg_filesz)
			break;
	}
	if (i == ess->ess_nsegs)
		return 0;
	v = ess->ess_segs[i].eg_vaddr + (off - ess->ess_segs[i].eg_offset);
	if ((es = dt_usyms_func(ess, v)) != NULL) {
		uip->ui_name = es->es_name;
		uip->ui_value = addr - (v - es->es_addr);
	}
	return 0;
}

int
dt_usyms_mapping(dt_usyms_t *us, int pid, uint64_t addr, dt_os_mapping_t *omp)
{
	dt_uproc_t *up = dt_usyms_proc(us, pid, false);
	const dt_umap_t *um;
	dt_ufile_t *uf;

	if (up == NULL || (um = dt_usyms_find(up, addr)) == NULL ||
	    (uf = um->um_file) == NULL)
		return -1;
	/* Read once per file, as its symbols are, and only when asked. */
	if (!uf->uf_idread) {
		uf->uf_idread = true;
		if (dt_elf_build_id(uf->uf_path, uf->uf_buildid,
		    sizeof (uf->uf_buildid)) != 0)
			uf->uf_buildid[0] = '\0';
	}
	memset(omp, 0, sizeof (*omp));
	omp->om_path = uf->uf_path;
	omp->om_start = um->um_lo;
	omp->om_limit = um->um_hi;
	omp->om_offset = um->um_pgoff;
	(void) snprintf(omp->om_buildid, sizeof (omp->om_buildid), "%s",
	    uf->uf_buildid);
	return 0;
}

/*
 * The OS hooks (dt_os.h): one table for the life of the program, so that
 * a snapshot taken when a process was grabbed still answers after it has
 * gone, whichever handle asks.
 */
static pthread_mutex_t dt_usyms_lock = PTHREAD_MUTEX_INITIALIZER;
static dt_usyms_t *dt_usyms_global;

static dt_usyms_t *
dt_usyms_get(void)
{
	if (dt_usyms_global == NULL)
		dt_usyms_global = dt_usyms_create();
	return dt_usyms_global;
}

/* Snapshot pid's maps in the global table, with fn (hold or refresh). */
static void
dt_usyms_global_snap(int pid, int (*fn)(dt_usyms_t *, int))
{
	dt_usyms_t *us;

	(void) pthread_mutex_lock(&dt_usyms_lock);
	if ((us = dt_usyms_get()) != NULL)
		(void) fn(us, pid);
	(void) pthread_mutex_unlock(&dt_usyms_lock);
}

void
dt_os_usym_hold(int pid)
{
	dt_usyms_global_snap(pid, dt_usyms_hold);
}

void
dt_linux_usym_refresh(int pid)
{
	dt_usyms_global_snap(pid, dt_usyms_refresh);
}

int
dt_os_usym(int pid, uint64_t addr, const char **modp, const char **namep,
    uint64_t *valuep, uint64_t *basep)
{
	dt_usym_info_t ui;
	dt_usyms_t *us;
	int rc = -1;

	(void) pthread_mutex_lock(&dt_usyms_lock);
	if ((us = dt_usyms_get()) != NULL &&
	    (rc = dt_usyms_lookup(us, pid, addr, &ui)) == 0) {
		*modp = ui.ui_module;
		*namep = ui.ui_name;
		*valuep = ui.ui_value;
		*basep = ui.ui_base;
	}
	(void) pthread_mutex_unlock(&dt_usyms_lock);
	return rc;
}

const char *
dt_os_usym_warning(void)
{
	const char *why = NULL;

	(void) pthread_mutex_lock(&dt_usyms_lock);
	if (dt_usyms_global != NULL)
		why = dt_usyms_warning(dt_usyms_global);
	(void) pthread_mutex_unlock(&dt_usyms_lock);
	return why;
}

int
dt_os_umapping(int pid, uint64_t addr, dt_os_mapping_t *omp)
{
	dt_usyms_t *us;
	int rc = -1;

	(void) pthread_mutex_lock(&dt_usyms_lock);
	if ((us = dt_usyms_get()) != NULL)
		rc = dt_usyms_mapping(us, pid, addr, omp);
	(void) pthread_mutex_unlock(&dt_usyms_lock);
	return rc;
}
