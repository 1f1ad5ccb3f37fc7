/* SPDX-License-Identifier: MIT */
/*
 * dt_interp_engine.c: the portable engine -- enabled programs run by the
 * DIF interpreter inside the consumer's process.
 *
 * It needs no privilege and no kernel support, so it runs every script
 * whose probes the process can fire by itself: dtrace:::BEGIN, END and
 * ERROR, and the profile provider's timers.  (The ptrace engine builds on
 * it to fire pid and syscall probes of traced processes.)  It is also the
 * reference the BPF engine is tested against: same program, same records.
 *
 * Data structures, all hanging off dt_interp_t:
 *
 *	ip_byprobe[id]	the enabled probes (EPIDs) of probe id, in EPID
 *			order, which is program order: a firing runs them
 *			in that order
 *	ip_timers	one per enabled profile probe, with its next due time
 *	ip_bufs[cpu]	the principal buffer of each CPU: dt_rechdr_t + data
 *			records, up to bufsize bytes; what does not fit is
 *			counted as a drop
 *	ip_aggs		a hash table from (aggregation ID, key bytes) to
 *			value words, bounded by aggsize; clear() and trunc()
 *			take an aggregation's keys out, and their space back
 *	ip_specs	the nspec speculations' states (dt_spec.h); busy
 *			ones are cleaned at each poll, which comes at least
 *			every cleanrate while there are some
 *	ip_cpuinfo	the cpuinfo_t of each CPU, which curcpu points to,
 *			read from the OS at its first use; clauses may load
 *			from it as from their own storage
 *
 * Destructive actions act in the probe context: raise() and stop() signal
 * the thread (process) that fired -- for BEGIN, END, ERROR and timers,
 * which fire in the consumer's own process as DTrace's BEGIN does, that
 * is dtrace itself -- and chill() spins, at most 500 ms in any second, as
 * DTrace bounds it.  copyout() writes only where a firing context can
 * write (a traced process), never into dtrace's own memory.
 *
 * A clause that faults loses its record; a fault record (DT_EPID_FAULT)
 * tells the consumer, and the ERROR probe fires so ERROR clauses run.
 * After exit() no probe but END fires, as in DTrace.
 */
#include <errno.h>
#include <signal.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/dif/dif_interp.h"
#include "common/dt_aggfunc.h"
#include "common/dt_impl.h"
#include "common/dt_os.h"
#include "common/engine/dt_engine.h"
#include "common/engine/dt_spec.h"
#include "common/engine/dt_interp.h"
#include "common/probe/dt_probe.h"
#include "common/prov/dt_prov.h"

#define DT_INTERP_MAXCPUS  DT_ENGINE_MAXCPUS
#define DT_INTERP_AGGHASH  4096	/* chains at first; doubled as keys come */

typedef struct dt_ieplist {
	dt_eprobe_t **el_eps;
	uint32_t el_n;
	uint32_t el_cap;
} dt_ieplist_t;

typedef struct dt_itimer {
	uint32_t it_probe;
	int64_t it_period;
	uint64_t it_next;	/* dt_os_timestamp() when due */
} dt_itimer_t;

typedef struct dt_ibuf {
	unsigned char *ib_data;
	size_t ib_len;
	size_t ib_cap;
	uint64_t ib_drops;
	uint64_t ib_aggdrops;
} dt_ibuf_t;

typedef struct dt_iagg {
	struct dt_iagg *ia_next;
	uint32_t ia_aggid;
	uint32_t ia_hash;
	int64_t *ia_vals;
	unsigned char ia_key[]; /* ag_keysize bytes */
} dt_iagg_t;

typedef struct dt_interp {
	dif_state_t *ip_state;
	dif_mstate_t *ip_ms;	   /* for ordinary firings */
	dif_mstate_t *ip_errms;	   /* for ERROR, which fires mid-firing */
	dt_ieplist_t *ip_byprobe;  /* indexed by probe ID */
	uint32_t ip_nbyprobe;
	dt_itimer_t *ip_timers;
	uint32_t ip_ntimers;
	dt_ibuf_t ip_bufs[DT_INTERP_MAXCPUS];
	size_t ip_bufsize;
	dt_iagg_t **ip_aggs;	   /* ip_naggchains chains, a power of 2 */
	uint32_t ip_naggchains;
	size_t ip_naggs;	   /* entries in ip_aggs */
	size_t ip_aggbytes;
	size_t ip_aggsize;
	const dt_program_t *ip_prog; /* for aggregation descriptions */
	unsigned char *ip_keybuf;
	size_t ip_keybuf_size;
	bool ip_active;
	bool ip_exited;		   /* exit() ran: only END may fire */
	/* BEGIN or END firing: the consumer's registers for uregs[]. */
	uint64_t ip_uregs[64];
	size_t ip_nuregs;
	bool ip_stopped;
	bool ip_in_error;	   /* an ERROR clause is running */
	dt_spec_t *ip_specs;
	uint32_t ip_nspec;
	uint64_t ip_specsize;
	uint64_t ip_cleanrate;	   /* ns */
	dt_cpuinfo_t *ip_cpuinfo;
	uint32_t ip_ncpuinfo;
	const dt_interp_ctx_t *ip_ctx; /* firing in another process */
	dt_interp_wait_f *ip_wait;
	dt_engine_status_t ip_status;
	uint64_t ip_chill_start;   /* the one-second window of chill() */
	uint64_t ip_chill_ns;	   /* spun in it so far */
	int64_t ip_nfired;	   /* count() adds this: dt_interp_count() */
} dt_interp_t;

/* DTrace spins for chill() at most this long in any one second. */
#define DT_INTERP_CHILL_MAX 500000000ULL

static dt_interp_t *
dt_interp(dtrace_hdl_t *dtp)
{
	return dtp->dt_engine_data;
}

/*
 * Context callbacks for the interpreter.  The probe context of every probe
 * this engine fires is the consumer process itself, as with DTrace's BEGIN.
 */
