/* SPDX-License-Identifier: MIT */
/*
 * bpf_layout_test.c: the BPF engine's layout of aggregation keys.
 *
 * An aggregation map keys a string on only the bytes its sources can
 * take (execname: 16, a string constant: its length and NUL) when every
 * clause that updates the aggregation has such a source, and on the
 * whole strsize otherwise; integer keys keep their size and alignment.
 * An aggregation without keys gets a map of one entry.  The layout is
 * computed without loading anything, so this test needs neither root nor
 * BPF.
 */
#include <stdint.h>
#include <string.h>

#include "common/dif/dif.h"
#include "common/dif/dif_asm.h"
#include "common/dif/dif_verify.h"
#include "os/linux/bpf/dt_bpf_gen.h"
#include "tests/unit/unit.h"

#define RS "RETURN string byref 256\n"
#define RI "RETURN ctf signed 8\n"

static dif_object_t *
asm_difo(const char *text)
{
	char err[256];
	dif_object_t *difo = dif_asm(text, err, sizeof (err));

	if (difo == NULL) {
		printf("assembling: %s\n", err);
		exit(1);
	}
	if (dif_verify(difo, err, sizeof (err)) != 0) {
		printf("verifying: %s\n", err);
		exit(1);
	}
	return difo;
}

/*
 * Lays out one aggregation @[k0, k1, k2] = count() updated by one clause
 * per entry of keys (nclauses sets of three key objects).
 */
static void
layout(dt_bpf_layout_t *lay, uint32_t strsize, dt_program_t *pg,
    dt_aggdesc_t *agg, dt_stmt_t *st, dt_action_t *act, uint32_t nclauses)
{
	char err[256];

	pg->pg_nstmts = nclauses;
	pg->pg_stmts = st;
	pg->pg_naggs = 1;
	pg->pg_aggs = agg;
	dt_bpf_layout_init(lay, pg, strsize, 1 << 20, 1 << 20);
	for (uint32_t i = 0; i < nclauses; i++) {
		memset(&st[i], 0, sizeof (st[i]));
		st[i].st_id = i;
		st[i].st_nactions = 1;
		st[i].st_actions = &act[i];
		CHECK(dt_bpf_layout_add_stmt(lay, &st[i], err,
		    sizeof (err)) == 0);
	}
	CHECK(dt_bpf_layout_finish(lay, err, sizeof (err)) == 0);
}

