/* SPDX-License-Identifier: MIT */
/*
 * dt_elfsym.c: reading the function symbols of an ELF file (libelf).
 *
 * See dt_elfsym.h.  Symbols come from the richest table available: the
 * file's own .symtab, else the .symtab of its separate debug file (found
 * by build ID: /usr/lib/debug/.build-id/xx/yyyy.debug, as Debian's -dbg
 * and -dbgsym packages install them), else .dynsym.  Only defined
 * functions with a size are kept (STT_FUNC, STT_GNU_IFUNC).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/linux/dt_elfsym.h"
#include "os/linux/dt_kdwarf.h"

int
dt_elfsym_open(const char *path)
{
	struct stat st;
	int fd, flags;

	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (flags = fcntl(fd, F_GETFL)) < 0 ||
	    fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
		(void) close(fd);
		errno = ENXIO;
		return -1;
	}
	return fd;
}

/* An open ELF file. */
typedef struct dt_elf {
	int ef_fd;
	Elf *ef_elf;
} dt_elf_t;

static int
dt_elf_open(const char *path, dt_elf_t *ef)
{
	(void) elf_version(EV_CURRENT);
	ef->ef_elf = NULL;
	if ((ef->ef_fd = dt_elfsym_open(path)) < 0)
		return -1;
	if ((ef->ef_elf = elf_begin(ef->ef_fd, ELF_C_READ_MMAP, NULL)) ==
	    NULL || elf_kind(ef->ef_elf) != ELF_K_ELF ||
	    gelf_getclass(ef->ef_elf) != ELFCLASS64) {
		if (ef->ef_elf != NULL)
			(void) elf_end(ef->ef_elf);
		(void) close(ef->ef_fd);
		errno = ENOEXEC;
		return -1;
	}
	return 0;
}

static void
dt_elf_close(dt_elf_t *ef)
{
	(void) elf_end(ef->ef_elf);
	(void) close(ef->ef_fd);
}

/* The first section of a type, or NULL. */
static Elf_Scn *
dt_elf_section(Elf *elf, Elf64_Word type, GElf_Shdr *shdr)
{
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn != NULL;
	    scn = elf_nextscn(elf, scn)) {
		if (gelf_getshdr(scn, shdr) != NULL && shdr->sh_type == type)
			return scn;
	}
	return NULL;
}

/* The debug file named by the build ID note, if installed. */
static int
dt_elf_debugfile(Elf *elf, char *path, size_t len)
{
	GElf_Shdr shdr;

	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn != NULL;
	    scn = elf_nextscn(elf, scn)) {
		Elf_Data *d;
		GElf_Nhdr nh;
		size_t off = 0, noff, doff;

		if (gelf_getshdr(scn, &shdr) == NULL ||
		    shdr.sh_type != SHT_NOTE || (d = elf_getdata(scn, NULL)) ==
		    NULL)
			continue;
		while ((off = gelf_getnote(d, off, &nh, &noff, &doff)) > 0) {
			const unsigned char *id;
			size_t n;

			if (nh.n_type != NT_GNU_BUILD_ID || nh.n_descsz < 2 ||
			    nh.n_namesz != 4 || memcmp((char *) d->d_buf +
			    noff, "GNU", 4) != 0)
				continue;
			id = (const unsigned char *) d->d_buf + doff;
			n = (size_t) snprintf(path, len,
			    "/usr/lib/debug/.build-id/%02x/", id[0]);
			for (size_t i = 1; i < nh.n_descsz && n + 3 < len; i++)
				n += (size_t) snprintf(path + n, len - n, "%02x",
				    id[i]);
			if (n + 7 > len)
				return -1;
			strcat(path, ".debug");
			return access(path, R_OK);
		}
	}
	return -1;
}

