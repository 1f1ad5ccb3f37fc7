/* SPDX-License-Identifier: MIT */
/*
 * fuzz_elf.h: files for the ELF readers' fuzz targets.  The readers take
 * a path, so each input is written to a memory file and read through
 * /proc/self/fd.  An input that is not an ELF file is the contents of
 * sections, which fz_elf() wraps in the smallest ELF file that holds
 * them, so that the fuzzer's mutations reach the section parsers rather
 * than stopping at libelf's checks of the file's headers.  The unit
 * tests of the readers make their small files with it too.
 */
#ifndef FUZZ_ELF_H
#define FUZZ_ELF_H

#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct fz_sec {
	const char *name;
	uint32_t type;
	uint64_t addr;
	const void *data;
	size_t size;
	uint32_t link;	/* a section index: 1 is the first of secs */
	uint64_t entsize;
} fz_sec_t;

/* A memory file holding data: its descriptor, or -1. */
static inline int
fz_file(const void *data, size_t size)
{
	int fd = memfd_create("fuzz", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (size > 0 && write(fd, data, size) != (ssize_t) size) {
		(void) close(fd);
		return -1;
	}
	return fd;
}

/* The path of a memory file, for the readers to open. */
static inline void
fz_path(int fd, char *buf, size_t len)
{
	(void) snprintf(buf, len, "/proc/self/fd/%d", fd);
}

static inline void
fz_put(uint8_t *img, size_t *off, const void *p, size_t n)
{
	if (n > 0)
		memcpy(img + *off, p, n);
	*off += n;
}

/*
 * An ELF file of machine, its sections secs[0..n-1] (section 1 onwards;
 * the section names' table is the last), one PT_LOAD segment covering
 * the file at address 0: a memory file's descriptor, or -1.
 */
static inline int
fz_elf(uint16_t machine, uint16_t type, const fz_sec_t *secs, size_t n)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	Elf64_Shdr *sh;
	size_t names = 1, total, off, shoff;
	uint8_t *img;
	char *shstr;
	int fd;

	for (size_t i = 0; i < n; i++)
		names += strlen(secs[i].name) + 1;
	names += sizeof (".shstrtab");
	total = sizeof (eh) + sizeof (ph) + names + 8;
	for (size_t i = 0; i < n; i++)
		total += secs[i].size + 8;
	total += (n + 2) * sizeof (Elf64_Shdr);
	if ((img = calloc(1, total)) == NULL)
		return -1;
	if ((sh = calloc(n + 2, sizeof (*sh))) == NULL ||
	    (shstr = calloc(1, names)) == NULL) {
		free(sh);
		free(img);
		return -1;
	}

	off = sizeof (eh) + sizeof (ph);
	names = 1;
	for (size_t i = 0; i < n; i++) {
		Elf64_Shdr *s = &sh[i + 1];

		off = (off + 7) & ~(size_t) 7;
		s->sh_name = (uint32_t) names;
		strcpy(shstr + names, secs[i].name);
		names += strlen(secs[i].name) + 1;
		s->sh_type = secs[i].type;
		s->sh_flags = SHF_ALLOC;
		s->sh_addr = secs[i].addr;
		s->sh_offset = off;
		s->sh_size = secs[i].size;
		s->sh_link = secs[i].link;
		s->sh_entsize = secs[i].entsize;
		s->sh_addralign = 8;
		fz_put(img, &off, secs[i].data, secs[i].size);
	}
	sh[n + 1].sh_name = (uint32_t) names;
	strcpy(shstr + names, ".shstrtab");
	names += sizeof (".shstrtab");
	sh[n + 1].sh_type = SHT_STRTAB;
	sh[n + 1].sh_offset = off;
	sh[n + 1].sh_size = names;
	sh[n + 1].sh_addralign = 1;
	fz_put(img, &off, shstr, names);
	shoff = off = (off + 7) & ~(size_t) 7;
	fz_put(img, &off, sh, (n + 2) * sizeof (*sh));

	memset(&eh, 0, sizeof (eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = type;
	eh.e_machine = machine;
	eh.e_version = EV_CURRENT;
	eh.e_phoff = sizeof (eh);
	eh.e_shoff = shoff;
	eh.e_ehsize = sizeof (eh);
	eh.e_phentsize = sizeof (ph);
	eh.e_phnum = 1;
	eh.e_shentsize = sizeof (Elf64_Shdr);
	eh.e_shnum = (uint16_t) (n + 2);
	eh.e_shstrndx = (uint16_t) (n + 1);
	memset(&ph, 0, sizeof (ph));
	ph.p_type = PT_LOAD;
	ph.p_flags = PF_R | PF_X;
	ph.p_filesz = ph.p_memsz = off;
	ph.p_align = 0x1000;
	memcpy(img, &eh, sizeof (eh));
	memcpy(img + sizeof (eh), &ph, sizeof (ph));

	fd = fz_file(img, off);
	free(shstr);
	free(sh);
	free(img);
	return fd;
}

static inline int
fz_is_elf(const uint8_t *data, size_t size)
{
	return size >= SELFMAG && memcmp(data, ELFMAG, SELFMAG) == 0;
}

#endif /* FUZZ_ELF_H */
