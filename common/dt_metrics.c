/* SPDX-License-Identifier: MIT */
/*
 * dt_metrics.c: the metrics endpoint (-x metrics=ADDR:PORT).
 *
 * A thread of its own answers HTTP requests: GET /metrics gets the
 * aggregations (common/consumer/dt_metrics_fmt.c) in the format its
 * Accept header prefers -- OpenMetrics for Prometheus, which asks for it
 * first, the Prometheus text format 0.0.4 without one or for a client
 * that prefers it -- anything else 404 or 405.  Any
 * local user may connect, so no client may hold the others up: the
 * thread serves every connection at once from one poll() loop over
 * non-blocking sockets, gives each DT_METRICS_HEAD_MS to send its
 * request and DT_METRICS_SEND_MS to take the answer, and keeps at most
 * DT_METRICS_MAXCONN, a new one taking the place of the one that has
 * waited longest for a request, so that idle connections cannot crowd
 * out a scrape that asks at once.  The
 * text is made by the thread that traces, after every drain, from the
 * consumer's copy of the aggregations, and handed over whole under a
 * lock: a scrape reads one snapshot, never a half-updated one, and
 * changes nothing (nothing is cleared, trunc() and clear() keep their
 * meaning), and a slow client never holds tracing up.  Sockets are the
 * OS backend's (dt_os_net_* in dt_os.h).
 */
#include <ctype.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/consumer/dt_consumer.h"
#include "common/dt_impl.h"
#include "common/dt_metrics.h"
#include "common/dt_options.h"
#include "common/dt_os.h"

/* After dt_consumer.h: <signal.h> makes si_value a macro. */
#include <signal.h>

/* The request head must come within this of connecting. */
#define DT_METRICS_HEAD_MS 2000
/* The answer must be taken within this of the request. */
#define DT_METRICS_SEND_MS 10000
/* Connections held at once. */
#define DT_METRICS_MAXCONN 64
/* A request head longer is answered from what was read of it. */
#define DT_METRICS_REQMAX 8192

typedef struct dt_mconn {
	int c_fd;
	uint64_t c_deadline; /* dt_os_timestamp(): closed if not done */
	size_t c_have;
	char *c_out; /* the answer; NULL while the request is read */
	size_t c_outlen, c_outoff;
	char c_req[DT_METRICS_REQMAX];
} dt_mconn_t;

typedef struct dt_metrics {
	int m_fd;
	char m_addr[128]; /* "127.0.0.1:9464", what we are bound to */
	pthread_t m_thread;
	bool m_running;
	atomic_bool m_stop;
	pthread_mutex_t m_lock;	       /* guards m_text, m_len */
	char *m_text[DT_METRICS_NFMT]; /* by dt_metrics_fmt_t */
	size_t m_len[DT_METRICS_NFMT];
	dt_mconn_t *m_conns[DT_METRICS_MAXCONN]; /* the server thread's */
} dt_metrics_t;

/* The content type of each format. */
static const char *const dt_metrics_ctype[DT_METRICS_NFMT] = {
    [DT_METRICS_OPENMETRICS] =
	"application/openmetrics-text; version=1.0.0; charset=utf-8",
    [DT_METRICS_PROMTEXT] = "text/plain; version=0.0.4; charset=utf-8",
};

static bool
dt_metrics_ident(const char *s, size_t len)
{
	if (len == 0 || (!isalpha((unsigned char) s[0]) && s[0] != '_'))
		return false;
	for (size_t i = 1; i < len; i++) {
		if (!isalnum((unsigned char) s[i]) && s[i] != '_')
			return false;
	}
	return true;
}

/*
 * Calls fn(agg, agglen, labels, labelslen, arg) for each "agg:labels"
 * of spec, agg without its '@' ("_" for @); stops at a non-zero
 * return, which it returns.  -1 for a malformed spec.
 */