static int
dt_elfsym_cmp(const void *a, const void *b)
{
	const dt_elfsym_t *x = a, *y = b;
	const char *xn = x->es_name, *yn = y->es_name;

	if (x->es_addr != y->es_addr)
		return x->es_addr < y->es_addr ? -1 : 1;
	if (x->es_rank != y->es_rank)
		return x->es_rank < y->es_rank ? -1 : 1;
	/*
	 * As DTrace prefers among aliases: the name with fewer leading
	 * underscores (malloc before __libc_malloc), then the first.
	 */
	while (*xn == '_' && *yn == '_') {
		xn++;
		yn++;
	}
	if (*xn == '_' || *yn == '_')
		return *xn == '_' ? 1 : -1;
	return strcmp(x->es_name, y->es_name);
}

/* Append the defined functions of one symbol table to out. */
static int
dt_elfsym_read_table(Elf *elf, Elf_Scn *scn, const GElf_Shdr *shdr,
    dt_elfsyms_t *out)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t n, strlen_total = 0, pos = 0, k = 0;

	if (d == NULL || shdr->sh_entsize == 0)
		return 0;
	n = shdr->sh_size / shdr->sh_entsize;
	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;
		const char *name;
		int type;

		if (gelf_getsym(d, (int) i, &sym) == NULL)
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) ||
		    sym.st_shndx == SHN_UNDEF || sym.st_size == 0 ||
		    (name = elf_strptr(elf, shdr->sh_link, sym.st_name)) ==
		    NULL || name[0] == '\0')
			continue;
		strlen_total += strlen(name) + 1;
		k++;
	}
	if (k == 0)
		return 0;
	if ((out->ess_syms = calloc(k, sizeof (dt_elfsym_t))) == NULL ||
	    (out->ess_strs = malloc(strlen_total)) == NULL)
		return -1;
	for (size_t i = 0; i < n; i++) {
		dt_elfsym_t *es = &out->ess_syms[out->ess_nsyms];
		GElf_Sym sym;
		const char *name;
		int type, bind;

		if (gelf_getsym(d, (int) i, &sym) == NULL)
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		bind = GELF_ST_BIND(sym.st_info);
		if ((type != STT_FUNC && type != STT_GNU_IFUNC) ||
		    sym.st_shndx == SHN_UNDEF || sym.st_size == 0 ||
		    (name = elf_strptr(elf, shdr->sh_link, sym.st_name)) ==
		    NULL || name[0] == '\0')
			continue;
		/*
		 * A .symtab (a debug file's) names a function by its default
		 * version too ("fopen@@GLIBC_2.2.5"), which .dynsym keeps
		 * apart: the plain name, as DTrace prints and matches it.  A
		 * hidden old version ("memcpy@GLIBC_2.2.5") stays as it is.
		 */
		size_t len = strstr(name, "@@") != NULL ?
		    (size_t) (strstr(name, "@@") - name) : strlen(name);

		memcpy(out->ess_strs + pos, name, len);
		out->ess_strs[pos + len] = '\0';
		es->es_name = out->ess_strs + pos;
		pos += len + 1;
		es->es_addr = sym.st_value;
		es->es_size = sym.st_size;
		es->es_rank = bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2;
		out->ess_nsyms++;
	}
	/* Never a null array, even to sort nothing (see dt_cfi_sort()). */
	if (out->ess_nsyms > 1)
		qsort(out->ess_syms, out->ess_nsyms, sizeof (dt_elfsym_t),
		    dt_elfsym_cmp);
	/* The same symbol in two tables (or twice in one) counts once. */
	k = 0;
	for (size_t i = 0; i < out->ess_nsyms; i++) {
		if (k > 0 && dt_elfsym_cmp(&out->ess_syms[k - 1],
		    &out->ess_syms[i]) == 0)
			continue;
		out->ess_syms[k++] = out->ess_syms[i];
	}
	out->ess_nsyms = k;
	return 0;
}

