/* SPDX-License-Identifier: MIT */
/*
 * dt_demangle.c: C++ and Rust symbol names made readable, once each.
 *
 * See dt_demangle.h.  Only names that start as the Itanium ABI (_Z) or
 * Rust v0 (_R) manglings do are handed to the demangler (Rust's legacy
 * mangling is an Itanium name ending in a 17h<hash>E element, which
 * DMGL_AUTO recognises and prints without the hash, as rustc's own
 * demangler does by default): other styles DMGL_AUTO knows (GNAT's
 * double underscores, D's _D) would rewrite plain C names.
 *
 * Answers are interned in an open-addressing table keyed by the mangled
 * text: a stack printed a thousand times demangles each frame once, and
 * the pointers handed out stay valid, as the consumer's symbol strings
 * must.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "common/dt_demangle.h"

typedef struct dt_dmentry {
	char *de_mangled; /* NULL: empty slot */
	char *de_name;	  /* NULL: the demangler refused it */
} dt_dmentry_t;

static pthread_mutex_t dt_dm_lock = PTHREAD_MUTEX_INITIALIZER;
static dt_dmentry_t *dt_dm_tab;
static size_t dt_dm_cap, dt_dm_count;

bool
dt_demangle_mangled(const char *name)
{
	return name != NULL && name[0] == '_' &&
	    (name[1] == 'Z' || name[1] == 'R') && name[2] != '\0';
}

static uint64_t
dt_dm_hash(const char *s)
{
	uint64_t h = 14695981039346656037ULL; /* FNV-1a */

	while (*s != '\0')
		h = (h ^ (unsigned char) *s++) * 1099511628211ULL;
	return h;
}

static dt_dmentry_t *
dt_dm_slot(dt_dmentry_t *tab, size_t cap, const char *name)
{
	size_t i = (size_t) dt_dm_hash(name) & (cap - 1);

	while (
	    tab[i].de_mangled != NULL && strcmp(tab[i].de_mangled, name) != 0)
		i = (i + 1) & (cap - 1);
	return &tab[i];
}

/* Keep the table at most half full: 0, or -1 when out of memory. */
static int
dt_dm_grow(void)
{
	size_t cap = dt_dm_cap ? dt_dm_cap * 2 : 1024;
	dt_dmentry_t *tab;

	if (2 * (dt_dm_count + 1) <= dt_dm_cap)
		return 0;
	if ((tab = calloc(cap, sizeof(*tab))) == NULL)
		return -1;
	for (size_t i = 0; i < dt_dm_cap; i++) {
		if (dt_dm_tab[i].de_mangled != NULL)
			*dt_dm_slot(tab, cap, dt_dm_tab[i].de_mangled) =
			    dt_dm_tab[i];
	}
	free(dt_dm_tab);
	dt_dm_tab = tab;
	dt_dm_cap = cap;
	return 0;
}

const char *
dt_demangle(const char *name)
{
	dt_dmentry_t *de;
	const char *out = NULL;
	char *copy, *dem;

	if (!dt_demangle_mangled(name))
		return NULL;
	(void) pthread_mutex_lock(&dt_dm_lock);
	if (dt_dm_tab != NULL &&
	    (de = dt_dm_slot(dt_dm_tab, dt_dm_cap, name))->de_mangled != NULL) {
		out = de->de_name;
		goto done;
	}
	/*
	 * DMGL_PARAMS and DMGL_ANSI: C++ names with their parameter lists
	 * and qualifiers, as c++filt prints them (overloads stay apart).
	 */
	dem = cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI | DMGL_AUTO);
	if (dt_dm_grow() != 0 || (copy = strdup(name)) == NULL) {
		/* Out of memory: the raw name prints; nothing is kept. */
		free(dem);
		goto done;
	}
	de = dt_dm_slot(dt_dm_tab, dt_dm_cap, name);
	de->de_mangled = copy;
	de->de_name = dem;
	dt_dm_count++;
	out = dem;
done:
	(void) pthread_mutex_unlock(&dt_dm_lock);
	return out;
}
