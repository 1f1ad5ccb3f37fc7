/* SPDX-License-Identifier: MIT */
/*
 * dt_cons_bufpolicy.c: DTrace's principal buffer policies, applied where
 * the engines' records arrive, so that every engine has them.
 *
 *	switch	(the default) records are printed as they are drained
 *	fill	each CPU's buffer takes bufsize bytes of records in all;
 *		once one is full (here, or in the engine's own buffer: any
 *		drop counts), what follows is dropped (and reported as
 *		drops) and tracing stops as after exit(), except that the
 *		END probe's records are still printed: DTrace keeps room
 *		for them
 *	ring	each CPU keeps its most recent bufsize bytes of records,
 *		older ones being overwritten, and nothing is printed until
 *		tracing stops; then the rings are printed CPU by CPU.  An
 *		exit() record still stops tracing when it arrives.
 *
 * A record's size here is its header and its data padded to 8 bytes, as
 * an engine writes it (dt_program.h).
 */
#include <stdlib.h>
#include <string.h>

#include "common/consumer/dt_cons_impl.h"
#include "common/prov/dt_prov.h"

static dt_cbuf_t *
dt_cons_cbuf(dt_consumer_t *dc, uint32_t cpu)
{
	dt_cbuf_t *p;

	if (cpu >= DT_ENGINE_MAXCPUS)
		cpu = DT_ENGINE_MAXCPUS - 1;
	if (cpu >= dc->dc_ncbufs) {
		if ((p = realloc(dc->dc_cbufs, (cpu + 1) * sizeof (*p))) ==
		    NULL)
			return NULL;
		memset(p + dc->dc_ncbufs, 0,
		    (cpu + 1 - dc->dc_ncbufs) * sizeof (*p));
		dc->dc_cbufs = p;
		dc->dc_ncbufs = cpu + 1;
	}
	return &dc->dc_cbufs[cpu];
}

static size_t
dt_rec_len(const dt_rechdr_t *rh)
{
	return sizeof (*rh) + (((size_t) rh->rh_size + 7) & ~(size_t) 7);
}

/* exit() takes effect when its record arrives, even under ring. */
static void
dt_cons_exit_peek(dt_consumer_t *dc, const dt_cprobe_t *cp,
    const unsigned char *data)
{
	const dt_stmt_t *stp = cp->cp_stmt;

	for (uint32_t a = 0; a < stp->st_nactions; a++) {
		const dt_consact_t *ca;

		if (stp->st_actions[a].ac_kind != DT_ACT_EXIT ||
		    (ca = dt_consact(dc, stp, a)) == NULL)
			continue;
		dc->dc_exited = true;
		dc->dc_exitstatus = ca->ca_nrecs > 0 ? (int) dt_rec_sint(
		    &ca->ca_recs[0], data + ca->ca_recs[0].rd_offset) : 0;
	}
}

/* Keep a record in cpu's ring, forgetting the oldest beyond bufsize. */
static int
dt_cons_ring_add(dt_consumer_t *dc, dt_cbuf_t *cb, uint32_t cpu,
    const dt_rechdr_t *rh, const unsigned char *data, uint64_t bufsize)
{
	size_t len = dt_rec_len(rh);
	unsigned char *p;

	if (cb->cb_start > 0 && cb->cb_start >= cb->cb_len / 2) {
		memmove(cb->cb_ring, cb->cb_ring + cb->cb_start,
		    cb->cb_len - cb->cb_start);
		cb->cb_len -= cb->cb_start;
		cb->cb_start = 0;
	}
	if (cb->cb_len + 8 + len > cb->cb_cap) {
		size_t cap = cb->cb_cap ? cb->cb_cap : 4096;

		while (cap < cb->cb_len + 8 + len)
			cap *= 2;
		if ((p = realloc(cb->cb_ring, cap)) == NULL)
			return dt_cons_nomem(dc);
		cb->cb_ring = p;
		cb->cb_cap = cap;
	}
	p = cb->cb_ring + cb->cb_len;
	memset(p, 0, 8 + len);
	memcpy(p, &cpu, sizeof (cpu));
	memcpy(p + 8, rh, sizeof (*rh));
	memcpy(p + 8 + sizeof (*rh), data, rh->rh_size);
	cb->cb_len += 8 + len;
	cb->cb_bytes += len;
	while (cb->cb_bytes > bufsize && cb->cb_start < cb->cb_len) {
		dt_rechdr_t old;

		memcpy(&old, cb->cb_ring + cb->cb_start + 8, sizeof (old));
		cb->cb_start += 8 + dt_rec_len(&old);
		cb->cb_bytes -= dt_rec_len(&old);
	}
	return 0;
}