static int
dt_elfsym_segments(Elf *elf, dt_elfsyms_t *out)
{
	size_t n;

	if (elf_getphdrnum(elf, &n) != 0)
		return -1;
	if ((out->ess_segs = calloc(n + 1, sizeof (dt_elfseg_t))) == NULL)
		return -1;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int) i, &ph) == NULL ||
		    ph.p_type != PT_LOAD)
			continue;
		out->ess_segs[out->ess_nsegs].eg_vaddr = ph.p_vaddr;
		out->ess_segs[out->ess_nsegs].eg_filesz = ph.p_filesz;
		out->ess_segs[out->ess_nsegs].eg_offset = ph.p_offset;
		out->ess_nsegs++;
	}
	return 0;
}

int
dt_elfsym_load(const char *path, dt_elfsyms_t *out)
{
	char dbg[PATH_MAX];
	GElf_Shdr shdr;
	Elf_Scn *scn;
	dt_elf_t ef, df;
	int rc = 0;

	memset(out, 0, sizeof (*out));
	if (dt_elf_open(path, &ef) != 0)
		return -1;
	if (dt_elfsym_segments(ef.ef_elf, out) != 0) {
		dt_elf_close(&ef);
		dt_elfsym_free(out);
		errno = ENOMEM;
		return -1;
	}
	if ((scn = dt_elf_section(ef.ef_elf, SHT_SYMTAB, &shdr)) != NULL) {
		rc = dt_elfsym_read_table(ef.ef_elf, scn, &shdr, out);
	} else if (dt_elf_debugfile(ef.ef_elf, dbg, sizeof (dbg)) == 0 &&
	    dt_elf_open(dbg, &df) == 0) {
		if ((scn = dt_elf_section(df.ef_elf, SHT_SYMTAB, &shdr)) !=
		    NULL)
			rc = dt_elfsym_read_table(df.ef_elf, scn, &shdr, out);
		dt_elf_close(&df);
	}
	if (rc == 0 && out->ess_nsyms == 0 &&
	    (scn = dt_elf_section(ef.ef_elf, SHT_DYNSYM, &shdr)) != NULL)
		rc = dt_elfsym_read_table(ef.ef_elf, scn, &shdr, out);
	dt_elf_close(&ef);
	if (rc != 0) {
		dt_elfsym_free(out);
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

void
dt_elfsym_free(dt_elfsyms_t *ess)
{
	free(ess->ess_syms);
	free(ess->ess_segs);
	free(ess->ess_strs);
	memset(ess, 0, sizeof (*ess));
}

int64_t
dt_elfsym_fileoff(const dt_elfsyms_t *ess, uint64_t addr)
{
	for (size_t i = 0; i < ess->ess_nsegs; i++) {
		const dt_elfseg_t *eg = &ess->ess_segs[i];

		if (addr >= eg->eg_vaddr && addr < eg->eg_vaddr + eg->eg_filesz)
			return (int64_t) (addr - eg->eg_vaddr + eg->eg_offset);
	}
	return -1;
}

int
dt_elf_build_id(const char *path, char *buf, size_t len)
{
	Elf_Scn *scn = NULL;
	int fd, rc = -1;
	Elf *elf;

	if (path == NULL) {
		char notes[4096];
		ssize_t n;

		if ((fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC)) < 0)
			return -1;
		n = read(fd, notes, sizeof (notes));
		close(fd);
		return n > 0 ? dt_kdwarf_build_id(notes, (size_t) n, buf,
		    len) : -1;
	}
	/* A process's file may have become a FIFO: opened with care. */
	if (elf_version(EV_CURRENT) == EV_NONE ||
	    (fd = dt_elfsym_open(path)) < 0)
		return -1;
	if ((elf = elf_begin(fd, ELF_C_READ_MMAP, NULL)) != NULL) {
		while (rc != 0 && (scn = elf_nextscn(elf, scn)) != NULL) {
			GElf_Shdr sh;
			Elf_Data *d;

			if (gelf_getshdr(scn, &sh) != NULL &&
			    sh.sh_type == SHT_NOTE &&
			    (d = elf_getdata(scn, NULL)) != NULL &&
			    d->d_buf != NULL)
				rc = dt_kdwarf_build_id(d->d_buf, d->d_size,
				    buf, len);
		}
		elf_end(elf);
	}
	close(fd);
	return rc;
}
