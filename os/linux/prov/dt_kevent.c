/* SPDX-License-Identifier: MIT */
/*
 * dt_kevent.c: kernel event probe descriptors and the tracefs format
 * parser (see dt_kevent.h for the interface providers build on).
 *
 * A format file describes a tracepoint's record, one field a line:
 *
 *	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
 *	field:__data_loc char[] filename;	offset:8;	size:4;	signed:0;
 *	field:char comm[16];	offset:12;	size:16;	signed:0;
 *
 * The declaration's type is the text less the field's name, with array
 * dimensions after the name moved onto the type ("char [16]").
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <bpf/btf.h>

#include "common/dt_impl.h"
#include "common/probe/dt_probe.h"
#include "os/linux/dt_linux_features.h"
#include "os/linux/prov/dt_kevent.h"
#include "os/linux/prov/dt_linux_prov.h"

dt_kevent_t *
dt_kevent_new(dt_kevent_kind_t kind, const char *group, const char *event)
{
	dt_kevent_t *ke = calloc(1, sizeof (*ke));

	if (ke == NULL)
		return NULL;
	ke->ke_kind = kind;
	if ((ke->ke_group = strdup(group)) == NULL ||
	    (ke->ke_event = strdup(event)) == NULL) {
		dt_kevent_free(ke);
		return NULL;
	}
	return ke;
}

void
dt_kevent_free(dt_kevent_t *ke)
{
	if (ke == NULL)
		return;
	free(ke->ke_group);
	free(ke->ke_event);
	free(ke->ke_priv);
	free(ke);
}

void
dt_kevent_probe_fini(dtrace_hdl_t *dtp, dt_probe_t *prp)
{
	(void) dtp;
	dt_kevent_free(prp->pr_data);
	prp->pr_data = NULL;
}

bool
dt_kevent_is(const dt_probe_t *prp)
{
	const char *mech = prp->pr_prov->pv_ops->po_mech;

	return mech != NULL && strcmp(mech, DT_MECH_KEVENT) == 0 &&
	    prp->pr_data != NULL;
}

const dt_kevent_t *
dt_kevent_info(dtrace_hdl_t *dtp, dt_probe_t *prp)
{
	const dt_argdesc_t *args;
	const dt_kevent_t *ke;

	if (!dt_kevent_is(prp))
		return NULL;
	ke = prp->pr_data;
	if (ke->ke_nargs < 0 && dt_probe_args(dtp, prp, &args) < 0)
		return NULL;
	if (ke->ke_nargs < 0) {
		(void) dt_set_errno(dtp, EDT_NOTSUP);
		return NULL;
	}
	return ke;
}

bool
dt_kevent_exists(const char *group, const char *event)
{
	const char *tfs = dt_linux_tracefs();
	char path[PATH_MAX];
	struct stat st;

	if (tfs == NULL)
		return false;
	snprintf(path, sizeof (path), "%s/events/%s/%s", tfs, group, event);
	return stat(path, &st) == 0;
}

/*
 * The type of a declaration decl (len bytes: "const char * filename",
 * "char comm[16]"): the text less the name, dimensions kept ("char
 * [16]"); its name into *namep.  NULL when out of memory.
 */
static char *
dt_kevent_decl(const char *decl, size_t len, char **namep)
{
	size_t name_end = len, name_start, type_end;
	const char *dims = decl + len;
	char *type;

	while (len > 0 && decl[len - 1] == ' ')
		len--;
	name_end = len;
	dims = decl + len;
	/* Dimensions after the name belong to the type. */
	while (name_end > 0 && decl[name_end - 1] == ']') {
		while (name_end > 0 && decl[name_end - 1] != '[')
			name_end--;
		if (name_end > 0)
			name_end--;
		while (name_end > 0 && decl[name_end - 1] == ' ')
			name_end--;
		dims = decl + name_end;
	}
	name_start = name_end;
	while (name_start > 0 && decl[name_start - 1] != ' ' &&
	    decl[name_start - 1] != '*')
		name_start--;
	type_end = name_start;
	while (type_end > 0 && decl[type_end - 1] == ' ')
		type_end--;
	while (dims < decl + len && *dims == ' ')
		dims++;
	if ((*namep = strndup(decl + name_start, name_end - name_start)) ==
	    NULL)
		return NULL;
	if ((type = malloc(type_end + (size_t) (decl + len - dims) + 2)) ==
	    NULL) {
		free(*namep);
		*namep = NULL;
		return NULL;
	}
	memcpy(type, decl, type_end);
	type[type_end] = '\0';
	if (dims < decl + len) {
		strcat(type, " ");
		strncat(type, dims, (size_t) (decl + len - dims));
	}
	return type;
}

