/* SPDX-License-Identifier: MIT */
/*
 * a64_sites.h: the probe sites of an AArch64 function, for the pid
 * provider.
 *
 * Given the code of one function (its symbol's address and size),
 * a64_sites_scan() lists:
 *
 *	entry	offset 0
 *	offset	every instruction, each 4-byte aligned word
 *	return	every ret / retaa / retab, and every direct branch whose
 *		target is outside [addr, addr + size): a tail call.  b is
 *		unconditional; b.cond, cbz/cbnz and tbz/tbnz leave only when
 *		taken, and are marked conditional.  br (through a register)
 *		is not a return site: its target is not known here.
 *
 * Data in text: a word that a literal load of the function itself reads
 * (ldr x0, =const placed after the code by hand-written assembly) is
 * data, not an instruction, and no site.  Nothing else is detected:
 * the mapping symbols ($d) that mark data are the caller's to honour.
 *
 * Refused sites (probeable clear, with a reason): what a64_strategy()
 * refuses, and every instruction of an exclusive sequence, from a
 * load-exclusive up to and including the next store-exclusive (or clrex,
 * or A64_EXCL_WINDOW instructions): a breakpoint inside one clears the
 * exclusive monitor and the store would fail for ever.
 *
 * A function whose address or size is not a multiple of 4 is refused
 * whole (no sites).  Pure C11, no OS headers.
 */

#ifndef ISA_AARCH64_A64_SITES_H
#define ISA_AARCH64_A64_SITES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define A64_EXCL_WINDOW 32 /* instructions an exclusive sequence spans */

typedef enum a64_site_kind {
	A64_SITE_ENTRY,
	A64_SITE_OFFSET,
	A64_SITE_RETURN
} a64_site_kind_t;

typedef struct a64_site {
	uint32_t off;
	uint8_t kind;	  /* a64_site_kind_t */
	uint8_t cls;	  /* a64_class_t of the instruction */
	uint8_t strategy; /* a64_strategy_t */
	uint8_t tailcall; /* a return by a branch out of the function */
	uint8_t cond;	  /* ... that leaves only when taken */
	uint8_t probeable;
	const char *reason; /* why not, NULL if probeable */
} a64_site_t;

typedef struct a64_sites {
	uint64_t addr;
	size_t size;
	size_t ninsns; /* words taken as instructions */
	size_t ndata;  /* words read as literal data */
	size_t nsites;
	a64_site_t *sites; /* by offset; entry, offset, return at one */
	const char *refused;
} a64_sites_t;

#define A64_SITES_OK	  0
#define A64_SITES_REFUSED 1
#define A64_SITES_ENOMEM  (-1)

extern int a64_sites_scan(
    const uint8_t *code, size_t size, uint64_t addr, a64_sites_t *out);
extern void a64_sites_free(a64_sites_t *s);

/* The site of the kind at off, or NULL. */
extern const a64_site_t *a64_sites_find(
    const a64_sites_t *s, a64_site_kind_t kind, size_t off);

#ifdef __cplusplus
}
#endif

#endif /* ISA_AARCH64_A64_SITES_H */