static int
dt_metrics_spec_walk(const char *spec,
    int (*fn)(const char *, size_t, const char *, size_t, void *), void *arg)
{
	const char *p = spec;

	while (*p != '\0') {
		size_t len = strcspn(p, ";");
		const char *colon = memchr(p, ':', len);
		const char *agg = p, *labels;
		size_t alen, llen;
		int rc;

		if (colon == NULL)
			return -1;
		alen = (size_t) (colon - p);
		if (alen > 0 && agg[0] == '@') {
			agg++;
			alen--;
		}
		/* The anonymous @ is named _ (as in the JSON output). */
		if (alen == 0) {
			agg = "_";
			alen = 1;
		}
		labels = colon + 1;
		llen = len - (size_t) (labels - p);
		if ((rc = fn(agg, alen, labels, llen, arg)) != 0)
			return rc;
		p += len;
		if (*p == ';')
			p++;
	}
	return 0;
}

static int
dt_metrics_check_one(
    const char *agg, size_t alen, const char *labels, size_t llen, void *arg)
{
	const char *l = labels, *end = labels + llen;

	(void) arg;
	if (!dt_metrics_ident(agg, alen))
		return -1;
	while (l <= end) {
		const char *comma = memchr(l, ',', (size_t) (end - l));
		size_t n = (size_t) ((comma ? comma : end) - l);

		/* le is the histograms'; __ names are Prometheus's own. */
		if (!dt_metrics_ident(l, n) || n >= DT_METRICS_LABEL_MAX ||
		    (n == 2 && strncmp(l, "le", 2) == 0) ||
		    (n >= 2 && strncmp(l, "__", 2) == 0))
			return -1;
		if (comma == NULL)
			break;
		l = comma + 1;
	}
	return 0;
}

bool
dt_metrics_labels_valid(const char *value)
{
	return value[0] != '\0' &&
	    dt_metrics_spec_walk(value, dt_metrics_check_one, NULL) == 0;
}

typedef struct dt_metrics_find {
	const char *f_agg;
	uint32_t f_k;
	char *f_buf;
	size_t f_len;
	uint32_t f_nlabels; /* labels named for f_agg */
} dt_metrics_find_t;

static int
dt_metrics_find_one(
    const char *agg, size_t alen, const char *labels, size_t llen, void *arg)
{
	dt_metrics_find_t *f = arg;
	const char *l = labels, *end = labels + llen;
	uint32_t k = 0;

	if (strlen(f->f_agg) != alen || strncmp(f->f_agg, agg, alen) != 0)
		return 0;
	/* The last naming of an aggregation wins, as for options. */
	f->f_nlabels = 0;
	for (;;) {
		const char *comma = memchr(l, ',', (size_t) (end - l));
		size_t n = (size_t) ((comma ? comma : end) - l);

		if (k == f->f_k && f->f_buf != NULL)
			(void) snprintf(f->f_buf, f->f_len, "%.*s", (int) n, l);
		f->f_nlabels = ++k;
		if (comma == NULL)
			break;
		l = comma + 1;
	}
	return 0;
}

bool
dt_metrics_label_name(
    const char *spec, const char *agg, uint32_t k, char *buf, size_t len)
{
	dt_metrics_find_t f = {agg, k, buf, len, 0};

	if (spec == NULL)
		return false;
	buf[0] = '\0';
	(void) dt_metrics_spec_walk(spec, dt_metrics_find_one, &f);
	return k < f.f_nlabels;
}

/* Every aggregation named in -x metricslabels exists, with that many keys. */
static int
dt_metrics_check_aggs(dtrace_hdl_t *dtp, const char *agg, size_t alen,
    const char *labels, size_t llen)
{
	const dt_program_t *pgp = &dtp->dt_prog;
	char name[256];

	(void) labels;
	(void) llen;
	(void) snprintf(name, sizeof(name), "%.*s", (int) alen, agg);
	for (uint32_t i = 0; i < pgp->pg_naggs; i++) {
		const dt_aggdesc_t *ag = &pgp->pg_aggs[i];
		dt_metrics_find_t f = {ag->ag_name, 0, NULL, 0, 0};

		if (strcmp(ag->ag_name, name) != 0)
			continue;
		(void) dt_metrics_spec_walk(
		    dtp->dt_optstr[DT_OPT_METRICSLABELS], dt_metrics_find_one,
		    &f);
		if (f.f_nlabels > ag->ag_nkeys)
			return dt_set_errdetail(dtp, EDT_BADOPTVAL,
			    "-x metricslabels: @%s has %u key%s, %u labels "
			    "named",
			    name, ag->ag_nkeys, ag->ag_nkeys == 1 ? "" : "s",
			    f.f_nlabels);
		return 0;
	}
	return dt_set_errdetail(
	    dtp, EDT_BADOPTVAL, "-x metricslabels: no aggregation @%s", name);
}