int
main(void)
{
	/* @[string, int, string]: 256 + pad + 8 + 256 bytes in the tuple */
	dt_recdesc_t krec[3] = {
		{ DT_REC_STRING, 256, 0, 1, 0, NULL, 0 },
		{ DT_REC_SINT, 8, 256, 8, 0, NULL, 0 },
		{ DT_REC_STRING, 256, 264, 1, 0, NULL, 0 },
	};
	dt_aggdesc_t agg = { 0, "", DT_AGG_COUNT, { 0 }, 1, 3, krec, 520,
	    false };
	dif_object_t *exec = asm_difo("ldgs execname, %r1\nret %r1\n" RS);
	dif_object_t *lit = asm_difo("sets \"abc\", %r2\nmov %r2, %r3\n"
	    "ret %r3\n" RS);
	dif_object_t *branchy = asm_difo("ldgs arg0, %r1\ntst %r1\nbe L1\n"
	    "sets \"a longer one\", %r2\nba L2\nL1:\nldgs execname, %r2\n"
	    "L2:\nret %r2\n" RS);
	dif_object_t *probefunc = asm_difo("ldgs probefunc, %r1\nret %r1\n"
	    RS);
	dif_object_t *joined = asm_difo("sets \"a\", %r1\n"
	    "ldgs execname, %r1\nldgs arg0, %r1\nret %r1\n" RS);
	dif_object_t *num = asm_difo("setx 7, %r1\nret %r1\n" RI);
	dif_object_t *k1[3] = { exec, num, lit };
	dif_object_t *k2[3] = { lit, num, branchy };
	dif_object_t *k3[3] = { probefunc, num, exec };
	dif_object_t *k4[3] = { joined, num, exec };
	dt_action_t act[2];
	dt_stmt_t st[2];
	dt_program_t pg;
	dt_bpf_layout_t lay;
	const dt_bpf_aggmap_t *ba;

	memset(&pg, 0, sizeof (pg));
	memset(act, 0, sizeof (act));
	for (int i = 0; i < 2; i++) {
		act[i].ac_kind = DT_ACT_AGGREGATE;
		act[i].ac_aggid = 0;
		act[i].ac_nkeys = 3;
	}

	/* execname (16) + 8 at 16 + "abc" (4) at 24: 28, rounded to 32 */
	act[0].ac_keys = k1;
	layout(&lay, 256, &pg, &agg, st, act, 1);
	ba = &lay.bl_aggs[0];
	CHECK(ba->ba_compact);
	CHECK_INT(ba->ba_keys[0].rd_size, 16);
	CHECK_INT(ba->ba_keys[0].rd_offset, 0);
	CHECK_INT(ba->ba_keys[1].rd_size, 8);
	CHECK_INT(ba->ba_keys[1].rd_offset, 16);
	CHECK_INT(ba->ba_keys[2].rd_size, 4);
	CHECK_INT(ba->ba_keys[2].rd_offset, 24);
	CHECK_INT(ba->ba_keysize, 32);
	CHECK(ba->ba_kind == DT_AGGMAP_HASH);
	/* A map for as many keys as aggsize holds. */
	CHECK(ba->ba_maxent >= 16);
	dt_bpf_layout_fini(&lay);

	/* Two clauses: each key takes the larger bound; branches merge. */
	act[1].ac_keys = k2;
	layout(&lay, 256, &pg, &agg, st, act, 2);
	ba = &lay.bl_aggs[0];
	CHECK(ba->ba_compact);
	CHECK_INT(ba->ba_keys[0].rd_size, 16);
	CHECK_INT(ba->ba_keys[2].rd_size, 16);	/* "a longer one" is 13 */
	CHECK_INT(ba->ba_keysize, 40);
	dt_bpf_layout_fini(&lay);

	/* probefunc has no bound here: that key keeps strsize bytes. */
	act[1].ac_keys = k3;
	layout(&lay, 256, &pg, &agg, st, act, 2);
	ba = &lay.bl_aggs[0];
	CHECK(ba->ba_compact);
	CHECK_INT(ba->ba_keys[0].rd_size, 256);
	CHECK_INT(ba->ba_keys[1].rd_offset, 256);
	CHECK_INT(ba->ba_keys[2].rd_size, 16);
	CHECK_INT(ba->ba_keysize, 280);
	dt_bpf_layout_fini(&lay);

	/* A register overwritten after execname: the bound is gone. */
	act[0].ac_keys = k4;
	layout(&lay, 256, &pg, &agg, st, act, 1);
	ba = &lay.bl_aggs[0];
	CHECK_INT(ba->ba_keys[0].rd_size, 256);
	CHECK_INT(ba->ba_keys[2].rd_size, 16);
	dt_bpf_layout_fini(&lay);

	/* Nothing to shrink: the map key is the tuple as it is. */
	act[0].ac_keys = k3;
	krec[2].rd_size = 8;
	krec[2].rd_type = DT_REC_SINT;
	krec[2].rd_align = 8;
	krec[2].rd_offset = 264;
	agg.ag_keysize = 272;
	k3[2] = num;
	layout(&lay, 256, &pg, &agg, st, act, 1);
	ba = &lay.bl_aggs[0];
	CHECK(!ba->ba_compact);
	CHECK_INT(ba->ba_keysize, 272);
	dt_bpf_layout_fini(&lay);

	/* strsize below 16 bounds execname too. */
	krec[2].rd_type = DT_REC_STRING;
	krec[2].rd_align = 1;
	krec[0].rd_size = krec[2].rd_size = 8;
	krec[1].rd_offset = 8;
	krec[2].rd_offset = 16;
	agg.ag_keysize = 24;
	act[0].ac_keys = k1;
	layout(&lay, 8, &pg, &agg, st, act, 1);
	ba = &lay.bl_aggs[0];
	CHECK(ba->ba_compact);
	CHECK_INT(ba->ba_keys[0].rd_size, 8);
	CHECK_INT(ba->ba_keys[2].rd_size, 4);
	CHECK_INT(ba->ba_keysize, 24);
	dt_bpf_layout_fini(&lay);

	/*
	 * An aggregation without keys has one entry, in a per-CPU array
	 * (its key the array's 4-byte index); one with keys a hash.
	 */
	agg.ag_nkeys = 0;
	agg.ag_keys = NULL;
	agg.ag_keysize = 0;
	act[0].ac_nkeys = 0;
	act[0].ac_keys = NULL;
	layout(&lay, 256, &pg, &agg, st, act, 1);
	CHECK_INT(lay.bl_aggs[0].ba_maxent, 1);
	CHECK(lay.bl_aggs[0].ba_kind == DT_AGGMAP_ARRAY);
	CHECK_INT(lay.bl_aggs[0].ba_keysize, 4);
	dt_bpf_layout_fini(&lay);

	dif_object_free(exec);
	dif_object_free(lit);
	dif_object_free(branchy);
	dif_object_free(probefunc);
	dif_object_free(joined);
	dif_object_free(num);
	return unit_done();
}
