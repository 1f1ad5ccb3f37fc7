/* SPDX-License-Identifier: MIT */
/*
 * ksyms_test.c: the kernel symbol table (os/linux/dt_ksyms.c) over a
 * synthetic kallsyms: symbol boundaries, aliases, modules, data symbols
 * ending the text before them, hidden addresses, and reading a file.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "os/linux/dt_ksyms.h"
#include "tests/unit/unit.h"

static const char t_kallsyms[] =
    "ffffffff81000000 T _stext\n"
    "ffffffff81000000 t srso_local\n"
    "ffffffff81000000 T srso_alias\n"
    "ffffffff81000010 t do_thing\n"
    "ffffffff81000010 T __do_thing\n"
    "ffffffff81000100 W weak_fn\n"
    "ffffffff81000200 D some_data\n"
    "ffffffff81000300 T after_data\n"
    "ffffffff81000400 T __ia32_sys_getppid\n"
    "ffffffff81000400 T __x64_sys_getppid\n"
    "0000000000000000 w undefined_weak\n"
    "not a symbol line\n"
    "\n"
    "ffffffffc0000000 t ext4_read\t[ext4]\n"
    "ffffffffc0000080 T ext4_write\t[ext4]\n"
    "ffffffffc0000100 d ext4_data\t[ext4]";

/* "mod`name+0xoff" of a lookup, or "-" when it fails. */
static const char *
t_sym(const dt_ksyms_t *ks, uint64_t addr)
{
	static char buf[256];
	const char *mod, *name;
	uint64_t val;

	if (dt_ksyms_lookup(ks, addr, &mod, &name, &val) != 0)
		return "-";
	snprintf(buf, sizeof (buf), "%s`%s+0x%llx", mod, name,
	    (unsigned long long) (addr - val));
	return buf;
}

static void
test_parse(void)
{
	dt_ksyms_t *ks = dt_ksyms_parse(t_kallsyms, sizeof (t_kallsyms) - 1);
	uint64_t lo, hi;

	CHECK(ks != NULL);
	if (ks == NULL)
		return;
	CHECK(!dt_ksyms_restricted(ks));
	/* One name per address: 0x0, 0x10, 0x100, 0x300, 0x400; ext4's two. */
	CHECK_INT(dt_ksyms_count(ks), 7);

	CHECK_STR(t_sym(ks, 0xffffffff80ffffffULL), "-");
	/* Aliases: global first, then the fewest leading underscores. */
	CHECK_STR(t_sym(ks, 0xffffffff81000000ULL), "vmlinux`srso_alias+0x0");
	CHECK_STR(t_sym(ks, 0xffffffff8100000fULL), "vmlinux`srso_alias+0xf");
	CHECK_STR(t_sym(ks, 0xffffffff81000010ULL), "vmlinux`__do_thing+0x0");
	CHECK_STR(t_sym(ks, 0xffffffff810000ffULL),
	    "vmlinux`__do_thing+0xef");
	CHECK_STR(t_sym(ks, 0xffffffff81000100ULL), "vmlinux`weak_fn+0x0");
	CHECK_STR(t_sym(ks, 0xffffffff810001ffULL), "vmlinux`weak_fn+0xff");
	/* A data symbol ends the text before it, and names its bytes. */
	CHECK_STR(t_sym(ks, 0xffffffff81000200ULL), "vmlinux`some_data+0x0");
	CHECK_STR(t_sym(ks, 0xffffffff810002ffULL), "vmlinux`some_data+0xff");
	CHECK_STR(t_sym(ks, 0xffffffff81000300ULL), "vmlinux`after_data+0x0");
	/* A system call's compat entry point yields to the native one. */
	CHECK_STR(t_sym(ks, 0xffffffff81000400ULL),
	    "vmlinux`__x64_sys_getppid+0x0");
	/* Modules' symbols carry their module. */
	CHECK_STR(t_sym(ks, 0xffffffffc0000004ULL), "ext4`ext4_read+0x4");
	CHECK_STR(t_sym(ks, 0xffffffffc00000ffULL), "ext4`ext4_write+0x7f");
	/* The last symbol, a variable: only its own address is surely in it. */
	CHECK_STR(t_sym(ks, 0xffffffffc0000100ULL), "ext4`ext4_data+0x0");
	CHECK_STR(t_sym(ks, 0xffffffffc0000101ULL), "-");
	CHECK_STR(t_sym(ks, 0xffffffffffffffffULL), "-");

	CHECK_INT(dt_ksyms_range(ks, "weak_fn", &lo, &hi), 0);
	CHECK(lo == 0xffffffff81000100ULL && hi == 0xffffffff81000200ULL);
	CHECK_INT(dt_ksyms_range(ks, "ext4_write", &lo, &hi), 0);
	CHECK(lo == 0xffffffffc0000080ULL && hi == 0xffffffffc0000100ULL);
	CHECK_INT(dt_ksyms_range(ks, "some_data", &lo, &hi), -1);
	CHECK_INT(dt_ksyms_range(ks, "no_such_fn", &lo, &hi), -1);

	/* A module's code, as profiles map it: first text to last's end. */
	CHECK_INT(dt_ksyms_text_range(ks, "vmlinux", &lo, &hi), 0);
	CHECK(lo == 0xffffffff81000000ULL && hi == 0xffffffffc0000000ULL);
	CHECK_INT(dt_ksyms_text_range(ks, "ext4", &lo, &hi), 0);
	CHECK(lo == 0xffffffffc0000000ULL && hi == 0xffffffffc0000100ULL);
	CHECK_INT(dt_ksyms_text_range(ks, "xfs", &lo, &hi), -1);

	/* By name, variables too: `some_data, ext4`ext4_data. */
	CHECK_INT(dt_ksyms_addr(ks, NULL, "some_data", &lo), 0);
	CHECK(lo == 0xffffffff81000200ULL);
	CHECK_INT(dt_ksyms_addr(ks, "vmlinux", "some_data", &lo), 0);
	CHECK_INT(dt_ksyms_addr(ks, "ext4", "some_data", &lo), -1);
	CHECK_INT(dt_ksyms_addr(ks, "ext4", "ext4_data", &lo), 0);
	CHECK(lo == 0xffffffffc0000100ULL);
	CHECK_INT(dt_ksyms_addr(ks, NULL, "weak_fn", &lo), 0);
	CHECK(lo == 0xffffffff81000100ULL);
	CHECK_INT(dt_ksyms_addr(ks, NULL, "undefined_weak", &lo), -1);
	CHECK_INT(dt_ksyms_addr(ks, NULL, "no_such", &lo), -1);
	dt_ksyms_free(ks);
}

