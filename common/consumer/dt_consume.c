/* SPDX-License-Identifier: MIT */
/*
 * dt_consume.c: the consumer's state and the reading of record buffers.
 *
 * Each record in a buffer is a dt_rechdr_t (EPID, size, timestamp) and the
 * data of one firing of one enabled probe; the statement behind the EPID
 * says which actions wrote which bytes.  For each firing this file prints
 * what dtrace(1) prints:
 *
 *	CPU     ID                    FUNCTION:NAME        (once, unless -q)
 *	  0      1                           :BEGIN hello   (prefix, actions)
 *
 * or, under flowindent, "CPU FUNCTION" and lines indented by call depth
 * with "->"/"<-" ("=>"/"<=" for syscalls).  Actions with no output of
 * their own (clear(), trunc(), normalize(), setopt(), exit()) take effect
 * here.  Records with EPID DT_EPID_FAULT report a clause that faulted.
 *
 * The consumer state (dt_consumer_t, in dt_cons_impl.h) is created on
 * first use and lives as long as the handle.  Per (statement, action) it
 * caches the parsed format and the action's records as one array.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/consumer/dt_cons_impl.h"
#include "common/dt_os.h"
#include "common/prov/dt_prov.h"

bool
dt_cons_quiet(const dt_consumer_t *dc)
{
	return dc->dc_dtp->dt_options[DT_OPT_QUIET] != DTRACEOPT_UNSET;
}

bool
dt_cons_json(const dt_consumer_t *dc)
{
	return dc->dc_dtp->dt_options[DT_OPT_OFORMAT] == DT_OFORMAT_JSON;
}

bool
dt_cons_folded(const dt_consumer_t *dc)
{
	return dc->dc_dtp->dt_options[DT_OPT_OFORMAT] == DT_OFORMAT_FOLDED;
}

bool
dt_cons_pprof(const dt_consumer_t *dc)
{
	return dc->dc_dtp->dt_options[DT_OPT_OFORMAT] == DT_OFORMAT_PPROF;
}

static bool
dt_cons_flow(const dt_consumer_t *dc)
{
	return dc->dc_dtp->dt_options[DT_OPT_FLOWINDENT] != DTRACEOPT_UNSET;
}

int
dt_cons_nomem(dt_consumer_t *dc)
{
	return dt_set_errno(dc->dc_dtp, EDT_NOMEM);
}

int
dt_cons_ioerr(dtrace_hdl_t *dtp)
{
	return dt_set_errno(dtp, errno > 0 && errno < EDT_BASE ? errno : EIO);
}

dt_consumer_t *
dt_consumer(dtrace_hdl_t *dtp)
{
	dt_consumer_t *dc = dtp->dt_consumer;

	if (dc != NULL)
		return dc;
	if ((dc = calloc(1, sizeof(*dc))) == NULL)
		return NULL;
	dc->dc_dtp = dtp;
	dc->dc_errfp = stderr;
	dc->dc_stdout_fd = -1;
	dc->dc_symops.so_ksym = dt_cons_os_ksym;
	dc->dc_symops.so_arg = dc;
	dc->dc_symops.so_usym = dt_cons_os_usym;
	dc->dc_symops.so_umap = dt_cons_os_umap;
	dc->dc_symops.so_kmap = dt_cons_os_kmap;
	dtp->dt_consumer = dc;
	return dc;
}

static void
dt_consume_teardown(dt_consumer_t *dc)
{
	const dt_program_t *pgp = dc->dc_pgp;

	if (pgp != NULL && dc->dc_acts != NULL) {
		for (uint32_t s = 0; s < pgp->pg_nstmts; s++) {
			dt_consact_t *ca = dc->dc_acts[s];

			for (uint32_t a = 0;
			     ca != NULL && a < pgp->pg_stmts[s].st_nactions;
			     a++) {
				dt_printf_free(ca[a].ca_pfv);
				free(ca[a].ca_recs);
			}
			free(ca);
		}
	}
	free(dc->dc_acts);
	dc->dc_acts = NULL;
	free(dc->dc_probes);
	dc->dc_probes = NULL;
	dc->dc_nprobes = 0;
	free(dc->dc_probebuf);
	dc->dc_probebuf = NULL;
	for (uint32_t i = 0; i < dc->dc_nlate; i++)
		free(dc->dc_late[i]);
	free(dc->dc_late);
	dc->dc_late = NULL;
	dc->dc_nlate = 0;
	dt_agg_destroy(dc);
	dt_cons_spec_free(dc);
	dt_cons_bufpolicy_free(dc);
	dc->dc_pgp = NULL;
}

void
dt_consumer_destroy(dtrace_hdl_t *dtp)
{
	dt_consumer_t *dc = dtp->dt_consumer;

	if (dc == NULL)
		return;
	dt_consume_teardown(dc);
	if (dc->dc_stdout_fd >= 0 && dc->dc_freopened)
		(void) close(dc->dc_stdout_fd);
	free(dc);
	dtp->dt_consumer = NULL;
}

int
dt_consume_addprobes(dtrace_hdl_t *dtp, const dt_cprobe_t *probes,
    uint32_t nprobes)
{
	dt_consumer_t *dc = dt_consumer(dtp);

	if (dc == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	for (uint32_t i = 0; i < nprobes; i++) {
		uint32_t epid = probes[i].cp_epid;
		dt_cprobe_t **p, *cp;

		if (epid >= dc->dc_nprobes) {
			if ((p = realloc(dc->dc_probes, (epid + 1) *
			    sizeof (*p))) == NULL)
				return dt_set_errno(dtp, EDT_NOMEM);
			memset(p + dc->dc_nprobes, 0, (epid + 1 -
			    dc->dc_nprobes) * sizeof (*p));
			dc->dc_probes = p;
			dc->dc_nprobes = epid + 1;
		}
		if ((p = realloc(dc->dc_late, (dc->dc_nlate + 1) *
		    sizeof (*p))) == NULL)
			return dt_set_errno(dtp, EDT_NOMEM);
		dc->dc_late = p;
		if ((cp = malloc(sizeof (*cp))) == NULL)
			return dt_set_errno(dtp, EDT_NOMEM);
		*cp = probes[i];
		dc->dc_late[dc->dc_nlate++] = cp;
		dc->dc_probes[epid] = cp;
	}
	return 0;
}

const dt_consact_t *
dt_consact(dt_consumer_t *dc, const dt_stmt_t *stp, uint32_t a)
{
	uint32_t s = (uint32_t) (stp - dc->dc_pgp->pg_stmts);

	if (s >= dc->dc_pgp->pg_nstmts || dc->dc_acts[s] == NULL)
		return NULL;
	return &(dc->dc_acts[s])[a];
}

int
dt_consume_setup(dtrace_hdl_t *dtp, const dt_program_t *pgp,
    const dt_cprobe_t *probes, uint32_t nprobes)
{
	dt_consumer_t *dc = dt_consumer(dtp);
	uint32_t maxepid = 0;

	if (dc == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	dt_consume_teardown(dc);
	dc->dc_pgp = pgp;
	dc->dc_heading = false;
	dc->dc_indent = 0;
	dc->dc_last_epid = DT_EPID_NONE;
	dc->dc_exited = false;
	dc->dc_exit_arrived = false;
	dc->dc_exitstatus = 0;
	dc->dc_walltime0 = dt_os_walltimestamp();

	for (uint32_t i = 0; i < nprobes; i++) {
		if (probes[i].cp_epid > maxepid)
			maxepid = probes[i].cp_epid;
	}
	if ((dc->dc_probebuf = calloc(nprobes + 1, sizeof(dt_cprobe_t))) ==
		NULL ||
	    (dc->dc_probes = calloc(maxepid + 1, sizeof(dt_cprobe_t *))) ==
		NULL ||
	    (dc->dc_acts = calloc(pgp->pg_nstmts + 1, sizeof(void *))) ==
		NULL ||
	    (dc->dc_aggstate =
		    calloc(pgp->pg_naggs + 1, sizeof(dt_aggstate_t))) == NULL)
		goto nomem;
	dc->dc_naggstate = pgp->pg_naggs;
	if (nprobes > 0)
		memcpy(dc->dc_probebuf, probes, nprobes * sizeof(dt_cprobe_t));
	dc->dc_nprobes = maxepid + 1;
	for (uint32_t i = 0; i < nprobes; i++)
		dc->dc_probes[probes[i].cp_epid] = &dc->dc_probebuf[i];
	dt_aggstate_reset(dc);

	for (uint32_t s = 0; s < pgp->pg_nstmts; s++) {
		const dt_stmt_t *stp = &pgp->pg_stmts[s];
		dt_consact_t *ca;

		if ((ca = calloc(stp->st_nactions + 1, sizeof(*ca))) == NULL)
			goto nomem;
		dc->dc_acts[s] = ca;
		for (uint32_t a = 0; a < stp->st_nactions; a++) {
			const dt_action_t *ap = &stp->st_actions[a];
			dt_pferr_t err;

			if (ap->ac_nargs > 0 &&
			    (ca[a].ca_recs = calloc(
				 ap->ac_nargs, sizeof(dt_recdesc_t))) == NULL)
				goto nomem;
			for (uint32_t i = 0; i < ap->ac_nargs; i++) {
				if (ap->ac_args[i].aa_rec.rd_type !=
				    DT_REC_NONE)
					ca[a].ca_recs[ca[a].ca_nrecs++] =
					    ap->ac_args[i].aa_rec;
			}
			if (ap->ac_format == NULL)
				continue;
			ca[a].ca_pfv = dt_printf_parse(ap->ac_format, &err);
			if (ca[a].ca_pfv == NULL) {
				dt_consume_teardown(dc);
				return dt_set_errno(dtp, EDT_COMPILER);
			}
		}
	}
	return 0;

nomem:
	dt_consume_teardown(dc);
	return dt_set_errno(dtp, EDT_NOMEM);
}

void
dt_consume_setsymops(dtrace_hdl_t *dtp, const dt_symops_t *ops)
{
	dt_consumer_t *dc = dt_consumer(dtp);

	if (dc == NULL)
		return;
	if (ops != NULL)
		dc->dc_symops = *ops;
	else
		memset(&dc->dc_symops, 0, sizeof(dc->dc_symops));
}

void
dt_consume_setaggtake(dtrace_hdl_t *dtp, dt_aggtake_f *func, void *arg)
{
	dt_consumer_t *dc = dt_consumer(dtp);

	if (dc == NULL)
		return;
	dc->dc_aggtake = func;
	dc->dc_aggtake_arg = arg;
}

void
dt_consume_setaggrefresh(dtrace_hdl_t *dtp, dt_aggrefresh_f *func, void *arg)
{
	dt_consumer_t *dc = dt_consumer(dtp);

	if (dc == NULL)
		return;
	dc->dc_aggrefresh = func;
	dc->dc_aggrefresh_arg = arg;
}

void
dt_consume_aggstale(dtrace_hdl_t *dtp)
{
	dt_consumer_t *dc = dt_consumer(dtp);

	if (dc != NULL)
		dc->dc_aggstale = true;
}

void
dt_consume_seterrfp(dtrace_hdl_t *dtp, FILE *errfp)
{
	dt_consumer_t *dc = dt_consumer(dtp);

	if (dc != NULL)
		dc->dc_errfp = errfp != NULL ? errfp : stderr;
}

int
dt_consume_exitstatus(dtrace_hdl_t *dtp)
{
	dt_consumer_t *dc = dtp->dt_consumer;

	return dc != NULL ? dc->dc_exitstatus : 0;
}

const char *
dt_faultstr(uint32_t kind)
{
	static const char *const names[] = {
	    [1] = "invalid address",
	    [2] = "invalid alignment",
	    [3] = "illegal operation",
	    [4] = "divide-by-zero",
	    [5] = "out of scratch space",
	    [6] = "invalid kernel access",
	    [7] = "invalid user access",
	    [8] = "tuple stack overflow",
	    [9] = "bad stack",
	};

	if (kind == 1000)
		return "library-level fault";
	if (kind < sizeof(names) / sizeof(names[0]) && names[kind] != NULL)
		return names[kind];
	return "unknown fault";
}

/* "error on enabled probe ID 3 (ID 1: dtrace:::BEGIN): invalid ..." */
int
dt_fault_message(
    dt_consumer_t *dc, const dt_faultrec_t *fr, char *buf, size_t len)
{
	const dt_cprobe_t *cp =
	    fr->fr_epid < dc->dc_nprobes ? dc->dc_probes[fr->fr_epid] : NULL;
	char details[64] = "", where[32], offinfo[48] = "";

	if (fr->fr_kind == 1 || fr->fr_kind == 2 || fr->fr_kind == 9)
		(void) snprintf(details, sizeof(details), " (0x%llx)",
		    (unsigned long long) fr->fr_addr);
	if (fr->fr_action == 0)
		(void) snprintf(where, sizeof(where), "predicate");
	else
		(void) snprintf(
		    where, sizeof(where), "action #%u", fr->fr_action);
	if (fr->fr_offset != -1)
		(void) snprintf(offinfo, sizeof(offinfo), " at DIF offset %d",
		    fr->fr_offset);
	return snprintf(buf, len,
	    "error on enabled probe ID %u (ID %u: %s:%s:%s:%s): %s%s in %s%s",
	    fr->fr_epid, cp ? cp->cp_id : 0, cp ? cp->cp_provider : "",
	    cp ? cp->cp_module : "", cp ? cp->cp_function : "",
	    cp ? cp->cp_name : "", dt_faultstr(fr->fr_kind), details, where,
	    offinfo);
}

