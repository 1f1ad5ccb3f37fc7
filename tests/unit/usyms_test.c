/* SPDX-License-Identifier: MIT */
/*
 * usyms_test.c: user symbol lookup (os/linux/dt_usyms.c) from synthetic
 * maps text, against this test program's own symbol table, and from the
 * live /proc/self/maps.
 *
 * The synthetic maps place this executable at made-up addresses, so the
 * lookup has to go from address to file offset (the mapping's start and
 * page offset) to link-time address (the segment table) to function, as
 * it does for a real process.
 */
#include <stdint.h>
#include <unistd.h>

#include "os/linux/dt_usyms.h"
#include "tests/unit/unit.h"

/* The function looked up; big enough to look inside it. */
static __attribute__((noinline, used)) int
usyms_test_target(int x)
{
	int s = 0;

	for (int i = 0; i < x; i++)
		s += i * x;
	return s;
}

/* The file offset of addr in this executable, from the live maps. */
static int
usyms_fileoff(uint64_t addr, char *path, size_t len, uint64_t *offp)
{
	char line[4096];
	FILE *fp = fopen("/proc/self/maps", "r");
	int rc = -1;

	if (fp == NULL)
		return -1;
	while (fgets(line, sizeof (line), fp) != NULL) {
		uint64_t lo, hi, pgoff;
		int k = 0;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64
		    " %*s %*s %n", &lo, &hi, &pgoff, &k) < 3 || k == 0 ||
		    addr < lo || addr >= hi)
			continue;
		line[strcspn(line, "\n")] = '\0';
		(void) snprintf(path, len, "%s", line + k);
		*offp = addr - lo + pgoff;
		rc = 0;
	}
	(void) fclose(fp);
	return rc;
}