static void
test_last(void)
{
	/* Nothing follows the last symbol: only its own address is known. */
	static const char text[] = "ffffffff81000000 T only\n";
	dt_ksyms_t *ks = dt_ksyms_parse(text, sizeof (text) - 1);

	CHECK(ks != NULL);
	if (ks == NULL)
		return;
	CHECK_STR(t_sym(ks, 0xffffffff81000000ULL), "vmlinux`only+0x0");
	CHECK_STR(t_sym(ks, 0xffffffff81000001ULL), "-");
	dt_ksyms_free(ks);
}

static void
test_percpu(void)
{
	/* Per-CPU variables are offsets, listed below the kernel's text. */
	static const char text[] =
	    "0000000000000000 A fixed_percpu_data\n"
	    "0000000000001000 A cpu_debug_store\n"
	    "0000000000002000 A irq_stack_backing_store\n"
	    "ffffffff81000000 T _stext\n"
	    "ffffffff81000100 T do_thing\n"
	    "ffffffff82000000 D max_pfn\n"
	    "ffffffff82000008 D other_var\n";
	dt_ksyms_t *ks = dt_ksyms_parse(text, sizeof (text) - 1);

	CHECK(ks != NULL);
	if (ks == NULL)
		return;
	CHECK_STR(t_sym(ks, 0x1234), "-");
	CHECK_STR(t_sym(ks, 0x1000), "-");
	CHECK_STR(t_sym(ks, 0xffffffff82000004ULL), "vmlinux`max_pfn+0x4");
	dt_ksyms_free(ks);
}

static void
test_restricted(void)
{
	/* What a reader without CAP_SYSLOG sees. */
	static const char text[] = "0000000000000000 T _stext\n"
				   "0000000000000000 t do_thing\n"
				   "0000000000000000 t ext4_read\t[ext4]\n";
	dt_ksyms_t *ks = dt_ksyms_parse(text, sizeof (text) - 1);

	CHECK(ks != NULL);
	if (ks == NULL)
		return;
	CHECK(dt_ksyms_restricted(ks));
	CHECK_INT(dt_ksyms_count(ks), 0);
	CHECK_STR(t_sym(ks, 0), "-");
	CHECK_STR(t_sym(ks, 0xffffffff81000000ULL), "-");
	dt_ksyms_free(ks);

	/* An empty file is not a restricted one. */
	ks = dt_ksyms_parse("", 0);
	CHECK(ks != NULL);
	if (ks != NULL) {
		CHECK(!dt_ksyms_restricted(ks));
		CHECK_STR(t_sym(ks, 0xffffffff81000000ULL), "-");
		dt_ksyms_free(ks);
	}
}

static void
test_load(void)
{
	char path[] = "/tmp/ksyms_testXXXXXX";
	int fd = mkstemp(path);
	dt_ksyms_t *ks;

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	CHECK(write(fd, t_kallsyms, sizeof (t_kallsyms) - 1) ==
	    (ssize_t) (sizeof (t_kallsyms) - 1));
	(void) close(fd);
	ks = dt_ksyms_load(path);
	(void) unlink(path);
	CHECK(ks != NULL);
	if (ks != NULL) {
		CHECK_STR(t_sym(ks, 0xffffffffc0000004ULL),
		    "ext4`ext4_read+0x4");
		dt_ksyms_free(ks);
	}
	errno = 0;
	CHECK(dt_ksyms_load("/nonexistent/kallsyms") == NULL);
	CHECK_INT(errno, ENOENT);
}

int
main(void)
{
	test_parse();
	test_last();
	test_percpu();
	test_restricted();
	test_load();
	return unit_done();
}