/* "entry" or "...-entry", and the same for "return". */
static bool
dt_flow_name(const char *name, const char *what)
{
	size_t n = strlen(name), w = strlen(what);

	if (n < w || strcmp(name + n - w, what) != 0)
		return false;
	return n == w || name[n - w - 1] == '-';
}

static uint32_t
dt_next_epid(const unsigned char *p, const unsigned char *end)
{
	while (p + sizeof(dt_rechdr_t) <= end) {
		dt_rechdr_t rh;

		memcpy(&rh, p, sizeof(rh));
		if (rh.rh_epid != DT_EPID_NONE)
			return rh.rh_epid;
		p += 8;
	}
	return DT_EPID_NONE;
}

static const dt_cprobe_t *
dt_cprobe(dt_consumer_t *dc, uint32_t epid)
{
	return epid < dc->dc_nprobes ? dc->dc_probes[epid] : NULL;
}

/*
 * The prefix of a firing under flowindent.  An entry right after another
 * enabling of the same probe is not indented again, nor is a return right
 * before another enabling of the same probe unindented: DTrace's heuristic
 * for several clauses on one probe.
 */
static void
dt_print_flowprefix(dt_consumer_t *dc, FILE *fp, uint32_t cpu,
    const dt_cprobe_t *cp, const unsigned char *next, const unsigned char *end,
    dt_flow_t *flowp)
{
	dt_flow_t flow = DT_FLOW_NONE;
	bool sys = strcmp(cp->cp_provider, "syscall") == 0;
	const char *prefix = "| ";
	const dt_cprobe_t *other;
	char name[512];

	if (dt_flow_name(cp->cp_name, "entry"))
		flow = DT_FLOW_ENTRY;
	else if (dt_flow_name(cp->cp_name, "return"))
		flow = DT_FLOW_RETURN;

	if (flow == DT_FLOW_ENTRY && dc->dc_last_epid != DT_EPID_NONE &&
	    dc->dc_last_epid != cp->cp_epid &&
	    (other = dt_cprobe(dc, dc->dc_last_epid)) != NULL &&
	    other->cp_id == cp->cp_id)
		flow = DT_FLOW_NONE;
	if (flow == DT_FLOW_RETURN) {
		uint32_t n = dt_next_epid(next, end);

		if (n != DT_EPID_NONE && n != cp->cp_epid &&
		    (other = dt_cprobe(dc, n)) != NULL &&
		    other->cp_id == cp->cp_id)
			flow = DT_FLOW_NONE;
	}

	if (flow == DT_FLOW_ENTRY)
		prefix = sys ? " => " : " -> ";
	else if (flow == DT_FLOW_RETURN)
		prefix = sys ? " <= " : " <- ";
	if (flow == DT_FLOW_RETURN && dc->dc_indent > 0)
		dc->dc_indent -= 2;

	if (flow == DT_FLOW_NONE)
		(void) snprintf(name, sizeof(name), "%*s%s%s:%s", dc->dc_indent,
		    "", prefix, cp->cp_function, cp->cp_name);
	else
		(void) snprintf(name, sizeof(name), "%*s%s%s", dc->dc_indent,
		    "", prefix, cp->cp_function);
	(void) fprintf(fp, "%3u %-41s ", cpu, name);
	*flowp = flow;
}

