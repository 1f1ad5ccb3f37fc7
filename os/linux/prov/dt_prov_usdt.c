/* SPDX-License-Identifier: MIT */
/*
 * dt_prov_usdt.c: USDT -- the static probes applications and libraries
 * carry, as <sys/sdt.h> (and dtrace -h) emits them.
 *
 *	<prov><N>:<module>:<function>:<name>
 *
 * Each probe site is an ELF note in .note.stapsdt of an executable or
 * library: its address, the address of its semaphore (0 for none), the
 * provider and probe names and the argument operands, as the SystemTap
 * note format defines them.  The note's addresses are link-time ones,
 * corrected by the difference between the .stapsdt.base section's real
 * address and the one the note records (prelink may have moved it).
 * <module> is the file's basename (a.out for the executable; a name that
 * is not a pattern also names it by the file's path or its basename up
 * to a '.', as for pid), <function>
 * the function symbol containing the site, and <name> the note's name
 * with "__" shown as "-", as DTrace does.  Sites with the same four names
 * (a probe in an inlined function, say) are one probe.
 *
 * Providers are made on demand, as pid<N> is: a description whose
 * provider is a name ending in the digits of a live process (myprov123,
 * myprov$target after macro expansion) makes the provider from that
 * process's notes; a glob or empty provider (myprov*) looks at the
 * processes of -c and -p.  pid<N> stays the pid provider's.
 *
 * The BPF engine places a uprobe at each site (filtered to the process)
 * and decodes arg0..argN from the site's operands (dt_bpf_gen.c,
 * DT_BPF_CTX_USDT): registers of pt_regs, memory operands off(%reg) read
 * from the process, and constants $N, each of the size and signedness
 * its N@ / -N@ prefix gives.  A site with a semaphore gets its uprobe's
 * ref_ctr_offset set, so the kernel counts the semaphore up while the
 * probe is enabled and the application's PROBE_ENABLED() tests run.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/dt_impl.h"
#include "common/probe/dt_probe.h"
#include "isa/dt_isa.h"
#include "os/linux/dt_elfsym.h"
#include "os/linux/prov/dt_linux_prov.h"

#define DT_USDT_NOTE_TYPE 3	/* NT_STAPSDT */

/* One note: a probe site. */
typedef struct dt_usdt_note {
	size_t un_mod;		/* index in up_mods */
	char *un_prov;
	char *un_name;		/* "__" already turned into "-" */
	const char *un_func;	/* in the module's symbol names, or "" */
	uint64_t un_off;	/* file offset of the site */
	uint64_t un_sema;	/* file offset of the semaphore, or 0 */
	dt_usdt_args_t un_args;
	uint32_t un_gen;	/* the image of the process it was read in */
	bool un_made;		/* its provider has its probe */
} dt_usdt_note_t;

/* What one process's files say, read once. */
typedef struct dt_usdt_proc {
	int up_pid;
	dt_pid_module_t *up_mods;
	size_t up_nmods;
	dt_usdt_note_t *up_notes;
	size_t up_nnotes;
	uint32_t up_gen;	/* the image read last (followfork) */
	struct dt_usdt_proc *up_next;
} dt_usdt_proc_t;

static const dt_provops_t dt_usdt_ops;
static const dt_provops_t dt_usdt_family_ops;

/* As the pid provider's: names evolving, the rest private to the program. */
static const dt_provattr_t dt_usdt_attr = {
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_ISA },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
	{ DT_STAB_EVOLVING, DT_STAB_EVOLVING, DT_CLASS_ISA },
	{ DT_STAB_PRIVATE, DT_STAB_PRIVATE, DT_CLASS_UNKNOWN },
};

/*
 * Operands.
 */

/*
 * One operand, "[-]N@operand": the size here, the operand in the ISA's
 * assembler syntax by isa/ (dt_isa_usdt_operand()).  An operand we
 * cannot read is DT_USDT_ARG_NONE: the probe still fires, with that
 * argument 0.
 */