/* The number after "key:" in a format line, or -1. */
static long
dt_kevent_num(const char *line, const char *key)
{
	const char *p = strstr(line, key);

	return p != NULL ? strtol(p + strlen(key), NULL, 10) : -1;
}

void
dt_kevent_fields_free(dt_kevent_field_t *fields, int n)
{
	for (int i = 0; i < n; i++) {
		free(fields[i].kf_name);
		free(fields[i].kf_type);
	}
	free(fields);
}

int
dt_kevent_format(const char *group, const char *event,
    dt_kevent_field_t **fieldsp)
{
	const char *tfs = dt_linux_tracefs();
	char path[PATH_MAX], line[1024];
	dt_kevent_field_t *fields = NULL;
	int n = 0, cap = 0;
	FILE *fp;

	*fieldsp = NULL;
	if (tfs == NULL) {
		errno = ENOENT;
		return -1;
	}
	snprintf(path, sizeof (path), "%s/events/%s/%s/format", tfs, group,
	    event);
	if ((fp = fopen(path, "re")) == NULL)
		return -1;
	while (fgets(line, sizeof (line), fp) != NULL) {
		const char *f = strstr(line, "field:"), *end;
		dt_kevent_field_t *kf;
		bool dataloc = false;

		if (f == NULL || (end = strchr(f, ';')) == NULL)
			continue;
		f += 6;
		if (strncmp(f, "__data_loc ", 11) == 0) {
			f += 11;
			dataloc = true;
		}
		if (n == cap) {
			int ncap = cap ? cap * 2 : 16;
			dt_kevent_field_t *p = realloc(fields, (size_t) ncap *
			    sizeof (*p));

			if (p == NULL)
				goto nomem;
			fields = p;
			cap = ncap;
		}
		kf = &fields[n];
		memset(kf, 0, sizeof (*kf));
		if ((kf->kf_type = dt_kevent_decl(f, (size_t) (end - f),
		    &kf->kf_name)) == NULL)
			goto nomem;
		n++;
		kf->kf_off = (uint32_t) dt_kevent_num(end, "offset:");
		kf->kf_size = (uint32_t) dt_kevent_num(end, "size:");
		kf->kf_signed = dt_kevent_num(end, "signed:") == 1;
		kf->kf_dataloc = dataloc;
		kf->kf_common = strncmp(kf->kf_name, "common_", 7) == 0;
	}
	(void) fclose(fp);
	*fieldsp = fields;
	return n;
nomem:
	(void) fclose(fp);
	dt_kevent_fields_free(fields, n);
	errno = ENOMEM;
	return -1;
}

/* "T [N]" or "T[]" -> "T *"; NULL if type is no array. */
static char *
dt_kevent_array_ptr(const char *type)
{
	const char *br = strchr(type, '[');
	size_t len;
	char *p;

	if (br == NULL)
		return NULL;
	len = (size_t) (br - type);
	while (len > 0 && type[len - 1] == ' ')
		len--;
	if ((p = malloc(len + 3)) == NULL)
		return NULL;
	memcpy(p, type, len);
	memcpy(p + len, " *", 3);
	return p;
}

char *
dt_kevent_field_arg(const dt_kevent_field_t *kf, dt_kevent_arg_t *ka)
{
	char *ptr = dt_kevent_array_ptr(kf->kf_type);

	memset(ka, 0, sizeof (*ka));
	ka->ka_off = kf->kf_off;
	if (kf->kf_dataloc) {
		ka->ka_kind = DT_KEVENT_ARG_DATALOC;
	} else if (ptr != NULL) {
		ka->ka_kind = DT_KEVENT_ARG_ADDR;
	} else {
		ka->ka_kind = DT_KEVENT_ARG_FIELD;
		ka->ka_size = (uint8_t) (kf->kf_size == 1 || kf->kf_size == 2 ||
		    kf->kf_size == 4 ? kf->kf_size : 8);
		ka->ka_signed = kf->kf_signed;
	}
	if (ptr != NULL)
		return ptr;
	/* A __data_loc of no array type: keep its type, as a pointer. */
	if (kf->kf_dataloc) {
		size_t len = strlen(kf->kf_type);

		if ((ptr = malloc(len + 3)) != NULL) {
			memcpy(ptr, kf->kf_type, len);
			memcpy(ptr + len, " *", 3);
		}
		return ptr;
	}
	return strdup(kf->kf_type);
}

