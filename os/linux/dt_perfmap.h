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
 *
 * The file is in /tmp, where any user may make it, and dtrace reads it
 * as root: it is opened without blocking and without following a link,
 * and read only when it is a regular file owned by the process's user
 * or by root, so that a FIFO, a device or a planted file neither hangs
 * dtrace nor names another user's code.  At most DT_PERFMAP_MAX bytes of
 * a map are parsed over its life (memory grows with what is parsed): a
 * bigger map is read from its last DT_PERFMAP_MAX bytes, its newest
 * code.  What is refused or left unread is said once, in pm_why, for
 * the caller to report (dt_perfmap_warning()).
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

/* The bytes of a map parsed at most: some 300,000 functions. */
#define DT_PERFMAP_MAX (32UL << 20)

typedef struct dt_perfmap {
	dt_perfsym_t *pm_syms; /* sorted by address, then line */
	size_t pm_nsyms, pm_cap;
	uint64_t pm_seq;
	off_t pm_read; /* bytes of the file parsed */
	char *pm_tail; /* a last line not yet ended by a newline */
	struct dt_perfname *pm_names; /* every name read, kept */
	off_t pm_parsed;	      /* bytes parsed over the map's life */
	bool pm_said;		      /* a warning was handed out: no other */
	char pm_why[192];	      /* a warning not yet handed out, or "" */
} dt_perfmap_t;

/*
 * Bring pm up to date with the file at path, read only when it is a
 * regular file owned by owner (the process's user) or root: 0 (also when
 * the file does not exist or is refused: no symbols), or -1 when out of
 * memory.
 */
extern int dt_perfmap_update(dt_perfmap_t *pm, const char *path, uid_t owner);

/*
 * Why the map was refused or read only in part, once per map, or NULL:
 * one line without "dtrace: " or a newline.
 */
extern const char *dt_perfmap_warning(dt_perfmap_t *pm);

/*
 * The function of the map holding addr: its name, with its start in
 * *startp; NULL when none does.
 */
extern const char *dt_perfmap_lookup(
    const dt_perfmap_t *pm, uint64_t addr, uint64_t *startp);

extern void dt_perfmap_free(dt_perfmap_t *pm);

#endif /* DT_PERFMAP_H */
