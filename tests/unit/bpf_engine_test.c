/* SPDX-License-Identifier: MIT */
/*
 * bpf_engine_test.c: the BPF engine end to end on real system calls.
 *
 * A program is put together by hand from DIF written in the assembler's
 * syntax, as the compiler would hand it over:
 *
 *	syscall::getppid:entry  { @[execname] = count(); }
 *	syscall::getppid:return /pid == $ourpid/ { trace(arg0); }
 *	dtrace:::BEGIN          { trace(arg0); }
 *	dtrace:::END            { trace(timestamp != 0); }
 *
 * enabled through dt_bpf_engine_ops.  The test then calls getppid(2)
 * exactly N times, and checks that the aggregation counts exactly N for
 * our execname, that N records arrive from the return probe in the one
 * record format (header, size, the return value -- our parent's pid),
 * and that BEGIN and END records come first and last.  Then it enables
 * syscall:::entry (every system call, through one raw_syscalls program)
 * and times attaching and detaching, and counts profile-997 firings while
 * it spins, and checks that each probe gets the mechanism its provider
 * names.  Needs root and BPF; skips without.
 */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/dif/dif.h"
#include "common/dif/dif_asm.h"
#include "common/dif/dif_verify.h"
#include "common/dt_impl.h"
#include "common/probe/dt_probe.h"
#include "common/prov/dt_prov.h"
#include "os/linux/bpf/dt_bpf_engine.h"
#include "os/linux/bpf/dt_bpf_mech.h"
#include "os/linux/dt_linux_features.h"
#include "os/linux/prov/dt_linux_prov.h"
#include "tests/unit/unit.h"

#define NCALLS 1000

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

typedef struct find {
	dt_probe_t *f_probe;
} find_t;

static int
find_cb(dtrace_hdl_t *dtp, dt_probe_t *prp, void *arg)
{
	(void) dtp;
	((find_t *) arg)->f_probe = prp;
	return 0;
}

/* Whether the running kernel's BTF declares the tracepoint event. */
static bool
kernel_has_event(const char *event)
{
	bool have = false;

	return dt_linux_tps_declared(&event, &have, 1) == 0 && have;
}

/* The one probe spec names, or NULL. */
static dt_probe_t *
probe_find(dtrace_hdl_t *dtp, const char *spec)
{
	dt_probedesc_t pd;
	find_t f = { NULL };

	if (dt_probedesc_parse(spec, &pd) != 0 ||
	    dt_probe_iter(dtp, &pd, find_cb, &f) != 1)
		return NULL;
	return f.f_probe;
}

static dt_probe_t *
probe(dtrace_hdl_t *dtp, const char *spec)
{
	dt_probe_t *prp = probe_find(dtp, spec);

	if (prp == NULL) {
		printf("probe %s not found\n", spec);
		exit(1);
	}
	return prp;
}

typedef struct drained {
	uint32_t d_nret;
	uint32_t d_nbad;
	uint32_t d_nother;
	uint64_t d_lastts;
	int d_first;		/* EPID of the first record */
	int d_last;
	int64_t d_begin_arg;
} drained_t;

static int
drain_cb(dtrace_hdl_t *dtp, uint32_t cpu, const void *buf, size_t len,
    void *arg)
{
	drained_t *d = arg;
	const unsigned char *p = buf, *end = p + len;

	(void) dtp;
	(void) cpu;
	while (p + sizeof (dt_rechdr_t) <= end) {
		dt_rechdr_t rh;
		int64_t v = 0;

		memcpy(&rh, p, sizeof (rh));
		if (p + sizeof (rh) + rh.rh_size > end)
			break;
		if (d->d_first == 0)
			d->d_first = (int) rh.rh_epid;
		d->d_last = (int) rh.rh_epid;
		if (rh.rh_size == 8)
			memcpy(&v, p + sizeof (rh), 8);
		if (rh.rh_epid == 2) {
			if (rh.rh_size != 8 || v != (int64_t) getppid())
				d->d_nbad++;
			d->d_nret++;
		} else if (rh.rh_epid == 3) {
			d->d_begin_arg = v;
		} else if (rh.rh_epid != 4) {
			d->d_nother++;
		}
		d->d_lastts = rh.rh_timestamp;
		p += sizeof (rh) + rh.rh_size;
	}
	CHECK(p == end);
	return 0;
}

static double
ms_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double) (t1.tv_sec - t0->tv_sec) * 1e3 +
	    (double) (t1.tv_nsec - t0->tv_nsec) / 1e6;
}