static int
dt_cons_system(dt_consumer_t *dc, FILE *fp, const dt_consact_t *ca,
    const unsigned char *data, size_t len)
{
	char *cmd = NULL;
	size_t cmdlen = 0;
	FILE *mfp;
	int rv;

	if (ca->ca_pfv == NULL || (mfp = open_memstream(&cmd, &cmdlen)) == NULL)
		return dt_cons_nomem(dc);
	rv = dt_printf_format(
	    dc, mfp, ca->ca_pfv, ca->ca_recs, ca->ca_nrecs, data, len, NULL, 0);
	(void) fclose(mfp);
	if (rv >= 0) {
		/* What was printed so far comes before the command's output. */
		(void) fflush(fp);
		if (system(cmd) == -1)
			rv = dt_cons_ioerr(dc->dc_dtp);
	}
	free(cmd);
	return rv < 0 ? -1 : 0;
}

static int
dt_cons_freopen(dt_consumer_t *dc, FILE *fp, const dt_consact_t *ca,
    const unsigned char *data, size_t len)
{
	const dt_cprobe_t *cp = dc->dc_cur_probe;
	char *name = NULL, self[64];
	size_t namelen = 0;
	FILE *mfp, *nfp;
	int rv;

	if (ca->ca_pfv == NULL ||
	    (mfp = open_memstream(&name, &namelen)) == NULL)
		return dt_cons_nomem(dc);
	rv = dt_printf_format(
	    dc, mfp, ca->ca_pfv, ca->ca_recs, ca->ca_nrecs, data, len, NULL, 0);
	(void) fclose(mfp);
	if (rv < 0) {
		free(name);
		return -1;
	}
	(void) fflush(fp);
	if (ca->ca_pfv->pfv_format[0] == '\0') {
		/*
		 * freopen("") restores the original output; only the empty
		 * format does, not one whose arguments print nothing.
		 */
		if (dc->dc_freopened) {
			(void) snprintf(
			    self, sizeof(self), "/dev/fd/%d", dc->dc_stdout_fd);
			if (freopen(self, "a", fp) == NULL)
				rv = dt_cons_ioerr(dc->dc_dtp);
		}
	} else if ((nfp = fopen(name, "a")) == NULL) {
		/*
		 * Opened first, so that a name that cannot be opened (".",
		 * a directory, no permission) leaves the output as it was;
		 * DTrace reports it against the probe and goes on.
		 */
		(void) fprintf(dc->dc_errfp,
		    "dtrace: error on enabled probe ID %u "
		    "(ID %u: %s:%s:%s:%s): couldn't freopen() \"%s\": %s\n",
		    cp ? cp->cp_epid : 0, cp ? cp->cp_id : 0,
		    cp ? cp->cp_provider : "", cp ? cp->cp_module : "",
		    cp ? cp->cp_function : "", cp ? cp->cp_name : "", name,
		    strerror(errno));
	} else {
		if (!dc->dc_freopened) {
			if ((dc->dc_stdout_fd = dup(fileno(fp))) < 0) {
				(void) fclose(nfp);
				free(name);
				return dt_cons_ioerr(dc->dc_dtp);
			}
			dc->dc_freopened = true;
		}
		(void) snprintf(self, sizeof(self), "/dev/fd/%d", fileno(nfp));
		if (freopen(self, "a", fp) == NULL)
			rv = dt_cons_ioerr(dc->dc_dtp);
		(void) fclose(nfp);
	}
	free(name);
	return rv < 0 ? -1 : 0;
}

