/* SPDX-License-Identifier: MIT */
/*
 * dt_pprof.c: stack aggregations as pprof profiles (-x oformat=pprof),
 * the gzipped Profile message of github.com/google/pprof's profile.proto
 * that go tool pprof, Parca, Pyroscope and Grafana read.
 *
 * An aggregation with a stack() or ustack() key is one profile, written
 * by printa() or at the end of the run to a file named after the one -o
 * gives (dtrace_output_file()): FILE itself when the program has one such
 * aggregation, else FILE with ".NAME" put before the first '.' of its
 * base name ("_" for the anonymous @, as D names it: cpu._.pb.gz,
 * cpu.user.pb.gz), and
 * with ".N" after that when printa() writes it, N counting its
 * printa()s from 1, so that a printa() every second makes a series.  A
 * file is written whole under another name and renamed into place, so
 * that a reader never sees half of one.
 *
 * Each entry is a Sample: its stacks' frames are its locations,
 * innermost first (several stack keys in key order, outermost first, as
 * a folded line has them, then reversed), its one value what printa()
 * prints (normalize() applied; avg() and stddev() as integers), and each
 * other key a label keyN (N its place among the keys, from 1): a number
 * for an integer, a string for the rest, as printa() prints them.  The
 * sample type is the function's: count() is "samples"/"count", the
 * others "sum", "avg", "min", "max" or "stddev" of no unit (D knows
 * none of what it adds up, and pprof shows plain numbers for none).
 *
 * Each distinct address is a Location, with one Line naming its
 * Function (the symbol, demangled unless -x nodemangle, as printa()
 * shows it without the module; the mangled name is the function's
 * system name) and a Mapping: the file behind the address as the OS
 * backend gives it (a user library's path, its mapping's addresses and
 * file offset, its build ID; the kernel, or a module, with its build ID),
 * else only the object's name, spanning the addresses seen in it.  A
 * mapping all of whose addresses are symbolised says has_functions, so
 * that pprof does not try to symbolise it again; under -x noresolve user
 * addresses keep their mapping but no function, for pprof to symbolise
 * from the file.  An address nothing is known of is a bare Location.
 *
 * Distributions have no one value, and an aggregation without a stack no
 * stack: each is left out with one line on stderr, as folded output
 * leaves distributions out.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/consumer/dt_cons_impl.h"
#include "common/consumer/dt_protobuf.h"
#include "common/dt_aggfunc.h"
#include "common/dt_demangle.h"
#include "common/dt_os.h"

/* profile.proto's field numbers. */
enum {
	PF_SAMPLE_TYPE = 1,
	PF_SAMPLE = 2,
	PF_MAPPING = 3,
	PF_LOCATION = 4,
	PF_FUNCTION = 5,
	PF_STRING_TABLE = 6,
	PF_TIME_NANOS = 9,
	PF_DURATION_NANOS = 10,
	PF_COMMENT = 13,
};
enum { VT_TYPE = 1, VT_UNIT = 2 };
enum { SA_LOCATION_ID = 1, SA_VALUE = 2, SA_LABEL = 3 };
enum { LA_KEY = 1, LA_STR = 2, LA_NUM = 3 };
enum {
	MA_ID = 1,
	MA_MEMORY_START = 2,
	MA_MEMORY_LIMIT = 3,
	MA_FILE_OFFSET = 4,
	MA_FILENAME = 5,
	MA_BUILD_ID = 6,
	MA_HAS_FUNCTIONS = 7,
};
enum { LO_ID = 1, LO_MAPPING_ID = 2, LO_ADDRESS = 3, LO_LINE = 4 };
enum { LI_FUNCTION_ID = 1 };
enum { FN_ID = 1, FN_NAME = 2, FN_SYSTEM_NAME = 3 };

/*
 * Byte strings to IDs 1, 2, ... in the order first seen: the string
 * table (whose index is the ID - 1, "" interned first), and the keys of
 * functions, locations and mappings.  Open addressing, at most half
 * full.
 */
