/* SPDX-License-Identifier: MIT */
/*
 * dt_kdwarf.h: which type each kernel variable has, from the kernel's
 * DWARF, for the variables BTF does not describe (all but the per-CPU
 * ones on stock kernels).  dt_btf.c turns the answer into a type.
 */
#ifndef DT_KDWARF_H
#define DT_KDWARF_H

#include <stddef.h>

typedef struct dt_kdwarf dt_kdwarf_t;

/*
 * A variable's type is told as a chain, outermost first, of the words
 * "*" (pointer to), "const", "volatile" and "[N]" (array of N; 0 when
 * DWARF gives no bound), ending with the first type that has a name:
 *
 *   "struct NAME", "union NAME", "enum NAME", "typedef NAME",
 *   "int SIZE ENC NAME"  a base type of SIZE bytes, ENC s (signed),
 *                        u (unsigned), c / C (signed / unsigned char),
 *                        b (boolean) or f (floating point),
 *   "void", "func"       (a function: only pointed to)
 *
 * e.g. "const [302] int 1 c char", "* struct pid", "volatile int 8 u
 * long unsigned int".  A chain may begin with "=SIZE", the object's
 * size from the symbol table, for an array whose bound DWARF does not
 * give ("=301 const [0] const int 1 c char").  The name is looked up in BTF, which has the type
 * itself; DWARF only says which it is.
 */

/*
 * Index the variables of the DWARF file path: from the cache file
 * cachepath when it is there (NULL: no cache), else by reading path's
 * .debug_info, and then writing the cache (best effort: a cache that
 * cannot be written only costs the next run the read).  Returns NULL
 * with why (len bytes) set.
 */
extern dt_kdwarf_t *dt_kdwarf_open(const char *path, const char *cachepath,
    char *why, size_t len);

/* The chain of variable name's type, or NULL when the file has none. */
extern const char *dt_kdwarf_var(const dt_kdwarf_t *kd, const char *name);

/* How many variables are indexed. */
extern size_t dt_kdwarf_count(const dt_kdwarf_t *kd);

extern void dt_kdwarf_close(dt_kdwarf_t *kd);

/*
 * The GNU build ID of an ELF file's notes (notes, len bytes, as in a
 * PT_NOTE segment or /sys/kernel/notes), as lowercase hex in buf.
 * Returns 0, or -1 when there is none.
 */
extern int dt_kdwarf_build_id(const void *notes, size_t len, char *buf,
    size_t buflen);

#endif /* DT_KDWARF_H */