static int
dt_cons_setopt(
    dt_consumer_t *dc, const dt_consact_t *ca, const unsigned char *data)
{
	dtrace_hdl_t *dtp = dc->dc_dtp;
	char *name = NULL, *value = NULL;
	int rv = 0;

	if (ca->ca_nrecs < 1)
		return dt_set_errno(dtp, EDT_DMISMATCH);
	name = strndup((const char *) data + ca->ca_recs[0].rd_offset,
	    ca->ca_recs[0].rd_size);
	if (ca->ca_nrecs > 1)
		value = strndup((const char *) data + ca->ca_recs[1].rd_offset,
		    ca->ca_recs[1].rd_size);
	if (name == NULL || (ca->ca_nrecs > 1 && value == NULL)) {
		rv = dt_cons_nomem(dc);
	} else if (dtrace_setopt(dtp, name, value) != 0) {
		(void) fprintf(dc->dc_errfp,
		    "dtrace: couldn't set option \"%s\" to \"%s\": %s\n", name,
		    value ? value : "1", dtrace_errmsg(dtp, dtrace_errno(dtp)));
		dtp->dt_errno = 0;
	}
	free(name);
	free(value);
	return rv;
}

/*
 * The effects of an action that do not depend on the output format.
 * Returns 1 when the action is handled here, 0 when it prints, -1 on
 * error.
 */