int
main(void)
{
	uint64_t fn = (uint64_t) (uintptr_t) &usyms_test_target;
	uint64_t off = 0, base = 0x10000000;
	char path[2048], maps[8192];
	const char *name;
	dt_usym_info_t ui;
	dt_usyms_t *us;

	if (usyms_fileoff(fn, path, sizeof (path), &off) != 0 ||
	    path[0] != '/')
		SKIP("cannot find this program's text in /proc/self/maps");
	name = strrchr(path, '/') + 1;
	CHECK((us = dt_usyms_create()) != NULL);
	if (us == NULL)
		return unit_done();

	/*
	 * Pid 1 with made-up maps: this file's first 16 MB mapped at base
	 * (its text somewhere in it), an anonymous mapping, the vdso, and a
	 * second mapping of the file, "deleted", at a page offset.
	 */
	(void) snprintf(maps, sizeof (maps),
	    "%" PRIx64 "-%" PRIx64 " r-xp 00000000 08:01 42   %s\n"
	    "20000000-20001000 rw-p 00000000 00:00 0\n"
	    "30000000-30002000 r-xp 00000000 00:00 0   [vdso]\n"
	    "40000000-41000000 r-xp 00001000 08:01 42   %s (deleted)\n"
	    "garbage line\n",
	    base, base + 0x1000000, path, path);
	CHECK_INT(dt_usyms_setmaps(us, 1, maps), 0);

	/* The function's first byte: its name, its address, no offset. */
	CHECK_INT(dt_usyms_lookup(us, 1, base + off, &ui), 0);
	CHECK_STR(ui.ui_module, name);
	CHECK_STR(ui.ui_name, "usyms_test_target");
	CHECK_INT(ui.ui_value, base + off);
	CHECK_INT(ui.ui_base, base);

	/* Inside it: the same function, at the same address. */
	CHECK_INT(dt_usyms_lookup(us, 1, base + off + 5, &ui), 0);
	CHECK_STR(ui.ui_name, "usyms_test_target");
	CHECK_INT(ui.ui_value, base + off);

	/* Through the second mapping: pgoff 0x1000, " (deleted)" cut. */
	CHECK_INT(dt_usyms_lookup(us, 1, 0x40000000 + off - 0x1000 + 2, &ui),
	    0);
	CHECK_STR(ui.ui_module, name);
	CHECK_STR(ui.ui_name, "usyms_test_target");
	CHECK_INT(ui.ui_value, 0x40000000 + off - 0x1000);
	CHECK_INT(ui.ui_base, 0x40000000 - 0x1000);

	/* The ELF header is mapped but in no function: the module only. */
	CHECK_INT(dt_usyms_lookup(us, 1, base + 4, &ui), 0);
	CHECK_STR(ui.ui_module, name);
	CHECK(ui.ui_name == NULL);

	/*
	 * The mapping behind an address, for profiles: the file's path, the
	 * mapping's range and page offset, and the file's build ID, which
	 * readelf must read the same.
	 */
	{
		dt_os_mapping_t om;
		char cmd[2200], want[DT_OS_BUILDID_MAX] = "";
		FILE *fp;

		CHECK_INT(dt_usyms_mapping(us, 1, base + off, &om), 0);
		CHECK_STR(om.om_path, path);
		CHECK(om.om_start == base && om.om_limit == base + 0x1000000 &&
		    om.om_offset == 0);
		CHECK(strlen(om.om_buildid) >= 16 &&
		    strspn(om.om_buildid, "0123456789abcdef") ==
			strlen(om.om_buildid));
		(void) snprintf(cmd, sizeof (cmd),
		    "readelf -n '%s' 2>/dev/null | "
		    "sed -n 's/^ *Build ID: //p'", path);
		if ((fp = popen(cmd, "r")) != NULL) {
			if (fgets(want, sizeof (want), fp) != NULL)
				want[strcspn(want, "\n")] = '\0';
			(void) pclose(fp);
		}
		if (want[0] != '\0')
			CHECK_STR(om.om_buildid, want);
		else
			printf("note: no readelf: the build ID is not "
			       "compared\n");
		CHECK_INT(dt_usyms_mapping(us, 1, 0x40000000 + 2, &om), 0);
		CHECK_STR(om.om_path, path);
		CHECK(om.om_start == 0x40000000 && om.om_limit == 0x41000000 &&
		    om.om_offset == 0x1000);
		CHECK_INT(dt_usyms_mapping(us, 1, 0x20000010, &om), -1);
		CHECK_INT(dt_usyms_mapping(us, 1, 0x30000010, &om), -1);
		CHECK_INT(dt_usyms_mapping(us, 3, base + off, &om), -1);
	}

	/* Anonymous memory, the vdso, and nothing at all: unknown. */
	CHECK_INT(dt_usyms_lookup(us, 1, 0x20000010, &ui), -1);
	CHECK_INT(dt_usyms_lookup(us, 1, 0x30000010, &ui), -1);
	CHECK_INT(dt_usyms_lookup(us, 1, 0x50000000, &ui), -1);

	/* Empty maps: nothing is known. */
	CHECK_INT(dt_usyms_setmaps(us, 2, ""), 0);
	CHECK_INT(dt_usyms_lookup(us, 2, base + off, &ui), -1);

	/* The live process: a snapshot of our own maps. */
	CHECK_INT(dt_usyms_hold(us, (int) getpid()), 0);
	CHECK_INT(dt_usyms_lookup(us, (int) getpid(), fn + 1, &ui), 0);
	CHECK_STR(ui.ui_module, name);
	CHECK_STR(ui.ui_name, "usyms_test_target");
	CHECK_INT(ui.ui_value, fn);

	/* A process that does not exist: no maps, no answer. */
	CHECK_INT(dt_usyms_hold(us, INT32_MAX), -1);
	CHECK_INT(dt_usyms_lookup(us, INT32_MAX, fn, &ui), -1);

	dt_usyms_destroy(us);
	(void) usyms_test_target(3);
	return unit_done();
}