static void
dt_usdt_parse_arg(const char *s, dt_usdt_arg_t *ua)
{
	const char *at = strchr(s, '@');
	dt_isa_operand_t op;
	char *end;
	long size = 8;

	memset(ua, 0, sizeof (*ua));
	if (at != NULL) {
		size = strtol(s, &end, 10);
		if (end != at)
			return;
		s = at + 1;
	}
	ua->ua_signed = size < 0;
	size = labs(size);
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return;
	ua->ua_size = (uint8_t) size;

	dt_isa_usdt_operand(s, &op);
	switch (op.io_kind) {
	case DT_ISA_OP_CONST:
		ua->ua_kind = DT_USDT_ARG_CONST;
		break;
	case DT_ISA_OP_REG:
		ua->ua_kind = DT_USDT_ARG_REG;
		/* a narrower register is all the value has */
		if (op.io_regsize < ua->ua_size)
			ua->ua_size = op.io_regsize;
		break;
	case DT_ISA_OP_MEM:
		ua->ua_kind = DT_USDT_ARG_MEM;
		break;
	default:
		return;
	}
	ua->ua_reg = op.io_reg;
	ua->ua_shift = op.io_shift;
	ua->ua_val = op.io_val;
}

/*
 * The operand string of a note: space-separated operands, where a memory
 * operand in brackets may hold a space of its own (arm64's "-4@[x0, 8]").
 */
void
dt_usdt_parse_args(const char *s, dt_usdt_args_t *uas)
{
	char op[128];

	memset(uas, 0, sizeof (*uas));
	while (uas->ua_nargs < DT_USDT_MAXARGS) {
		size_t n = 0;
		int depth = 0;

		s += strspn(s, " \t");
		for (; s[n] != '\0' && (depth > 0 || (s[n] != ' ' &&
		    s[n] != '\t')); n++)
			depth += s[n] == '[' ? 1 : s[n] == ']' ? -1 : 0;
		if (n == 0)
			break;
		if (n < sizeof (op)) {
			memcpy(op, s, n);
			op[n] = '\0';
			dt_usdt_parse_arg(op, &uas->ua_args[uas->ua_nargs]);
		}
		uas->ua_nargs++;
		s += n;
	}
}

/*
 * Notes.
 */

/* The function symbol containing a link-time address, or "". */
static const char *
dt_usdt_func(const dt_elfsyms_t *ess, uint64_t addr)
{
	const dt_elfsym_t *best = NULL;
	size_t lo = 0, hi = ess->ess_nsyms;

	/* the first symbol above addr; candidates lie below it */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ess->ess_syms[mid].es_addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo > 0) {
		const dt_elfsym_t *es = &ess->ess_syms[--lo];

		if (addr - es->es_addr >= es->es_size) {
			if (best != NULL)
				break;
			continue;
		}
		if (best == NULL || es->es_rank <= best->es_rank)
			best = es;
		/* a big symbol far below might contain it: look on */
	}
	return best != NULL ? best->es_name : "";
}

static char *
dt_usdt_probename(const char *s)
{
	char *name = strdup(s), *p;

	while (name != NULL && (p = strstr(name, "__")) != NULL) {
		*p = '-';
		memmove(p + 1, p + 2, strlen(p + 2) + 1);
	}
	return name;
}

static int
dt_usdt_add_note(dt_usdt_proc_t *up, size_t m, const char *prov,
    const char *name, const char *args, uint64_t pc, uint64_t sema)
{
	dt_pid_module_t *pm = &up->up_mods[m];
	int64_t off = dt_elfsym_fileoff(&pm->pm_syms, pc);
	int64_t soff = sema != 0 ? dt_elfsym_fileoff(&pm->pm_syms, sema) : 0;
	dt_usdt_note_t *un;

	if (off < 0)
		return 0;	/* not in the file: no site we can probe */
	/*
	 * A semaphore outside the file's bytes (in .bss) cannot be counted
	 * by the kernel, which needs a file offset: the probe fires, but
	 * its is-enabled test stays false.
	 */
	if (soff < 0)
		soff = 0;
	un = realloc(up->up_notes, (up->up_nnotes + 1) * sizeof (*un));
	if (un == NULL)
		return -1;
	up->up_notes = un;
	un += up->up_nnotes;
	memset(un, 0, sizeof (*un));
	un->un_mod = m;
	un->un_off = (uint64_t) off;
	un->un_sema = (uint64_t) soff;
	un->un_func = dt_usdt_func(&pm->pm_syms, pc);
	un->un_gen = up->up_gen;
	un->un_made = false;
	dt_usdt_parse_args(args, &un->un_args);
	if ((un->un_prov = strdup(prov)) == NULL ||
	    (un->un_name = dt_usdt_probename(name)) == NULL) {
		free(un->un_prov);
		return -1;
	}
	up->up_nnotes++;
	return 0;
}