typedef struct dt_pptab {
	uint32_t *pt_slots; /* IDs; 0 is empty */
	uint32_t pt_mask;
	unsigned char **pt_keys; /* [ID - 1] */
	size_t *pt_lens;
	uint32_t pt_n;
	uint32_t pt_cap;
} dt_pptab_t;

typedef struct dt_pploc {
	uint64_t pl_addr;
	uint32_t pl_map;  /* mapping ID, 0 for none */
	uint32_t pl_func; /* function ID, 0 for none */
} dt_pploc_t;

typedef struct dt_ppmap {
	uint64_t pm_path, pm_buildid; /* string indexes */
	uint64_t pm_start, pm_limit, pm_offset;
	bool pm_nofunc; /* an address in it has no function */
	bool pm_user;	/* a process's, not the kernel's */
} dt_ppmap_t;

typedef struct dt_pprof {
	dt_consumer_t *pp_dc;
	dt_pbuf_t pp_prof; /* the Profile: samples first, the rest after */
	dt_pbuf_t pp_msg;  /* one message of it */
	dt_pbuf_t pp_sub;  /* one message nested in that */
	dt_pptab_t pp_strs, pp_funcs, pp_locs, pp_maps;
	dt_pploc_t *pp_locv; /* [location ID - 1] */
	dt_ppmap_t *pp_mapv; /* [mapping ID - 1] */
	uint32_t pp_nlocv, pp_nmapv;
	uint64_t *pp_ids; /* one sample's location IDs */
	size_t pp_nids, pp_idcap;
	bool pp_nomem;
} dt_pprof_t;

