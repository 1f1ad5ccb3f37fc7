/* SPDX-License-Identifier: MIT */
/*
 * dt_cons_spec.c: the consumer's half of speculative tracing, and the
 * reports of what the engines dropped.
 *
 * Speculations.  An engine writes the records of a clause that calls
 * speculate(id) to the principal buffer like any other, having
 * dropped those whose ID is 0 or not active (common/engine/dt_spec.h).
 * The consumer holds them per ID, in the order they arrive, until a
 * record with commit(id) -- then prints them as if they had just arrived,
 * so a commit of several clauses' data prints them in the order they were
 * speculated -- or discard(id), which drops them.  What is still held
 * when tracing ends was never committed and is not printed, as in DTrace.
 *
 * Engines hand over records CPU by CPU, so a record speculated on CPU 1
 * can arrive after the commit() that CPU 0 did later, and after the ID
 * was reused (a busy speculation is cleaned within cleanrate, whether or
 * not the consumer has caught up).  Records of one CPU arrive in order;
 * across CPUs their timestamps tell.  So a commit or discard settles what
 * is held from its own CPU and what other CPUs wrote before it, and is
 * remembered for the rest of the drain: a record of another CPU arriving
 * later goes with the first commit or discard written after it.  Which
 * one that is cannot be known from the buffers read so far -- CPU 1's
 * own discard, written between its record and CPU 0's commit, comes
 * later in CPU 1's buffer -- so every buffer of a drain is scanned for
 * commits and discards first (dt_consume_spec_scan()).
 *
 * Drops.  dt_consume_status() prints DTrace's lines for every counter
 * that grew since the last report, on stderr:
 *
 *	dtrace: 3 dynamic variable drops
 *	dtrace: 2 speculative drops
 *	dtrace: 1 failed speculation (available buffer(s) still busy)
 *	dtrace: 5 failed speculations (no speculative buffer available)
 *	dtrace: 12 aggregation drops on CPU 0
 *	dtrace: 7 drops on CPU 1
 */
#include <stdlib.h>
#include <string.h>

#include "common/consumer/dt_cons_impl.h"

/* The ID of the first of the statement's speculate() (spec) or commit()
 * and discard() actions in a record. */
static uint64_t
dt_cons_spec_find(dt_consumer_t *dc, const dt_stmt_t *stp,
    const unsigned char *data, bool spec, dt_actkind_t *kindp)
{
	for (uint32_t a = 0; a < stp->st_nactions; a++) {
		dt_actkind_t kind = stp->st_actions[a].ac_kind;
		const dt_consact_t *ca;

		if (spec ? kind != DT_ACT_SPECULATE :
		    kind != DT_ACT_COMMIT && kind != DT_ACT_DISCARD)
			continue;
		if ((ca = dt_consact(dc, stp, a)) == NULL || ca->ca_nrecs == 0)
			return 0;
		*kindp = kind;
		return dt_rec_uint(&ca->ca_recs[0],
		    data + ca->ca_recs[0].rd_offset);
	}
	return 0;
}

uint64_t
dt_cons_spec_id(dt_consumer_t *dc, const dt_stmt_t *stp,
    const unsigned char *data, dt_actkind_t *kindp)
{
	/* A speculative clause's ID is speculate()'s, wherever. */
	return dt_cons_spec_find(dc, stp, data, stp->st_speculative, kindp);
}

uint64_t
dt_cons_spec_endid(dt_consumer_t *dc, const dt_stmt_t *stp,
    const unsigned char *data, dt_actkind_t *kindp)
{
	return dt_cons_spec_find(dc, stp, data, false, kindp);
}

/* The consumer's state of speculation id, or NULL for an invalid ID. */
static dt_cspec_t *
dt_cons_spec(dt_consumer_t *dc, uint64_t id)
{
	uint64_t nspec = (uint64_t) dc->dc_dtp->dt_options[DT_OPT_NSPEC];
	dt_cspec_t *p;

	if (id == 0 || id > nspec)
		return NULL;
	if (id > dc->dc_nspecs) {
		if ((p = realloc(dc->dc_specs, id * sizeof (*p))) == NULL)
			return NULL;
		memset(p + dc->dc_nspecs, 0,
		    (id - dc->dc_nspecs) * sizeof (*p));
		dc->dc_specs = p;
		dc->dc_nspecs = (uint32_t) id;
	}
	return &dc->dc_specs[id - 1];
}