int
dt_kevent_field(const char *group, const char *event, const char *field,
    dt_kevent_arg_t *ka)
{
	dt_kevent_field_t *fields;
	int n, rc = -1;

	if ((n = dt_kevent_format(group, event, &fields)) < 0)
		return -1;
	errno = ENOENT;
	for (int i = 0; i < n && rc != 0; i++) {
		char *type;

		if (strcmp(fields[i].kf_name, field) != 0)
			continue;
		if ((type = dt_kevent_field_arg(&fields[i], ka)) == NULL) {
			errno = ENOMEM;
			break;
		}
		free(type);
		rc = 0;
	}
	dt_kevent_fields_free(fields, n);
	return rc;
}

void
dt_kevent_names_free(dt_kevent_name_t *names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i].kn_group);	/* one allocation with kn_event */
	free(names);
}

/*
 * One probe <group>::<event> of provider pvp for every static tracepoint,
 * of the given kind, its arguments left for the provider's po_probe_args.
 * No tracefs means no probes, not an error.
 */
int
dt_kevent_populate_all(dtrace_hdl_t *dtp, dt_provider_t *pvp,
    dt_kevent_kind_t kind)
{
	dt_kevent_name_t *names;
	int n, rc = 0;

	if ((n = dt_kevent_names(&names)) < 0)
		return 0;
	for (int i = 0; i < n && rc == 0; i++) {
		dt_kevent_t *ke = dt_kevent_new(kind, names[i].kn_group,
		    names[i].kn_event);

		if (ke == NULL) {
			rc = dt_set_errno(dtp, EDT_NOMEM);
			break;
		}
		ke->ke_nargs = -1;
		if (dt_probe_create(dtp, pvp, names[i].kn_group, "",
		    names[i].kn_event, -1, NULL, ke) == NULL) {
			dt_kevent_free(ke);
			rc = -1;
		}
	}
	dt_kevent_names_free(names, n);
	return rc;
}

/* Is there an event named ev in a group matching the pattern mod? */
static bool
dt_kevent_named(const char *tfs, const char *mod, const char *ev)
{
	char path[PATH_MAX];
	struct dirent *de;
	bool found = false;
	DIR *dir;

	snprintf(path, sizeof (path), "%s/events", tfs);
	if ((dir = opendir(path)) == NULL)
		return true;
	while (!found && (de = readdir(dir)) != NULL) {
		if (de->d_name[0] == '.' ||
		    (mod[0] != '\0' && !dt_gmatch(de->d_name, mod)))
			continue;
		found = dt_kevent_exists(de->d_name, ev);
	}
	(void) closedir(dir);
	return found;
}

bool
dt_kevent_maymatch(dtrace_hdl_t *dtp, dt_provider_t *pvp,
    const dt_probedesc_t *pdp)
{
	/*
	 * sdt and rawtp ask in turn about the same description: the
	 * answer for the last one asked, as a look in every group costs
	 * eventfs a hundred lookups.
	 */
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static char last_mod[DT_PROBE_FIELD_MAX], last_ev[DT_PROBE_FIELD_MAX];
	static bool last_found;
	const char *tfs = dt_linux_tracefs(), *ev = pdp->pd_name;
	const char *mod = pdp->pd_module;
	bool found;

	(void) dtp;
	(void) pvp;
	if (!dt_probedesc_may(pdp, NULL, "", NULL))
		return false;
	if (tfs == NULL)
		return false;	/* no tracefs: populating makes no probes */
	if (ev[0] == '\0' || dt_strisglob(ev) || strchr(ev, '/') != NULL)
		return true;
	if (mod[0] != '\0' && !dt_strisglob(mod))
		return dt_kevent_exists(mod, ev);
	(void) pthread_mutex_lock(&lock);
	if (strcmp(last_mod, mod) == 0 && strcmp(last_ev, ev) == 0 &&
	    last_ev[0] != '\0') {
		found = last_found;
	} else {
		found = last_found = dt_kevent_named(tfs, mod, ev);
		snprintf(last_mod, sizeof (last_mod), "%s", mod);
		snprintf(last_ev, sizeof (last_ev), "%s", ev);
	}
	(void) pthread_mutex_unlock(&lock);
	return found;
}

static int
dt_kevent_name_cmp(const void *a, const void *b)
{
	const dt_kevent_name_t *x = a, *y = b;
	int c = strcmp(x->kn_group, y->kn_group);

	return c != 0 ? c : strcmp(x->kn_event, y->kn_event);
}

/*
 * Whether group:event is a dynamic event: dynamic_events lines read
 * "p:kprobes/name ...", "u:uprobes/name ...", "s:synthetic/name ...".
 */