static uint32_t
dt_pptab_hash(const void *key, size_t len)
{
	const unsigned char *p = key;
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

static bool
dt_pptab_grow(dt_pptab_t *t)
{
	uint32_t nslots = t->pt_mask ? (t->pt_mask + 1) * 2 : 256;
	uint32_t cap = t->pt_cap ? t->pt_cap * 2 : 128;
	uint32_t *slots;
	unsigned char **keys;
	size_t *lens;

	if ((keys = realloc(t->pt_keys, cap * sizeof(*keys))) == NULL)
		return false;
	t->pt_keys = keys;
	if ((lens = realloc(t->pt_lens, cap * sizeof(*lens))) == NULL)
		return false;
	t->pt_lens = lens;
	t->pt_cap = cap;
	if (t->pt_mask + 1 >= 2 * cap)
		return true;
	if ((slots = calloc(nslots, sizeof(*slots))) == NULL)
		return false;
	for (uint32_t id = 1; id <= t->pt_n; id++) {
		uint32_t i =
		    dt_pptab_hash(t->pt_keys[id - 1], t->pt_lens[id - 1]) &
		    (nslots - 1);

		while (slots[i] != 0)
			i = (i + 1) & (nslots - 1);
		slots[i] = id;
	}
	free(t->pt_slots);
	t->pt_slots = slots;
	t->pt_mask = nslots - 1;
	return true;
}

/* The ID of key, added if new (*isnew); 0 when out of memory. */
static uint32_t
dt_pptab_id(dt_pptab_t *t, const void *key, size_t len, bool *isnew)
{
	uint32_t h = dt_pptab_hash(key, len), i;
	unsigned char *copy;

	*isnew = false;
	if (t->pt_n == t->pt_cap && !dt_pptab_grow(t))
		return 0;
	for (i = h & t->pt_mask; t->pt_slots[i] != 0;
	     i = (i + 1) & t->pt_mask) {
		uint32_t id = t->pt_slots[i];

		if (t->pt_lens[id - 1] == len &&
		    memcmp(t->pt_keys[id - 1], key, len) == 0)
			return id;
	}
	if ((copy = malloc(len + 1)) == NULL)
		return 0;
	memcpy(copy, key, len);
	copy[len] = '\0';
	t->pt_keys[t->pt_n] = copy;
	t->pt_lens[t->pt_n] = len;
	t->pt_slots[i] = ++t->pt_n;
	*isnew = true;
	return t->pt_n;
}

static void
dt_pptab_free(dt_pptab_t *t)
{
	for (uint32_t i = 0; i < t->pt_n; i++)
		free(t->pt_keys[i]);
	free(t->pt_keys);
	free(t->pt_lens);
	free(t->pt_slots);
	memset(t, 0, sizeof(*t));
}

/* A string's index in the string table. */
static uint64_t
dt_pprof_str(dt_pprof_t *pp, const char *s)
{
	bool isnew;
	uint32_t id = dt_pptab_id(&pp->pp_strs, s, strlen(s), &isnew);

	if (id == 0) {
		pp->pp_nomem = true;
		return 0;
	}
	return id - 1;
}

static uint32_t
dt_pprof_func(dt_pprof_t *pp, const char *name, const char *sysname)
{
	uint64_t key[2] = {dt_pprof_str(pp, name), dt_pprof_str(pp, sysname)};
	bool isnew;
	uint32_t id = dt_pptab_id(&pp->pp_funcs, key, sizeof(key), &isnew);

	if (id == 0)
		pp->pp_nomem = true;
	return id;
}

/*
 * The mapping of a file (path, build ID and, when known, range); an
 * unknown range (0, 0) grows to take in every address seen in it.
 */
static uint32_t
dt_pprof_map(dt_pprof_t *pp, bool user, const char *path, const char *buildid,
    uint64_t start, uint64_t limit, uint64_t offset, uint64_t addr)
{
	uint64_t key[5] = {dt_pprof_str(pp, path), dt_pprof_str(pp, buildid),
	    start, limit, offset};
	bool isnew;
	uint32_t id = dt_pptab_id(&pp->pp_maps, key, sizeof(key), &isnew);
	dt_ppmap_t *pm;

	if (id == 0) {
		pp->pp_nomem = true;
		return 0;
	}
	if (isnew) {
		if (id > pp->pp_nmapv) {
			uint32_t n = pp->pp_nmapv ? pp->pp_nmapv * 2 : 16;
			dt_ppmap_t *v = realloc(pp->pp_mapv, n * sizeof(*v));

			if (v == NULL) {
				pp->pp_nomem = true;
				return 0;
			}
			pp->pp_mapv = v;
			pp->pp_nmapv = n;
		}
		pm = &pp->pp_mapv[id - 1];
		memset(pm, 0, sizeof(*pm));
		pm->pm_path = key[0];
		pm->pm_buildid = key[1];
		pm->pm_start = start;
		pm->pm_limit = limit;
		pm->pm_offset = offset;
		pm->pm_user = user;
		if (start == 0 && limit == 0) {
			pm->pm_start = addr;
			pm->pm_limit = addr + 1;
		}
	}
	pm = &pp->pp_mapv[id - 1];
	if (addr < pm->pm_start)
		pm->pm_start = addr;
	if (addr >= pm->pm_limit)
		pm->pm_limit = addr + 1;
	return id;
}

/* Is -x name (a boolean option) set? */
static bool
dt_pprof_opt(dt_consumer_t *dc, int opt)
{
	return dc->dc_dtp != NULL &&
	    dc->dc_dtp->dt_options[opt] != DTRACEOPT_UNSET;
}

/* The location of a frame: pc in the kernel, or in process pid. */
static uint32_t
dt_pprof_loc(dt_pprof_t *pp, bool user, uint64_t pid, uint64_t pc)
{
	dt_consumer_t *dc = pp->pp_dc;
	const dt_symops_t *so = &dc->dc_symops;
	uint64_t key[3] = {user, user ? pid : 0, pc};
	dt_os_mapping_t om;
	dt_syminfo_t si;
	dt_pploc_t *pl;
	bool found, mapped = false, isnew;
	uint32_t id = dt_pptab_id(&pp->pp_locs, key, sizeof(key), &isnew);

	if (id == 0) {
		pp->pp_nomem = true;
		return 0;
	}
	if (!isnew)
		return id;
	if (id > pp->pp_nlocv) {
		uint32_t n = pp->pp_nlocv ? pp->pp_nlocv * 2 : 64;
		dt_pploc_t *v = realloc(pp->pp_locv, n * sizeof(*v));

		if (v == NULL) {
			pp->pp_nomem = true;
			return 0;
		}
		pp->pp_locv = v;
		pp->pp_nlocv = n;
	}
	pl = &pp->pp_locv[id - 1];
	memset(pl, 0, sizeof(*pl));
	pl->pl_addr = pc;

	memset(&si, 0, sizeof(si));
	memset(&om, 0, sizeof(om));
	if (user) {
		found = so->so_usym != NULL &&
		    so->so_usym(so->so_arg, pid, pc, &si) == 0;
		mapped = so->so_umap != NULL &&
		    so->so_umap(so->so_arg, pid, pc, &om) == 0;
		/* Left for pprof to symbolise, from the mapping's file. */
		if (dt_pprof_opt(dc, DT_OPT_NORESOLVE))
			si.si_name = NULL;
	} else {
		found = so->so_ksym != NULL &&
		    so->so_ksym(so->so_arg, pc, &si) == 0;
		mapped = found && si.si_object != NULL && so->so_kmap != NULL &&
		    so->so_kmap(so->so_arg, si.si_object, &om) == 0;
	}
	if (mapped && om.om_path != NULL)
		pl->pl_map = dt_pprof_map(pp, user, om.om_path, om.om_buildid,
		    om.om_start, om.om_limit, om.om_offset, pc);
	else if (found && si.si_object != NULL)
		pl->pl_map =
		    dt_pprof_map(pp, user, si.si_object, "", 0, 0, 0, pc);
	if (found && si.si_name != NULL) {
		const char *name = si.si_name, *dem;

		if (user && !dt_pprof_opt(dc, DT_OPT_NODEMANGLE) &&
		    (dem = dt_demangle(si.si_name)) != NULL)
			name = dem;
		pl->pl_func = dt_pprof_func(pp, name, si.si_name);
	} else if (pl->pl_map != 0) {
		pp->pp_mapv[pl->pl_map - 1].pm_nofunc = true;
	}
	return id;
}

static void
dt_pprof_pushid(dt_pprof_t *pp, uint64_t id)
{
	if (pp->pp_nids == pp->pp_idcap) {
		size_t n = pp->pp_idcap ? pp->pp_idcap * 2 : 64;
		uint64_t *v = realloc(pp->pp_ids, n * sizeof(*v));

		if (v == NULL) {
			pp->pp_nomem = true;
			return;
		}
		pp->pp_ids = v;
		pp->pp_idcap = n;
	}
	pp->pp_ids[pp->pp_nids++] = id;
}

/* A stack key's frames, innermost first, as the record holds them. */
static void
dt_pprof_stack(dt_pprof_t *pp, const dt_recdesc_t *rd, const unsigned char *p)
{
	bool user = rd->rd_type == DT_REC_USTACK;
	const unsigned char *pcs = p + (user ? 8 : 0);
	uint64_t pid = 0;

	if (user)
		memcpy(&pid, p, 8);
	for (uint64_t n = 0; n < rd->rd_arg; n++) {
		uint64_t pc;
		uint32_t id;

		memcpy(&pc, pcs + n * 8, 8);
		if (pc == 0)
			break;
		if ((id = dt_pprof_loc(pp, user, pid, pc)) != 0)
			dt_pprof_pushid(pp, id);
	}
}

/* A key that is not a stack, as the label keyN of the sample. */
static void
dt_pprof_label(
    dt_pprof_t *pp, uint32_t k, const dt_recdesc_t *rd, const unsigned char *p)
{
	dt_pbuf_t *sub = &pp->pp_sub;
	char name[24], buf[1024];

	dt_pb_reset(sub);
	(void) snprintf(name, sizeof(name), "key%u", k + 1);
	dt_pb_int(sub, LA_KEY, (int64_t) dt_pprof_str(pp, name));
	switch (rd->rd_type) {
	case DT_REC_SINT:
	case DT_REC_UINT:
		if (rd->rd_size <= 8) {
			dt_pb_int(sub, LA_NUM,
			    rd->rd_type == DT_REC_SINT
				? dt_rec_sint(rd, p)
				: (int64_t) dt_rec_uint(rd, p));
			break;
		}
		/* FALLTHROUGH */
	default:
		switch (rd->rd_type) {
		case DT_REC_STRING:
			(void) snprintf(buf, sizeof(buf), "%.*s",
			    (int) rd->rd_size, (const char *) p);
			break;
		case DT_REC_PTR:
			(void) snprintf(buf, sizeof(buf), "0x%llx",
			    (unsigned long long) dt_rec_uint(rd, p));
			break;
		case DT_REC_SYM:
		case DT_REC_MOD:
		case DT_REC_USYM:
		case DT_REC_UMOD:
		case DT_REC_UADDR:
			dt_sym2str(pp->pp_dc, rd, p, buf, sizeof(buf));
			break;
		default:
			buf[0] = '\0';
			for (uint32_t i = 0;
			     i < rd->rd_size && 2 * i + 3 <= sizeof(buf); i++)
				(void) snprintf(buf + 2 * i, 3, "%02x", p[i]);
			break;
		}
		dt_pb_int(sub, LA_STR, (int64_t) dt_pprof_str(pp, buf));
		break;
	}
	dt_pb_message(&pp->pp_msg, SA_LABEL, sub);
}

static bool
dt_pprof_isstack(const dt_recdesc_t *rd)
{
	return rd->rd_type == DT_REC_STACK || rd->rd_type == DT_REC_USTACK;
}

/* Can the aggregation be a profile?  If not, why not. */
static const char *
dt_pprof_refusal(const dt_aggdesc_t *agg)
{
	static char why[80];

	if (agg->ag_kind == DT_AGG_QUANTIZE ||
	    agg->ag_kind == DT_AGG_LQUANTIZE ||
	    agg->ag_kind == DT_AGG_LLQUANTIZE) {
		(void) snprintf(why, sizeof(why), "a %s() has no profile form",
		    dt_aggkind_name(agg->ag_kind));
		return why;
	}
	for (uint32_t k = 0; k < agg->ag_nkeys; k++) {
		if (dt_pprof_isstack(&agg->ag_keys[k]))
			return NULL;
	}
	return "a profile needs a stack() or ustack() key";
}

/*
 * The file of aggregation agg's profile: -o's FILE, with ".NAME" when
 * the program has several aggregations with profiles and ".SEQ" for a
 * printa()'s, before the first '.' of FILE's base name.
 */
static char *
dt_pprof_path(dt_consumer_t *dc, const dt_aggdesc_t *agg, uint32_t seq)
{
	const char *file = dc->dc_dtp->dt_outfile;
	const char *base = strrchr(file, '/'), *dot;
	uint32_t naggs = dc->dc_pgp ? dc->dc_pgp->pg_naggs : 0, nprof = 0;
	char num[16] = "";
	char *path;
	size_t stem;

	base = base != NULL ? base + 1 : file;
	/* A leading '.' (a hidden file) is part of the name. */
	dot = base[0] != '\0' ? strchr(base + 1, '.') : NULL;
	stem = dot != NULL ? (size_t) (dot - file) : strlen(file);
	for (uint32_t id = 0; id < naggs; id++) {
		const dt_aggdesc_t *a = dt_agg_desc(dc, id);

		if (a != NULL && dt_pprof_refusal(a) == NULL)
			nprof++;
	}
	if (seq != 0)
		(void) snprintf(num, sizeof(num), ".%u", seq);
	if (asprintf(&path, "%.*s%s%s%s%s", (int) stem, file,
		nprof > 1 ? "." : "",
		nprof > 1 ? (agg->ag_name[0] ? agg->ag_name : "_") : "", num,
		dot != NULL ? dot : "") < 0)
		return NULL;
	return path;
}

/* The Profile's bytes, gzipped, to path: under path.tmp, then renamed. */
static int
dt_pprof_write(dt_consumer_t *dc, const char *path, const dt_pbuf_t *pb)
{
	z_stream zs;
	unsigned char *out;
	size_t len;
	char *tmp;
	FILE *fp;
	int err = 0;

	if (pb->pb_len > UINT_MAX)
		return dt_set_errdetail(dc->dc_dtp, EFBIG,
		    "profile %s is too large to compress", path);
	memset(&zs, 0, sizeof(zs));
	/* 16 more window bits: a gzip header and trailer, not zlib's. */
	if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
		Z_DEFAULT_STRATEGY) != Z_OK)
		return dt_cons_nomem(dc);
	len = deflateBound(&zs, (uLong) pb->pb_len);
	if ((out = malloc(len)) == NULL) {
		(void) deflateEnd(&zs);
		return dt_cons_nomem(dc);
	}
	zs.next_in = pb->pb_data;
	zs.avail_in = (uInt) pb->pb_len;
	zs.next_out = out;
	zs.avail_out = (uInt) len;
	if (deflate(&zs, Z_FINISH) != Z_STREAM_END) {
		(void) deflateEnd(&zs);
		free(out);
		return dt_cons_nomem(dc);
	}
	len = zs.total_out;
	(void) deflateEnd(&zs);
	if (asprintf(&tmp, "%s.tmp", path) < 0) {
		free(out);
		return dt_cons_nomem(dc);
	}
	errno = 0;
	if ((fp = fopen(tmp, "w")) == NULL) {
		err = errno;
	} else {
		if (fwrite(out, 1, len, fp) != len)
			err = errno ? errno : EIO;
		if (fclose(fp) != 0 && err == 0)
			err = errno ? errno : EIO;
		if (err == 0 && rename(tmp, path) != 0)
			err = errno;
		if (err != 0)
			(void) remove(tmp);
	}
	free(tmp);
	free(out);
	if (err != 0)
		return dt_set_errdetail(dc->dc_dtp, err,
		    "cannot write profile %s: %s", path, strerror(err));
	return 0;
}