typedef struct dt_metrics_chk {
	dtrace_hdl_t *c_dtp;
} dt_metrics_chk_t;

static int
dt_metrics_check_cb(
    const char *agg, size_t alen, const char *labels, size_t llen, void *arg)
{
	return dt_metrics_check_aggs(
	    ((dt_metrics_chk_t *) arg)->c_dtp, agg, alen, labels, llen);
}

/* The whole answer, head and body, to send; NULL when out of memory. */
static char *
dt_metrics_reply(const char *status, const char *ctype, const char *body,
    size_t len, bool head, size_t *lenp)
{
	char hdr[512], *out;
	/* Caches must not give one client's format to another. */
	bool vary = strcmp(status, "200 OK") == 0;
	int n = snprintf(hdr, sizeof(hdr),
	    "HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
	    "%sConnection: close\r\n\r\n",
	    status, ctype, len, vary ? "Vary: Accept\r\n" : "");
	size_t blen = head ? 0 : len;

	if ((out = malloc((size_t) n + blen)) == NULL)
		return NULL;
	memcpy(out, hdr, (size_t) n);
	if (blen > 0)
		memcpy(out + n, body, blen);
	*lenp = (size_t) n + blen;
	return out;
}

/* s (n bytes) with the blanks around it cut off. */
static const char *
dt_metrics_trim(const char *s, size_t *n)
{
	while (*n > 0 && (*s == ' ' || *s == '\t')) {
		s++;
		(*n)--;
	}
	while (*n > 0 && (s[*n - 1] == ' ' || s[*n - 1] == '\t'))
		(*n)--;
	return s;
}

static bool
dt_metrics_is(const char *s, size_t n, const char *word)
{
	return strlen(word) == n && strncasecmp(s, word, n) == 0;
}

/* How much an Accept header says each format is wanted (RFC 9110). */
typedef struct dt_maccept {
	/* The q of the most specific range naming each, -1 if none does. */
	double a_om, a_omsub; /* application/openmetrics-text, application/ */
	double a_pt, a_ptsub; /* text/plain, text/ */
	double a_any;	      /* * / * */
} dt_maccept_t;

/*
 * A q value, "0" to "1" with up to three decimals, read by hand: strtod()
 * would follow whatever LC_NUMERIC the program using the library set.
 * 0 for anything else, as for a range not accepted.
 */
static double
dt_metrics_qvalue(const char *s, size_t n)
{
	double q, scale = 1;
	size_t i = 1;

	if (n == 0 || (s[0] != '0' && s[0] != '1'))
		return 0;
	q = s[0] - '0';
	if (n > 1 && s[1] == '.') {
		for (i = 2; i < n && i < 5 && s[i] >= '0' && s[i] <= '9'; i++)
			q += (s[i] - '0') * (scale /= 10);
	}
	return i == n && q <= 1 ? q : 0;
}

