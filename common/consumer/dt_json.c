/* SPDX-License-Identifier: MIT */
/*
 * dt_json.c: the consumer's output as JSON (-x oformat=json).
 *
 * Output is JSON Lines: one object per line, each with a "type":
 *
 *	probe		one firing: cpu, id, epid, provider, module,
 *			function, name, timestamp and "records", one per
 *			action that records something, in program order
 *	aggregation	one aggregation: name, id, function, and "entries"
 *			sorted as the text output sorts them
 *	error		a clause that faulted
 *
 * A record is {"action": NAME, "value": V}; printf() gives its text as
 * "value", printa() gives {"action":"printa","aggregations":[...]}.
 * Values keep their types: integers as numbers, strings as strings, raw
 * memory as {"hex": "..."}, stacks as arrays of frame strings, the
 * distributions as {"buckets":[{"min":..,"max":..,"count":..}]} with null
 * for an open end.  docs/output.md is the schema's reference.
 */
#include <stdlib.h>
#include <string.h>

#include "common/consumer/dt_cons_impl.h"
#include "common/dt_aggfunc.h"

void
dt_json_string(FILE *fp, const char *s, size_t maxlen)
{
	(void) fputc('"', fp);
	for (size_t i = 0; i < maxlen && s[i] != '\0'; i++) {
		unsigned char c = (unsigned char) s[i];

		switch (c) {
		case '"':
			(void) fputs("\\\"", fp);
			break;
		case '\\':
			(void) fputs("\\\\", fp);
			break;
		case '\n':
			(void) fputs("\\n", fp);
			break;
		case '\r':
			(void) fputs("\\r", fp);
			break;
		case '\t':
			(void) fputs("\\t", fp);
			break;
		default:
			if (c < 0x20 || c == 0x7f)
				(void) fprintf(fp, "\\u%04x", c);
			else
				(void) fputc(c, fp);
		}
	}
	(void) fputc('"', fp);
}



static void
dt_json_hex(FILE *fp, const unsigned char *p, size_t n)
{
	(void) fputs("{\"hex\":\"", fp);
	for (size_t i = 0; i < n; i++)
		(void) fprintf(fp, "%02x", p[i]);
	(void) fputs("\"}", fp);
}

static void
dt_json_stack(dt_consumer_t *dc, FILE *fp, const dt_recdesc_t *rd,
    const unsigned char *addr)
{
	bool user = rd->rd_type == DT_REC_USTACK;
	const unsigned char *pcs = addr + (user ? 8 : 0);
	uint64_t pid = 0;
	char buf[1024];

	if (user)
		memcpy(&pid, addr, 8);
	(void) fputc('[', fp);
	for (uint64_t i = 0; i < rd->rd_arg; i++) {
		uint64_t pc;

		memcpy(&pc, pcs + i * 8, 8);
		if (pc == 0)
			break;
		if (user)
			dt_uaddr2str(dc, pid, pc, true, buf, sizeof(buf));
		else
			dt_addr2str(dc, pc, true, buf, sizeof(buf));
		if (i > 0)
			(void) fputc(',', fp);
		dt_json_string(fp, buf, SIZE_MAX);
	}
	(void) fputc(']', fp);
}

int
dt_json_datum(
    dt_consumer_t *dc, FILE *fp, const dt_recdesc_t *rd, const void *addr)
{
	const unsigned char *p = addr;
	char buf[1024];

	switch (rd->rd_type) {
	case DT_REC_NONE:
		(void) fputs("null", fp);
		break;
	case DT_REC_SINT:
		if (rd->rd_size > 8)
			goto bytes;
		(void) fprintf(fp, "%lld", (long long) dt_rec_sint(rd, p));
		break;
	case DT_REC_UINT:
	case DT_REC_PTR:
		if (rd->rd_size > 8)
			goto bytes;
		(void) fprintf(
		    fp, "%llu", (unsigned long long) dt_rec_uint(rd, p));
		break;
	case DT_REC_STRING:
		dt_json_string(fp, (const char *) p, rd->rd_size);
		break;
	case DT_REC_STACK:
	case DT_REC_USTACK:
		dt_json_stack(dc, fp, rd, p);
		break;
	case DT_REC_SYM:
	case DT_REC_MOD:
	case DT_REC_USYM:
	case DT_REC_UMOD:
	case DT_REC_UADDR:
		dt_sym2str(dc, rd, p, buf, sizeof(buf));
		dt_json_string(fp, buf, SIZE_MAX);
		break;
	default:
bytes:
		dt_json_hex(fp, p, rd->rd_size);
		break;
	}
	return ferror(fp) ? -1 : 0;
}

