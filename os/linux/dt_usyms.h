/* SPDX-License-Identifier: MIT */
/*
 * dt_usyms.h: user addresses to symbols -- which file of a process maps an
 * address, and which function of that file holds it.
 *
 * A dt_usyms_t keeps, per process, a snapshot of its /proc/<pid>/maps
 * (taken the first time the process is held or looked up, and again when
 * an address falls outside every mapping, as after a dlopen()), and per
 * file the function symbols of dt_elfsym.c, read on the first address
 * that falls in the file.  Keeping the snapshot lets a stack recorded in
 * a process that has since exited still print symbolically, as long as
 * its files are still there.
 *
 * The names handed out (module basenames, symbol names) live as long as
 * the dt_usyms_t.  The one the OS hook dt_os_usym() uses lives as long as
 * the program.
 */
#ifndef DT_USYMS_H
#define DT_USYMS_H

#include <stdint.h>

#include "common/dt_os.h"

typedef struct dt_usyms dt_usyms_t;

/* The answer for one address. */
typedef struct dt_usym_info {
	const char *ui_module;	/* basename of the mapped file */
	const char *ui_name;	/* the function, or NULL */
	uint64_t ui_value;	/* the function's runtime address */
	uint64_t ui_base;	/* runtime address of the file's offset 0 */
} dt_usym_info_t;

/* NULL when out of memory. */
extern dt_usyms_t *dt_usyms_create(void);
extern void dt_usyms_destroy(dt_usyms_t *us);

/*
 * Take the maps of pid now unless a snapshot is already held: 0, or -1
 * when they cannot be read (no such process, no permission).
 */
extern int dt_usyms_hold(dt_usyms_t *us, int pid);

/*
 * Take the maps of pid now, replacing any snapshot held (after the
 * process loaded a library or exec'd, so that its new addresses still
 * resolve after it has exited): 0, or -1 with the old snapshot kept.
 * dt_linux_usym_refresh() does it in the table of the OS hooks.
 */
extern int dt_usyms_refresh(dt_usyms_t *us, int pid);
extern void dt_linux_usym_refresh(int pid);

/*
 * Replace the snapshot of pid by the maps text given (the format of
 * /proc/<pid>/maps), never to be read again from /proc: for tests.
 * 0, or -1 (ENOMEM).
 */
extern int dt_usyms_setmaps(dt_usyms_t *us, int pid, const char *text);

/*
 * Read pid's JIT symbols from path rather than /tmp/perf-<pid>.map, a
 * file that must be the caller's (its effective uid's) or root's: for
 * tests.  0, or -1 (ENOMEM).
 */
extern int dt_usyms_setperfmap(dt_usyms_t *us, int pid, const char *path);

/*
 * Symbolise addr in pid: 0 with *uip filled (ui_name NULL when only the
 * file is known), or -1 when no file of the process maps the address.
 * An address in no file is looked up in the process's perf map
 * (/tmp/perf-<pid>.map, written by JITs): its module is then the
 * process's executable and ui_base 0.
 */
extern int dt_usyms_lookup(dt_usyms_t *us, int pid, uint64_t addr,
    dt_usym_info_t *uip);

/*
 * The file mapping addr in pid, as the snapshot a lookup used holds it,
 * with the file's build ID (read on the first call for the file): 0, or
 * -1 when no file maps the address.  dt_os_umapping() in the table of
 * the OS hooks.
 */
extern int dt_usyms_mapping(dt_usyms_t *us, int pid, uint64_t addr,
    dt_os_mapping_t *omp);

/*
 * Why a lookup since the last call left a perf map unread, in whole or
 * in part (dt_perfmap_warning()), or NULL: each map's once.
 */
extern const char *dt_usyms_warning(dt_usyms_t *us);

#endif /* DT_USYMS_H */