static void
dt_metrics_range(dt_maccept_t *a, const char *r, size_t rlen)
{
	size_t tlen = strcspn(r, ";");
	const char *type, *p;
	const char *version = NULL;
	size_t vlen = 0;
	double q = 1;

	if (tlen > rlen)
		tlen = rlen;
	type = dt_metrics_trim(r, &tlen);
	for (p = r + strcspn(r, ";"); p < r + rlen && *p == ';';) {
		size_t plen = strcspn(p + 1, ";");
		const char *par;

		if (p + 1 + plen > r + rlen)
			plen = (size_t) (r + rlen - p - 1);
		par = dt_metrics_trim(p + 1, &plen);
		if (plen > 2 && strncasecmp(par, "q=", 2) == 0) {
			q = dt_metrics_qvalue(par + 2, plen - 2);
		} else if (plen > 8 && strncasecmp(par, "version=", 8) == 0) {
			version = par + 8;
			vlen = plen - 8;
		}
		p = par + plen;
		p += strcspn(p, ";");
	}
	/* A version we do not write does not name our format. */
	if (dt_metrics_is(type, tlen, "application/openmetrics-text")) {
		if (version == NULL || dt_metrics_is(version, vlen, "1.0.0") ||
		    dt_metrics_is(version, vlen, "0.0.1"))
			a->a_om = q > a->a_om ? q : a->a_om;
	} else if (dt_metrics_is(type, tlen, "text/plain")) {
		if (version == NULL || dt_metrics_is(version, vlen, "0.0.4"))
			a->a_pt = q > a->a_pt ? q : a->a_pt;
	} else if (dt_metrics_is(type, tlen, "application/*")) {
		a->a_omsub = q;
	} else if (dt_metrics_is(type, tlen, "text/*")) {
		a->a_ptsub = q;
	} else if (dt_metrics_is(type, tlen, "*/*")) {
		a->a_any = q;
	}
}

/*
 * The format a request head asks for.  OpenMetrics only when its Accept
 * header wants it more than the Prometheus text format (Prometheus sends
 * "application/openmetrics-text;version=1.0.0,...,text/plain;
 * version=0.0.4;q=0.5,..."); without one, on a tie (curl's "* / *") or
 * when neither is acceptable, the 0.0.4 text every client reads.
 */
static dt_metrics_fmt_t
dt_metrics_negotiate(const char *req)
{
	dt_maccept_t a = {-1, -1, -1, -1, -1};
	const char *line = strchr(req, '\n');
	double om, pt;

	while (line != NULL && *++line != '\0') {
		size_t len = strcspn(line, "\r\n");

		if (len > 7 && strncasecmp(line, "accept:", 7) == 0) {
			const char *r = line + 7, *end = line + len;

			while (r < end) {
				size_t rlen = strcspn(r, ",\r\n");

				dt_metrics_range(&a, r, rlen);
				r += rlen + (r[rlen] == ',');
			}
		}
		line = strchr(line, '\n');
	}
	om = a.a_om >= 0 ? a.a_om : a.a_omsub >= 0 ? a.a_omsub : a.a_any;
	pt = a.a_pt >= 0 ? a.a_pt : a.a_ptsub >= 0 ? a.a_ptsub : a.a_any;
	return om > 0 && om > pt ? DT_METRICS_OPENMETRICS : DT_METRICS_PROMTEXT;
}

/* The answer to the request head in req. */
static char *
dt_metrics_answer(dt_metrics_t *m, const char *req, size_t *lenp)
{
	char method[16], path[1024], *out;
	dt_metrics_fmt_t fmt;
	bool head;

	if (sscanf(req, "%15s %1023s", method, path) != 2)
		return dt_metrics_reply(
		    "400 Bad Request", "text/plain", "", 0, false, lenp);
	path[strcspn(path, "?")] = '\0';
	head = strcmp(method, "HEAD") == 0;
	if (strcmp(method, "GET") != 0 && !head)
		return dt_metrics_reply("405 Method Not Allowed", "text/plain",
		    "GET /metrics\n", 13, false, lenp);
	if (strcmp(path, "/metrics") != 0)
		return dt_metrics_reply("404 Not Found", "text/plain",
		    "the metrics are at /metrics\n", 28, head, lenp);
	fmt = dt_metrics_negotiate(req);
	/* Made under the lock: tracing publishes a new text meanwhile. */
	(void) pthread_mutex_lock(&m->m_lock);
	if (m->m_text[fmt] == NULL)
		out = dt_metrics_reply("503 Service Unavailable", "text/plain",
		    "", 0, false, lenp);
	else
		out = dt_metrics_reply("200 OK", dt_metrics_ctype[fmt],
		    m->m_text[fmt], m->m_len[fmt], head, lenp);
	(void) pthread_mutex_unlock(&m->m_lock);
	return out;
}

static void
dt_mconn_close(dt_mconn_t **cp)
{
	dt_os_net_close((*cp)->c_fd);
	free((*cp)->c_out);
	free(*cp);
	*cp = NULL;
}

