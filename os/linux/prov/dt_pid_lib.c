/* SPDX-License-Identifier: MIT */
/*
 * dt_pid_lib.c: which file a module name of a pid probe names.  A
 * process's own modules are named by their path, their basename
 * (libc.so.6) or their basename up to a '.' (libc.so, libc):
 * dt_pid_name_rank() says how well a name fits a file, for the pid
 * provider's lookup in a process's maps.  For pid* probes, which trace a
 * file in every process, including those not started yet, there are no
 * maps to look in: dt_pid_lib_resolve() finds the file as the dynamic
 * linker would, in its cache (/etc/ld.so.cache), by the same rules, or
 * takes a path as it is.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "os/linux/prov/dt_linux_prov.h"

int
dt_pid_name_rank(const char *path, const char *base, const char *name)
{
	size_t len = strlen(name);

	if (strcmp(base, name) == 0 || strcmp(path, name) == 0)
		return 1;
	if (strncmp(base, name, len) == 0 && base[len] == '.')
		return 2;
	return 0;
}

/*
 * The ELF class and machine of a file (-1 when it is no ELF file), so a
 * library of another architecture that the cache lists (a multilib
 * system's i386 libc) is not taken for ours.
 */
static int
dt_pid_elf_kind(const char *path)
{
	unsigned char h[EI_NIDENT + 4];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	uint16_t mach;

	if (fd < 0)
		return -1;
	n = read(fd, h, sizeof (h));
	(void) close(fd);
	if (n != (ssize_t) sizeof (h) || memcmp(h, ELFMAG, SELFMAG) != 0)
		return -1;
	memcpy(&mach, h + EI_NIDENT + 2, sizeof (mach));	/* e_machine */
	return h[EI_CLASS] << 16 | mach;
}

/*
 * The cache as glibc has written it since 2.32 ("glibc-ld.so.cache1.1",
 * possibly after the old format's part): a header, then entries of
 * flags, key and value (offsets of the soname and the path from the
 * header), OS version and hardware capabilities.
 */
#define DT_LDCACHE_MAGIC "glibc-ld.so.cache1.1"
#define DT_LDCACHE_HDR	 48
#define DT_LDCACHE_ENT	 24

int
dt_pid_ldcache(const char *cachefile, const char *name, char *path,
    size_t len)
{
	const size_t mlen = sizeof (DT_LDCACHE_MAGIC) - 1;
	int want = dt_pid_elf_kind("/proc/self/exe"), best = 0, rc = -1;
	char *buf = NULL, *hdr;
	struct stat st;
	uint32_t nlibs;
	FILE *fp;

	if ((fp = fopen(cachefile, "re")) == NULL)
		return -1;
	if (fstat(fileno(fp), &st) != 0 || st.st_size < DT_LDCACHE_HDR ||
	    st.st_size > (64 << 20) ||
	    (buf = malloc((size_t) st.st_size + 1)) == NULL ||
	    fread(buf, 1, (size_t) st.st_size, fp) != (size_t) st.st_size)
		goto out;
	buf[st.st_size] = '\0';		/* every string ends in the buffer */
	if ((hdr = memmem(buf, (size_t) st.st_size, DT_LDCACHE_MAGIC, mlen)) ==
	    NULL || (size_t) (buf + st.st_size - hdr) < DT_LDCACHE_HDR)
		goto out;
	memcpy(&nlibs, hdr + mlen, sizeof (nlibs));
	for (uint32_t i = 0; i < nlibs && best != 1; i++) {
		const char *e = hdr + DT_LDCACHE_HDR + (size_t) i *
		    DT_LDCACHE_ENT;
		uint32_t key, value;
		const char *file, *base;
		int r;

		if (e + DT_LDCACHE_ENT > buf + st.st_size)
			break;
		memcpy(&key, e + 4, sizeof (key));
		memcpy(&value, e + 8, sizeof (value));
		if (key >= (size_t) (buf + st.st_size - hdr) ||
		    value >= (size_t) (buf + st.st_size - hdr))
			continue;
		file = hdr + value;
		base = strrchr(file, '/') != NULL ? strrchr(file, '/') + 1 :
		    file;
		r = dt_pid_name_rank(file, hdr + key, name);
		if (r == 0 && (r = dt_pid_name_rank(file, base, name)) == 0)
			continue;
		if ((best != 0 && r >= best) || dt_pid_elf_kind(file) != want)
			continue;
		(void) snprintf(path, len, "%s", file);
		best = r;
		rc = 0;
	}
out:
	free(buf);
	(void) fclose(fp);
	return rc;
}

int
dt_pid_lib_resolve(const char *name, char *path, size_t len)
{
	char found[PATH_MAX], real[PATH_MAX];
	struct stat st;

	if (strchr(name, '/') != NULL)
		(void) snprintf(found, sizeof (found), "%s", name);
	else if (dt_pid_ldcache("/etc/ld.so.cache", name, found,
	    sizeof (found)) != 0) {
		errno = ENOENT;
		return -1;
	}
	/* The file itself: uprobes are placed on its inode. */
	if (realpath(found, real) == NULL)
		return -1;
	if (stat(real, &st) != 0)
		return -1;
	if (!S_ISREG(st.st_mode)) {
		errno = EISDIR;
		return -1;
	}
	if (dt_pid_elf_kind(real) < 0) {
		errno = ENOEXEC;
		return -1;
	}
	(void) snprintf(path, len, "%s", real);
	return 0;
}