static int
dt_interp_read(void *arg, dif_as_t as, uint64_t addr, void *buf, size_t size)
{
	const dt_interp_t *ip = dt_interp(arg);
	const dt_interp_ctx_t *ctx = ip->ip_ctx;
	uint64_t ci = (uint64_t) (uintptr_t) ip->ip_cpuinfo;
	uint64_t cilen = (uint64_t) ip->ip_ncpuinfo * sizeof (dt_cpuinfo_t);

	if (ci != 0 && addr >= ci && size <= cilen && addr - ci <= cilen -
	    size) {
		memcpy(buf, (const void *) (uintptr_t) addr, size);
		return 0;
	}
	if (ctx != NULL && ctx->ic_ops->do_read != NULL)
		return ctx->ic_ops->do_read(ctx->ic_arg, as, addr, buf, size);
	/*
	 * Neither kernel memory nor (yet) any process's memory is
	 * reachable from here: every load outside the interpreter's own
	 * storage is an invalid address.
	 */
	(void) arg;
	(void) as;
	(void) addr;
	(void) buf;
	(void) size;
	return -1;
}

/* copyout(), copyoutstr(): only into the memory of a traced process. */
static int
dt_interp_write(void *arg, uint64_t addr, const void *buf, size_t size)
{
	const dt_interp_ctx_t *ctx = dt_interp(arg)->ip_ctx;

	if (ctx != NULL && ctx->ic_ops->do_write != NULL)
		return ctx->ic_ops->do_write(ctx->ic_arg, addr, buf, size);
	return -1;
}

/* curcpu: the address of this CPU's cpuinfo_t. */
static int
dt_interp_curcpu(dt_interp_t *ip, uint64_t *valp)
{
	uint32_t cpu = dt_os_getcpu();

	if (ip->ip_cpuinfo == NULL) {
		uint32_t n = dt_os_ncpus();

		if ((ip->ip_cpuinfo = calloc(n, sizeof (dt_cpuinfo_t))) ==
		    NULL)
			return -1;
		for (uint32_t i = 0; i < n; i++)
			dt_os_cpuinfo(i, &ip->ip_cpuinfo[i]);
		ip->ip_ncpuinfo = n;
	}
	if (cpu >= ip->ip_ncpuinfo)
		cpu = 0;
	*valp = (uint64_t) (uintptr_t) &ip->ip_cpuinfo[cpu];
	return 0;
}

static int
dt_interp_var(void *arg, uint32_t id, uint64_t ndx, uint64_t *valp)
{
	const dt_interp_ctx_t *ctx = dt_interp(arg)->ip_ctx;

	if (ctx != NULL && ctx->ic_ops->do_var != NULL &&
	    ctx->ic_ops->do_var(ctx->ic_arg, id, ndx, valp) == 0)
		return 0;
	(void) ndx;
	switch (id) {
	case DIF_VAR_PID:
		*valp = (uint64_t) getpid();
		return 0;
	case DIF_VAR_PPID:
		*valp = (uint64_t) getppid();
		return 0;
	case DIF_VAR_TID:
		*valp = dt_os_gettid();
		return 0;
	case DIF_VAR_UID:
		*valp = (uint64_t) getuid();
		return 0;
	case DIF_VAR_GID:
		*valp = (uint64_t) getgid();
		return 0;
	case DIF_VAR_CPU:
		*valp = dt_os_getcpu();
		return 0;
	case DIF_VAR_VTIMESTAMP:
		*valp = dt_os_thread_cputime();
		return 0;
	case DIF_VAR_WALLTIMESTAMP:
		*valp = dt_os_walltimestamp();
		return 0;
	case DIF_VAR_ERRNO:
	case DIF_VAR_IPL:
	case DIF_VAR_CALLER:
	case DIF_VAR_UCALLER:
	case DIF_VAR_STACKDEPTH:
	case DIF_VAR_USTACKDEPTH:
	case DIF_VAR_CURTHREAD:
		*valp = 0;
		return 0;
	case DIF_VAR_CURCPU:
		return dt_interp_curcpu(dt_interp(arg), valp);
	case DIF_VAR_UREGS: {
		const dt_interp_t *ip = dt_interp(arg);

		if (ndx >= ip->ip_nuregs)
			return -1;
		*valp = ip->ip_uregs[ndx];
		return 0;
	}
	default:
		return -1;
	}
}

static int
dt_interp_varstr(void *arg, uint32_t id, char *buf, size_t size)
{
	const dt_interp_ctx_t *ctx = dt_interp(arg)->ip_ctx;

	if (size == 0)
		return -1;
	if (ctx != NULL && ctx->ic_ops->do_varstr != NULL &&
	    ctx->ic_ops->do_varstr(ctx->ic_arg, id, buf, size) == 0)
		return 0;
	switch (id) {
	case DIF_VAR_EXECNAME:
		snprintf(buf, size, "dtrace");
		return 0;
	case DIF_VAR_ZONENAME:
		snprintf(buf, size, "global");
		return 0;
	case DIF_VAR_ROOT:
		snprintf(buf, size, "/");
		return 0;
	case DIF_VAR_CWD: {
		/* Cut to strsize, as the other engines' cwd is. */
		char path[PATH_MAX];

		if (getcwd(path, sizeof (path)) == NULL)
			return -1;
		snprintf(buf, size, "%s", path);
		return 0;
	}
	case DIF_VAR_EXECARGS:
		return dt_os_proc_args((int) getpid(), buf, size);
	default:
		return -1;
	}
}

/* speculation(): the only subroutine this engine answers itself. */
static int
dt_interp_subr(void *arg, uint32_t subr, const uint64_t *args, int nargs,
    uint64_t *valp)
{
	dt_interp_t *ip = dt_interp(arg);
	bool busy;

	(void) args;
	(void) nargs;
	if (subr != DIF_SUBR_SPECULATION)
		return -1;
	*valp = dt_spec_alloc(ip->ip_specs, ip->ip_nspec, &busy);
	if (*valp == 0 && busy)
		ip->ip_status.es_specbusy++;
	else if (*valp == 0)
		ip->ip_status.es_specunavail++;
	return 0;
}

static const dif_ops_t dt_interp_dif_ops = {
	.do_read = dt_interp_read,
	.do_write = dt_interp_write,
	.do_var = dt_interp_var,
	.do_varstr = dt_interp_varstr,
	.do_subr = dt_interp_subr,
};