int
dt_cons_effect(dt_consumer_t *dc, FILE *fp, const dt_action_t *ap,
    const dt_consact_t *ca, const unsigned char *data, size_t len)
{
	dtrace_hdl_t *dtp = dc->dc_dtp;
	int rv = 0;

	switch (ap->ac_kind) {
	case DT_ACT_EXIT: {
		const dt_cprobe_t *cp = dc->dc_cur_probe;

		/*
		 * As DTrace: the first exit() sets the status, and one in END
		 * (run once tracing has stopped) sets it again; any other
		 * exit() after the first is too late to count.
		 */
		if (!dc->dc_exited || (cp != NULL &&
		    strcmp(cp->cp_provider, "dtrace") == 0 &&
		    strcmp(cp->cp_name, "END") == 0))
			dc->dc_exitstatus = ca->ca_nrecs > 0
			    ? (int) dt_rec_sint(&ca->ca_recs[0],
				  data + ca->ca_recs[0].rd_offset)
			    : 0;
		dc->dc_exited = true;
		return 1;
	}
	case DT_ACT_CLEAR:
		for (uint32_t i = 0; rv == 0 && i < ap->ac_naggs; i++)
			rv = dt_agg_clear(dtp, ap->ac_aggids[i]);
		return rv < 0 ? -1 : 1;
	case DT_ACT_DENORMALIZE:
		for (uint32_t i = 0; rv == 0 && i < ap->ac_naggs; i++)
			rv = dt_agg_denormalize(dtp, ap->ac_aggids[i]);
		return rv < 0 ? -1 : 1;
	case DT_ACT_NORMALIZE: {
		uint64_t n = ca->ca_nrecs > 0
		    ? (uint64_t) dt_rec_sint(
			  &ca->ca_recs[0], data + ca->ca_recs[0].rd_offset)
		    : 1;

		for (uint32_t i = 0; rv == 0 && i < ap->ac_naggs; i++)
			rv = dt_agg_normalize(dtp, ap->ac_aggids[i], n);
		return rv < 0 ? -1 : 1;
	}
	case DT_ACT_TRUNC: {
		bool all = ca->ca_nrecs == 0;
		int64_t n = all ? 0
				: dt_rec_sint(&ca->ca_recs[0],
				      data + ca->ca_recs[0].rd_offset);

		for (uint32_t i = 0; rv == 0 && i < ap->ac_naggs; i++)
			rv = dt_agg_trunc(dtp, ap->ac_aggids[i], all, n);
		return rv < 0 ? -1 : 1;
	}
	case DT_ACT_SETOPT:
		return dt_cons_setopt(dc, ca, data) < 0 ? -1 : 1;
	case DT_ACT_SYSTEM:
		return dt_cons_system(dc, fp, ca, data, len) < 0 ? -1 : 1;
	case DT_ACT_FREOPEN:
		return dt_cons_freopen(dc, fp, ca, data, len) < 0 ? -1 : 1;
	case DT_ACT_FTRUNCATE:
		(void) fflush(fp);
		if (ftruncate(fileno(fp), 0) == 0)
			(void) fseeko(fp, 0, SEEK_SET);
		return 1;
	case DT_ACT_DIFEXPR:
	case DT_ACT_AGGREGATE:
	case DT_ACT_SPECULATE:
	case DT_ACT_COMMIT:
	case DT_ACT_DISCARD:
	case DT_ACT_STOP:
	case DT_ACT_RAISE:
	case DT_ACT_BREAKPOINT:
	case DT_ACT_PANIC:
	case DT_ACT_CHILL:
	case DT_ACT_COPYOUT:
	case DT_ACT_COPYOUTSTR:
		return 1;
	default:
		return 0;
	}
}