/* The notes of one file; a file we cannot read has none. */
static int
dt_usdt_read_notes(dt_usdt_proc_t *up, size_t m)
{
	dt_pid_module_t *pm = &up->up_mods[m];
	Elf_Scn *scn = NULL, *notes = NULL;
	uint64_t base = 0;
	bool have_base = false;
	size_t shstrndx;
	Elf *elf;
	int fd, rc = 0;

	if ((fd = dt_elfsym_open(pm->pm_path)) < 0)
		return 0;
	(void) elf_version(EV_CURRENT);
	if ((elf = elf_begin(fd, ELF_C_READ, NULL)) == NULL ||
	    elf_getshdrstrndx(elf, &shstrndx) != 0)
		goto out;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr sh;
		const char *sn;

		if (gelf_getshdr(scn, &sh) == NULL ||
		    (sn = elf_strptr(elf, shstrndx, sh.sh_name)) == NULL)
			continue;
		if (sh.sh_type == SHT_NOTE && strcmp(sn, ".note.stapsdt") == 0)
			notes = scn;
		else if (strcmp(sn, ".stapsdt.base") == 0) {
			base = sh.sh_addr;
			have_base = true;
		}
	}
	if (notes == NULL)
		goto out;
	if (!pm->pm_loaded) {
		pm->pm_loaded = true;
		if (dt_elfsym_load(pm->pm_path, &pm->pm_syms) != 0) {
			rc = errno == ENOMEM ? -1 : 0;
			goto out;
		}
	}
	for (Elf_Data *d = elf_getdata(notes, NULL); d != NULL && rc == 0;
	    d = elf_getdata(notes, d)) {
		size_t off = 0, noff, doff;
		GElf_Nhdr nh;

		while (rc == 0 && (off = gelf_getnote(d, off, &nh, &noff,
		    &doff)) > 0) {
			const char *desc = (const char *) d->d_buf + doff;
			const char *prov, *name, *args, *end = desc +
			    nh.n_descsz;
			uint64_t a[3];

			if (nh.n_type != DT_USDT_NOTE_TYPE ||
			    nh.n_namesz != sizeof ("stapsdt") ||
			    memcmp((const char *) d->d_buf + noff, "stapsdt",
			    sizeof ("stapsdt")) != 0 ||
			    nh.n_descsz < sizeof (a) + 3 ||
			    desc[nh.n_descsz - 1] != '\0')
				continue;
			memcpy(a, desc, sizeof (a));
			prov = desc + sizeof (a);
			name = prov + strlen(prov) + 1;
			if (name >= end)
				continue;
			args = name + strlen(name) + 1;
			if (args >= end)
				args = "";
			/* a[0] the site, a[1] the base it assumed, a[2] sema */
			if (have_base && a[1] != 0)
				a[0] += base - a[1];
			rc = dt_usdt_add_note(up, m, prov, name, args, a[0],
			    a[2]);
		}
	}
out:
	if (elf != NULL)
		(void) elf_end(elf);
	(void) close(fd);
	return rc;
}

static void
dt_usdt_proc_free(dt_usdt_proc_t *up)
{
	for (size_t i = 0; i < up->up_nnotes; i++) {
		free(up->up_notes[i].un_prov);
		free(up->up_notes[i].un_name);
	}
	free(up->up_notes);
	dt_pid_modules_free(up->up_mods, up->up_nmods);
	free(up);
}

/* The notes of a process, read on first use; NULL if it is not there. */
static dt_usdt_proc_t *
dt_usdt_proc(dtrace_hdl_t *dtp, dt_provider_t *fam, int pid)
{
	dt_usdt_proc_t *up;

	for (up = fam->pv_data; up != NULL; up = up->up_next) {
		if (up->up_pid == pid)
			return up;
	}
	if ((up = calloc(1, sizeof (*up))) == NULL) {
		(void) dt_set_errno(dtp, EDT_NOMEM);
		return NULL;
	}
	up->up_pid = pid;
	if (dt_pid_read_maps(pid, &up->up_mods, &up->up_nmods) != 0) {
		if (errno == ENOMEM)
			(void) dt_set_errno(dtp, EDT_NOMEM);
		dt_usdt_proc_free(up);
		return NULL;
	}
	for (size_t m = 0; m < up->up_nmods; m++) {
		if (dt_usdt_read_notes(up, m) != 0) {
			(void) dt_set_errno(dtp, EDT_NOMEM);
			dt_usdt_proc_free(up);
			return NULL;
		}
	}
	up->up_next = fam->pv_data;
	fam->pv_data = up;
	return up;
}