static bool
dt_kevent_dynamic(const char *dyn, const char *group, const char *event)
{
	size_t gl = strlen(group), el = strlen(event);

	for (const char *p = dyn; p != NULL && *p != '\0';) {
		const char *c = strchr(p, ':'), *nl = strchr(p, '\n');

		if (c != NULL && (nl == NULL || c < nl) &&
		    strncmp(c + 1, group, gl) == 0 && c[1 + gl] == '/' &&
		    strncmp(c + 2 + gl, event, el) == 0 &&
		    (c[2 + gl + el] == ' ' || c[2 + gl + el] == '\n' ||
		    c[2 + gl + el] == '\0'))
			return true;
		p = nl != NULL ? nl + 1 : NULL;
	}
	return false;
}

/* A whole (small) tracefs file as a string, or NULL. */
static char *
dt_kevent_slurp(const char *tfs, const char *name)
{
	char path[PATH_MAX], *buf = NULL;
	size_t len = 0, cap = 0, r;
	FILE *fp;

	snprintf(path, sizeof (path), "%s/%s", tfs, name);
	if ((fp = fopen(path, "re")) == NULL)
		return NULL;
	do {
		if (len + 4096 + 1 > cap) {
			char *p;

			cap = cap ? cap * 2 : 65536;
			if ((p = realloc(buf, cap)) == NULL) {
				free(buf);
				(void) fclose(fp);
				errno = ENOMEM;
				return NULL;
			}
			buf = p;
		}
		r = fread(buf + len, 1, 4096, fp);
		len += r;
	} while (r > 0);
	(void) fclose(fp);
	buf[len] = '\0';
	return buf;
}

int
dt_kevent_names(dt_kevent_name_t **namesp)
{
	const char *tfs = dt_linux_tracefs();
	char *all, *dyn, *line, *save = NULL;
	dt_kevent_name_t *names = NULL;
	int n = 0, cap = 0;

	*namesp = NULL;
	if (tfs == NULL) {
		errno = ENOENT;
		return -1;
	}
	if ((all = dt_kevent_slurp(tfs, "available_events")) == NULL)
		return -1;
	dyn = dt_kevent_slurp(tfs, "dynamic_events");
	for (line = strtok_r(all, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':'), *g;

		if (colon == NULL || colon == line || colon[1] == '\0')
			continue;
		*colon = '\0';
		if (strcmp(line, "syscalls") == 0 ||
		    dt_kevent_dynamic(dyn, line, colon + 1))
			continue;
		if (n == cap) {
			int ncap = cap ? cap * 2 : 2048;
			dt_kevent_name_t *p = realloc(names, (size_t) ncap *
			    sizeof (*p));

			if (p == NULL)
				goto nomem;
			names = p;
			cap = ncap;
		}
		/* group and event in one allocation: "sched\0sched_switch" */
		if ((g = malloc(strlen(line) + strlen(colon + 1) + 2)) == NULL)
			goto nomem;
		strcpy(g, line);
		names[n].kn_group = g;
		names[n].kn_event = strcpy(g + strlen(line) + 1, colon + 1);
		n++;
	}
	free(all);
	free(dyn);
	if (n > 0)
		qsort(names, (size_t) n, sizeof (*names), dt_kevent_name_cmp);
	*namesp = names;
	return n;
nomem:
	free(all);
	free(dyn);
	dt_kevent_names_free(names, n);
	errno = ENOMEM;
	return -1;
}

/* The declaration btf_dump writes, collected into a string. */
typedef struct dt_kevent_decl {
	char *kd_buf;
	size_t kd_size;
	size_t kd_len;
} dt_kevent_decl_t;

static void
dt_kevent_printf(void *ctx, const char *fmt, va_list ap)
{
	dt_kevent_decl_t *kd = ctx;
	int n;

	if (kd->kd_len >= kd->kd_size)
		return;
	n = vsnprintf(kd->kd_buf + kd->kd_len, kd->kd_size - kd->kd_len, fmt,
	    ap);
	if (n > 0)
		kd->kd_len += (size_t) n;
}

void
dt_kevent_btf_decl(const struct btf *btf, uint32_t id, char *buf,
    size_t len)
{
	LIBBPF_OPTS(btf_dump_emit_type_decl_opts, opts, .field_name = "");
	dt_kevent_decl_t kd = { buf, len, 0 };
	struct btf_dump *d;
	int rc = -1;

	buf[0] = '\0';
	if ((d = btf_dump__new(btf, dt_kevent_printf, &kd, NULL)) != NULL) {
		rc = btf_dump__emit_type_decl(d, id, &opts);
		btf_dump__free(d);
	}
	if (rc != 0 || kd.kd_len == 0 || kd.kd_len >= len)
		snprintf(buf, len, "uint64_t");
}
