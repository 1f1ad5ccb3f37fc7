/* SPDX-License-Identifier: MIT */
/*
 * dt_ksyms.h: the kernel's symbol table, from /proc/kallsyms.
 *
 * dt_os.c answers dt_os_ksym() from one table loaded on first use; the
 * parser takes text so that tests can feed it a synthetic kallsyms.
 */
#ifndef DT_KSYMS_H
#define DT_KSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct dt_ksyms dt_ksyms_t;

/*
 * Parse kallsyms text ("ffffffff81000000 T _stext", modules' symbols
 * followed by "\t[module]").  The table keeps its own copy of the text.
 * Returns NULL only when out of memory.
 */
extern dt_ksyms_t *dt_ksyms_parse(const char *text, size_t len);
/* Read and parse a file (/proc/kallsyms); NULL with errno set. */
extern dt_ksyms_t *dt_ksyms_load(const char *path);
extern void dt_ksyms_free(dt_ksyms_t *ks);

/* The number of text symbols in the table. */
extern size_t dt_ksyms_count(const dt_ksyms_t *ks);
/*
 * True when the file listed symbols but every address read as zero: the
 * kernel hides them from this reader (kptr_restrict, no CAP_SYSLOG).
 */
extern bool dt_ksyms_restricted(const dt_ksyms_t *ks);

/*
 * The symbol containing addr, a function or else a variable: its module
 * ("vmlinux" for the kernel itself), name and address.  A symbol extends
 * to the next symbol of any kind; an address past the last is unknown.
 * Returns 0, or -1 when no text symbol contains addr.
 */
extern int dt_ksyms_lookup(const dt_ksyms_t *ks, uint64_t addr,
    const char **modp, const char **namep, uint64_t *valuep);

/*
 * The address of the symbol called name, of any type (a variable as well
 * as a function), in module mod ("vmlinux" for the kernel itself) or, when
 * mod is NULL, in any.  Returns 0, or -1 when there is none.
 */
extern int dt_ksyms_addr(const dt_ksyms_t *ks, const char *mod,
    const char *name, uint64_t *addrp);

/*
 * The address range [*startp, *endp) of the text symbol called name, as
 * dt_ksyms_lookup() bounds it.  Returns 0, or -1 when there is none.
 */
extern int dt_ksyms_range(const dt_ksyms_t *ks, const char *name,
    uint64_t *startp, uint64_t *endp);

/*
 * The addresses [*startp, *endp) of module mod's code ("vmlinux" for the
 * kernel's): from its first text symbol to where its last one ends, as
 * dt_ksyms_lookup() bounds it.  Returns 0, or -1 when it has none.
 */
extern int dt_ksyms_text_range(const dt_ksyms_t *ks, const char *mod,
    uint64_t *startp, uint64_t *endp);

/*
 * The running kernel's table, read from /proc/kallsyms on first use and
 * kept for the life of the process (dt_os.c); NULL when unreadable.
 */
extern const dt_ksyms_t *dt_linux_ksyms(void);

#endif /* DT_KSYMS_H */
