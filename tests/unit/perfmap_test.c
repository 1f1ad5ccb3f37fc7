/* SPDX-License-Identifier: MIT */
/*
 * perfmap_test.c: JIT symbols from perf maps (os/linux/dt_perfmap.c and
 * their use by dt_usyms.c for addresses in no file) and the demangler
 * (common/dt_demangle.c).
 *
 * A map is written the way runtimes write them, then appended to, ended
 * mid-line, and rewritten shorter, checking after each step what a
 * lookup answers and that names handed out earlier stay readable.
 * Maps that are not the process's user's regular files are refused,
 * without blocking, and said to be once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/dt_demangle.h"
#include "os/linux/dt_perfmap.h"
#include "os/linux/dt_usyms.h"
#include "tests/unit/unit.h"

static void
put(const char *path, const char *mode, const char *text)
{
	FILE *fp = fopen(path, mode);

	if (fp == NULL)
		SKIP("cannot write a temporary file");
	(void) fputs(text, fp);
	(void) fclose(fp);
}

int
main(void)
{
	char path[] = "/tmp/perfmap_testXXXXXX";
	const char *kept;
	struct timespec ts = {0, 150 * 1000 * 1000};
	dt_perfmap_t pm = {0};
	dt_usym_info_t ui;
	dt_usyms_t *us;
	uint64_t start;
	int fd;

	if ((fd = mkstemp(path)) < 0)
		SKIP("cannot make a temporary file");
	(void) close(fd);

	/* Demangling: C++, Rust legacy (hash dropped) and v0; C untouched. */
	CHECK_STR(dt_demangle("_ZN2ns1K1fEi"), "ns::K::f(int)");
	CHECK_STR(dt_demangle("_ZN4core3fmt5write17h0123456789abcdefE"),
	    "core::fmt::write");
	CHECK_STR(dt_demangle("_RNvNtCs1234_7mycrate6module3bar"),
	    "mycrate::module::bar");
	CHECK(dt_demangle("main") == NULL);
	CHECK(dt_demangle("foo__bar") == NULL);
	CHECK(dt_demangle("_Zjunk") == NULL);
	/* Asked again: the same string, kept. */
	CHECK(dt_demangle("_ZN2ns1K1fEi") == dt_demangle("_ZN2ns1K1fEi"));

	/* A missing file: no symbols, no error. */
	CHECK_INT(
	    dt_perfmap_update(&pm, "/nonexistent/perf-1.map", geteuid()), 0);
	CHECK(dt_perfmap_lookup(&pm, 0x1000, &start) == NULL);

	put(path, "w",
	    "7f0000001000 100 LazyCompile:*hot /app/x.js:3\n"
	    "0x7f0000002000 0x40 long Hot.hotLoop(long)\n"
	    "not a symbol line\n");
	CHECK_INT(dt_perfmap_update(&pm, path, geteuid()), 0);
	CHECK_STR(dt_perfmap_lookup(&pm, 0x7f0000001080, &start),
	    "LazyCompile:*hot /app/x.js:3");
	CHECK_INT(start, 0x7f0000001000);
	CHECK_STR(dt_perfmap_lookup(&pm, 0x7f000000203f, &start),
	    "long Hot.hotLoop(long)");
	CHECK(dt_perfmap_lookup(&pm, 0x7f0000001100, &start) == NULL);
	CHECK(dt_perfmap_lookup(&pm, 0x7f0000000fff, &start) == NULL);
	kept = dt_perfmap_lookup(&pm, 0x7f0000001000, &start);

	/*
	 * Appended: code recompiled at the same address (the later line
	 * wins), and a line still being written, read once it is ended.
	 */
	put(path, "a",
	    "7f0000001000 80 LazyCompile:*hot2 /app/x.js:3\n"
	    "7f0000003000 10 half");
	CHECK_INT(dt_perfmap_update(&pm, path, geteuid()), 0);
	CHECK_STR(dt_perfmap_lookup(&pm, 0x7f0000001010, &start),
	    "LazyCompile:*hot2 /app/x.js:3");
	CHECK(dt_perfmap_lookup(&pm, 0x7f0000003000, &start) == NULL);
	put(path, "a", "way\n");
	CHECK_INT(dt_perfmap_update(&pm, path, geteuid()), 0);
	CHECK_STR(dt_perfmap_lookup(&pm, 0x7f0000003004, &start), "halfway");

	/* Rewritten shorter: read again; old names still readable. */
	put(path, "w", "7f0000005000 20 fresh\n");
	CHECK_INT(dt_perfmap_update(&pm, path, geteuid()), 0);
	CHECK_STR(dt_perfmap_lookup(&pm, 0x7f0000005000, &start), "fresh");
	CHECK(dt_perfmap_lookup(&pm, 0x7f0000001010, &start) == NULL);
	CHECK_STR(kept, "LazyCompile:*hot /app/x.js:3");
	dt_perfmap_free(&pm);

	/*
	 * Refused: a FIFO (opening it must not wait for a writer), and
	 * another user's file (when we are root, every file is root's,
	 * which is trusted: the file is given to nobody).
	 */
	{
		char fifo[] = "/tmp/perfmap_fifoXXXXXX";
		uid_t other = geteuid() == 0 ? 1 : geteuid() + 1;
		const char *why;

		CHECK((fd = mkstemp(fifo)) >= 0);
		(void) close(fd);
		(void) unlink(fifo);
		CHECK_INT(mkfifo(fifo, 0644), 0);
		CHECK_INT(dt_perfmap_update(&pm, fifo, geteuid()), 0);
		CHECK(dt_perfmap_lookup(&pm, 0x7f0000005000, &start) == NULL);
		CHECK((why = dt_perfmap_warning(&pm)) != NULL &&
		    strstr(why, "not a regular file") != NULL);
		CHECK(dt_perfmap_warning(&pm) == NULL);
		(void) unlink(fifo);
		dt_perfmap_free(&pm);

		if (geteuid() == 0)
			CHECK_INT(chown(path, 65534, 65534), 0);
		CHECK_INT(dt_perfmap_update(&pm, path, other), 0);
		CHECK(dt_perfmap_lookup(&pm, 0x7f0000005000, &start) == NULL);
		CHECK((why = dt_perfmap_warning(&pm)) != NULL &&
		    strstr(why, "not by the process's user") != NULL);
		dt_perfmap_free(&pm);
		if (geteuid() == 0)
			CHECK_INT(chown(path, 0, 0), 0);
	}

	/*
	 * Through dt_usyms: an address in no file of the process is found
	 * in its perf map, read again when it has grown.
	 */
	CHECK((us = dt_usyms_create()) != NULL);
	CHECK_INT(dt_usyms_setmaps(us, 7,
		      "00400000-00401000 r-xp 00000000 "
		      "08:01 1 /usr/bin/true\n7f0000000000-7f0000100000 rwxp "
		      "00000000 "
		      "00:00 0\n"),
	    0);
	CHECK_INT(dt_usyms_setperfmap(us, 7, path), 0);
	CHECK_INT(dt_usyms_lookup(us, 7, 0x7f0000005008, &ui), 0);
	CHECK_STR(ui.ui_name, "fresh");
	CHECK_INT(ui.ui_value, 0x7f0000005000);
	CHECK_INT(dt_usyms_lookup(us, 7, 0x7f0000006000, &ui), -1);
	put(path, "a", "7f0000006000 20 later\n");
	(void) nanosleep(&ts, NULL); /* past the re-read interval */
	CHECK_INT(dt_usyms_lookup(us, 7, 0x7f0000006000, &ui), 0);
	CHECK_STR(ui.ui_name, "later");
	/* Outside every mapping too (code mapped since the snapshot). */
	put(path, "a", "7f1000000000 20 beyond\n");
	(void) nanosleep(&ts, NULL);
	CHECK_INT(dt_usyms_lookup(us, 7, 0x7f1000000001, &ui), 0);
	CHECK_STR(ui.ui_name, "beyond");
	dt_usyms_destroy(us);

	(void) unlink(path);
	return unit_done();
}