/* syscall:::entry { @[probefunc] = count(); } attach and detach. */
static void
test_all_syscalls(void)
{
	const dt_engine_ops_t *eo = &dt_bpf_engine_ops;
	dif_object_t *key = asm_difo("ldgs probefunc, %r1\nret %r1\n"
	    "RETURN string byref 256\n");
	dt_recdesc_t krec = { DT_REC_STRING, 256, 0, 1, 0, NULL, 0 };
	dt_aggdesc_t agg = { 0, "", DT_AGG_COUNT, { 0 }, 1, 1, &krec, 256,
	    false };
	dt_action_t act = { .ac_kind = DT_ACT_AGGREGATE, .ac_aggid = 0,
		.ac_nkeys = 1, .ac_keys = &key };
	dt_probedesc_t desc;
	dt_stmt_t st = { .st_id = 0, .st_ndescs = 1, .st_descs = &desc,
		.st_nactions = 1, .st_actions = &act };
	dt_program_t pg = { 1, &st, 1, &agg };
	dt_eprobe_t *eps[1024], *epv;
	dtrace_hdl_t *dtp;
	dt_aggsnap_t *snaps;
	uint32_t nsnaps, n = 0, id;
	struct timespec t0;
	int err;
	uint64_t total = 0;

	dtp = dtrace_open(DTRACE_VERSION, 0, &err);
	/* dtrace_open() registers the Linux providers. */
	CHECK(dtp != NULL);
	epv = calloc(1024, sizeof (*epv));
	for (id = 1; id <= dt_probe_count(dtp) && n < 1024; id++) {
		dt_probe_t *prp = dt_probe_lookup_id(dtp, id);

		if (strcmp(prp->pr_prov->pv_name, "syscall") != 0 ||
		    strcmp(prp->pr_name, "entry") != 0)
			continue;
		epv[n].ep_epid = n + 1;
		epv[n].ep_probe = prp;
		epv[n].ep_stmt = &st;
		epv[n].ep_prog = &pg;
		eps[n] = &epv[n];
		n++;
	}
	printf("syscall:::entry matches %u probes\n", (unsigned) n);
	CHECK(n > 250);	/* x86-64 has about 350, arm64 about 300 */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CHECK(eo->eo_open(dtp) == 0);
	CHECK(eo->eo_enable(dtp, eps, n) == 0);
	if (eo->eo_go(dtp) != 0) {
		printf("go: %s\n", dt_bpf_engine_detail(dtp));
		CHECK(0);
	}
	printf("syscall:::entry: enable + attach %.1f ms\n", ms_since(&t0));
	for (int i = 0; i < 10; i++)
		(void) syscall(SYS_getppid);
	CHECK(eo->eo_aggsnap(dtp, &snaps, &nsnaps) == 0);
	for (uint32_t c = 0; c < nsnaps; c++) {
		const unsigned char *p = snaps[c].as_data;

		for (uint32_t e = 0; e < snaps[c].as_nentries; e++) {
			int64_t v;

			memcpy(&v, p + 8 + 256, 8);
			if (strcmp((const char *) p + 8, "getppid") == 0)
				total += (uint64_t) v;
			p += 8 + 256 + 8;
		}
	}
	eo->eo_aggsnap_free(dtp, snaps, nsnaps);
	printf("getppid counted %llu times\n", (unsigned long long) total);
	CHECK(total >= 10);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CHECK(eo->eo_stop(dtp) == 0);
	eo->eo_close(dtp);
	printf("syscall:::entry: stop + detach %.1f ms\n", ms_since(&t0));
	free(epv);
	dif_object_free(key);
	dtrace_close(dtp);
}

/* The firings profile:::profile-997 { @ = count(); } has counted. */
static uint64_t
profile_total(const dt_engine_ops_t *eo, dtrace_hdl_t *dtp)
{
	dt_aggsnap_t *snaps;
	uint32_t nsnaps;
	uint64_t total = 0;

	CHECK(eo->eo_aggsnap(dtp, &snaps, &nsnaps) == 0);
	for (uint32_t c = 0; c < nsnaps; c++) {
		int64_t v;

		if (snaps[c].as_nentries == 0)
			continue;
		CHECK_INT(snaps[c].as_nentries, 1);
		memcpy(&v, snaps[c].as_data + 8, 8);
		total += (uint64_t) v;
	}
	eo->eo_aggsnap_free(dtp, snaps, nsnaps);
	return total;
}