/*
 * Providers and probes.
 */

static void
dt_usdt_probe_free(dt_pid_probe_t *pi)
{
	free(pi->pi_sites);
	free(pi->pi_semas);
	free(pi->pi_args);
	free(pi->pi_altname);
	free(pi);
}

/* Add a note's site to the probe. */
static int
dt_usdt_addsite(dt_pid_probe_t *pi, const dt_usdt_note_t *un)
{
	size_t n = pi->pi_nsites + 1;
	uint64_t *s = realloc(pi->pi_sites, n * sizeof (*s));
	uint64_t *sem;
	dt_usdt_args_t *a;

	if (s == NULL)
		return -1;
	pi->pi_sites = s;
	if ((sem = realloc(pi->pi_semas, n * sizeof (*sem))) == NULL)
		return -1;
	pi->pi_semas = sem;
	if ((a = realloc(pi->pi_args, n * sizeof (*a))) == NULL)
		return -1;
	pi->pi_args = a;
	s[n - 1] = un->un_off;
	sem[n - 1] = un->un_sema;
	a[n - 1] = un->un_args;
	pi->pi_nsites = n;
	return 0;
}

/* The probe of the provider pvp named like the note, or NULL. */
static dt_probe_t *
dt_usdt_find(dtrace_hdl_t *dtp, dt_provider_t *pvp, const char *mod,
    const dt_usdt_note_t *un)
{
	for (uint32_t id = 1; id <= dtp->dt_nprobes; id++) {
		dt_probe_t *prp = dtp->dt_probes[id];

		if (prp->pr_prov == pvp && strcmp(prp->pr_name, un->un_name) ==
		    0 && strcmp(prp->pr_func, dt_pid_funcname(dtp,
		    un->un_func)) == 0 &&
		    strcmp(prp->pr_mod, mod) == 0 &&
		    ((const dt_pid_probe_t *) prp->pr_data)->pi_gen ==
		    un->un_gen)
			return prp;
	}
	return NULL;
}

/*
 * Make the provider <prov><pid> with every probe its notes name, or add
 * to it the probes of notes read since (a library loaded, an image
 * exec'd: dt_prov_usdt_refresh()).
 */