static void
dt_pprof_free(dt_pprof_t *pp)
{
	dt_pb_free(&pp->pp_prof);
	dt_pb_free(&pp->pp_msg);
	dt_pb_free(&pp->pp_sub);
	dt_pptab_free(&pp->pp_strs);
	dt_pptab_free(&pp->pp_funcs);
	dt_pptab_free(&pp->pp_locs);
	dt_pptab_free(&pp->pp_maps);
	free(pp->pp_locv);
	free(pp->pp_mapv);
	free(pp->pp_ids);
}

/*
 * pprof takes the first mapping for the program's (its "File:" line),
 * and so do the tools that read its profiles: the first one of a
 * process, not of a shared library ("libc.so.6", "libfoo.so") nor of a
 * pseudo-file ("[vdso]"), goes first, others keep their order.  Its ID,
 * or 0 for none.
 */
static uint32_t
dt_pprof_mainmap(dt_pprof_t *pp)
{
	for (uint32_t id = 1; id <= pp->pp_maps.pt_n; id++) {
		const char *path =
		    (const char *)
			pp->pp_strs.pt_keys[pp->pp_mapv[id - 1].pm_path];
		const char *base = strrchr(path, '/'), *so;
		bool lib = false;

		base = base != NULL ? base + 1 : path;
		for (so = strstr(base, ".so"); so != NULL && !lib;
		     so = strstr(so + 1, ".so"))
			lib = so[3] == '\0' ||
			    ((so[3] == '.' || so[3] == '_') && so[4] >= '0' &&
				so[4] <= '9');
		if (pp->pp_mapv[id - 1].pm_user && base[0] != '\0' &&
		    base[0] != '[' && !lib)
			return id;
	}
	return 0;
}