static void
dt_json_i64(FILE *fp, const char *name, bool have, int64_t v)
{
	if (have)
		(void) fprintf(fp, "\"%s\":%lld", name, (long long) v);
	else
		(void) fprintf(fp, "\"%s\":null", name);
}

/* The non-zero buckets of a distribution, with their value ranges. */
static void
dt_json_buckets(
    FILE *fp, const dt_aggdesc_t *agg, const int64_t *v, uint64_t normal)
{
	uint32_t n = agg->ag_nvals;
	bool first = true;

	(void) fputs("{\"buckets\":[", fp);
	for (uint32_t i = 0; i < n; i++) {
		bool hasmin, hasmax;
		int64_t lo, hi;

		if (v[i] == 0)
			continue;
		dt_agg_bucket_range(agg, i, &hasmin, &lo, &hasmax, &hi);
		(void) fputs(first ? "{" : ",{", fp);
		first = false;
		dt_json_i64(fp, "min", hasmin, lo);
		(void) fputc(',', fp);
		dt_json_i64(fp, "max", hasmax, hi);
		(void) fprintf(fp, ",\"count\":%lld}",
		    (long long) (v[i] / (int64_t) normal));
	}
	(void) fputs("]}", fp);
}

static void
dt_json_aggval(
    FILE *fp, const dt_aggdesc_t *agg, const int64_t *v, uint64_t normal)
{
	if (normal == 0)
		normal = 1;
	switch (agg->ag_kind) {
	case DT_AGG_QUANTIZE:
	case DT_AGG_LQUANTIZE:
	case DT_AGG_LLQUANTIZE:
		dt_json_buckets(fp, agg, v, normal);
		break;
	case DT_AGG_AVG:
		(void) fprintf(fp, "%lld", (long long) dt_agg_avg(v, normal));
		break;
	case DT_AGG_STDDEV:
		(void) fprintf(
		    fp, "%llu", (unsigned long long) dt_agg_stddev(v, normal));
		break;
	case DT_AGG_COUNT:
		(void) fprintf(fp, "%llu",
		    (unsigned long long) ((uint64_t) v[0] / normal));
		break;
	default:
		(void) fprintf(
		    fp, "%lld", (long long) (v[0] / (int64_t) normal));
		break;
	}
}

/* One aggregation as an object (no newline). */
static int
dt_json_aggobj(dt_consumer_t *dc, FILE *fp, uint32_t aggid, bool top)
{
	const dt_aggdesc_t *agg = dt_agg_desc(dc, aggid);
	dt_aggstate_t *as = &dc->dc_aggstate[aggid];
	dt_aggent_t **v;
	uint32_t n;

	if ((v = dt_agg_sorted(dc, aggid, &n)) == NULL)
		return dt_cons_nomem(dc);
	(void) fprintf(
	    fp, "{%s\"name\":", top ? "\"type\":\"aggregation\"," : "");
	dt_json_string(fp, agg->ag_name, SIZE_MAX);
	(void) fprintf(fp, ",\"id\":%u,\"function\":\"%s\",\"entries\":[",
	    aggid, dt_aggkind_name(agg->ag_kind));
	for (uint32_t i = 0; i < n; i++) {
		(void) fputs(i ? ",{\"keys\":[" : "{\"keys\":[", fp);
		for (uint32_t k = 0; k < agg->ag_nkeys; k++) {
			const dt_recdesc_t *rd = &agg->ag_keys[k];

			if (k > 0)
				(void) fputc(',', fp);
			(void) dt_json_datum(
			    dc, fp, rd, v[i]->ae_key + rd->rd_offset);
		}
		(void) fputs("],\"value\":", fp);
		dt_json_aggval(fp, agg, v[i]->ae_vals, as->as_normal);
		(void) fputc('}', fp);
	}
	(void) fputs("]}", fp);
	free(v);
	return ferror(fp) ? dt_cons_ioerr(dc->dc_dtp) : 0;
}

int
dt_json_aggs(dt_consumer_t *dc, FILE *fp, const uint32_t *aggids,
    uint32_t naggs, bool unprinted)
{
	uint32_t total = dc->dc_pgp ? dc->dc_pgp->pg_naggs : 0;

	if (dt_agg_fresh(dc) != 0)
		return -1;
	if (aggids == NULL) {
		for (uint32_t id = 0; id < total; id++) {
			if (unprinted && dc->dc_aggstate[id].as_printed)
				continue;
			if (dt_json_aggobj(dc, fp, id, true) != 0)
				return -1;
			(void) fputc('\n', fp);
		}
		return 0;
	}
	for (uint32_t i = 0; i < naggs; i++) {
		if (dt_json_aggobj(dc, fp, aggids[i], true) != 0)
			return -1;
		(void) fputc('\n', fp);
		dc->dc_aggstate[aggids[i]].as_printed = true;
	}
	return 0;
}

