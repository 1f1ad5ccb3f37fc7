/* SPDX-License-Identifier: MIT */
/*
 * x86_sites.h: the probe sites of an x86-64 function, for the pid provider.
 *
 * Given the code bytes of one function (as its symbol gives them: start
 * address and size), x86_sites_scan() lists where the pid provider may
 * place probes:
 *
 *	entry		offset 0: pid123::func:entry
 *	offset		every instruction boundary, in order:
 *			pid123::func:1c names the instruction at +0x1c,
 *			and only an instruction boundary is a site
 *	return		every ret / ret imm16, and every relative jump out
 *			of the function (a tail call, see below)
 *
 * An instruction is therefore listed once as an offset site, and again as
 * the entry site (offset 0) or as a return site where that applies.
 *
 * Tail calls.  As the Solaris fasttrap provider did, a relative branch
 * that is not a call (jmp, jcc, loop, jrcxz) and whose target lies outside
 * [addr, addr + size) is a return site with tailcall set.  A conditional
 * one leaves the function only when taken, so the return probe of a
 * tailcall site must fire only when the pc after the instruction is
 * outside the function; a plain ret always fires.  Indirect jumps
 * (jmp *%rax, jmp *foo@GOTPCREL(%rip)) are not return sites: their target
 * is not known here, and a tail call through a pointer is missed, as it
 * is in DTrace.
 *
 * Refusals.  The whole function is refused, with no sites at all, when
 * its bytes cannot be taken apart into instructions with confidence: a
 * byte sequence that does not decode, an instruction that runs past the
 * end, a direct branch into the middle of an instruction, or data that
 * the code itself shows to lie inside the function (a jump table or
 * constant it addresses).  A wrong instruction boundary corrupts the
 * traced program, so there is no partial answer.  Otherwise each site
 * whose instruction the emulator refuses (x86_strategy()) is listed with
 * probeable clear and a reason.  What is not detected is listed at the
 * top of x86_sites.c.
 *
 * Pure C11, no OS headers.
 */

#ifndef	ISA_X86_64_X86_SITES_H
#define	ISA_X86_64_X86_SITES_H

#include <stddef.h>
#include <stdint.h>

#ifdef	__cplusplus
extern "C" {
#endif

typedef enum x86_site_kind {
	X86_SITE_ENTRY,
	X86_SITE_OFFSET,
	X86_SITE_RETURN
} x86_site_kind_t;

typedef struct x86_site {
	uint32_t	off;		/* offset of the instruction */
	uint8_t		len;		/* its length in bytes */
	uint8_t		kind;		/* x86_site_kind_t */
	uint8_t		cf;		/* its x86_cf_t */
	uint8_t		strategy;	/* its x86_strategy_t */
	uint8_t		tailcall;	/* return by a branch out: fire only */
					/*   if the new pc is outside */
	uint8_t		probeable;	/* a probe may be placed here */
	const char	*reason;	/* why not, NULL if probeable */
} x86_site_t;

/*
 * The result of a scan.  sites[] is sorted by offset, and at one offset
 * the entry site comes before the offset site, which comes before the
 * return site.  When the function is refused, nsites is 0 and refused
 * and refused_off say why and at which offset.
 */
typedef struct x86_sites {
	uint64_t	addr;		/* the function's address */
	size_t		size;		/* and size */
	size_t		ninsns;		/* instructions decoded */
	size_t		nsites;
	x86_site_t	*sites;
	const char	*refused;	/* whole function refused: why */
	size_t		refused_off;	/* where the problem is */
} x86_sites_t;

/* x86_sites_scan() results. */
#define	X86_SITES_OK		0
#define	X86_SITES_REFUSED	1	/* see out->refused */
#define	X86_SITES_ENOMEM	(-1)	/* out is left empty */

/*
 * Scan the size bytes at code, which live at address addr in the traced
 * process.  out is always initialized; release it with x86_sites_free().
 */
extern int x86_sites_scan(const uint8_t *code, size_t size, uint64_t addr,
    x86_sites_t *out);

extern void x86_sites_free(x86_sites_t *s);

/* The i-th site, or NULL past the end. */
extern const x86_site_t *x86_sites_get(const x86_sites_t *s, size_t i);

/*
 * The site of the given kind at offset off, or NULL if there is none
 * (for X86_SITE_OFFSET: off is not an instruction boundary).
 */
extern const x86_site_t *x86_sites_find(const x86_sites_t *s,
    x86_site_kind_t kind, size_t off);

/* "entry", "offset" or "return". */
extern const char *x86_site_kind_name(x86_site_kind_t kind);

#ifdef	__cplusplus
}
#endif

#endif	/* ISA_X86_64_X86_SITES_H */
