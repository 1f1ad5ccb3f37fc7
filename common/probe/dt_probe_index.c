/* SPDX-License-Identifier: MIT */
/*
 * dt_probe_index.c: probes by the names of their functions.  A
 * description that names one function (no pattern) meets only the probes
 * some name of that function belongs to, not every probe made so far:
 * a script of ten thousand such descriptions, one per function of a
 * program, otherwise matched each against all the probes the others had
 * made, and took a minute to start.  A probe is indexed under its
 * pr_func, and under every other name its provider's po_funcmatch
 * accepts for it (dt_probe_funcname_add()).
 */
#include <stdlib.h>
#include <string.h>

#include "common/dt_impl.h"
#include "common/probe/dt_probe.h"

typedef struct dt_fname {
	char *fn_name;
	uint32_t fn_id;		/* the probe */
	uint32_t fn_next;	/* the next node of its bucket + 1; 0: none */
} dt_fname_t;

struct dt_probe_index {
	uint32_t *pi_buckets;	/* node index + 1; 0: empty */
	uint32_t pi_nbuckets;	/* a power of two */
	dt_fname_t *pi_nodes;
	uint32_t pi_nnodes, pi_maxnodes;
};

static uint32_t
dt_fname_hash(const char *s)
{
	uint32_t h = 2166136261U;	/* FNV-1a */

	for (; *s != '\0'; s++)
		h = (h ^ (uint8_t) *s) * 16777619U;
	return h;
}

/* Doubles the buckets and links every node again. */
static int
dt_probe_index_grow(struct dt_probe_index *ix)
{
	uint32_t n = ix->pi_nbuckets ? ix->pi_nbuckets * 2 : 1024;
	uint32_t *b = calloc(n, sizeof (*b));

	if (b == NULL)
		return -1;
	free(ix->pi_buckets);
	ix->pi_buckets = b;
	ix->pi_nbuckets = n;
	for (uint32_t i = 0; i < ix->pi_nnodes; i++) {
		uint32_t h = dt_fname_hash(ix->pi_nodes[i].fn_name) & (n - 1);

		ix->pi_nodes[i].fn_next = b[h];
		b[h] = i + 1;
	}
	return 0;
}

int
dt_probe_funcname_add(dtrace_hdl_t *dtp, const dt_probe_t *prp,
    const char *name)
{
	struct dt_probe_index *ix = dtp->dt_probeidx;
	dt_fname_t *fn;
	uint32_t h;

	if (ix == NULL &&
	    (ix = dtp->dt_probeidx = calloc(1, sizeof (*ix))) == NULL)
		return -1;
	if (ix->pi_nnodes == ix->pi_maxnodes) {
		uint32_t max = ix->pi_maxnodes ? ix->pi_maxnodes * 2 : 1024;
		dt_fname_t *p = realloc(ix->pi_nodes, max * sizeof (*p));

		if (p == NULL)
			return -1;
		ix->pi_nodes = p;
		ix->pi_maxnodes = max;
	}
	if (ix->pi_nnodes >= ix->pi_nbuckets && dt_probe_index_grow(ix) != 0)
		return -1;
	fn = &ix->pi_nodes[ix->pi_nnodes];
	if ((fn->fn_name = strdup(name)) == NULL)
		return -1;
	fn->fn_id = prp->pr_id;
	h = dt_fname_hash(name) & (ix->pi_nbuckets - 1);
	fn->fn_next = ix->pi_buckets[h];
	ix->pi_buckets[h] = ++ix->pi_nnodes;
	return 0;
}

static int
dt_id_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b;

	return x < y ? -1 : x > y;
}

uint32_t *
dt_probe_funcname_ids(dtrace_hdl_t *dtp, const char *name, size_t *np)
{
	const struct dt_probe_index *ix = dtp->dt_probeidx;
	uint32_t *ids = NULL, *p;
	size_t n = 0, max = 0, k = 0;

	*np = 0;
	if (ix == NULL || ix->pi_nbuckets == 0)
		return calloc(1, sizeof (uint32_t));
	for (uint32_t i = ix->pi_buckets[dt_fname_hash(name) &
	    (ix->pi_nbuckets - 1)]; i != 0; i = ix->pi_nodes[i - 1].fn_next) {
		const dt_fname_t *fn = &ix->pi_nodes[i - 1];

		if (strcmp(fn->fn_name, name) != 0)
			continue;
		if (n == max) {
			max = max ? max * 2 : 8;
			if ((p = realloc(ids, max * sizeof (*p))) == NULL) {
				free(ids);
				return NULL;
			}
			ids = p;
		}
		ids[n++] = fn->fn_id;
	}
	if (ids == NULL)
		return calloc(1, sizeof (uint32_t));
	/* In ID order, once each, as a walk of every probe meets them. */
	qsort(ids, n, sizeof (*ids), dt_id_cmp);
	for (size_t i = 0; i < n; i++)
		if (k == 0 || ids[k - 1] != ids[i])
			ids[k++] = ids[i];
	*np = k;
	return ids;
}

void
dt_probe_index_free(dtrace_hdl_t *dtp)
{
	struct dt_probe_index *ix = dtp->dt_probeidx;

	if (ix == NULL)
		return;
	for (uint32_t i = 0; i < ix->pi_nnodes; i++)
		free(ix->pi_nodes[i].fn_name);
	free(ix->pi_nodes);
	free(ix->pi_buckets);
	free(ix);
	dtp->dt_probeidx = NULL;
}