static int
dt_usdt_make(dtrace_hdl_t *dtp, dt_usdt_proc_t *up, const char *prov)
{
	dt_provider_t *pvp;
	char name[DT_PROBE_FIELD_MAX], *pname;
	bool any = false;

	if ((size_t) snprintf(name, sizeof (name), "%s%d", prov,
	    up->up_pid) >= sizeof (name))
		return 0;
	for (size_t i = 0; i < up->up_nnotes && !any; i++)
		any = !up->up_notes[i].un_made &&
		    strcmp(up->up_notes[i].un_prov, prov) == 0;
	if (!any)
		return 0;
	if ((pvp = dt_provider_lookup(dtp, name)) != NULL &&
	    pvp->pv_ops != &dt_usdt_ops)
		return 0;
	/* the provider keeps its name: its data */
	if (pvp == NULL && (pname = strdup(name)) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	if (pvp == NULL && dt_provider_register(dtp, pname, &dt_usdt_ops,
	    &dt_usdt_attr, DT_ENGINE_F_KERNEL | DT_ENGINE_F_USER, pname) != 0) {
		free(pname);
		return -1;
	}
	if (pvp == NULL)
		pvp = dt_provider_lookup(dtp, pname);

	for (size_t i = 0; i < up->up_nnotes; i++) {
		dt_usdt_note_t *un = &up->up_notes[i];
		const dt_pid_module_t *pm = &up->up_mods[un->un_mod];
		dt_pid_probe_t *pi;
		dt_probe_t *prp;
		const char *func;

		if (un->un_made || strcmp(un->un_prov, prov) != 0)
			continue;
		un->un_made = true;
		if ((prp = dt_usdt_find(dtp, pvp, pm->pm_name, un)) != NULL) {
			pi = prp->pr_data;
			if (dt_usdt_addsite(pi, un) != 0)
				return dt_set_errno(dtp, EDT_NOMEM);
			continue;
		}
		if ((pi = calloc(1, sizeof (*pi))) == NULL)
			return dt_set_errno(dtp, EDT_NOMEM);
		pi->pi_pid = up->up_pid;
		pi->pi_gen = un->un_gen;
		pi->pi_kind = DT_PID_USDT;
		pi->pi_path = pm->pm_path;
		pi->pi_func = pm->pm_base;
		if (dt_usdt_addsite(pi, un) != 0) {
			dt_usdt_probe_free(pi);
			return dt_set_errno(dtp, EDT_NOMEM);
		}
		/* its sites may differ: arguments described on first use */
		func = dt_pid_funcname(dtp, un->un_func);
		if (dt_pid_setaltname(pi, func, un->un_func) != 0) {
			dt_usdt_probe_free(pi);
			return dt_set_errno(dtp, EDT_NOMEM);
		}
		if ((prp = dt_probe_create(dtp, pvp, pm->pm_name, func,
		    un->un_name, -1, NULL, pi)) == NULL) {
			dt_usdt_probe_free(pi);
			return -1;
		}
		if (pm->pm_aout)
			prp->pr_modalias = "a.out";
		/* Its other name finds it too (dt_pid_altmatch()). */
		if (pi->pi_altname != NULL &&
		    dt_probe_funcname_add(dtp, prp, pi->pi_altname) != 0)
			return dt_set_errno(dtp, EDT_NOMEM);
	}
	return 0;
}

static bool
dt_usdt_isglob(const char *s)
{
	return s[0] == '\0' || strpbrk(s, "*?[\\") != NULL;
}

/* A description naming <prov><N>, or a glob over the traced processes. */
static int
dt_usdt_provide(dtrace_hdl_t *dtp, dt_provider_t *fam,
    const dt_probedesc_t *pdp)
{
	const char *s = pdp->pd_provider;
	dt_usdt_proc_t *up;

	if (dt_usdt_isglob(s)) {
		for (uint32_t i = 0; i < dtp->dt_nprocs; i++) {
			char name[DT_PROBE_FIELD_MAX];
			int pid = dt_proc_pid(dtp, i);

			if ((up = dt_usdt_proc(dtp, fam, pid)) == NULL) {
				if (dtrace_errno(dtp) == EDT_NOMEM)
					return -1;
				continue;
			}
			for (size_t j = 0; j < up->up_nnotes; j++) {
				const char *prov = up->up_notes[j].un_prov;

				(void) snprintf(name, sizeof (name), "%s%d",
				    prov, pid);
				if ((s[0] == '\0' || dt_gmatch(name, s)) &&
				    dt_usdt_make(dtp, up, prov) != 0)
					return -1;
			}
		}
		return 0;
	} else {
		size_t len = strlen(s), k = len;
		char prov[DT_PROBE_FIELD_MAX];
		long pid;

		while (k > 0 && isdigit((unsigned char) s[k - 1]))
			k--;
		/* digits, after a name; pid<N> is the pid provider's */
		if (k == len || k == 0 || len - k > 10 || s[k] == '0' ||
		    (k == 3 && strncmp(s, "pid", 3) == 0))
			return 0;
		pid = strtol(s + k, NULL, 10);
		if (pid <= 0 || pid > INT32_MAX)
			return 0;
		memcpy(prov, s, k);
		prov[k] = '\0';
		if ((up = dt_usdt_proc(dtp, fam, (int) pid)) == NULL)
			return dtrace_errno(dtp) == EDT_NOMEM ? -1 : 0;
		return dt_usdt_make(dtp, up, prov);
	}
}

static void
dt_usdt_probe_fini(dtrace_hdl_t *dtp, dt_probe_t *prp)
{
	(void) dtp;
	dt_usdt_probe_free(prp->pr_data);
}

static void
dt_usdt_fini(dtrace_hdl_t *dtp, dt_provider_t *fam)
{
	dt_usdt_proc_t *up, *next;

	(void) dtp;
	for (up = fam->pv_data; up != NULL; up = next) {
		next = up->up_next;
		dt_usdt_proc_free(up);
	}
}

/* The most arguments any site of the probe passes. */
int
dt_usdt_nargs(const dt_pid_probe_t *pi)
{
	int n = 0;

	for (size_t i = 0; i < pi->pi_nsites; i++) {
		if (pi->pi_args[i].ua_nargs > n)
			n = pi->pi_args[i].ua_nargs;
	}
	return n;
}

/*
 * The notes say only each argument's size and signedness: args[] are the
 * integers of that size, as the first site passing the argument has it.
 */
static int
dt_usdt_probe_args(dtrace_hdl_t *dtp, dt_probe_t *prp)
{
	static const char *const types[2][9] = {
		{ NULL, "uint8_t", "uint16_t", NULL, "uint32_t", NULL, NULL,
		    NULL, "uint64_t" },
		{ NULL, "int8_t", "int16_t", NULL, "int32_t", NULL, NULL,
		    NULL, "int64_t" },
	};
	const dt_pid_probe_t *pi = prp->pr_data;
	const char *native[DT_USDT_MAXARGS];
	int n = dt_usdt_nargs(pi);

	for (int a = 0; a < n; a++) {
		native[a] = "uint64_t";
		for (size_t i = 0; i < pi->pi_nsites; i++) {
			const dt_usdt_arg_t *ua = &pi->pi_args[i].ua_args[a];

			if (a < pi->pi_args[i].ua_nargs &&
			    ua->ua_kind != DT_USDT_ARG_NONE) {
				native[a] = types[ua->ua_signed][ua->ua_size];
				break;
			}
		}
	}
	return dt_probe_set_args(dtp, prp, n, native, NULL);
}

static void
dt_usdt_prov_fini(dtrace_hdl_t *dtp, dt_provider_t *pvp)
{
	(void) dtp;
	free(pvp->pv_data);
}

/*
 * After process from (pid itself, or with followfork one of its
 * descendants) loaded a library or exec'd: read the notes of the files
 * it maps now that pid's notes do not have yet, for the next
 * description matched against <prov><pid>.  After an exec every file is
 * new: the image is the pid provider's next generation.
 */
int
dt_prov_usdt_refresh(dtrace_hdl_t *dtp, int pid, int from, bool exec)
{
	dt_provider_t *fam = dt_provider_lookup(dtp, "usdt");
	dt_usdt_proc_t *up;
	ssize_t n0;

	if (fam == NULL || fam->pv_ops != &dt_usdt_family_ops)
		return 0;
	for (up = fam->pv_data; up != NULL && up->up_pid != pid;
	    up = up->up_next)
		;
	if (up == NULL)
		return 0;	/* read in full when first named */
	if (exec)
		up->up_gen = dt_prov_pid_gen(dtp, pid);
	if ((n0 = dt_pid_modules_merge(&up->up_mods, &up->up_nmods, from,
	    up->up_gen, exec)) < 0)
		return errno == ENOMEM ? dt_set_errno(dtp, EDT_NOMEM) : 0;
	for (size_t m = (size_t) n0; m < up->up_nmods; m++) {
		if (dt_usdt_read_notes(up, m) != 0)
			return dt_set_errno(dtp, EDT_NOMEM);
	}
	return 0;
}

/*
 * A module named as DTrace names a process's objects (as the pid
 * provider does): by the file's path, or its basename up to a '.'
 * (libfoo for libfoo.so.1).
 */
static bool
dt_usdt_modmatch(const dt_probe_t *prp, const char *mod)
{
	const dt_pid_probe_t *pi = prp->pr_data;
	size_t len = strlen(mod);

	return (pi->pi_path != NULL && strcmp(pi->pi_path, mod) == 0) ||
	    (strncmp(prp->pr_mod, mod, len) == 0 && prp->pr_mod[len] == '.');
}

/* <prov><N> providers: their probes, made by the family. */
static const dt_provops_t dt_usdt_ops = {
	.po_probe_fini = dt_usdt_probe_fini,
	.po_probe_args = dt_usdt_probe_args,
	.po_fini = dt_usdt_prov_fini,
	.po_modmatch = dt_usdt_modmatch,
	.po_funcmatch = dt_pid_altmatch,
	.po_mech = DT_MECH_USITE,
};

/* The family, asked about every description (its prefix is empty). */
static const dt_provops_t dt_usdt_family_ops = {
	.po_provide = dt_usdt_provide,
	.po_fini = dt_usdt_fini,
	.po_family = "",
};

int
dt_prov_usdt_init(dtrace_hdl_t *dtp)
{
	return dt_provider_register(dtp, "usdt", &dt_usdt_family_ops,
	    &dt_usdt_attr, DT_ENGINE_F_KERNEL | DT_ENGINE_F_USER, NULL);
}

const dt_pid_probe_t *
dt_prov_usdt_info(const dt_probe_t *prp)
{
	return prp->pr_prov->pv_ops == &dt_usdt_ops ? prp->pr_data : NULL;
}