static void
dt_json_kv(FILE *fp, const char *name, const char *value)
{
	(void) fprintf(fp, ",\"%s\":", name);
	dt_json_string(fp, value, SIZE_MAX);
}

int
dt_json_firing(dt_consumer_t *dc, FILE *fp, uint32_t cpu, const dt_rechdr_t *rh,
    const dt_cprobe_t *cp, const unsigned char *data)
{
	const dt_stmt_t *stp = cp->cp_stmt;
	bool first = true;

	(void) fprintf(fp,
	    "{\"type\":\"probe\",\"cpu\":%u,\"id\":%u,"
	    "\"epid\":%u",
	    cpu, cp->cp_id, cp->cp_epid);
	dt_json_kv(fp, "provider", cp->cp_provider);
	dt_json_kv(fp, "module", cp->cp_module);
	dt_json_kv(fp, "function", cp->cp_function);
	dt_json_kv(fp, "name", cp->cp_name);
	(void) fprintf(fp, ",\"timestamp\":%llu,\"records\":[",
	    (unsigned long long) rh->rh_timestamp);

	for (uint32_t a = 0; a < stp->st_nactions; a++) {
		const dt_action_t *ap = &stp->st_actions[a];
		const dt_consact_t *ca = dt_consact(dc, stp, a);
		const char *name;
		int rv;

		if (ca == NULL)
			return dt_set_errno(dc->dc_dtp, EDT_BADEPID);
		for (uint32_t i = 0; i < ca->ca_nrecs; i++) {
			if ((size_t) ca->ca_recs[i].rd_offset +
				ca->ca_recs[i].rd_size >
			    rh->rh_size)
				return dt_set_errno(dc->dc_dtp, EDT_DOFFSET);
		}
		if ((rv = dt_cons_effect(dc, fp, ap, ca, data, rh->rh_size)) <
		    0)
			return -1;
		if (rv == 1 && ap->ac_kind != DT_ACT_EXIT)
			continue;
		name = ap->ac_kind == DT_ACT_DIFEXPR ? "expr" :
		    dt_action_name(ap->ac_kind);
		(void) fprintf(
		    fp, "%s{\"action\":\"%s\"", first ? "" : ",", name);
		first = false;

		switch (ap->ac_kind) {
		case DT_ACT_EXIT:
			(void) fprintf(
			    fp, ",\"status\":%d}", dc->dc_exitstatus);
			continue;
		case DT_ACT_PRINTF: {
			char *out = NULL;
			size_t outlen = 0;
			FILE *mfp;

			if (ca->ca_pfv == NULL ||
			    (mfp = open_memstream(&out, &outlen)) == NULL)
				return dt_cons_nomem(dc);
			rv = dt_printf_format(dc, mfp, ca->ca_pfv, ca->ca_recs,
			    ca->ca_nrecs, data, rh->rh_size, NULL, 0);
			(void) fclose(mfp);
			if (rv >= 0) {
				(void) fputs(",\"value\":", fp);
				dt_json_string(fp, out, SIZE_MAX);
			}
			free(out);
			if (rv < 0)
				return -1;
			break;
		}
		case DT_ACT_PRINTA:
			if (dt_agg_fresh(dc) != 0)
				return -1;
			(void) fputs(",\"aggregations\":[", fp);
			for (uint32_t i = 0; i < ap->ac_naggs; i++) {
				if (dt_agg_desc(dc, ap->ac_aggids[i]) == NULL)
					return dt_set_errno(
					    dc->dc_dtp, EDT_BADAGG);
				if (i > 0)
					(void) fputc(',', fp);
				if (dt_json_aggobj(
					dc, fp, ap->ac_aggids[i], false) != 0)
					return -1;
				dc->dc_aggstate[ap->ac_aggids[i]].as_printed =
				    true;
			}
			(void) fputc(']', fp);
			break;
		default:
			(void) fputs(",\"value\":", fp);
			if (ca->ca_nrecs == 0)
				(void) fputs("null", fp);
			else if (ca->ca_nrecs == 1)
				(void) dt_json_datum(dc, fp, &ca->ca_recs[0],
				    data + ca->ca_recs[0].rd_offset);
			else {
				(void) fputc('[', fp);
				for (uint32_t i = 0; i < ca->ca_nrecs; i++) {
					if (i > 0)
						(void) fputc(',', fp);
					(void) dt_json_datum(dc, fp,
					    &ca->ca_recs[i],
					    data + ca->ca_recs[i].rd_offset);
				}
				(void) fputc(']', fp);
			}
			break;
		}
		(void) fputc('}', fp);
	}
	(void) fputs("]}\n", fp);
	return ferror(fp) ? dt_cons_ioerr(dc->dc_dtp) : 0;
}
