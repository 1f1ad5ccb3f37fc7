/* SPDX-License-Identifier: MIT */
/*
 * consumer_pprof_test.c: aggregations as pprof profiles
 * (common/consumer/dt_pprof.c) from known entries and a fake symbol
 * table, without a kernel or a process.
 *
 * The profile of a user-stack count() keyed by an integer too is
 * gunzipped and decoded by protoc --decode_raw (Debian:
 * protobuf-compiler), an implementation not ours, and must be, message
 * by message, the one worked out here from profile.proto: samples with
 * their locations, value and label, the sample type, the mapping with
 * its path, range, offset and build ID (without has_functions: one of
 * its addresses has no symbol), locations and their lines, the function,
 * the string table with "" first, and the comment.  Then the files'
 * names: one per aggregation named after it when the program has
 * several that make profiles, FILE itself when it has one, numbered by
 * printa(); and the lines on stderr for what is left out.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "common/dt_aggfunc.h"
#include "common/dt_os.h"
#include "tests/unit/consumer_test.h"
#include "tests/unit/unit.h"

static dtrace_hdl_t *g_dtp;
static char g_dir[] = "/tmp/consumer_pprof_test.XXXXXX";
static char g_path[256];

/* Keys: an int and a user stack of 3 frames; a kernel stack of 2. */
static dt_recdesc_t k_int_ustack[2] = {
    {DT_REC_SINT, 4, 0, 4, 0, NULL, 0},
    {DT_REC_USTACK, 32, 8, 8, 3, NULL, 0},
};
static dt_recdesc_t k_stack[1] = {{DT_REC_STACK, 16, 0, 8, 2, NULL, 0}};
static dt_recdesc_t k_str[1] = {{DT_REC_STRING, 16, 0, 1, 0, NULL, 0}};

static dt_aggdesc_t g_aggs[8];
static dt_program_t g_prog;

typedef struct tent {
	uint32_t id;
	unsigned char key[64];
	int64_t vals[160];
} tent_t;

static tent_t g_ents[16];
static int g_nents;

static uint32_t
agg_add(const char *name, dt_aggkind_t kind, dt_recdesc_t *keys, uint32_t nkeys,
    uint32_t keysize)
{
	dt_aggdesc_t *agg = &g_aggs[g_prog.pg_naggs];

	memset(agg, 0, sizeof(*agg));
	agg->ag_id = g_prog.pg_naggs;
	agg->ag_name = name;
	agg->ag_kind = kind;
	agg->ag_nvals = dt_agg_nvals(kind, agg->ag_params);
	agg->ag_keys = keys;
	agg->ag_nkeys = nkeys;
	agg->ag_keysize = keysize;
	return g_prog.pg_naggs++;
}

static void
prog_reset(void)
{
	memset(&g_prog, 0, sizeof(g_prog));
	g_prog.pg_aggs = g_aggs;
	g_nents = 0;
}

static void
update(uint32_t id, const void *key, int64_t v)
{
	const dt_aggdesc_t *agg = &g_aggs[id];
	tent_t *e = NULL;

	for (int i = 0; i < g_nents && e == NULL; i++) {
		if (g_ents[i].id == id &&
		    memcmp(g_ents[i].key, key, agg->ag_keysize) == 0)
			e = &g_ents[i];
	}
	if (e == NULL) {
		e = &g_ents[g_nents++];
		memset(e, 0, sizeof(*e));
		e->id = id;
		memcpy(e->key, key, agg->ag_keysize);
		dt_agg_init(agg->ag_kind, e->vals, agg->ag_nvals);
	}
	dt_agg_update(agg, e->vals, v, 1);
}

