/* SPDX-License-Identifier: MIT */
/*
 * kdwarf_test.c: kernel variables' types from DWARF (os/linux/dt_kdwarf.c)
 * and their resolution in BTF (dt_btf_chain()).
 *
 * The DWARF is this program's own: kdwarf_vars.c's variables, of the
 * shapes a kernel's have, compiled into it with debugging information
 * (DWARF 5 here; kdwarf4_test is the same built for DWARF 4, as Linux
 * 5.10's was).  The chains are checked word for word; the cache is
 * written, read back and refused when it is not one; a file that is not
 * ELF, or has no DWARF, gives a reason, not a crash.  The chains are then
 * resolved against a small BTF blob made with libbpf (-x btfpath), and
 * the resulting types' sizes checked.
 */
#include <fcntl.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "common/dt_impl.h"
#include "os/linux/dt_btf.h"
#include "os/linux/dt_kdwarf.h"
#include "tests/unit/unit.h"

extern int *kd_vars_use(void);

#define CHECK_CHAIN(kd, name, want)                                          \
	do {                                                                 \
		const char *c_ = dt_kdwarf_var((kd), (name));                \
		unit_checks++;                                               \
		if (c_ == NULL || strcmp(c_, (want)) != 0) {                 \
			unit_failures++;                                     \
			printf("%s:%d: %s: got \"%s\", want \"%s\"\n",       \
			    __FILE__, __LINE__, (name),                      \
			    c_ ? c_ : "(none)", (want));                     \
		}                                                            \
	} while (0)

static void
test_chains(dt_kdwarf_t *kd)
{
	CHECK_CHAIN(kd, "kd_max_pfn", "int 8 u long unsigned int");
	CHECK_CHAIN(kd, "kd_jiffies", "volatile int 8 u long unsigned int");
	CHECK_CHAIN(kd, "kd_banner", "const [18] const int 1 c char");
	CHECK_CHAIN(kd, "kd_init", "struct kd_pid");
	CHECK_CHAIN(kd, "kd_cad", "* struct kd_pid");
	CHECK_CHAIN(kd, "kd_nr_cpu_ids", "int 4 u unsigned int");
	CHECK_CHAIN(kd, "kd_jiffies_64", "typedef kd_u64");
	CHECK_CHAIN(kd, "kd_table", "const [3] const * const typedef kd_u64");
	CHECK_CHAIN(kd, "kd_grid", "[3] [4] int 4 s int");
	CHECK_CHAIN(kd, "kd_anon", "typedef kd_anon_t");
	CHECK_CHAIN(kd, "kd_state_var", "enum kd_state");
	CHECK_CHAIN(kd, "kd_union", "union kd_u");
	CHECK_CHAIN(kd, "kd_handler", "* func");
	CHECK_CHAIN(kd, "kd_static", "int 4 s int");
	CHECK_CHAIN(kd, "kd_flag", "int 1 b _Bool");
	CHECK_CHAIN(kd, "kd_ratio", "int 8 f double");
	CHECK_CHAIN(kd, "kd_sc", "int 1 c signed char");
	CHECK(dt_kdwarf_var(kd, "kd_unnamed") == NULL);
	CHECK(dt_kdwarf_var(kd, "kd_no_such_variable") == NULL);
	/* Functions are not variables. */
	CHECK(dt_kdwarf_var(kd, "kd_vars_use") == NULL);
}

static void
test_files(void)
{
	char why[512], cache[] = "/tmp/kdwarf_testXXXXXX", bad[64];
	dt_kdwarf_t *kd;
	int fd;

	/* Read, cached, read back from the cache. */
	CHECK((fd = mkstemp(cache)) >= 0);
	close(fd);
	unlink(cache);
	CHECK((kd = dt_kdwarf_open("/proc/self/exe", cache, why,
	    sizeof (why))) != NULL);
	if (kd == NULL) {
		printf("open: %s\n", why);
		return;
	}
	test_chains(kd);
	dt_kdwarf_close(kd);
	CHECK(access(cache, R_OK) == 0);
	CHECK((kd = dt_kdwarf_open("/nonexistent", cache, why,
	    sizeof (why))) != NULL);
	if (kd != NULL) {
		test_chains(kd);
		dt_kdwarf_close(kd);
	}
	/* Not a cache: the file is read again. */
	fd = open(cache, O_WRONLY | O_TRUNC);
	CHECK(fd >= 0 && write(fd, "junk\n", 5) == 5);
	close(fd);
	CHECK((kd = dt_kdwarf_open("/proc/self/exe", cache, why,
	    sizeof (why))) != NULL);
	if (kd != NULL) {
		CHECK_CHAIN(kd, "kd_cad", "* struct kd_pid");
		dt_kdwarf_close(kd);
	}
	unlink(cache);

	/* Files that are not DWARF. */
	CHECK(dt_kdwarf_open("/nonexistent", NULL, why, sizeof (why)) ==
	    NULL);
	CHECK(strstr(why, "cannot open /nonexistent") != NULL);
	snprintf(bad, sizeof (bad), "/tmp/kdwarf_badXXXXXX");
	CHECK((fd = mkstemp(bad)) >= 0);
	CHECK(write(fd, "\177ELF garbage", 12) == 12);
	close(fd);
	CHECK(dt_kdwarf_open(bad, NULL, why, sizeof (why)) == NULL);
	CHECK(strstr(why, "is not an ELF file") != NULL);
	unlink(bad);
}

