/* SPDX-License-Identifier: MIT */
/*
 * a64_sites.c: probe sites of an AArch64 function (see a64_sites.h).
 *
 * Two passes over the words: the first marks the words the function's
 * own literal loads read (data) and the exclusive sequences; the second
 * lists the sites.  Fixed-width instructions leave no boundary to get
 * wrong, so unlike x86-64 a function is never refused for its content.
 */

#include <stdlib.h>

#include "isa/aarch64/a64_decode.h"
#include "isa/aarch64/a64_emulate.h"
#include "isa/aarch64/a64_sites.h"

#define A64_W_DATA 0x1 /* read by a literal load: not code */
#define A64_W_EXCL 0x2 /* inside an exclusive sequence */

static const char a64_in_excl[] = "inside an exclusive load/store sequence";

/* Mark from the load-exclusive at word i to the sequence's end. */
static void
a64_mark_excl(const uint8_t *code, size_t n, size_t i, uint8_t *flags)
{
	for (size_t j = i + 1; j < n && j <= i + A64_EXCL_WINDOW; j++) {
		a64_insn_t in;

		if (flags[j] & A64_W_DATA)
			break;
		a64_decode(a64_word(code + 4 * j), 0, &in);
		if (in.cls == A64_C_RET)
			break; /* the sequence was abandoned */
		flags[j] |= A64_W_EXCL;
		if (in.cls == A64_C_STEX || in.cls == A64_C_CLREX)
			break;
	}
}

static int
a64_add(a64_sites_t *s, size_t *cap, const a64_site_t *site)
{
	if (s->nsites == *cap) {
		size_t ncap = *cap ? *cap * 2 : 64;
		a64_site_t *p = realloc(s->sites, ncap * sizeof(*p));

		if (p == NULL)
			return -1;
		s->sites = p;
		*cap = ncap;
	}
	s->sites[s->nsites++] = *site;
	return 0;
}

int
a64_sites_scan(
    const uint8_t *code, size_t size, uint64_t addr, a64_sites_t *out)
{
	size_t n = size / 4, cap = 0;
	uint8_t *flags;

	*out = (a64_sites_t){.addr = addr, .size = size};
	if (size == 0 || (size & 3) != 0 || (addr & 3) != 0) {
		out->refused = "not a whole number of aligned instructions";
		return A64_SITES_REFUSED;
	}
	if ((flags = calloc(n, 1)) == NULL)
		return A64_SITES_ENOMEM;

	for (size_t i = 0; i < n; i++) {
		a64_insn_t in;

		a64_decode(a64_word(code + 4 * i), addr + 4 * i, &in);
		if (in.cls != A64_C_LDR_LIT || in.target < addr ||
		    in.target - addr >= size)
			continue;
		for (size_t b = 0; b < in.size; b += 4)
			if ((in.target - addr + b) / 4 < n)
				flags[(in.target - addr + b) / 4] |= A64_W_DATA;
	}
	for (size_t i = 0; i < n; i++) {
		a64_insn_t in;

		if (flags[i] & A64_W_DATA)
			continue;
		a64_decode(a64_word(code + 4 * i), 0, &in);
		if (in.cls == A64_C_LDEX)
			a64_mark_excl(code, n, i, flags);
	}

	for (size_t i = 0; i < n; i++) {
		uint64_t pc = addr + 4 * i;
		a64_site_t site = {.off = (uint32_t) (4 * i)};
		a64_insn_t in;

		if (flags[i] & A64_W_DATA) {
			out->ndata++;
			continue;
		}
		out->ninsns++;
		a64_decode(a64_word(code + 4 * i), pc, &in);
		site.cls = in.cls;
		site.strategy = (uint8_t) a64_strategy(&in);
		site.reason = a64_refusal(&in);
		if (site.reason == NULL && (flags[i] & A64_W_EXCL))
			site.reason = a64_in_excl;
		site.probeable = site.reason == NULL;

		if (i == 0) {
			site.kind = A64_SITE_ENTRY;
			if (a64_add(out, &cap, &site) != 0)
				goto nomem;
		}
		site.kind = A64_SITE_OFFSET;
		if (a64_add(out, &cap, &site) != 0)
			goto nomem;

		if (in.cls == A64_C_RET || in.cls == A64_C_RET_PAC) {
			site.kind = A64_SITE_RETURN;
		} else if ((in.cls == A64_C_B || in.cls == A64_C_BCOND ||
			       (in.cls >= A64_C_CBZ && in.cls <= A64_C_TBNZ)) &&
		    (in.target < addr || in.target - addr >= size)) {
			site.kind = A64_SITE_RETURN;
			site.tailcall = 1;
			site.cond = in.cls != A64_C_B &&
			    !(in.cls == A64_C_BCOND && in.cond >= 14);
		} else {
			continue;
		}
		if (a64_add(out, &cap, &site) != 0)
			goto nomem;
	}
	free(flags);
	return A64_SITES_OK;
nomem:
	free(flags);
	a64_sites_free(out);
	return A64_SITES_ENOMEM;
}

void
a64_sites_free(a64_sites_t *s)
{
	free(s->sites);
	s->sites = NULL;
	s->nsites = 0;
}

const a64_site_t *
a64_sites_find(const a64_sites_t *s, a64_site_kind_t kind, size_t off)
{
	for (size_t i = 0; i < s->nsites; i++)
		if (s->sites[i].off == off && s->sites[i].kind == kind)
			return &s->sites[i];
	return NULL;
}