/* The engine's table, handed over as a cumulative snapshot. */
static void
snap(void)
{
	static unsigned char buf[8192];
	size_t off = 0;
	dt_aggsnap_t s;

	for (int i = 0; i < g_nents; i++) {
		const dt_aggdesc_t *agg = &g_aggs[g_ents[i].id];
		size_t ksz = (agg->ag_keysize + 7) & ~(size_t) 7;
		uint64_t id = g_ents[i].id;

		memset(buf + off, 0, 8 + ksz);
		memcpy(buf + off, &id, 8);
		memcpy(buf + off + 8, g_ents[i].key, agg->ag_keysize);
		memcpy(buf + off + 8 + ksz, g_ents[i].vals, agg->ag_nvals * 8);
		off += 8 + ksz + agg->ag_nvals * 8;
	}
	s.as_cpu = 0;
	s.as_nentries = (uint32_t) g_nents;
	s.as_size = off;
	s.as_data = buf;
	CHECK_INT(dt_consume_aggsnap(g_dtp, &s, 1, true), 0);
}

/* A user key: label value, pid 42 and up to 3 frames. */
static const unsigned char *
ukey(int32_t label, uint64_t pc0, uint64_t pc1)
{
	static unsigned char k[40];
	uint64_t pid = 42;

	memset(k, 0, sizeof(k));
	memcpy(k, &label, 4);
	memcpy(k + 8, &pid, 8);
	memcpy(k + 16, &pc0, 8);
	memcpy(k + 24, &pc1, 8);
	return k;
}

/* The files behind addresses: libc's mapping, and the kernel. */
static int
tmap_u(void *arg, uint64_t pid, uint64_t addr, struct dt_os_mapping *omp)
{
	(void) arg;
	if (pid != 42 || addr < 0x7f0000000000ULL || addr >= 0x7f0000100000ULL)
		return -1;
	memset(omp, 0, sizeof(*omp));
	omp->om_path = "/lib/libc.so.6";
	omp->om_start = 0x7f0000000000ULL;
	omp->om_limit = 0x7f0000100000ULL;
	omp->om_offset = 0x1000;
	strcpy(omp->om_buildid, "abcd");
	return 0;
}

static int
tmap_k(void *arg, const char *module, struct dt_os_mapping *omp)
{
	(void) arg;
	if (strcmp(module, "vmlinux") != 0)
		return -1;
	memset(omp, 0, sizeof(*omp));
	omp->om_path = "[kernel.kallsyms]";
	strcpy(omp->om_buildid, "1234");
	return 0;
}

static const dt_symops_t t_ops = {tsym_k, tsym_u, NULL, tmap_u, tmap_k};

/* The profile in file, gunzipped and decoded by protoc, times left out. */
static char *
decode(const char *file)
{
	static char out[16384];
	char raw[300], cmd[400], line[512];
	unsigned char buf[4096];
	size_t n = 0;
	gzFile gz;
	FILE *fp;
	int len;

	out[0] = '\0';
	if ((gz = gzopen(file, "rb")) == NULL) {
		printf("cannot open %s\n", file);
		return out;
	}
	len = gzread(gz, buf, sizeof(buf));
	(void) gzclose(gz);
	CHECK(len > 0);
	(void) snprintf(raw, sizeof(raw), "%s.raw", file);
	if ((fp = fopen(raw, "w")) == NULL || len <= 0)
		return out;
	(void) fwrite(buf, 1, (size_t) len, fp);
	(void) fclose(fp);
	(void) snprintf(cmd, sizeof(cmd), "protoc --decode_raw < %s", raw);
	if ((fp = popen(cmd, "r")) == NULL)
		return out;
	/* time_nanos (9) and duration_nanos (10) are not known here. */
	while (fgets(line, sizeof(line), fp) != NULL) {
		if (strncmp(line, "9: ", 3) == 0 ||
		    strncmp(line, "10: ", 4) == 0)
			continue;
		if (n + strlen(line) < sizeof(out)) {
			strcpy(out + n, line);
			n += strlen(line);
		}
	}
	CHECK_INT(pclose(fp), 0);
	(void) unlink(raw);
	return out;
}

static bool
exists(const char *name)
{
	char p[300];
	struct stat st;

	(void) snprintf(p, sizeof(p), "%s/%s", g_dir, name);
	return stat(p, &st) == 0 && st.st_size > 0;
}

static void
rmfile(const char *name)
{
	char p[300];

	(void) snprintf(p, sizeof(p), "%s/%s", g_dir, name);
	(void) unlink(p);
}

