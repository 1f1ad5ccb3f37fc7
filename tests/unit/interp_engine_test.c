/* SPDX-License-Identifier: MIT */
/*
 * interp_engine_test.c: the interpreter engine on hand-built programs.
 *
 * The programs are assembled DIF packed into a dt_program_t by hand, so
 * the engine is tested on its own: probe firing order, records in the one
 * record format, fault records and the ERROR probe, exit() stopping every
 * probe but END, tick timers and aggregation snapshots.
 */
#include "common/dif/dif_asm.h"
#include "common/dif/dif_interp.h"
#include "common/dif/dif_verify.h"
#include "common/dt_impl.h"
#include "common/engine/dt_engine.h"
#include "common/probe/dt_probe.h"
#include "common/prov/dt_prov.h"
#include "tests/unit/unit.h"

static dif_object_t *
assemble(const char *text)
{
	char err[256];
	dif_object_t *difo = dif_asm(text, err, sizeof (err));

	if (difo == NULL) {
		printf("assembly failed: %s\n%s\n", err, text);
		exit(1);
	}
	if (dif_verify(difo, err, sizeof (err)) != 0) {
		printf("verification failed: %s\n%s\n", err, text);
		exit(1);
	}
	return difo;
}

/* Everything the records drained from the engine hold, in order. */
static unsigned char drained[65536];
static size_t ndrained;

static int
collect(dtrace_hdl_t *dtp, uint32_t cpu, const void *buf, size_t len,
    void *arg)
{
	(void) dtp;
	(void) cpu;
	(void) arg;
	if (ndrained + len <= sizeof (drained)) {
		memcpy(drained + ndrained, buf, len);
		ndrained += len;
	}
	return 0;
}

/* The record at *offp, advancing past it. */
static const dt_rechdr_t *
next_record(size_t *offp)
{
	const dt_rechdr_t *rh;

	if (*offp + sizeof (*rh) > ndrained)
		return NULL;
	rh = (const dt_rechdr_t *) (drained + *offp);
	*offp += sizeof (*rh) + rh->rh_size;
	return rh;
}

static dt_stmt_t stmts[6];
static dt_action_t acts[6];
static dt_actarg_t args[6];
static dt_aggdesc_t aggs[1];
static dt_program_t prog;
static dt_eprobe_t eps[8];

static void
stmt_on(int i, const char *desc)
{
	stmts[i].st_id = (uint32_t) i;
	stmts[i].st_ndescs = 1;
	stmts[i].st_descs = calloc(1, sizeof (dt_probedesc_t));
	dt_probedesc_parse(desc, stmts[i].st_descs);
}

static void
one_action(int i, dt_actkind_t kind, const char *text, dt_rectype_t rt,
    uint32_t size)
{
	acts[i].ac_kind = kind;
	acts[i].ac_nargs = text != NULL ? 1 : 0;
	acts[i].ac_args = &args[i];
	args[i].aa_difo = text != NULL ? assemble(text) : NULL;
	args[i].aa_rec.rd_type = rt;
	args[i].aa_rec.rd_size = size;
	args[i].aa_rec.rd_align = size >= 8 ? 8 : 1;
	stmts[i].st_nactions = 1;
	stmts[i].st_actions = &acts[i];
	stmts[i].st_size = (size + 7) & ~7U;
}

static int
enable(dtrace_hdl_t *dtp, int s, const char *desc, uint32_t epid)
{
	dt_probedesc_t pd;
	dt_probe_t *prp = NULL;

	dt_probedesc_parse(desc, &pd);
	for (uint32_t id = 1; id <= dt_probe_count(dtp); id++) {
		if (dt_probe_match(dt_probe_lookup_id(dtp, id), &pd))
			prp = dt_probe_lookup_id(dtp, id);
	}
	if (prp == NULL)
		dt_probe_iter(dtp, &pd, NULL, NULL);
	for (uint32_t id = 1; prp == NULL && id <= dt_probe_count(dtp); id++) {
		if (dt_probe_match(dt_probe_lookup_id(dtp, id), &pd))
			prp = dt_probe_lookup_id(dtp, id);
	}
	CHECK(prp != NULL);
	eps[epid].ep_epid = epid;
	eps[epid].ep_probe = prp;
	eps[epid].ep_stmt = &stmts[s];
	eps[epid].ep_prog = &prog;
	return 0;
}