/* A mapping's ID once the main one (main, 0 for none) is first. */
static uint32_t
dt_pprof_mapid(uint32_t id, uint32_t main)
{
	if (main == 0 || id > main)
		return id;
	return id == main ? 1 : id + 1;
}

/* Everything but the samples, which are in pp_prof already. */
static void
dt_pprof_finish(dt_pprof_t *pp, const dt_aggdesc_t *agg)
{
	dt_pbuf_t *prof = &pp->pp_prof, *msg = &pp->pp_msg, *sub = &pp->pp_sub;
	bool count = agg->ag_kind == DT_AGG_COUNT;
	uint64_t now = dt_os_walltimestamp(), t0 = pp->pp_dc->dc_walltime0;
	char comment[200];
	int64_t cidx;
	uint32_t main;

	dt_pb_reset(msg);
	dt_pb_int(msg, VT_TYPE,
	    (int64_t) dt_pprof_str(
		pp, count ? "samples" : dt_aggkind_name(agg->ag_kind)));
	dt_pb_int(
	    msg, VT_UNIT, (int64_t) dt_pprof_str(pp, count ? "count" : ""));
	dt_pb_message(prof, PF_SAMPLE_TYPE, msg);
	(void) snprintf(comment, sizeof(comment), "dtrace: @%s = %s()",
	    agg->ag_name, dt_aggkind_name(agg->ag_kind));
	cidx = (int64_t) dt_pprof_str(pp, comment);

	/* In the order of their new IDs: readers take the first for main. */
	main = dt_pprof_mainmap(pp);
	for (uint32_t i = 0; i < pp->pp_maps.pt_n; i++) {
		const dt_ppmap_t *pm;
		uint32_t id = i + 1;

		if (main != 0)
			id = i == 0 ? main : i < main ? i : i + 1;
		pm = &pp->pp_mapv[id - 1];
		dt_pb_reset(msg);
		dt_pb_uint(msg, MA_ID, dt_pprof_mapid(id, main));
		dt_pb_uint_opt(msg, MA_MEMORY_START, pm->pm_start);
		dt_pb_uint_opt(msg, MA_MEMORY_LIMIT, pm->pm_limit);
		dt_pb_uint_opt(msg, MA_FILE_OFFSET, pm->pm_offset);
		dt_pb_int_opt(msg, MA_FILENAME, (int64_t) pm->pm_path);
		dt_pb_int_opt(msg, MA_BUILD_ID, (int64_t) pm->pm_buildid);
		dt_pb_uint_opt(msg, MA_HAS_FUNCTIONS, !pm->pm_nofunc);
		dt_pb_message(prof, PF_MAPPING, msg);
	}
	for (uint32_t id = 1; id <= pp->pp_locs.pt_n; id++) {
		const dt_pploc_t *pl = &pp->pp_locv[id - 1];

		dt_pb_reset(msg);
		dt_pb_uint(msg, LO_ID, id);
		dt_pb_uint_opt(msg, LO_MAPPING_ID,
		    pl->pl_map ? dt_pprof_mapid(pl->pl_map, main) : 0);
		dt_pb_uint_opt(msg, LO_ADDRESS, pl->pl_addr);
		if (pl->pl_func != 0) {
			dt_pb_reset(sub);
			dt_pb_uint(sub, LI_FUNCTION_ID, pl->pl_func);
			dt_pb_message(msg, LO_LINE, sub);
		}
		dt_pb_message(prof, PF_LOCATION, msg);
	}
	for (uint32_t id = 1; id <= pp->pp_funcs.pt_n; id++) {
		uint64_t key[2];

		memcpy(key, pp->pp_funcs.pt_keys[id - 1], sizeof(key));
		dt_pb_reset(msg);
		dt_pb_uint(msg, FN_ID, id);
		dt_pb_int_opt(msg, FN_NAME, (int64_t) key[0]);
		dt_pb_int_opt(msg, FN_SYSTEM_NAME, (int64_t) key[1]);
		dt_pb_message(prof, PF_FUNCTION, msg);
	}
	/* Every string is in the table now: index 0 is "", interned first. */
	for (uint32_t i = 0; i < pp->pp_strs.pt_n; i++)
		dt_pb_lenfield(prof, PF_STRING_TABLE, pp->pp_strs.pt_keys[i],
		    pp->pp_strs.pt_lens[i]);
	dt_pb_int_opt(prof, PF_TIME_NANOS, (int64_t) now);
	dt_pb_int_opt(prof, PF_DURATION_NANOS,
	    now > t0 && t0 != 0 ? (int64_t) (now - t0) : 0);
	dt_pb_int(prof, PF_COMMENT, cidx);
}