static void
test_profile(bool protoc)
{
	static const char want[] =
	    /* The entry of count 1 sorts first: one unsymbolised frame. */
	    "2 {\n"
	    "  1: \"\\001\"\n"
	    "  2: \"\\001\"\n"
	    "  3 {\n"
	    "    1: 3\n"
	    "    3: 8\n"
	    "  }\n"
	    "}\n"
	    "2 {\n"
	    "  1: \"\\002\\003\"\n"
	    "  2: \"\\003\"\n"
	    "  3 {\n"
	    "    1: 3\n"
	    "    3: 7\n"
	    "  }\n"
	    "}\n"
	    "1 {\n"
	    "  1: 5\n"
	    "  2: 6\n"
	    "}\n"
	    "3 {\n"
	    "  1: 1\n"
	    "  2: 139637976727552\n"
	    "  3: 139637977776128\n"
	    "  4: 4096\n"
	    "  5: 1\n"
	    "  6: 2\n"
	    "}\n"
	    "4 {\n"
	    "  1: 1\n"
	    "  2: 1\n"
	    "  3: 139637976735744\n"
	    "}\n"
	    "4 {\n"
	    "  1: 2\n"
	    "  2: 1\n"
	    "  3: 139637976731664\n"
	    "  4 {\n"
	    "    1: 1\n"
	    "  }\n"
	    "}\n"
	    "4 {\n"
	    "  1: 3\n"
	    "  2: 1\n"
	    "  3: 139637976731680\n"
	    "  4 {\n"
	    "    1: 1\n"
	    "  }\n"
	    "}\n"
	    "5 {\n"
	    "  1: 1\n"
	    "  2: 4\n"
	    "  3: 4\n"
	    "}\n"
	    "6: \"\"\n"
	    "6: \"/lib/libc.so.6\"\n"
	    "6: \"abcd\"\n"
	    "6: \"key1\"\n"
	    "6: \"malloc\"\n"
	    "6: \"samples\"\n"
	    "6: \"count\"\n"
	    "6: \"dtrace: @u = count()\"\n"
	    "13: 7\n";
	char errbuf[1024] = "";
	uint32_t u, k;
	FILE *errfp = fmemopen(errbuf, sizeof(errbuf), "w");
	char *got;

	prog_reset();
	u = agg_add("u", DT_AGG_COUNT, k_int_ustack, 2, 40);
	k = agg_add("k", DT_AGG_SUM, k_stack, 1, 16);
	(void) agg_add("n", DT_AGG_COUNT, k_str, 1, 16);
	(void) agg_add("q", DT_AGG_QUANTIZE, k_stack, 1, 16);
	CHECK_INT(dt_consume_setup(g_dtp, &g_prog, NULL, 0), 0);
	dt_consume_setsymops(g_dtp, &t_ops);
	dt_consume_seterrfp(g_dtp, errfp);
	/* malloc twice (two addresses in it), 3 times; a stray address once. */
	for (int i = 0; i < 3; i++)
		update(u, ukey(7, 0x7f0000001010ULL, 0x7f0000001020ULL), 0);
	update(u, ukey(8, 0x7f0000002000ULL, 0), 0);
	{
		uint64_t ks[2] = {0xffffffff81000010ULL, 0xffffffffc0000004ULL};

		update(k, ks, 5);
		update(k, ks, 7);
	}
	snap();
	CHECK_INT(dt_consume_end(g_dtp, stdout), 0);
	(void) fflush(errfp);
	CHECK_STR(errbuf,
	    "dtrace: @n not written: a profile needs a stack() or ustack() "
	    "key\n"
	    "dtrace: @q not written: a quantize() has no profile form\n");
	(void) fclose(errfp);
	dt_consume_seterrfp(g_dtp, stderr);
	CHECK(exists("p.u.pb.gz"));
	CHECK(exists("p.k.pb.gz"));
	CHECK(!exists("p.n.pb.gz") && !exists("p.q.pb.gz"));
	if (protoc) {
		char f[300];

		(void) snprintf(f, sizeof(f), "%s/p.u.pb.gz", g_dir);
		got = decode(f);
		CHECK_STR(got, want);
		/*
		 * The kernel's: sum() of no unit, frames of the kernel (with
		 * its build ID) and of a module known by name alone,
		 * spanning the one address seen in it.
		 */
		(void) snprintf(f, sizeof(f), "%s/p.k.pb.gz", g_dir);
		got = decode(f);
		CHECK(strstr(got, "  1: \"\\001\\002\"\n  2: \"\\014\"\n") !=
		    NULL);
		CHECK(strstr(got,
			  "6: \"[kernel.kallsyms]\"\n6: \"1234\"\n"
			  "6: \"do_thing\"\n6: \"ext4\"\n"
			  "6: \"ext4_read\"\n6: \"sum\"\n") != NULL);
		CHECK(strstr(got,
			  "3 {\n  1: 2\n  2: 18446744072635809796\n"
			  "  3: 18446744072635809797\n"
			  "  5: 4\n  7: 1\n}\n") != NULL);
	}
	rmfile("p.u.pb.gz");
	rmfile("p.k.pb.gz");
	dt_consume_setsymops(g_dtp, NULL);
}

