/* SPDX-License-Identifier: MIT */
/*
 * pid_lib_test.c: the names of pid probes' modules -- how well a name
 * fits a file (dt_pid_name_rank()), and the library the dynamic linker's
 * cache gives a name (dt_pid_ldcache()), over caches written here: an
 * exact name before a shorter one, the cache's order among equals, files
 * that are not ELF or not of our architecture passed over, a cache
 * behind the old format's part, and a truncated one.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "os/linux/prov/dt_linux_prov.h"
#include "tests/unit/unit.h"

static char dir[] = "/tmp/pid_lib_testXXXXXX";

/* Copy /proc/self/exe (an ELF file of our architecture) to dir/name. */
static void
elf_file(const char *name)
{
	char path[PATH_MAX], buf[65536];
	int in = open("/proc/self/exe", O_RDONLY), out;
	ssize_t n;

	(void) snprintf(path, sizeof (path), "%s/%s", dir, name);
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	while (in >= 0 && out >= 0 && (n = read(in, buf, sizeof (buf))) > 0)
		CHECK(write(out, buf, (size_t) n) == n);
	(void) close(in);
	(void) close(out);
}

/* dir/name holding bytes (not an ELF file, or another machine's). */
static void
other_file(const char *name, const void *bytes, size_t n)
{
	char path[PATH_MAX];
	FILE *fp;

	(void) snprintf(path, sizeof (path), "%s/%s", dir, name);
	CHECK((fp = fopen(path, "w")) != NULL);
	if (fp != NULL) {
		CHECK(fwrite(bytes, 1, n, fp) == n);
		(void) fclose(fp);
	}
}

/*
 * A cache of n entries (soname, file in dir) after a prefix of plen
 * bytes, cut to cut bytes if not 0; its path into cache.
 */
static void
write_cache(char *cache, size_t clen, const char *const *names, int n,
    size_t plen, size_t cut)
{
	char buf[8192], *hdr = buf + plen;
	uint32_t strs = 48 + 24 * (uint32_t) n, off = strs;
	size_t len;
	FILE *fp;

	memset(buf, 0, sizeof (buf));
	memcpy(buf, "ld.so-1.7.0", plen > 11 ? 11 : plen);
	memcpy(hdr, "glibc-ld.so.cache1.1", 20);
	memcpy(hdr + 20, &(uint32_t) { (uint32_t) n }, 4);
	for (int i = 0; i < n; i++) {
		char *e = hdr + 48 + 24 * i;
		int k = snprintf(hdr + off, 256, "%s", names[i]) + 1;
		uint32_t key = off;

		off += (uint32_t) k;
		memcpy(e, &(int32_t) { 0x0303 }, 4);
		memcpy(e + 4, &key, 4);
		memcpy(e + 8, &off, 4);
		off += (uint32_t) snprintf(hdr + off, 512, "%s/%s", dir,
		    names[i]) + 1;
	}
	len = plen + off;
	(void) snprintf(cache, clen, "%s/ld.so.cache", dir);
	CHECK((fp = fopen(cache, "w")) != NULL);
	if (fp != NULL) {
		CHECK(fwrite(buf, 1, cut != 0 ? cut : len, fp) ==
		    (cut != 0 ? cut : len));
		(void) fclose(fp);
	}
}

int
main(void)
{
	static const char *const names[] = { "libfoo.so.2", "libfoo.so.1",
		"libbar.so.1", "libarm.so.1", "libz.so.1" };
	/* An ELF header of another machine: 64-bit, EM_ARM (40)... */
	unsigned char foreign[64] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };
	char cache[PATH_MAX], path[PATH_MAX], want[PATH_MAX];

	/* Names. */
	CHECK_INT(dt_pid_name_rank("/lib/libc.so.6", "libc.so.6", "libc.so.6"),
	    1);
	CHECK_INT(dt_pid_name_rank("/lib/libc.so.6", "libc.so.6",
	    "/lib/libc.so.6"), 1);
	CHECK_INT(dt_pid_name_rank("/lib/libc.so.6", "libc.so.6", "libc"), 2);
	CHECK_INT(dt_pid_name_rank("/lib/libc.so.6", "libc.so.6", "libc.so"),
	    2);
	CHECK_INT(dt_pid_name_rank("/lib/libc.so.6", "libc.so.6", "lib"), 0);
	CHECK_INT(dt_pid_name_rank("/lib/libc.so.6", "libc.so.6",
	    "libc.so.6.1"), 0);

	if (mkdtemp(dir) == NULL)
		SKIP("cannot make a directory in /tmp");
	foreign[18] = 40;
	elf_file("libfoo.so.2");
	elf_file("libfoo.so.1");
	other_file("libbar.so.1", "not ELF\n", 8);
	other_file("libarm.so.1", foreign, sizeof (foreign));
	elf_file("libz.so.1");

	write_cache(cache, sizeof (cache), names, 5, 0, 0);
	/* The first of the shorter names, in the cache's order. */
	CHECK_INT(dt_pid_ldcache(cache, "libfoo", path, sizeof (path)), 0);
	(void) snprintf(want, sizeof (want), "%s/libfoo.so.2", dir);
	CHECK_STR(path, want);
	CHECK_INT(dt_pid_ldcache(cache, "libfoo.so", path, sizeof (path)), 0);
	CHECK_STR(path, want);
	/* An exact name wins wherever it is. */
	CHECK_INT(dt_pid_ldcache(cache, "libfoo.so.1", path, sizeof (path)),
	    0);
	(void) snprintf(want, sizeof (want), "%s/libfoo.so.1", dir);
	CHECK_STR(path, want);
	/* Not ELF, another machine's, no such name. */
	CHECK_INT(dt_pid_ldcache(cache, "libbar", path, sizeof (path)), -1);
	CHECK_INT(dt_pid_ldcache(cache, "libarm", path, sizeof (path)), -1);
	CHECK_INT(dt_pid_ldcache(cache, "libf", path, sizeof (path)), -1);
	CHECK_INT(dt_pid_ldcache(cache, "libz", path, sizeof (path)), 0);

	/* Behind the old format's part: offsets from the new header. */
	write_cache(cache, sizeof (cache), names, 5, 16, 0);
	CHECK_INT(dt_pid_ldcache(cache, "libz.so.1", path, sizeof (path)), 0);
	(void) snprintf(want, sizeof (want), "%s/libz.so.1", dir);
	CHECK_STR(path, want);

	/* Cut inside its entries or strings: what is there, no more. */
	write_cache(cache, sizeof (cache), names, 5, 0, 48 + 24 * 2);
	CHECK_INT(dt_pid_ldcache(cache, "libfoo", path, sizeof (path)), -1);
	write_cache(cache, sizeof (cache), names, 5, 0, 20);
	CHECK_INT(dt_pid_ldcache(cache, "libfoo", path, sizeof (path)), -1);
	(void) snprintf(want, sizeof (want), "%s/none", dir);
	CHECK_INT(dt_pid_ldcache(want, "libfoo", path, sizeof (path)), -1);

	(void) snprintf(path, sizeof (path), "rm -rf %s", dir);
	CHECK(system(path) == 0);
	return unit_done();
}