/* tracemem() and printm(): raw bytes, at most the dynamic size if any. */
static int
dt_print_tracemem(dt_consumer_t *dc, FILE *fp, const dt_consact_t *ca,
    const unsigned char *data, bool quiet)
{
	const dt_recdesc_t *mem = NULL;
	uint64_t size = 0;

	for (uint32_t i = 0; i < ca->ca_nrecs; i++) {
		const dt_recdesc_t *rd = &ca->ca_recs[i];

		if (mem == NULL && rd->rd_type == DT_REC_BYTES)
			mem = rd;
		else if (mem != NULL &&
		    (rd->rd_type == DT_REC_SINT || rd->rd_type == DT_REC_UINT))
			size = dt_rec_uint(rd, data + rd->rd_offset);
	}
	if (mem == NULL)
		return 0;
	if (size == 0 || size > mem->rd_size)
		size = mem->rd_size;
	return dt_print_bytes(
	    dc, fp, data + mem->rd_offset, (size_t) size, -33, quiet, true);
}

/* The actions of one firing, as text. */
static int
dt_print_actions(dt_consumer_t *dc, FILE *fp, const dt_cprobe_t *cp,
    const unsigned char *data, size_t len)
{
	const dt_stmt_t *stp = cp->cp_stmt;
	bool quiet = dt_cons_quiet(dc);

	for (uint32_t a = 0; a < stp->st_nactions; a++) {
		const dt_action_t *ap = &stp->st_actions[a];
		const dt_consact_t *ca = dt_consact(dc, stp, a);
		int rv;

		if (ca == NULL)
			return dt_set_errno(dc->dc_dtp, EDT_BADEPID);
		for (uint32_t i = 0; i < ca->ca_nrecs; i++) {
			const dt_recdesc_t *rd = &ca->ca_recs[i];

			if ((size_t) rd->rd_offset + rd->rd_size > len)
				return dt_set_errno(dc->dc_dtp, EDT_DOFFSET);
		}
		if ((rv = dt_cons_effect(dc, fp, ap, ca, data, len)) < 0)
			return -1;
		if (rv == 1)
			continue;

		switch (ap->ac_kind) {
		case DT_ACT_PRINTF:
			if (ca->ca_pfv == NULL)
				break;
			rv = dt_printf_format(dc, fp, ca->ca_pfv, ca->ca_recs,
			    ca->ca_nrecs, data, len, NULL, 0);
			break;
		case DT_ACT_PRINTA:
			rv = dt_agg_printa_ids(
			    dc, fp, ca->ca_pfv, ap->ac_aggids, ap->ac_naggs);
			break;
		case DT_ACT_TRACEMEM:
		case DT_ACT_PRINTM:
			rv = dt_print_tracemem(dc, fp, ca, data, quiet);
			break;
		case DT_ACT_PRINT:
			for (uint32_t i = 0; rv == 0 && i < ca->ca_nrecs; i++)
				rv = dt_print_typed(dc, fp, &ca->ca_recs[i],
				    data + ca->ca_recs[i].rd_offset, quiet);
			break;
		default:
			/* trace(), print(), stack(), sym() and the like. */
			for (uint32_t i = 0; rv == 0 && i < ca->ca_nrecs; i++)
				rv = dt_print_datum(dc, fp, &ca->ca_recs[i],
				    data + ca->ca_recs[i].rd_offset, quiet,
				    false);
			break;
		}
		if (rv < 0)
			return -1;
	}
	return 0;
}