/*
 * profile:::profile-997 { @ = count(); } while we spin: it fires (on an
 * idle machine about 200 times in 0.2 s; a loaded or emulated one gives
 * the spinning thread less time, so we spin on, up to 10 s, until it
 * has), and never more often than 997 Hz on each CPU.
 */
static void
test_profile(void)
{
	const dt_engine_ops_t *eo = &dt_bpf_engine_ops;
	dt_aggdesc_t agg = { 0, "", DT_AGG_COUNT, { 0 }, 1, 0, NULL, 0,
	    false };
	dt_action_t act = { .ac_kind = DT_ACT_AGGREGATE, .ac_aggid = 0 };
	dt_probedesc_t desc;
	dt_stmt_t st = { .st_id = 0, .st_ndescs = 1, .st_descs = &desc,
		.st_nactions = 1, .st_actions = &act };
	dt_program_t pg = { 1, &st, 1, &agg };
	dt_eprobe_t ep, *eps[1] = { &ep };
	uint64_t total = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);
	struct timespec t0;
	dtrace_hdl_t *dtp;
	double ms, spin = 0;
	int err;

	if (!dt_linux_feature(DT_LF_CPU_CLOCK)) {
		printf("profile: %s\n", dt_linux_feature_why(DT_LF_CPU_CLOCK));
		return;
	}
	dtp = dtrace_open(DTRACE_VERSION, 0, &err);
	CHECK(dtp != NULL);
	ep.ep_epid = 1;
	ep.ep_probe = probe(dtp, "profile:::profile-997");
	ep.ep_stmt = &st;
	ep.ep_prog = &pg;
	CHECK(eo->eo_open(dtp) == 0);
	CHECK(eo->eo_enable(dtp, eps, 1) == 0);
	if (eo->eo_go(dtp) != 0) {
		printf("profile go: %s\n", dt_bpf_engine_detail(dtp));
		CHECK(0);
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		spin += 200;
		while (ms_since(&t0) < spin)
			continue;
		total = profile_total(eo, dtp);
	} while (total == 0 && spin < 10000);
	ms = ms_since(&t0);
	printf("profile-997: %llu firings in %.1f s\n",
	    (unsigned long long) total, ms / 1000);
	CHECK(total >= 1);
	CHECK((double) total <=
	    997.0 * (ms / 1000) * (double) (ncpu > 0 ? ncpu : 1) * 1.25 + 8);
	CHECK(eo->eo_stop(dtp) == 0);
	eo->eo_close(dtp);
	dtrace_close(dtp);
}

/*
 * Each probe is served by the mechanism its provider names: the engine
 * finds it in its table without asking which provider the probe is of,
 * every provider the engine runs names one, and a probe whose provider
 * names none the engine has is refused in dtrace's words.
 */
static void
test_mechanisms(void)
{
	/*
	 * m_event: the kernel event a probe needs that not every kernel
	 * has (sched:::on-cpu is on sched_exit_tp, new in Linux 6.14); the
	 * provider offers no such probe without it, and the check is
	 * skipped with the reason printed.
	 */
	static const struct {
		const char *m_spec;
		const dt_bpf_mech_t *m_mech;
		const char *m_event;
	} want[] = {
		{ "dtrace:::BEGIN", &dt_bpf_mech_demand, NULL },
		{ "dtrace:::ERROR", &dt_bpf_mech_demand, NULL },
		{ "profile:::tick-1", &dt_bpf_mech_timer, NULL },
		{ "profile:::profile-97", &dt_bpf_mech_timer, NULL },
		{ "syscall::getppid:entry", &dt_bpf_mech_syscall, NULL },
		{ "syscall::getppid:return", &dt_bpf_mech_syscall, NULL },
		{ "sdt:sched::sched_switch", &dt_bpf_mech_tp, NULL },
		{ "rawtp:sched::sched_switch", &dt_bpf_mech_tp, NULL },
		{ "sched:::off-cpu", &dt_bpf_mech_tp, NULL },
		{ "sched:::on-cpu", &dt_bpf_mech_tp, "sched_exit_tp" },
	};
	static const dt_provops_t nomech_ops = { .po_mech = "nosuch" };
	static const dt_provattr_t attr;
	dtrace_hdl_t *dtp;
	dt_probe_t *prp;
	int err;

	dtp = dtrace_open(DTRACE_VERSION, 0, &err);
	CHECK(dtp != NULL);
	CHECK(dt_bpf_engine_ops.eo_open(dtp) == 0);
	for (size_t i = 0; i < sizeof (want) / sizeof (want[0]); i++) {
		const dt_bpf_mech_t *m;

		if (want[i].m_event != NULL &&
		    probe_find(dtp, want[i].m_spec) == NULL) {
			CHECK(!kernel_has_event(want[i].m_event));
			printf("%s: skipped, this kernel has no %s\n",
			    want[i].m_spec, want[i].m_event);
			continue;
		}
		m = dt_bpf_mech_of(dtp, probe(dtp, want[i].m_spec));

		if (m != want[i].m_mech)
			printf("%s: mechanism %s, want %s\n", want[i].m_spec,
			    m != NULL ? m->bm_name : "none",
			    want[i].m_mech->bm_name);
		CHECK(m == want[i].m_mech);
	}
	for (dt_provider_t *pvp = dtp->dt_provs; pvp != NULL;
	    pvp = pvp->pv_next) {
		/* (A family makes providers; its own has no probes.) */
		if (!(pvp->pv_engines & DT_ENGINE_F_KERNEL) ||
		    pvp->pv_ops->po_family != NULL)
			continue;
		if (pvp->pv_ops->po_mech == NULL)
			printf("provider %s names no mechanism\n",
			    pvp->pv_name);
		CHECK(pvp->pv_ops->po_mech != NULL);
	}
	CHECK(dt_provider_register(dtp, "nomech", &nomech_ops, &attr,
	    DT_ENGINE_F_KERNEL, NULL) == 0);
	prp = dt_probe_create(dtp, dt_provider_lookup(dtp, "nomech"), "", "",
	    "x", 0, NULL, NULL);
	CHECK(prp != NULL);
	CHECK(dt_bpf_mech_of(dtp, prp) == NULL);
	CHECK_STR(dt_bpf_engine_detail(dtp),
	    "the bpf engine cannot attach nomech:::x");
	dt_bpf_engine_ops.eo_close(dtp);
	dtrace_close(dtp);
}