/* Send what the socket takes: false when the connection is done. */
static bool
dt_mconn_send(dt_mconn_t *c)
{
	while (c->c_outoff < c->c_outlen) {
		long n = dt_os_net_send(
		    c->c_fd, c->c_out + c->c_outoff, c->c_outlen - c->c_outoff);

		if (n < 0)
			return false;
		if (n == 0)
			return true;
		c->c_outoff += (size_t) n;
	}
	return false;
}

/* Read what has come: false when the connection is done. */
static bool
dt_mconn_recv(dt_metrics_t *m, dt_mconn_t *c, uint64_t now)
{
	long n;

	while (c->c_have < sizeof(c->c_req) - 1) {
		n = dt_os_net_recv(c->c_fd, c->c_req + c->c_have,
		    sizeof(c->c_req) - 1 - c->c_have);
		if (n == DT_OS_NET_AGAIN)
			return true;
		if (n <= 0)
			return false;
		c->c_have += (size_t) n;
		c->c_req[c->c_have] = '\0';
		if (strstr(c->c_req, "\r\n\r\n") != NULL ||
		    strstr(c->c_req, "\n\n") != NULL)
			break;
	}
	c->c_req[c->c_have] = '\0';
	if ((c->c_out = dt_metrics_answer(m, c->c_req, &c->c_outlen)) == NULL)
		return false;
	c->c_deadline = now + DT_METRICS_SEND_MS * 1000000ULL;
	return dt_mconn_send(c);
}

/* A new connection, in the place of the longest waiting when full. */
static void
dt_metrics_accept(dt_metrics_t *m, uint64_t now)
{
	dt_mconn_t **slot = NULL, **oldest = NULL;
	int fd;

	while ((fd = dt_os_net_accept(m->m_fd)) >= 0) {
		slot = oldest = NULL;
		for (size_t i = 0; i < DT_METRICS_MAXCONN; i++) {
			dt_mconn_t *c = m->m_conns[i];

			if (c == NULL) {
				slot = &m->m_conns[i];
				break;
			}
			if (c->c_out == NULL &&
			    (oldest == NULL ||
				c->c_deadline < (*oldest)->c_deadline))
				oldest = &m->m_conns[i];
		}
		if (slot == NULL && oldest != NULL) {
			dt_mconn_close(oldest);
			slot = oldest;
		}
		if (slot == NULL ||
		    (*slot = calloc(1, sizeof(**slot))) == NULL) {
			dt_os_net_close(fd);
			continue;
		}
		(*slot)->c_fd = fd;
		(*slot)->c_deadline = now + DT_METRICS_HEAD_MS * 1000000ULL;
	}
}

static void *
dt_metrics_thread(void *arg)
{
	dt_metrics_t *m = arg;
	dt_os_netpoll_t pfds[DT_METRICS_MAXCONN + 1];
	dt_mconn_t *polled[DT_METRICS_MAXCONN + 1];

	while (!atomic_load(&m->m_stop)) {
		uint64_t now = dt_os_timestamp(), next = UINT64_MAX;
		/* A short wait at most, so that dt_metrics_stop() is heard. */
		int timeout = 200;
		size_t n = 0;

		pfds[n] = (dt_os_netpoll_t){m->m_fd, DT_OS_NET_IN, 0};
		polled[n++] = NULL;
		for (size_t i = 0; i < DT_METRICS_MAXCONN; i++) {
			dt_mconn_t *c = m->m_conns[i];

			if (c == NULL)
				continue;
			if (now >= c->c_deadline) {
				dt_mconn_close(&m->m_conns[i]);
				continue;
			}
			if (c->c_deadline < next)
				next = c->c_deadline;
			pfds[n] = (dt_os_netpoll_t){c->c_fd,
			    c->c_out == NULL ? DT_OS_NET_IN : DT_OS_NET_OUT, 0};
			polled[n++] = c;
		}
		if (next != UINT64_MAX && (next - now) / 1000000 < 200)
			timeout = (int) ((next - now) / 1000000) + 1;
		if (dt_os_net_poll(pfds, n, timeout) <= 0)
			continue;
		now = dt_os_timestamp();
		for (size_t k = 1; k < n; k++) {
			dt_mconn_t *c = polled[k];
			bool more;

			if (pfds[k].revents == 0)
				continue;
			if (c->c_out == NULL)
				more = dt_mconn_recv(m, c, now);
			else
				more = dt_mconn_send(c);
			if (!more) {
				for (size_t i = 0; i < DT_METRICS_MAXCONN;
				     i++) {
					if (m->m_conns[i] == c)
						dt_mconn_close(&m->m_conns[i]);
				}
			}
		}
		/* Last, so that the connections polled are still there. */
		if (pfds[0].revents != 0)
			dt_metrics_accept(m, now);
	}
	for (size_t i = 0; i < DT_METRICS_MAXCONN; i++) {
		if (m->m_conns[i] != NULL)
			dt_mconn_close(&m->m_conns[i]);
	}
	return NULL;
}