static int
dt_consume_fault(
    dt_consumer_t *dc, FILE *fp, const unsigned char *data, uint32_t size)
{
	dt_faultrec_t fr;
	char msg[1024];

	if (size < sizeof(fr))
		return dt_set_errno(dc->dc_dtp, EDT_DMISMATCH);
	memcpy(&fr, data, sizeof(fr));
	(void) dt_fault_message(dc, &fr, msg, sizeof(msg));
	if (dt_cons_json(dc)) {
		(void) fprintf(fp,
		    "{\"type\":\"error\",\"epid\":%u,"
		    "\"action\":%u,\"offset\":%d,\"fault\":",
		    fr.fr_epid, fr.fr_action, fr.fr_offset);
		dt_json_string(fp, dt_faultstr(fr.fr_kind), SIZE_MAX);
		(void) fprintf(fp, ",\"address\":%llu,\"message\":",
		    (unsigned long long) fr.fr_addr);
		dt_json_string(fp, msg, SIZE_MAX);
		(void) fputs("}\n", fp);
		return 0;
	}
	(void) fprintf(dc->dc_errfp, "dtrace: %s\n", msg);
	return 0;
}

/* Does the statement print nothing (speculation control, effects)? */
static bool
dt_stmt_silent(const dt_stmt_t *stp)
{
	/*
	 * A clause of speculate() alone is the speculative twin of an empty
	 * clause: DTrace records its firing, and commit() prints the probe.
	 */
	if (stp->st_nactions == 0 || (stp->st_nactions == 1 &&
	    stp->st_actions[0].ac_kind == DT_ACT_SPECULATE))
		return false;
	for (uint32_t a = 0; a < stp->st_nactions; a++) {
		if (dt_action_consumed(stp->st_actions[a].ac_kind))
			return false;
	}
	return true;
}

/* Does the statement call exit()? */
static bool
dt_stmt_exits(const dt_stmt_t *stp)
{
	for (uint32_t a = 0; a < stp->st_nactions; a++) {
		if (stp->st_actions[a].ac_kind == DT_ACT_EXIT)
			return true;
	}
	return false;
}

int
dt_consume_rec(dt_consumer_t *dc, FILE *fp, uint32_t cpu,
    const dt_rechdr_t *rh, const dt_cprobe_t *cp, const unsigned char *data,
    const unsigned char *next, const unsigned char *end)
{
	dt_flow_t flow = DT_FLOW_NONE;
	bool quiet = dt_cons_quiet(dc), flowind = dt_cons_flow(dc);
	dt_actkind_t kind = DT_ACT_DIFEXPR;
	uint64_t id;

	/* Whose record it is, for the messages of its actions' effects. */
	dc->dc_cur_probe = cp;
	if (dt_stmt_silent(cp->cp_stmt)) {
		/* commit(), discard(): nothing of their own to print. */
	} else if (dt_cons_json(dc)) {
		if (dt_json_firing(dc, fp, cpu, rh, cp, data) != 0)
			return -1;
	} else {
		if (!dc->dc_heading) {
			if (flowind)
				(void) fprintf(fp, "%3s %-41s\n", "CPU",
				    "FUNCTION");
			else if (!quiet)
				(void) fprintf(fp, "%3s %6s %32s\n", "CPU",
				    "ID", "FUNCTION:NAME");
			dc->dc_heading = true;
		}
		if (flowind) {
			dt_print_flowprefix(dc, fp, cpu, cp, next, end, &flow);
		} else if (!quiet) {
			char name[512];

			(void) snprintf(name, sizeof(name), "%s:%s",
			    cp->cp_function, cp->cp_name);
			(void) fprintf(
			    fp, "%3u %6u %32s ", cpu, cp->cp_id, name);
		}
		if (flow == DT_FLOW_ENTRY)
			dc->dc_indent += 2;
		if (dt_print_actions(dc, fp, cp, data, rh->rh_size) != 0)
			return -1;
		/* setopt() may have changed quiet. */
		if (!dt_cons_quiet(dc))
			(void) fputc('\n', fp);
	}
	dc->dc_last_epid = rh->rh_epid;
	if (!cp->cp_stmt->st_speculative &&
	    (id = dt_cons_spec_id(dc, cp->cp_stmt, data, &kind)) != 0)
		return dt_cons_spec_end(dc, fp, kind, id, cpu,
		    rh->rh_timestamp);
	return 0;
}