/* One aggregation with a profile: FILE itself; printa() numbers it. */
static void
test_names(void)
{
	char errbuf[1024] = "";
	FILE *errfp = fmemopen(errbuf, sizeof(errbuf), "w");
	uint32_t u;

	prog_reset();
	u = agg_add("u", DT_AGG_COUNT, k_int_ustack, 2, 40);
	(void) agg_add("n", DT_AGG_COUNT, k_str, 1, 16);
	CHECK_INT(dt_consume_setup(g_dtp, &g_prog, NULL, 0), 0);
	dt_consume_setsymops(g_dtp, &t_ops);
	dt_consume_seterrfp(g_dtp, errfp);
	update(u, ukey(1, 0x7f0000001010ULL, 0), 0);
	snap();
	CHECK_INT(dt_agg_printa(g_dtp, stdout, NULL, &u, 1), 0);
	CHECK_INT(dt_agg_printa(g_dtp, stdout, NULL, &u, 1), 0);
	CHECK(exists("p.1.pb.gz"));
	CHECK(exists("p.2.pb.gz"));
	/* Printed by printa(): the end writes nothing more of it. */
	CHECK_INT(dt_consume_end(g_dtp, stdout), 0);
	CHECK(!exists("p.pb.gz"));
	rmfile("p.1.pb.gz");
	rmfile("p.2.pb.gz");
	CHECK_INT(dt_consume_setup(g_dtp, &g_prog, NULL, 0), 0);
	update(u, ukey(1, 0x7f0000001010ULL, 0), 0);
	snap();
	CHECK_INT(dt_consume_end(g_dtp, stdout), 0);
	CHECK(exists("p.pb.gz"));
	rmfile("p.pb.gz");
	/* Each end said, once, what it left out. */
	(void) fflush(errfp);
	CHECK_STR(errbuf,
	    "dtrace: @n not written: a profile needs a stack() or ustack() "
	    "key\n"
	    "dtrace: @n not written: a profile needs a stack() or ustack() "
	    "key\n");
	(void) fclose(errfp);
	dt_consume_seterrfp(g_dtp, stderr);
	dt_consume_setsymops(g_dtp, NULL);
}

int
main(void)
{
	bool protoc = system("command -v protoc >/dev/null 2>&1") == 0;

	if (mkdtemp(g_dir) == NULL)
		SKIP("cannot make a directory in /tmp");
	(void) snprintf(g_path, sizeof(g_path), "%s/p.pb.gz", g_dir);
	g_dtp = t_open();
	CHECK_INT(dtrace_setopt(g_dtp, "oformat", "pprof"), 0);
	CHECK_INT(dtrace_output_file(g_dtp, g_path), 0);
	if (!protoc)
		printf("note: no protoc (Debian: protobuf-compiler): the "
		       "profiles' contents are not decoded\n");
	test_profile(protoc);
	test_names();
	dtrace_close(g_dtp);
	(void) rmdir(g_dir);
	return unit_done();
}