static int
dt_interp_open(dtrace_hdl_t *dtp)
{
	dt_interp_t *ip;
	dif_options_t opts = { 0 };

	if ((ip = calloc(1, sizeof (*ip))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	opts.dio_strsize = (uint64_t) dtp->dt_options[DT_OPT_STRSIZE];
	opts.dio_dynvarsize = (uint64_t) dtp->dt_options[DT_OPT_DYNVARSIZE];
	if (dtp->dt_options[DT_OPT_SCRATCHSIZE] != DTRACEOPT_UNSET) {
		opts.dio_scratchset = true;
		opts.dio_scratchsize =
		    (uint64_t) dtp->dt_options[DT_OPT_SCRATCHSIZE];
	}
	opts.dio_ops = &dt_interp_dif_ops;
	opts.dio_arg = dtp;
	ip->ip_nfired = 1;
	ip->ip_bufsize = (size_t) dtp->dt_options[DT_OPT_BUFSIZE];
	ip->ip_aggsize = (size_t) dtp->dt_options[DT_OPT_AGGSIZE];
	ip->ip_nspec = (uint32_t) dtp->dt_options[DT_OPT_NSPEC];
	ip->ip_specsize = (uint64_t) dtp->dt_options[DT_OPT_SPECSIZE];
	ip->ip_cleanrate = (uint64_t) dtp->dt_options[DT_OPT_CLEANRATE];
	if ((ip->ip_nspec > 0 && (ip->ip_specs = calloc(ip->ip_nspec,
	    sizeof (dt_spec_t))) == NULL) ||
	    (ip->ip_state = dif_state_create(&opts)) == NULL ||
	    (ip->ip_ms = dif_mstate_create(ip->ip_state, 0)) == NULL ||
	    (ip->ip_errms = dif_mstate_create(ip->ip_state, 0)) == NULL) {
		if (ip->ip_ms != NULL)
			dif_mstate_destroy(ip->ip_ms);
		if (ip->ip_state != NULL)
			dif_state_destroy(ip->ip_state);
		free(ip->ip_specs);
		free(ip);
		return dt_set_errno(dtp, EDT_NOMEM);
	}
	dtp->dt_engine_data = ip;
	return 0;
}

static void
dt_interp_close(dtrace_hdl_t *dtp)
{
	dt_interp_t *ip = dt_interp(dtp);

	if (ip == NULL)
		return;
	for (uint32_t i = 0; i < ip->ip_nbyprobe; i++)
		free(ip->ip_byprobe[i].el_eps);
	free(ip->ip_byprobe);
	free(ip->ip_timers);
	for (int c = 0; c < DT_INTERP_MAXCPUS; c++)
		free(ip->ip_bufs[c].ib_data);
	for (uint32_t h = 0; h < ip->ip_naggchains; h++) {
		while (ip->ip_aggs[h] != NULL) {
			dt_iagg_t *next = ip->ip_aggs[h]->ia_next;

			free(ip->ip_aggs[h]->ia_vals);
			free(ip->ip_aggs[h]);
			ip->ip_aggs[h] = next;
		}
	}
	free(ip->ip_aggs);
	free(ip->ip_keybuf);
	free(ip->ip_cpuinfo);
	dif_mstate_destroy(ip->ip_errms);
	dif_mstate_destroy(ip->ip_ms);
	dif_state_destroy(ip->ip_state);
	free(ip->ip_specs);
	free(ip);
	dtp->dt_engine_data = NULL;
}

static int
dt_interp_add_timer(dtrace_hdl_t *dtp, dt_interp_t *ip, const dt_probe_t *prp)
{
	const dt_profile_timer_t *pt = dt_prov_profile_timer(prp);
	dt_itimer_t *t;

	for (uint32_t i = 0; i < ip->ip_ntimers; i++) {
		if (ip->ip_timers[i].it_probe == prp->pr_id)
			return 0;
	}
	t = realloc(ip->ip_timers, (ip->ip_ntimers + 1) * sizeof (*t));
	if (t == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	ip->ip_timers = t;
	t += ip->ip_ntimers++;
	t->it_probe = prp->pr_id;
	t->it_period = pt->pt_period;
	t->it_next = 0;
	return 0;
}

static int
dt_interp_enable(dtrace_hdl_t *dtp, dt_eprobe_t *const *eps, size_t n)
{
	dt_interp_t *ip = dt_interp(dtp);

	for (size_t i = 0; i < n; i++) {
		dt_eprobe_t *ep = eps[i];
		uint32_t id = ep->ep_probe->pr_id;
		dt_ieplist_t *el;

		/* An engine built on this one adds probes of its own. */
		if (!(ep->ep_probe->pr_prov->pv_engines &
			(DT_ENGINE_F_INTERP | dtp->dt_engine->eo_flag)))
			return dt_set_errno(dtp, EDT_NOTSUP);
		if (id >= ip->ip_nbyprobe) {
			uint32_t cap = id + 16;
			dt_ieplist_t *p = realloc(ip->ip_byprobe,
			    cap * sizeof (*p));

			if (p == NULL)
				return dt_set_errno(dtp, EDT_NOMEM);
			memset(p + ip->ip_nbyprobe, 0,
			    (cap - ip->ip_nbyprobe) * sizeof (*p));
			ip->ip_byprobe = p;
			ip->ip_nbyprobe = cap;
		}
		el = &ip->ip_byprobe[id];
		if (el->el_n == el->el_cap) {
			uint32_t cap = el->el_cap ? el->el_cap * 2 : 4;
			dt_eprobe_t **p = realloc(el->el_eps, cap * sizeof (*p));

			if (p == NULL)
				return dt_set_errno(dtp, EDT_NOMEM);
			el->el_eps = p;
			el->el_cap = cap;
		}
		el->el_eps[el->el_n++] = ep;
		ip->ip_prog = ep->ep_prog;
		if (dt_prov_profile_timer(ep->ep_probe) != NULL &&
		    dt_interp_add_timer(dtp, ip, ep->ep_probe) != 0)
			return -1;
	}
	return 0;
}

/* Reserve len zeroed bytes at the end of a CPU's buffer, or NULL (drop). */
static unsigned char *
dt_interp_reserve(dt_interp_t *ip, uint32_t cpu, size_t len)
{
	dt_ibuf_t *b = &ip->ip_bufs[cpu % DT_INTERP_MAXCPUS];
	unsigned char *p;

	if (b->ib_len + len > ip->ip_bufsize) {
		ip->ip_status.es_drops++;
		b->ib_drops++;
		return NULL;
	}
	if (b->ib_len + len > b->ib_cap) {
		size_t cap = b->ib_cap ? b->ib_cap : 4096;

		while (cap < b->ib_len + len)
			cap *= 2;
		if (cap > ip->ip_bufsize)
			cap = ip->ip_bufsize;
		if ((p = realloc(b->ib_data, cap)) == NULL) {
			ip->ip_status.es_drops++;
			b->ib_drops++;
			return NULL;
		}
		b->ib_data = p;
		b->ib_cap = cap;
	}
	p = b->ib_data + b->ib_len;
	memset(p, 0, len);
	b->ib_len += len;
	return p;
}

static void
dt_interp_unreserve(dt_interp_t *ip, uint32_t cpu, size_t len)
{
	ip->ip_bufs[cpu % DT_INTERP_MAXCPUS].ib_len -= len;
}

/* Store a value computed by DIF into its record, by record type. */
static int
dt_interp_store(dt_interp_t *ip, dif_mstate_t *ms, const dt_recdesc_t *rd,
    uint64_t v, unsigned char *dst)
{
	uint64_t pid = ip->ip_ctx != NULL ? ip->ip_ctx->ic_pid :
	    (uint64_t) getpid();

	switch (rd->rd_type) {
	case DT_REC_NONE:
		return 0;
	case DT_REC_STRING:
		return dif_readstr(ms, v, (char *) dst, rd->rd_size);
	case DT_REC_BYTES:
		return dif_read(ms, v, dst, rd->rd_size);
	case DT_REC_STACK:
		/* No kernel stack in this engine: zero frames. */
		return 0;
	case DT_REC_USTACK:
		memcpy(dst, &pid, sizeof (pid));
		if (ip->ip_ctx != NULL && ip->ip_ctx->ic_ustack != NULL &&
		    rd->rd_size > 8) {
			uint64_t n = (rd->rd_size - 8) / 8;

			if (n > rd->rd_arg)
				n = rd->rd_arg;
			/* The record is 8-aligned; unused frames stay 0. */
			(void) ip->ip_ctx->ic_ustack(ip->ip_ctx->ic_arg,
			    (uint64_t *) (void *) (dst + 8), (uint32_t) n);
		}
		return 0;
	case DT_REC_USYM:
	case DT_REC_UMOD:
	case DT_REC_UADDR:
		memcpy(dst, &pid, sizeof (pid));
		memcpy(dst + 8, &v, sizeof (v));
		return 0;
	default:
		/* Integers: the low rd_size bytes, little-endian as loaded. */
		memcpy(dst, &v, rd->rd_size < 8 ? rd->rd_size : 8);
		return 0;
	}
}

/*
 * Double the chains once there are as many entries, so that a firing's
 * lookup stays O(1) with any number of keys.  False on ENOMEM (the table
 * stays as it was, only slower).
 */
static bool
dt_interp_agg_grow(dt_interp_t *ip)
{
	uint32_t n = ip->ip_naggchains ? ip->ip_naggchains * 2
				       : DT_INTERP_AGGHASH;
	dt_iagg_t **t = calloc(n, sizeof (*t));

	if (t == NULL)
		return false;
	for (uint32_t h = 0; h < ip->ip_naggchains; h++) {
		while (ip->ip_aggs[h] != NULL) {
			dt_iagg_t *ia = ip->ip_aggs[h];

			ip->ip_aggs[h] = ia->ia_next;
			ia->ia_next = t[ia->ia_hash & (n - 1)];
			t[ia->ia_hash & (n - 1)] = ia;
		}
	}
	free(ip->ip_aggs);
	ip->ip_aggs = t;
	ip->ip_naggchains = n;
	return true;
}

static dt_iagg_t *
dt_interp_agg_lookup(dt_interp_t *ip, const dt_aggdesc_t *agg,
    const unsigned char *key, uint32_t cpu)
{
	uint32_t h = 2166136261u ^ agg->ag_id;
	dt_iagg_t *ia;
	size_t need;

	for (uint32_t i = 0; i < agg->ag_keysize; i++)
		h = (h ^ key[i]) * 16777619u;
	for (ia = ip->ip_naggchains ? ip->ip_aggs[h & (ip->ip_naggchains - 1)]
				    : NULL; ia != NULL;
	    ia = ia->ia_next) {
		if (ia->ia_hash == h && ia->ia_aggid == agg->ag_id &&
		    (agg->ag_keysize == 0 ||
			memcmp(ia->ia_key, key, agg->ag_keysize) == 0))
			return ia;
	}
	need = (size_t) dt_agg_entsize(agg);
	if (ip->ip_aggbytes + need > ip->ip_aggsize) {
		ip->ip_status.es_aggdrops++;
		ip->ip_bufs[cpu % DT_INTERP_MAXCPUS].ib_aggdrops++;
		return NULL;
	}
	if ((ia = malloc(sizeof (*ia) + agg->ag_keysize)) == NULL)
		return NULL;
	if ((ia->ia_vals = malloc(agg->ag_nvals * sizeof (int64_t))) == NULL) {
		free(ia);
		return NULL;
	}
	ia->ia_aggid = agg->ag_id;
	ia->ia_hash = h;
	if (agg->ag_keysize > 0)
		memcpy(ia->ia_key, key, agg->ag_keysize);
	dt_agg_init(agg->ag_kind, ia->ia_vals, agg->ag_nvals);
	if (ip->ip_naggs >= ip->ip_naggchains && !dt_interp_agg_grow(ip) &&
	    ip->ip_naggchains == 0) {
		free(ia->ia_vals);
		free(ia);
		return NULL;
	}
	ia->ia_next = ip->ip_aggs[h & (ip->ip_naggchains - 1)];
	ip->ip_aggs[h & (ip->ip_naggchains - 1)] = ia;
	ip->ip_naggs++;
	ip->ip_aggbytes += need;
	return ia;
}

static int
dt_interp_aggregate(dt_interp_t *ip, dif_mstate_t *ms,
    const dt_program_t *pgp, const dt_action_t *ap, uint32_t cpu)
{
	const dt_aggdesc_t *agg = &pgp->pg_aggs[ap->ac_aggid];
	uint64_t v = 0, incr = 1;
	dt_iagg_t *ia;
	int rc;

	if (agg->ag_keysize > ip->ip_keybuf_size) {
		unsigned char *p = realloc(ip->ip_keybuf, agg->ag_keysize);

		if (p == NULL)
			return 0;
		ip->ip_keybuf = p;
		ip->ip_keybuf_size = agg->ag_keysize;
	}
	if (agg->ag_keysize > 0)
		memset(ip->ip_keybuf, 0, agg->ag_keysize);
	for (uint32_t k = 0; k < ap->ac_nkeys; k++) {
		const dt_recdesc_t *rd = &agg->ag_keys[k];

		if ((rc = dif_exec(ip->ip_state, ms, ap->ac_keys[k], &v)) != 0)
			return rc;
		if ((rc = dt_interp_store(ip, ms, rd, v,
			 ip->ip_keybuf + rd->rd_offset)) != 0)
			return rc;
	}
	if (ap->ac_nargs > 0 &&
	    (rc = dif_exec(ip->ip_state, ms, ap->ac_args[0].aa_difo, &v)) != 0)
		return rc;
	if (ap->ac_nargs > 1 && (rc = dif_exec(ip->ip_state, ms,
				     ap->ac_args[1].aa_difo, &incr)) != 0)
		return rc;
	if ((ia = dt_interp_agg_lookup(ip, agg, ip->ip_keybuf, cpu)) == NULL)
		return 0;
	if (agg->ag_kind == DT_AGG_COUNT)
		ia->ia_vals[0] += ip->ip_nfired;
	else
		dt_agg_update(agg, ia->ia_vals, (int64_t) v, (int64_t) incr);
	return 0;
}

static void dt_interp_fire(dtrace_hdl_t *dtp, uint32_t id,
    const uint64_t *args, int nargs);

/* Report a fault: a record for the consumer, then the ERROR probe. */
static void
dt_interp_fault(dtrace_hdl_t *dtp, dt_interp_t *ip, uint32_t cpu,
    const dt_eprobe_t *ep, uint32_t action, const dif_fault_t *f)
{
	dt_rechdr_t *rh;
	dt_faultrec_t fr;
	unsigned char *p;
	uint64_t args[6];

	ip->ip_status.es_errors++;
	fr.fr_epid = ep->ep_epid;
	fr.fr_action = action;
	fr.fr_offset = f->df_offset;
	fr.fr_kind = (uint32_t) f->df_kind;
	fr.fr_addr = f->df_addr;
	if ((p = dt_interp_reserve(ip, cpu, sizeof (*rh) + sizeof (fr))) !=
	    NULL) {
		rh = (dt_rechdr_t *) p;
		rh->rh_epid = DT_EPID_FAULT;
		rh->rh_size = sizeof (fr);
		rh->rh_timestamp = dt_os_timestamp();
		memcpy(p + sizeof (*rh), &fr, sizeof (fr));
	}
	/* A fault in an ERROR clause does not fire ERROR again. */
	if (ip->ip_in_error)
		return;
	args[0] = 0;
	args[1] = ep->ep_epid;
	args[2] = action;
	args[3] = (uint64_t) (int64_t) f->df_offset;
	args[4] = (uint64_t) f->df_kind;
	args[5] = f->df_addr;
	ip->ip_in_error = true;
	dt_interp_fire(dtp, DT_PROBE_ID_ERROR, args, 6);
	ip->ip_in_error = false;
}

/*
 * speculate(id), commit(id) or discard(id) in a clause whose record takes
 * reclen bytes: DT_SPEC_OK to go on with the clause, DT_SPEC_DROP or
 * DT_SPEC_FULL to drop it, DT_SPEC_ILLOP for an ID above nspec.
 */
static dt_spec_verdict_t
dt_interp_spec(dt_interp_t *ip, dt_actkind_t kind, uint64_t id,
    uint32_t cpu, size_t reclen)
{
	dt_spec_verdict_t sv = DT_SPEC_OK;
	bool ok = true;

	switch (kind) {
	case DT_ACT_SPECULATE:
		sv = dt_spec_speculate(ip->ip_specs, ip->ip_nspec, id, cpu,
		    reclen, ip->ip_specsize);
		if (sv == DT_SPEC_FULL)
			ip->ip_status.es_specdrops++;
		return sv;
	case DT_ACT_COMMIT:
		ok = dt_spec_commit(ip->ip_specs, ip->ip_nspec, id, cpu);
		break;
	default:
		ok = dt_spec_discard(ip->ip_specs, ip->ip_nspec, id, cpu);
		break;
	}
	return ok ? DT_SPEC_OK : DT_SPEC_ILLOP;
}

/*
 * stop(), raise(sig) and chill(ns), in the probe context: 0, or a fault.
 * Without a context of another process, the probe fired in dtrace's own
 * (BEGIN, END, timers), so that is the one signalled.
 */
static int
dt_interp_destructive(dt_interp_t *ip, dt_actkind_t kind, uint64_t v)
{
	const dt_interp_ctx_t *ctx = ip->ip_ctx;
	uint64_t now, until;
	int sig = kind == DT_ACT_STOP ? SIGSTOP : (int) v;

	switch (kind) {
	case DT_ACT_STOP:
	case DT_ACT_RAISE:
		if (sig <= 0 || sig >= 65)
			return DIF_FLT_ILLOP;
		if (ctx != NULL)
			return ctx->ic_signal != NULL &&
			    ctx->ic_signal(ctx->ic_arg, sig,
			    kind == DT_ACT_STOP) == 0 ? 0 : DIF_FLT_ILLOP;
		return (kind == DT_ACT_STOP ? kill(getpid(), sig) :
		    raise(sig)) == 0 ? 0 : DIF_FLT_ILLOP;
	case DT_ACT_CHILL:
		now = dt_os_timestamp();
		if (now - ip->ip_chill_start >= 1000000000ULL) {
			ip->ip_chill_start = now;
			ip->ip_chill_ns = 0;
		}
		if (v > DT_INTERP_CHILL_MAX - ip->ip_chill_ns)
			return DIF_FLT_ILLOP;
		ip->ip_chill_ns += v;
		until = now + v;
		while (dt_os_timestamp() < until)
			continue;
		return 0;
	default:
		return 0;
	}
}

/* Run one enabled probe's clause for the current firing. */
static void
dt_interp_clause(dtrace_hdl_t *dtp, dt_interp_t *ip, dif_mstate_t *ms,
    const dt_eprobe_t *ep, uint32_t cpu, uint64_t ts)
{
	const dt_stmt_t *stp = ep->ep_stmt;
	unsigned char *rec = NULL, *data;
	size_t reclen = 0;
	dif_fault_t fault;
	const dif_fault_t *fp = NULL;
	uint64_t v = 0;
	int rc;

	dif_mstate_clause(ms, ep->ep_epid);
	if (stp->st_pred != NULL) {
		if ((rc = dif_exec(ip->ip_state, ms, stp->st_pred, &v)) != 0) {
			if (rc != DIF_FLT_DROP)
				dt_interp_fault(dtp, ip, cpu, ep, 0,
				    dif_mstate_fault(ms));
			return;
		}
		if (v == 0)
			return;
	}

	/*
	 * A clause with no actions records its firing (dtrace prints the
	 * probe); one whose actions store nothing (assignments,
	 * aggregations) does not.
	 */
	if (stp->st_nactions == 0 || stp->st_size > 0) {
		reclen = sizeof (dt_rechdr_t) + stp->st_size;
		if ((rec = dt_interp_reserve(ip, cpu, reclen)) == NULL) {
			/*
			 * Dropped.  An exit() in it still ends tracing (its
			 * status is lost), as on the BPF engine, which runs
			 * the clause and loses only the record: waiting for
			 * an exit record that can never come would hang.
			 */
			for (uint32_t a = 0; a < stp->st_nactions; a++) {
				if (stp->st_actions[a].ac_kind == DT_ACT_EXIT)
					ip->ip_exited = true;
			}
			return;
		}
		((dt_rechdr_t *) rec)->rh_epid = ep->ep_epid;
		((dt_rechdr_t *) rec)->rh_size = stp->st_size;
		((dt_rechdr_t *) rec)->rh_timestamp = ts;
	}
	data = rec != NULL ? rec + sizeof (dt_rechdr_t) : NULL;

	for (uint32_t a = 0; a < stp->st_nactions; a++) {
		const dt_action_t *ap = &stp->st_actions[a];

		rc = 0;
		if (ap->ac_kind == DT_ACT_AGGREGATE) {
			rc = dt_interp_aggregate(ip, ms, ep->ep_prog, ap, cpu);
		} else {
			for (uint32_t i = 0; rc == 0 && i < ap->ac_nargs; i++) {
				const dt_actarg_t *aa = &ap->ac_args[i];

				if (aa->aa_difo == NULL)
					continue;
				rc = dif_exec(ip->ip_state, ms, aa->aa_difo, &v);
				if (rc == 0 && data != NULL &&
				    aa->aa_rec.rd_type != DT_REC_NONE)
					rc = dt_interp_store(ip, ms, &aa->aa_rec,
					    v, data + aa->aa_rec.rd_offset);
			}
		}
		if (rc == 0 && (ap->ac_kind == DT_ACT_SPECULATE ||
		    ap->ac_kind == DT_ACT_COMMIT ||
		    ap->ac_kind == DT_ACT_DISCARD)) {
			dt_spec_verdict_t sv = dt_interp_spec(ip, ap->ac_kind,
			    v, cpu, reclen);

			if (sv == DT_SPEC_ILLOP) {
				rc = DIF_FLT_ILLOP;
				fault.df_kind = DIF_FLT_ILLOP;
				fault.df_addr = 0;
				fault.df_offset = -1;
				fp = &fault;
			} else if (sv != DT_SPEC_OK) {
				/* Not speculating: the clause is dropped. */
				if (rec != NULL)
					dt_interp_unreserve(ip, cpu, reclen);
				return;
			}
		}
		if (rc == 0 && (ap->ac_kind == DT_ACT_STOP ||
		    ap->ac_kind == DT_ACT_RAISE ||
		    ap->ac_kind == DT_ACT_CHILL) &&
		    (rc = dt_interp_destructive(ip, ap->ac_kind, v)) != 0) {
			fault.df_kind = rc;
			fault.df_addr = 0;
			fault.df_offset = -1;
			fp = &fault;
		}
		if (rc != 0) {
			if (rec != NULL)
				dt_interp_unreserve(ip, cpu, reclen);
			/* A dropped store ends the clause, no error. */
			if (rc != DIF_FLT_DROP)
				dt_interp_fault(dtp, ip, cpu, ep, a + 1,
				    fp != NULL ? fp : dif_mstate_fault(ms));
			return;
		}
		if (ap->ac_kind == DT_ACT_EXIT)
			ip->ip_exited = true;
	}
}

static void
dt_interp_fire(dtrace_hdl_t *dtp, uint32_t id, const uint64_t *args,
    int nargs)
{
	dt_interp_t *ip = dt_interp(dtp);
	dif_mstate_t *ms = ip->ip_in_error ? ip->ip_errms : ip->ip_ms;
	const dt_probe_t *prp;
	dt_ieplist_t *el;
	uint64_t ts;
	uint32_t cpu;

	if (id >= ip->ip_nbyprobe || ip->ip_byprobe[id].el_n == 0)
		return;
	if (ip->ip_exited && id != DT_PROBE_ID_END && id != DT_PROBE_ID_ERROR)
		return;
	el = &ip->ip_byprobe[id];
	prp = el->el_eps[0]->ep_probe;
	ts = dt_os_timestamp();
	cpu = dt_os_getcpu();
	dif_mstate_firing(ms, el->el_eps[0]->ep_epid, id,
	    prp->pr_prov->pv_name, prp->pr_mod, prp->pr_func, prp->pr_name,
	    args, nargs, ts,
	    ip->ip_ctx != NULL ? ip->ip_ctx->ic_tid : dt_os_gettid());
	for (uint32_t i = 0; i < el->el_n; i++) {
		/* exit() in one clause stops the clauses after it. */
		if (ip->ip_exited && id != DT_PROBE_ID_END &&
		    id != DT_PROBE_ID_ERROR)
			break;
		dt_interp_clause(dtp, ip, ms, el->el_eps[i], cpu, ts);
	}
}

void
dt_interp_fire_ctx(dtrace_hdl_t *dtp, uint32_t id, const uint64_t *args,
    int nargs, const dt_interp_ctx_t *ctx)
{
	dt_interp_t *ip = dt_interp(dtp);

	ip->ip_ctx = ctx;
	dt_interp_fire(dtp, id, args, nargs);
	ip->ip_ctx = NULL;
}

/*
 * A key that is the same at every firing of a probe: the probe's function
 * name (probefunc) and nothing else.
 */
static bool
dt_interp_key_fixed(const dif_object_t *difo)
{
	for (uint32_t i = 0; i < difo->dif_len; i++) {
		dif_instr_t in = difo->dif_buf[i];

		if (DIF_INSTR_OP(in) == DIF_OP_RET)
			continue;
		if (DIF_INSTR_OP(in) != DIF_OP_LDGS ||
		    DIF_INSTR_VAR(in) != DIF_VAR_PROBEFUNC)
			return false;
	}
	return true;
}

bool
dt_interp_countonly(dtrace_hdl_t *dtp, uint32_t id)
{
	dt_interp_t *ip = dt_interp(dtp);
	const dt_ieplist_t *el;

	if (id >= ip->ip_nbyprobe || (el = &ip->ip_byprobe[id])->el_n == 0)
		return false;
	for (uint32_t i = 0; i < el->el_n; i++) {
		const dt_stmt_t *stp = el->el_eps[i]->ep_stmt;
		const dt_action_t *ap = &stp->st_actions[0];

		if (stp->st_pred != NULL || stp->st_nactions != 1 ||
		    ap->ac_kind != DT_ACT_AGGREGATE || ap->ac_nargs != 0 ||
		    el->el_eps[i]->ep_prog->pg_aggs[ap->ac_aggid].ag_kind !=
		    DT_AGG_COUNT || ap->ac_nkeys > 1 ||
		    (ap->ac_nkeys == 1 && !dt_interp_key_fixed(ap->ac_keys[0])))
			return false;
	}
	return true;
}

void
dt_interp_count(dtrace_hdl_t *dtp, uint32_t id, uint64_t n, bool before_exit)
{
	dt_interp_t *ip = dt_interp(dtp);
	bool exited = ip->ip_exited;

	if (n == 0)
		return;
	/* Plain counts (dt_interp_countonly()): no exit() among them. */
	if (before_exit)
		ip->ip_exited = false;
	ip->ip_nfired = (int64_t) n;
	dt_interp_fire(dtp, id, NULL, 0);
	ip->ip_nfired = 1;
	ip->ip_exited = exited;
}

void
dt_interp_set_wait(dtrace_hdl_t *dtp, dt_interp_wait_f *fn)
{
	dt_interp(dtp)->ip_wait = fn;
}

bool
dt_interp_exited(dtrace_hdl_t *dtp)
{
	return dt_interp(dtp)->ip_exited;
}

/*
 * BEGIN or END: DTrace fires them in the consumer process, so uregs[]
 * there are the consumer's own registers, taken here, where it fires them.
 */
static void
dt_interp_fire_self(dtrace_hdl_t *dtp, uint32_t id)
{
	dt_interp_t *ip = dt_interp(dtp);

	ip->ip_nuregs = dt_os_uregs(ip->ip_uregs,
	    sizeof (ip->ip_uregs) / sizeof (ip->ip_uregs[0]));
	dt_interp_fire(dtp, id, NULL, 0);
	ip->ip_nuregs = 0;
}

static int
dt_interp_go(dtrace_hdl_t *dtp)
{
	dt_interp_t *ip = dt_interp(dtp);
	uint64_t now;

	ip->ip_active = true;
	dt_interp_fire_self(dtp, DT_PROBE_ID_BEGIN);
	now = dt_os_timestamp();
	for (uint32_t i = 0; i < ip->ip_ntimers; i++)
		ip->ip_timers[i].it_next = now +
		    (uint64_t) ip->ip_timers[i].it_period;
	return 0;
}

static int
dt_interp_poll(dtrace_hdl_t *dtp, int64_t timeout_ns)
{
	dt_interp_t *ip = dt_interp(dtp);
	uint64_t now = dt_os_timestamp(), deadline = now + (uint64_t) timeout_ns;
	struct timespec ts;

	/* After exit() nothing will fire: let the consumer finish now. */
	if (!ip->ip_active || ip->ip_stopped || ip->ip_exited)
		return 0;
	for (uint32_t i = 0; i < ip->ip_ntimers; i++) {
		if (ip->ip_timers[i].it_next < deadline)
			deadline = ip->ip_timers[i].it_next;
	}
	if (dt_spec_busy(ip->ip_specs, ip->ip_nspec) &&
	    deadline > now + ip->ip_cleanrate)
		deadline = now + ip->ip_cleanrate;
	if (ip->ip_wait != NULL) {
		ip->ip_wait(dtp, deadline);
	} else if (deadline > now) {
		uint64_t d = deadline - now;

		ts.tv_sec = (time_t) (d / 1000000000ULL);
		ts.tv_nsec = (long) (d % 1000000000ULL);
		/* A signal (^C) ends the wait early; the caller checks. */
		(void) nanosleep(&ts, NULL);
	}
	now = dt_os_timestamp();
	/* Busy speculations are free again within cleanrate. */
	dt_spec_clean(ip->ip_specs, ip->ip_nspec);
	for (uint32_t i = 0; i < ip->ip_ntimers; i++) {
		dt_itimer_t *t = &ip->ip_timers[i];
		/*
		 * The timer fires in this thread, in user mode: arg0 (the
		 * kernel PC) is 0 and arg1 the user PC, here.
		 */
		uint64_t args[2] = {
		    0, (uint64_t) (uintptr_t) __builtin_return_address(0)};

		if (t->it_next > now || ip->ip_exited)
			continue;
		dt_interp_fire(dtp, t->it_probe, args, 2);
		/*
		 * Fire once per poll at most; when far behind, resume the
		 * period from now rather than firing a burst to catch up.
		 */
		t->it_next += (uint64_t) t->it_period;
		if (t->it_next <= now)
			t->it_next = now + (uint64_t) t->it_period;
	}
	return 0;
}

static int
dt_interp_drain(dtrace_hdl_t *dtp, dt_drain_f *fn, void *arg)
{
	dt_interp_t *ip = dt_interp(dtp);
	int rc = 0;

	for (uint32_t c = 0; c < DT_INTERP_MAXCPUS; c++) {
		dt_ibuf_t *b = &ip->ip_bufs[c];

		if (b->ib_len == 0)
			continue;
		if (rc == 0)
			rc = fn(dtp, c, b->ib_data, b->ib_len, arg);
		b->ib_len = 0;
	}
	return rc;
}

/*
 * The entries of aggregation aggid (every one for UINT32_MAX) as one
 * snapshot; with take set, they are deleted and their space counts for
 * nothing any more (clear() and trunc()).
 */
static int
dt_interp_snap(dtrace_hdl_t *dtp, uint32_t aggid, bool take,
    dt_aggsnap_t **snapsp, uint32_t *nsnapsp)
{
	dt_interp_t *ip = dt_interp(dtp);
	const dt_program_t *pgp = ip->ip_prog;
	dt_aggsnap_t *snap;
	size_t size = 0;
	unsigned char *p = NULL;

	*snapsp = NULL;
	*nsnapsp = 0;
	if ((snap = calloc(1, sizeof (*snap))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	for (int pass = 0; pass < 2; pass++) {
		for (uint32_t h = 0; h < ip->ip_naggchains; h++) {
			dt_iagg_t **pp = &ip->ip_aggs[h], *ia;

			while ((ia = *pp) != NULL) {
				const dt_aggdesc_t *agg =
				    &pgp->pg_aggs[ia->ia_aggid];
				size_t ksz = (agg->ag_keysize + 7) & ~(size_t) 7;
				size_t n = 8 + ksz + agg->ag_nvals * 8;

				if (aggid != UINT32_MAX &&
				    ia->ia_aggid != aggid) {
					pp = &ia->ia_next;
					continue;
				}
				if (pass == 0) {
					size += n;
					snap->as_nentries++;
					pp = &ia->ia_next;
					continue;
				}
				memset(p, 0, n);
				memcpy(p, &(uint64_t) { ia->ia_aggid }, 8);
				if (agg->ag_keysize > 0)
					memcpy(p + 8, ia->ia_key,
					    agg->ag_keysize);
				memcpy(p + 8 + ksz, ia->ia_vals,
				    agg->ag_nvals * 8);
				p += n;
				if (!take) {
					pp = &ia->ia_next;
					continue;
				}
				*pp = ia->ia_next;
				ip->ip_naggs--;
				ip->ip_aggbytes -= (size_t) dt_agg_entsize(agg);
				free(ia->ia_vals);
				free(ia);
			}
		}
		if (pass == 0) {
			if ((snap->as_data = malloc(size ? size : 1)) == NULL) {
				free(snap);
				return dt_set_errno(dtp, EDT_NOMEM);
			}
			snap->as_size = size;
			p = snap->as_data;
		}
	}
	snap->as_cpu = 0;
	*snapsp = snap;
	*nsnapsp = 1;
	return 0;
}

static int
dt_interp_aggsnap(dtrace_hdl_t *dtp, dt_aggsnap_t **snapsp, uint32_t *nsnapsp)
{
	return dt_interp_snap(dtp, UINT32_MAX, false, snapsp, nsnapsp);
}

static int
dt_interp_aggtake(dtrace_hdl_t *dtp, uint32_t aggid, dt_aggsnap_t **snapsp,
    uint32_t *nsnapsp)
{
	return dt_interp_snap(dtp, aggid, true, snapsp, nsnapsp);
}

void
dt_engine_aggsnap_free(dtrace_hdl_t *dtp, dt_aggsnap_t *snaps, uint32_t n)
{
	(void) dtp;
	for (uint32_t i = 0; i < n; i++)
		free(snaps[i].as_data);
	free(snaps);
}

static int
dt_interp_stop(dtrace_hdl_t *dtp)
{
	dt_interp_t *ip = dt_interp(dtp);

	if (!ip->ip_active || ip->ip_stopped)
		return 0;
	dt_interp_fire_self(dtp, DT_PROBE_ID_END);
	ip->ip_stopped = true;
	return 0;
}

static void
dt_interp_status(dtrace_hdl_t *dtp, dt_engine_status_t *stp)
{
	dt_interp_t *ip = dt_interp(dtp);

	*stp = ip->ip_status;
	stp->es_dyndrops = dif_state_dyndrops(ip->ip_state);
	stp->es_exited = ip->ip_exited;
}

static void
dt_interp_cpudrops(dtrace_hdl_t *dtp, uint64_t *drops, uint64_t *aggdrops,
    uint32_t ncpus)
{
	dt_interp_t *ip = dt_interp(dtp);

	for (uint32_t c = 0; c < ncpus && c < DT_INTERP_MAXCPUS; c++) {
		drops[c] = ip->ip_bufs[c].ib_drops;
		aggdrops[c] = ip->ip_bufs[c].ib_aggdrops;
	}
}

const dt_engine_ops_t dt_interp_engine_ops = {
	.eo_name = "interp",
	.eo_flag = DT_ENGINE_F_INTERP,
	.eo_open = dt_interp_open,
	.eo_enable = dt_interp_enable,
	.eo_go = dt_interp_go,
	.eo_poll = dt_interp_poll,
	.eo_drain = dt_interp_drain,
	.eo_aggsnap = dt_interp_aggsnap,
	.eo_aggsnap_free = dt_engine_aggsnap_free,
	.eo_aggtake = dt_interp_aggtake,
	.eo_stop = dt_interp_stop,
	.eo_status = dt_interp_status,
	.eo_cpudrops = dt_interp_cpudrops,
	.eo_close = dt_interp_close,
};