int
main(void)
{
	const dt_engine_ops_t *eng = &dt_interp_engine_ops;
	dt_eprobe_t *list[8];
	dtrace_hdl_t *dtp;
	const dt_rechdr_t *rh;
	dt_aggsnap_t *snaps;
	uint32_t nsnaps;
	size_t off = 0;
	int err;

	dtp = dtrace_open(DTRACE_VERSION, DTRACE_O_NODEV, &err);
	CHECK(dtp != NULL);
	if (dtp == NULL)
		return unit_done();

	/* 0: BEGIN { trace(42); } */
	stmt_on(0, "dtrace:::BEGIN");
	one_action(0, DT_ACT_TRACE, "setx 42, %r1\nret %r1\n", DT_REC_SINT, 8);
	/* 1: BEGIN { trace(*(int64_t *)0); } -- faults */
	stmt_on(1, "dtrace:::BEGIN");
	one_action(1, DT_ACT_TRACE, "setx 0, %r1\nldx [%r1], %r2\nret %r2\n",
	    DT_REC_SINT, 8);
	/* 2: tick-1ms { @ = count(); } */
	stmt_on(2, "profile:::tick-1ms");
	aggs[0].ag_id = 0;
	aggs[0].ag_name = "";
	aggs[0].ag_kind = DT_AGG_COUNT;
	aggs[0].ag_nvals = 1;
	acts[2].ac_kind = DT_ACT_AGGREGATE;
	acts[2].ac_aggid = 0;
	stmts[2].st_nactions = 1;
	stmts[2].st_actions = &acts[2];
	/* 3: tick-1ms /timestamp > 0/ { exit(3); } after the count */
	stmt_on(3, "profile:::tick-1ms");
	stmts[3].st_pred = assemble("ldgs timestamp, %r1\nret %r1\n");
	one_action(3, DT_ACT_EXIT, "setx 3, %r1\nret %r1\n", DT_REC_SINT, 4);
	/* 4: END { trace("bye"); } */
	stmt_on(4, "dtrace:::END");
	one_action(4, DT_ACT_TRACE, "sets \"bye\", %r1\nret %r1\n",
	    DT_REC_STRING, 256);
	/* 5: ERROR { trace(arg4); } -- the fault kind */
	stmt_on(5, "dtrace:::ERROR");
	one_action(5, DT_ACT_TRACE, "ldgs arg4, %r1\nret %r1\n", DT_REC_UINT,
	    8);
	prog.pg_nstmts = 6;
	prog.pg_stmts = stmts;
	prog.pg_naggs = 1;
	prog.pg_aggs = aggs;

	for (int i = 0; i < 6; i++) {
		char desc[4 * DT_PROBE_FIELD_MAX + 4];

		snprintf(desc, sizeof (desc), "%s:%s:%s:%s",
		    stmts[i].st_descs[0].pd_provider,
		    stmts[i].st_descs[0].pd_module,
		    stmts[i].st_descs[0].pd_function,
		    stmts[i].st_descs[0].pd_name);
		enable(dtp, i, desc, (uint32_t) i + 1);
		list[i] = &eps[i + 1];
	}

	CHECK_INT(eng->eo_open(dtp), 0);
	dtp->dt_engine = eng;
	CHECK_INT(eng->eo_enable(dtp, list, 6), 0);
	CHECK_INT(eng->eo_go(dtp), 0);

	/* BEGIN: the trace record, then the fault, then ERROR's record. */
	CHECK_INT(eng->eo_drain(dtp, collect, NULL), 0);
	rh = next_record(&off);
	CHECK(rh != NULL && rh->rh_epid == 1 && rh->rh_size == 8);
	if (rh != NULL)
		CHECK_INT(*(const int64_t *) (rh + 1), 42);
	rh = next_record(&off);
	CHECK(rh != NULL && rh->rh_epid == DT_EPID_FAULT);
	if (rh != NULL && rh->rh_epid == DT_EPID_FAULT) {
		const dt_faultrec_t *fr = (const void *) (rh + 1);

		CHECK_INT(fr->fr_epid, 2);
		CHECK_INT(fr->fr_action, 1);
		CHECK_INT(fr->fr_kind, DIF_FLT_BADADDR);
		CHECK_INT(fr->fr_addr, 0);
		CHECK_INT(fr->fr_offset, 4);
	}
	rh = next_record(&off);
	CHECK(rh != NULL && rh->rh_epid == 6);
	if (rh != NULL)
		CHECK_INT(*(const uint64_t *) (rh + 1), DIF_FLT_BADADDR);
	CHECK(next_record(&off) == NULL);

	/* Ticks: the first fires count() and then exit(3); no more fire. */
	for (int i = 0; i < 5; i++)
		CHECK_INT(eng->eo_poll(dtp, 3000000), 0);
	CHECK_INT(eng->eo_stop(dtp), 0);
	ndrained = off = 0;
	CHECK_INT(eng->eo_drain(dtp, collect, NULL), 0);
	rh = next_record(&off);
	CHECK(rh != NULL && rh->rh_epid == 4 && rh->rh_size == 8);
	if (rh != NULL)
		CHECK_INT(*(const int32_t *) (rh + 1), 3);
	rh = next_record(&off);
	CHECK(rh != NULL && rh->rh_epid == 5 && rh->rh_size == 256);
	if (rh != NULL)
		CHECK_STR((const char *) (rh + 1), "bye");
	CHECK(next_record(&off) == NULL);

	CHECK_INT(eng->eo_aggsnap(dtp, &snaps, &nsnaps), 0);
	CHECK_INT(nsnaps, 1);
	if (nsnaps == 1) {
		int64_t entry[2];

		CHECK_INT(snaps[0].as_nentries, 1);
		CHECK_INT(snaps[0].as_size, 16);
		memcpy(entry, snaps[0].as_data, sizeof (entry));
		CHECK_INT(entry[0], 0); /* aggregation ID */
		CHECK_INT(entry[1], 1); /* count: one tick before exit() */
		eng->eo_aggsnap_free(dtp, snaps, nsnaps);
	}
	{
		dt_engine_status_t es;

		eng->eo_status(dtp, &es);
		CHECK_INT(es.es_errors, 1);
		CHECK_INT(es.es_drops, 0);
	}
	eng->eo_close(dtp);
	dtp->dt_engine = NULL;
	for (int i = 0; i < 6; i++) {
		free(stmts[i].st_descs);
		if (args[i].aa_difo != NULL)
			dif_object_free(args[i].aa_difo);
	}
	dif_object_free(stmts[3].st_pred);
	dtrace_close(dtp);
	return unit_done();
}