int
dt_metrics_start(dtrace_hdl_t *dtp)
{
	const char *spec = dtp->dt_optstr[DT_OPT_METRICS];
	const char *labels = dtp->dt_optstr[DT_OPT_METRICSLABELS];
	dt_metrics_chk_t chk = {dtp};
	sigset_t all, old;
	dt_metrics_t *m;
	char err[256];
	int rc;

	if (spec == NULL)
		return 0;
	if (labels != NULL &&
	    dt_metrics_spec_walk(labels, dt_metrics_check_cb, &chk) != 0)
		return -1;
	if ((m = calloc(1, sizeof(*m))) == NULL)
		return dt_set_errno(dtp, EDT_NOMEM);
	m->m_fd = dt_os_net_listen(
	    spec, m->m_addr, sizeof(m->m_addr), err, sizeof(err));
	if (m->m_fd < 0) {
		free(m);
		return dt_set_errdetail(dtp, EDT_BADOPTVAL,
		    "-x metrics=%s: cannot listen: %s", spec, err);
	}
	(void) pthread_mutex_init(&m->m_lock, NULL);
	atomic_init(&m->m_stop, false);
	/*
	 * Signals (SIGINT ending tracing) are for the thread that traces:
	 * the server thread starts with them all blocked.
	 */
	sigfillset(&all);
	(void) pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&m->m_thread, NULL, dt_metrics_thread, m);
	(void) pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		dt_os_net_close(m->m_fd);
		free(m);
		return dt_set_errno(dtp, EDT_NOMEM);
	}
	m->m_running = true;
	dtp->dt_metrics = m;
	return 0;
}

void
dt_metrics_publish(dtrace_hdl_t *dtp)
{
	dt_metrics_t *m = dtp->dt_metrics;
	char *text[DT_METRICS_NFMT], *old[DT_METRICS_NFMT];
	size_t len[DT_METRICS_NFMT];

	if (m == NULL || dt_consume_metrics(dtp, text, len) != 0)
		return;
	(void) pthread_mutex_lock(&m->m_lock);
	for (int f = 0; f < DT_METRICS_NFMT; f++) {
		old[f] = m->m_text[f];
		m->m_text[f] = text[f];
		m->m_len[f] = len[f];
	}
	(void) pthread_mutex_unlock(&m->m_lock);
	for (int f = 0; f < DT_METRICS_NFMT; f++)
		free(old[f]);
}

void
dt_metrics_stop(dtrace_hdl_t *dtp)
{
	dt_metrics_t *m = dtp->dt_metrics;

	if (m == NULL)
		return;
	atomic_store(&m->m_stop, true);
	if (m->m_running)
		(void) pthread_join(m->m_thread, NULL);
	dt_os_net_close(m->m_fd);
	(void) pthread_mutex_destroy(&m->m_lock);
	for (int f = 0; f < DT_METRICS_NFMT; f++)
		free(m->m_text[f]);
	free(m);
	dtp->dt_metrics = NULL;
}

const char *
dtrace_metrics_address(dtrace_hdl_t *dtp)
{
	return dtp->dt_metrics != NULL ? dtp->dt_metrics->m_addr : NULL;
}
