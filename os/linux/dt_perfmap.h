/* SPDX-License-Identifier: MIT */
/*
 * dt_perfmap.h: the symbols a JIT publishes for its code in
 * /tmp/perf-<pid>.map (Node.js --perf-basic-prof, Java's jcmd
 * Compiler.perfmap, Python 3.12 -X perf), the convention perf and
 * bpftrace read: one line per function, "START SIZE name", hex numbers.
 *
 * The file only grows while the runtime compiles more code, and may be
 * rewritten whole (jcmd writes a new one each time it is asked): a
 * dt_perfmap_t reads what was appended since it last looked, or the
 * whole file again when it is shorter than what was read.  Names handed
 * out stay valid until dt_perfmap_free(), whatever is read since.
 */
#ifndef DT_PERFMAP_H
#define DT_PERFMAP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct dt_perfsym {
	uint64_t ps_addr;
	uint64_t ps_size;
	uint64_t ps_seq; /* line number: a later line wins */
	const char *ps_name;
} dt_perfsym_t;

typedef struct dt_perfmap {
	dt_perfsym_t *pm_syms; /* sorted by address, then line */
	size_t pm_nsyms, pm_cap;
	uint64_t pm_seq;
	off_t pm_read; /* bytes of the file parsed */
	char *pm_tail; /* a last line not yet ended by a newline */
	struct dt_perfname *pm_names; /* every name read, kept */
} dt_perfmap_t;

/*
 * Bring pm up to date with the file at path: 0 (also when the file does
 * not exist: no symbols), or -1 when out of memory.
 */
extern int dt_perfmap_update(dt_perfmap_t *pm, const char *path);

/*
 * The function of the map holding addr: its name, with its start in
 * *startp; NULL when none does.
 */
extern const char *dt_perfmap_lookup(
    const dt_perfmap_t *pm, uint64_t addr, uint64_t *startp);

extern void dt_perfmap_free(dt_perfmap_t *pm);

#endif /* DT_PERFMAP_H */