int
main(void)
{
	const dt_engine_ops_t *eo = &dt_bpf_engine_ops;
	dtrace_hdl_t *dtp;
	dif_object_t *key, *arg0, *pred, *ts;
	dt_recdesc_t krec = { DT_REC_STRING, 256, 0, 1, 0, NULL, 0 };
	dt_aggdesc_t agg = { 0, "", DT_AGG_COUNT, { 0 }, 1, 1, &krec, 256,
	    false };
	dt_action_t act_agg = { .ac_kind = DT_ACT_AGGREGATE, .ac_aggid = 0,
		.ac_nkeys = 1 };
	dt_actarg_t targ = { NULL, { DT_REC_SINT, 8, 0, 8, 0, NULL, 0 } };
	dt_actarg_t tsarg = { NULL, { DT_REC_SINT, 8, 0, 8, 0, NULL, 0 } };
	dt_action_t act_trace = { .ac_kind = DT_ACT_TRACE, .ac_nargs = 1,
		.ac_args = &targ };
	dt_action_t act_ts = { .ac_kind = DT_ACT_TRACE, .ac_nargs = 1,
		.ac_args = &tsarg };
	dt_probedesc_t d[4];
	dt_stmt_t st[4];
	dt_program_t pg;
	dt_eprobe_t ep[4], *eps[4];
	dt_aggsnap_t *snaps;
	uint32_t nsnaps;
	uint64_t ours = 0, others = 0;
	drained_t dr;
	char comm[16] = "", text[512];
	dt_engine_status_t es;
	int err;

	if (geteuid() != 0)
		SKIP("not root: the BPF engine needs root");
	if (!dt_linux_feature(DT_LF_BPF) || !dt_linux_feature(DT_LF_RINGBUF) ||
	    !dt_linux_feature(DT_LF_TRACEPOINT))
		SKIP("no BPF tracing on this kernel");

	key = asm_difo("ldgs execname, %r1\nret %r1\n"
	    "RETURN string byref 256\n");
	arg0 = asm_difo("ldgs arg0, %r1\nret %r1\nRETURN ctf signed 8\n");
	snprintf(text, sizeof (text),
	    "ldgs pid, %%r1\nsetx %d, %%r2\ncmp %%r1, %%r2\nbe L1\n"
	    "ret %%r0\nL1:\nsetx 1, %%r3\nret %%r3\nRETURN ctf signed 8\n",
	    (int) getpid());
	pred = asm_difo(text);
	ts = asm_difo("ldgs timestamp, %r1\ntst %r1\nbne L1\nret %r0\nL1:\n"
	    "setx 1, %r2\nret %r2\nRETURN ctf signed 8\n");
	act_agg.ac_keys = &key;
	targ.aa_difo = arg0;
	tsarg.aa_difo = ts;

	memset(st, 0, sizeof (st));
	memset(d, 0, sizeof (d));
	st[0].st_descs = &d[0];
	st[0].st_nactions = 1;
	st[0].st_actions = &act_agg;
	st[1].st_descs = &d[1];
	st[1].st_pred = pred;
	st[1].st_nactions = 1;
	st[1].st_actions = &act_trace;
	st[1].st_size = 8;
	st[2].st_descs = &d[2];
	st[2].st_nactions = 1;
	st[2].st_actions = &act_trace;
	st[2].st_size = 8;
	st[3].st_descs = &d[3];
	st[3].st_nactions = 1;
	st[3].st_actions = &act_ts;
	st[3].st_size = 8;
	for (int i = 0; i < 4; i++) {
		st[i].st_id = (uint32_t) i;
		st[i].st_ndescs = 1;
	}
	pg.pg_nstmts = 4;
	pg.pg_stmts = st;
	pg.pg_naggs = 1;
	pg.pg_aggs = &agg;

	dtp = dtrace_open(DTRACE_VERSION, 0, &err);
	CHECK(dtp != NULL);
	ep[0].ep_probe = probe(dtp, "syscall::getppid:entry");
	ep[1].ep_probe = probe(dtp, "syscall::getppid:return");
	ep[2].ep_probe = probe(dtp, "dtrace:::BEGIN");
	ep[3].ep_probe = probe(dtp, "dtrace:::END");
	for (int i = 0; i < 4; i++) {
		ep[i].ep_epid = (uint32_t) i + 1;
		ep[i].ep_stmt = &st[i];
		ep[i].ep_prog = &pg;
		eps[i] = &ep[i];
	}

	CHECK(eo->eo_open(dtp) == 0);
	CHECK(eo->eo_enable(dtp, eps, 4) == 0);
	if (eo->eo_go(dtp) != 0) {
		printf("go failed: %s\n", dt_bpf_engine_detail(dtp));
		return unit_done() + 1;
	}
	for (int i = 0; i < NCALLS; i++)
		(void) syscall(SYS_getppid);

	/* The aggregation: exactly NCALLS for our execname. */
	(void) pthread_getname_np(pthread_self(), comm, sizeof (comm));
	CHECK(eo->eo_aggsnap(dtp, &snaps, &nsnaps) == 0);
	CHECK(nsnaps >= 1);
	for (uint32_t c = 0; c < nsnaps; c++) {
		const unsigned char *p = snaps[c].as_data;

		for (uint32_t e = 0; e < snaps[c].as_nentries; e++) {
			uint64_t id;
			int64_t v;

			memcpy(&id, p, 8);
			CHECK_INT(id, 0);
			memcpy(&v, p + 8 + 256, 8);
			if (strcmp((const char *) p + 8, comm) == 0)
				ours += (uint64_t) v;
			else
				others += (uint64_t) v;
			p += 8 + 256 + 8;
		}
		CHECK(p == snaps[c].as_data + snaps[c].as_size);
	}
	eo->eo_aggsnap_free(dtp, snaps, nsnaps);
	printf("%s: %llu getppid calls counted (others: %llu)\n", comm,
	    (unsigned long long) ours, (unsigned long long) others);
	CHECK_INT(ours, NCALLS);

	CHECK(eo->eo_stop(dtp) == 0);
	memset(&dr, 0, sizeof (dr));
	CHECK(eo->eo_drain(dtp, drain_cb, &dr) == 0);
	printf("records: %u from getppid:return, %u bad, %u other\n",
	    (unsigned) dr.d_nret, (unsigned) dr.d_nbad,
	    (unsigned) dr.d_nother);
	CHECK_INT(dr.d_nret, NCALLS);
	CHECK_INT(dr.d_nbad, 0);
	CHECK_INT(dr.d_nother, 0);
	CHECK_INT(dr.d_first, 3);	/* BEGIN */
	CHECK_INT(dr.d_last, 4);	/* END */
	CHECK_INT(dr.d_begin_arg, 0);
	eo->eo_status(dtp, &es);
	CHECK_INT(es.es_drops, 0);
	CHECK_INT(es.es_errors, 0);
	eo->eo_close(dtp);
	dtrace_close(dtp);

	test_all_syscalls();
	test_profile();
	test_mechanisms();

	dif_object_free(key);
	dif_object_free(arg0);
	dif_object_free(pred);
	dif_object_free(ts);
	return unit_done();
}