int
dt_cons_bufpolicy(dt_consumer_t *dc, uint32_t cpu, const dt_rechdr_t *rh,
    const dt_cprobe_t *cp, const unsigned char *data)
{
	dtrace_hdl_t *dtp = dc->dc_dtp;
	int64_t policy = dtp->dt_options[DT_OPT_BUFPOLICY];
	uint64_t bufsize = (uint64_t) dtp->dt_options[DT_OPT_BUFSIZE];
	size_t len = dt_rec_len(rh);
	dt_cbuf_t *cb;

	if (dc->dc_ringout || (policy != DT_BUFPOLICY_FILL &&
	    policy != DT_BUFPOLICY_RING))
		return 0;
	if ((cb = dt_cons_cbuf(dc, cpu)) == NULL)
		return dt_cons_nomem(dc);
	if (policy == DT_BUFPOLICY_RING) {
		if (cp != NULL)
			dt_cons_exit_peek(dc, cp, data);
		return dt_cons_ring_add(dc, cb, cpu, rh, data, bufsize) < 0 ?
		    -1 : 1;
	}
	if (cp != NULL && cp->cp_id == DT_PROBE_ID_END)
		return 0;
	if (dc->dc_filled || cb->cb_used + len > bufsize) {
		dc->dc_filled = true;
		cb->cb_drops++;
		return 1;
	}
	cb->cb_used += len;
	return 0;
}

int
dt_consume_ring(dtrace_hdl_t *dtp, FILE *fp)
{
	dt_consumer_t *dc = dtp->dt_consumer;
	int rv = 0;

	if (dc == NULL)
		return 0;
	dc->dc_ringout = true;
	for (uint32_t c = 0; c < dc->dc_ncbufs; c++) {
		dt_cbuf_t *cb = &dc->dc_cbufs[c];

		for (size_t off = cb->cb_start; rv >= 0 && off < cb->cb_len;) {
			dt_rechdr_t rh;
			uint32_t cpu;

			memcpy(&cpu, cb->cb_ring + off, sizeof (cpu));
			memcpy(&rh, cb->cb_ring + off + 8, sizeof (rh));
			rv = dt_consume_buf(dtp, fp, cpu, cb->cb_ring + off + 8,
			    dt_rec_len(&rh));
			off += 8 + dt_rec_len(&rh);
		}
		free(cb->cb_ring);
		cb->cb_ring = NULL;
		cb->cb_start = cb->cb_len = cb->cb_cap = cb->cb_bytes = 0;
	}
	return rv < 0 ? -1 : 0;
}

bool
dt_consume_filled(dtrace_hdl_t *dtp)
{
	return dtp->dt_consumer != NULL && dtp->dt_consumer->dc_filled;
}

uint64_t
dt_cons_policy_drops(const dt_consumer_t *dc, uint32_t cpu)
{
	return cpu < dc->dc_ncbufs ? dc->dc_cbufs[cpu].cb_drops : 0;
}

void
dt_cons_bufpolicy_free(dt_consumer_t *dc)
{
	for (uint32_t c = 0; c < dc->dc_ncbufs; c++)
		free(dc->dc_cbufs[c].cb_ring);
	free(dc->dc_cbufs);
	dc->dc_cbufs = NULL;
	dc->dc_ncbufs = 0;
	dc->dc_filled = false;
	dc->dc_ringout = false;
}