int
dt_consume_buf(
    dtrace_hdl_t *dtp, FILE *fp, uint32_t cpu, const void *buf, size_t len)
{
	dt_consumer_t *dc = dt_consumer(dtp);
	const unsigned char *p = buf, *end = p + len;
	int status = DT_CONSUME_OK;
	dt_actkind_t kind;
	uint64_t id;

	if (dc == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	if (dc->dc_pgp == NULL)
		return dt_set_errno(dtp, EDT_BADEPID);

	while (p + sizeof(dt_rechdr_t) <= end) {
		const dt_cprobe_t *cp;
		const unsigned char *data, *next;
		dt_rechdr_t rh;
		int rv;

		memcpy(&rh, p, sizeof(rh));
		if (rh.rh_epid == DT_EPID_NONE) {
			p += 8; /* padding */
			continue;
		}
		data = p + sizeof(rh);
		if (rh.rh_size > (size_t) (end - data))
			return dt_set_errno(dtp, EDT_DOFFSET);
		next = data + (((size_t) rh.rh_size + 7) & ~(size_t) 7);
		if (next > end)
			next = end;

		cp = NULL;
		if (rh.rh_epid != DT_EPID_FAULT &&
		    ((cp = dt_cprobe(dc, rh.rh_epid)) == NULL ||
		    cp->cp_stmt == NULL))
			return dt_set_errno(dtp, EDT_BADEPID);
		if (cp != NULL && dt_consact(dc, cp->cp_stmt, 0) != NULL) {
			const dt_stmt_t *stp = cp->cp_stmt;

			for (uint32_t a = 0; a < stp->st_nactions; a++) {
				const dt_consact_t *ca = dt_consact(dc, stp, a);

				for (uint32_t i = 0; i < ca->ca_nrecs; i++) {
					if ((size_t) ca->ca_recs[i].rd_offset +
					    ca->ca_recs[i].rd_size >
					    rh.rh_size)
						return dt_set_errno(dtp,
						    EDT_DOFFSET);
				}
			}
		}

		/*
		 * Only one exit() wins, as in DTrace, whose exit() moves
		 * tracing to draining atomically and drops the whole firing
		 * of a clause that finds it already done.  The engine can
		 * only stop clauses that start after an exit(); one that ran
		 * alongside it on another CPU is dropped here.  END's exit()
		 * still sets the status.  A ring's records replayed at the
		 * end were judged when they arrived.
		 */
		if (cp != NULL && !dc->dc_ringout &&
		    cp->cp_id != DT_PROBE_ID_END &&
		    dt_stmt_exits(cp->cp_stmt)) {
			if (dc->dc_exit_arrived) {
				p = next;
				continue;
			}
			dc->dc_exit_arrived = true;
		}

		/* fill and ring take records here (dt_cons_bufpolicy.c). */
		if ((rv = dt_cons_bufpolicy(dc, cpu, &rh, cp, data)) != 0) {
			if (rv < 0)
				return -1;
			if (dc->dc_exited)
				status = DT_CONSUME_EXIT;
			p = next;
			continue;
		}
		if (cp == NULL) {
			if (dt_consume_fault(dc, fp, data, rh.rh_size) != 0)
				return -1;
			p = next;
			continue;
		}
		if (cp->cp_stmt->st_speculative &&
		    (rv = dt_cons_spec_take(dc, cpu, &rh, data)) < 0)
			return -1;
		if (rv == 0 &&
		    dt_consume_rec(dc, fp, cpu, &rh, cp, data, next, end) != 0)
			return -1;
		/*
		 * A commit() or discard() in a speculative clause took effect
		 * when the clause ran, as DTrace's do, not when the
		 * speculation holding the record is committed.
		 */
		if (cp->cp_stmt->st_speculative &&
		    (id = dt_cons_spec_endid(dc, cp->cp_stmt, data,
		    &kind)) != 0 &&
		    dt_cons_spec_end(dc, fp, kind, id, cpu,
		    rh.rh_timestamp) < 0)
			return -1;
		if (dc->dc_exited)
			status = DT_CONSUME_EXIT;
		p = next;
	}
	if (ferror(fp))
		return dt_cons_ioerr(dtp);
	return status;
}

int
dt_consume_end(dtrace_hdl_t *dtp, FILE *fp)
{
	dt_consumer_t *dc = dt_consumer(dtp);

	if (dc == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	if (dt_cons_json(dc))
		return dt_json_aggs(dc, fp, NULL, 0, true);
	if (dt_cons_folded(dc))
		return dt_folded_aggs(dc, fp, NULL, 0, true);
	if (dt_cons_pprof(dc))
		return dt_pprof_aggs(dc, NULL, 0, true);
	if (fputc('\n', fp) == EOF)
		return dt_cons_ioerr(dtp);
	return dt_agg_print_all(dtp, fp);
}