/* One aggregation's profile, to its file. */
static int
dt_pprof_agg(dt_consumer_t *dc, uint32_t aggid, bool printa)
{
	const dt_aggdesc_t *agg = dt_agg_desc(dc, aggid);
	dt_aggstate_t *as = &dc->dc_aggstate[aggid];
	const char *why;
	dt_aggent_t **v;
	dt_pprof_t pp;
	char *path;
	uint32_t n;
	int rv;

	if ((why = dt_pprof_refusal(agg)) != NULL) {
		(void) fprintf(dc->dc_errfp, "dtrace: @%s not written: %s\n",
		    agg->ag_name, why);
		return 0;
	}
	if (dc->dc_dtp->dt_outfile == NULL)
		return dt_set_errdetail(dc->dc_dtp, EDT_BADOPTVAL,
		    "-x oformat=pprof writes each profile to a file: name it "
		    "with -o FILE");
	if ((v = dt_agg_sorted(dc, aggid, &n)) == NULL)
		return dt_cons_nomem(dc);
	memset(&pp, 0, sizeof(pp));
	pp.pp_dc = dc;
	(void) dt_pprof_str(&pp, "");
	for (uint32_t i = 0; i < n && !pp.pp_nomem; i++) {
		const unsigned char *key = v[i]->ae_key;
		uint64_t val = (uint64_t) dt_folded_value(
		    agg, v[i]->ae_vals, as->as_normal);

		pp.pp_nids = 0;
		/* Key order is outermost first; locations innermost first. */
		for (uint32_t k = agg->ag_nkeys; k-- > 0;) {
			const dt_recdesc_t *rd = &agg->ag_keys[k];

			if (dt_pprof_isstack(rd))
				dt_pprof_stack(&pp, rd, key + rd->rd_offset);
		}
		dt_pb_reset(&pp.pp_msg);
		dt_pb_packed(&pp.pp_msg, SA_LOCATION_ID, pp.pp_ids, pp.pp_nids);
		dt_pb_packed(&pp.pp_msg, SA_VALUE, &val, 1);
		for (uint32_t k = 0; k < agg->ag_nkeys; k++) {
			const dt_recdesc_t *rd = &agg->ag_keys[k];

			if (!dt_pprof_isstack(rd))
				dt_pprof_label(&pp, k, rd, key + rd->rd_offset);
		}
		dt_pb_message(&pp.pp_prof, PF_SAMPLE, &pp.pp_msg);
	}
	free(v);
	if (!pp.pp_nomem)
		dt_pprof_finish(&pp, agg);
	if (pp.pp_nomem || pp.pp_prof.pb_err) {
		dt_pprof_free(&pp);
		return dt_cons_nomem(dc);
	}
	if ((path = dt_pprof_path(dc, agg, printa ? ++as->as_pprofseq : 0)) ==
	    NULL) {
		dt_pprof_free(&pp);
		return dt_cons_nomem(dc);
	}
	rv = dt_pprof_write(dc, path, &pp.pp_prof);
	free(path);
	dt_pprof_free(&pp);
	return rv;
}

int
dt_pprof_aggs(
    dt_consumer_t *dc, const uint32_t *aggids, uint32_t naggs, bool unprinted)
{
	uint32_t total = dc->dc_pgp ? dc->dc_pgp->pg_naggs : 0;

	if (aggids == NULL) {
		for (uint32_t id = 0; id < total; id++) {
			if (unprinted && dc->dc_aggstate[id].as_printed)
				continue;
			if (dt_pprof_agg(dc, id, false) != 0)
				return -1;
		}
		return 0;
	}
	for (uint32_t i = 0; i < naggs; i++) {
		if (dt_pprof_agg(dc, aggids[i], true) != 0)
			return -1;
		dc->dc_aggstate[aggids[i]].as_printed = true;
	}
	return 0;
}