static void
test_build_id(void)
{
	/* A GNU build-ID note, then another note. */
	static const unsigned char notes[] = {
		4, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 'X', 'e', 'n', 0,
		1, 2, 3, 4,
		4, 0, 0, 0, 5, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0,
		0xde, 0xad, 0xbe, 0xef, 0x01, 0, 0, 0,
	};
	char id[64];

	CHECK(dt_kdwarf_build_id(notes, sizeof (notes), id, sizeof (id)) ==
	    0);
	CHECK(strcmp(id, "deadbeef01") == 0);
	/* Cut short: none, and no read past the end. */
	CHECK(dt_kdwarf_build_id(notes, 30, id, sizeof (id)) == -1);
}

/* A blob with what the chains name, as a kernel's BTF would have it. */
static char *
make_btf(void)
{
	static char path[] = "/tmp/kdwarf_btfXXXXXX";
	struct btf *b = btf__new_empty();
	int t_int, t_ulong, t_pid, fd;
	const void *raw;
	__u32 size;

	t_int = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	btf__add_int(b, "char", 1, 0);
	t_ulong = btf__add_int(b, "long unsigned int", 8, 0);
	btf__add_typedef(b, "kd_u64", t_ulong);
	t_pid = btf__add_struct(b, "kd_pid", 24);
	btf__add_field(b, "level", t_int, 0, 0);
	(void) t_pid;
	raw = btf__raw_data(b, &size);
	if ((fd = mkstemp(path)) < 0 || write(fd, raw, size) != (ssize_t) size)
		return NULL;
	close(fd);
	btf__free(b);
	return path;
}

static ssize_t
chain_size(dtrace_hdl_t *dtp, const char *chain)
{
	ctf_dict_t *fp;
	ctf_id_t t = dt_btf_chain(dtp, chain, &fp);

	return t == CTF_ERR ? -1 : ctf_type_size(fp, t);
}

static void
test_resolve(void)
{
	char *path = make_btf();
	dtrace_hdl_t *dtp;
	ctf_dict_t *fp;
	ctf_id_t t;
	int err;

	CHECK(path != NULL);
	if (path == NULL || (dtp = dtrace_open(DTRACE_VERSION, 0, &err)) ==
	    NULL)
		return;
	CHECK(dtrace_setopt(dtp, "nolibs", NULL) == 0);
	CHECK(dtrace_setopt(dtp, "btfpath", path) == 0);
	CHECK_INT(chain_size(dtp, "int 8 u long unsigned int"), 8);
	CHECK_INT(chain_size(dtp, "volatile int 8 u long unsigned int"), 8);
	CHECK_INT(chain_size(dtp, "struct kd_pid"), 24);
	CHECK_INT(chain_size(dtp, "* struct kd_pid"), 8);
	CHECK_INT(chain_size(dtp, "typedef kd_u64"), 8);
	CHECK_INT(chain_size(dtp, "[3] const * const typedef kd_u64"), 24);
	CHECK_INT(chain_size(dtp, "[3] [4] int 4 s int"), 48);
	CHECK_INT(chain_size(dtp, "[18] const int 1 c char"), 18);
	/* An unbounded array takes the symbol's size. */
	CHECK_INT(chain_size(dtp, "=198 const [0] const int 1 c char"), 198);
	/* A base type BTF lacks is made; a named type it lacks is not. */
	CHECK_INT(chain_size(dtp, "int 2 u short unsigned int"), 2);
	CHECK_INT(chain_size(dtp, "struct kd_missing"), -1);
	CHECK_INT(chain_size(dtp, "typedef kd_missing_t"), -1);
	CHECK_INT(chain_size(dtp, "* func"), 8);
	/* The pointer's target is the struct, complete. */
	t = dt_btf_chain(dtp, "* struct kd_pid", &fp);
	CHECK(t != CTF_ERR);
	if (t != CTF_ERR)
		CHECK_INT(ctf_type_size(fp, ctf_type_reference(fp, t)), 24);
	/* Not a chain. */
	CHECK_INT(chain_size(dtp, ""), -1);
	CHECK_INT(chain_size(dtp, "* * *"), -1);
	dtrace_close(dtp);
	unlink(path);
}

int
main(void)
{
	(void) kd_vars_use();
	test_files();
	test_build_id();
	test_resolve();
	return unit_done();
}
