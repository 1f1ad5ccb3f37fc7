/* SPDX-License-Identifier: MIT */
/*
 * dt_elfsym.h: the function symbols of an ELF file, for the pid provider.
 *
 * dt_elfsym_load() reads an executable or shared library once: its
 * function symbols from .symtab (or, when stripped, .dynsym; and from a
 * separate debug file found by build ID under /usr/lib/debug when one is
 * installed), sorted by address, and its loadable segments, which turn a
 * symbol's address into the file offset a uprobe is placed at.  Aliases
 * (several names at one address) are kept, sorted best first (global,
 * then weak, then local), for the pid provider to choose among.
 */
#ifndef DT_ELFSYM_H
#define DT_ELFSYM_H

#include <stddef.h>
#include <stdint.h>

typedef struct dt_elfsym {
	const char *es_name;
	uint64_t es_addr;	/* st_value: the link-time address */
	uint64_t es_size;
	uint8_t es_rank;	/* 0 global, 1 weak, 2 local: lower wins */
} dt_elfsym_t;

typedef struct dt_elfseg {
	uint64_t eg_vaddr;
	uint64_t eg_filesz;
	uint64_t eg_offset;
} dt_elfseg_t;

typedef struct dt_elfsyms {
	dt_elfsym_t *ess_syms;	/* sorted by address, then rank, then name */
	size_t ess_nsyms;
	dt_elfseg_t *ess_segs;	/* PT_LOAD segments */
	size_t ess_nsegs;
	char *ess_strs;		/* the names */
} dt_elfsyms_t;

/* 0, or -1 with errno (ENOEXEC: not an ELF file we can read). */
extern int dt_elfsym_load(const char *path, dt_elfsyms_t *out);
extern void dt_elfsym_free(dt_elfsyms_t *ess);

/* The file offset of a link-time address, or -1 if it is not in a segment. */
extern int64_t dt_elfsym_fileoff(const dt_elfsyms_t *ess, uint64_t addr);

/*
 * Open, to read, a file a process maps.  Its name comes from
 * /proc/<pid>/maps, so from whoever owns the process, who may have put a
 * FIFO or a device in its place since (" (deleted)" files are read by
 * name): opening a FIFO waits for a writer, for ever.  So it is opened
 * without blocking, kept only when it is a regular file, and then blocks
 * as usual.  The descriptor, or -1 with errno (ENXIO: not a regular
 * file).
 */
extern int dt_elfsym_open(const char *path);

/*
 * The GNU build ID of the ELF file path (of the running kernel when path
 * is NULL, from /sys/kernel/notes), in hex, into buf: 0, or -1 when it
 * has none or buf is too small for it.
 */
extern int dt_elf_build_id(const char *path, char *buf, size_t len);

#endif /* DT_ELFSYM_H */