/* Hold a record (its CPU, header and data) for speculation cs. */
static int
dt_cons_spec_hold(dt_consumer_t *dc, dt_cspec_t *cs, uint32_t cpu,
    const dt_rechdr_t *rh, const unsigned char *data)
{
	size_t need = 8 + sizeof (*rh) + (((size_t) rh->rh_size + 7) & ~7UL);
	unsigned char *p;

	if (cs->cs_len + need > cs->cs_cap) {
		size_t cap = cs->cs_cap ? cs->cs_cap * 2 : 1024;

		while (cap < cs->cs_len + need)
			cap *= 2;
		if ((p = realloc(cs->cs_buf, cap)) == NULL)
			return dt_cons_nomem(dc);
		cs->cs_buf = p;
		cs->cs_cap = cap;
	}
	p = cs->cs_buf + cs->cs_len;
	memset(p, 0, need);
	memcpy(p, &cpu, sizeof (cpu));
	memcpy(p + 8, rh, sizeof (*rh));
	memcpy(p + 8 + sizeof (*rh), data, rh->rh_size);
	cs->cs_len += need;
	return 0;
}

/* The index of the first end at or after ts (cs_ends is by time). */
static uint32_t
dt_cons_spec_first_end(const dt_cspec_t *cs, uint64_t ts)
{
	uint32_t lo = 0, hi = cs->cs_nends;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (cs->cs_ends[mid].ce_ts < ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int
dt_cons_spec_take(dt_consumer_t *dc, uint32_t cpu, const dt_rechdr_t *rh,
    const unsigned char *data)
{
	dt_actkind_t kind = DT_ACT_SPECULATE;
	uint64_t id = dt_cons_spec_id(dc, dc->dc_probes[rh->rh_epid]->cp_stmt,
	    data, &kind);
	dt_cspec_t *cs = dt_cons_spec(dc, id);
	uint32_t i;

	if (cs == NULL)
		return 1;
	/*
	 * Written before a commit or discard already seen: it belongs to
	 * the first one after it.  If that one is of its own CPU, it came
	 * later in the same firing, and the record starts the next use.
	 */
	i = dt_cons_spec_first_end(cs, rh->rh_timestamp);
	if (i < cs->cs_nends && cs->cs_ends[i].ce_cpu != cpu &&
	    cs->cs_ends[i].ce_seen)
		return cs->cs_ends[i].ce_kind == DT_ACT_COMMIT ? 0 : 1;
	return dt_cons_spec_hold(dc, cs, cpu, rh, data) < 0 ? -1 : 1;
}

/* Note a commit or discard of speculation cs (kept by time). */
static int
dt_cons_spec_note(dt_consumer_t *dc, dt_cspec_t *cs, dt_actkind_t kind,
    uint32_t cpu, uint64_t ts, bool seen)
{
	uint32_t i = dt_cons_spec_first_end(cs, ts);

	/* Found ahead by the scan: now its record has come. */
	for (uint32_t j = i; j < cs->cs_nends && cs->cs_ends[j].ce_ts == ts;
	    j++) {
		if (cs->cs_ends[j].ce_cpu == cpu &&
		    cs->cs_ends[j].ce_kind == kind && !cs->cs_ends[j].ce_seen) {
			cs->cs_ends[j].ce_seen = seen;
			return 0;
		}
	}
	if (cs->cs_nends == cs->cs_endcap) {
		uint32_t cap = cs->cs_endcap ? 2 * cs->cs_endcap : 4;
		dt_cspec_end_t *p = realloc(cs->cs_ends, cap * sizeof (*p));

		if (p == NULL)
			return dt_cons_nomem(dc);
		cs->cs_ends = p;
		cs->cs_endcap = cap;
	}
	/* Kept by time; they arrive in order but for other CPUs' runs. */
	i = dt_cons_spec_first_end(cs, ts + 1);
	memmove(&cs->cs_ends[i + 1], &cs->cs_ends[i],
	    (cs->cs_nends - i) * sizeof (cs->cs_ends[0]));
	cs->cs_ends[i].ce_kind = kind;
	cs->cs_ends[i].ce_cpu = cpu;
	cs->cs_ends[i].ce_ts = ts;
	cs->cs_ends[i].ce_seen = seen;
	cs->cs_nends++;
	return 0;
}

int
dt_consume_spec_scan(dtrace_hdl_t *dtp, uint32_t cpu, const void *buf,
    size_t len)
{
	dt_consumer_t *dc = dt_consumer(dtp);
	const unsigned char *p = buf, *end = p + len;

	if (dc == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	while (dc->dc_pgp != NULL && p + sizeof (dt_rechdr_t) <= end) {
		const unsigned char *data = p + sizeof (dt_rechdr_t);
		const dt_cprobe_t *cp;
		dt_actkind_t kind;
		dt_rechdr_t rh;
		dt_cspec_t *cs;
		uint64_t id;

		memcpy(&rh, p, sizeof (rh));
		if (rh.rh_epid == DT_EPID_NONE) {
			p += 8;
			continue;
		}
		if (rh.rh_size > (size_t) (end - data))
			break;	/* dt_consume_buf() says so */
		p = data + (((size_t) rh.rh_size + 7) & ~(size_t) 7);
		if (rh.rh_epid == DT_EPID_FAULT || rh.rh_epid >= dc->dc_nprobes ||
		    (cp = dc->dc_probes[rh.rh_epid]) == NULL ||
		    cp->cp_stmt == NULL || dt_consact(dc, cp->cp_stmt, 0) == NULL)
			continue;
		id = cp->cp_stmt->st_speculative ?
		    dt_cons_spec_endid(dc, cp->cp_stmt, data, &kind) :
		    dt_cons_spec_id(dc, cp->cp_stmt, data, &kind);
		if (id != 0 && (kind == DT_ACT_COMMIT ||
		    kind == DT_ACT_DISCARD) && (cs = dt_cons_spec(dc, id)) !=
		    NULL && dt_cons_spec_note(dc, cs, kind, cpu,
		    rh.rh_timestamp, false) != 0)
			return -1;
	}
	return 0;
}

int
dt_cons_spec_end(dt_consumer_t *dc, FILE *fp, dt_actkind_t kind,
    uint64_t id, uint32_t cpu, uint64_t ts)
{
	dt_cspec_t *cs = dt_cons_spec(dc, id);
	unsigned char *buf;
	size_t len, cap;
	int rv = 0;

	if (cs == NULL)
		return 0;
	if (dt_cons_spec_note(dc, cs, kind, cpu, ts, true) != 0)
		return -1;

	/*
	 * What is held from this CPU came before the commit; from other
	 * CPUs, what was written before it.  The rest, written later on
	 * other CPUs, belongs to the speculation's next use.
	 */
	buf = cs->cs_buf;
	len = cs->cs_len;
	cap = cs->cs_cap;
	cs->cs_buf = NULL;
	cs->cs_len = cs->cs_cap = 0;
	for (size_t off = 0; rv == 0 && off < len;) {
		const unsigned char *data = buf + off + 8 + sizeof (dt_rechdr_t);
		dt_rechdr_t rh;
		uint32_t rcpu;

		memcpy(&rcpu, buf + off, sizeof (rcpu));
		memcpy(&rh, buf + off + 8, sizeof (rh));
		off += 8 + sizeof (rh) + (((size_t) rh.rh_size + 7) & ~7UL);
		if (rcpu != cpu && rh.rh_timestamp > ts)
			rv = dt_cons_spec_hold(dc, cs, rcpu, &rh, data);
		else if (kind == DT_ACT_COMMIT)
			rv = dt_consume_rec(dc, fp, rcpu, &rh,
			    dc->dc_probes[rh.rh_epid], data, data, data);
	}
	/* Nothing held any more: keep the buffer for the next use. */
	if (cs->cs_buf == NULL) {
		cs->cs_buf = buf;
		cs->cs_cap = cap;
	} else {
		free(buf);
	}
	return rv;
}

void
dt_consume_drained(dtrace_hdl_t *dtp)
{
	dt_consumer_t *dc = dtp->dt_consumer;

	if (dc == NULL)
		return;
	for (uint32_t i = 0; i < dc->dc_nspecs; i++)
		dc->dc_specs[i].cs_nends = 0;
}

void
dt_cons_spec_free(dt_consumer_t *dc)
{
	for (uint32_t i = 0; i < dc->dc_nspecs; i++) {
		free(dc->dc_specs[i].cs_buf);
		free(dc->dc_specs[i].cs_ends);
	}
	free(dc->dc_specs);
	dc->dc_specs = NULL;
	dc->dc_nspecs = 0;
	free(dc->dc_cpudrops);
	dc->dc_cpudrops = NULL;
	dc->dc_ncpudrops = 0;
	memset(&dc->dc_status, 0, sizeof (dc->dc_status));
}

/*
 * With -x droptags a drop report starts with the kind of drop, as DTrace
 * names it ("dtrace: [DTRACEDROP_SPEC] 1 speculative drop"), for scripts
 * that tell the kinds apart.
 */
static const char *
dt_cons_droptag(dtrace_hdl_t *dtp, const char *tag, char *buf, size_t len)
{
	if (dtp->dt_options[DT_OPT_DROPTAGS] == DTRACEOPT_UNSET)
		return "";
	snprintf(buf, len, "[DTRACEDROP_%s] ", tag);
	return buf;
}

/* "dtrace: 3 speculative drops": what a counter grew by, if anything. */
static void
dt_cons_report(dtrace_hdl_t *dtp, dt_consumer_t *dc, uint64_t old,
    uint64_t new, const char *tag, const char *what, const char *suffix)
{
	uint64_t n = new - old;
	char buf[64];

	if (new <= old)
		return;
	(void) fprintf(dc->dc_errfp, "dtrace: %s%llu %s%s%s\n",
	    dt_cons_droptag(dtp, tag, buf, sizeof (buf)),
	    (unsigned long long) n, what, n > 1 ? "s" : "", suffix);
}

int
dt_consume_status(dtrace_hdl_t *dtp, const dt_engine_status_t *st)
{
	dt_consumer_t *dc = dt_consumer(dtp);
	dt_engine_status_t *old;

	if (dc == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	old = &dc->dc_status;
	dt_cons_report(dtp, dc, old->es_dyndrops, st->es_dyndrops, "DYNAMIC",
	    "dynamic variable drop", "");
	dt_cons_report(dtp, dc, old->es_specdrops, st->es_specdrops, "SPEC",
	    "speculative drop", "");
	dt_cons_report(dtp, dc, old->es_specbusy, st->es_specbusy, "SPECBUSY",
	    "failed speculation", " (available buffer(s) still busy)");
	dt_cons_report(dtp, dc, old->es_specunavail, st->es_specunavail,
	    "SPECUNAVAIL", "failed speculation",
	    " (no speculative buffer available)");
	*old = *st;
	(void) fflush(dc->dc_errfp);
	return 0;
}

int
dt_consume_cpudrops(dtrace_hdl_t *dtp, const uint64_t *drops, uint32_t ncpus,
    bool agg)
{
	dt_consumer_t *dc = dt_consumer(dtp);
	uint32_t base = agg ? 0 : ncpus;
	uint64_t *last;
	char tag[64];

	if (dc == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	/* Aggregation drops in [0, ncpus), principal drops after them. */
	if (dc->dc_ncpudrops != ncpus) {
		if ((last = calloc(2 * (size_t) ncpus + 1, sizeof (*last))) ==
		    NULL)
			return dt_cons_nomem(dc);
		free(dc->dc_cpudrops);
		dc->dc_cpudrops = last;
		dc->dc_ncpudrops = ncpus;
	}
	last = dc->dc_cpudrops + base;
	for (uint32_t c = 0; c < ncpus; c++) {
		uint64_t now = drops[c] + (agg ? 0 : dt_cons_policy_drops(dc, c));
		uint64_t n = now - last[c];

		if (now <= last[c])
			continue;
		/* Under fill, a drop anywhere means a buffer is full. */
		if (!agg && dtp->dt_options[DT_OPT_BUFPOLICY] ==
		    DT_BUFPOLICY_FILL)
			dc->dc_filled = true;
		(void) fprintf(dc->dc_errfp, "dtrace: %s%llu %sdrop%s on CPU "
					     "%u\n",
		    dt_cons_droptag(dtp, agg ? "AGGREGATION" : "PRINCIPAL",
			tag, sizeof (tag)),
		    (unsigned long long) n, agg ? "aggregation " : "",
		    n > 1 ? "s" : "", c);
		last[c] = now;
	}
	(void) fflush(dc->dc_errfp);
	return 0;
}
